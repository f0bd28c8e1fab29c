"""The desk's pages of ``pdn serve`` (the game list, a game, the new game, the position
editor) in the browser's language (``Accept-Language``) or the one chosen with the page's
switch (``?lang=``), English by default: ``lang`` on every page, the page's words and the
script's texts from the catalogs, and the server's refusals in the page's language with
the JSON keys as they are."""

from __future__ import annotations

import json
import re
from html import unescape
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import require
from support.served import served

from pdn.i18n import catalog
from replay.rules.variant_titles import variant_title
from replay.serve.desk import typed_game
from replay.serve.words import SCRIPT_TEXT, script_text

ROOT = Path(__file__).resolve().parents[3]
SCORESHEET = ROOT / "samples" / "russian" / "scoresheet_with_errors.pdn"
PAGES = ("/", "/games/1", "/new", "/editor")


@pytest.fixture(autouse=True)
def serve_extra() -> None:
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")


@pytest.fixture(scope="module")
def server():
    with served(SCORESHEET.name, cwd=SCORESHEET.parent) as running:
        yield running


def page(server, path: str, accept: str = "") -> str:
    status, _, body = server.request(path, headers={"Accept-Language": accept} if accept
                                     else {})
    assert status == 200
    return body.decode()


def script_words(html: str) -> dict:
    found = re.search(r'<script id="desk-text" type="application/json">(.*?)</script>', html)
    assert found
    return json.loads(found.group(1))


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize(("accept", "language"), [
    ("ru-RU,ru;q=0.9,en;q=0.5", "ru"), ("th-TH", "th"), ("de-DE", "en"), ("", "en")])
def test_every_desk_page_speaks_the_browsers_language_with_lang_and_the_scripts_texts(
        server, path, accept, language):
    html = page(server, path, accept)
    words = catalog(language)
    assert html.startswith(f'<!DOCTYPE html>\n<html lang="{language}">')
    assert f">{words.gettext('Position editor')}</a>" in html  # the desk's links
    assert script_words(html) == script_text(words)
    # the switch to the same page in each language
    for code in ("en", "ru", "th"):
        assert f'<a href="{path}?lang={code}" hreflang="{code}" lang="{code}"' in html
    # Sarabun's Thai glyphs on every page (the switch names Thai in Thai), for Thai only
    assert '@font-face{font-family:"Sarabun";font-weight:400;' in html
    assert "unicode-range:U+0E01-0E5B" in html


def test_the_switch_overrides_the_browser_and_the_links_keep_the_choice(server):
    html = page(server, "/?lang=th", "ru-RU")
    th = catalog("th")
    assert '<html lang="th">' in html
    heading = th.gettext("The arbiter's desk")
    assert f"<h1>{heading}</h1>" in html
    for link in ("/?lang=th", "/new?lang=th", "/editor?lang=th", "/event?lang=th",
                 "/games/1?lang=th"):
        assert f'href="{link}"' in html
    # the browser's language alone adds nothing to the links
    plain = page(server, "/", "ru-RU")
    assert 'href="/games/1"' in plain and 'href="/new"' in plain


def test_the_game_list_and_a_games_report_are_in_russian(server):
    ru = catalog("ru")
    desk = unescape(page(server, "/", "ru"))
    assert f"<th>{ru.gettext('First problem')}</th>" in desk
    assert f'<td class="status">{ru.gettext("invalid")}</td>' in desk
    assert ru.gettext("capture is compulsory: {moves}").format(moves="d4:b6") in desk
    game = unescape(page(server, "/games/1", "ru"))
    expected = (ru.gettext("move {number} ({side})").format(number=2, side=ru.gettext("White"))
                + " 'b2-c3': " + ru.gettext("capture is compulsory: {moves}").format(
                    moves="d4:b6"))
    assert f'<li class="error">{expected}</li>' in game
    assert f"<h2>{ru.gettext('Moves as written')}</h2>" in game
    assert "Moves as written" not in game and "Check again" not in game


def test_the_english_pages_are_as_they_were(server):
    desk = page(server, "/")
    assert "<h1>The arbiter&#x27;s desk</h1>" in desk and "<th>First problem</th>" in desk
    game = page(server, "/games/1")
    assert "<li class=\"error\">move 2 (White) &#x27;b2-c3&#x27;: capture is compulsory: " \
           "d4:b6</li>" in game


