"""The arbiter's whole flow on ``pdn serve`` in real headless Chromium (Debian's
``chromium`` and ``chromium-driver``, driven by ``support.webdriver``): a file with a slipped
scoresheet opened, the error seen at its move, the suggestion applied with one click, the
file downloaded, and the download validating clean and holding what ``pdn validate
--suggest`` proposed; then a new game typed move by move whose illegal move is refused at
that move. Without the browser the test skips (under ``CI=true`` it fails). Screenshots of
the pages go to ``bench/out/`` (git-ignored)."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import require
from pdn.cli.app import app
from support.served import served
from support.webdriver import Browser, wait_for
from typer.testing import CliRunner

from pdn.reader import PdnText, read_games
from replay.validate.repair import repair_game


@pytest.fixture(autouse=True)
def serve_extra() -> None:
    """Starlette and uvicorn, the [serve] extra (``make test-deps``; required under CI)."""
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")


ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "bench" / "out"
# A Russian scoresheet where Black's 3rd move was never written down (the toolkit's repair
# doctest), before a game that is fine.
SLIPPED = """[Event "Club championship"]
[Round "3"]
[White "Ann"]
[Black "Bob"]
[Result "0-1"]
[GameType "25"]

1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1

[Event "Club championship"]
[Round "3"]
[White "Cas"]
[Black "Dan"]
[Result "1-0"]
[GameType "25"]

