"""FEN reading and writing (PDN 3.0, the FEN tag; docs/notation.md)."""

import pytest

from pdn.fen import FenError, Setup, format_fen, parse_fen
from pdn.gametype import default_gametype

RUSSIAN = default_gametype(25).notation
INTERNATIONAL = default_gametype(20).notation


def test_numeric_fen_with_kings():
    setup = parse_fen("W:W21,22,K30:B1,2,3", RUSSIAN)
    assert setup.white_to_move
    assert setup.pieces[RUSSIAN.square("30")] == "W"
    assert setup.pieces[RUSSIAN.square("1")] == "b"
    assert len(setup.pieces) == 6


def test_ranges_and_lidraughts_clock_suffix():
    setup = parse_fen("W:W31-50:B1-20:H0:F1", INTERNATIONAL)
    assert len(setup.pieces) == 40
    assert (setup.halfmove_clock, setup.fullmove_number) == (0, 1)
    assert format_fen(setup, INTERNATIONAL, clocks=True).endswith(":H0:F1")


def test_alphanumeric_fen_round_trip():
    text = "B:Wa1,c3,Kd4:BKh6,b8"
    assert format_fen(parse_fen(text, RUSSIAN), RUSSIAN) == text


def test_trailing_dot_quotes_and_spaces_are_tolerated():
    setup = parse_fen('"W:W 21, 22 :B 1."', RUSSIAN)
    assert sorted(setup.pieces.values()) == ["b", "w", "w"]


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("X:W21:B1", "side to move"),
        ("W:W21,99:B1", "not on the board"),
        ("W:W21:B21", "given twice"),
        ("W:Wz9:B1", "not on a 8x8 board"),
        ("W:W?!:B1", "not a square name"),
        ("W:W21:Q1", "neither"),
        ("W:W30-21:B1", "range"),
        ("", "empty"),
    ],
)
def test_bad_fen_says_what_and_where(fen, words):
    with pytest.raises(FenError) as error:
        parse_fen(fen, RUSSIAN)
    assert words in str(error.value)
    assert "column" in str(error.value)


def test_empty_side_is_allowed():
    assert parse_fen("B:W:B1", RUSSIAN) == Setup(False, {RUSSIAN.square("1"): "b"})
