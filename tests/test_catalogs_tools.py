"""``pdn index``, ``search``, ``explore`` and ``show`` speak Russian and Thai as the catalogs
say, on a real archive, while what they write as data (PDN, tab-separated rows, JSON, the
database, an opening book, an SVG) and their exit statuses are the same in every language
(the checks of tests/test_catalogs.py)."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path

import pytest
from test_catalogs import TRANSLATED, _english_lines, _english_words, _no_english, _pdn

from pdn.i18n import catalog

EVENT = "games-checkers/russian/World_Championship_1998.pdn"


def _runs(language: str, *args: str) -> list:
    """The command in ``language``, asked by ``--lang`` and by the locale variables."""
    command, rest = args[0], args[1:]
    return [_pdn(command, "--lang", language, *rest),
            _pdn(*args, lang_env=f"{language}_XX.UTF-8")]


def _english(run, *names) -> list[tuple[str, list]]:
    """``_no_english`` of a run, the options a message names (``--ply``) aside."""
    options = [text for line in (run.stdout + run.stderr).splitlines()
               for text in re.findall(r"--[a-z][a-z-]*", line)]
    return _no_english(run, *names, *sorted(set(options), key=len, reverse=True))


def _said(run, *names) -> list[tuple[str, list]]:
    """``_english`` of what a run says on stderr (its stdout is data, left as it is)."""
    return _english(subprocess.CompletedProcess(run.args, run.returncode, "", run.stderr),
                    *names)


@pytest.fixture(scope="module")
def database(tmp_path_factory, shared_data) -> Path:
    """The 1998 world championship indexed (in English: the database is the same in every
    language, as the next test checks)."""
    path = tmp_path_factory.mktemp("index") / "games.sqlite"
    run = _pdn("index", str(shared_data / EVENT), "-o", str(path))
    assert run.returncode == 0, run.stderr
    return path


def _games(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT * FROM games ORDER BY game_id").fetchall()


def _same_output_no_english(language: str, *commands: tuple[str, ...]) -> None:
    """Each ``pdn`` command writes the same stdout with the same exit status in English and
    in ``language`` (by ``--lang`` and by the locale), with no English word on its stderr."""
    for args in commands:
        english = _pdn(*args)
        assert english.returncode == 0 and english.stdout
        for run in _runs(language, *args):
            assert (run.stdout, run.returncode) == (english.stdout, english.returncode)
            assert _english_lines(run.stderr.splitlines()) == []


def _written_in_both(language: str, tmp_path: Path, suffix: str, *args: str
                     ) -> list[tuple[subprocess.CompletedProcess, Path]]:
    """``pdn ARGS FILE`` run in English, then in ``language``, each writing its own file:
    the run and the file written, English first."""
    written = []
    for lang in ("en", language):
        path = tmp_path / f"{lang}{suffix}"
        run = _pdn(*args, str(path), lang_env=f"{lang}_XX.UTF-8")
        assert run.returncode == 0, run.stderr
        written.append((run, path))
    return written


@pytest.mark.parametrize("language", TRANSLATED)
def test_index_sums_up_in_the_users_language_and_writes_the_same_database(
        language, shared_data, tmp_path):
    source = shared_data / EVENT
    english = _pdn("index", str(source), "-o", str(tmp_path / "en.sqlite"))
    assert english.returncode == 0
    assert _no_english(english, source, tmp_path)  # the check finds what is English
    for number, run in enumerate(_runs(language, "index", str(source), "-o",
                                       str(tmp_path / f"{language}.sqlite"))):
        assert run.returncode == 0
        assert _no_english(run, source, tmp_path) == []
        if number == 0:
            say = catalog(language).ngettext
            assert say("{count} game", "{count} games", 460).format(count=460) in run.stderr
            assert say("{count} file", "{count} files", 1).format(count=1) in run.stderr
        else:  # the second run finds the file indexed: a note of its own, in the language
            assert catalog(language).gettext("{file}: already indexed, skipped").format(
                file=source) in run.stderr
    assert _games(tmp_path / f"{language}.sqlite") == _games(tmp_path / "en.sqlite")


@pytest.mark.parametrize("language", TRANSLATED)
def test_search_says_its_count_in_the_users_language_and_writes_the_same_games(
        language, database):
    _same_output_no_english(language, ("search", str(database), "--player", "Guba"),
                            ("search", str(database), "--result", "white", "--format", "table"),
                            ("search", str(database), "--moves", "1.cd4 fg5", "--format", "json"))
    english = _pdn("search", str(database), "--player", "Guba")
    assert "games matched" in english.stderr
    run = _pdn("search", str(database), "--player", "Guba", lang_env=f"{language}_XX.UTF-8")
    matched = english.stderr.split()[0]
    assert run.stderr.strip() == catalog(language).ngettext(
        "{count} game matched", "{count} games matched", int(matched)).format(count=matched)


@pytest.mark.parametrize("language", TRANSLATED)
def test_explore_heads_its_table_in_the_users_language_and_writes_the_same_rows(
        language, database, tmp_path):
    words = catalog(language)
    # piped, the rows are tab-separated data, their header line English
    _same_output_no_english(language, ("explore", str(database)),
                            ("explore", str(database), "--moves", "1.cd4"),
                            ("explore", str(database), "--json"))
    english = _pdn("explore", str(database))
    assert "White to move" in english.stderr
    for run in _runs(language, "explore", str(database)):
        assert words.gettext("White to move, {games}").format(
            games=words.ngettext("{count} game", "{count} games", 460).format(count=460)
        ) in run.stderr
    (_, english_book), (run, book) = _written_in_both(language, tmp_path, ".pdn", "explore",
                                                     str(database), "--book")
    assert _no_english(run, book) == []
    assert str(book) in run.stderr
    text = english_book.read_text(encoding="utf-8")
    assert text == book.read_text(encoding="utf-8") and text.startswith("[")


@pytest.mark.parametrize("language", TRANSLATED)
def test_show_captions_its_diagram_in_the_users_language_and_draws_the_same_board(
        language, shared_data, tmp_path):
    source = shared_data / EVENT
    words = catalog(language)
    for args in (("show", str(source), "--move", "5b"), ("show", str(source), "--game", "3",
                                                         "--ply", "0")):
        english = _pdn(*args)
        assert english.returncode == 0 and _no_english(english, source)
        for run in _runs(language, *args):
            assert run.returncode == 0
            assert _no_english(run, source) == []
            fen = [line for line in run.stdout.splitlines() if line.startswith("FEN ")]
            assert fen == [line for line in english.stdout.splitlines()
                           if line.startswith("FEN ")]
    run = _pdn("show", str(source), "--move", "5b", lang_env=f"{language}_XX.UTF-8")
    assert words.gettext("game {number}").format(number=1) in run.stdout
    assert words.gettext("White to move") in run.stdout
    (_, english_svg), (run, svg) = _written_in_both(language, tmp_path, ".svg", "show",
                                                   str(source), "--svg")
    assert run.stderr.strip() == words.gettext("diagram written to {file}").format(file=svg)
    assert english_svg.read_text(encoding="utf-8") == svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_database_commands_errors_are_in_the_users_language(language, database,
                                                                 shared_data, tmp_path):
    source = shared_data / EVENT
    missing = tmp_path / "missing.sqlite"
    say = catalog(language).gettext
    cases = [(("search", str(missing)), say("{file}: no such database").format(file=missing)),
             (("explore", str(missing)), say("{file}: no such database").format(file=missing)),
             # SQLite's own words explained, themselves in parentheses: data
             (("search", str(source)), say(
                 "{file}: not a game database made by pdn index: {reason}").format(
                     file=source, reason=say("the file is not an SQLite database ({error})")
                     .format(error="file is not a database"))),
             (("search", str(database), "--pattern", "turn=x"), None),
             (("search", str(database), "--pattern", "z9=wm"), None),
             (("explore", str(database), "--moves", "1.cd4", "--position", "W"), None),
             (("explore", str(database), "--position", "W:W99:B1"), None),
             (("index", "-", "-o", str(tmp_path / "x.sqlite")), None),
             (("show",), None),
             (("show", "--fen", "W:W21:B10", "--ply", "2"), None)]
    for args, expected in cases:
        english = _pdn(*args)
        assert english.returncode == 2 and english.stdout == ""
        assert _english_words(english.stderr.replace(str(source), ""), Path("-"))
        for run in _runs(language, *args):
            assert (run.returncode, run.stdout) == (2, "")
            assert _english(run, source, database, missing, "(file is not a database)"
                            ) == [], args
            if expected is not None:
                assert run.stderr.strip() == f"{say('error')}: {expected}"


MATCH = "games-checkers/russian/First_Computers_Match_Moscow_1998.pdn"


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyse_says_its_notes_in_the_users_language_and_annotates_the_same(
        language, shared_data, tmp_path):
    # six games of a real match at depth 2 (the built-in engine), then the same run again:
    # the games already in the output are skipped, said in the language
    from test_catalogs import SCORESHEET

    source = shared_data / MATCH
    outputs = {}
    for lang in ("en", language):
        annotated = tmp_path / f"{lang}.pdn"
        first = _pdn("analyse", "--depth", "2", str(source), "-o", str(annotated),
                     lang_env=f"{lang}_XX.UTF-8")
        again = _pdn("analyse", "--depth", "2", str(source), "-o", str(annotated),
                     lang_env=f"{lang}_XX.UTF-8")
        outputs[lang] = (first.returncode, first.stdout, again.returncode, again.stdout,
                         annotated.read_text(encoding="utf-8"))
        if lang == "en":
            assert _said(again, annotated)  # the check finds what is English
        else:
            assert _said(first, annotated) == [] and _said(again, annotated) == []
            assert again.stderr.strip() == catalog(language).ngettext(
                "{skipped} of {count} game is in {file} already: skipped",
                "{skipped} of {count} games are in {file} already: skipped", 6).format(
                    skipped=6, count=6, file=annotated)
    assert outputs["en"] == outputs[language]
    assert outputs["en"][0] == 0 and "[%eval" in outputs["en"][4]
    # a game that stops replaying is analysed up to its slip, noted in the language
    say = catalog(language).gettext
    sheets = [tmp_path / "sheet-lang.pdn", tmp_path / "sheet-env.pdn"]
    runs = [_pdn("analyse", "--lang", language, "--depth", "2", str(SCORESHEET), "-o",
                 str(sheets[0])),
            _pdn("analyse", "--depth", "2", str(SCORESHEET), "-o", str(sheets[1]),
                 lang_env=f"{language}_XX.UTF-8")]
    for run in runs:
        assert run.returncode == 1
        assert _said(run, SCORESHEET, *sheets) == []
        assert say("analysed up to ply {ply}: {reason}").format(
            ply=2, reason=say("capture is compulsory: {moves}").format(moves="d4:b6")
        ) in run.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_perft_heads_its_table_in_the_users_language_and_counts_the_same(language):
    def counts(run) -> list[list[str]]:
        return [line.split()[:2] for line in run.stdout.splitlines()[1:]]

    english = _pdn("perft", "--depth", "4")
    assert english.returncode == 0
    assert english.stdout.split()[:4] == ["depth", "nodes", "seconds", "nodes/s"]
    for run in _runs(language, "perft", "--depth", "4"):
        assert run.returncode == 0
        assert re.findall(r"depth|nodes|seconds", run.stdout) == []
        assert counts(run) == counts(english) == [["1", "7"], ["2", "49"], ["3", "302"],
                                                  ["4", "1,469"]]
        assert run.stdout.split()[0] == catalog(language).gettext("depth")
    # --divide prints what other move generators print, to be compared: the same lines
    divide = _pdn("perft", "--depth", "3", "--divide")
    for run in _runs(language, "perft", "--depth", "3", "--divide"):
        assert (run.stdout, run.returncode) == (divide.stdout, divide.returncode)
    for run in _runs(language, "perft", "--fen", "X:W1"):
        assert run.returncode == 2 and _english(run) == []