1. c3-d4 f6-g5 2. d4-e5 1-0
"""
FETCH = """const request = new XMLHttpRequest();
request.open("GET", document.getElementById("download").href, false);
request.send();
return [request.status, request.responseText];"""


def text_of(browser: Browser, css: str) -> str:
    return browser.run(f"return document.querySelector({json.dumps(css)}).textContent;")


def test_the_arbiters_flow(browser: Browser, tmp_path: Path):
    path = tmp_path / "round3.pdn"
    path.write_text(SLIPPED, encoding="utf-8")
    proposed = json.loads(CliRunner().invoke(
        app, ["validate", "--json", "--suggest", str(path)]).stdout.splitlines()[0])
    with served(path.name, cwd=tmp_path) as server:
        browser.resize(1280, 900)
        browser.open(server.url)
        assert text_of(browser, "#desk-games tbody tr:first-child .status") == "invalid"
        browser.click('#desk-games a[href="/games/1"]')
        wait_for(browser, 'return document.body.dataset.page === "game" && '
                          'document.querySelector(".moves .move.error");')
        # the error at its move, with the reason and the legal moves there
        assert text_of(browser, ".moves .move.error") == "b:d6"
        assert browser.run('return document.querySelector("#written .ply.error input")'
                           '.value;') == "b:d6"
        problem = text_of(browser, "#problems li.error")
        assert problem.startswith("move 3 (Black) 'b:d6': no black piece")
        legal = browser.run('return [...document.querySelectorAll("#legal button")]'
                            '.map((b) => b.textContent).sort();')
        assert legal == sorted(["g5-f4", "g5-h4", "b6-a5", "c7-d6", "e7-d6", "e7-f6",
                                "g7-f6"])
        suggestion = text_of(browser, "#suggestions li")
        assert suggestion.startswith(proposed["suggestions"][0]["description"])
        browser.screenshot(ARTIFACTS / "serve_error.png")
        # one click applies it; the game is checked again
        browser.click('#suggestions button.apply[data-index="0"]')
        wait_for(browser, 'return document.getElementById("status") && '
                          'document.getElementById("status").textContent === "valid";')
        assert not browser.run('return document.querySelector(".moves .move.error");')
        status, downloaded = browser.run(FETCH)
        browser.screenshot(ARTIFACTS / "serve_repaired.png")
    assert status == 200
    game = next(read_games(PdnText(SLIPPED)))
    assert repair_game(game).mend is not None
    # the move put in, every other byte of the file as written
    assert downloaded == SLIPPED.replace("3. cb4 4. b:d6", "3. cb4 gh4 4. b:d6", 1)
    assert "3. cb4 gh4" in downloaded  # the move "3... gh4" that --suggest proposed
    rows = [json.loads(line) for line in CliRunner().invoke(
        app, ["validate", "--json", "-"], input=downloaded).stdout.splitlines()]
    assert [(row["status"], row["errors"], row["warnings"]) for row in rows] == \
        [("valid", [], []), ("valid", [], [])]


def test_a_new_game_typed_refuses_its_illegal_move(browser: Browser):
    with served() as server:
        browser.resize(1280, 900)
        browser.open(server.url + "new")
        wait_for(browser, 'return document.querySelectorAll("#typed-legal button").length;')
        for move, shown in (("c3-d4", "1. c3-d4"), ("fg5", "1. c3-d4 fg5")):
            browser.type("#move-input", move + "\ue007")
            wait_for(browser, f'return document.getElementById("typed-moves").textContent '
                              f'=== {json.dumps(shown)};')
        browser.type("#move-input", "d4-e6\ue007")
        message = wait_for(browser, 'const m = document.getElementById("message")'
                                    '.textContent; return m.startsWith("Refused") && m;')
        assert message.startswith("Refused: d4-e6:")
        assert text_of(browser, "#typed-moves") == "1. c3-d4 fg5"
        legal = browser.run('return [...document.querySelectorAll("#typed-legal button")]'
                            '.map((b) => b.textContent);')
        assert "d4-e5" in legal and "d4-e6" not in legal
        assert browser.run('return document.getElementById("move-input").value;') == "d4-e6"
        browser.screenshot(ARTIFACTS / "serve_typed.png")


def test_a_phone_sees_the_board_as_wide_as_its_screen_and_the_desk_below(browser: Browser,
                                                                        tmp_path: Path):
    path = tmp_path / "round3.pdn"
    path.write_text(SLIPPED, encoding="utf-8")
    with served(path.name, cwd=tmp_path) as server:
        browser.resize(400, 860)
        browser.open(server.url + "games/1")
        width = browser.run("return document.documentElement.clientWidth;")
        board = browser.run('return document.querySelector("#board svg")'
                            '.getBoundingClientRect().toJSON();')
        assert board["left"] >= 0 and board["right"] <= width
        assert board["width"] > 0.85 * width
        assert browser.run("return document.documentElement.scrollWidth;") <= width
        below = browser.run('return document.getElementById("desk")'
                            '.getBoundingClientRect().top;')
        assert below > board["bottom"]
        browser.screenshot(ARTIFACTS / "serve_phone.png")
        browser.open(server.url)
        assert browser.run("const page = document.documentElement; "
                           "return page.scrollWidth <= page.clientWidth;")
        browser.screenshot(ARTIFACTS / "serve_desk_phone.png")


def test_the_desk_shows_the_builtin_engines_three_lines_and_stops_when_asked(browser: Browser):
    """No engine named: the built-in one answers with its best line and two others."""
    with served(ROOT / "samples" / "russian" / "ivanov_petrov_full.pdn") as server:
        browser.resize(1280, 900)
        browser.open(server.url + "games/1#game=1&ply=4")
        wait_for(browser, 'return document.getElementById("board").dataset.ply === "4";')
        browser.click("#evaluate")
        said = wait_for(browser, 'const e = document.getElementById("evaluation")'
                                 '.textContent; return e.includes("depth") && e;')
        assert said.startswith("pdn builtin: ") and "best line" in said
        others = wait_for(browser, 'const l = document.querySelectorAll("#other-lines li");'
                                   'return l.length && [...l].map((i) => i.textContent);')
        assert len(others) == 2 and all("depth" in line for line in others)
        score = float(said.split(": ")[1].split(" ")[0])  # White's view, in men
        share = browser.run('const bar = document.getElementById("eval-bar");'
                            'return !bar.hidden && bar.value;')
        assert 0 < share < 100 and (share - 50) * score >= 0  # the bar leans as the score
        browser.run('document.getElementById("evaluation").scrollIntoView();')
        browser.screenshot(ARTIFACTS / "serve_engine_lines.png")
        browser.resize(400, 900)
        browser.run('document.getElementById("evaluation").scrollIntoView();')
        browser.screenshot(ARTIFACTS / "serve_engine_lines_phone.png")
        browser.resize(1280, 900)
        browser.click("#stop-engine")
        wait_for(browser, 'return document.getElementById("evaluation").textContent'
                          ' === "Stopped.";')


def test_the_analysis_board_evaluates_the_position_shown_and_draws_it(browser: Browser):
    from support.engines import find_dame

    dame = find_dame()
    require(dame is not None, "dame-rs (make test-deps)")
    with served(ROOT / "samples" / "international" / "sample_game.pdn",
                "--engine-cmd", f"{dame} hub") as server:
        browser.resize(1280, 900)
        browser.open(server.url + "games/1")
        browser.press("ArrowRight", 3)
        fen = browser.run('return document.getElementById("board").dataset.fen;')
        browser.click("#evaluate")
        said = wait_for(browser, 'const e = document.getElementById("evaluation")'
                                 '.textContent; return e.includes("depth") && e;')
        assert said.startswith("dame") and "best line" in said
        # the link follows the board when clicked (the download itself is left out here)
        href = browser.run('const link = document.getElementById("diagram-svg");'
                           'link.addEventListener("click", (e) => e.preventDefault());'
                           'link.click(); return link.href;')
        assert href.startswith(server.url + "api/diagram.svg?variant=international&fen=")
        status, _, svg = server.request(href[len(server.url) - 1:])
    from urllib.parse import parse_qs, urlparse

    from replay.record.board import Board
    from replay.record.diagram import board_svg
    from replay.rules.variants import INTERNATIONAL

    assert parse_qs(urlparse(href).query)["fen"] == [fen]
    assert (status, svg.decode()) == (200, board_svg(Board.from_fen(fen, INTERNATIONAL)))


def test_a_game_with_an_error_opens_at_its_error_the_address_naming_it(browser: Browser,
                                                                        tmp_path: Path):
    fine, slipped = SLIPPED.split("\n\n[Event")[1], SLIPPED.split("\n\n[Event")[0]
    path = tmp_path / "round3.pdn"
    path.write_text(f"[Event{fine}\n{slipped}\n", encoding="utf-8")
    with served(path.name, cwd=tmp_path) as server:
        browser.open(server.url + "games/2")
        shown = wait_for(browser, "return location.hash.includes('ply=') && "
                                  "[location.hash, document.getElementById('board').dataset.ply]")
        # 1. ed4 dc5 2. fe3 fg5 3. cb4: five plies replay, Black's 3rd is missing
        assert shown == ["#game=2&ply=5", "5"]
        browser.open(server.url + "games/2#game=2&ply=1")
        shown = wait_for(browser, "return document.getElementById('board').dataset.ply === '1'"
                                  " && location.hash")
        assert shown == "#game=2&ply=1", "an address given is kept"
        browser.open(server.url + "games/1")
        assert wait_for(browser, "return location.hash") == "#game=1&ply=0", "a valid game"
