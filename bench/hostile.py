"""Hostile input: time linear in the input and peak memory a small multiple of the largest
game's text, measured, not tested.

    taskset -c 0 .venv/bin/python bench/hostile.py [--small 1000000] [--large 4000000] [--case TEXT]
    .venv/bin/python bench/hostile.py --commands [--case TEXT] [--command NAME] [--tree DIR]
    .venv/bin/python bench/hostile.py --streaming ARCHIVE [--copies 1 4 16] [--command NAME]

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

``--commands`` runs each command of ``COMMANDS`` (convert, analyse, stats -t games, ...) on
each file of ``FIXED`` (input without game boundaries, one long line, 50,000 games glued on
one line, a 400,000-ply game, 200,000 one-line games, a game of 200,000 tags) at the size the
hostile-input reports measured, and prints its CPU seconds and peak memory beside the size
of the file and of its largest game's text: the goal is a small multiple of the latter.
``--tree DIR`` runs the commands of another checkout (with its own ``.venv``), for figures
before and after a change.

``--streaming ARCHIVE`` runs the streaming commands of ``STREAMING`` (convert, stats, the
games table, index, filter, split, dedupe; ``--jobs 1``) on the archive copied 1, 4 and 16
times into one file (``--copies``), and prints the CPU seconds and peak memory of each:
a command that streams keeps its peak as the archive grows (bench/README.md, "Streaming
commands on copies of OCA 2.0").

Peak memory, ``--jobs 1``, before and after untagged input was cut into partitions of the
usual size, the games waiting for their file's verdict went to a temporary file past a
thousand, and games over ``pdn.reader.PLY_LIMIT`` plies were refused: 200,000 one-line
games, convert 1,245 -> 258 MB, validate 1,298 -> 265 MB; 400,000-ply game, convert
812 -> 97 MB, validate 95 MB after; one line of 5.2 MB, 436 -> 114-178 MB (validate,
convert, filter, dedupe, split; a machine shared with other work).

``pdn analyse --jobs 1 --depth 1`` (peak memory, the whole process; where the analysis of
every game takes hours, the peak once it has written its first games, which the input's
reading reaches before): no game boundary, 2.4 MB, 977 -> 76 MB and one line of 5.2 MB,
1,446 -> 100 MB (both by the ply limit: each is one game, of 251,112 and 531,112 plies,
refused as too large); the 400,000-ply game, 1,061 -> 87 MB, refused as too large (its tags
kept, its moves never read); 200,000 one-line games, 850 -> 117 MB (the input read once
to learn the games' variants and again as the engines take them, not held as games);
50,000 games glued on a line, 77 MB after; one game of 200,000 tags, 210 MB (reading the
tags, as ``validate`` does: 171 MB).

``pdn stats -t games -o`` on one game of 200,000 tags: 1,190 MB and 16.4 s -> 333 MB and
3.5 s (a games table has 1,000 tag columns at most, docs/statistics.md, "Tag columns").
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIN = "from pdn.cli.app import main; main()"
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


def boundless(chars: int) -> str:
    """Movetext with no game boundary (no tag, no result, move numbers that never start
    again), eight moves a line: one game, illegal from its third ply."""
    pairs, size, number = [], 0, 1
    while size < chars:
        pairs.append(f"{number}. 32-28 19-23" + ("\n" if number % 8 == 0 else " "))
        size += len(pairs[-1])
        number += 1
    return "".join(pairs)


def one_line(chars: int) -> str:
    """The same movetext on one line."""
    return boundless(chars).replace("\n", " ")


def glued(count: int) -> str:
    """``count`` games glued on one line (``* [Event ...``)."""
    return '[Event "g"] 1. 32-28 19-23 * ' * count + "\n"


def one_line_games(count: int) -> str:
    """``count`` untagged games, each on its own line (an opening book)."""
    return "1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41 *\n" * count


def many_tags(count: int) -> str:
    """One game with ``count`` distinct tags."""
    return "".join(f'[Tag{n} "v{n}"]\n' for n in range(count)) + "1. 32-28 19-23 *\n\n"


# name: (the file's text, the characters of its largest game)
FIXED: dict[str, Callable[[], tuple[str, int]]] = {
    "no game boundary, 2.4 MB": lambda: _whole(boundless(2_400_000)),
    "one line, 5.2 MB": lambda: _whole(one_line(5_200_000)),
    "50,000 games glued on a line": lambda: (glued(50_000), 29),
    "400,000-ply game, 3.5 MB": lambda: _whole(shuffling_kings(3_500_000)),
    "200,000 one-line games": lambda: (one_line_games(200_000), 58),
    "one game of 200,000 tags": lambda: _whole(many_tags(200_000)),
}
# name: the command's arguments before the file ({out}: a file in the bench's folder)
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "--jobs", "1", "--json"],
    "convert": ["convert", "--jobs", "1", "-o", "{out}.pdn"],
    "analyse": ["analyse", "--jobs", "1", "--depth", "1", "-o", "{out}.pdn"],
    "stats -t games": ["stats", "-t", "games", "--jobs", "1", "-o", "{out}.csv"],
    "filter": ["filter", "--game-variant", "international", "--jobs", "1", "-o", "{out}.pdn"],
    "dedupe": ["dedupe", "--jobs", "1", "-o", "{out}.pdn"],
    "split": ["split", "--by", "variant", "--jobs", "1", "-o", "{out}"],
}


# name: the streaming commands' arguments before the file, measured on an archive copied
# 1, 4 and 16 times (``--streaming``): what grows with the archive and what stays
STREAMING: dict[str, list[str]] = {
    "convert --to numeric": ["convert", "--to", "numeric", "--jobs", "1", "-o", "{out}.pdn"],
    "stats": ["stats", "--jobs", "1"],
    "stats -t games -o": ["stats", "-t", "games", "--jobs", "1", "-o", "{out}.csv"],
    "index -o": ["index", "--jobs", "1", "-o", "{out}.db"],
    "filter": ["filter", "--game-variant", "english", "--jobs", "1", "-o", "{out}.pdn"],
    "split -o": ["split", "--jobs", "1", "-o", "{out}"],
    "dedupe -o": ["dedupe", "--jobs", "1", "-o", "{out}.pdn"],
}


def run_streaming(archive: Path, copies: list[int], command: str | None, tree: Path) -> None:
    """Each command of ``STREAMING`` on ``archive`` copied each number of ``copies`` times
    into one file: CPU seconds and peak memory. The copies are made without holding the
    archive here: Linux counts this process's peak in a child's (``ru_maxrss``: the child
    starts in its memory), so each figure is at least this script's own."""
    print(f"{'command':<22} {'copies':>6} {'file MB':>8} {'CPU s':>8} {'peak MB':>8} "
          f"{'exit':>4}")
    size = archive.stat().st_size
    with tempfile.TemporaryDirectory() as folder:
        for label, arguments in STREAMING.items():
            if command and command != label:
                continue
            for times in copies:
                path = Path(folder) / f"copies{times}.pdn"
                if not path.exists():  # never held here: a child's peak counts its parent's
                    with open(path, "wb") as copies:
                        for _ in range(times):
                            with open(archive, "rb") as original:
                                shutil.copyfileobj(original, copies)
                out = Path(folder) / f"out{times}"
                seconds, peak, status = run_status([a.format(out=out) for a in arguments],
                                                   path, tree)
                print(f"{label:<22} {times:>6} {size * times / 1e6:>8.1f} {seconds:>8.2f}"
                      f" {peak / 1e6:>8.1f} {status:>4}", flush=True)


def _whole(text: str) -> tuple[str, int]:
    return text, len(text)


TIME_LIMIT = 2.0
MEMORY_FACTOR = 8
BASELINE = 150 << 20  # what a pdn command takes loaded, before any input


def run(arguments: list[str], path: Path, tree: Path = ROOT) -> tuple[float, int]:
    """CPU seconds (user + system) and peak resident bytes of one pdn command (of the
    checkout ``tree``, run with its own ``.venv``)."""
    seconds, peak, _ = run_status(arguments, path, tree)
    return seconds, peak


def run_status(arguments: list[str], path: Path, tree: Path = ROOT) -> tuple[float, int, int]:
    """``run``'s figures and the command's exit status (2: it did not run on the input)."""
    python = sys.executable if tree == ROOT else str(tree / ".venv" / "bin" / "python")
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen([python, "-c", MAIN, *arguments, str(path)], stdout=null,
                                 stderr=null, cwd=tree)
        _, status, usage = os.wait4(child.pid, 0)
    return (usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024,
            os.waitstatus_to_exitcode(status))


def run_commands(case: str | None, command: str | None, tree: Path) -> None:
    """Each command of ``COMMANDS`` on each file of ``FIXED``: CPU seconds and peak memory."""
    print(f"{'case':<30} {'command':<15} {'file MB':>8} {'game MB':>8} {'CPU s':>8} "
          f"{'peak MB':>8} {'exit':>4}")
    with tempfile.TemporaryDirectory() as folder:
        for name, make in FIXED.items():
            if case and case not in name:
                continue
            text, game = make()
            path = Path(folder) / "case.pdn"
            path.write_text(text)
            for label, arguments in COMMANDS.items():
                if command and command != label:
                    continue
                out = str(Path(folder) / "out")
                seconds, peak, status = run_status([arg.format(out=out) for arg in arguments],
                                                   path, tree)
                print(f"{name:<30} {label:<15} {len(text) / 1e6:>8.1f} {game / 1e6:>8.2f} "
                      f"{seconds:>8.2f} {peak / 1e6:>8.1f} {status:>4}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=1_000_000)
    parser.add_argument("--large", type=int, default=4_000_000)
    parser.add_argument("--case", help="only the cases whose name holds this text")
    parser.add_argument("--commands", action="store_true",
                        help="each command on each file of FIXED, at its fixed size")
    parser.add_argument("--command", help="with --commands: only this command")
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="with --commands: the checkout whose pdn to run")
    parser.add_argument("--streaming", type=Path, metavar="ARCHIVE",
                        help="the streaming commands on ARCHIVE copied 1, 4 and 16 times")
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 4, 16],
                        help="with --streaming: how many copies")
    args = parser.parse_args()
    if args.streaming:
        run_streaming(args.streaming, args.copies, args.command, args.tree.resolve())
        return 0
    if args.commands:
        run_commands(args.case, args.command, args.tree.resolve())
        return 0
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
