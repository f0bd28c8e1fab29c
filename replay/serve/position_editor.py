"""The desk's position editor on the server: a position set up square by square (or read from
a FEN) becomes its FEN, its PDN set-up tags and the reasons it cannot come from a game.

The reasons are facts of the variant, read from its own rules objects: a side cannot have
more pieces than it starts with (nothing adds a piece), and a man never stands on the row
where it is crowned (a man ending its move there becomes a king). A FEN the project cannot
read is refused with the reader's own message (``pdn.fen``).

>>> from replay.rules.variants import RUSSIAN
>>> edited = edited_position(RUSSIAN, pieces={"c3": "w", "b8": "w", "d6": "B"}, white=True)
>>> edited["fen"], edited["problems"]
('W:Wc3,b8:BKd6', ['a white man on b8, the row where White is crowned, would be a king'])
"""

from __future__ import annotations

from replay.record.board import Board
from replay.rules.movegen import BLACK, WHITE
from replay.rules.variants import Variant
from replay.serve.board_input import square_centres

COLOURS = {"w": "white", "W": "white", "b": "black", "B": "black"}


def edited_position(variant: Variant, *, pieces: dict[str, str] | None = None,
                    white: bool = True, fen: str | None = None) -> dict:
    """The position of ``pieces`` (square name -> ``w W b B``) with White or Black to move,
    or of ``fen``: its FEN, tags, pieces, problems and diagram. Raises ``ValueError`` (a
    ``pdn.fen.FenError`` among them) with the reason when it is no position at all."""
    from replay.record.diagram import board_svg

    board = Board.from_fen(fen if fen is not None else _fen(variant, pieces or {}, white),
                           variant)
    geometry = variant.geometry
    setup = board.setup()
    fen_text = board.fen()
    tags = (f'[GameType "{variant.gametype.tag()}"]\n[SetUp "1"]\n[FEN "{fen_text}"]')
    return {"fen": fen_text, "tags": tags, "white": setup.white_to_move,
            "pieces": {geometry.name(square): code for square, code in setup.pieces.items()},
            "problems": problems(board), "legal": len(board.legal_moves()),
            "svg": board_svg(board), **square_centres(board)}


def _fen(variant: Variant, pieces: dict[str, str], white: bool) -> str:
    """The FEN of the pieces by square name, in the variant's notation."""
    geometry, notation = variant.geometry, variant.gametype.notation
    sides: dict[str, list[str]] = {"w": [], "b": []}
    placed = []
    for name, code in pieces.items():
        if code not in COLOURS:
            raise ValueError(f"'{code}' is not a piece (w, W, b or B)")
        placed.append((geometry.square(name), code))
    for square, code in sorted(placed):
        sides[code.lower()].append(("K" if code.isupper() else "") + notation.name(square))
    return f"{'W' if white else 'B'}:W{','.join(sides['w'])}:B{','.join(sides['b'])}"


def problems(board: Board) -> list[str]:
    """Why no game of the variant can reach this position (none: it may be reached)."""
    variant, setup = board.variant, board.setup()
    start = Board(variant).setup().pieces
    name = variant.gametype.notation.name
    found = []
    for colour in ("white", "black"):
        have = sum(COLOURS[code] == colour for code in setup.pieces.values())
        most = sum(COLOURS[code] == colour for code in start.values())
        if have > most:
            found.append(f"{colour.capitalize()} has {have} pieces, more than the {most} a "
                         f"side starts with in {variant.name}")
    crowning = board.generator.promotion_mask
    for square, code in sorted(setup.pieces.items()):
        side = WHITE if code == "w" else BLACK if code == "b" else None
        if side is not None and (crowning[side] >> square) & 1:
            colour = COLOURS[code]
            found.append(f"a {colour} man on {name(square)}, the row where "
                         f"{colour.capitalize()} is crowned, would be a king")
    return found


__all__ = ["edited_position", "problems"]
