"""``replay.rules.position.position_fen`` writes the very FEN ``format_fen`` writes of the same
position, in every variant's notation (random positions over the variant's playable squares)."""

import random

import pytest

from pdn.fen import format_fen
from replay.record.board import Board
from replay.rules.movegen import BLACK, WHITE
from replay.rules.position import Position, position_fen, setup_from_position
from replay.rules.variants import get_variant, variant_names


@pytest.mark.parametrize("name", variant_names())
def test_position_fen_is_format_fen(name: str) -> None:
    notation = get_variant(name).gametype.notation
    names = notation.names
    squares = list(names) if isinstance(names, dict) else [i for i, n in enumerate(names) if n]
    chooser = random.Random(name)
    for _ in range(200):
        white = black = kings = 0
        for square in chooser.sample(squares, chooser.randint(0, len(squares))):
            bit = 1 << square
            if chooser.random() < 0.5:
                white |= bit
            else:
                black |= bit
            if chooser.random() < 0.3:
                kings |= bit
        position = Position(white, black, kings, chooser.choice((WHITE, BLACK)))
        assert position_fen(position, notation) == format_fen(setup_from_position(position),
                                                              notation)


# ---- a Position's values are checked where it is made ---------------------------------------

@pytest.mark.parametrize(("values", "said"), [
    ((-1, -1, -1, 0), "a mask of squares is negative"),
    ((0, -2, 0, 1), "a mask of squares is negative"),
    ((1, 1, 0, 0), "a square holds a white and a black piece"),
    ((1, 2, 4, 0), "a king stands on a square without a piece"),
    ((1, 2, 0, 2), "the side to move is 2"),
])
def test_a_position_of_impossible_values_is_refused_where_it_is_made(values, said):
    """Board('international', Position(-1, -1, -1, 0)).fen() never returned: a walk over the
    pieces of a negative mask does not end."""
    with pytest.raises(ValueError, match=said):
        Position(*values)


def test_a_piece_off_the_playable_squares_is_refused_by_the_board():
    international = get_variant("international")
    start = Board(international).position
    light = next(square for square in range(100) if square not in international.geometry.playable)
    for white in (1 << light, 1 << 3000, start.white | 1 << 100):
        with pytest.raises(ValueError, match="off the board's playable squares"):
            Board(international, Position(white, start.black, 0, WHITE))
    assert Board(international, start).fen() == Board(international).fen()
