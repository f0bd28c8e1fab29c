"""The variant of a game without a GameType tag, told by its FEN's kings (docs/inference.md)."""

from __future__ import annotations

import pytest

from pdn.reader import read_games
from replay.replayer import replay_game

# ---- a FEN's king marks are not file letters -------------------------------------------------


@pytest.mark.parametrize(("fen", "variant", "evidence"), [
    ("W:W6,10:B1,K13", "english", "FEN set-up with numeric squares up to 13"),
    ("W:Wk13:B1", "english", "numeric squares up to 13"),  # the mark in lowercase
    ("B:WK29,K30:BK1,K2", "english", "numeric squares up to 30"),  # kings on both sides
    ("W:WK1-5:B20", "english", "numeric squares up to 20"),  # a range of kings
    ("W:WK32:BK1", "english", "numeric squares up to 32"),
    ("W:WK46,31:BK5", "international", "numeric squares up to 46"),
    ("W:WK1-3,K50:B5", "international", "numeric squares up to 50"),
    ("W:WK70:B1", "canadian", "numeric squares up to 70"),
    ("W:WKc3,a1:BKh8", "russian", "FEN set-up with squares named a1-h8"),
    ("B:WKa1:BKj10", "international", "squares named up to file j"),
    ("W:WKk11:Ba1", "canadian", "squares named up to file l"),  # a king on file k
])
def test_a_fen_king_mark_is_not_read_as_a_file_letter(fen, variant, evidence):
    replayed = replay_game(next(read_games(f'[FEN "{fen}"]\n*\n')))
    assert (replayed.variant.name, replayed.status) == (variant, "valid"), replayed.errors
    assert evidence in replayed.notes[0].message
    assert replayed.notes[0].message.endswith(f": {variant}")
