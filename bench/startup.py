"""The command line's start-up: whole processes on a one-game file, CPU seconds.

    .venv/bin/python bench/startup.py [--pdn PATH ...] [--repeat 9] [--core 0]

Each ``--pdn`` (default: the ``pdn`` beside this Python) runs ``pdn --help``, ``pdn validate
--help`` and ``pdn validate`` of a one-game file (default jobs, ``--jobs 1``, ``--json``),
pinned to one core; the CPU seconds of the child (``getrusage``, user + system) are given as
the best and the median of ``--repeat`` runs. The runs of several builds alternate, so a
change in the machine's load falls on each alike. The user's grammar cache
(``pdn.grammar.cache_folder``) and the bytecode caches are warmed by a first run, as any
second command finds them (``PYTHONDONTWRITEBYTECODE`` is dropped from the children's
environment).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

GAME = '[Event "e"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n'
RUNS = {"pdn --help": ["--help"], "pdn validate --help": ["validate", "--help"],
        "pdn validate GAME": ["validate", "{game}"],
        "pdn validate --jobs 1 GAME": ["validate", "--jobs", "1", "{game}"],
        "pdn validate --json GAME": ["validate", "--json", "{game}"]}


# The children write and read their bytecode caches as a user's commands do.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_seconds(command: list[str]) -> float:
    """The user + system CPU seconds of one run of ``command``, its output dropped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdn", action="append", help="a pdn executable (repeatable)")
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--core", type=int, default=0)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.core})
    commands = args.pdn or [str(Path(sys.executable).with_name("pdn"))]
    with tempfile.TemporaryDirectory() as folder:
        game = Path(folder) / "game.pdn"
        game.write_text(GAME, encoding="utf-8")
        times: dict[tuple[str, str], list[float]] = {}
        for pdn in commands:  # warm the grammar cache and the files' pages
            cpu_seconds([pdn, "validate", str(game)])
        for _ in range(args.repeat):
            for name, words in RUNS.items():
                for pdn in commands:
                    command = [pdn, *(word.format(game=game) for word in words)]
                    times.setdefault((name, pdn), []).append(cpu_seconds(command))
    print(f"load average {os.getloadavg()[0]:.2f}; CPU seconds, best / median of "
          f"{args.repeat}, on core {args.core}")
    for name in RUNS:
        for pdn in commands:
            found = times[name, pdn]
            print(f"{name:28} {min(found):6.3f} / {statistics.median(found):6.3f}  {pdn}")


if __name__ == "__main__":
    main()
