"""The command line's surface: repeated notes summed up, tables that fit a terminal (TSV when
piped), ``-`` and folders on every command that reads records, plain help, one error style,
one number style."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.app import app

GAME = '[Event "e"]\n1. 11-15 23-19 2. 8-11 22-17 1/2-1/2\n\n'
LOST = '[Event "x"]\n[GameType "25"]\n1. c3-d4 - 2. - - 1-0\n\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def untagged(tmp_path: Path) -> Path:
    """Five games without a GameType: each gets a variant-inferred note."""
    path = tmp_path / "untagged.pdn"
    path.write_text(GAME * 5)
    return path


# ---- 4: floods ------------------------------------------------------------------------------


def test_validate_sums_up_a_note_repeated_in_a_file(runner, untagged):
    result = runner.invoke(app, ["validate", str(untagged), "-W"])
    lines = result.stdout.splitlines()
    assert sum("variant-inferred —" in line for line in lines) == 1
    assert f"{untagged}: … and 4 more variant-inferred notes like it" in result.stdout
    verbose = runner.invoke(app, ["validate", str(untagged), "-W", "--verbose"]).stdout
    assert sum("variant-inferred —" in line for line in verbose.splitlines()) == 5
    assert "more variant-inferred" not in verbose
    reports = [json.loads(line) for line in
               runner.invoke(app, ["validate", str(untagged), "--json"]).stdout.splitlines()]
    assert [report["notes"][0]["code"] for report in reports] == ["variant-inferred"] * 5


def test_validate_shows_every_warning_that_is_a_finding(runner, tmp_path):
    # one lost-moves warning in each of three games: a finding per game, none summed up
    path = tmp_path / "lost.pdn"
    path.write_text(LOST * 3)
    result = runner.invoke(app, ["validate", str(path), "-W"])
    assert sum("lost-moves" in line for line in result.stdout.splitlines()) == 3


def test_info_says_reading_problems_and_sums_up_a_kind_repeated_in_a_game(runner, tmp_path):
    path = tmp_path / "lost.pdn"
    path.write_text(LOST * 2)
    text = runner.invoke(app, ["info", str(path)]).stdout
    assert "errors" not in text
    assert "reading problems: 6 in 2 games" in text
    assert "pdn validate says which games are invalid or incomplete" in text
    assert sum("lost-move —" in line for line in text.splitlines()) == 2
    assert "    game 1: … and 2 more lost-move problems like it" in text
    verbose = runner.invoke(app, ["info", str(path), "--verbose"]).stdout
    assert sum("lost-move —" in line for line in verbose.splitlines()) == 6
    summary = json.loads(runner.invoke(app, ["info", "--json", str(path)]).stdout)
    assert len(summary["errors"]) == 6


# ---- 5: tables ------------------------------------------------------------------------------


def _players_frame():
    import pandas as pd

    games = pd.DataFrame({"file": ["a.pdn"] * 2, "result": ["draw", "white"],
                          "status": ["valid", "valid"]})
    players = pd.DataFrame({
        "player": ["Tinsley, M.F.", "Chinook (a program of the University of Alberta)"],
        "games": [1234, 2], "wins": [1, 0], "draws": [1, 2], "losses": [0, 0],
        "score_pct": [75.0, 50.0], "first_year": [1950, 1990], "last_year": [1994, 1994],
        "events": ["World Championship Match, London 1992; " * 3, "x"]})
    return games, players


def test_stats_table_fits_a_terminal_and_cuts_long_cells(tmp_path):
    from pdn.cli.stats import show_table
    from rich.console import Console

    games, players = _players_frame()
    screen = io.StringIO()
    show_table(games, players, "players", Console(file=screen, width=80, force_terminal=True,
                                             color_system=None))
    lines = screen.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    rows = [line for line in lines if "Tinsley" in line or ", M.F." in line]
    assert len(rows) == 1 and "Tinsley, M.F." in rows[0]  # a name is never split over lines
    assert any("Chinook (a" in line and "…" in line for line in lines)
    title = " ".join(screen.getvalue().split())
    assert "2 columns not shown (last_year, events): --json or -o players.csv" in title
    assert "1,234 games" not in screen.getvalue()  # the headline counts games, not a cell


@pytest.mark.parametrize("width", [80, 140])
def test_stats_summary_names_each_file_and_keeps_the_results_on_a_terminal(tmp_path, width):
    """Files deep in a folder: each row shows what differs (the file's name), the folder
    once in the title; at 80 columns the result columns stay, the averages go first."""
    from pdn.cli.stats import show_table
    from rich.console import Console

    from replay import stats_tables

    folder = tmp_path / "a long folder name" / "of the archives" / "russian"
    (folder / "sub").mkdir(parents=True)
    (folder / "wc1998.pdn").write_text(GAME.replace('"e"', '"World Championship 1998"'))
    (folder / "sub" / "sssr1968.pdn").write_text(GAME.replace("1/2-1/2", "1-0"))
    tables = stats_tables([str(folder / "wc1998.pdn"), str(folder / "sub" / "sssr1968.pdn")])
    screen = io.StringIO()
    show_table(tables.games, tables.table("summary"), "summary",
               Console(file=screen, width=width, force_terminal=True, color_system=None))
    text = screen.getvalue()
    assert all(len(line) <= width for line in text.splitlines())
    rows = [line for line in text.splitlines() if line.startswith("│")]
    assert [row.split("│")[1].strip() for row in rows] == ["wc1998.pdn", "sub/sssr1968.pdn"]
    header = next(line for line in text.splitlines() if line.startswith("┃"))
    assert all(name in header for name in ("games", "white", "black", "draw")), header
    assert "files in " + str(tmp_path / "a long folder name") in " ".join(text.split())


def test_stats_table_piped_is_tab_separated_with_a_header():
    from pdn.cli.stats import show_table
    from rich.console import Console

    games, players = _players_frame()
    piped = io.StringIO()
    show_table(games, players, "players", Console(file=piped, force_terminal=False))
    lines = piped.getvalue().splitlines()
    assert lines[0].split("\t")[:3] == ["player", "games", "wins"]
    assert lines[1].split("\t")[:2] == ["Tinsley, M.F.", "1234"]
    assert len(lines) == 3 and not re.search("[│┃━─]", piped.getvalue())


# ---- 6: the surface -------------------------------------------------------------------------


def test_cat_show_and_view_read_standard_input(runner, tmp_path):
    assert "11-15" in runner.invoke(app, ["cat", "-"], input=GAME).stdout
    shown = runner.invoke(app, ["show", "-"], input=GAME)
    assert shown.exit_code == 0 and "FEN" in shown.stdout
    page = tmp_path / "v.html"
    viewed = runner.invoke(app, ["view", "-", "-o", str(page)], input=GAME * 2)
    assert viewed.exit_code == 0 and "viewer of 2 games" in viewed.stderr


def test_cat_show_and_view_read_folders(runner, tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "a.pdn").write_text(GAME)
    (folder / "b.pdn").write_text(GAME.replace('"e"', '"second"'))
    text = runner.invoke(app, ["cat", str(folder)]).stdout
    assert '[Event "e"]' in text and '[Event "second"]' in text
    shown = runner.invoke(app, ["show", str(folder), "--game", "2"])
    assert shown.exit_code == 0 and "(second), game 2" in shown.stdout
    viewed = runner.invoke(app, ["view", str(folder), "-o", str(tmp_path / "v.html")])
    assert viewed.exit_code == 0 and "viewer of 2 games" in viewed.stderr
    missing = runner.invoke(app, ["show", str(folder), "--game", "3"])
    assert missing.exit_code == 2 and "hold 2 games, so there is no game 3" in missing.stderr


@pytest.mark.parametrize("command", ["", "cat", "filter", "validate", "stats", "show",
                                     "search", "index", "perft", "moves", "clean"])
def test_help_names_values_not_types(runner, command):
    text = runner.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "200"}).stdout
    assert not re.search(r"<(bool|str|int|path|list|float)[^>]*>", text), text


def test_pdn_alone_prints_the_help_and_no_empty_error_line(runner):
    result = runner.invoke(app, [])
    assert "Usage: pdn" in result.stdout and "validate" in result.stdout
    assert result.exit_code == 2 and result.stderr == "", result.stderr


@pytest.mark.parametrize("command", ["standings", "dedupe", "clean", "match", ""])
def test_help_paragraphs_are_wrapped_to_the_terminal_not_where_the_source_breaks(
        runner, command):
    """A docstring's line breaks are not the terminal's: at 80 columns no line of the help
    holds a lone word left over from a source line (``games,`` / ``the``)."""
    text = runner.invoke(app, [*command.split(), "--help"], env={"COLUMNS": "80"}).stdout
    lines = [line.strip(" │") for line in text.split("╭─ Options")[0].splitlines()]
    if command:
        first = {"standings": "Points in", "dedupe": "Remove duplicate", "clean": "Normalise",
                 "match": "Play a match"}[command]
        paragraph = text[text.index(first):].split("\n \n")[0]
        assert all(len(line) > 60 for line in paragraph.splitlines()[:-1]), paragraph
    else:  # the commands' list: wide enough, each command's summary is one line
        wide = runner.invoke(app, ["--help"], env={"COLUMNS": "400"}).stdout
        for name, end in (("dedupe", "copy of each."), ("clean", "report every change."),
                          ("match", "(docs/engines-dxp.md).")):
            row = next(line for line in wide.splitlines() if line.startswith(f"│ {name} "))
            assert row.rstrip(" │").endswith(end), row
    assert not any(re.fullmatch(r"\w+[,.]?", line) for line in lines), text


def test_stats_help_says_what_a_pipe_gets(runner):
    text = " ".join(runner.invoke(app, ["stats", "--help"], env={"COLUMNS": "200"}
                                  ).stdout.split())
    assert "piped or redirected, the whole table as tab-separated values" in text
    assert "Without -o the first rows are shown" not in text


def test_usage_errors_are_error_lines(runner):
    for args in (["cat"], ["cat", "x.pdn", "--game", "0"], ["nonsense"],
                 ["validate", "--bogus", "x"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2
        assert result.stderr.startswith("error: ") and "╭" not in result.stderr, result.stderr


def test_counts_say_one_game_and_no_rate_without_moves(runner, tmp_path):
    one = tmp_path / "one.pdn"
    one.write_text('[Event "e"]\n[GameType "21"]\n*\n\n')
    line = runner.invoke(app, ["validate", str(one)]).stderr
    assert line.startswith("1 game: ") and "0 moves checked" in line and "moves/s" not in line
    split = runner.invoke(app, ["split", str(one), "-o", str(tmp_path / "out")]).stderr
    assert "1 game into 1 file in" in split


def test_numbers_have_thousands_separators_in_a_summary(runner, tmp_path):
    many = tmp_path / "many.pdn"
    many.write_text('[Event "e"]\n[GameType "21"]\n1. 11-15 *\n\n' * 1001)
    line = runner.invoke(app, ["validate", str(many)]).stderr
    assert line.startswith("1,001 games: 1,001 valid; 1,001 moves checked"), line
    assert "1,001 undetermined" in line


def test_search_table_names_files_as_given(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("games.pdn").write_text(GAME)
    assert runner.invoke(app, ["index", "games.pdn", "-o", "games.db"]).exit_code == 0
    table = runner.invoke(app, ["search", "games.db", "--format", "table"]).stdout
    assert table.splitlines()[1].split("\t")[1] == "games.pdn"


def test_merge_promises_what_it_does_the_games_as_written(runner, tmp_path):
    """merge copies each game's text as written: its help says so, not "PDN 3.0"."""
    source = tmp_path / "a.pdn"
    source.write_text('[Event "e"]\n1. 11-15 23-19 *\n\n')
    merged = runner.invoke(app, ["merge", str(source)]).stdout
    assert merged.startswith('[Event "e"]\n1. 11-15') and "[Site" not in merged
    text = " ".join(runner.invoke(app, ["merge", "--help"], env={"COLUMNS": "200"}
                                  ).stdout.split())
    assert "each as written" in text and "PDN 3.0 file" not in text
