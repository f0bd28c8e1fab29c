"""The opening explorer (``pdn explore``, ``replay.database.explore``) on a real archive:
the first games of OCA 2.0 indexed, every row checked against ``pdn search --moves`` (itself
checked against ``pdn filter`` in test_database.py) and against the games replayed here one
by one; transpositions, results, the JSON and the table, the filters, the opening book."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.archive import Criteria, Settings, filter_games
from replay.archive.select import criteria_from_text
from replay.archive.walk import walk_main_line
from replay.database.build import index_sources
from replay.database.explore import explore, explore_fen, explore_moves
from replay.database.keys import fen_of, position_hash
from replay.database.query import Search, search
from replay.database.schema import open_readonly
from replay.record.board import Board
from replay.record.replayer import BLACK_WINS, DRAW, WHITE_WINS, normalise_result, replay_game
from replay.rules.choice import RulesChoice
from replay.rules.position import start_position
from replay.rules.variants import ENGLISH

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[3]
SUBSET = 4000  # the first games of OCA 2.0: a real archive, indexed in a test's time
LINES = ("", "11-15", "11-15 23-19", "9-14 22-18", "11-15 23-19 8-11 22-17", "10-15 21-17")
# Two move orders of one position (the men of 11, 8, 23 and 22 moved in another order).
ORDERS = ("11-15 23-19 8-11 22-17", "11-15 22-17 8-11 23-19")


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert not isinstance(result.exception, Exception), result.exception
    return result.stdout


@pytest.fixture(scope="module")
def subset(shared_data: Path, tmp_path_factory) -> Path:
    """The first SUBSET games of OCA 2.0, as written there."""
    text = (shared_data / "english" / "OCA_2.0.pdn").read_text(encoding="utf-8")
    starts = [0] + [index + 1 for index in _all(text, "\n[Event ")]
    path = tmp_path_factory.mktemp("oca") / "oca_first.pdn"
    path.write_text(text[:starts[SUBSET]], encoding="utf-8")
    return path


def _all(text: str, needle: str) -> list[int]:
    found, at = [], text.find(needle)
    while at >= 0:
        found.append(at)
        at = text.find(needle, at + 1)
    return found


@pytest.fixture(scope="module")
def db(subset: Path, tmp_path_factory) -> Path:
    database = tmp_path_factory.mktemp("db") / "oca.db"
    summary = index_sources(database, [str(subset)], Settings(RulesChoice(), jobs=2),
                            note=lambda _: None)
    assert summary.games == SUBSET and not summary.failed
    return database


@pytest.fixture(scope="module")
def steps(subset: Path) -> dict[tuple[int, int], Counter]:
    """Every (position, next position) step of every game's main line, each game once per
    step, with its outcome: the games replayed here, independently of the database."""
    found: dict[tuple[int, int], Counter] = {}
    for game in read_games(subset):
        line = walk_main_line(game, ENGLISH)
        outcome = normalise_result(game.tags.get("Result"), line.variant)
        keys = [position_hash(position, line.variant) for position in line.positions]
        for step in set(pairwise(keys)):
            found.setdefault(step, Counter())[outcome] += 1
    return found


def searched(connection: sqlite3.Connection, **criteria) -> int:
    return sum(1 for _ in search(connection, Search(Criteria(**criteria)), records=False))


def test_each_row_counts_the_games_of_the_line_plus_its_move(db):
    """Where every game at the position came by the line (no transposition into it), a
    row's games are exactly the games ``pdn search --moves`` finds for the line and the
    move; elsewhere at least those (transpositions add to them)."""
    connection = open_readonly(db)
    exact = 0
    for line in LINES:
        (found,) = explore_moves(connection, line)
        assert found.rows, line
        by_line = searched(connection, moves=line) if line else SUBSET
        reaching = searched(connection, position=found.fen)
        for row in found.rows:
            games = searched(connection, moves=f"{line} {row.move}".strip())
            if by_line == reaching:
                assert row.games == games, (line, row.move)
                exact += 1
            else:
                assert row.games >= games, (line, row.move)
    assert exact >= 20


def test_a_line_without_transpositions_equals_the_pdn_filter_count(db, subset, tmp_path):
    """After 11-15 23-19 (a position no other order reaches), 9-14's games are those
    ``pdn filter --moves`` keeps from the PDN file itself."""
    connection = open_readonly(db)
    (found,) = explore_moves(connection, "11-15 23-19")
    assert searched(connection, position=found.fen) == searched(connection, moves="11-15 23-19")
    (row,) = [row for row in found.rows if row.move == "9-14"]
    with open(tmp_path / "kept.pdn", "w", encoding="utf-8") as stream:
        summary = filter_games([str(subset)], stream, Criteria(moves="11-15 23-19 9-14"),
                               Settings(RulesChoice(ENGLISH), jobs=2), note=lambda _: None)
    assert summary.matched == row.games > 10


def test_rows_equal_the_steps_of_the_games_replayed_one_by_one(db, steps):
    """Games, wins, draws and losses of every row, from the mover's side, equal the
    counts made by replaying each game of the file here."""
    connection = open_readonly(db)
    for line in LINES:
        (found,) = explore_moves(connection, line)
        key = position_hash(found.position, ENGLISH)
        white = found.fen.startswith("W")
        expected = {step[1]: counts for step, counts in steps.items() if step[0] == key}
        assert len(found.rows) == len(expected)
        for row in found.rows:
            after = Board.from_fen(row.fen, ENGLISH).position
            counts = expected[position_hash(after, ENGLISH)]
            mine, theirs = (WHITE_WINS, BLACK_WINS) if white else (BLACK_WINS, WHITE_WINS)
            assert (row.games, row.wins, row.draws, row.losses) == (
                counts.total(), counts[mine], counts[DRAW], counts[theirs]), (line, row.move)


def test_two_move_orders_reaching_one_position_give_one_row_set(db):
    connection = open_readonly(db)
    first, second = (explore_moves(connection, line)[0] for line in ORDERS)
    assert first.fen == second.fen
    assert first.rows == second.rows and first.rows
    reaching = searched(connection, position=first.fen)
    by_orders = [searched(connection, moves=line) for line in ORDERS]
    assert all(by_orders), "the subset plays both orders"
    if reaching == sum(by_orders):  # no third way in: the rows are the two orders' games
        for row in first.rows:
            assert row.games == sum(searched(connection, moves=f"{line} {row.move}")
                                    for line in ORDERS), row.move


def test_wins_draws_losses_and_unfinished_add_up_to_the_games(db):
    connection = open_readonly(db)
    frontier, seen = [start_position(ENGLISH)], 0
    for _ in range(3):
        following = []
        for position in frontier:
            for row in explore(connection, position, ENGLISH).rows:
                assert row.wins + row.draws + row.losses + row.unfinished == row.games
                decided = row.wins + row.draws + row.losses
                if decided:
                    assert row.score == round(100 * (row.wins + row.draws / 2) / decided, 1)
                seen += 1
                following.append(Board.from_fen(row.fen, ENGLISH).position)
        frontier = following
    assert seen > 100


def test_json_equals_the_table(db):
    headers, *rows = [line.split("\t") for line in
                      run("explore", str(db), "--moves", "11-15 23-19").splitlines()]
    (found,) = [json.loads(line) for line in
                run("explore", str(db), "--moves", "11-15 23-19", "--json").splitlines()]
    assert headers[:7] == ["move", "games", "+", "=", "-", "*", "score %"]
    assert len(rows) == len(found["moves"]) > 1
    for cells, row in zip(rows, found["moves"], strict=True):
        assert cells[0] == row["move"]
        assert [int(cell) for cell in cells[1:6]] == [
            row[name] for name in ("games", "wins", "draws", "losses", "unfinished")]
        assert cells[6] == ("" if row["score"] is None else f"{row['score']:.1f}")
        assert cells[8] == (row["latest_date"] or "")
        assert cells[9] == f"{row['latest_white']} – {row['latest_black']}"
        assert cells[10] == (row["opening"] or "")
    assert found["games"] == sum(row["games"] for row in found["moves"])


def test_position_and_moves_name_the_same_position(db):
    connection = open_readonly(db)
    (by_moves,) = explore_moves(connection, "11-15 23-19")
    (by_fen,) = explore_fen(connection, by_moves.fen)
    assert by_fen.rows == by_moves.rows
    assert json.loads(run("explore", str(db), "--position", by_moves.fen, "--json")
                      )["moves"] == [row.as_dict() for row in by_moves.rows]


def test_a_criterion_that_keeps_every_game_changes_nothing(db):
    """Counting game by game (any criterion but the variant) gives what the table holds,
    the latest game included."""
    connection = open_readonly(db)
    every = criteria_from_text(tags=["Event=*"])
    for line in LINES[:4]:
        (stored,) = explore_moves(connection, line)
        (counted,) = explore_moves(connection, line, every)
        assert counted.rows == stored.rows, line


def test_players_and_dates_select_the_games_counted(db):
    connection = open_readonly(db)
    (all_games,) = explore_moves(connection, "11-15")
    player = all_games.rows[0].latest_white
    criteria = criteria_from_text(players=[player])
    (theirs,) = explore_moves(connection, "11-15", criteria)
    assert theirs.rows and theirs.games < all_games.games
    for row in theirs.rows:
        assert row.games == searched(connection, moves=f"11-15 {row.move}",
                                     players=(player,))
    listed = json.loads(run("explore", str(db), "--moves", "11-15", "--player", player,
                            "--json"))
    assert listed["moves"] == [row.as_dict() for row in theirs.rows]
    early = criteria_from_text(date_to="1900")
    (old,) = explore_moves(connection, "11-15", early)
    assert sum(row.games for row in old.rows) < all_games.games


def test_the_opening_book_replays_with_the_most_played_move_as_main_line(db, tmp_path):
    book = tmp_path / "book.pdn"
    run("explore", str(db), "--moves", "11-15", "--book", str(book), "--depth", "3",
        "--min-games", "20")
    (game,) = read_games(book)
    replayed = replay_game(game)
    assert not replayed.errors and replayed.variant.name == "english"
    connection = open_readonly(db)
    board = Board(ENGLISH)
    board.push(board.parse("11-15"))
    for node in replayed.mainline()[1:]:
        found = explore(connection, board.position, ENGLISH)
        rows = [row for row in found.rows if row.games >= 20]
        assert fen_of(node.board.position, ENGLISH) == rows[0].fen
        assert f"{rows[0].games} games" in node.comments[0]
        assert len(node.variations) == len(rows) - 1
        board = node.board


def test_a_database_of_schema_2_is_refused_with_what_it_lacks(db, tmp_path):
    old = tmp_path / "old.db"
    old.write_bytes(db.read_bytes())
    connection = sqlite3.connect(old)
    connection.execute("PRAGMA user_version = 2")
    connection.commit()
    connection.close()
    output = runner.invoke(app, ["explore", str(old)])
    assert output.exit_code == 2
    assert "schema version 2 is older" in output.output
    assert "moves played from each position (pdn explore)" in output.output


def test_a_position_no_game_reaches_has_no_rows_and_a_foreign_one_is_a_usage_error(db):
    connection = open_readonly(db)
    (found,) = explore_fen(connection, "W:W32:B1")
    assert found.rows == [] and found.games == 0
    assert "none of the database" in runner.invoke(
        app, ["explore", str(db), "--position", "W:W50:B1"]).output
    assert runner.invoke(app, ["explore", str(db), "--moves", "1. 11-15 11-16"]
                         ).exit_code == 2


def test_a_file_indexed_again_with_other_games_leaves_the_table_a_fresh_index_makes(
        subset, tmp_path):
    """Replacing a file's games takes its old games out of every row (latest game
    included): the table then equals the one of a database made from the new file alone."""
    text = subset.read_text(encoding="utf-8")
    starts = [0] + [index + 1 for index in _all(text, "\n[Event ")]
    path = tmp_path / "games.pdn"
    path.write_text(text[:starts[400]], encoding="utf-8")
    updated, fresh = tmp_path / "updated.db", tmp_path / "fresh.db"
    index_sources(updated, [str(path)], Settings(RulesChoice(), jobs=1), note=lambda _: None)
    path.write_text(text[starts[150]:starts[500]], encoding="utf-8")
    summary = index_sources(updated, [str(path)], Settings(RulesChoice(), jobs=1),
                            note=lambda _: None)
    assert summary.replaced == 1
    index_sources(fresh, [str(path)], Settings(RulesChoice(), jobs=1), note=lambda _: None)

    def table(database: Path) -> list[tuple]:
        connection = sqlite3.connect(database)
        return sorted(connection.execute(
            "SELECT m.position_key, m.next_key, m.move, m.games, m.white_wins, m.draws, "
            "m.black_wins, m.rated, m.rating_sum, m.latest_day, g.game_index "
            "FROM position_moves m JOIN games g ON g.game_id = m.latest_game"))

    assert table(updated) == table(fresh) and table(fresh)


# ---- the viewer's explorer panel, in a real headless browser -------------------------------

PANEL = """
const rows = [...document.querySelectorAll("#explored tr[data-node], #explored tr")];
return {fen: document.getElementById("board").dataset.fen,
        ply: Number(document.getElementById("board").dataset.ply),
        hidden: document.getElementById("explorer").hidden,
        rows: rows.filter((tr) => tr.cells.length === 4).map((tr) => [
          tr.cells[0].textContent, Number(tr.cells[1].textContent), tr.cells[3].textContent,
          tr.dataset.node || null])};
