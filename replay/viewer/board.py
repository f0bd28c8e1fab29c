"""What the viewer page needs once per kind of board (a variant, seen from one side): the
empty board as SVG, where each square is drawn, its names, the pieces and the start.

The page's script draws every position from this and the moves; nothing here depends on a
game. Squares are numbered in FEN order (by the variant's numbering, else by internal index)
and written as one character of ``ALPHABET``.

>>> from replay.rules.variants import RUSSIAN
>>> kind = board_kind(RUSSIAN)
>>> len(kind["centres"]), kind["names"][:3], kind["fen"][:3], kind["whiteStarts"]
(32, ['a1', 'c1', 'e1'], ['a1', 'c1', 'e1'], True)
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache

from replay.record.board import Board
from replay.record.diagram import (
    ARROW,
    CROSS,
    SQUARE,
    Layout,
    board_background,
    piece_svg,
    square_number,
    svg_open,
    turn_mark,
)
from replay.rules.movegen import WHITE
from replay.rules.variants import Variant

# One character per playing square, none of them a flag of the moves' tokens (see
# ``replay.viewer.moves``) nor a character JSON or HTML would escape; 72 covers 12x12 boards.
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz*-./:;@[]_"


@lru_cache(maxsize=64)
def fen_order(variant: Variant) -> dict[int, int]:
    """Internal square -> its rank among the playing squares in FEN order."""
    notation = variant.gametype.notation
    numbering = notation.numbering
    squares = sorted(variant.geometry.playable,
                     key=lambda square: numbering.by_square[square] if numbering else square)
    if len(squares) > len(ALPHABET):
        raise ValueError(f"{variant.name}: {len(squares)} playing squares are more than the "
                         f"viewer can write ({len(ALPHABET)})")
    return {square: rank for rank, square in enumerate(squares)}


def pieces_text(variant: Variant, pieces: dict[int, str]) -> str:
    """A position's pieces as pairs of characters: the square, then the piece code."""
    order = fen_order(variant)
    return "".join(ALPHABET[order[square]] + code
                   for square, code in sorted(pieces.items(), key=lambda item: order[item[0]]))


def _drawn(variant: Variant, flipped: bool) -> dict:
    """What depends on the side the board is seen from: the empty board, the turn marks and
    where each square is drawn."""
    layout = Layout(variant.geometry, flipped)
    squares = sorted(fen_order(variant), key=fen_order(variant).get)
    return {"svg": svg_open(layout) + "".join(board_background(layout,
                                                               variant.gametype.notation)),
            "turn": {"w": turn_mark(layout, True), "b": turn_mark(layout, False)},
            "centres": [layout.centre(square) for square in squares]}


@lru_cache(maxsize=64)
def board_kind(variant: Variant, flipped: bool = False) -> dict:
    """The JSON-able description of a variant's board for the page (see the module doc);
    ``flipped`` holds the board seen from the other side, for the page's flip button."""
    notation = variant.gametype.notation
    squares = sorted(fen_order(variant), key=fen_order(variant).get)
    label_names = notation.numbers if notation.numeric else variant.geometry.names
    arm = SQUARE * 0.22
    return {
        "variant": variant.name,
        "gametype": variant.gametype.tag(),
        **_drawn(variant, flipped),
        "flipped": _drawn(variant, not flipped),
        "pieces": {code: piece_svg(code, 0, 0) for code in "wWbB"},
        "ghosts": {code: piece_svg(code, 0, 0).replace('class="piece ', 'class="ghost ', 1)
                   for code in "wWbB"},
        "cross": f'<path d="M{-arm},{-arm}L{arm},{arm}M{-arm},{arm}L{arm},{-arm}" '
                 f'stroke="{CROSS}" stroke-width="4" stroke-linecap="round" '
                 f'class="capture-cross"/>',
        "arrow": {"colour": ARROW, "square": SQUARE},
        # the number drawn on each empty square of a numeric board: the text's tag, its end
        "number": square_number("", 0, 0).split("</") if notation.numeric else None,
        "names": [label_names[square] for square in squares],
        "fen": [notation.name(square) for square in squares],
        "squares": [variant.geometry.name(square) for square in squares],
        "separator": variant.gametype.capture_separator,
        "whiteStarts": variant.white_starts,
        "start": pieces_text(variant, Board(variant).setup().pieces),
        "startWhite": Board(variant).turn == WHITE,
    }


@lru_cache(maxsize=64)
def kind_key(variant: Variant, flipped: bool = False) -> str:
    """A short name of a board kind, the same for the same description in any process."""
    text = json.dumps(board_kind(variant, flipped), sort_keys=True)
    return f"{variant.name}-{hashlib.sha1(text.encode()).hexdigest()[:8]}"
