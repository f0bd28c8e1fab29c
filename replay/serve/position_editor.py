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

from pdn.i18n import N_, Catalog, catalog
from replay.record.board import Board
from replay.rules.movegen import BLACK, WHITE
from replay.rules.variant_titles import variant_title
from replay.rules.variants import Variant
from replay.serve.board_input import square_centres

COLOURS = {"w": "white", "W": "white", "b": "black", "B": "black"}
ENGLISH = catalog("en")
# the reasons, by side (Russian and Thai say "a white man" and "White" in their own ways)
CROWNED = {"white": N_("a white man on {square}, the row where White is crowned, would be "
                       "a king"),
           "black": N_("a black man on {square}, the row where Black is crowned, would be "
                       "a king")}


def edited_position(variant: Variant, *, pieces: dict[str, str] | None = None,
                    white: bool = True, fen: str | None = None,
                    words: Catalog = ENGLISH) -> dict:
    """The position of ``pieces`` (square name -> ``w W b B``) with White or Black to move,
    or of ``fen``: its FEN, tags, pieces, problems (in the language of ``words``) and
    diagram. Raises ``ValueError`` (a ``pdn.fen.FenError`` among them) with the reason when
    it is no position at all."""
    from replay.record.diagram import board_svg

    board = Board.from_fen(fen if fen is not None else _fen(variant, pieces or {}, white),
                           variant)
    geometry = variant.geometry
    setup = board.setup()
    fen_text = board.fen()
    tags = (f'[GameType "{variant.gametype.tag()}"]\n[SetUp "1"]\n[FEN "{fen_text}"]')
    return {"fen": fen_text, "tags": tags, "white": setup.white_to_move,
            "pieces": {geometry.name(square): code for square, code in setup.pieces.items()},
            "problems": problems(board, words), "legal": len(board.legal_moves()),
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


def problems(board: Board, words: Catalog = ENGLISH) -> list[str]:
    """Why no game of the variant can reach this position (none: it may be reached), in
    the language of ``words``."""
    variant, setup = board.variant, board.setup()
    start = Board(variant).setup().pieces
    name = variant.gametype.notation.name
    found = []
    for colour in ("white", "black"):
        have = sum(COLOURS[code] == colour for code in setup.pieces.values())
        most = sum(COLOURS[code] == colour for code in start.values())
        if have > most:
            found.append(_too_many(colour, words, have).format(
                count=have, most=most, variant=variant_title(variant.name, words)))
    crowning = board.generator.promotion_mask
    for square, code in sorted(setup.pieces.items()):
        side = WHITE if code == "w" else BLACK if code == "b" else None
        if side is not None and (crowning[side] >> square) & 1:
            found.append(words.gettext(CROWNED[COLOURS[code]]).format(square=name(square)))
    return found


def _too_many(colour: str, words: Catalog, count: int) -> str:
    """The reason a side has more pieces than it starts with, before its values."""
    if colour == "white":
        return words.ngettext("White has {count} piece, more than the {most} a side starts "
                              "with in {variant}", "White has {count} pieces, more than the "
                              "{most} a side starts with in {variant}", count)
    return words.ngettext("Black has {count} piece, more than the {most} a side starts with "
                          "in {variant}", "Black has {count} pieces, more than the {most} a "
                          "side starts with in {variant}", count)


__all__ = ["edited_position", "problems"]
