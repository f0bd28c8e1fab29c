"""One game per line (opening books, engine output): untagged movetext whose move numbers
start again at 1 on a new line begins a new game, and nothing else does."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.chunks import block_chunks, split_blocks, split_chunks
from pdn.reader import iter_chunks, read_games, read_headers
from replay.run.reading import read_games as parallel_read_games

runner = CliRunner()

# Written for these tests. International draughts: the first two lines are the example of
# the task; the third moves a man straight after a capture (3.32x21).
INTERNATIONAL_BOOK = """\
1.33-28 19-23 2.28x19 14x23 3.34-29 23x34 4.39x30
1.32-28 18-23 2.37-32 12-18
1.31-27 19-24 2.27-21 16x27 3.32x21
"""
# English checkers as engines write it: leading zeros, the second move's number left out
# on the first line and written on the second.
ENGLISH_BOOK = """\
1.11-15 23-19 8-11 22-17
1.09-13 22-18 2.05-09 24-20
1.11-16 24-20 16-19 23x16 12x19
"""


def games_of(text: str) -> list:
    return list(read_games(text))


def warnings_of(game) -> list[str]:
    return [d.code for d in game.diagnostics if d.severity == "warning"]


def test_each_line_of_a_book_is_a_game_noted_for_its_missing_result():
    games = games_of(INTERNATIONAL_BOOK)
    # plies counted by hand on each line: 7, 4, 5
    assert [(g.line, len(g.moves.plies)) for g in games] == [(1, 7), (2, 4), (3, 5)]
    assert [g.errors for g in games] == [[], [], []]
    first = games[0].diagnostics
    assert [(d.code, d.severity, d.line, d.column) for d in first] == [
        ("missing-result", "warning", 1, 50)]  # just after '39x30', which ends in column 49
    assert "move numbers start again at 1 on line 2" in first[0].message
    assert warnings_of(games[1]) == ["missing-result"]
    assert games[2].diagnostics == []  # the last game of a file may go without a result


def test_leading_zeros_and_unnumbered_second_moves():
    games = games_of(ENGLISH_BOOK)
    assert [len(g.moves.plies) for g in games] == [4, 4, 5]
    assert games[1].moves.plies[2].record.squares == ("5", "9")
    assert [p.number for p in games[0].moves.plies] == [1, None, None, None]


def test_a_game_ended_by_a_result_gets_no_note():
    games = games_of("1.32-28 18-23 *\n1.33-28 17-22 1-0\n1.34-29 *\n")
    assert len(games) == 3
    assert all(g.diagnostics == [] for g in games)


def test_a_tagged_game_wrapping_over_a_line_that_starts_with_1_stays_one_game():
    text = '[Event "wrap"]\n1.32-28 18-23\n1.37-32 12-18\n2.41-37 *\n'
    (game,) = games_of(text)
    assert len(game.moves.plies) == 5
    assert "missing-result" not in warnings_of(game)


def test_a_variation_restarting_the_numbers_on_its_own_line_is_no_new_game():
    text = "1.32-28 18-23 (\n1.33-28 18-22)\n2.37-32 12-18 *\n"
    (game,) = games_of(text)
    assert len(game.moves.plies) == 4
    assert len(game.moves.plies[1].variations) == 1
    nested = "1.32-28 (1.33-28\n(\n1.31-27 16-21)\n) 18-23\n1.37-32 *\n"
    assert len(games_of(nested)) == 2  # the last line is outside every variation


def test_a_black_move_numbered_1_dots_continues_the_game():
    for text in ("1.32-28 {White opens}\n1... 18-23 2.37-32 *\n",
                 "1.32-28\n1. ... 18-23 *\n",
                 "1.32-28\n1...18-23 *\n"):
        (game,) = games_of(text)
        assert game.errors == [], text


def test_a_comment_spanning_lines_hides_a_1_at_a_line_start():
    text = "1.32-28 18-23 {a long note\n1. this is prose} 2.37-32 *\n"
    (game,) = games_of(text)
    assert len(game.moves.plies) == 3


def test_comments_alone_start_no_game():
    text = "{Book of openings}\n1.32-28 18-23\n1.33-28 17-22\n"
    games = games_of(text)
    assert len(games) == 2
    assert games[0].moves.comments == ["Book of openings"]


def test_lines_without_a_main_line_move_stay_with_the_game_they_lead_to():
    # a set-up, a NAG, a variation alone or a bare number is no game of its own
    for lead in ('/FEN "W:W31-50:B1-20"/', "$1", "(1.33-28 18-23)", "1.", "{a\nb}"):
        text = f"{lead}\n1.32-28 18-23\n"
        assert len(games_of(text)) == 1, lead
        assert _whole(text)[0].restart_line == 0, lead
    (game,) = games_of('/FEN "W:W31-50:B1-20"/\n1.32-28 18-23 *\n')
    assert game.moves.setup == "W:W31-50:B1-20" and len(game.moves.plies) == 2


def test_a_broken_line_spoils_its_own_game_only():
    text = "1.32-28 18-23\n1.33-28 ] 17-22\n1.34-29 19-23\n"
    games = games_of(text)
    assert [len(g.errors) for g in games] == [0, 1, 0]
    assert games[1].errors[0].line == 2
    assert [len(g.moves.plies) for g in (games[0], games[2])] == [2, 2]


def test_a_line_game_after_a_finished_tagged_game():
    text = '[Event "t"]\n1.32-28 18-23 *\n1.33-28 17-22\n1.34-29 19-23\n'
    games = games_of(text)
    assert [g.tags.get("Event") for g in games] == ["t", None, None]
    assert warnings_of(games[1]) == ["missing-result"]


def test_headers_visitor_and_parallel_reading_count_the_same_games():
    text = ENGLISH_BOOK * 40
    serial = games_of(text)
    assert len(serial) == 120
    assert len(list(read_headers(text))) == 120
    assert list(parallel_read_games(io.StringIO(text), workers=2)) == serial


def _by_blocks(text: str, size: int) -> list:
    return [chunk for block in split_blocks(io.StringIO(text, newline="\n"), size)
            for chunk in block_chunks(block)]


def _whole(text: str) -> list:
    return list(split_chunks(io.StringIO(text, newline="\n")))


def test_blocks_cut_a_book_as_the_whole_file():
    text = '[Event "t"]\n1.32-28 *\n\n' + INTERNATIONAL_BOOK + '\n[Event "u"]\n1.33-28 *\n'
    whole = _whole(text)
    assert [c.restart_line for c in whole] == [0, 5, 6, 0, 0]
    for size in (1, 8, 64, 1 << 12):
        assert _by_blocks(text, size) == whole


_PIECES = ["1.32-28 ", "1... 18-23 ", "2.37-32 ", "\n", "\n\n", "(", ")", "{a ", "} ", "*",
           " 1-0\n", '[Event "e"]\n', "; note\n", "01.05-10 ", "1. ... ", "% esc\n"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60), st.sampled_from([1, 8, 64]))
def test_blocks_cut_any_line_games_as_the_whole_text(pieces, size):
    text = "".join(pieces)
    assert _by_blocks(text, size) == _whole(text)


def test_no_public_archive_is_cut_by_move_numbers(shared_data: Path):
    """Every archive is read as before: none of them has a game per line."""
    files = [p for p in sorted(shared_data.rglob("*"))
             if p.suffix.lower() in (".pdn", ".phn", ".txt")]
    assert len(files) > 100
    for path in files:
        assert not any(chunk.restart_line for chunk in iter_chunks(path)), path


# ---- the commands -----------------------------------------------------------------------------

def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "book.pdn"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_counts_a_game_per_line_and_warns(tmp_path):
    path = _write(tmp_path, INTERNATIONAL_BOOK)
    result = runner.invoke(app, ["validate", path, "--variant", "international", "--warnings"])
    assert result.exit_code == 0, result.output
    assert "3 games: 3 valid" in result.stderr
    assert f"{path}:1:50: warning: game 1: missing-result" in result.stdout


def test_convert_and_clean_write_every_line_game_with_a_result(tmp_path):
    path = _write(tmp_path, ENGLISH_BOOK)
    result = runner.invoke(app, ["convert", path, "--variant", "english", "--to", "numeric"])
    assert result.exit_code == 0, result.output
    converted = games_of(result.stdout)
    assert [len(g.moves.plies) for g in converted] == [4, 4, 5]
    assert [g.result for g in converted] == ["*"] * 3
    cleaned = tmp_path / "clean.pdn"
    result = runner.invoke(app, ["clean", path, "-o", str(cleaned), "--variant", "english"])
    assert result.exit_code == 0, result.output
    assert len(games_of(cleaned.read_text(encoding="utf-8"))) == 3


def test_stats_and_archive_tools_see_a_game_per_line(tmp_path):
    path = _write(tmp_path, ENGLISH_BOOK)
    result = runner.invoke(app, ["stats", path, "--variant", "english", "-t", "games", "-o",
                                 str(tmp_path / "games.csv")])
    assert result.exit_code == 0, result.output
    assert list(pd.read_csv(tmp_path / "games.csv")["plies"]) == [4, 4, 5]
    result = runner.invoke(app, ["filter", path, "-o", "-", "--min-plies", "5"])
    assert result.exit_code == 0, result.output
    assert [len(g.moves.plies) for g in games_of(result.stdout)] == [5]
    result = runner.invoke(app, ["dedupe", path, path, "-o", "-"])
    assert result.exit_code == 0, result.output
    assert len(games_of(result.stdout)) == 3
