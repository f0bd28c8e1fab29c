"""``pdn view``, ``pdn match`` and ``pdn engine`` speak Russian and Thai as the catalogs say:
the viewer page (its ``lang``, headings, buttons, help, the tooltips of clocks and
evaluations, the game count, the board's words, the replay's messages), view's and match's
lines on stderr and their refusals; while what they write as data (the games in the page,
the PDN of a match, the Hub protocol) and their exit statuses are the same in every
language (the checks of tests/test_catalogs.py), on real games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import escape, unescape
from pathlib import Path

import pytest
from test_catalogs import ROOT, SCORESHEET, TRANSLATED, _english_words, _no_english, _pdn

from pdn.i18n import catalog
from replay.rules.variant_titles import variant_title
from replay.viewer.page import GAME_FIELDS
from replay.viewer.words import PAGE_TEXT, VIEWER_TEXT, count_words, viewer_words

# Real games: one with an evaluation and a clock after its moves (Windragon's export), one
# of lidraughts with clocks, and the scoresheet whose second game stops at a slip.
EVALUATED = "tests/wiegerw_pdn/succeed/windragon.pdn"
CLOCKED = "lidraughts_sample/lidraughts_export_sample.pdn"
ARTIFACTS = ROOT / "bench" / "out"
IMAGES = ROOT / "docs" / "images"


def _runs(language: str, *args: str) -> list:
    """The command in ``language``, asked by ``--lang`` and by the locale variables."""
    return [_pdn(*args[:-2], "--lang", language, *args[-2:]),
            _pdn(*args, lang_env=f"{language}_XX.UTF-8")]


def _said(run, *names) -> list:
    """The lines of what a run says on stderr that keep English words, ``names`` aside."""
    return _no_english(subprocess.CompletedProcess(run.args, run.returncode, "", run.stderr),
                       *names)


# -- pdn view ----------------------------------------------------------------------------


def _sources(shared_data: Path) -> list[Path]:
    return [shared_data / EVALUATED, shared_data / CLOCKED, SCORESHEET]


def _view(shared_data: Path, output: Path, **how) -> subprocess.CompletedProcess:
    return _pdn("view", *map(str, _sources(shared_data)), "-o", str(output), **how)


def _data(html: str) -> dict:
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', html, re.S)
    assert found
    return json.loads(found.group(1))


def _shown_text(html: str) -> list[str]:
    """What the page shows before its script runs: the text between its tags and the
    tooltips, placeholders and labels of its elements (its style and scripts aside)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", "", html, flags=re.S)
    attributes = re.findall(r'(?:title|placeholder|aria-label)="([^"]*)"', body)
    texts = re.sub(r"<[^>]*>", "\n", body).splitlines()
    return [unescape(text).strip() for text in [*texts, *attributes] if text.strip()]


@pytest.fixture(scope="module")
def english_page(shared_data, tmp_path_factory) -> tuple[subprocess.CompletedProcess, str]:
    output = tmp_path_factory.mktemp("view") / "en.html"
    run = _view(shared_data, output)
    return run, output.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", TRANSLATED)
def test_view_writes_its_page_and_its_summary_in_the_users_language(
        language, shared_data, english_page, tmp_path):
    words = catalog(language)
    say = words.gettext
    english, english_html = english_page
    assert english.returncode == 1  # the scoresheet's game that stops replaying
    assert "viewer of 4 games written to" in english.stderr
    assert _said(english, *_sources(shared_data), tmp_path)  # the check finds English
    assert "Copy the position as FEN" in _shown_text(english_html)
    for number, run in enumerate([
            _pdn("view", "--lang", language, *map(str, _sources(shared_data)), "-o",
                 str(tmp_path / "by-option.html")),
            _view(shared_data, tmp_path / "by-locale.html", lang_env=f"{language}_XX.UTF-8")]):
        output = tmp_path / ("by-option.html", "by-locale.html")[number]
        assert run.returncode == english.returncode
        assert _said(run, *_sources(shared_data), output) == []
        summary = words.ngettext("viewer of {count} game written to {output}",
                                 "viewer of {count} games written to {output}", 4).format(
            count=4, output=output)
        broken = say("; games that do not replay: {statuses}").format(
            statuses=f"1 {say('invalid')}")
        assert run.stderr.strip() == summary + broken
        html = output.read_text(encoding="utf-8")
        assert f'<html lang="{language}">' in html
        shown = _shown_text(html)
        assert [line for line in shown if _english_words(line, Path("-"))] == []
        for message in PAGE_TEXT.values():
            assert escape(say(message)) in html and unescape(escape(say(message))) != message
        assert words.ngettext("games of {count} file", "games of {count} files", 3).format(
            count=3) in shown  # the page's title
        page, original = _data(html), _data(english_html)
        assert page["words"] == {**viewer_words(words), **count_words(words, 4)}
        # the board's words and the variant's name are the language's; the rest as it is
        for key, kind in page["kinds"].items():
            first = original["kinds"][key]
            assert kind["variant"] == variant_title(first["variant"], words)
            assert say("White to move") in kind["turn"]["w"]
            assert {**kind, "variant": 0, "turn": 0, "flipped": 0} == {
                **first, "variant": 0, "turn": 0, "flipped": 0}
        # the games: moves, tags and comments as written, the replay's messages translated
        errors = GAME_FIELDS.index("errors")
        for game, before in zip(page["games"], original["games"], strict=True):
            assert [value for at, value in enumerate(game) if at != errors and
                    GAME_FIELDS[at] != "texts"] == [
                value for at, value in enumerate(before) if at != errors and
                GAME_FIELDS[at] != "texts"]
            assert [words.localize(text) for text in before[errors]] == game[errors]
        stopped = page["games"][2][errors]  # the scoresheet's first game
        assert stopped and say("capture is compulsory: {moves}").format(
            moves="d4:b6") in stopped[0]


