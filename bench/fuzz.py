"""Long fuzzing of the reader, replayer, validator, converter, writer and statistics rows.

    .venv/bin/python bench/fuzz.py [--hours 2] [--seed N] [--games 40]

Real games from the public archives (``tests/damage.ARCHIVES`` in ``../shared/data``) are
damaged at random (a byte flipped, a stretch deleted or duplicated, the end cut off, two moves
swapped, and up to three of these at once), set between good games of the same archive, and
checked with ``tests/damage.check_games_kept``: no exception escapes, no game carries an
``internal-error`` (an exception the reader did not expect: a bug, however well contained), and
every good game around the damaged one still comes out valid, converted and tabulated. A
failure is saved to ``<temporary folder>/pdn-fuzz/fuzz-<seed>-<n>.pdn`` with the damaged bytes
(outside the project: it holds games of the archives), and the run goes on. The same check
runs in CI, bounded, as ``tests/test_robustness.py``.
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

from damage import ARCHIVES, MUTATIONS, check_games_kept, mutate, valid_games  # noqa: E402

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hours", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--games", type=int, default=40, help="good games per archive")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is missing: the fuzzer damages the public archives")
    sys.exit(1 if run(args.hours, args.seed, args.games) else 0)


if __name__ == "__main__":
    main()
