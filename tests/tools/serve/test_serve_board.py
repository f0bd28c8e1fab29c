"""The desk's board played with the mouse, a pen or a finger in real headless Chromium
(``support.webdriver``): games of Russian and International by clicks, mouse drags and
touches, captures by their landing squares, a capture with two routes picked square by
square, an illegal drop refused with its reason, typed moves still taken, and a move played
on a game's board at its error. Without the browser the test skips (under ``CI=true`` it
fails). Screenshots go to ``bench/out/`` (git-ignored)."""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import urlencode

import pytest
from conftest import require
from support.served import served
from support.webdriver import Browser, wait_for

from replay.rules.variants import INTERNATIONAL, RUSSIAN, Variant

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "bench" / "out"


@pytest.fixture(autouse=True)
def serve_extra() -> None:
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")


def square(variant: Variant, name: str) -> str:
    """The board's target for a square named in the variant's notation (``32``, ``c3``)."""
    notation, geometry = variant.gametype.notation, variant.geometry
    found = next(s for s in geometry.playable if notation.name(s) == name)
    return f'rect.hit[data-square="{geometry.name(found)}"]'


def targets(browser: Browser, variant: Variant) -> set[str]:
    """The squares the board marks as where the piece picked can land next."""
    names = browser.run('return [...document.querySelectorAll("circle.target")]'
                        '.map((c) => c.dataset.square);')
    by_name = {variant.geometry.name(s): variant.gametype.notation.name(s)
               for s in variant.geometry.playable}
    return {by_name[name] for name in names}


def moves_become(browser: Browser, shown: str) -> None:
    wait_for(browser, 'return document.getElementById("typed-moves").textContent === '
                      f'{json.dumps(shown)} && document.querySelector("rect.hit");')


def text_of_link(browser: Browser) -> str:
    return browser.run('return document.getElementById("play-on").textContent;')


def message(browser: Browser) -> str:
    return browser.run('return document.getElementById("message").textContent;')


def test_a_russian_game_by_click_drag_and_touch_with_an_illegal_drop_refused(browser):
    v = RUSSIAN
    with served() as server:
        browser.resize(1280, 900)
        browser.open(server.url + "new")
        wait_for(browser, 'return document.querySelector("#typed-board rect.hit");')
        browser.click(square(v, "c3"))  # picked up: where it can go is marked
        assert targets(browser, v) == {"b4", "d4"}
        browser.click(square(v, "d4"))
        moves_become(browser, "1. c3-d4")
        browser.drag(square(v, "f6"), square(v, "e5"))  # the mouse drags
        moves_become(browser, "1. c3-d4 f6-e5")
        # a capture is compulsory: a piece that cannot take is not picked up, a capturing
        # piece dropped on a quiet move's square is refused, each with the reason
        browser.drag(square(v, "g3"), square(v, "h4"))
        said = wait_for(browser, 'const m = document.getElementById("message").textContent;'
                                 'return m.startsWith("Refused") && m;')
        assert said == "Refused: no legal move from g3; a capture is compulsory"
        browser.drag(square(v, "d4"), square(v, "c5"))
        said = wait_for(browser, 'const m = document.getElementById("message").textContent;'
                                 'return m.includes("d4-c5") && m;')
        assert said == "Refused: d4-c5 is not a legal move; a capture is compulsory"
        assert browser.run('return document.getElementById("typed-moves").textContent;') \
            == "1. c3-d4 f6-e5"
        browser.drag(square(v, "d4"), square(v, "f6"), "touch")  # a finger drags
        moves_become(browser, "1. c3-d4 f6-e5 2. d4:f6")
        browser.tap(square(v, "g7"))  # a finger taps the piece, then where it lands
        assert targets(browser, v) == {"e5"}
        browser.tap(square(v, "e5"))
        moves_become(browser, "1. c3-d4 f6-e5 2. d4:f6 g7:e5")
        browser.drag(square(v, "b2"), square(v, "c3"), "pen")
        moves_become(browser, "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3")
        browser.type("#move-input", "hg7\ue007")  # typed moves still count
        moves_become(browser, "1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 hg7")
        browser.screenshot(ARTIFACTS / "serve_board_russian.png")