def test_views_words_are_marked_and_translated_for_its_script(english_page):
    # the script falls back on its own English words only where a page gives none
    _, html = english_page
    assert _data(html)["words"] == {**viewer_words(catalog("en")), **count_words(
        catalog("en"), 4)}
    script = (ROOT / "replay" / "viewer" / "viewer.js").read_text(encoding="utf-8")
    assert set(re.findall(r'said\("(\w+)"', script)) == set(VIEWER_TEXT) | {"count", "shownOf"}
    for language in TRANSLATED:
        assert count_words(catalog(language), 22_621)["shownOf"].count("{shown}") == 1


# The words the page's script writes, read from the page as Chromium draws it.
DRAWN_WORDS = """
const text = (css) => document.querySelector(css).textContent;
const title = (css) => document.querySelector(css).getAttribute("title");
return {count: text("#count"), current: text("#current"), games: text("#games h2"),
        moves: text("#right > h2"), copyFen: text("#copy-fen"), flip: title("#flip"),
        search: document.getElementById("search").placeholder, help: text(".help"),
        evaluation: title(".moves .eval"),
        graph: document.querySelector("#graph svg").getAttribute("aria-label"),
        legend: text("#board .turn-legend text"), event: text("#event"),
        lang: document.documentElement.lang};
"""
SARABUN_LOADED = ('return [...document.fonts].some((f) => f.family.replace(/"/g, "") === '
                  '"Sarabun" && f.status === "loaded");')


@pytest.mark.parametrize("language", TRANSLATED)
def test_chromium_shows_the_view_page_in_its_language(language, browser, shared_data,
                                                      tmp_path):
    from support.webdriver import wait_for

    words = catalog(language)
    say = words.gettext
    output = tmp_path / f"view-{language}.html"
    assert _view(shared_data, output, lang_env=f"{language}_XX.UTF-8").returncode == 1
    browser.resize(1280, 900)
    browser.open(output.as_uri() + "#game=1&ply=6")  # Windragon's game: evaluations, clocks
    shown = browser.run(DRAWN_WORDS)
    assert shown == {
        "count": words.ngettext("{count} game", "{count} games", 4).format(count=4),
        "current": shown["current"], "games": say("Games"), "moves": say("Moves"),
        "copyFen": say("Copy FEN"), "flip": say("Flip the board (f)"),
        "search": say("Search player or event"), "help": say(PAGE_TEXT["help"]),
        "evaluation": say("evaluation (White's view)"), "graph": say("evaluation graph"),
        "legend": shown["legend"], "event": shown["event"], "lang": language}
    assert shown["legend"] in (say("White to move"), say("Black to move"))
    assert shown["event"].startswith(variant_title("international", words))
    assert shown["current"] == "3... 10-14"  # the move, as written
    if language == "th":
        wait_for(browser, SARABUN_LOADED)  # Thai shaped from the shipped font
    browser.screenshot(ARTIFACTS / f"view-{language}-1280.png")
    # the lidraughts game: the clock after each move
    browser.open(output.as_uri() + "#game=2&ply=6")
    assert browser.run('return document.querySelector(".moves .clock").getAttribute("title")'
                       ) == say("clock after the move")
    # a search counts what it finds among the games, in the language
    browser.type("#search", "Wieger")
    found = browser.run("return document.getElementById('count').textContent")
    assert found == count_words(words, 4)["shownOf"].format(shown=1)
    # the scoresheet's game: the verdict and the move that stops, in the language
    browser.open(output.as_uri() + "#game=3&ply=3")
    verdict = browser.run("return document.getElementById('verdict').textContent")
    assert verdict == say("Does not replay: {errors}").format(
        errors=say("capture is compulsory: {moves}").format(moves="d4:b6"))
    browser.resize(400, 860)
    browser.open(output.as_uri() + "#game=1&ply=6")
    if language == "th":
        wait_for(browser, SARABUN_LOADED)
    browser.screenshot(ARTIFACTS / f"view-{language}-400.png")


# -- pdn match ---------------------------------------------------------------------------


MATCH = ("match", "random", "builtin", "--variant", "russian", "--depth", "1",
         "--max-moves", "0")
PLAYERS = ("random (seed 0)", "pdn builtin")


