"""The viewer and the arbiter's report as a person sees them, in a real headless browser at a
desktop's width (1280 px) and a phone's (400 px): no move broken across two lines, the board
first and large on a phone, ``#game=N`` bringing game N into view in the game list, the
repair suggestions and errors shown at their move, and the report's summary table listing
exactly the problem games. Chromium is driven as in ``test_viewer_browser`` (skipped where
it is missing, failed under ``CI=true``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pdn.cli.app import app
from support.webdriver import Browser
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.rules.variants import INTERNATIONAL, RUSSIAN
from replay.validate.report import html_report
from replay.validate.reports import report_game
from replay.viewer.page import viewer_html

ROOT = Path(__file__).resolve().parents[3]
GAME = ROOT / "samples" / "russian" / "ivanov_petrov_full.pdn"
ERRORS = ROOT / "samples" / "russian" / "scoresheet_with_errors.pdn"
# A letter off at White's 3rd move (3. bc3 for 3. dc3), which makes 5. ba3 fail.
SLIPPED = ('[Event "x"]\n[GameType "25"]\n'
           "1. cd4 fe5 2. dxf6 gxe5 3. bc3 ba5 4. ab4 cb6 5. ba3 hg7 *\n")
WIDTHS = (1280, 400)  # a desktop and a phone

# Each move of the move list with the number of lines it takes and, for a move after its
# number, whether the number sits on the same line.
MOVE_LINES = """
return [...document.querySelectorAll('#moves .move')].map((move) => {
  const before = move.previousElementSibling;
  const number = before && before.classList.contains('number') ? before : null;
  const lines = new Set([...move.getClientRects()].map((r) => Math.round(r.top))).size;
  const middle = (r) => (r.top + r.bottom) / 2;
  return [move.textContent, lines, number ? Math.abs(
    middle(number.getBoundingClientRect()) - middle(move.getBoundingClientRect())) < 4 : true];
});
"""


def long_game(seed: int = 7, plies: int = 160) -> str:
    """An International game of random legal moves, captures written in full (the longest
    moves a list holds), as PDN."""
    chooser, board, moves = random.Random(seed), Board(INTERNATIONAL), []
    while len(moves) < plies and (legal := board.legal_moves()):
        move = chooser.choice(legal)
        moves.append(board.move_text(move, full_path=True))
        board.push(move)
    return f'[GameType "20"][White "Engine"][Black "Engine"][Round "-"][Site "?"]\n' \
           f'{" ".join(moves)} *\n'


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The pages looked at: a long game, many games, the broken games with suggestions and
    a report (file:// URLs)."""
    folder = tmp_path_factory.mktemp("pages")
    made = {}
    made["long"] = folder / "long.html"
    made["long"].write_text(viewer_html([replay_game(next(read_games(long_game())))]),
                            encoding="utf-8")
    sample = GAME.read_text(encoding="utf-8")
    many = "".join(sample.replace('[White "', f'[White "Player {n} ', 1) for n in range(1, 401))
    made["many"] = folder / "many.html"
    made["many"].write_text(viewer_html([replay_game(g, RUSSIAN) for g in read_games(many)]),
                            encoding="utf-8")
    made["suggest"], slipped = folder / "suggest.html", folder / "slipped.pdn"
    slipped.write_text(SLIPPED, encoding="utf-8")
    result = CliRunner().invoke(app, ["view", str(slipped), "--suggest", "-o",
                                      str(made["suggest"])])
    assert result.exit_code == 1, result.output  # the game does not replay to its end
    games = [*read_games(GAME.read_text(encoding="utf-8")), *read_games(ERRORS.read_text(
        encoding="utf-8")), *read_games(GAME.read_text(encoding="utf-8"))]
    made["report"] = folder / "report.html"
    made["report"].write_text(html_report([report_game(g, RUSSIAN, suggest=True)
                                           for g in games]), encoding="utf-8")
    return {name: path.as_uri() for name, path in made.items()}


@pytest.mark.parametrize("width", WIDTHS)
def test_no_move_is_broken_across_two_lines_nor_parted_from_its_number(
        browser: Browser, pages, width: int):
    browser.resize(width, 900)
    browser.open(pages["long"])
    moves = browser.run(MOVE_LINES)
    assert len(moves) > 60 and any(text.count("x") > 1 for text, *_ in moves)
    assert [text for text, lines, _ in moves if lines != 1] == []
    assert [text for text, _, together in moves if not together] == []


