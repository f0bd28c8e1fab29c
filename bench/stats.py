"""Statistics speed: OCA 2.0 read, validated and tabulated (all five tables), one process and
two; with ``--write``, a table written by ``pdn stats -t TABLE -o FILE --jobs 1`` as a whole
process in each format.

    .venv/bin/python bench/stats.py [--file ../shared/data/english/OCA_2.0.pdn] [--jobs 1,2]
    .venv/bin/python bench/stats.py --write moves [--repeat 3]

Each run happens in a fresh interpreter, so its peak memory (``ru_maxrss`` of the main
process and of its largest worker) is its own. CPU seconds are main plus workers; on a
shared machine they say more than the wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"


def run_once(path: str, jobs: int, variant: str) -> dict:
    """Compute every table once; the figures of this process and its workers."""
    sys.path.insert(0, str(ROOT))
    from replay.rules.variants import get_variant
    from replay.stats import TABLES, stats_tables

    started = time.perf_counter()
    tables = stats_tables([path], get_variant(variant), jobs=jobs)
    rows = {name: len(tables.table(name)) for name in TABLES}
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"jobs": jobs, "seconds": seconds,
            "cpu": own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime,
            "main_cpu": own.ru_utime + own.ru_stime,
            "peak_mb": own.ru_maxrss / 1024, "worker_peak_mb": children.ru_maxrss / 1024,
            "rows": rows, "valid": int((tables.games["status"] == "valid").sum())}


def written(path: str, table: str, suffix: str) -> tuple[float, float]:
    """``pdn stats -t TABLE -o FILE.SUFFIX --jobs 1`` as a whole process: its CPU seconds
    (user + system, its own ``wait4`` usage) and peak memory in MB."""
    pdn = Path(sys.executable).with_name("pdn")
    with tempfile.TemporaryDirectory() as out:
        child = subprocess.Popen([str(pdn), "stats", "-t", table, "-o",
                                  f"{out}/{table}{suffix}", "--jobs", "1", path],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise RuntimeError(f"pdn stats -t {table} -o {table}{suffix} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def write_figures(path: str, table: str, repeat: int) -> None:
    """The best CPU seconds of ``repeat`` runs writing ``table`` in each format."""
    print(f"{Path(path).name}: pdn stats -t {table} -o FILE --jobs 1, best of {repeat}; "
          f"load average {os.getloadavg()[0]:.1f}")
    for suffix in (".csv", ".parquet", ".jsonl"):
        cpu, peak = min(written(path, table, suffix) for _ in range(repeat))
        print(f"  {table}{suffix:<9} {cpu:6.2f} s CPU  {peak:5.0f} MB peak")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(DEFAULT_FILE))
    parser.add_argument("--variant", default="english")
    parser.add_argument("--jobs", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--write", metavar="TABLE",
                        help="time writing this table (games, moves...) in each format")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each --write format")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.write:
        write_figures(args.file, args.write, args.repeat)
        return
    if args.one is not None:
        print(json.dumps(run_once(args.file, args.one, args.variant)))
        return
    print(f"{Path(args.file).name}: read + validate + games, moves, players, openings, "
          f"summary")
    print(f"{'jobs':>4} {'seconds':>8} {'cpu s':>7} {'main cpu':>8} {'peak MB':>8} "
          f"{'worker MB':>9}  rows")
    for jobs in (int(j) for j in args.jobs.split(",")):
        output = subprocess.run(
            [sys.executable, __file__, "--file", args.file, "--variant", args.variant,
             "--one", str(jobs)], check=True, capture_output=True, text=True).stdout
        run = json.loads(output)
        rows = ", ".join(f"{name} {count:,}" for name, count in run["rows"].items())
        print(f"{run['jobs']:>4} {run['seconds']:>8.1f} {run['cpu']:>7.1f} "
              f"{run['main_cpu']:>8.1f} {run['peak_mb']:>8.0f} "
              f"{run['worker_peak_mb']:>9.0f}  {rows}; {run['valid']:,} valid")


if __name__ == "__main__":
    main()
