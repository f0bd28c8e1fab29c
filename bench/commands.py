"""Whole-process CPU of the archive commands on one file: stats, dedupe, convert, filter.

    taskset -c 0 .venv/bin/python bench/commands.py [--file ../shared/data/english/OCA_2.0.pdn]
        [--repeat 1] [--only dedupe,convert-full]

Each command runs in a fresh interpreter (``--jobs 1`` where it has the option), its output
thrown away, from a neutral folder (so ``PYTHONPATH`` decides which tree runs); CPU seconds
are the child's user + system time (its workers included), peak memory its ``ru_maxrss``.
``PDN_PURE_PYTHON=1`` or ``PDN_NO_NATIVE=1`` in the environment measure without the native
core.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"

COMMANDS = {
    "stats": ["stats", "--json", "-j", "1"],
    "stats-games": ["stats", "--json", "-j", "1", "-t", "games"],
    "dedupe": ["dedupe", "-j", "1"],
    "convert-full": ["convert", "-j", "1", "--to", "full"],
    "convert-short": ["convert", "-j", "1", "--to", "short"],
    "convert-numeric": ["convert", "-j", "1", "--to", "numeric"],
    "convert-pdn": ["convert", "-j", "1", "--to", "pdn"],
    "filter-plies": ["filter", "--min-plies", "60"],
    "filter-status": ["filter", "--status", "valid"],
    "filter-material": ["filter", "--material", "W:1K B:1K"],
}


def run(arguments: list[str], path: str) -> tuple[float, float]:
    """CPU seconds and peak MB of one ``pdn`` process (its own ``wait4`` usage)."""
    child = subprocess.Popen([sys.executable, "-c", "from pdn.cli.app import main; main()",
                              *arguments, str(Path(path).resolve())],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             cwd=tempfile.gettempdir())
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0  # reaped here
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(DEFAULT_FILE))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", help="comma-separated names of COMMANDS")
    args = parser.parse_args()
    names = args.only.split(",") if args.only else list(COMMANDS)
    print(f"{Path(args.file).name}, load {os.getloadavg()[0]:.1f}")
    print(f"{'command':<16} {'cpu s':>7} {'peak MB':>8}")
    for name in names:
        for _ in range(args.repeat):
            cpu, peak = run(COMMANDS[name], args.file)
            print(f"{name:<16} {cpu:7.2f} {peak:8.0f}", flush=True)


if __name__ == "__main__":
    main()
