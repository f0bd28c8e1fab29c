"""The game database: pdn index and pdn search on records written for them, the
same games as pdn filter, bad input, and exactness on OCA 2.0."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.fen import format_fen
from pdn.reader import read_games
from replay.archive import Criteria, Settings, filter_games
from replay.archive.select import MaterialTest
from replay.archive.tags import date_parts_of
from replay.archive.walk import walk_main_line
from replay.database.build import index_sources
from replay.database.keys import dense, fen_of
from replay.database.pattern import KINDS, Pattern, PatternError
from replay.database.planes import CHUNK, matching_positions, update_planes
from replay.database.query import TABLE_COLUMNS, Search, search, summaries
from replay.database.schema import DatabaseError, open_readonly
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.reference.openings import all_openings, fmjd_ballot, opening_label, opening_of
from replay.rules.choice import RulesChoice
from replay.rules.position import setup_from_position
from replay.rules.variants import ENGLISH, RUSSIAN, get_variant
from replay.viewer.page import game_data

runner = CliRunner()

# Three Russian games, legal move by move (each is replayed when indexed and the test
# checks they are valid). Games 1 and 3 reach the same position by transposition after
# two moves each: White men a1 c1 e1 g1 b2 d2 f2 h2 a3 e3 d4 h4 (c3 went to d4, g3 to h4),
# Black men a5 b6 d6 f6 h6 c7 e7 g7 b8 d8 f8 h8 (b6 went to a5, a7 to b6), White to move.
GAMES = """[Event "Cup A"]
[White "Ivanov, A."]
[Black "Petrov, B."]
[Date "1990.05.01"]
[Result "1-0"]
1. c3-d4 b6-a5 2. g3-h4 a7-b6 1-0

[Event "Open B"]
[White "Sidorov, C."]
[Black "Ivanov, A."]
[Date "1991.??.??"]
[Result "0-1"]
1. c3-d4 f6-e5 2. d4:f6 g7:e5 0-1

[Event "Cup C"]
[White "Kuznetsov, D."]
[Black "Popov, E."]
[Date "1990.??.??"]
[Result "1/2-1/2"]
1. g3-h4 b6-a5 2. c3-d4 a7-b6 1/2-1/2

