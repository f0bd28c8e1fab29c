"""Worker processes and memory: whole commands on OCA 2.0 copied N times, --jobs 1 and the
default, with the CPU of the main process and of its workers apart and the peak memory.

    PDN_SHARED_DATA=../shared/data .venv/bin/python bench/jobs.py [--copies 1 4 16]
        [--commands validate stats convert index] [--jobs 1 0]

Each command runs as a child process that reports its own ``getrusage`` (the main process,
``RUSAGE_SELF``) and its workers' (``RUSAGE_CHILDREN``) at exit, with the wall time and the
load average beside it. On a machine shared with other work the wall time says little; the
CPU split does: with W workers on C idle cores a run takes about
``max(main, (main + workers) / min(C, W + 1), workers / W)`` seconds, printed as
``model``, and the speed-up over ``--jobs 1`` is read from that.

The main process's peak memory is its own ``VmHWM`` (Linux), not ``ru_maxrss``: a process
started by ``fork`` and ``exec`` inherits its parent's ``ru_maxrss``, so a parent that once
held OCA×16 in memory (200 MB) made every child's peak read 200 MB. The parent writes the
copies one at a time for the same reason. The workers' figure is ``RUSAGE_CHILDREN``'s, each
worker forked from the main process and so floored at its size when forked.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))
OCA = DATA / "english" / "OCA_2.0.pdn"

# The child: runs the command line in its own process, then prints its resource use.
CHILD = r"""
import resource, sys, time
started = time.perf_counter()
sys.argv = ["pdn", *sys.argv[1:]]
code = 0
try:
    from pdn.cli.app import main
    main()
except SystemExit as exit:
    code = exit.code
me = resource.getrusage(resource.RUSAGE_SELF)
them = resource.getrusage(resource.RUSAGE_CHILDREN)
with open("/proc/self/status") as status:  # this process image's own peak, in kB
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
print("JOBS", time.perf_counter() - started, me.ru_utime + me.ru_stime,
      them.ru_utime + them.ru_stime, peak, them.ru_maxrss, code, file=sys.stderr)
"""


def arguments(command: str, source: Path, folder: Path, jobs: int) -> list[str]:
    """The command line of one run, its output into ``folder``."""
    if command == "validate":
        return ["validate", "--json", str(source), "--jobs", str(jobs)]
    if command == "stats":
        return ["stats", str(source), "--jobs", str(jobs)]
    if command == "stats-moves":
        return ["stats", str(source), "-t", "moves", "-o", str(folder / "moves.parquet"),
                "--jobs", str(jobs)]
    if command == "convert":
        return ["convert", str(source), "--to", "numeric", "-o", str(folder / "out.pdn"),
                "--jobs", str(jobs)]
    if command == "index":
        database = folder / "games.db"
        database.unlink(missing_ok=True)
        return ["index", str(source), "-o", str(database), "--jobs", str(jobs)]
    raise SystemExit(f"unknown command {command}")


def measure(args: list[str]) -> dict[str, float]:
    """One whole run: wall, main and workers' CPU seconds, peak memory (MB) of each."""
    done = subprocess.run([sys.executable, "-c", CHILD, *args], stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    line = next(line for line in done.stderr.splitlines() if line.startswith("JOBS "))
    wall, main, workers, main_kb, worker_kb, code = line.split()[1:]
    return {"wall": float(wall), "main": float(main), "workers": float(workers),
            "main_mb": int(main_kb) / 1024, "worker_mb": int(worker_kb) / 1024,
            "code": int(code or 0)}


def model(run: dict[str, float], jobs: int, cores: int) -> float:
    """The seconds the run would take on ``cores`` idle cores, from its CPU split."""
    if jobs == 1 or run["workers"] == 0:
        return run["main"]
    workers = jobs or cores
    busy = min(cores, workers + 1)
    return max(run["main"], (run["main"] + run["workers"]) / busy, run["workers"] / workers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--commands", nargs="+",
                        default=["validate", "stats", "convert", "index"])
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 0])
    parser.add_argument("--cores", type=int, default=2, help="idle cores the model assumes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pdn-bench-jobs-") as folder:
        work = Path(folder)
        text = OCA.read_bytes()
        for copies in args.copies:
            source = work / f"oca{copies}.pdn"
            with source.open("wb") as copy:  # one copy at a time: see the module's docstring
                for _ in range(copies):
                    copy.write(text)
            for command in args.commands:
                for jobs in args.jobs:
                    load = os.getloadavg()[0]
                    run = measure(arguments(command, source, work, jobs))
                    idle = model(run, jobs, args.cores)
                    print(f"OCA×{copies} {command:<11} --jobs {jobs}: "
                          f"wall {run['wall']:6.1f} s, CPU main {run['main']:6.2f} s "
                          f"workers {run['workers']:6.2f} s, model on {args.cores} idle "
                          f"cores {idle:6.2f} s; "
                          f"peak main {run['main_mb']:4.0f} MB workers {run['worker_mb']:4.0f} MB; "
                          f"exit {run['code']}; load {load:.1f}", flush=True)
                    time.sleep(0.1)
            source.unlink()


if __name__ == "__main__":
    main()
