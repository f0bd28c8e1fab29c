"""``pdn stats -t games`` on one game of many distinct tag names: time linear in the tags,
with a small constant per tag, measured, not tested.

    taskset -c 0 .venv/bin/python bench/wide_tags.py [--small 10000] [--large 40000]

The games table has a column for each of the first 1,000 tags, the others folded into one
``other_tags`` column (docs/statistics.md, "Tag columns"). The script writes a game with
``--small`` and ``--large`` distinct tag names, runs ``pdn stats -t games -o`` into each
format as a whole process and prints its CPU seconds (less those of the same command on a
game of seven tags), the microseconds per tag and the peak memory (``wait4``'s rusage). It
exits 1 when the time per tag of the large size is over twice that of the small one
(quadratic work multiplies it by the size ratio).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]
FORMATS = (".csv", ".jsonl", ".parquet")
TIME_LIMIT = 2.0


def game(tags: int) -> str:
    """One game with ``tags`` distinct tag names besides its Event."""
    return ('[Event "wide"]\n' + "".join(f'[T{n} "v{n}"]\n' for n in range(tags))
            + "1. 32-28 19-23 *\n\n")


def run(source: Path, output: Path) -> tuple[float, int]:
    """CPU seconds (user + system) and peak resident bytes of one ``pdn stats``."""
    with open(os.devnull, "wb") as null:
        child = subprocess.Popen([*PDN, "stats", "-t", "games", "-j", "1", "-o", str(output),
                                  str(source)], stdout=null, stderr=null, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"pdn stats failed on {source} ({status})")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=40_000)
    args = parser.parse_args()
    failed = False
    print(f"{'format':<9} {'tags':>8} {'CPU s':>7} {'µs/tag':>8} {'peak MB':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for suffix in FORMATS:
            start = Path(folder) / "seven.pdn"
            start.write_text(game(0))
            base = run(start, Path(folder) / f"out{suffix}")[0]
            per_tag = []
            for tags in (args.small, args.large):
                source = Path(folder) / "wide.pdn"
                source.write_text(game(tags))
                seconds, peak = run(source, Path(folder) / f"out{suffix}")
                seconds = max(seconds - base, 1e-3)
                per_tag.append(seconds / tags)
                print(f"{suffix:<9} {tags:>8,} {seconds:>7.2f} {per_tag[-1] * 1e6:>8.1f}"
                      f" {peak / 1e6:>8.1f}")
            failed |= per_tag[1] > TIME_LIMIT * per_tag[0]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
