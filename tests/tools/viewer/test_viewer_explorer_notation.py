"""The viewer's explorer panel writes its moves as the move list beside it does: beside a
Russian game written in short notation (``gf4``), short as ``pdn convert --to short`` writes
them (full squares where short would be ambiguous); beside a game written in full, in full.
In Chromium at a desktop's width (1280 px) and a phone's (400 px), with a database that
``pdn index`` builds from a real Russian archive."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pdn.cli.app import app
from support.webdriver import Browser
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.convert import Target, convert_text
from replay.database.explore import explore
from replay.database.keys import fen_of
from replay.database.schema import open_readonly
from replay.record.board import Board
from replay.record.notation import full_text
from replay.record.replayer import replay_game
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.variants import RUSSIAN
from replay.viewer.explorer import short_texts

runner = CliRunner()
WIDTHS = (1280, 400)
ARCHIVE = Path("games-checkers") / "russian" / "World_Championship_1998.pdn"
# the panel's rows: the move as shown, the games, and the node of the game's move it links
PANEL = """const board = document.getElementById("board").dataset;
return {fen: board.fen, ply: Number(board.ply),
        rows: [...document.querySelectorAll("#explored tr")].filter((tr) => tr.cells.length === 4)
          .map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent),
                        tr.dataset.node || null]),
        list: [...document.querySelectorAll("#moves .move")].map((m) => m.textContent)};"""


@pytest.fixture(scope="module")
def pages(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The database of the 1998 world championship (460 games, written short) and two pages
    with its explorer: its second game as written, and the same game converted to full."""
    folder = tmp_path_factory.mktemp("explorer")
    archive = shared_data / ARCHIVE
    database = folder / "wc1998.db"
    done = runner.invoke(app, ["index", str(archive), "-o", str(database)])
    assert done.exit_code == 0, done.output
    text = archive.read_text(encoding="utf-8")
    second = text.index("\n[Event ", 1) + 1
    short = folder / "short.pdn"
    short.write_text(text[second:text.index("\n[Event ", second) + 1], encoding="utf-8")
    full = folder / "full.pdn"
    done = runner.invoke(app, ["convert", str(short), "--to", "full", "-o", str(full)])
    assert done.exit_code == 0, done.output
    made = {"database": database}
    for name, source in (("short", short), ("full", full)):
        made[name] = folder / f"{name}.html"
        done = runner.invoke(app, ["view", str(source), "-o", str(made[name]),
                                   "--database", str(database)])
        assert done.exit_code == 0, done.output
    return made


def writer_short(board: Board, move: Move) -> str:
    """The move as ``pdn convert --to short`` writes it from this board's position."""
    number = "1." if board.turn == WHITE else "1..."
    written = convert_text(f'[GameType "25"]\n[FEN "{board.fen()}"]\n\n'
                           f"{number} {full_text(board, move)} *", target=Target("short"))
    moves = " ".join(line for line in written.splitlines() if not line.startswith("["))
    return re.search(r"1\.+\s*(\S+)", moves).group(1)


@pytest.mark.parametrize("width", WIDTHS)
def test_beside_a_game_written_short_the_explorer_writes_short_as_the_writer_does(
        browser: Browser, pages: dict[str, Path], width: int, tmp_path: Path):
    browser.resize(width, 900)
    browser.open(pages["short"].as_uri())
    connection = open_readonly(pages["database"])
    replayed = replay_game(next(read_games(pages["short"].with_suffix(".pdn"))))
    assert [ply.record.text for ply in replayed.game.moves.plies][:3] == ["cd4", "fg5", "bc3"]
    same = shown = 0
    for ply, position in enumerate(replayed.positions[:24]):
        panel = browser.run(PANEL)
        assert (panel["ply"], panel["fen"]) == (ply, fen_of(position, RUSSIAN))
        board = Board(RUSSIAN, position)
        by_full = {full_text(board, move): move for move in board.legal_moves()}
        rows = explore(connection, position, RUSSIAN).rows
        expected = [writer_short(board, by_full[row.move]) for row in rows]
        assert [row[:2] for row in panel["rows"]] == [
            [text, row.games] for text, row in zip(expected, rows, strict=True)]
        shown += len(rows)
        # the row of the move the game plays links to it, written as the move list writes it
        played = [row[0] for row in panel["rows"] if row[2] is not None]
        if ply < len(replayed.moves):
            move = replayed.moves[ply]
            assert played == [writer_short(board, move)]
            if not move.captures:  # the file writes captures with no ':' (``ac3``)
                assert played[0] == panel["list"][ply] == replayed.game.moves.plies[ply].record.text
                same += 1
        browser.press("ArrowRight")
    assert shown > 40 and same >= 15
    browser.press("Home")
    browser.press("ArrowRight", 6)
    browser.run("document.getElementById('explorer').scrollIntoView();")
    browser.screenshot(tmp_path / f"explorer-short-{width}.png")


def test_an_ambiguous_short_move_is_written_in_full_as_the_writer_writes_it():
    """A man on c3 and a king on c5 can both go to d4: short ``cd4`` would name either."""
    board = Board.from_fen("W:Wc3,Kc5,a1:Bh8", RUSSIAN)
    texts = short_texts(board.position, RUSSIAN)
    assert texts["c3-d4"] == "c3-d4" == writer_short(board, board.parse("c3-d4"))
    assert texts["c5-d4"] == "c5-d4" == writer_short(board, board.parse("c5-d4"))
    assert texts["c5-d6"] == "cd6" == writer_short(board, board.parse("c5-d6"))
    assert texts["a1-b2"] == "ab2" == writer_short(board, board.parse("a1-b2"))


@pytest.mark.parametrize("width", WIDTHS)
def test_beside_a_game_written_in_full_the_explorer_stays_in_full(
        browser: Browser, pages: dict[str, Path], width: int):
    browser.resize(width, 900)
    browser.open(pages["full"].as_uri())
    connection = open_readonly(pages["database"])
    replayed = replay_game(next(read_games(pages["full"].with_suffix(".pdn"))))
    assert replayed.game.moves.plies[0].record.text == "c3-d4"
    for ply, position in enumerate(replayed.positions[:8]):
        panel = browser.run(PANEL)
        assert panel["ply"] == ply
        assert [row[0] for row in panel["rows"]] == [
            row.move for row in explore(connection, position, RUSSIAN).rows]
        browser.press("ArrowRight")