"""
TRANSPOSED = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,d4,h4:Ba5,b6,d6,f6,h6,c7,e7,g7,b8,d8,f8,h8"


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert not isinstance(result.exception, Exception), result.exception  # no traceback
    return result.output


@pytest.fixture
def database(tmp_path: Path) -> tuple[Path, Path]:
    """The three games written to a file and indexed: (database, source)."""
    source = tmp_path / "games.pdn"
    source.write_text(GAMES, encoding="utf-8")
    db = tmp_path / "games.db"
    run("index", str(source), "-o", str(db), "--variant", "russian")
    return db, source


def found(db: Path, *options: str) -> list[tuple[int, int | None]]:
    """(game number in the file, ply) of each game a search finds."""
    output = run("search", str(db), "--format", "json", *options)
    return [(row["game"], row["ply"]) for row in map(json.loads, output.splitlines())]


def test_every_game_is_indexed_with_its_moves_and_positions(database):
    db, _ = database
    connection = open_readonly(db)
    rows = connection.execute("SELECT status, plies, moves, white_men, black_men FROM games"
                              ).fetchall()
    # Numbered from b8 = 1 row by row to a1 = 29 (g7 = 8, f6 = 11, e5 = 15, d4 = 18, c3 = 22).
    assert [row[0] for row in rows] == ["valid"] * 3
    assert [row[1] for row in rows] == [4, 4, 4]
    assert rows[1][2] == "22-18 11-15 18x11 8x15"  # c3-d4 f6-e5 d4:f6 g7:e5
    assert rows[1][3:] == (11, 11)  # one man taken on each side
    occurrences = connection.execute("SELECT COUNT(*) FROM game_positions").fetchone()[0]
    assert occurrences == 15  # the start and four plies, per game


def test_position_search_finds_a_transposition_with_its_ply(database):
    db, _ = database
    assert found(db, "--position", TRANSPOSED) == [(1, 4), (3, 4)]
    # The same pieces with Black to move is another position.
    assert found(db, "--position", "B" + TRANSPOSED[1:]) == []


def test_pattern_fixes_some_squares_and_leaves_the_rest_free(database):
    db, _ = database
    # A white man on d4 with Black to move: after 1. c3-d4 (games 1, 2), 2. c3-d4 (game 3).
    assert found(db, "--pattern", "d4=wm turn=black") == [(1, 1), (2, 1), (3, 3)]
    # A black man on a5 or c5: b6-a5 in games 1 and 3; game 2 never has one there.
    assert found(db, "--pattern", "any(a5,c5)=bm") == [(1, 2), (3, 2)]
    # A black man on e5 and f6 empty: game 2 after 1... f6-e5.
    assert found(db, "--pattern", "e5=bm f6=empty") == [(2, 2)]
    # h4 is empty at the start of every game.
    assert found(db, "--pattern", "h4=empty") == [(1, 0), (2, 0), (3, 0)]
    # Every square of 1-4 (b8 d8 f8 h8) holds a black man or king at the start.
    assert found(db, "--pattern", "1-4=b h2=w") == [(1, 0), (2, 0), (3, 0)]


def test_pattern_errors_are_clear():
    for text, words in (("d4=queen", "not one of"), ("d4", "SQUARES=KINDS"),
                        ("turn=red", "turn=white")):
        with pytest.raises(PatternError, match=words):
            Pattern.parse(text)
    with pytest.raises(PatternError, match="not a playing square"):
        Pattern.parse("d5=wm").sql(RUSSIAN)  # d5 is a light square


def test_tags_players_dates_material_and_moves_combine_with_and(database):
    db, _ = database
    assert found(db, "--player", "ivanov") == [(1, None), (2, None)]
    assert found(db, "--tag", "Event=Cup*") == [(1, None), (3, None)]
    # A partial date is a span: 1990.??.?? may be after June 1990, 1991 is.
    assert found(db, "--date-from", "1990.06.01") == [(2, None), (3, None)]
    assert found(db, "--date-to", "1990.05.01") == [(1, None), (3, None)]
    assert found(db, "--player", "ivanov", "--date-from", "1991") == [(2, None)]
    # A year and a month: June 1990 on, so not game 1 (1990.05.01); 1990.??.?? may be.
    assert date_parts_of("1990.06") == (1990, 6, None) == date_parts_of("1990-6")
    assert found(db, "--date-from", "1990.06") == [(2, None), (3, None)]
    assert found(db, "--date-to", "1990.04") == [(3, None)]
    assert found(db, "--material", "W:11M B:11M") == [(2, None)]
    assert found(db, "--material", "W:12M") == [(1, None), (3, None)]
    # Short notation, resolved on the board: games 1 and 2 open 1. c3-d4.
    assert found(db, "--moves", "1.cd4") == [(1, 1), (2, 1)]
    # With a pattern too, the ply is the pattern's: b6-a5 is game 1's second ply.
    assert found(db, "--moves", "1.cd4", "--pattern", "a5=bm") == [(1, 2)]


def test_search_writes_the_same_games_as_filter(database, tmp_path):
    db, source = database
    for options in (["--position", TRANSPOSED], ["--player", "ivanov"],
                    ["--moves", "1.cd4 fe5"], ["--material", "W:12M B:12M"],
                    ["--date-from", "1990.06.01", "--tag", "Event=/Cup/"],
                    ["--date-from", "1990.06"], ["--date-to", "1990.05"],
                    ["--white", "ivanov"], ["--black", "IVANOV, a."], ["--player", "*ov,*"],
                    ["--player", "sidorov", "--player", "ivanov"],
                    ["--material", "W:11M", "--material-any-ply"],
                    ["--material", "B:11M", "--material-any-ply"]):
        searched, filtered = tmp_path / "searched.pdn", tmp_path / "filtered.pdn"
        run("search", str(db), "-o", str(searched), *options)
        run("filter", str(source), "-o", str(filtered), "--variant", "russian", *options)
        assert searched.read_text(encoding="utf-8") == filtered.read_text(encoding="utf-8")


def test_a_file_indexed_twice_is_not_doubled_and_a_changed_file_is_replaced(database):
    db, source = database
    run("index", str(source), "-o", str(db), "--variant", "russian")
    assert len(found(db)) == 3
    source.write_text(GAMES + '[Event "Late"]\n1. a3-b4 *\n', encoding="utf-8")
    run("index", str(source), "-o", str(db), "--variant", "russian")
    assert [game for game, _ in found(db)] == [1, 2, 3, 4]
    assert found(db, "--position", TRANSPOSED) == [(1, 4), (3, 4)]
    # The pattern index took in the new game's positions: 1. a3-b4 is the only move to b4.
    assert found(db, "--pattern", "b4=wm turn=black") == [(4, 1)]


def test_a_file_that_fails_midway_leaves_none_of_its_game_positions(tmp_path):
    """Game positions wait in a temporary table until their file ends: a file whose read
    fails midway (bytes not in the encoding given) is rolled back with them, and the next
    file's are written whole, in the table's key order."""
    folder = tmp_path / "in"
    folder.mkdir()
    broken = GAMES * 2000 + "\u00e9"  # far enough in that earlier partitions were written
    (folder / "a_broken.pdn").write_bytes(broken.encode("latin-1"))
    (folder / "b_good.pdn").write_text(GAMES, encoding="utf-8")
    db = tmp_path / "games.db"
    output = run("index", str(folder), "-o", str(db), "--variant", "russian",
                 "--encoding", "utf-8", code=2)
    assert "a_broken.pdn: cannot read" in output
    connection = open_readonly(db)
    assert connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 3
    stored = connection.execute("SELECT game_id, ply FROM game_positions").fetchall()
    plies = connection.execute("SELECT game_id, plies FROM games").fetchall()
    assert sorted(stored) == [(game, ply) for game, last in plies for ply in range(last + 1)]
    # the planes made as the broken file's positions came were rolled back with them
    assert stored_planes(sqlite3.connect(db)) == planes_read_back(db)


def stored_planes(connection: sqlite3.Connection) -> list[tuple]:
    return connection.execute("SELECT variant, chunk, plane, bits FROM pattern_planes "
                              "ORDER BY variant, chunk, plane").fetchall()


def planes_read_back(db: Path) -> list[tuple]:
    """A database's pattern planes made again from its positions table (``update_planes``,
    what a database that was not new when indexed into gets)."""
    copy = sqlite3.connect(":memory:")
    with sqlite3.connect(db) as source:
        source.backup(copy)
    with copy:
        copy.execute("DELETE FROM pattern_planes")
        copy.execute("DELETE FROM meta WHERE name = 'planes_through'")
        update_planes(copy)
    return stored_planes(copy)


def test_unreadable_sources_and_games_are_reported_by_name(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.pdn").write_text(GAMES, encoding="utf-8")
    (folder / "broken.pdn").write_text('[Event "x"]\n1. c3-d4 ( f6-g5 *\n', encoding="utf-8")
    (folder / "gone.pdn").symlink_to(tmp_path / "missing.pdn")
    db = tmp_path / "games.db"
    output = run("index", str(folder), "-o", str(db), "--variant", "russian", code=2)
    assert "gone.pdn: cannot read" in output
    assert "broken.pdn:1: game 1: unreadable" in output
    assert len(found(db)) == 3  # the good file's games are all there


def test_databases_of_another_version_or_corrupt_ones_are_refused(database, tmp_path):
    db, source = database
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA user_version = 99")
    connection.commit()
    connection.close()
    output = run("search", str(db), "--player", "x", code=2)
    assert "schema version 99 is newer" in output
    assert "use the pdn that made it" in run("index", str(source), "-o", str(db), code=2)
    with pytest.raises(DatabaseError, match="newer"):
        open_readonly(db)
    connection = sqlite3.connect(db)
    connection.execute("PRAGMA user_version = 2")  # position keys of the former square layout
    connection.commit()
    connection.close()
    output = run("search", str(db), "--pattern", "d4=wm", code=2)
    assert "schema version 2 is older than this toolkit's (5)" in output
    assert f"pdn index -o {db} FILES rebuilds it" in output
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    assert "not a game database" in run("search", str(garbage), code=2)
    assert "not a game database" in run("index", str(tmp_path), "-o", str(garbage), code=2)
    assert "no such database" in run("search", str(tmp_path / "none.db"), code=2)
    damaged = tmp_path / "damaged.db"
    data = bytearray(db.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # the header page kept, every other page lost
    damaged.write_bytes(bytes(data))
    assert "damaged.db" in run("search", str(damaged), "--position", TRANSPOSED, code=2)


def _aged(db: Path, version: int) -> None:
    """``db`` marked as a database of schema ``version``."""
    connection = sqlite3.connect(db)
    with connection:
        connection.execute("UPDATE meta SET value = ? WHERE name = 'schema_version'",
                           (str(version),))
        connection.execute(f"PRAGMA user_version = {version}")
    connection.close()


@pytest.mark.parametrize("version", [3, 4])
def test_a_database_of_the_former_position_keys_is_refused_with_how_to_rebuild_it(
        database, version):
    """Versions 3 and 4 keyed positions by BLAKE2b of their text: their keys cannot be
    looked up by version 5's, so search and explore refuse them and say how to rebuild."""
    db, _ = database
    _aged(db, version)
    for command in (("search", str(db), "--position", TRANSPOSED), ("explore", str(db))):
        output = run(*command, code=2)
        assert (f"schema version {version} is older than this toolkit's (5) (it lacks "
                f"position keys mixed from the bitboards); pdn index -o {db} FILES rebuilds "
                "it from the files it indexed") in output


