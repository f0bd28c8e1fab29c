"""Damaged real files: each kind of damage found in files written by engines, old programs,
live relays and hand-typists is mended by the reader with a warning that says where and how,
every game is read under its own variant, and no game next to the damage is lost.

The fixtures are written here, after the forms met in real files (docs/notation.md lists each
recovery with an example).
"""

from __future__ import annotations

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.lookalikes import mend_lookalikes
from pdn.reader import read_games
from replay.record.replayer import replay_game

runner = CliRunner()


def _read(text: str) -> list:
    return list(read_games(text))


def _codes(game) -> list[str]:
    return [d.code for d in game.diagnostics]


def _replays_whole(game) -> bool:
    replayed = replay_game(game)
    return not replayed.errors and len(replayed.moves) == len(game.moves.plies)


# ---- results glued to what follows -------------------------------------------------------

# Eight International games, each result written straight before the next game's first move
# number (``0-001.33-29``): the form of an engine's match file.
GLUED_TO_MOVE_NUMBER = ('[Event "match"]\n[GameType "20"]\n'
                        + "".join(f"1.32-28 19-23 2.28x19 14x23 {{{n}}}\n"
                                  f"{'0-0' if n % 2 else '1-1'}0" for n in range(1, 8))
                        + "1.32-28 19-23 2.28x19 14x23 *\n")


def test_a_result_glued_to_the_next_move_number_ends_its_game_and_loses_none():
    games = _read(GLUED_TO_MOVE_NUMBER)
    assert len(games) == 8
    assert [g.result for g in games] == ["0-0", "1-1"] * 3 + ["0-0", "*"]
    assert all(not g.errors and len(g.moves.plies) == 4 for g in games)
    glued = [d for g in games[:7] for d in g.diagnostics if d.code == "glued-result"]
    assert len(glued) == 7 and all(d.severity == "warning" for d in glued)
    assert (glued[0].line, glued[0].column) == (4, 1)  # the result's own place
    assert "runs into '01.32-28'" in glued[0].message
    assert all(_replays_whole(g) for g in games[1:])  # told International by their squares


def test_a_move_that_starts_like_two_glued_results_is_a_move():
    # 1-1 then 0-1 would leave a lone 1: a glued result ends as a result does
    game, = _read("1. 1-10-11 *\n")
    assert game.main_line_tokens() == ["1. 1-10-11"] and game.result == "*"
    assert "glued-result" not in _codes(game)


def test_a_result_with_spaces_glued_to_the_next_tag_is_read_as_the_result():
    text = ('[Event "a"]\n[GameType "20"]\n1.32-28 19-23 2.28x19 14x23 1 - 1[White "dam2.2"]\n'
            '[Black "x"]\n[GameType "20"]\n1.33-29 18-22 2.29-24 *\n')
    first, second = _read(text)
    assert first.result == "1-1" and "result-spelling" in _codes(first)
    assert "glued-game" in _codes(first)
    assert second.tags["White"] == "dam2.2" and second.tags["Black"] == "x"
    assert _replays_whole(first) and _replays_whole(second)
    spelling = next(d for d in first.diagnostics if d.code == "result-spelling")
    assert (spelling.line, spelling.column) == (3, 29) and "read as '1-1'" in spelling.message


@pytest.mark.parametrize("written, read", [("1 - 0", "1-0"), ("0 : 1", "0-1"),
                                           ("1/2 - 1/2", "1/2-1/2"), ("2 - 0", "2-0")])
def test_results_with_spaces_around_the_dash(written: str, read: str):
    (game,) = _read(f'[Event "a"]\n[GameType "20"]\n1. 32-28 19-23 {written}\n')
    assert game.result.replace(":", "-") == read and not game.errors


def test_a_numeric_move_that_starts_like_a_result_stays_a_move():
    (game,) = _read('[GameType "20"]\n1. 31-27 19-23 2. 37-31 14-19 3. 41-37 10-14 4. 46-41 '
                    '5-10 5. 32-28 23x32 6. 37x28 1-7 *\n')
    assert game.result == "*" and game.moves.plies[-1].record.text == "1-7"


# ---- a result written twice ----------------------------------------------------------------


def test_a_result_written_twice_is_one_result_and_no_phantom_game():
    text = ('[Event "a"]\n[GameType "20"]\n1.32-28 19-23 2.28x19 14x23 0-0\n0-0\n\n'
            '[Event "b"]\n[GameType "20"]\n1.33-29 18-22 *\n')
    first, second = _read(text)
    assert first.result == "0-0" and second.tags["Event"] == "b"
    repeated = next(d for d in first.diagnostics if d.code == "repeated-result")
    assert (repeated.line, repeated.column) == (4, 1) and "the same result" in repeated.message
    assert not first.errors and not second.errors


def test_a_second_result_that_differs_keeps_the_first():
    (game,) = _read('[GameType "20"]\n1. 32-28 19-23 1-0 0-1\n')
    assert game.result == "1-0"
    assert "'1-0' is kept" in next(d.message for d in game.diagnostics
                                   if d.code == "repeated-result")


# ---- a tag repeated inside one header ------------------------------------------------------


def test_a_tag_repeated_in_one_header_stays_in_the_same_game_the_later_value_taken():
    text = ('[Event "Open"]\n[Site "Moscow"]\n[Event "Open 2024"]\n[White "W"]\n[GameType "20"]\n'
            '1.32-28 19-23 *\n')
    (game,) = _read(text)
    assert game.tags["Event"] == "Open 2024" and game.tags["Site"] == "Moscow"
    warning = next(d for d in game.diagnostics if d.code == "repeated-tag")
    assert (warning.line, warning.column) == (3, 1) and warning.severity == "warning"
    assert '"Open 2024" is taken over "Open"' in warning.message
    assert "cut-off" not in _codes(game)


