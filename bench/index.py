"""The game database's speed: ``pdn index`` and ``pdn search`` beside ``pdn filter``.

    .venv/bin/python bench/index.py [--jobs 2] [--file ../shared/data/english/OCA_2.0.pdn]
    .venv/bin/python bench/index.py --generate 1000000 --keep /tmp/million   # hours
    .venv/bin/python bench/index.py --database /tmp/million/games.db          # searches only
    .venv/bin/python bench/index.py --database oca.db        # searches only, --file's position
    .venv/bin/python bench/index.py --planes 12000000   # the pattern index alone, random positions
    .venv/bin/python bench/index.py --database oca.db --replicate 45  # the explorer, 1M games
    .venv/bin/python bench/index.py --index-only [--repeat 3]  # pdn index --jobs 1, one core

``--index-only`` times ``pdn index --jobs 1`` of ``--file`` as a whole process (CPU seconds,
user and system, and peak memory of the child; the best of ``--repeat``): bench/goals.py's
goal 5, OCA 2.0 in at most 5 s of CPU.

Goals: OCA 2.0 indexed in under 60 s on 2 cores into a database under 20 times
the PDN's size; ``pdn search --position`` under 0.5 s as a whole command and at least 10
times faster than ``pdn filter --position`` on the same archive; ``--pattern`` under 2 s;
on a generated archive of a million games, every search under a second, and ``pdn explore``
at the start (every game through it) under a second as a whole command. Searches are timed
as whole commands (a new process, imports included), as a user runs them. The position is
the one bench/archive.py uses: the first game's after its fourth move.

``--generate N`` writes an archive of N English games made on the fly and measures the same
there: OCA 2.0 repeated as a whole (``--real-share``, 0.8 by default, of the N games: real
openings, real players, positions shared by many games), then random legal games (seeded,
30 to 90 plies each) up to N. Random games reach far more distinct positions than real ones,
so they are the hard case for the positions table and the pattern index. ``--keep DIR``
keeps the archive and the database there, so that ``--database`` can time the searches again
without indexing (and a later ``--generate`` with the same ``--keep`` indexes the same
archive again instead of generating another).
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
from replay.database.build import index_sources, moves_text  # noqa: E402
from replay.record.board import Board  # noqa: E402
from replay.rules.choice import RulesChoice  # noqa: E402
from replay.rules.variants import ENGLISH  # noqa: E402

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"
PDN = Path(sys.executable).parent / "pdn"
PATTERN = "any(14,15)=bk 1-4=empty"
MATERIAL = "W:2K B:1K"
PLAYER = "Tinsley"
TOP_POSITIONS = ("SELECT p.fen, top.games FROM (SELECT position_key, COUNT(*) AS games "
                 "FROM game_positions WHERE ply = 20 GROUP BY position_key "
                 "ORDER BY games DESC LIMIT 3) AS top JOIN positions p USING (position_key) "
                 "ORDER BY top.games DESC, p.fen")  # docs/database.md's example


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


def generate(path: Path, games: int, real: Path, real_share: float, seed: int = 1) -> str:
    """Write the mix (see the module's docstring); what it holds, in words."""
    text = real.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    real_games = text.count("\n[Event ") + text.startswith("[Event ")
    copies = min(round(games * real_share / real_games), games // real_games)
    with open(path, "w", encoding="utf-8") as out:
        for _ in range(copies):
            out.write(text)
        random_games(out, games - copies * real_games, seed)
    return (f"{copies} copies of {real.name} ({copies * real_games} games) and "
            f"{games - copies * real_games} random legal games")


def random_games(out, games: int, seed: int) -> None:
    """Random legal English games, numeric notation."""
    chooser = random.Random(seed)
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


def build(source: Path, db: Path, jobs: int) -> None:
    """Index a file into a new database; print the time, the size and the counts."""
    _, summary = timed("pdn index (library call)", lambda: index_sources(
        db, [str(source)], Settings(RulesChoice(), jobs=jobs), note=lambda _: None), 60.0)
    ratio = db.stat().st_size / source.stat().st_size
    print(f"{summary.games} games, {summary.positions} game positions; database "
          f"{db.stat().st_size / 1e6:.1f} MB = {ratio:.1f} x the PDN (goal < 20)")


def index_one_core(source: Path, folder: Path, repeat: int) -> None:
    """``pdn index --jobs 1`` as a whole process: the best CPU time of ``repeat`` runs and
    the peak memory of the runs (a child's ``getrusage``, as ``/usr/bin/time`` reads it)."""
    db = folder / "one-core.db"
    best = None
    for _ in range(repeat):
        db.unlink(missing_ok=True)
        before, started = _children(), time.perf_counter()
        subprocess.run([str(PDN), "index", "--jobs", "1", str(source), "-o", str(db)],
                       capture_output=True, check=True)
        wall, after = time.perf_counter() - started, _children()
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        best = min(best or (cpu, wall), (cpu, wall))
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"pdn index --jobs 1 (whole process)  {best[0]:7.2f} s CPU, {best[1]:7.2f} s wall "
          f"(best of {repeat}; goal 5 s CPU; load {os.getloadavg()[0]:.1f}); peak "
          f"{peak:.0f} MB; database {db.stat().st_size / 1e6:.1f} MB")


def _children() -> resource.struct_rusage:
    return resource.getrusage(resource.RUSAGE_CHILDREN)


def searches(db: Path, source: Path, folder: Path, goal: float = 1.0) -> float:
    """Time every kind of search as a whole command; the --position search's wall time."""
    fen = first_fen(source)
    found = folder / "found.pdn"
    search, _ = timed("pdn search --position", lambda: command(
        "search", str(db), "--position", fen, "-o", str(found)), min(goal, 0.5))
    for label, options in (("--pattern", ["--pattern", PATTERN]),
                           ("--material", ["--material", MATERIAL]),
                           ("--material-any-ply", ["--material", MATERIAL,
                                                   "--material-any-ply"]),
                           ("--moves 11-15 23-19", ["--moves", "11-15 23-19"]),
                           ("--player", ["--player", PLAYER])):
        _, listed = timed(f"pdn search {label}", lambda options=options: command(
            "search", str(db), *options, "--format", "table"), goal)
        print(f"    {listed.count(chr(10)) - 1} games listed")
    explorer(db, goal)
    timed("SQL: top positions after 10 moves", lambda: _sql(db, TOP_POSITIONS), goal)
    timed("SQL: --pattern as a scan (schema 1)", lambda: _sql(db, _scan(PATTERN)))
    return search


def explorer(db: Path, goal: float = 1.0) -> None:
    """``pdn explore`` at the start (every game of the database through it) and after a
    first move, as whole commands and as library calls (the query alone, warm), then with
    a player's games only (counted game by game)."""
    import json

    from replay.database.explore import explore, explore_moves
    from replay.database.schema import open_readonly
    from replay.rules.position import start_position

    _, listed = timed("pdn explore (the start)", lambda: command("explore", str(db), "--json"),
                      goal)
    found = json.loads(listed)
    print(f"    {found['games']} games through the start, {len(found['moves'])} moves")
    timed("pdn explore --moves 11-15", lambda: command("explore", str(db), "--moves", "11-15"),
          goal)
    connection = open_readonly(db)
    try:
        explore(connection, start_position(ENGLISH), ENGLISH)  # warm the page cache

        def query() -> None:
            for _ in range(10):
                explore(connection, start_position(ENGLISH), ENGLISH)
        seconds, _ = timed("explore() at the start, 10 calls", query, goal)
        print(f"    {seconds / 10 * 1000:.1f} ms a call")
        _, rows = timed(f"pdn explore --player {PLAYER}", lambda: command(
            "explore", str(db), "--player", PLAYER, "--json"), goal)
        print(f"    {json.loads(rows)['games']} of {PLAYER}'s games through the start")
        from replay.archive.select import criteria_from_text

        every = criteria_from_text(tags=["Event=*"])
        _, (counted,) = timed("explore() after 11-15, every game counted one by one",
                              lambda: explore_moves(connection, "11-15", every))
        print(f"    {counted.games} games counted")
    finally:
        connection.close()


def replicate(source: Path, copies: int, target: Path) -> None:
    """A database holding ``copies`` copies of ``source``'s games, made by SQL: what
    indexing a file of the source's archive repeated ``copies`` times would store (``--generate
    N --real-share 1``), but for the records (left empty) and the latest games (the last
    copy's); minutes instead of the hours of replaying them all."""
    import shutil
    import sqlite3

    shutil.copyfile(source, target)
    connection = sqlite3.connect(target)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    connection.execute("PRAGMA cache_size = -262144")
    games = connection.execute("SELECT MAX(game_id) FROM games").fetchone()[0]
    columns = [row[1] for row in connection.execute("PRAGMA table_info(games)")]
    copied = ", ".join("game_id + ?" if name == "game_id" else "''" if name == "pdn" else name
                       for name in columns)
    for copy in range(1, copies):
        offset = copy * games
        connection.execute(f"INSERT INTO games SELECT {copied} FROM games WHERE game_id <= ?",
                           (offset, games))
        connection.execute("INSERT INTO game_positions SELECT position_key, game_id + ?, ply "
                           "FROM game_positions WHERE game_id <= ?", (offset, games))
        connection.commit()
    connection.execute(
        "UPDATE position_moves SET games = games * ?1, white_wins = white_wins * ?1, "
        "draws = draws * ?1, black_wins = black_wins * ?1, rated = rated * ?1, "
        "rating_sum = rating_sum * ?1, latest_game = latest_game + (?1 - 1) * ?2",
        (copies, games))
    connection.execute("UPDATE files SET games = games * ?", (copies,))
    connection.commit()
    connection.close()


def _scan(text: str) -> str:
    """The games of a pattern found by scanning every distinct position (as schema 1 did),
    with the condition's parameters written in."""
    from replay.database.pattern import Pattern

    condition, parameters = Pattern.parse(text).sql(ENGLISH)
    for value in parameters:
        condition = condition.replace("?", repr(value), 1)
    return ("SELECT gp.game_id, MIN(gp.ply) FROM positions p JOIN game_positions gp "
            f"ON gp.position_key = p.position_key WHERE p.variant = 'english' AND {condition} "
            "GROUP BY gp.game_id")


def compare_filter(source: Path, folder: Path, search: float, jobs: int) -> None:
    """pdn filter --position beside the search: time and the same games."""
    filtered = folder / "filtered.pdn"
    scan, _ = timed("pdn filter --position", lambda: command(
        "filter", str(source), "--variant", "english", "--position", first_fen(source),
        "-o", str(filtered), "--jobs", str(jobs)))
    same = (folder / "found.pdn").read_bytes() == filtered.read_bytes()
    print(f"search is {scan / search:.0f} x faster than filter (goal >= 10); "
          f"the same games: {same}")


def planes_alone(positions: int, folder: Path, seed: int = 1) -> None:
    """The pattern index by itself at a given number of distinct positions: random English
    positions (each square empty or one of the four kinds, a fifth of the time each; far
    more varied than real ones) written to the positions table, the planes built, and the
    bench's pattern answered from them and by schema 1's scan, in this process."""
    import numpy as np

    from replay.database.pattern import Pattern
    from replay.database.planes import matching_positions, update_planes
    from replay.database.schema import create_or_open

    connection = create_or_open(folder / "positions.db")
    chooser = np.random.default_rng(seed)

    def fill() -> None:
        for start in range(0, positions, 1 << 18):
            kinds = chooser.integers(0, 5, size=(min(1 << 18, positions - start), 32))
            weights = (1 << np.arange(32, dtype=np.int64))
            boards = [((kinds == kind) * weights).sum(axis=1) for kind in range(1, 5)]
            keys = chooser.integers(-(1 << 63), (1 << 63) - 1, size=len(kinds), dtype=np.int64)
            turns = chooser.integers(0, 2, size=len(kinds))
            connection.executemany(
                "INSERT OR IGNORE INTO positions (position_key, variant, turn, white_men, "
                "white_kings, black_men, black_kings, white_men_count, white_kings_count, "
                "black_men_count, black_kings_count, fen) VALUES (?, 'english', ?, ?, ?, ?, "
                "?, 0, 0, 0, 0, '')",
                zip(keys.tolist(), ("WB"[turn] for turn in turns.tolist()),
                    *(board.tolist() for board in boards), strict=True))
        connection.commit()

    timed(f"write {positions} random positions", fill)
    timed("build the pattern planes", lambda: (update_planes(connection), connection.commit()))
    pattern = Pattern.parse(PATTERN)
    _, ids = timed("--pattern from the planes", lambda: matching_positions(
        connection, pattern, ENGLISH))
    condition, parameters = pattern.sql(ENGLISH)
    _, scanned = timed("--pattern by the scan (schema 1)", lambda: [row[0] for row in (
        connection.execute(f"SELECT position_id FROM positions WHERE variant = 'english' "
                           f"AND {condition} ORDER BY position_id", parameters))])
    print(f"{len(ids)} positions found; the same as the scan: {sorted(ids) == scanned}")
    connection.close()


def _sql(db: Path, query: str) -> list:
    import sqlite3

    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return connection.execute(query).fetchall()
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=OCA)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--generate", type=int, metavar="N",
                        help="measure on N generated games instead of --file")
    parser.add_argument("--real-share", type=float, default=0.8,
                        help="the share of --generate's games taken from --file")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep the generated archive and the database in DIR")
    parser.add_argument("--database", type=Path,
                        help="only time the searches on this database (made with --keep)")
    parser.add_argument("--replicate", type=int, metavar="K",
                        help="with --database: time the searches on K copies of its games, "
                        "made by SQL beside it (replicated.db)")
    parser.add_argument("--index-only", action="store_true",
                        help="only time pdn index --jobs 1 of --file as a whole process")
    parser.add_argument("--repeat", type=int, default=1, help="with --index-only: runs")
    parser.add_argument("--planes", type=int, metavar="N",
                        help="only time the pattern index on N random positions")
    options = parser.parse_args()
    print(f"{options.jobs} worker processes; load {os.getloadavg()}")
    if options.planes:
        with tempfile.TemporaryDirectory() as temporary:
            planes_alone(options.planes, Path(temporary))
        return
    if options.index_only:
        with tempfile.TemporaryDirectory() as temporary:
            index_one_core(options.file, Path(temporary), options.repeat)
        return
    if options.database and options.replicate:
        target = options.database.with_name("replicated.db")
        timed(f"replicate the games {options.replicate} times by SQL",
              lambda: replicate(options.database, options.replicate, target))
        explorer(target)
        return
    if options.database:
        folder = options.database.parent
        generated = folder / "generated.pdn"
        searches(options.database, generated if generated.exists() else options.file, folder)
        return
    if not options.file.exists():
        sys.exit(f"{options.file} is not present")
    with tempfile.TemporaryDirectory() as temporary:
        folder = options.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        if options.generate:
            path, told = folder / "generated.pdn", folder / "mix.txt"
            if told.exists() and path.exists():  # made by an earlier run with --keep
                mix = told.read_text(encoding="utf-8")
            else:
                _, mix = timed(f"generate {options.generate} games", lambda: generate(
                    path, options.generate, options.file, options.real_share))
                told.write_text(mix, encoding="utf-8")
            print(f"{mix}: {path.stat().st_size / 1e6:.1f} MB of PDN")
            build(path, folder / "games.db", options.jobs)
            searches(folder / "games.db", path, folder)
            return
        print(options.file.name)
        build(options.file, folder / "games.db", options.jobs)
        search = searches(folder / "games.db", options.file, folder, goal=2.0)
        compare_filter(options.file, folder, search, options.jobs)


if __name__ == "__main__":
    main()