def test_pdn_index_rebuilds_an_older_database_from_the_files_it_indexed(tmp_path):
    """The files an older database indexed that are still there are indexed again with the
    files given, into a database of this schema put in its place; a file gone is named."""
    kept, gone, new = (tmp_path / f"{name}.pdn" for name in ("kept", "gone", "new"))
    for path, event in ((kept, "Cup"), (gone, "Cap"), (new, "Cop")):
        path.write_text(GAMES.replace("Cup", event), encoding="utf-8")
    db = tmp_path / "games.db"
    run("index", str(kept), str(gone), "-o", str(db), "--variant", "russian")
    before = found(db, "--position", TRANSPOSED)
    _aged(db, 4)
    gone.unlink()
    output = run("index", str(new), "-o", str(db), "--variant", "russian")
    assert ("schema version 4, older than this toolkit's (5): rebuilt from the files it "
            "indexed that are still there (1)") in output
    assert f"{gone}: indexed before, no longer there" in output
    assert sorted(os.listdir(tmp_path)) == ["games.db", "kept.pdn", "new.pdn"]
    connection = sqlite3.connect(db)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 5
    assert [Path(path).name for (path,) in connection.execute(
        "SELECT path FROM files ORDER BY file_id")] == ["kept.pdn", "new.pdn"]
    connection.close()
    events = run("search", str(db), "--position", TRANSPOSED, "--format", "json")
    assert {json.loads(row)["event"].split()[0] for row in events.splitlines()} == {"Cup", "Cop"}
    assert len(found(db, "--position", TRANSPOSED)) == len(before)