def two_routes(browser: Browser, server, v: Variant, position: str, king: str, first: str,
               ends: set[str], end: str, text: str, taken: set[str]) -> None:
    """A king's capture whose first landing square begins two routes: the board waits for
    the next square, then plays the one it names."""
    browser.open(server.url + "new?" + urlencode({"variant": v.name, "fen": position}))
    wait_for(browser, 'return document.querySelector("#typed-board rect.hit");')
    browser.click(square(v, king))
    browser.click(square(v, first))
    assert targets(browser, v) == ends
    assert message(browser).startswith(f"{king} {first}: go on")
    browser.screenshot(ARTIFACTS / f"serve_board_two_routes_{v.name}.png")
    assert browser.run('return document.getElementById("typed-moves").textContent;') == ""
    browser.click(square(v, end))
    moves_become(browser, f"1. {text}")
    board = browser.run('return [...document.querySelectorAll("#typed-board svg [data-square]")]'
                        '.filter((e) => e.classList.contains("piece"))'
                        '.map((e) => e.dataset.square);')
    by_name = {v.geometry.name(s): v.gametype.notation.name(s) for s in v.geometry.playable}
    assert not taken & {by_name.get(name, name) for name in board}


def test_a_capture_with_two_routes_waits_for_the_square_that_tells_them_apart(browser):
    with served() as server:
        browser.resize(1280, 900)
        two_routes(browser, server, RUSSIAN, "W:WKh8:Bb2,e5,c5,a7,g3", "h8", "d4",
                   {"b6", "a1"}, "a1", "h8:d4:a1", {"b2", "e5"})
        two_routes(browser, server, INTERNATIONAL, "W:WK9:B11,42,15,18,33", "9", "22",
                   {"6", "39", "44", "50"}, "39", "9x39", {"18", "33"})


def test_an_international_game_by_click_drag_and_touch(browser):
    v = INTERNATIONAL
    with served() as server:
        browser.resize(400, 860)
        browser.open(server.url + "new")
        wait_for(browser, 'return document.querySelector("#typed-board rect.hit");')
        browser.run('document.getElementById("variant").value = "international";'
                    'document.getElementById("variant").dispatchEvent(new Event("change"));')
        wait_for(browser, 'return document.querySelectorAll("#typed-board rect.hit").length '
                          '=== 50;')
        browser.tap(square(v, "32"))
        assert targets(browser, v) == {"27", "28"}
        browser.screenshot(ARTIFACTS / "serve_board_phone.png")
        browser.tap(square(v, "28"))
        moves_become(browser, "1. 32-28")
        browser.drag(square(v, "19"), square(v, "23"), "touch")
        moves_become(browser, "1. 32-28 19-23")
        browser.drag(square(v, "28"), square(v, "19"))
        moves_become(browser, "1. 32-28 19-23 2. 28x19")
        browser.click(square(v, "14"))
        browser.click(square(v, "23"))
        moves_become(browser, "1. 32-28 19-23 2. 28x19 14x23")
        browser.drag(square(v, "33"), square(v, "23"))  # onto a piece: refused
        said = wait_for(browser, 'const m = document.getElementById("message").textContent;'
                                 'return m.startsWith("Refused") && m;')
        assert said == "Refused: 33-23 is not a legal move"
        browser.screenshot(ARTIFACTS / "serve_board_international_phone.png")


# A Russian scoresheet where Black's 3rd move was never written down.
SLIPPED = """[White "Ann"]
[Black "Bob"]
[Result "0-1"]
[GameType "25"]

1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1
"""


def test_a_move_dropped_on_a_games_board_at_its_error_is_written_there(browser, tmp_path):
    v = RUSSIAN
    path = tmp_path / "slipped.pdn"
    path.write_text(SLIPPED, encoding="utf-8")
    with served(path.name, cwd=tmp_path) as server:
        browser.resize(1280, 900)
        browser.open(server.url + "games/1#game=1&ply=0")  # the start, not the error
        wait_for(browser, 'return document.getElementById("board").dataset.ply === "0" '
                          '&& document.querySelector("#board rect.hit");')
        # elsewhere than where the game stops the board says where moves are written
        browser.click(square(v, "c3"))
        browser.click(square(v, "d4"))
        assert message(browser).startswith("A move played on a game's board is written where")
        # ... and offers to play it on from there in a new game
        assert text_of_link(browser) == "Play c3-d4 from here in a new game"
        browser.click("#play-on")
        moves_become(browser, "1. c3-d4")
        browser.open(server.url + "games/1")  # a game with an error opens at it
        error_ply = browser.run('return document.querySelector("#legal button").dataset.ply;')
        wait_for(browser, f'return document.getElementById("board").dataset.ply === '
                          f'"{error_ply}" && document.querySelector("#board rect.hit");')
        browser.click(square(v, "g5"))
        wait_for(browser, 'return document.querySelectorAll("#board circle.target")'
                          '.length === 2;')
        assert targets(browser, v) == {"f4", "h4"}
        browser.screenshot(ARTIFACTS / "serve_board_game.png")
        browser.drag(square(v, "g5"), square(v, "h4"))
        # written in place of the move there (as the legal move's button does), checked again
        wait_for(browser, f'const i = document.querySelector(\'#written input[data-ply='
                          f'"{error_ply}"]\'); return i && i.value === "g5-h4";')
        assert "3. cb4 4. g5-h4 h:f2" in browser.run(
            'return document.getElementById("pdn").value;')


