"""Hostile input: time linear in the input and peak memory a small multiple of the largest
game's text, measured, not tested.

    taskset -c 0 .venv/bin/python bench/hostile.py [--small 1000000] [--large 4000000] [--case TEXT]

Each case writes a file at two sizes, runs a ``pdn`` command on it as a whole process and
prints its CPU seconds (less those of the same command on two small games) and peak memory
(``wait4``'s rusage). Time per character should stay flat from the small to the large size
(quadratic work multiplies it by the size ratio), and peak memory should stay a small
multiple of the file: the script exits 1 when a time ratio is over 2 or a peak over
``MEMORY_FACTOR`` times the file plus what the command takes loaded.

``identical one-move games``: ``pdn dedupe`` of one game copied 5,000 and 20,000 times
(at the default sizes). Before one lookup per game (2adfcd2) the whole process took 8.8 and
92.0 CPU seconds, 21.6 at 10,000: each copy was compared with every copy before it. Now
3.4, 5.8 and 10.6 s. ``one line, other players``: one short line played by 5,000 and
20,000 different pairs of players; 61.4 s at 5,000 before (each game compared with every
game before it), 10.5 s now (bench/README.md, "Hostile lines").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]
GOOD = '[Event "a"]\n1. 32-28 19-23 1-0\n\n'



def shuffling_kings(chars: int) -> str:
    """One English game on one line, about ``chars`` long: two kings shuffling from
    ``B:WK29:BK4`` (a draw met long before its last move), 400,000 plies in 3.5 MB."""
    pairs = ("4-8 29-25", "8-4 25-29")
    moves, size, number = [], 0, 1
    while size < chars:
        moves.append(f"{number}. {pairs[number % 2 == 0]}")
        size += len(moves[-1]) + 1
        number += 1
    return '[GameType "21"]\n[FEN "B:WK29:BK4"]\n' + " ".join(moves) + " *\n\n"


# name: (command arguments before the file, the file's text for a size in characters)
CASES: dict[str, tuple[list[str], Callable[[int], str]]] = {
    'tag of \\" left open': (["info"], lambda n: '[Event "' + '\\"' * (n // 2) + "\n"),
    "tag of \\ left open": (["info"], lambda n: '[Event "' + "\\" * n + "\n"),
    "tag of \\\\\" left open": (["info"], lambda n: '[Event "' + '\\\\"' * (n // 3) + "\n"),
    "tag over two lines": (["validate"], lambda n: '[Event "x"]\n[Site "' + "x" * n
                           + '\n y"]\n1. 32-28 *\n\n'),
    "comment in parentheses": (["validate"], lambda n: '[Event "x"]\n1. 32-28 ('
                               + "a note " * (n // 7) + ") 19-23 *\n\n"),
    "one-line game, 100k-400k plies": (["validate", "--jobs", "1", "--json"],
                                       shuffling_kings),
    # 5,000 and 20,000 copies of one game: every copy in one group of duplicates
    "identical one-move games": (["dedupe", "--jobs", "1", "-o", os.devnull],
                                 lambda n: GOOD * (n // 200)),
    # one short line played by 5,000 and 20,000 different pairs of players
    "one line, other players": (["dedupe", "--jobs", "1", "-o", os.devnull],
                                lambda n: "".join(f'[White "Player{i}, A."]\n[Black "Other{i}, '
                                                  f'B."]\n1. 32-28 19-23 1-0\n\n'
                                                  for i in range(n // 200))),
}
TIME_LIMIT = 2.0
MEMORY_FACTOR = 8
BASELINE = 150 << 20  # what a pdn command takes loaded, before any input


def run(arguments: list[str], path: Path) -> tuple[float, int]:
    """CPU seconds (user + system) and peak resident bytes of one pdn command."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen([*PDN, *arguments, str(path)], stdout=null, stderr=null,
                                 cwd=ROOT)
        _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000_000)
    parser.add_argument("--large", type=int, default=4_000_000)
    parser.add_argument("--case", help="only the cases whose name holds this text")
    args = parser.parse_args()
    failed = False
    print(f"{'case':<28} {'chars':>10} {'CPU s':>7} {'µs/char':>8} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        empty = Path(folder) / "empty.pdn"
        empty.write_text(GOOD * 2)
        for name, (arguments, make) in CASES.items():
            if args.case and args.case not in name:
                continue
            start = run(arguments, empty)[0]  # the command's own start, taken off below
            per_char = []
            for size in (args.small, args.large):
                path = Path(folder) / "case.pdn"
                text = GOOD + make(size) + GOOD
                path.write_text(text)
                seconds, peak = run(arguments, path)
                seconds = max(seconds - start, 1e-3)
                per_char.append(seconds / len(text))
                print(f"{name:<28} {len(text):>10,} {seconds:>7.2f} {per_char[-1] * 1e6:>8.2f}"
                      f" {peak / 1e6:>8.1f}")
                failed |= peak > BASELINE + MEMORY_FACTOR * len(text)
            failed |= per_char[1] > TIME_LIMIT * per_char[0]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
