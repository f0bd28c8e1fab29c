"""``replay.board.position_fen`` writes the very FEN ``format_fen`` writes of the same position,
in every variant's notation (random positions over the variant's playable squares)."""

import random

import pytest

from pdn.fen import format_fen
from replay.board import Position, position_fen, setup_from_position
from replay.movegen import BLACK, WHITE
from replay.variants import get_variant, variant_names


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