"""


def test_the_viewer_panel_shows_the_explorer_rows_of_each_position_stepped_through(
        browser, db, subset, tmp_path):
    """``pdn view --database``: at every ply of a real game the panel lists the moves the
    explorer gives for the position the board shows (same FEN, counts and scores), and a
    row of the move the game plays leads to it."""
    text = subset.read_text(encoding="utf-8")
    starts = [0] + [index + 1 for index in _all(text, "\n[Event ")]
    games = tmp_path / "games.pdn"
    games.write_text(text[starts[10]:starts[13]], encoding="utf-8")
    page = tmp_path / "games.html"
    runner.invoke(app, ["view", str(games), "-o", str(page), "--database", str(db)])
    assert page.exists()
    connection = open_readonly(db)
    browser.open(page.resolve().as_uri())
    replayed = replay_game(next(read_games(games)), ENGLISH)
    played = 0
    for ply, position in enumerate([*replayed.positions, replayed.final][:30]):
        shown = browser.run(PANEL)
        assert not shown["hidden"] and shown["ply"] == ply
        assert shown["fen"] == fen_of(position, ENGLISH)
        rows = explore(connection, position, ENGLISH).rows
        assert [row[:3] for row in shown["rows"]] == [
            [row.move, row.games, "" if row.score is None else f"{row.score:.1f}%"]
            for row in rows]
        if ply < len(replayed.moves):
            move = Board(ENGLISH, position).text(replayed.moves[ply], "pdn")
            linked = [row for row in shown["rows"] if row[3] is not None]
            if "x" not in move:  # a capture's text in the panel may give another path
                assert [row[0] for row in linked] == [move]
                played += 1
        browser.press("ArrowRight")
    assert played >= 10
    browser.press("Home")
    browser.run("document.querySelector('#explored tr[data-node]').click(); return 0;")
    assert browser.run(PANEL)["ply"] == 1  # the row of the game's first move leads to it
    browser.press("Home")
    browser.press("ArrowRight", 3)
    shot = ROOT / "bench" / "out" / "viewer_explorer.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    browser.screenshot(shot)