def test_a_run_into_a_new_database_leaves_each_position_once_with_its_key_index(tmp_path):
    """Positions met in several files of one run are deduplicated by the run; the key
    index is built at its end and the later runs look keys up in it."""
    first, second = tmp_path / "a.pdn", tmp_path / "b.pdn"
    first.write_text(GAMES, encoding="utf-8")
    second.write_text(GAMES.replace("Cup", "Cap"), encoding="utf-8")
    db = tmp_path / "games.db"
    run("index", str(first), str(second), "-o", str(db), "--variant", "russian")
    third = tmp_path / "c.pdn"
    third.write_text(GAMES.replace("Cup", "Cop"), encoding="utf-8")
    run("index", str(third), "-o", str(db), "--variant", "russian")
    connection = sqlite3.connect(db)
    keys = [key for (key,) in connection.execute("SELECT position_key FROM positions")]
    assert len(keys) == len(set(keys)) == connection.execute(
        "SELECT COUNT(DISTINCT position_key) FROM game_positions").fetchone()[0]
    assert connection.execute("SELECT COUNT(DISTINCT game_id) FROM game_positions"
                              ).fetchone()[0] == 9
    assert connection.execute("SELECT MAX(position_id) FROM positions").fetchone()[0] == len(keys)
    assert connection.execute("SELECT [unique] FROM pragma_index_list('positions') "
                              "WHERE name = 'positions_by_key'").fetchone() == (1,)
    connection.close()
    assert [game for game, _ in found(db, "--position", TRANSPOSED)] == [1, 3] * 3


