"""Long fuzzing of the reader, replayer, validator, converter, writer and statistics rows.

    .venv/bin/python bench/fuzz.py [--hours 2] [--seed N] [--games 40]
    .venv/bin/python bench/fuzz.py --boundless [10 20 40 80]

Real games from the public archives (``tests/damage.ARCHIVES`` in ``../shared/data``) are
damaged at random (a byte flipped, a stretch deleted or duplicated, the end cut off, two moves
swapped, and up to three of these at once), set between good games of the same archive, and
checked with ``tests/damage.check_games_kept``: no exception escapes, no game carries an
``internal-error`` (an exception the reader did not expect: a bug, however well contained), and
every good game around the damaged one still comes out valid, converted and tabulated. A
failure is saved to ``<temporary folder>/pdn-fuzz/fuzz-<seed>-<n>.pdn`` with the damaged bytes
(outside the project: it holds games of the archives), and the run goes on. The same check
runs in CI, bounded, as ``tests/test_robustness.py``.

``--boundless`` instead measures input without game boundaries (zeros, one endless line of
moves, a game per line without tags, a comment never closed) between two good games, at
growing sizes: the time of reading its games in one process and of cutting it into blocks
(a run's main process), and the peak memory of each, which must grow linearly and stay flat.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.damage import ARCHIVES, MUTATIONS, check_games_kept, mutate, valid_games  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
OUT = Path(tempfile.gettempdir()) / "pdn-fuzz"  # archive games never land in the project


def damaged(text: bytes, rng: random.Random) -> bytes:
    """One to three random mutations of a game's text."""
    for _ in range(rng.randint(1, 3)):
        text = mutate(text, rng.choice(MUTATIONS), rng.random(), rng.randint(1, 400),
                      rng.randrange(256))
    return text


def run(hours: float, seed: int, count: int) -> int:
    """Fuzz until the time is up; returns the number of failures found."""
    rng = random.Random(seed)
    pools = [(archive, valid_games(DATA, archive, count)) for archive in ARCHIVES]
    stop = time.monotonic() + hours * 3600
    cases = failures = 0
    while time.monotonic() < stop:
        archive, games = rng.choice(pools)
        at = rng.randrange(len(games))
        before = games[max(0, at - rng.randint(0, 3)):at]
        after = games[at + 1:at + 1 + rng.randint(0, 3)]
        text = damaged(games[at], rng)
        cases += 1
        try:
            check_games_kept(before, text, after, archive.variant)
        except Exception:  # every failure is saved and reported; the run goes on
            failures += 1
            OUT.mkdir(parents=True, exist_ok=True)
            path = OUT / f"fuzz-{seed}-{failures}.pdn"
            path.write_bytes(b"\n\n".join([*before, text, *after]) + b"\n")
            print(f"failure {failures} ({archive.path}), input saved to {path}:\n"
                  f"{traceback.format_exc(limit=4)}", flush=True)
        if cases % 1000 == 0:
            print(f"{cases} cases, {failures} failures", flush=True)
    print(f"done: {cases} cases, {failures} failures (seed {seed})")
    return failures


# ---- input without game boundaries: time and peak memory against size -----------------------

GOOD = b'[Event "a"]\n1. 32-28 19-23 1-0\n\n'
# What fills the input between two good games: nothing that ends a game in it.
BOUNDLESS = {
    "zeros": b"\0",  # one endless line (a file of zeros, /dev/zero)
    "moves-line": b"1. 32-28 18-23 ",  # one endless line of moves
    "untagged": b"1. 32-28 18-23 2. 37-32 12-18 *\n",  # a game per line, no tag: no sure end
    "comment": b"{ never closed\n",  # a comment opened and never closed
}
# Each measure runs in its own process, so that its peak memory is its own.
_MEASURE = """
import resource, sys, time
from pathlib import Path
from pdn.reader import iter_blocks, read_games
path, how = Path(sys.argv[1]), sys.argv[2]
start = time.perf_counter()
if how == "games":  # one process reads (split_chunks): pdn info, cat, read_games
    count = sum(1 for _ in read_games(path))
else:  # the main process of a run with workers only cuts blocks (split_blocks)
    count = sum(1 for _ in iter_blocks(path))
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024, count)
"""


def boundless(sizes: list[int]) -> None:
    """Time and peak memory of reading ``sizes`` MB of each boundless filling between two
    games: both grow no faster than the size (time) and stay flat (memory)."""
    import subprocess

    print(f"{'input':<11} {'how':<7}" + "".join(f"{f'{n} MB':>16}" for n in sizes))
    with tempfile.TemporaryDirectory(prefix="pdn-fuzz-") as folder:
        for name, unit in BOUNDLESS.items():
            rows: dict[str, list[str]] = {"games": [], "blocks": []}
            for megabytes in sizes:
                path = Path(folder) / f"{name}.pdn"
                with open(path, "wb") as handle:
                    handle.write(GOOD)
                    piece = unit * ((1 << 20) // len(unit))
                    for _ in range(megabytes):
                        handle.write(piece)
                    handle.write(b"\n\n" + GOOD)
                for how in rows:
                    done = subprocess.run([sys.executable, "-c", _MEASURE, str(path), how],
                                          capture_output=True, text=True, check=True,
                                          cwd=ROOT)
                    seconds, peak, _ = done.stdout.split()
                    rows[how].append(f"{float(seconds):6.2f} s {int(peak):4} MB")
            for how, cells in rows.items():
                print(f"{name:<11} {how:<7}" + "".join(f"{cell:>16}" for cell in cells),
                      flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--games", type=int, default=40, help="good games per archive")
    parser.add_argument("--boundless", type=int, nargs="*", metavar="MB",
                        help="instead: time and peak memory of input without game "
                             "boundaries of these sizes (default 10 20 40 80 MB)")
    args = parser.parse_args()
    if args.boundless is not None:
        boundless(args.boundless or [10, 20, 40, 80])
        return
    if not DATA.is_dir():
        sys.exit(f"{DATA} is missing: the fuzzer damages the public archives")
    sys.exit(1 if run(args.hours, args.seed, args.games) else 0)


if __name__ == "__main__":
    main()
