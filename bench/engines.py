"""How long a ply of ``pdn analyse`` takes with each Hub engine, and how ``--jobs`` scales.

    .venv/bin/python bench/engines.py --scan-dir DIR [--games 4] [--jobs 1,2]
        [--scan-depth 12] [--dame-depth 6] [--file PATH]

``--scan-dir`` is a folder with a built Scan 2.0 (``scan`` beside ``scan.ini`` and
``data/``; see tests/support/engines.py's ``build_scan``); dame-rs's ``dame`` is looked for beside
this Python, then on the PATH. Scan 2.0 reports its evaluation from depth 12 on, hence the
depths. Each run annotates the first ``--games`` games of ``--file`` (default: the 2007
World Championship of ``../shared/data``) with ``replay.engine.annotate.annotate_games``,
engine start-up included; the table gives seconds per ply (one search per position) and
the speed-up of each ``--jobs`` over one job.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pdn.reader import read_games
from replay.engine.annotate import annotate_games
from replay.engine.hub import popen_hub
from replay.engine.limits import Limit

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))
DEFAULT_FILE = SHARED / "international" / "fmjd_wk2007_all_games.pdn"


def find_dame() -> str | None:
    dame = Path(sys.executable).with_name("dame")
    return str(dame) if dame.exists() else shutil.which("dame")


def run(command: list[str], cwd: str | None, options: dict, depth: int, games: list,
        jobs: int) -> tuple[float, int]:
    """Seconds to annotate ``games`` with ``jobs`` engines, and the plies annotated."""
    def start(variant: str):
        return popen_hub(command, cwd=cwd, options=options, variant=variant)

    began = time.perf_counter()
    plies = 0
    for outcome in annotate_games(games, start, Limit(depth=depth), jobs=jobs):
        if outcome.analysis is None:
            raise SystemExit(f"game {outcome.index + 1}: {outcome.error}")
        plies += len(outcome.analysis.rows)
    return time.perf_counter() - began, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scan-dir", type=Path)
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--jobs", default="1,2")
    parser.add_argument("--scan-depth", type=int, default=12)
    parser.add_argument("--dame-depth", type=int, default=6)
    args = parser.parse_args()
    games = []
    for game in read_games(args.file):
        games.append(game)
        if len(games) == args.games:
            break
    engines = []
    if args.scan_dir is not None:
        engines.append(("Scan 2.0", ["./scan", "hub"], str(args.scan_dir), {"tt-size": 20},
                        args.scan_depth))
    dame = find_dame()
    if dame is not None:
        engines.append(("dame-rs", [dame, "hub"], None, {"hash": 16}, args.dame_depth))
    if not engines:
        raise SystemExit("no engine: give --scan-dir or install dame-rs")
    jobs_list = [int(n) for n in args.jobs.split(",")]
    print(f"{len(games)} games of {args.file.name}, {os.cpu_count()} cores")
    print(f"{'engine':10} {'depth':>5} {'jobs':>4} {'plies':>6} {'seconds':>8} "
          f"{'s/ply':>7} {'speed-up':>8}")
    for name, command, cwd, options, depth in engines:
        single = None
        for jobs in jobs_list:
            seconds, plies = run(command, cwd, options, depth, games, jobs)
            single = single or seconds
            print(f"{name:10} {depth:>5} {jobs:>4} {plies:>6} {seconds:>8.1f} "
                  f"{seconds / plies:>7.3f} {single / seconds:>8.2f}")


if __name__ == "__main__":
    main()
