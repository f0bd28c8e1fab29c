"""Generated positions for property tests: any placement of men and kings on a variant's
board (used by the native core's and the game database's differential tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from replay.rules.position import Position, RestrictedPosition
from replay.rules.variants import Variant


@st.composite
def positions(draw: st.DrawFn, variant: Variant) -> Position:
    """Any placement of men and kings on the variant's board, either side to move (Frisian:
    with any king-move streaks)."""
    squares = variant.geometry.playable
    pieces = draw(st.lists(st.sampled_from("..wWbB"), min_size=len(squares),
                           max_size=len(squares)))
    white = black = kings = 0
    for square, piece in zip(squares, pieces, strict=True):
        bit = 1 << square
        if piece in "wW":
            white |= bit
        elif piece in "bB":
            black |= bit
        if piece in "WB":
            kings |= bit
    turn = draw(st.sampled_from((0, 1)))
    if not variant.max_king_moves:
        return Position(white, black, kings, turn)
    streak = st.just((-1, 0)) | st.tuples(st.sampled_from(squares), st.integers(1, 4))
    return RestrictedPosition(white, black, kings, turn, (draw(streak), draw(streak)))