def test_on_a_phone_the_board_comes_first_as_wide_as_the_screen(browser: Browser, pages):
    browser.resize(400, 900)
    browser.open(pages["long"])
    shown = browser.run("""const box = (id) => document.getElementById(id).getBoundingClientRect();
        return {width: window.innerWidth, board: box('board').width,
                boardBottom: box('board').bottom, movesTop: box('moves').top,
                page: document.documentElement.scrollWidth};""")
    assert shown["board"] >= 0.85 * shown["width"]  # the board, not the list, takes the width
    assert shown["boardBottom"] <= shown["movesTop"]  # and the moves come below it
    assert shown["page"] <= shown["width"]  # nothing wider than the screen


def test_the_tags_that_say_nothing_are_left_out(browser: Browser, pages):
    browser.resize(1280, 900)
    browser.open(pages["long"])
    event = browser.run("return document.getElementById('event').textContent")
    assert event == "international"  # Round "-" and Site "?" say nothing


@pytest.mark.parametrize("width", WIDTHS)
def test_game_n_of_the_address_is_in_view_and_marked_in_the_game_list(
        browser: Browser, pages, width: int):
    browser.resize(width, 900)
    browser.open(pages["many"] + f"?width={width}#game=350")  # a fresh load at this width
    row = browser.run("""const list = document.getElementById('list').getBoundingClientRect();
        const row = document.querySelector('#rows li[data-game="349"]');
        if (!row) return null;
        const r = row.getBoundingClientRect();
        return {current: row.classList.contains('current'), inside: r.top >= list.top &&
                r.bottom <= list.bottom, background: getComputedStyle(row).backgroundColor,
                title: document.getElementById('title').textContent};""")
    assert row is not None, "the row of game 350 is not drawn"
    assert row["inside"] and row["current"], row
    assert row["background"] not in ("rgba(0, 0, 0, 0)", "transparent")  # marked, not bold only
    assert row["title"].startswith("Player 350 ")


def test_suggestions_and_errors_are_shown_at_their_move(browser: Browser, pages):
    browser.resize(1280, 900)
    browser.open(pages["suggest"])
    notes = browser.run("""return [...document.querySelectorAll('#moves .note')].map((note) => {
        const move = note.previousElementSibling;
        return [note.classList.contains('error') ? 'error' : 'suggestion', note.textContent,
                move.textContent, note.getBoundingClientRect().height > 0];});""")
    assert [kind for kind, *_ in notes] == ["suggestion", "error"]
    (suggestion, error) = notes
    assert suggestion[1].startswith("Suggestion: White's 3rd move is a slip: writing 3. dc3")
    assert suggestion[2] == "bc3" and error[2] == "ba3"
    assert error[1].startswith("no white piece on the b-file can go to a3")
    assert suggestion[3] and error[3]
    browser.press("ArrowRight", 5)  # at the move the suggestion edits, it is told again
    told = browser.run("return document.getElementById('suggestion').textContent")
    assert told.startswith("Suggestion: White's 3rd move is a slip")


def test_the_report_summary_lists_exactly_the_problem_games_and_links_to_them(
        browser: Browser, pages):
    browser.resize(1280, 900)
    browser.open(pages["report"])
    rows = browser.run("""return [...document.querySelectorAll('#summary tbody tr')].map(
        (tr) => [...tr.cells].map((td) => td.textContent));""")
    assert [(number, status) for number, _, status, _ in rows] == [
        ("2", "invalid"), ("3", "incomplete")]  # games 1 and 4 replay: not in the summary
    browser.click('#summary a[href="#game-3"]')
    seen = browser.run("""return [location.hash, window.innerHeight,
        document.getElementById('game-3').getBoundingClientRect().top];""")
    assert seen[0] == "#game-3" and 0 <= seen[2] < seen[1] - 40  # the section is in view
    sections = browser.run("""return [...document.querySelectorAll('section.game')].map(
        (s) => s.id);""")
    assert sections == ["game-2", "game-3"]
