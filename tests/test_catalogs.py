"""Every message marked for translation has an entry in each catalog, with the same
placeholders (the texts of the desk's script among them), and ``pdn validate`` speaks
Russian and Thai as the catalogs say."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pdn.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog, choose, placeholders, read_po

ROOT = Path(__file__).resolve().parents[1]
SCORESHEET = ROOT / "samples" / "russian" / "scoresheet_with_errors.pdn"
TRANSLATED = sorted(set(LANGUAGES) - {SOURCE_LANGUAGE})


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def marked_messages() -> dict[str, str | None]:
    """The messages the sources mark (``N_("...")``, ``ngettext("...", "...", n)``), read
    with ``ast``: msgid -> its plural (None for a singular-only message)."""
    found: dict[str, str | None] = {}
    for folder in ("pdn", "replay", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                args = [_string(arg) for arg in node.args]
                if name == "N_" and args and args[0] is not None:
                    found.setdefault(args[0], None)
                elif name == "ngettext" and len(args) == 3 and None not in args[:2]:
                    found[args[0]] = args[1]
    return found


def _entries(language: str) -> dict[str, list[str]]:
    """msgid -> its translations (one, or one per plural form)."""
    path = ROOT / "pdn" / "locale" / language / "LC_MESSAGES" / "pdn.po"
    return {key.split("\0")[0]: value.split("\0") for key, value in read_po(path).items() if key}


def test_no_message_is_marked_inside_an_f_string():
    # xgettext and pygettext (make messages) read an f-string as one string: a message
    # marked inside one would be missing from pdn.pot
    hidden = []
    for folder in ("pdn", "replay", "cli"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    hidden += [f"{path.relative_to(ROOT)}:{call.lineno}"
                               for call in ast.walk(node) if isinstance(call, ast.Call)
                               and getattr(call.func, "id", getattr(call.func, "attr", None))
                               in ("N_", "ngettext")]
    assert hidden == []


def test_the_sources_mark_messages_of_the_validate_path():
    marked = marked_messages()
    assert "capture is compulsory: {moves}" in marked
    assert marked["{count} game"] == "{count} games"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_marked_message_has_a_translation_in_each_catalog(language):
    entries = _entries(language)
    missing = sorted(set(marked_messages()) - set(entries))
    assert missing == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_desks_script_texts_are_marked_and_translated_in_each_catalog(language):
    # desk.js and the viewer's script on pdn serve's pages show these, given by the page
    # from the catalog (replay.serve.words)
    from replay.serve.words import SCRIPT_TEXT, VIEWER_TEXT, script_text, viewer_words

    entries = _entries(language)
    for texts, given in ((SCRIPT_TEXT, script_text), (VIEWER_TEXT, viewer_words)):
        assert set(texts.values()) <= set(marked_messages()) & set(entries)
        shown = given(catalog(language))
        assert [name for name, text in shown.items() if text == texts[name]] == []
        assert [name for name, message in texts.items()
                if placeholders(shown[name]) != placeholders(message)] == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_catalog_keeps_entries_the_sources_no_longer_mark(language):
    assert sorted(set(_entries(language)) - set(marked_messages())) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_has_the_placeholders_of_its_message(language):
    marked = marked_messages()
    wrong = [(msgid, text) for msgid, texts in _entries(language).items() if msgid in marked
             for text in texts if placeholders(text) != placeholders(msgid)]
    assert wrong == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_translation_is_left_in_english_by_accident(language):
    # every message has words besides its placeholders; none reads the same translated
    same = [msgid for msgid, texts in _entries(language).items()
            if any(text == msgid for text in texts)
            and any(c.isalpha() for c in re.sub(r"\{\w+\}", "", msgid))]
    assert same == []


def test_russian_has_three_plural_forms_and_thai_one():
    ru, th = catalog("ru"), catalog("th")
    assert [ru.ngettext("{count} game", "{count} games", n).format(count=n)
            for n in (1, 3, 5, 21, 11)] == ["1 партия", "3 партии", "5 партий", "21 партия",
                                             "11 партий"]
    assert {th.ngettext("{count} game", "{count} games", n) for n in (1, 2, 5)} == {"{count} เกม"}


@pytest.mark.parametrize(("requested", "environ", "language"), [
    ("th", {"LANG": "ru_RU.UTF-8"}, "th"),
    (None, {"LC_ALL": "th_TH.UTF-8", "LANG": "ru_RU.UTF-8"}, "th"),
    (None, {"LC_MESSAGES": "ru_RU", "LANG": "th_TH"}, "ru"),
    (None, {"LANG": "C.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_the_language_is_lang_then_the_locale_variables_then_english(requested, environ,
                                                                      language):
    assert choose(requested, environ) == language


def _validate(*args: str, lang_env: str = "") -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "LANG": lang_env, "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run([str(Path(sys.executable).with_name("pdn")), "validate", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)


@pytest.mark.parametrize(("how", "language"), [
    ({"lang_env": "ru_RU.UTF-8"}, "ru"), ({"lang_env": ""}, "th"),
])
def test_validate_says_the_slip_in_the_players_language(how, language):
    args = ["--suggest", str(SCORESHEET)] + (["--lang", "th"] if language == "th" else [])
    run = _validate(*args, **how)
    words = catalog(language)
    say = words.gettext
    assert run.returncode == 1  # the exit status does not depend on the language
    error = next(line for line in run.stdout.splitlines() if "capture-required" in line)
    expected_error = (f"{say('error')}: " + say("game {number} ({white} – {black})").format(
        number=1, white="Smirnov, Ivan", black="Kuznetsova, Anna")
        + say(", move {number} ({side})").format(number=2, side=say("White")) + " 'b2-c3': "
        + "capture-required — " + say("capture is compulsory: {moves}").format(moves="d4:b6"))
    assert error.endswith(expected_error)
    assert say("No small edit near the error lets the record replay further.") in run.stdout
    assert run.stderr.startswith(words.ngettext("{count} game", "{count} games", 2)
                                 .format(count=2) + ": ")


def test_validate_json_stays_english_whatever_the_language():
    english = _validate("--json", str(SCORESHEET))
    russian = _validate("--json", "--lang", "ru", str(SCORESHEET), lang_env="th_TH.UTF-8")
    assert russian.stdout == english.stdout
    rows = [json.loads(line) for line in english.stdout.splitlines()]
    assert rows[0]["errors"][0]["message"] == "capture is compulsory: d4:b6"


def test_an_unknown_language_is_a_usage_error_naming_those_there_are():
    run = _validate("--lang", "xx", str(SCORESHEET))
    assert run.returncode == 2
    assert "ru" in run.stderr and "th" in run.stderr


def _reports() -> list:
    """The reports of the sample scoresheet with a slip, with suggestions."""
    from replay.validate.reports import validate_sources

    return list(validate_sources([str(SCORESHEET)], suggest=True))


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_arbiters_report_is_in_the_language_its_lang_attribute_names(language):
    from replay.validate.report import TITLE, html_report, markdown_report

    words = catalog(language)
    reports = _reports()
    page = html_report(reports, words)
    assert page.startswith(f'<!DOCTYPE html><html lang="{language}">')
    assert f"<h1>{words.gettext(TITLE)}</h1>" in page
    compulsory = words.gettext("capture is compulsory: {moves}").format(moves="d4:b6")
    assert compulsory in page
    markdown = markdown_report(reports, words)
    assert markdown.startswith(f"# {words.gettext(TITLE)}") and compulsory in markdown
    assert "Validation report" not in page + markdown


def test_a_thai_page_embeds_the_shipped_thai_font_and_no_other_page_does():
    from replay.validate.report import html_report

    reports = _reports()
    assert '@font-face{font-family:"Sarabun";font-weight:700' in html_report(reports,
                                                                            catalog("th"))
    assert "@font-face" not in html_report(reports, catalog("ru"))
    assert "@font-face" not in html_report(reports)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standings_page_is_in_the_language_its_lang_attribute_names(language, archive,
                                                                        shared_data):
    from replay.rules.variant_titles import variant_title
    from replay.tournament import read_event, standings
    from replay.tournament.pages import CROSSTABLE, STANDINGS, standings_html

    words = catalog(language)
    event = read_event(archive(shared_data / "games-checkers/russian/World_Championship_1998.pdn"))
    page = standings_html(standings(event), words=words)
    assert page.startswith(f'<!DOCTYPE html><html lang="{language}">')
    assert f"<h2>{words.gettext(STANDINGS)}</h2>" in page
    assert f"<h2>{words.gettext(CROSSTABLE)}</h2>" in page
    assert variant_title("russian", words) in page
    english = standings_html(standings(event))
    assert english.startswith('<!DOCTYPE html><html lang="en">') and "<h2>Standings</h2>" in english