@pytest.mark.parametrize("language", ["ru", "th"])
def test_a_refusal_is_in_the_language_asked_for_and_the_json_keys_stay(server, language):
    words = catalog(language)
    status, answer = server.json("/api/games/1/tag", {"name": "bad name", "value": "x"},
                                 headers={"Accept-Language": language})
    assert status == 400
    assert answer == {"error": words.gettext("'{name}' is not a tag name (letters, digits "
                                             "and _)").format(name="bad name")}
    status, english = server.json("/api/games/1/tag", {"name": "bad name", "value": "x"})
    assert english == {"error": "'bad name' is not a tag name (letters, digits and _)"}
    status, _, body = server.request("/games/99", headers={"Accept-Language": language})
    html = unescape(body.decode())
    assert status == 400 and f'<html lang="{language}">' in html
    assert words.gettext("there is no game {number} (the desk holds {count})").format(
        number=99, count=2) in html


def test_a_typed_move_refused_says_why_in_thai(server):
    th = catalog("th")
    moves = ["c3-d4", "f6-g5", "e5-f6"]  # no White man on e5
    status, typed = server.json("/api/play", {"variant": "russian", "moves": moves},
                                headers={"Accept-Language": "th"})
    english = typed_game("russian", moves)
    assert status == 200 and english.problem
    assert typed["error"] == f"e5-f6: {th.localize(english.problem)}"
    assert typed["error"] != english.error  # the replayer's reason has its Thai entry
    assert typed["accepted"] == ["c3-d4", "f6-g5"]


def test_the_position_editors_problems_are_in_russian_with_its_plural_forms(server):
    ru = catalog("ru")
    pieces = {square: "w" for square in ("a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3",
                                         "c3", "e3", "g3", "b4", "d4", "f4", "h4", "a5", "c5",
                                         "e5", "g5", "b6")}
    status, edited = server.json("/api/position", {"variant": "russian", "pieces": pieces},
                                 headers={"Accept-Language": "ru"})
    assert status == 200
    assert edited["problems"][0] == ("у белых 21 шашка — больше, чем 12 в начальной позиции "
                                     "(русские шашки)")
    pieces["d6"] = "w"
    _, edited = server.json("/api/position", {"variant": "russian", "pieces": pieces},
                            headers={"Accept-Language": "ru"})
    assert edited["problems"][0].startswith("у белых 22 шашки —")
    crowned = ru.gettext("a white man on {square}, the row where White is crowned, would be "
                         "a king").format(square="b8")
    _, edited = server.json("/api/position", {"variant": "russian", "pieces": {"b8": "w"}},
                            headers={"Accept-Language": "ru"})
    assert edited["problems"] == [crowned]


def test_desk_js_names_exactly_the_texts_the_page_carries_with_their_placeholders():
    script = (ROOT / "replay" / "serve" / "desk.js").read_text(encoding="utf-8")
    used: dict[str, set[str]] = {}
    for names, values in re.findall(
            r'fill\((?:\w+ \? )?("\w+"(?: : "\w+")?)(?:, \{([^}]*)\})?\)', script):
        for name in re.findall(r'"(\w+)"', names):
            used.setdefault(name, set()).update(v.strip() for v in values.split(",")
                                                if v.strip())
    assert set(used) == set(SCRIPT_TEXT)
    for name, message in SCRIPT_TEXT.items():
        assert set(re.findall(r"\{(\w+)\}", message)) <= used[name], name
    # no English text of its own: every word it shows comes from the page
    assert "Refused" not in script and "Checking" not in script


# -- in the browser ---------------------------------------------------------------------------

ARTIFACTS = ROOT / "bench" / "out"
SARABUN_LOADED = ('return [...document.fonts].some((f) => f.family.replace(/"/g, "") === '
                  '"Sarabun" && f.status === "loaded");')


def text_of(browser, css: str) -> str:
    return browser.run(f"return document.querySelector({json.dumps(css)}).textContent;")


def fits(browser) -> bool:
    return browser.run("const page = document.documentElement; "
                       "return page.scrollWidth <= page.clientWidth;")


