"""Archive tools' speed: ``filter --position`` and ``dedupe`` over the OCA 2.0 archive.

    .venv/bin/python bench/archive.py [--jobs 2] [--file ../shared/data/english/OCA_2.0.pdn]
    .venv/bin/python bench/archive.py --copies 4 [--file ...]

Goal: each under 15 s with both cores. The position searched for is the one the
first game of the archive reaches after its fourth move (eight plies), so that many games
pass through it. Output goes to temporary files, as the commands would write it.

``--copies N``: ``pdn dedupe --jobs 1`` as a whole process on the file and on N copies of it
one after the other (every game then has N - 1 copies), its CPU seconds and peak memory:
time should grow N times, memory hardly. OCA 2.0 and four copies, before and after dedupe
kept one compact entry per game (replay/archive/duplicates.py ``Catalogue``): 4.8 s /
203 MB and 31.3 s / 327 MB before, 2.4 s / 55 MB and 11.3 s / 69 MB after.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn.reader import read_games  # noqa: E402
from replay.archive import Criteria, Settings, dedupe_games, filter_games  # noqa: E402
from replay.archive.walk import walk_main_line  # noqa: E402
from replay.record.board import Board  # noqa: E402
from replay.rules.choice import RulesChoice  # noqa: E402
from replay.rules.variants import ENGLISH  # noqa: E402

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"
GOAL_SECONDS = 15.0


def target_fen(path: Path, ply: int = 8) -> str:
    """The position the first game of a file reaches after ``ply`` plies."""
    line = walk_main_line(next(read_games(path)), ENGLISH)
    return Board(ENGLISH, line.positions[ply]).fen()


def _cpu() -> float:
    """CPU seconds of this process and of its finished worker processes."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(label: str, action) -> float:
    """Run a command; print its wall time, the CPU time it took in all processes (on a
    machine shared with other work the wall time says less than the CPU time), and what it
    found."""
    started, cpu = time.perf_counter(), _cpu()
    summary = action()
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    verdict = "ok" if seconds < GOAL_SECONDS else "over the goal"
    print(f"{label:<24} {seconds:6.1f} s wall, {cpu:6.1f} s CPU  ({summary.games} games; "
          f"{_detail(summary)}; {verdict}; load {os.getloadavg()[0]:.1f})")
    return seconds


def _detail(summary) -> str:
    if summary.groups:
        return f"{summary.groups} groups, {summary.removed} copies removed"
    return f"{summary.matched} matched"


def dedupe_copies(path: Path, copies: int) -> None:
    """``pdn dedupe --jobs 1`` on the file and on ``copies`` copies of it: CPU and peak
    memory of the whole process (``wait4``)."""
    pdn = ROOT / ".venv" / "bin" / "pdn"
    with tempfile.TemporaryDirectory() as folder:
        repeated = Path(folder) / "copies.pdn"
        with open(repeated, "wb") as out:
            for _ in range(copies):
                out.write(path.read_bytes())
        for count, source in ((1, path), (copies, repeated)):
            process = subprocess.Popen([str(pdn), "dedupe", "--jobs", "1", "-o",
                                        str(Path(folder) / "out.pdn"), str(source)],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(process.pid, 0)
            print(f"dedupe, {count} cop{'y' if count == 1 else 'ies'}: "
                  f"{usage.ru_utime + usage.ru_stime:6.2f} s CPU, {usage.ru_maxrss / 1024:5.0f} MB"
                  f" peak")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=OCA)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--copies", type=int, default=0,
                        help="dedupe's growth on this many copies of the file")
    options = parser.parse_args()
    if not options.file.exists():
        sys.exit(f"{options.file} is not present")
    if options.copies:
        dedupe_copies(options.file, options.copies)
        return
    fen = target_fen(options.file)
    settings = Settings(RulesChoice(ENGLISH), jobs=options.jobs)
    print(f"{options.file.name}, {options.jobs} worker processes; position {fen}")
    with tempfile.TemporaryDirectory() as folder:
        with open(Path(folder) / "found.pdn", "w", encoding="utf-8") as out:
            timed("filter --position", lambda: filter_games(
                [str(options.file)], out, Criteria(position=fen), settings, note=_quiet))
        with open(Path(folder) / "unique.pdn", "w", encoding="utf-8") as out:
            timed("dedupe (--by game)", lambda: dedupe_games(
                [str(options.file)], out, settings, report=Path(folder) / "report.csv",
                note=_quiet))


def _quiet(message: str) -> None:
    """Notes about single games are not part of the figures."""


if __name__ == "__main__":
    main()
