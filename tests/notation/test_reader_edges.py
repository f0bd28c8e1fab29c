"""Set-ups, moves, tags and dates the reader used to let through silently, each
with the real text: a FEN that lists one side twice, a space inside a move, a doubled
bracket before a tag, a date of zeros."""

from __future__ import annotations

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.fen import FenError, parse_fen
from pdn.reader import read_games
from replay.archive.tags import clean_date, date_parts_of
from replay.rules.variants import ENGLISH
from replay.validate.reports import report_games

runner = CliRunner()

POLISH = "international/brunogui/48th Polish Team Championship.pdn"
MONTPELLIER = "international/brunogui/Montpellier Open Serie B.pdn"


def test_a_fen_that_lists_white_twice_is_an_error_naming_the_fen_and_the_fault():
    """The set-up of goulds.pdn line 529, which lists Black as 'BK31,22.'."""
    with pytest.raises(FenError) as error:
        parse_fen("W:W30,15:WK31,22.", ENGLISH.gametype.notation)
    assert str(error.value) == ("bad FEN 'W:W30,15:WK31,22.' at column 10: White's pieces are "
                                "listed twice (W... and W...), Black's not at all")


def test_the_same_set_up_is_a_bad_fen_in_validate_not_a_game_without_moves():
    reports = list(report_games(read_games('[FEN "W:W30,15:WK31,22."]\n1. 30-26 *\n')))
    assert [e["code"] for e in reports[0].errors] == ["bad-fen"]
    assert "listed twice" in reports[0].errors[0]["message"]


def test_two_pieces_on_one_square_is_an_error_naming_the_square():
    with pytest.raises(FenError, match="two pieces on square 30"):
        parse_fen("W:W30,15:B30,22", ENGLISH.gametype.notation)


def test_the_real_set_up_of_goulds_reads(shared_data):
    line = (shared_data / "tests/wiegerw_pdn/succeed/goulds.pdn").read_text(
        encoding="latin-1").splitlines()[528]
    assert line == '[FEN "W:W30,15:BK31,22."]'
    assert len(parse_fen("W:W30,15:BK31,22.", ENGLISH.gametype.notation).pieces) == 4


def test_a_space_inside_a_move_reads_with_a_notation_note(shared_data):
    """dutch96h.pdn line 13 writes '1- 6' (squares padded to two columns)."""
    path = shared_data / "games-checkers/internt/dutch96h.pdn"
    assert " 1- 6 " in path.read_text(encoding="latin-1").splitlines()[12]
    game = next(read_games(path))
    notes = [d for d in game.diagnostics if d.code == "spaced-move"]
    assert notes[0].severity == "warning" and (notes[0].line, notes[0].column) == (13, 31)
    assert notes[0].message == "'1- 6' at 13:31 is written with a space inside: read as '1-6'"
    report = next(report_games([game]))
    assert report.status == "valid"
    assert "spaced-move" in {w["code"] for w in report.warnings}


def test_the_issues_move_reads_with_the_note():
    game = next(read_games("1. 11- 16 23-19 *"))
    assert game.moves.plies[0].record.squares == ("11", "16")
    assert [d.message for d in game.diagnostics] == [
        "'11- 16' at 1:4 is written with a space inside: read as '11-16'"]


def test_a_doubled_bracket_is_mended_with_a_warning(shared_data):
    """The Polish team championship, line 174: '[[Event "48th Polish Team Championship"]'."""
    path = shared_data / POLISH
    assert path.read_text(encoding="utf-8").splitlines()[173].startswith(
        '[[Event "48th Polish Team Championship"]')
    games = list(read_games(path))
    game = next(g for g in games if g.line == 174)
    assert game.tags["Event"] == "48th Polish Team Championship"
    assert game.tags["White"] == "Bankowski, Bogdan" and len(game.moves.plies) == 110
    notes = [d for d in game.diagnostics if d.code == "doubled-bracket"]
    assert [(d.line, d.column, d.severity) for d in notes] == [(174, 1, "warning")]
    assert notes[0].message == "tag '[[Event' at 174:1 opens with a doubled '[': read as one"
    report = next(r for r in report_games([game]))
    assert report.status == "valid"


def test_a_date_of_zeros_is_unknown_in_stats_and_clean(shared_data, tmp_path):
    path = shared_data / MONTPELLIER
    assert '[Date "0000.00.00"]' in path.read_text(encoding="utf-8").splitlines()[1099]
    assert date_parts_of("0000.00.00") == (None, None, None)
    assert clean_date("0000.00.00") == "????.??.??"
    cleaned = runner.invoke(app, ["clean", str(path), "-o", str(tmp_path / "clean.pdn")])
    assert cleaned.exit_code == 0, cleaned.output
    text = (tmp_path / "clean.pdn").read_text(encoding="utf-8")
    assert "0000" not in text and '[Date "????.??.??"]' in text
    stats = runner.invoke(app, ["stats", str(path), "-t", "games", "-o",
                                str(tmp_path / "games.csv")])
    assert stats.exit_code in (0, 1), stats.output
    import pandas as pd

    games = pd.read_csv(tmp_path / "games.csv")
    zeros = games[games["Date"] == "0000.00.00"]
    assert len(zeros) >= 3 and zeros["year"].isna().all()
    assert games["year"].dropna().min() > 0