def test_a_header_written_twice_over_is_one_game():
    head = '[Event "Open"]\n[Site "Moscow"]\n'
    (game,) = _read(head + head + '[GameType "20"]\n1.32-28 19-23 *\n')
    assert _codes(game).count("repeated-tag") == 2 and len(game.moves.plies) == 2


def test_a_game_with_tags_only_before_the_next_header_is_still_its_own_game():
    text = ('[Event "A"]\n[White "P"]\n[Black "Q"]\n'
            '[Event "B"]\n[White "R"]\n[Black "S"]\n[GameType "20"]\n1.32-28 19-23 *\n')
    first, second = _read(text)
    assert first.tags == {"Event": "A", "White": "P", "Black": "Q"}
    assert "cut-off" in _codes(first) and "repeated-tag" not in _codes(first)
    assert second.tags["White"] == "R" and len(second.moves.plies) == 2


# ---- a tag value broken over two lines -----------------------------------------------------

FEN_OVER_TWO_LINES = ('[Event "problem"]\n[GameType "20"]\n'
                      '[FEN "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45:\n'
                      'B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"]\n'
                      '[Result "*"]\n1.33-29 18-22 *\n')


def test_a_fen_tag_broken_over_two_lines_is_one_value():
    (game,) = _read(FEN_OVER_TWO_LINES)
    assert game.tags["FEN"].endswith("45:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20")
    assert game.tags["Result"] == "*" and not game.errors
    warning = next(d for d in game.diagnostics if d.code == "tag-over-lines")
    assert (warning.line, warning.column) == (3, 1)
    assert _replays_whole(game) and game.moves.plies[0].record.line == 6


def test_another_tag_broken_over_two_lines_reads_the_break_as_a_space():
    (game,) = _read('[Event "World\n Championship"]\n[GameType "20"]\n1.32-28 19-23 *\n')
    assert game.tags["Event"] == "World Championship" and not game.errors


def test_a_tag_left_open_that_the_next_line_does_not_close_spoils_its_game_only():
    text = ('[Event "a"]\n[Round "11\n[White "x"]\n1. 32-28 *\n\n'
            '[Event "b"]\n[GameType "20"]\n1. 32-28 19-23 *\n')
    games = _read(text)
    assert games[-1].tags["Event"] == "b" and not games[-1].errors


# ---- look-alike letters --------------------------------------------------------------------

CYRILLIC = ('[Event "Турнир"]\n[White "Сидоров"]\n'
            "1. сd4 fe5 2. dхf6 gхe5 3. bс3 ba5 {сd4 — хорошо} (3... hg5 (лучше ed6)) "
            "4. С3-В4 ахс3 5. dхb4 *\n")


def test_cyrillic_letters_in_moves_are_read_as_the_latin_ones_they_look_like():
    (game,) = _read(CYRILLIC)
    texts = [ply.record.text for ply in game.moves.plies]
    assert texts == ["cd4", "fe5", "dxf6", "gxe5", "bc3", "ba5", "C3-B4", "axc3", "dxb4"]
    assert _replays_whole(game)
    notes = [d for d in game.diagnostics if d.code == "lookalike-letter"]
    assert len(notes) == 7 and all(d.severity == "warning" for d in notes)
    assert (notes[0].line, notes[0].column) == (3, 4)
    assert "'с' (cyrillic small letter es) for 'c'" in notes[0].message


def test_look_alike_letters_are_never_mended_in_names_tags_or_comments():
    (game,) = _read(CYRILLIC)
    assert game.tags["White"] == "Сидоров" and game.tags["Event"] == "Турнир"
    assert game.moves.plies[5].comments == ["сd4 — хорошо"]
    variation = game.moves.plies[5].variations[0]
    assert variation.plies[0].comments == ["лучше ed6"]


@pytest.mark.parametrize("written, read", [("11–15", "11-15"), ("ｃ３－ｄ４", "c3-d4"),
                                           ("Е3-D4", "E3-D4"), ("сd4", "cd4")])
def test_dashes_and_full_width_forms_in_moves(written: str, read: str):
    text, notes = mend_lookalikes(f"1. {written} *", 1)
    assert text == f"1. {read} *" and len(notes) == 1 and notes[0].column == 4


def test_a_word_that_is_no_move_once_mended_is_left_as_it_is():
    text, notes = mend_lookalikes("1. cd4 сеть *", 1)
    assert text == "1. cd4 сеть *" and notes == []


# ---- pdn clean writes the mended games as proper PDN --------------------------------------


@pytest.mark.parametrize("text", [GLUED_TO_MOVE_NUMBER, CYRILLIC, FEN_OVER_TWO_LINES],
                         ids=["glued", "cyrillic", "fen-over-lines"])
def test_pdn_clean_writes_the_mended_games_back_in_proper_pdn(tmp_path, text: str):
    source, cleaned = tmp_path / "damaged.pdn", tmp_path / "clean.pdn"
    source.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["clean", str(source), "-o", str(cleaned)])
    assert result.exit_code == 0, result.output
    before, after = _read(text), list(read_games(cleaned))
    assert len(after) == len(before)
    mended = {"glued-result", "glued-game", "result-spelling", "repeated-result",
              "repeated-tag", "tag-over-lines", "lookalike-letter"}
    assert not [d for g in after for d in g.diagnostics if d.code in mended]
    assert [[p.record.squares for p in g.moves.plies] for g in after] == \
        [[p.record.squares for p in g.moves.plies] for g in before]