@pytest.mark.parametrize("language", ["ru", "th"])
def test_chromium_shows_the_desk_and_a_game_in_the_language_of_the_switch(browser, server,
                                                                         language):
    from support.webdriver import wait_for

    words = catalog(language)
    say = words.gettext
    browser.resize(1280, 900)
    browser.open(server.url)
    browser.click(f'.languages a[hreflang="{language}"]')
    wait_for(browser, f'return document.documentElement.lang === "{language}" && '
                      f'document.body.dataset.page === "desk";')
    assert text_of(browser, "h1") == say("The arbiter's desk")
    assert text_of(browser, "#desk-games tbody tr:first-child .status") == say("invalid")
    assert text_of(browser, ".desk-nav a:nth-child(3)") == say("Position editor")
    wait_for(browser, SARABUN_LOADED)  # Thai glyphs (the switch's ไทย) from the shipped font
    browser.screenshot(ARTIFACTS / f"serve-desk-{language}-1280.png")
    # the game's link keeps the language chosen
    browser.click(f'#desk-games a[href="/games/1?lang={language}"]')
    wait_for(browser, f'return document.documentElement.lang === "{language}" && '
                      'document.body.dataset.page === "game" && '
                      'document.querySelector(".moves .move.error");')
    expected = (say("move {number} ({side})").format(number=2, side=say("White"))
                + " 'b2-c3': " + say("capture is compulsory: {moves}").format(moves="d4:b6"))
    assert text_of(browser, "#problems li.error") == expected
    # the viewer's verdict above the board too, its reason put into the language
    compulsory = say("capture is compulsory: {moves}").format(moves="d4:b6")
    assert text_of(browser, "#verdict") == say("Does not replay: {errors}").format(
        errors=compulsory)
    assert text_of(browser, "#recheck") == say("Check again")
    # the board's words and the variant's name, given to the viewer in the language
    assert text_of(browser, "#board .turn-legend text") == say("White to move")  # after 1...
    assert text_of(browser, "#event").endswith(variant_title("russian", words))
    browser.screenshot(ARTIFACTS / f"serve-game-{language}-1280.png")
    # desk.js asks the server in the page's language: a refusal comes back in it
    browser.type("#new-tag-name", "bad name\ue007")
    # the page says it is checking while the server answers: wait for the answer
    said = wait_for(browser, 'const m = document.getElementById("message").textContent;'
                             'return m.includes("bad name") && m;')
    assert said == say("'{name}' is not a tag name (letters, digits and _)").format(
        name="bad name")
    # a phone: nothing wider than the screen
    browser.resize(400, 860)
    browser.open(server.url + f"games/1?lang={language}")
    assert fits(browser)
    browser.screenshot(ARTIFACTS / f"serve-game-{language}-400.png")
    browser.open(server.url + f"?lang={language}")
    assert fits(browser)
    browser.screenshot(ARTIFACTS / f"serve-desk-{language}-400.png")


def test_the_boards_refusal_is_filled_from_the_russian_texts(browser):
    from support.webdriver import wait_for
    from test_serve_board import moves_become, square

    from replay.rules.variants import RUSSIAN as v

    texts = script_text(catalog("ru"))
    with served() as running:
        browser.resize(1280, 900)
        browser.open(running.url + "new?lang=ru")
        wait_for(browser, 'return document.querySelector("#typed-board rect.hit");')
        assert text_of(browser, "h1") == catalog("ru").gettext("Type a game")
        browser.click(square(v, "c3"))
        browser.click(square(v, "d4"))
        moves_become(browser, "1. c3-d4")
        browser.drag(square(v, "f6"), square(v, "e5"))
        moves_become(browser, "1. c3-d4 f6-e5")
        browser.drag(square(v, "g3"), square(v, "h4"))
        said = wait_for(browser, 'const m = document.getElementById("message").textContent;'
                                 'return m.includes("g3") && m;')
    reason = texts["noMoveFrom"].format(square="g3") + "; " + texts["mustCapture"]
    assert said == texts["refused"].format(reason=reason)
    assert said == "Отклонено: с поля g3 нет хода; бить обязательно"