def test_the_editor_sets_up_a_position_shows_its_fen_and_problems_and_analyses_it(browser):
    v = RUSSIAN
    with served() as server:
        browser.resize(1280, 900)
        browser.open(server.url + "editor")
        wait_for(browser, 'return document.querySelector("#editor-board rect.hit");')
        start = browser.run('return document.getElementById("editor-fen").value;')
        assert start.startswith("W:W") and start.count(",") == 22  # 24 men at the start
        browser.click("#editor-clear")
        wait_for(browser, 'return document.getElementById("editor-fen").value === "W:W:B";')
        browser.click('input[name="piece"][value="W"]')
        browser.click(square(v, "h8"))
        wait_for(browser, 'return document.getElementById("editor-fen").value === "W:WKh8:B";')
        browser.click('input[name="piece"][value="b"]')
        for name in ("b2", "e5", "c5", "a7", "g3"):
            browser.click(square(v, name))
            wait_for(browser, 'return document.getElementById("editor-fen").value'
                              f'.includes("{name}");')
        fen = browser.run('return document.getElementById("editor-fen").value;')
        assert fen == "W:WKh8:Bb2,g3,c5,e5,a7"  # in the board's square order
        # a black man on its crowning row is shown to be impossible, and taken off again
        browser.click(square(v, "c1"))
        problem = wait_for(browser, 'const p = document.getElementById("editor-problems")'
                                    '.textContent; return p.includes("c1") && p;')
        assert problem == "a black man on c1, the row where Black is crowned, would be a king"
        browser.click(square(v, "c1"))
        wait_for(browser, 'return document.getElementById("editor-problems").textContent '
                          '=== "Nothing forbids it.";')
        fen = browser.run('return document.getElementById("editor-fen").value;')
        tags = browser.run('return document.getElementById("editor-tags").textContent;')
        assert f'[FEN "{fen}"]' in tags and '[SetUp "1"]' in tags
        browser.screenshot(ARTIFACTS / "serve_editor.png")
        browser.resize(400, 860)
        browser.screenshot(ARTIFACTS / "serve_editor_phone.png")
        browser.resize(1280, 900)
        browser.click("#editor-analyse")
        wait_for(browser, 'return document.body.dataset.page === "game" && '
                          'document.getElementById("board").dataset.fen;')
        assert browser.run('return document.getElementById("board").dataset.fen;') == fen
        browser.click("#evaluate")  # the built-in engine, from the position set up
        said = wait_for(browser, 'const e = document.getElementById("evaluation")'
                                 '.textContent; return e.includes("depth") && e;')
        assert said.startswith("pdn builtin: ")


LINE = """return [...document.querySelectorAll(
  "#desk-games th, #desk-games td:nth-child(-n+2), #desk-games td:nth-child(4), "
  + "#desk-games td:nth-child(5)")].filter((cell) => {
    const range = document.createRange(); range.selectNodeContents(cell);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return tops.size > 1;
  }).map((cell) => cell.textContent);"""


def test_the_desks_game_list_breaks_no_short_column_inside_a_word(browser, tmp_path):
    path = tmp_path / "desk.pdn"
    path.write_text(SLIPPED.replace('"Ann"', '"Annemarie van den Berg-Oosterhuis"'),
                    encoding="utf-8")
    with served(path.name, cwd=tmp_path) as server:
        for width in (1280, 400):
            browser.resize(width, 900)
            browser.open(server.url)
            assert browser.run(LINE) == []
            assert browser.run("const page = document.documentElement; "
                               "return page.scrollWidth <= page.clientWidth;")
        browser.resize(1280, 900)
        browser.open(server.url)
        browser.screenshot(ARTIFACTS / "serve_desk_list.png")
