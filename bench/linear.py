"""Reading time grows linearly with the number of games, measured, not tested.

    .venv/bin/python bench/linear.py [--small 20000] [--large 100000]

For each shape of tiny game (tagged, untagged, and untagged on one line with a dangling move
number) the time per game is measured at ``--small`` and at ``--large`` games. A reader that
is linear gives about the same time per game at both sizes; the script prints the ratio and
exits 1 when it is over 2 for any shape. Timing lives here rather than in the test suite,
which runs on shared, loaded machines where a wall-clock bound proves nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn.reader import read_games  # noqa: E402

SHAPES = {
    "tagged": '[Event "x"]\n1. c3-d4 *\n\n',
    "untagged": "1. c3-d4 *\n",
    "one line, dangling numbers": "1. c3-d4 2. * ",
}
LIMIT = 2.0  # the time per game may at most double from the small to the large input


def seconds_per_game(text: str) -> float:
    """Wall time of reading every game of ``text``, per game."""
    started = time.perf_counter()
    count = sum(1 for _ in read_games(text))
    return (time.perf_counter() - started) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=20_000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()
    worst = 0.0
    print(f"{'shape':<28} {'µs/game @' + str(args.small):>16} {'µs/game @' + str(args.large):>17}"
          f" {'ratio':>6}")
    for name, game in SHAPES.items():
        small = seconds_per_game(game * args.small)
        large = seconds_per_game(game * args.large)
        worst = max(worst, large / small)
        print(f"{name:<28} {small * 1e6:>16.1f} {large * 1e6:>17.1f} {large / small:>6.2f}")
    print(f"worst ratio {worst:.2f} (limit {LIMIT})")
    return 0 if worst <= LIMIT else 1


if __name__ == "__main__":
    raise SystemExit(main())
