"""Every message marked for translation has an entry in each catalog, with the same
placeholders (the texts of the desk's script among them), and ``pdn validate`` speaks
Russian and Thai as the catalogs say."""

from __future__ import annotations

import ast
import errno
import html
import json
import os
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


# A record with a slip of the reader in each game: an unknown GameType, a tag that is no tag
# and a Result tag that is no result, a PlyCount that disagrees, a square off the board, a
# comment closed but never opened, a FEN with no side to move, a result written with spaces.
READER_SLIPS = """[Event "Reader slips"]
[White "Ivanov"]
[Black "Petrov"]
[GameType "99"]
[Result "1-0"]
1. c3-d4 f6-g5 2. b2-c3 g5-h4 1-0

[Event "Bad tags"]
[White "A"]
[Black "B"]
[GameType "25"]
[Bad-Name "x"]
[Result "2-1"]
[PlyCount "7"]
1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. 33-28 *

[Event "Move text"]
[White "C"]
[Black "D"]
[GameType "25"]
[Result "*"]
1. c3-d4 } f6-g5 *

[Event "Set-up"]
[White "E"]
[Black "F"]
[GameType "25"]
[Result "0-1"]
[FEN "X:W1"]
1. c3-d4 b6-a5 0-1

[Event "Spelling"]
[White "G"]
[Black "H"]
[GameType "25"]
[Result "0-1"]
1. c3-d4 b6-a5 0 - 1
"""
# English words no line of a translated validation keeps outside its quotes, codes, tag
# names and players (the file's name, a code like 'capture-required' and PDN stay).
_ENGLISH = re.compile(r"\b(the|is|not|at|and|then|move|game|games|tag|result|square|with|of|"
                      r"no|by|as|to|in|on|was|are|from|piece|capture|legal|written|read|wins|"
                      r"draw|rule|after|but|variant|squares|named|first|plies|ply|more|like|"
                      r"error|warning|note|shows|each|unexpected|unknown|type|board|side)\b")


def _english_words(line: str, source: Path) -> list[str]:
    body = line.replace(str(source), "")
    body = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]", "", body)  # quoted values and tags
    body = re.sub(r"\b[a-z]+(?:-[a-z0-9]+)+\b|: [a-z]+ — ", " ", body)  # problem codes
    body = re.sub(r"\([^()]*–[^()]*\)", "", body)  # the players
    body = re.sub(r"\d+ [a-z]+\b", "", body) if "; " in body else body  # the summary's codes
    return _ENGLISH.findall(body)


