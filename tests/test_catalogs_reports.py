"""The standings page's event report, the notes on names probably of one player, ``pdn
stats``' headings and lines on stderr and ``pdn clean``'s list of changes speak Russian and
Thai as the catalogs say, on real archives; what they write as data, and their exit
statuses, are the same in every language."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_catalogs import (
    ROOT,
    TRANSLATED,
    _english_lines,
    _english_words,
    _event_report_runs,
    _no_english,
    _pdn,
)

from pdn.i18n import catalog

WC1998 = Path("games-checkers/russian/World_Championship_1998.pdn")
TINSLEY = Path("english/tinsley.pdn")  # 2 games the reader gives up on, GameType missing
TABLES = "games, moves, players, openings, summary"  # the values of pdn stats --table
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _page_lines(page: str) -> list[str]:
    """The text of a page's body, a line per element."""
    body = re.sub(r"<style>.*?</style>", "", page[page.index("<body>"):], flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", "\n", body))
    return [line.strip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standings_pages_event_report_is_in_the_pages_language(language, shared_data,
                                                                   tmp_path):
    from replay.tournament.report_pages import (
        CHECKS,
        FIRST_NOTE,
        KNOCKOUT,
        MICRO_MATCHES,
        TEAM_MATCHES,
        TIME_CONTROLS,
    )

    say = catalog(language).gettext
    seen = ""
    for args in _event_report_runs(shared_data, tmp_path):
        english_page, page = tmp_path / "en.html", tmp_path / f"{language}.html"
        english = _pdn(*args, "-o", str(english_page))
        run = _pdn(*args[:2], "--lang", language, *args[2:], "-o", str(page))
        assert run.returncode == english.returncode
        shown = page.read_text(encoding="utf-8")
        assert shown.startswith(f'<!DOCTYPE html><html lang="{language}">')
        english_lines = _page_lines(english_page.read_text(encoding="utf-8"))
        assert _english_lines(english_lines)  # the check finds what is English
        assert _english_lines(_page_lines(shown)) == []
        assert re.findall(r"Micro-matches|Knockout|Teams|Time controls|Arbiter|Ballots|Round|"
                          r"Opponent|Read as|flag fell|Flag falls|Match pts|Board pts|never met",
                          "\n".join(_page_lines(shown))) == []
        seen += shown
    for heading in (MICRO_MATCHES, CHECKS, KNOCKOUT, TEAM_MATCHES, TIME_CONTROLS):
        assert f"{html.escape(say(heading))}</h" in seen
    assert html.escape(say(FIRST_NOTE)) in seen


def test_the_standings_pages_english_report_reads_as_before(shared_data, tmp_path):
    args = _event_report_runs(shared_data, tmp_path)[3]  # knockout, teams, time controls
    page = tmp_path / "en.html"
    assert _pdn(*args, "-o", str(page)).returncode == 0
    text = "\n".join(_page_lines(page.read_text(encoding="utf-8")))
    for said in ("4 micro-matches of 2 games · a won micro-match 2 points, drawn 1, lost 0",
                 "Standings by micro-matches", "Arbiter's checks", "Team matches",
                 "Scheveningen: North against South", "Match pts\nGame pts\nMatches",
                 "game 6: TimeControl '3600:30/60'"):
        assert said in text


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_notes_on_names_of_one_player_are_in_the_language(language, shared_data,
                                                              tmp_path):
    from replay.tournament.spellings import APART_IN_ROUNDS, TRANSLITERATED

    source = shared_data / WC1998
    say = catalog(language).gettext
    english = _pdn("standings", str(source))
    run = _pdn("standings", "--lang", language, str(source))
    written = _pdn("standings", "--lang", language, str(source), "-o",
                   str(tmp_path / "table.csv"))  # said on stderr then
    notes = [line for line in (run.stdout + written.stderr).splitlines() if " ~ " in line]
    assert len(notes) == 2 * 3  # the pairs under the table, and on stderr
    assert [line for line in (english.stdout + english.stderr).splitlines()
            if " ~ " in line and _english_words(line, Path("-"))]
    assert _english_lines(notes) == []
    goryunov = next(line for line in notes if line.strip().startswith("Goryunov"))
    assert say(TRANSLITERATED) in goryunov
    assert say(APART_IN_ROUNDS).format(first="1-2", second="3-10, 12-15") in goryunov
    assert catalog(language).ngettext("{count} game", "{count} games", 8).format(
        count=8) in goryunov


def test_the_name_pairs_data_stays_english_in_every_language(shared_data, tmp_path):
    pairs = {}
    for language in ("en", *TRANSLATED):
        document = tmp_path / f"{language}.json"
        run = _pdn("standings", str(shared_data / WC1998), "-o", str(document),
                   lang_env=f"{language}_XX.UTF-8")
        pairs[language] = (run.returncode, json.loads(document.read_text())["name_pairs"])
    assert pairs["ru"] == pairs["en"] == pairs["th"]
    assert pairs["en"][1][0]["text"].startswith(
        "Goryunov (8 games) ~ Gorunov (48 games): yu/u, the same name transliterated two ways")


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_thai_w_column_and_wins_tie_break_differ(language):
    from replay.tournament.pages import HEADS, TIEBREAK_TITLES

    say = catalog(language).gettext
    assert say(HEADS[3]) != say(TIEBREAK_TITLES["wins"])  # W (games won) and Wins


def _stats(*args: str, language: str = "", terminal: bool = False):
    """``pdn stats`` piped, or as a terminal shows it (rich's FORCE_COLOR)."""
    if not terminal:
        return _pdn("stats", *args, lang_env=f"{language}_XX.UTF-8" if language else "")
    env = {"PATH": "/usr/bin:/bin", "LANG": f"{language}_XX.UTF-8" if language else "",
           "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": "200", "FORCE_COLOR": "1"}
    return subprocess.run([str(Path(sys.executable).with_name("pdn")), "stats", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, check=False)


@pytest.mark.parametrize("language", TRANSLATED)
def test_stats_says_its_headings_and_stderr_lines_in_the_language(language, shared_data,
                                                                  tmp_path):
    wc1998, tinsley = shared_data / WC1998, shared_data / TINSLEY
    words = catalog(language)
    for args in (("-t", "players", str(wc1998)), ("-t", "summary", str(tinsley)),
                 ("-t", "games", "-o", str(tmp_path / "{}.csv"), str(tinsley))):
        english = _stats(*(a.format("en") for a in args))
        run = _stats(*(a.format(language) for a in args), language=language)
        assert run.returncode == english.returncode
        assert run.stdout == english.stdout  # the table piped: tab-separated data
        english.stdout = run.stdout = ""
        assert _no_english(english, wc1998, tinsley, tmp_path)  # the check finds English
        assert _no_english(run, wc1998, tinsley, tmp_path) == []
    assert (tmp_path / f"{language}.csv").read_bytes() == (tmp_path / "en.csv").read_bytes()
    broken = _stats("-t", "summary", str(tinsley), language=language)
    assert broken.returncode == 1
    assert words.gettext("games that do not replay: {counts}").format(
        counts=words.ngettext("{count} invalid", "{count} invalid", 1).format(count=1) + ", "
        + words.ngettext("{count} unreadable", "{count} unreadable", 2).format(count=2)
    ) in broken.stderr.splitlines()


@pytest.mark.parametrize("language", TRANSLATED)
def test_stats_terminal_table_titles_are_in_the_language(language, shared_data):
    source = shared_data / WC1998
    words = catalog(language)
    english = _ANSI.sub("", _stats("-t", "players", str(source), terminal=True).stdout)
    shown = _ANSI.sub("", _stats("-t", "players", str(source), language=language,
                                 terminal=True).stdout)
    head, english_head = shown.split("┏")[0], english.split("┏")[0]
    assert "19 rows" in english_head and "results: draw 390" in english_head
    assert _english_words(english_head, Path("-"))
    assert _english_words(head, Path("-")) == []
    assert words.ngettext("{table} (first {shown} of {count} row)",
                          "{table} (first {shown} of {count} rows)", 19).format(
        table=words.gettext("players"), shown=19, count=19) in head
    # the column names are the data's, as --json and -o write them
    assert shown.split("┏")[1].split("┡")[0] == english.split("┏")[1].split("┡")[0]


@pytest.mark.parametrize("language", TRANSLATED)
def test_clean_lists_its_changes_in_the_language(language, shared_data, tmp_path):
    say = catalog(language).gettext
    for source, options in ((shared_data / WC1998, ()),
                            (shared_data / TINSLEY, ("--fix-results", "--notation", "short"))):
        english = _pdn("clean", *options, str(source), "-o", str(tmp_path / "en.pdn"))
        run = _pdn("clean", *options, str(source), "-o", str(tmp_path / f"{language}.pdn"),
                   "--changes", str(tmp_path / "changes.txt"), lang_env=f"{language}_XX.UTF-8")
        shown = _pdn("clean", *options, str(source), "-o", str(tmp_path / "x.pdn"),
                     lang_env=f"{language}_XX.UTF-8")
        assert run.returncode == english.returncode == shown.returncode
        assert (tmp_path / f"{language}.pdn").read_bytes() == (tmp_path / "en.pdn").read_bytes()
        listed = (tmp_path / "changes.txt").read_text(encoding="utf-8").splitlines()
        changes = re.search(r": ([\d,]+) changes? in ", english.stderr)[1].replace(",", "")
        assert len(listed) == int(changes) >= 100
        assert _no_english(english, source)  # the check finds English
        assert _no_english(shown, source) == []
        assert [line for line in listed if _english_words(line.replace(str(source), ""),
                                                          Path("-"))] == []
    assert say("{where}: game {number}: {reason}").format(
        where=f"{shared_data / WC1998}:1", number=1, reason="GameType '25' → '25,W,8,8,A0,0'"
    ) in _pdn("clean", str(shared_data / WC1998), "-o", str(tmp_path / "y.pdn"),
              lang_env=f"{language}_XX.UTF-8").stderr.splitlines()


def test_clean_writes_a_line_number_as_it_is_not_as_an_emoji(shared_data, tmp_path):
    # rich read ":100:" in "tinsley.pdn:100: game 10" as the emoji code of 💯
    run = _pdn("clean", str(shared_data / TINSLEY), "-o", str(tmp_path / "out.pdn"))
    assert f"{shared_data / TINSLEY}:100: game 10: " in run.stderr
    assert "💯" not in run.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_stats_refuses_its_options_in_the_language(language, shared_data):
    source = shared_data / TINSLEY
    say = catalog(language).gettext
    cases = [(("-t", "xx"), say("--table must be one of {choices}, not '{value}'").format(
                 choices=TABLES, value="xx")),
             (("--plot", "a.gif"), say("--plot must end in .png or .svg, not '{value}'")
              .format(value=".gif")),
             (("-o", "a.txt"), None)]
    for args, expected in cases:
        english = _pdn("stats", *args, str(source))
        run = _pdn("stats", *args, str(source), lang_env=f"{language}_XX.UTF-8")
        assert english.returncode == run.returncode == 2
        assert _english_words(english.stderr, Path("-"))
        assert _no_english(run, source, TABLES) == []  # the --table values are names
        if expected is not None:
            assert run.stderr.strip() == f"{say('error')}: {expected}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_standings_errors_are_in_the_users_language(language, shared_data, tmp_path):
    """An event no game matches, a --same that is no NAME=PLAYER, a teams file that is not
    UTF-8 or not there: said in the language, with the exit status of English."""
    source = shared_data / TINSLEY
    latin1 = tmp_path / "teams.txt"
    latin1.write_bytes("Équipe: A\n".encode("latin-1"))
    words = catalog(language)
    cases = [(("--event", "no such event"),
              words.gettext("no game of an event matching '{event}'").format(
                  event="no such event")),
             (("--same", "Tinsley"),
              words.gettext("--same '{text}' is not NAME=PLAYER").format(text="Tinsley")),
             (("--team", str(latin1)),
              words.gettext("{file}: not UTF-8 text (byte {byte})").format(file=latin1,
                                                                           byte=0)),
             (("--team", str(tmp_path / "none.txt")),
              words.gettext("{file}: cannot read: {reason}").format(
                  file=tmp_path / "none.txt", reason=words.gettext(
                      "No such file or directory")))]
    for options, said in cases:
        english = _pdn("standings", str(source), *options)
        assert english.returncode == 2, english.stderr
        run = _pdn("standings", str(source), *options, lang_env=f"{language}_XX.UTF-8")
        assert run.returncode == english.returncode
        assert said in run.stderr, (said, run.stderr)
        assert _no_english(run, source, latin1, tmp_path / "none.txt") == []