def test_small_limits_on_held_rows_and_kept_keys_give_the_same_database(tmp_path, monkeypatch):
    """Game positions written in several sorted parts, and the key set given up for the
    index midway through a run, leave the same rows as one part and one set."""
    from replay.database import game_positions, positions_table

    sources = []
    for name in ("a", "b"):
        sources.append(tmp_path / f"{name}.pdn")
        sources[-1].write_text(GAMES.replace("Cup", f"Cup {name}"), encoding="utf-8")

    def tables(db: Path) -> dict[str, list[tuple]]:
        connection = sqlite3.connect(db)
        try:
            return {table: connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3"
                                              ).fetchall()
                    for table in ("positions", "game_positions", "position_moves",
                                  "pattern_planes")}
        finally:
            connection.close()

    settings = Settings(RulesChoice(default=RUSSIAN), jobs=1)
    index_sources(tmp_path / "whole.db", [str(path) for path in sources], settings,
                  note=lambda _: None)
    monkeypatch.setattr(game_positions, "HELD_ROWS", 5)
    monkeypatch.setattr(game_positions, "SLICE_ROWS", 3)
    monkeypatch.setattr(positions_table, "KEYS_LIMIT", 4)
    index_sources(tmp_path / "parts.db", [str(path) for path in sources], settings,
                  note=lambda _: None)
    whole, parts = tables(tmp_path / "whole.db"), tables(tmp_path / "parts.db")
    assert len(whole["game_positions"]) == 2 * 3 * 5  # two files of three games, 4 plies
    assert whole == parts


