"""The game database's speed: ``pdn index`` and ``pdn search`` beside ``pdn filter``.

    .venv/bin/python bench/index.py [--jobs 2] [--file ../shared/data/english/OCA_2.0.pdn]
    .venv/bin/python bench/index.py --generate 1000000      # a generated archive (hours)

Goals: OCA 2.0 indexed in under 60 s on 2 cores into a database under 20 times
the PDN's size; ``pdn search --position`` under 0.5 s as a whole command and at least 10
times faster than ``pdn filter --position`` on the same archive; ``--pattern`` under 2 s;
on a generated archive of a million games, queries under a second. Searches are timed as
whole commands (a new process, imports included), as a user runs them. The position is the
one bench/archive.py uses: the first game's after its fourth move.

``--generate N`` writes N random legal English games (seeded, 30 to 90 plies each) to a
temporary file and measures the same there; random games reach far more distinct positions
than real ones, so this is the hard case for the positions table.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.archive import Settings  # noqa: E402
from replay.board import Board  # noqa: E402
from replay.database.build import index_sources, moves_text  # noqa: E402
from replay.variants import ENGLISH  # noqa: E402

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"
PDN = Path(sys.executable).parent / "pdn"
PATTERN = "any(14,15)=bk 1-4=empty"
TOP_POSITIONS = ("SELECT p.fen, COUNT(*) AS games FROM game_positions gp JOIN positions p "
                 "USING (position_key) WHERE gp.ply = 20 GROUP BY gp.position_key "
                 "ORDER BY games DESC LIMIT 3")


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                        resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(label: str, action, goal: float | None = None):
    """Run an action; print its wall and CPU time (on a shared machine the wall time says
    less than the CPU time) against the goal; its wall time and result."""
    started, cpu = time.perf_counter(), _cpu()
    result = action()
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    verdict = "" if goal is None else ("; ok" if seconds < goal else "; over the goal")
    print(f"{label:<34} {seconds:7.2f} s wall, {cpu:7.2f} s CPU (goal {goal or '-'} s"
          f"{verdict}; load {os.getloadavg()[0]:.1f})")
    return seconds, result


def command(*args: str) -> str:
    """Run ``pdn`` as a user would; its standard output."""
    done = subprocess.run([str(PDN), *args], capture_output=True, text=True, check=True)
    return done.stdout


def first_fen(path: Path, ply: int = 8) -> str:
    """The position the first game of a file reaches after ``ply`` plies."""
    from pdn.reader import read_games
    from replay.archive.walk import walk_main_line

    line = walk_main_line(next(read_games(path)), ENGLISH)
    return Board(ENGLISH, line.positions[ply]).fen()


def generate(path: Path, games: int, seed: int = 1) -> None:
    """Random legal English games, numeric notation."""
    chooser = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for number in range(1, games + 1):
            board, moves = Board(ENGLISH), []
            for _ in range(chooser.randint(30, 90)):
                legal = board.legal_moves()
                if not legal:
                    break
                moves.append(chooser.choice(legal))
                board.push(moves[-1])
            written = moves_text(moves, ENGLISH).split()
            text = " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m
                            for i, m in enumerate(written))
            out.write(f'[Event "Generated {number}"]\n[GameType "21"]\n{text} *\n\n')


def measure(source: Path, jobs: int, compare_filter: bool) -> None:
    fen = first_fen(source)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        _, summary = timed("pdn index (library call)", lambda: index_sources(
            db, [str(source)], Settings(None, jobs=jobs), note=lambda _: None), 60.0)
        ratio = db.stat().st_size / source.stat().st_size
        print(f"{summary.games} games, {summary.positions} positions; database "
              f"{db.stat().st_size / 1e6:.1f} MB = {ratio:.1f} x the PDN (goal < 20)")
        found = Path(folder) / "found.pdn"
        search, _ = timed("pdn search --position", lambda: command(
            "search", str(db), "--position", fen, "-o", str(found)), 0.5)
        timed("pdn search --pattern", lambda: command(
            "search", str(db), "--pattern", PATTERN, "--format", "table"), 2.0)
        timed("pdn search --moves 11-15 23-19", lambda: command(
            "search", str(db), "--moves", "11-15 23-19", "--format", "json"), 1.0)
        timed("SQL: top positions after 10 moves", lambda: _sql(db), 1.0)
        if compare_filter:
            filtered = Path(folder) / "filtered.pdn"
            scan, _ = timed("pdn filter --position", lambda: command(
                "filter", str(source), "--variant", "english", "--position", fen,
                "-o", str(filtered), "--jobs", str(jobs)))
            same = found.read_bytes() == filtered.read_bytes()
            print(f"search is {scan / search:.0f} x faster than filter (goal >= 10); "
                  f"the same games: {same}")


def _sql(db: Path) -> list:
    import sqlite3

    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return connection.execute(TOP_POSITIONS).fetchall()
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=OCA)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--generate", type=int, metavar="N",
                        help="measure on N generated games instead of --file")
    options = parser.parse_args()
    if options.generate:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "generated.pdn"
            timed(f"generate {options.generate} games", lambda: generate(
                path, options.generate))
            print(f"{path.stat().st_size / 1e6:.1f} MB of PDN")
            measure(path, options.jobs, compare_filter=False)
        return
    if not options.file.exists():
        sys.exit(f"{options.file} is not present")
    print(f"{options.file.name}, {options.jobs} worker processes")
    measure(options.file, options.jobs, compare_filter=True)


if __name__ == "__main__":
    main()