@pytest.mark.parametrize("language", TRANSLATED)
def test_match_says_its_games_and_score_in_the_users_language_and_writes_the_same_pdn(
        language, tmp_path):
    words = catalog(language)
    english = _pdn(*MATCH)
    assert english.returncode == 0 and english.stdout.startswith("[Event")
    assert "final score after 2 games" in english.stderr and _said(english, *PLAYERS)
    for run in _runs(language, *MATCH):
        assert (run.stdout, run.returncode) == (english.stdout, english.returncode)
        assert _said(run, *PLAYERS) == []
        lines = run.stderr.splitlines()
        assert len(lines) == 3
        # each game's line: its ending in the language (a side left without a move)
        games = zip(lines[:2], english.stderr.splitlines()[:2], strict=True)
        for number, (line, said) in enumerate(games, 1):
            reason = said.rsplit(" (", 1)[1].rstrip(")")
            white, black, result = re.match(r"game \d/2: (.*) - (.*) (\S+) \(", said).groups()
            assert line == words.gettext(
                "game {number}/{total}: {white} - {black} {result} ({reason})").format(
                number=number, total=2, white=white, black=black, result=result,
                reason=words.localize(reason))
            assert words.localize(reason) != reason
        assert lines[2].startswith(words.ngettext(
            "final score after {count} game: {first} {points} - {other_points} {second} "
            "({counts})", "final score after {count} games: {first} {points} - "
            "{other_points} {second} ({counts})", 2).split(":")[0].format(count=2))
        draws = words.ngettext("{count} draw", "{count} draws", 0).format(count=0)
        assert lines[2].count(draws) == 2


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_match_goes_on_after_its_games_in_the_users_language(language, tmp_path):
    words = catalog(language)
    output = tmp_path / "match.pdn"
    assert _pdn(*MATCH, "-o", str(output)).returncode == 0
    run = _pdn(*MATCH, "--pairs", "2", "-o", str(output), lang_env=f"{language}_XX.UTF-8")
    assert run.returncode == 0 and _said(run, *PLAYERS, output) == []
    assert words.ngettext(
        "{done} of {count} game is in {file} already: going on after it",
        "{done} of {count} games are in {file} already: going on after them", 4).format(
        done=2, count=4, file=output) in run.stderr.splitlines()
    assert output.read_text(encoding="utf-8").count("[Event") == 4


@pytest.mark.parametrize("language", TRANSLATED)
def test_match_and_engine_refuse_in_the_users_language(language, tmp_path):
    say = catalog(language).gettext
    ballots = tmp_path / "ballots.txt"
    ballots.write_text("c3-d4 f6-g5\nc3-d4 c3-b4\n", encoding="utf-8")
    from replay.rules.variants import variant_names

    cases = [
        (("match", "random", "nonsense"), say(
            "player '{player}' is none of builtin, hub:COMMAND, dxp:HOST:PORT, "
            "dxp-listen:[HOST:]PORT, random[:SEED]").format(player="nonsense")),
        (("match", "random", "random:z"), say("player '{player}': the seed is a number")
         .format(player="random:z")),
        (("match", "random", "dxp:127.0.0.1:5", "--variant", "russian"),
         say("DXP engines play International draughts only, not {variant}").format(
             variant="russian")),
        (("match", "random", "--variant", "international", "--ballots", "fmjd-64"),
         say("the FMJD Drawing Table 64 ballots are Russian draughts: use --variant russian")),
        (("engine", "hub", "--variant", "nosuch"),
         say("unknown variant '{name}'; known: {names} or a GameType number").format(
             name="nosuch", names=", ".join(variant_names())))]
    for args, expected in cases:
        english = _pdn(*args)
        assert english.returncode == 2 and _english_words(english.stderr, Path("-"))
        for run in _runs(language, *args):
            assert run.returncode == 2
            assert run.stderr.strip() == f"{say('error')}: {expected}"
    # a ballot move that is no move: its line named, the rules' reason in the language too
    run = _pdn("match", "random", "--variant", "russian", "--ballots", str(ballots),
               lang_env=f"{language}_XX.UTF-8")
    assert run.returncode == 2 and f"{ballots}:2" in run.stderr
    assert say("{place}: ballot move '{move}': {reason}").split("{place}")[1].split(
        "'{move}'")[0] in run.stderr


def test_the_hub_protocol_stays_english_in_every_language():
    # what a Hub client reads is the protocol's words, whatever the language
    commands = "hub\ninit\nlevel nonsense\nno-such-command\nping\nquit\n"
    pdn = str(Path(sys.executable).with_name("pdn"))

    def answers(language: str) -> str:
        env = {"PATH": "/usr/bin:/bin", "LANG": f"{language}_XX.UTF-8", "LC_ALL": "",
               "LC_MESSAGES": ""}
        run = subprocess.run([pdn, "engine", "hub"], input=commands, capture_output=True,
                             text=True, env=env, cwd=ROOT, check=False, timeout=300)
        assert run.returncode == 0 and run.stderr == ""
        return run.stdout

    english = answers("en")
    assert "id name=" in english and "error message=" in english and "pong" in english
    for language in TRANSLATED:
        assert answers(language) == english