def _english_lines(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The lines that hold English words, each with them (nothing left means none)."""
    return [(line, found) for line in lines if (found := _english_words(line, Path("-")))]


@pytest.fixture
def reader_slips(tmp_path):
    path = tmp_path / "reader_slips.pdn"
    path.write_text(READER_SLIPS, encoding="utf-8")
    return path


@pytest.mark.parametrize(("how", "language"), [
    ({"lang_env": "ru_RU.UTF-8"}, "ru"), ({"lang_env": ""}, "th"),
])
def test_validate_says_the_readers_errors_in_the_players_language(reader_slips, how, language):
    args = ["-W", "--suggest", str(reader_slips)] + (["--lang", "th"] if language == "th"
                                                     else [])
    run = _validate(*args, **how)
    lines = (run.stdout + run.stderr).splitlines()
    say = catalog(language).gettext
    english = _validate("-W", "--suggest", str(reader_slips))
    assert run.returncode == english.returncode == 1
    assert len(lines) == len((english.stdout + english.stderr).splitlines()) >= 10
    assert all(_english_words(line, reader_slips)  # the check finds what is English
               for line in english.stdout.splitlines())
    assert [(line, words) for line in lines
            if (words := _english_words(line, reader_slips))] == []
    expected = [
        say("{reason}; the tag is ignored").format(reason=say("GameType '{text}': {reason}")
            .format(text="99", reason=say("unknown game type {number}").format(number=99))),
        say("tag [{name} {value}] at {where}: '{name}' is not a tag name").format(
            name="Bad-Name", value="x", where="12:1"),
        say("unexpected '{word}' at {line}:{column}: {reason}").format(
            word="}", line=22, column=10, reason=say("comment closed but none is open")),
        say("bad FEN '{fen}' at column {column}: {reason}").format(
            fen="X:W1", column=1, reason=say("side to move must be W or B, not '{value}'")
            .format(value="X")),
        say("square {square} is not on the board (1-{count})").format(square=33, count=32),
    ]
    assert [text for text in expected if not any(line.endswith(text) for line in lines)] == []


def test_validate_json_codes_and_exit_status_are_the_same_in_every_language(reader_slips):
    for source in (reader_slips, SCORESHEET):
        for args in (["--json", "-W"], ["--json", "--suggest", "--strict"]):
            english = _validate(*args, str(source))
            assert english.stdout
            for language in TRANSLATED:
                by_lang = _validate(*args, "--lang", language, str(source))
                by_env = _validate(*args, str(source), lang_env=f"{language}_XX.UTF-8")
                assert by_lang.stdout == english.stdout == by_env.stdout
                assert by_lang.returncode == english.returncode == by_env.returncode
    rows = [json.loads(line)
            for line in _validate("--json", str(reader_slips)).stdout.splitlines()]
    assert {problem["code"] for row in rows for problem in row["errors"]} == {
        "syntax", "bad-fen", "bad-square"}
    assert rows[3]["errors"][0]["message"] == ("bad FEN 'X:W1' at column 1: side to move must "
                                               "be W or B, not 'X'")


def test_the_sources_mark_the_readers_and_the_replays_messages():
    marked = marked_messages()
    for message in ("unknown game type {number}", "bad FEN '{fen}' at column {column}: {reason}",
                    "tag [{name} {value}] at {where}: '{name}' is not a tag name",
                    "{evidence}: {verdict}", "{first}, and {second}",
                    "the same position for the third time"):
        assert message in marked


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_suggestion_joining_two_slips_is_translated_whole(language):
    from replay.validate.repair_words import Outcome, Slip, both, quoted, suggestion_text, whose

    words = catalog(language)
    missing = Slip("insert", whose("Black", 3), move="3... gh4")
    slip = Slip("replace", whose("White", 4), move="4. cd4", written=quoted("cb4"))
    swap = Slip("swap", both(whose("White", 4), whose("Black", 4)), written=quoted("gh4", "cb4"))
    for slips in ([missing, slip], [swap]):
        text = words.localize(suggestion_text(slips, Outcome(10, 10)))
        assert re.findall(r"\b(and|then|is|are|writing|putting|move|replay)\b", text) == []
    say = words.gettext
    joined = words.localize(suggestion_text([missing, slip], Outcome(10, 10)))
    assert say("{first}, and {second}").format(
        first=say("{who} is missing").format(who=say("Black's {nth} move").format(
            nth=say("{n}rd").format(n=3))),
        second=say("{who} is a slip").format(who=say("White's {nth} move").format(
            nth=say("{n}th").format(n=4)))) in joined


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standings_pages_notes_are_in_its_language(language, archive, shared_data):
    from replay.tournament import read_event, standings
    from replay.tournament.pages import NAME_PAIRS_HEAD, PASTE, standings_html

    words = catalog(language)
    event = read_event(archive(shared_data / "games-checkers/russian/World_Championship_1998.pdn"))
    page = standings_html(standings(event), words=words)
    english = standings_html(standings(event))
    assert NAME_PAIRS_HEAD in english and PASTE in english
    for said in (NAME_PAIRS_HEAD, PASTE):
        assert html.escape(words.gettext(said)) in page
    assert re.findall(r"Probably one player|To count each|fits \d+ players|Incomplete:|"
                      r"Not a whole|Names read as|Results given|tie-break", page) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_reports_diagrams_say_who_is_to_move_in_its_language(language):
    from replay.record.diagram import TO_MOVE
    from replay.validate.report import html_report

    page = html_report(_reports(), catalog(language))
    assert any(catalog(language).gettext(said) in page for said in TO_MOVE)
    assert "to move" not in page
    assert any(said in html_report(_reports()) for said in TO_MOVE)


def _pdn(*args: str, lang_env: str = "") -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "LANG": lang_env, "LC_ALL": "", "LC_MESSAGES": "",
           "COLUMNS": "200"}
    return subprocess.run([str(Path(sys.executable).with_name("pdn")), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)


def _no_english(run: subprocess.CompletedProcess, *names: Path) -> list[tuple[str, list]]:
    """The lines of a run's stdout and stderr that keep English words, the files named on
    its command line aside."""
    found = []
    for line in (run.stdout + run.stderr).splitlines():
        for name in names:
            line = line.replace(str(name), "")
        if words := _english_words(line, Path("-")):
            found.append((line, words))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_command_lines_own_errors_are_in_the_users_language(language, tmp_path):
    # a file that does not exist, an empty file, a bad option value, an empty folder
    missing, empty, folder = tmp_path / "missing.pdn", tmp_path / "empty.pdn", tmp_path / "d"
    empty.write_text("", encoding="utf-8")
    folder.mkdir()
    say = catalog(language).gettext
    cases = [(("cat", str(missing)), say("{name}: no such file or directory").format(
                 name=missing), 2),
             (("info", str(empty)), say("{name}: no games: {reason}").format(
                 name=empty, reason=say("the file is empty")), 2),
             (("convert", "--format", "xx", str(SCORESHEET)), None, 2),
             (("validate", "--report", "r.txt", str(SCORESHEET)), None, 2),
             (("info", str(folder)), None, 0)]
    for args, expected, status in cases:
        english = _pdn(*args)
        run = _pdn(*args, lang_env=f"{language}_XX.UTF-8")
        assert english.returncode == run.returncode == status
        assert _english_words(english.stderr.replace(str(folder), ""), Path("-"))
        assert _no_english(run, missing, empty, folder, SCORESHEET) == []
        if expected is not None:
            assert run.stderr.strip() == f"{say('error')}: {expected}"
    # --lang, where the command has it, before the locale variables
    run = _pdn("standings", "--lang", language, str(missing), lang_env="en_GB.UTF-8")
    assert run.returncode == 2 and _no_english(run, missing) == []


def test_clicks_own_usage_errors_and_help_stay_english():
    run = _pdn("cat", "--no-such-option", lang_env="ru_RU.UTF-8")
    assert run.returncode == 2
    assert run.stderr.startswith("error: no such option")
    assert "Print the games of PATHS" in _pdn("cat", "--help", lang_env="th_TH.UTF-8").stdout


@pytest.mark.parametrize("language", TRANSLATED)
def test_info_convert_and_cat_say_what_is_wrong_in_the_users_language(language,
                                                                      reader_slips):
    env = f"{language}_XX.UTF-8"
    for args in (("info", str(reader_slips)), ("convert", str(SCORESHEET), str(reader_slips)),
                 ("cat", str(reader_slips)), ("info", "--verbose", str(reader_slips)),
                 ("filter", "--result", "1-0", str(reader_slips)),
                 ("dedupe", str(reader_slips), str(reader_slips)),
                 ("merge", str(reader_slips), str(SCORESHEET))):
        english = _pdn(*args)
        run = _pdn(*args, lang_env=env)
        assert run.returncode == english.returncode == 1
        assert len(run.stderr.splitlines()) == len(english.stderr.splitlines())
        if args[0] != "info":  # the others write PDN on stdout: data, left as it is
            english.stdout = run.stdout = ""
        assert _no_english(english, reader_slips, SCORESHEET)  # the check finds English
        assert _no_english(run, reader_slips, SCORESHEET) == []
    say = catalog(language).gettext
    info = _pdn("info", str(reader_slips), lang_env=env).stdout
    assert say("comment closed but none is open") in info
    assert catalog(language).ngettext("{count} game", "{count} games", 5).format(count=5) in info
    converted = _pdn("convert", str(SCORESHEET), lang_env=env).stderr
    assert say("capture is compulsory: {moves}").format(moves="d4:b6") in converted


def test_data_outputs_and_exit_statuses_are_the_same_in_every_language(reader_slips):
    for args in (("cat", str(reader_slips)), ("convert", str(SCORESHEET), str(reader_slips)),
                 ("filter", "--result", "1-0", str(reader_slips)),
                 ("dedupe", str(reader_slips), str(reader_slips)),
                 ("convert", "--json", str(reader_slips)), ("info", "--json", str(reader_slips)),
                 ("convert", "--format", "text", str(SCORESHEET))):
        english = _pdn(*args)
        assert english.stdout
        for language in TRANSLATED:
            run = _pdn(*args, lang_env=f"{language}_XX.UTF-8")
            assert (run.stdout, run.returncode) == (english.stdout, english.returncode)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standings_table_on_the_terminal_is_in_the_language(language, shared_data):
    from replay.rules.variant_titles import variant_title

    event = shared_data / "games-checkers/russian/World_Championship_1998.pdn"
    words = catalog(language)
    english = _pdn("standings", str(event))
    for run in (_pdn("standings", "--lang", language, str(event)),
                _pdn("standings", str(event), lang_env=f"{language}_XX.UTF-8")):
        assert run.returncode == english.returncode
        table = run.stdout.split("└")[0]  # the standings, before the event report
        assert words.gettext("Player") in table and variant_title("russian", words) in table
        assert re.findall(r"\b(Player|Pts|round robin|Wins|Direct)\b", table) == []
    assert "Player" in english.stdout and "Pts" in english.stdout


@pytest.mark.parametrize("language", TRANSLATED)
def test_split_sums_up_in_the_users_language(language, reader_slips, tmp_path):
    english = _pdn("split", str(reader_slips), "-o", str(tmp_path / "en"))
    run = _pdn("split", str(reader_slips), "-o", str(tmp_path / language),
               lang_env=f"{language}_XX.UTF-8")
    assert run.returncode == english.returncode == 1
    assert _no_english(english, reader_slips, tmp_path / "en")
    assert _no_english(run, reader_slips, tmp_path / language) == []
    assert sorted(p.name for p in (tmp_path / language).iterdir()) == sorted(
        p.name for p in (tmp_path / "en").iterdir())


def test_a_runs_lang_does_not_carry_over_to_the_next_run_in_one_process(monkeypatch, tmp_path):
    from pdn.cli.app import app
    from typer.testing import CliRunner

    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    missing = str(tmp_path / "missing.pdn")
    runner = CliRunner()
    russian = runner.invoke(app, ["validate", "--lang", "ru", missing])
    english = runner.invoke(app, ["cat", missing])
    assert russian.exit_code == english.exit_code == 2
    assert russian.output.startswith("ошибка: ") and "нет такого файла" in russian.output
    assert english.output == f"error: {missing}: no such file or directory\n"


def test_an_error_the_catalog_does_not_hold_whole_stays_english_never_half_translated(
        tmp_path):
    # "{file}: cannot open: {reason}" is an entry; the reason the system gives for a link
    # to itself (ELOOP) is none
    loop = tmp_path / "loop.pdn"
    loop.symlink_to(loop)
    run = _pdn("show", str(loop), lang_env="ru_RU.UTF-8")
    assert run.returncode == 2
    assert run.stderr.strip() == (f"ошибка: {loop}: cannot open: "
                                  f"{os.strerror(errno.ELOOP)}")


# A knockout of micro-matches of two games with a tie-break, its players in teams, and a
# time control read and one not read.
KNOCKOUT_WITH_TEAMS = "".join(
    f'[White "{w}"][Black "{b}"][Round "{r}"][Result "{res}"][TimeControl "{tc}"] 1. 32-28 *\n'
    for w, b, r, res, tc in (
        ("Ann", "Bob", "1.1", "2-0", "40/7200:3600"), ("Bob", "Ann", "1.2", "1-1", "*300"),
        ("Cas", "Dan", "1.1", "1-1", "40/7200:3600"), ("Dan", "Cas", "1.2", "1-1", "60+5"),
        ("Cas", "Dan", "1.3", "1-1", "40/7200:3600"), ("Dan", "Cas", "1.4", "0-2", "3600:30/60"),
        ("Ann", "Cas", "2.1", "1-1", "-"), ("Cas", "Ann", "2.2", "2-0", "?")))


def _event_report_runs(shared_data: Path, tmp_path: Path) -> list[tuple[str, ...]]:
    """``pdn standings`` runs whose event report has micro-matches and the arbiter's checks
    (the 1998 championship, its ballots checked), flag falls, time controls, knockout and
    teams."""
    knockout, teams = tmp_path / "knockout.pdn", tmp_path / "teams.txt"
    knockout.write_text(KNOCKOUT_WITH_TEAMS, encoding="utf-8")
    teams.write_text("Ann = North\nBob = North\nCas = South\nDan = South\n", encoding="utf-8")
    same = ["--same", "Goryunov=Gorunov", "--same", "Skrabov=Scrabov",
            "--same", "Mokrovich=Mocrovich"]
    brunogui = shared_data / "international" / "brunogui"
    return [("standings", str(shared_data / "games-checkers/russian/World_Championship_1998.pdn"),
             *same, "--ballots"),
            ("standings", str(brunogui / "World Title Match Women 2024.pdn")),
            ("standings", str(brunogui / "ChapionnatSurinam2025.pdn")),
            ("standings", str(knockout), "--knockout", "--micro-match", "2", "--team",
             str(teams))]


def _report_part(output: str) -> list[str]:
    """The lines of ``pdn standings``' output after the standings table, but the rows of
    the report's tables (names and scores: data)."""
    lines = output.split("└", 1)[1].splitlines()[1:]
    return [line for line in lines if not line.startswith(("│", "┏", "┡", "└"))]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_event_reports_tables_and_checks_on_the_terminal_are_in_the_language(
        language, shared_data, tmp_path):
    say = catalog(language).gettext
    for args in _event_report_runs(shared_data, tmp_path):
        english = _pdn(*args)
        for run in (_pdn(*args[:2], "--lang", language, *args[2:]),
                    _pdn(*args, lang_env=f"{language}_XX.UTF-8")):
            assert run.returncode == english.returncode
            prose = _report_part(run.stdout)
            assert prose and _report_part(english.stdout)
            assert _english_lines(prose) == []
            assert re.findall(r"Micro-matches|Knockout|Teams|Time controls|Arbiter|Ballots|"
                              r"Round|Opponent|Read as|flag fell|micro-match|min to the end",
                              "\n".join(_report_part(run.stdout))) == []
    english = "\n".join(_report_part(_pdn(*_event_report_runs(shared_data, tmp_path)[0])
                                     .stdout))
    assert _english_words(english, Path("-"))  # the check finds English
    assert "Arbiter's checks: 209 break(s) of the micro-match rules" in english
    russian = _pdn(*_event_report_runs(shared_data, tmp_path)[0], lang_env="ru_RU.UTF-8").stdout
    assert "209 нарушений правил микроматча" in russian
    assert "5 микроматчей нет в файле" in russian
    assert say("Micro-matches") in _pdn(*_event_report_runs(shared_data, tmp_path)[0],
                                        "--lang", language).stdout


def test_the_event_reports_data_and_exit_status_are_the_same_in_every_language(shared_data,
                                                                              tmp_path):
    for args in _event_report_runs(shared_data, tmp_path):
        outputs = {}
        for language in ("en", *TRANSLATED):
            document = tmp_path / f"{language}.json"
            run = _pdn(*args, "-o", str(document), lang_env=f"{language}_XX.UTF-8")
            outputs[language] = (run.returncode, document.read_text(encoding="utf-8"))
        assert outputs["ru"] == outputs["en"] == outputs["th"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyses_refusals_of_its_options_are_in_the_users_language(language):
    say = catalog(language).gettext
    cases = [(("--depth", "1", "--movetime", "1"), say("give --depth or --movetime, not both")),
             (("--json",), say("--json writes the rows on stdout: give the annotated games a "
                               "file with -o")),
             (("--blunder", "1", "--mistake", "2"), say(
                 "--blunder ({blunder}) must be at least --mistake ({mistake})").format(
                     blunder=1, mistake=2))]
    for args, expected in cases:
        english = _pdn("analyse", *args, str(SCORESHEET))
        run = _pdn("analyse", *args, str(SCORESHEET), lang_env=f"{language}_XX.UTF-8")
        assert english.returncode == run.returncode == 2
        assert english.stdout == run.stdout == ""
        assert _english_words(english.stderr, Path("-"))
        assert run.stderr.strip() == f"{say('error')}: {expected}"
        assert _no_english(run, SCORESHEET) == []
