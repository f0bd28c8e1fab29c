"""What lidraughts users expect of a game viewer, in Chromium at a desktop's width (1280 px)
and a phone's (400 px): an evaluation graph of the ``[%eval]`` that ``pdn analyse`` writes,
which takes a click to go to a move; a flip button; Copy FEN and Copy PDN; and the address
kept as ``#game=N&ply=M`` while one steps, so that a position can be shared by link."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.webdriver import Browser

import pdn
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.viewer.page import viewer_html

# Russian (the opening of samples/russian/ivanov_petrov_full.pdn); the evaluations pdn
# analyse would write after the moves, and a variation
ANALYSED = """[Event "analysed"]
[White "Ivanov"]
[Black "Petrov"]
[GameType "25"]
1. e3-d4 {[%eval 0.3]} d6-c5 {[%eval 0.1]} 2. f2-e3 {[%eval 0.5]} (2. c3-b4 c5:e3)
f6-g5 {[%eval -0.4]} 3. c3-b4 {[%eval -1.2]} g5-h4 {[%eval #3]} 4. b4:d6 {[%eval 2.5]}
h4:f2 {[%eval -2]} 5. e1:g3 *

[Event "plain"]
[GameType "25"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 *
"""
WIDTHS = (1280, 400)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("viewer")
    path = folder / "analysed.html"
    games = [replay_game(game) for game in read_games(ANALYSED)]
    assert [str(game.status) for game in games] == ["valid", "valid"]
    path.write_text(viewer_html(games), encoding="utf-8")
    return path.as_uri()


def fen_after(plies: int) -> str:
    """The position after the main line's first plies, from the rules engine."""
    board = Board(variant="russian")
    for node in list(replay_game(next(read_games(ANALYSED))).mainline())[:plies]:
        board.push(node.move)
    return board.fen()


def shown(browser: Browser) -> dict:
    return browser.run("""const b = document.getElementById('board').dataset;
        return {fen: b.fen, ply: Number(b.ply), node: Number(b.node), game: Number(b.game),
                hash: location.hash, flipped: b.flipped};""")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_address_follows_the_steps_and_opens_the_position_it_names(
        browser: Browser, page: str, width: int, tmp_path: Path):
    browser.resize(width, 900)
    browser.open(page)
    assert shown(browser)["hash"] == "#game=1&ply=0"
    browser.press("ArrowRight", 3)
    assert shown(browser)["hash"] == "#game=1&ply=3"
    browser.open(page + "#game=1&ply=5")  # the link shared: that position, on a new page
    now = shown(browser)
    assert (now["ply"], now["fen"]) == (5, fen_after(5))
    browser.press("ArrowLeft", 2)  # 2. f2-e3
    browser.press("ArrowDown")  # 2. c3-b4, the variation: its node is in the address
    variation = shown(browser)
    assert variation["hash"].startswith("#game=1&node="), variation
    browser.open(page + variation["hash"])
    assert shown(browser)["fen"] == variation["fen"]
    browser.press("PageDown")
    assert shown(browser)["hash"] == "#game=2&ply=0"
    browser.screenshot(tmp_path / f"address-{width}.png")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_evaluation_graph_shows_the_evals_and_takes_a_click_to_a_move(
        browser: Browser, page: str, width: int, tmp_path: Path):
    browser.resize(width, 900)
    browser.open(page + "#game=1")
    graph = browser.run("""const g = document.getElementById('graph');
        g.scrollIntoView();
        const r = g.getBoundingClientRect(), line = g.querySelector('.curve');
        return {hidden: g.hidden, width: r.width, height: r.height, left: r.left,
                points: line.getAttribute('points').split(' ').length,
                page: document.documentElement.scrollWidth, inner: window.innerWidth};""")
    assert not graph["hidden"] and graph["height"] > 30 and graph["page"] <= graph["inner"]
    assert graph["points"] == 8 + 1  # eight evaluations and the start
    # a click at 5/9 of the width: the main line has 9 moves after the start (0..9)
    browser.run("""const g = document.getElementById('graph'), r = g.getBoundingClientRect();
        g.dispatchEvent(new MouseEvent('click', {bubbles: true,
            clientX: r.left + r.width * 5 / 9, clientY: r.top + r.height / 2}));""")
    now = shown(browser)
    assert (now["ply"], now["fen"], now["hash"]) == (5, fen_after(5), "#game=1&ply=5")
    mark = browser.run("return Number(document.getElementById('graph-mark').getAttribute('x1'));")
    assert mark == pytest.approx(600 * 5 / 9, abs=0.5)
    browser.screenshot(tmp_path / f"graph-{width}.png")
    browser.open(page + "#game=2")
    assert browser.run("return document.getElementById('graph').hidden;")  # no [%eval]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_flip_button_turns_the_board_and_keeps_the_position(
        browser: Browser, page: str, width: int, tmp_path: Path):
    browser.resize(width, 900)
    browser.open(page + "#game=1&ply=2")
    where = """const piece = [...document.querySelectorAll('#board g[transform]')]
        .map((g) => g.getAttribute('transform'));
        return [piece, document.querySelector('#board text') &&
                [...document.querySelectorAll('#board text')].map((t) => t.textContent)];"""
    before, fen = browser.run(where), shown(browser)["fen"]
    browser.click("#flip")
    after = browser.run(where)
    assert shown(browser)["flipped"] == "true" and shown(browser)["fen"] == fen
    assert before[0] != after[0]  # the pieces are drawn elsewhere...
    assert sorted(before[1]) == sorted(after[1])  # ...with the same coordinates around
    browser.screenshot(tmp_path / f"flipped-{width}.png")
    browser.press("ArrowRight")  # stepping keeps the side chosen
    assert shown(browser)["flipped"] == "true"
    browser.click("#flip")
    assert browser.run(where)[0] != after[0] and shown(browser)["flipped"] == "false"


@pytest.mark.parametrize("width", WIDTHS)
def test_copy_fen_and_copy_pdn_copy_the_position_and_a_game_that_reads_back(
        browser: Browser, page: str, width: int):
    browser.resize(width, 900)
    browser.open(page + "#game=1&ply=3")
    # the clipboard as the page hands it over (headless Chromium may refuse the real one)
    catch = """window.copied = [];
        navigator.clipboard.writeText = (text) => { window.copied.push(text);
                                                    return Promise.resolve(); };"""
    browser.run(catch)
    browser.click("#copy-fen")
    browser.click("#copy-pdn")
    copied = browser.run("return [window.copied, document.getElementById('copied').textContent];")
    (fen, text), said = copied
    assert fen == fen_after(3) and said == "PDN copied"
    game = pdn.read_game(text)
    assert game.tags["White"] == "Ivanov" and game.tags["GameType"] == "25,W,8,8,A0,0"
    tree = replay_game(game)
    assert str(tree.status) == "valid"
    original = replay_game(next(read_games(ANALYSED)))
    assert tree.moves == original.moves
    assert [len(node.variations) for node in tree.mainline()] == [
        len(node.variations) for node in original.mainline()]
    assert [node.ply.eval for node in tree.mainline()] == [
        node.ply.eval for node in original.mainline()]


# International, from the 2007 championship's pattern: 2. 33-29 leaves the capture 28x19
# that the rules require, so the rest is not replayed; PDN_SUGGEST asks for the repairs.
BROKEN = """[GameType "20"]
1. 32-28 19-23 2. 33-29 17-22 3. 37-32 22-27 4. 31x22 18x27 5. 38-33 12-18 6. 42-37 7-12
7. 47-42 1-7 8. 34-30 20-25 *
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_the_moves_after_one_that_does_not_replay_are_numbered_and_never_broken(
        browser: Browser, tmp_path: Path, width: int):
    from pdn.cli.app import app
    from typer.testing import CliRunner

    source, page = tmp_path / "broken.pdn", tmp_path / "broken.html"
    source.write_text(BROKEN, encoding="utf-8")
    done = CliRunner().invoke(app, ["view", str(source), "--suggest", "-o", str(page)])
    assert done.exit_code == 1, done.output
    browser.resize(width, 900)
    browser.open(page.as_uri())
    words = browser.run("""return [...document.querySelectorAll('#moves .unplayed span')]
        .map((s) => [s.textContent, new Set([...s.getClientRects()].map(
            (r) => Math.round(r.top))).size]);""")
    browser.screenshot(tmp_path / f"unplayed-{width}.png")
    texts = [text.replace("\u00a0", " ") for text, _ in words]
    assert texts[:4] == ["2... 17-22", "3. 37-32", "22-27", "4. 31x22"], texts
    assert all(lines == 1 for _, lines in words), words