def test_a_position_search_loads_neither_the_reader_nor_pandas(database):
    """The whole command starts fast: a plain --position search needs the board and SQLite,
    not the PDN grammar (lark), pandas, numpy or the archive tools."""
    db, _ = database
    script = ("import sys\nfrom pdn.cli.app import main\n"
              f"sys.argv = ['pdn', 'search', {str(db)!r}, '--position', {TRANSPOSED!r}]\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "heavy = ('lark', 'pandas', 'numpy', 'replay.archive', 'rich.console')\n"
              "print('loaded:', sorted(name for name in heavy if name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert "[Event \"Cup A\"]" in done.stdout  # the search ran and found game 1
    assert "loaded: []" in done.stdout


def test_indexing_loads_neither_pandas_nor_pyarrow(tmp_path):
    """``pdn index`` reads Date tags without pandas: the whole command leaves pandas and
    pyarrow (about 90 MB of memory) unloaded."""
    source = tmp_path / "games.pdn"
    source.write_text(GAMES, encoding="utf-8")
    db = tmp_path / "games.db"
    script = ("import sys\nfrom pdn.cli.app import main\n"
              f"sys.argv = ['pdn', 'index', {str(source)!r}, '-o', {str(db)!r}, '--variant', "
              "'russian', '--jobs', '1']\n"
              "try:\n    main()\nexcept SystemExit:\n    pass\n"
              "print('loaded:', sorted(name for name in ('pandas', 'pyarrow') "
              "if name in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert "3 games" in done.stderr  # the index ran (its summary on stderr)
    assert "loaded: []" in done.stdout
    assert open_readonly(db).execute("SELECT COUNT(*) FROM games WHERE date_low IS NOT NULL"
                                     ).fetchone()[0] > 0


def test_search_never_writes_over_an_input(database):
    db, source = database
    before = db.read_bytes()
    assert "also an input" in run("search", str(db), "-o", str(db), code=2)
    assert "also an input" in run("search", str(db), "-o", str(source), code=2)
    assert db.read_bytes() == before


@pytest.fixture(scope="module")
def oca(shared_data: Path, tmp_path_factory) -> tuple[str, Path]:
    """OCA 2.0 indexed once for the tests that read it: (source, database)."""
    source = str(shared_data / "english" / "OCA_2.0.pdn")
    db = tmp_path_factory.mktemp("oca") / "oca.db"
    summary = index_sources(db, [source], Settings(RulesChoice(), jobs=2), note=lambda _: None)
    assert summary.games == 22621 and not summary.failed
    return source, db


def test_oca_position_search_returns_exactly_the_games_filter_returns(oca, tmp_path):
    """OCA 2.0 has no GameType tags: the index infers English from each record, as filter
    does. The positions are those of game 1 after 8 plies (the one bench/archive.py times)
    and of a game deep in the archive in its middle game."""
    source, db = oca
    connection = open_readonly(db)
    middle = connection.execute(
        "SELECT p.fen FROM game_positions gp JOIN positions p USING (position_key) "
        "WHERE gp.game_id = 12345 AND gp.ply = 30").fetchone()[0]
    targets = ["B:W18,20,21,23,24,26,27,29,30,31,32:B1,2,3,4,5,6,7,10,11,12,13", middle]
    for fen in targets:
        criteria = Criteria(position=fen)
        searched = "".join(match.pdn for match in search(connection, Search(criteria)))
        alone = "".join(match.pdn for match in search(connection, Search(position=fen)))
        out = tmp_path / "filtered.pdn"
        with open(out, "w", encoding="utf-8") as stream:
            settings = Settings(RulesChoice(ENGLISH), jobs=2)
            filtered = filter_games([source], stream, criteria, settings, note=lambda _: None)
        assert filtered.matched >= 1
        assert searched == alone == out.read_text(encoding="utf-8")


def scanned_games(connection: sqlite3.Connection, pattern: Pattern, variant_name: str
                  ) -> dict[int, int]:
    """Games and first plies by the plain scan of every distinct position (``Pattern.sql``),
    the reference the pattern index must agree with."""
    condition, parameters = pattern.sql(get_variant(variant_name))
    return dict(connection.execute(
        "SELECT gp.game_id, MIN(gp.ply) FROM positions p JOIN game_positions gp "
        f"ON gp.position_key = p.position_key WHERE p.variant = ? AND {condition} "
        "GROUP BY gp.game_id", [variant_name, *parameters]))


def indexed_games(connection: sqlite3.Connection, pattern: Pattern) -> dict[int, int | None]:
    return {match.game_id: match.ply for match in search(connection, Search(pattern=pattern))}


OCA_PATTERNS = ("any(14,15)=bk 1-4=empty", "22=wm 9=bm turn=black", "1-12=empty",
                "any(5,6,7,8)=wk 29-32=b", "13,14,15,16=empty 17=w|empty", "32=bk")


def test_oca_pattern_index_finds_what_the_scan_finds(oca):
    _, db = oca
    connection = open_readonly(db)
    for text in OCA_PATTERNS:
        pattern = Pattern.parse(text)
        expected = scanned_games(connection, pattern, "english")
        assert indexed_games(connection, pattern) == expected, text
    assert scanned_games(connection, Pattern.parse("any(14,15)=bk 1-4=empty"), "english")


def test_oca_material_at_any_ply_uses_the_index_and_finds_what_the_scan_finds(oca):
    """--material-any-ply: the index on the four counts, a free side as every count."""
    _, db = oca
    connection = open_readonly(db)
    for text, white, black in (("W:1K B:1K", (0, 1), (0, 1)), ("B:1K", None, (0, 1)),
                               ("W:3M", (3, 0), None)):
        clauses = [f"p.{side}_men_count = {counts[0]} AND p.{side}_kings_count = {counts[1]}"
                   for side, counts in (("white", white), ("black", black)) if counts]
        scanned = dict(connection.execute(
            "SELECT gp.game_id, MIN(gp.ply) FROM positions p NOT INDEXED JOIN game_positions "
            f"gp USING (position_key) WHERE {' AND '.join(clauses)} GROUP BY gp.game_id"))
        criteria = Criteria(material=MaterialTest.parse(text), material_any_ply=True)
        assert len(scanned) > 3, text
        assert {m.game_id: m.ply for m in search(connection, Search(criteria),
                                                 records=False)} == scanned, text
    plan = " ".join(str(row) for row in connection.execute(
        "EXPLAIN QUERY PLAN SELECT position_id FROM positions p WHERE p.black_men_count = 0 "
        "AND p.black_kings_count = 1 AND p.white_men_count IN (SELECT value FROM "
        "json_each('[0,1,2]')) AND p.white_kings_count IN (SELECT value FROM "
        "json_each('[0,1,2]'))"))
    assert "positions_by_material" in plan and "SCAN" not in plan.replace("SCAN json", "")


def test_oca_lists_made_by_sqlite_match_the_games_found(oca):
    """``--format table`` and ``json`` lines are made by SQLite (``summaries``); they hold
    what the ``Match`` objects of the same search hold, game by game: apostrophes, quotes,
    accents and missing tags included."""
    _, db = oca
    connection = open_readonly(db)
    for wanted in (Search(pattern=Pattern.parse("1-4=empty")),
                   Search(Criteria(players=("a*",), moves="11-15")), Search()):
        matches = list(search(connection, wanted, records=False))
        assert len(matches) > 200
        assert any(None in (m.date, m.opening, m.ballot) for m in matches)
        table = ["\t".join("" if m.summary()[name] is None else str(m.summary()[name])
                           for name in TABLE_COLUMNS) + "\n" for m in matches]
        assert list(summaries(connection, wanted, "table")) == table
        assert [json.loads(line) for line in summaries(connection, wanted, "json")] == [
            m.summary() for m in matches]
    names = [m.white for m in search(connection, Search(), records=False)]
    assert any("'" in name for name in names if name)


@pytest.fixture(scope="module")
def two_variants(shared_data: Path, tmp_path_factory) -> sqlite3.Connection:
    """Two real archives of two variants in one database (their positions share chunks of
    the pattern index): Tinsley's games (English, 32 squares) and the 2007 world
    championship (International, 50 squares)."""
    db = tmp_path_factory.mktemp("two") / "two.db"
    sources = [str(shared_data / "english" / "tinsley.pdn"),
               str(shared_data / "international" / "fmjd_wk2007_all_games.pdn")]
    index_sources(db, sources, Settings(RulesChoice(), jobs=1), note=lambda _: None)
    return open_readonly(db)


def scanned_positions(connection: sqlite3.Connection, pattern: Pattern, name: str) -> list[int]:
    condition, parameters = pattern.sql(get_variant(name))
    return [row[0] for row in connection.execute(
        f"SELECT position_id FROM positions WHERE variant = ? AND {condition} "
        "ORDER BY position_id", [name, *parameters])]


def test_real_archives_pattern_index_agrees_with_the_scan(two_variants):
    connection = two_variants
    for name, squares in (("english", 32), ("international", 50)):
        for text in ("1=bm", "any(1,2,3)=wk", f"{squares}=empty turn=white",
                     f"1-{squares // 2}=empty|bm|bk", f"{squares // 2}=w any(1,{squares})=b"):
            pattern = Pattern.parse(text)
            ids = sorted(matching_positions(connection, pattern, get_variant(name)))
            assert ids == scanned_positions(connection, pattern, name), (name, text)
    both = Pattern.parse("1=bm")  # in both variants: each one's games, once
    assert indexed_games(connection, both) == {
        **scanned_games(connection, both, "english"),
        **scanned_games(connection, both, "international")}
    assert connection.execute("SELECT COUNT(DISTINCT variant), COUNT(*) FROM positions "
                              "WHERE position_id < ?", (CHUNK,)).fetchone()[0] == 2


@st.composite
def patterns(draw, squares: int) -> str:
    """A random pattern over a board of ``squares`` playing squares."""
    terms = []
    for _ in range(draw(st.integers(1, 4))):
        written = ",".join(str(draw(st.integers(1, squares)))
                           for _ in range(draw(st.integers(1, 3))))
        kinds = "|".join(draw(st.lists(st.sampled_from(sorted(KINDS)), min_size=1,
                                       max_size=3)))
        terms.append(f"any({written})={kinds}" if draw(st.booleans()) else
                     f"{written}={kinds}")
    turn = draw(st.sampled_from(["", " turn=white", " turn=black"]))
    return " ".join(terms) + turn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_patterns_find_what_the_scan_finds(two_variants, data):
    name, squares = data.draw(st.sampled_from([("english", 32), ("international", 50)]))
    pattern = Pattern.parse(data.draw(patterns(squares)))
    ids = sorted(matching_positions(two_variants, pattern, get_variant(name)))
    assert ids == scanned_positions(two_variants, pattern, name)


def test_openings_are_named_by_position_with_a_source_each(database):
    db, _ = database
    output = run("search", str(db), "--format", "json")
    # Game 1 opens 1. c3-d4 b6-a5, "Кол"; game 2 1. cd4 fe5 2. d:f6 g:e5, "Гибельное
    # начало"; game 3 1. gh4 ba5, "Игра Петрова" (docs/openings.md gives the sources).
    rows = [json.loads(row) for row in output.splitlines()]
    assert [row["opening"] for row in rows] == ["Кол", "Гибельное начало", "Игра Петрова"]
    # FMJD Drawing Table 64: cd4 ba5 is no ballot on its own (4-IV is cd4 ba5 bc3 de5, as
    # test_stats checks); game 2's cd4 fe5 dxf6 gxe5 and game 3's gh4 ba5 cd4 ab6 neither.
    assert [row["ballot"] for row in rows] == [None, None, None]
    game = next(read_games("1. cd4 ba5 2. bc3 de5 *"))
    line = walk_main_line(game, RUSSIAN)
    assert fmjd_ballot(RUSSIAN, line.positions, line.moves) == "4-IV"
    assert opening_label(RUSSIAN, line.positions, line.moves) == "Кол (4-IV)"
    assert game_data(replay_game(game, RUSSIAN))["opening"] == "Кол (4-IV)"  # the viewer
    entries = all_openings()
    assert entries and all("http" in entry.source for entry in entries)
    # A transposition: 1. cd4 fg5 2. bc3 dc5 reaches the position of the source's order
    # 1. cd4 dc5 2. bc3 fg5 (White c3-d4 and b2-c3, Black d6-c5 and f6-g5).
    board = Board(RUSSIAN)
    positions = [board.position]
    for move in ("c3-d4", "f6-g5", "b2-c3", "d6-c5", "a3-b4"):
        board.push(board.parse(move))
        positions.append(board.position)
    assert opening_of(positions, RUSSIAN).name == "Городская партия"
    assert opening_of(positions[:4], RUSSIAN) is None


@pytest.mark.parametrize("name", ["english", "russian", "international", "turkish",
                                  "canadian", "frisian"])
def test_stored_fen_and_bitboards_agree_with_the_fen_writer(name):
    """keys.fen_of is a fast copy of pdn.fen.format_fen, and dense bitboards number the
    playing squares in order: both checked on every position of seeded random games."""
    variant = get_variant(name)
    squares = variant.geometry.playable
    for seed in range(5):
        board, chooser = Board(variant), random.Random(seed)
        for _ in range(60):
            legal = board.legal_moves()
            if not legal:
                break
            board.push(chooser.choice(legal))
            position = board.position
            assert fen_of(position, variant) == format_fen(
                setup_from_position(position), variant.gametype.notation)
            bits = dense(position.white, variant)
            if len(squares) <= 64:
                assert bits % (1 << 64) == sum(1 << i for i, square in enumerate(squares)
                                               if position.white >> square & 1)
            else:
                assert bits is None
