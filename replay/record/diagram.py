"""Board diagrams as SVG or text: pure functions of a position (in the spirit of chess.svg).

Every board shape of the variants is drawn the same way: White's side at the bottom (at the
top when ``flipped``), playing squares dark, coordinates in the variant's own notation (files
and ranks on the edges, or, as books print them, the number of each empty playing square
on it), the side to move as a disc beside its edge explained under the board, the last move
as an arrow along its whole route and the pieces it took marked with a cross.

>>> from replay.rules.position import BaseBoard
>>> svg = board_svg(BaseBoard())
>>> svg.startswith("<svg") and svg.count('class="piece ') == 24
True
>>> print(text_diagram(BaseBoard.from_fen("W:Wc3:Bd6")).splitlines()[2])
6 │   ·   ⛂   ·   · │ 6
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from math import hypot
from typing import TYPE_CHECKING, NamedTuple

from pdn.fen import BLACK_KING, BLACK_MAN, WHITE_KING, WHITE_MAN
from pdn.gametype import SquareNotation
from pdn.i18n import N_
from pdn.squares import FILES, Geometry
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.position import BaseBoard

if TYPE_CHECKING:
    from pdn.i18n import Catalog

SQUARE = 40  # side of a square, in SVG user units
MARGIN = 20  # the frame around the board: coordinates and the side-to-move mark
LEGEND = 18  # the line under the frame that says who is to move
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
LIGHT, DARK, ALL_SQUARES = "#f0d9b5", "#b58863", "#e2c08d"
FRAME, GRID = "#5c3d1e", "#8b6a3e"
ARROW, CROSS, CROWN = "#1b6e3a", "#c62828", "#e0a800"
PIECE_FILL = {WHITE_MAN: "#fbf8f0", WHITE_KING: "#fbf8f0", BLACK_MAN: "#262626",
              BLACK_KING: "#262626"}
PIECE_LINE = {WHITE_MAN: "#3a3a3a", WHITE_KING: "#3a3a3a", BLACK_MAN: "#000",
              BLACK_KING: "#000"}
GROOVE = {WHITE_MAN: "#b8b0a0", WHITE_KING: "#b8b0a0", BLACK_MAN: "#5a5a5a",
          BLACK_KING: "#5a5a5a"}
UNICODE_PIECES = {WHITE_MAN: "⛀", WHITE_KING: "⛁", BLACK_MAN: "⛂", BLACK_KING: "⛃"}
ASCII_PIECES = {WHITE_MAN: "w", WHITE_KING: "W", BLACK_MAN: "b", BLACK_KING: "B"}


class Arrow(NamedTuple):
    """An arrow on a diagram: the squares of its route, its colour and its class."""

    route: Sequence[int]
    colour: str
    kind: str


@dataclass(frozen=True)
class Layout:
    """Where the squares of a board are drawn, in SVG user units; ``flipped`` turns it 180°."""

    geometry: Geometry
    flipped: bool = False

    @property
    def width(self) -> int:
        return self.geometry.width * SQUARE + 2 * MARGIN

    @property
    def height(self) -> int:
        return self.geometry.height * SQUARE + 2 * MARGIN + LEGEND

    def cell(self, square: int) -> tuple[int, int]:
        """(column from the left, row from the top) of a square as seen on the diagram."""
        return self.place(*self.geometry.row_col(square))

    def place(self, row: int, col: int) -> tuple[int, int]:
        """(column from the left, row from the top) of the cell at (row, col), light or dark."""
        geo = self.geometry
        if self.flipped:
            return geo.width - 1 - col, row
        return col, geo.height - 1 - row

    def corner(self, square: int) -> tuple[int, int]:
        """The top-left corner of a square."""
        x, y = self.cell(square)
        return MARGIN + x * SQUARE, MARGIN + y * SQUARE

    def cell_corner(self, row: int, col: int) -> tuple[int, int]:
        """The top-left corner of the cell at (row, col)."""
        x, y = self.place(row, col)
        return MARGIN + x * SQUARE, MARGIN + y * SQUARE

    def centre(self, square: int) -> tuple[float, float]:
        """The centre of a square."""
        x, y = self.corner(square)
        return x + SQUARE / 2, y + SQUARE / 2


def board_svg(board: BaseBoard, *, last_move: Move | None = None, flipped: bool = False,
              coordinates: bool = True, size: int | None = None,
              arrows: Iterable[Arrow] = (), words: Catalog | None = None) -> str:
    """An SVG diagram of the board, as text (``data-square`` attributes name squares a1...).

    ``last_move`` (the move that led to this position) is drawn as an arrow along its route,
    with a cross on each piece it took; ``arrows``: more arrows, such as a move written and
    the one meant; ``size`` sets the width in pixels; ``words``: the catalog of the page's
    language, which says who is to move (English by default).
    """
    layout = Layout(board.variant.geometry, flipped)
    notation = board.variant.gametype.notation
    pieces = board.setup().pieces
    parts = [svg_open(layout, size), *board_background(layout, notation, coordinates),
             turn_mark(layout, board.turn == WHITE, words)]
    captured = captured_pieces(board, last_move) if last_move is not None else {}
    parts += captured_marks(layout, captured)
    parts += [piece_svg(piece, *layout.centre(square), layout.geometry.name(square))
              for square, piece in sorted(pieces.items())]
    if coordinates and notation.numeric:
        parts += [square_number(notation.name(square), *layout.centre(square))
                  for square in layout.geometry.playable
                  if square not in pieces and square not in captured]
    if last_move is not None:
        parts.append(arrow_svg(layout, [last_move.origin, *last_move.path]))
    parts += [arrow_svg(layout, *arrow) for arrow in arrows if len(arrow.route) > 1]
    parts.append("</svg>")
    return "".join(parts)


def svg_open(layout: Layout, size: int | None = None) -> str:
    """The opening ``<svg>`` tag of a diagram, scaled to ``size`` pixels wide if given."""
    scale = f' width="{size}" height="{round(size * layout.height / layout.width)}"' if size else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {layout.width} '
            f'{layout.height}"{scale} class="draughts-board" font-family="{FONT}">')


def board_background(layout: Layout, notation: SquareNotation, coordinates: bool = True
                     ) -> list[str]:
    """The board without pieces: margin, squares, frame and (optionally) the files and ranks
    of an alphanumeric notation (numbers go on the empty squares: ``square_number``)."""
    geo = layout.geometry
    parts = [f'<rect width="{layout.width}" height="{layout.height}" fill="#fff"/>']
    for row in range(geo.height):
        for col in range(geo.width):
            parts.append(_square_rect(layout, row, col))
    parts.append(f'<rect x="{MARGIN}" y="{MARGIN}" width="{geo.width * SQUARE}" '
                 f'height="{geo.height * SQUARE}" fill="none" stroke="{FRAME}" '
                 f'stroke-width="2"/>')
    if coordinates and not notation.numeric:
        parts += _edge_labels(layout)
    return parts


def _square_rect(layout: Layout, row: int, col: int) -> str:
    geo = layout.geometry
    x, y = layout.cell_corner(row, col)
    playable = geo.is_playable_cell(row, col)
    fill = ALL_SQUARES if geo.all_squares else DARK if playable else LIGHT
    grid = f' stroke="{GRID}" stroke-width="1"' if geo.all_squares else ""
    kind = "playable" if playable else "unplayable"
    return (f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"{grid} '
            f'class="square {kind}" data-square="{FILES[col]}{row + 1}"/>')


NUMBER_STYLE = (f'font-size="{SQUARE * 0.36:g}" font-weight="bold" text-anchor="middle" '
                'fill="#fbf1df" class="coordinate number"')


def square_number(name: str, cx: float, cy: float) -> str:
    """A square's number, centred on the square (an empty one: a piece would hide it)."""
    return (f'<text x="{cx:g}" y="{cy + SQUARE * 0.12:g}" {NUMBER_STYLE}>'
            f'{escape(name)}</text>')


def _edge_labels(layout: Layout) -> list[str]:
    geo = layout.geometry
    labels = []
    for col in range(geo.width):
        x = layout.cell_corner(0, col)[0] + SQUARE / 2
        labels.append(f'<text x="{x}" y="{layout.height - LEGEND - MARGIN / 2 + 4}" font-size="12" '
                      f'text-anchor="middle" fill="#333" class="coordinate file">'
                      f'{FILES[col]}</text>')
    for row in range(geo.height):
        y = layout.cell_corner(row, 0)[1] + SQUARE / 2
        labels.append(f'<text x="{MARGIN / 2}" y="{y + 4}" font-size="12" text-anchor="middle" '
                      f'fill="#333" class="coordinate rank">{row + 1}</text>')
    return labels


TO_MOVE = (N_("White to move"), N_("Black to move"))


def to_move(white_to_move: bool, words: Catalog | None = None) -> str:
    """``White to move`` (or Black), in the language of ``words`` (English by default)."""
    text = TO_MOVE[0 if white_to_move else 1]
    return text if words is None else words.gettext(text)


def turn_mark(layout: Layout, white_to_move: bool, words: Catalog | None = None) -> str:
    """A small disc in the right margin on the side of the player to move, and under the
    board the same disc with the words "White to move" (or Black), in the language of
    ``words``."""
    bottom = white_to_move != layout.flipped
    frame = layout.height - LEGEND
    y = frame - MARGIN - SQUARE / 2 if bottom else MARGIN + SQUARE / 2
    piece = WHITE_MAN if white_to_move else BLACK_MAN
    side = "white" if white_to_move else "black"
    said = escape(to_move(white_to_move, words))
    disc = (f'r="{MARGIN * 0.3}" fill="{PIECE_FILL[piece]}" stroke="{PIECE_LINE[piece]}" '
            f'stroke-width="1.5"')
    legend_y = frame + LEGEND / 2 - 4
    return (f'<circle cx="{layout.width - MARGIN / 2}" cy="{y}" {disc} class="turn {side}">'
            f'<title>{said}</title></circle>'
            f'<g class="turn-legend"><circle cx="{layout.width - MARGIN / 2}" cy="{legend_y}" '
            f'{disc}/><text x="{layout.width - MARGIN}" y="{legend_y + 4}" font-size="12" '
            f'text-anchor="end" fill="#333">{said}</text></g>')


def piece_svg(piece: str, cx: float, cy: float, square: str | None = None) -> str:
    """One piece centred on (cx, cy): a disc with a groove, and a crown for a king."""
    colour = "white" if piece in (WHITE_MAN, WHITE_KING) else "black"
    king = piece in (WHITE_KING, BLACK_KING)
    name = f' data-square="{escape(square)}"' if square else ""
    parts = [f'<g class="piece {colour} {"king" if king else "man"}"{name}>',
             f'<circle cx="{cx}" cy="{cy}" r="{SQUARE * 0.37}" fill="{PIECE_FILL[piece]}" '
             f'stroke="{PIECE_LINE[piece]}" stroke-width="1.5"/>',
             f'<circle cx="{cx}" cy="{cy}" r="{SQUARE * 0.26}" fill="none" '
             f'stroke="{GROOVE[piece]}" stroke-width="1.2"/>']
    if king:
        parts.append(_crown(cx, cy))
    parts.append("</g>")
    return "".join(parts)


def _crown(cx: float, cy: float) -> str:
    s = SQUARE / 40
    outline = [(-9, 6), (-11, -6), (-5, -1), (0, -9), (5, -1), (11, -6), (9, 6)]
    points = " ".join(f"{cx + dx * s:g},{cy + dy * s:g}" for dx, dy in outline)
    return (f'<polygon points="{points}" fill="{CROWN}" stroke="#6b4e00" stroke-width="1" '
            f'stroke-linejoin="round" class="crown"/>')


def captured_pieces(board: BaseBoard, move: Move) -> dict[int, str]:
    """The pieces ``move`` took, by square: their kind is known when ``move`` is the last move
    pushed on ``board``; otherwise they are drawn as the opponent's men."""
    if board.move_stack and board.move_stack[-1] is move:
        before = board.copy()
        before.pop()
        return {square: before.piece_at(square) or _man_to_move(board)
                for square in move.captures}
    return dict.fromkeys(move.captures, _man_to_move(board))


def _man_to_move(board: BaseBoard) -> str:
    return WHITE_MAN if board.turn == WHITE else BLACK_MAN


def captured_marks(layout: Layout, captured: dict[int, str]) -> list[str]:
    """A faded piece with a red cross on each square a capture emptied."""
    marks = []
    arm = SQUARE * 0.22
    for square, piece in sorted(captured.items()):
        cx, cy = layout.centre(square)
        ghost = piece_svg(piece, cx, cy).replace('class="piece ', 'class="ghost ', 1)
        marks.append(f'<g class="captured" data-square="{layout.geometry.name(square)}" '
                     f'opacity="0.45">{ghost}</g>'
                     f'<path d="M{cx - arm},{cy - arm}L{cx + arm},{cy + arm}M{cx - arm},'
                     f'{cy + arm}L{cx + arm},{cy - arm}" stroke="{CROSS}" stroke-width="4" '
                     f'stroke-linecap="round" class="capture-cross"/>')
    return marks


def arrow_svg(layout: Layout, squares: Iterable[int], colour: str = ARROW,
              kind: str = "last-move") -> str:
    """An arrow through the centres of ``squares`` (a move's origin and landing squares);
    ``kind``: its class."""
    points = [layout.centre(square) for square in squares]
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head, half = SQUARE * 0.38, SQUARE * 0.22
    bx, by = x1 - ux * head, y1 - uy * head
    line = " ".join(f"{x:g},{y:g}" for x, y in [*points[:-1], (bx, by)])
    tip = (f"{x1:g},{y1:g} {bx - uy * half:g},{by + ux * half:g} "
           f"{bx + uy * half:g},{by - ux * half:g}")
    return (f'<g class="{kind}" opacity="0.8"><polyline points="{line}" fill="none" '
            f'stroke="{colour}" stroke-width="{SQUARE * 0.14:g}" stroke-linejoin="round" '
            f'stroke-linecap="round"/><polygon points="{tip}" fill="{colour}"/></g>')


def text_diagram(board: BaseBoard, *, unicode: bool = True, flipped: bool = False,
                 words: Catalog | None = None) -> str:
    """The board as text: one line per row, coordinates on the edges, then the side to move
    (in the language of ``words``, English by default).

    Files and ranks frame an alphanumeric board; on a numeric one each row is framed by the
    numbers of its first and last playing squares.
    """
    geo = board.variant.geometry
    notation = board.variant.gametype.notation
    symbols = UNICODE_PIECES if unicode else ASCII_PIECES
    empty, bar = ("·", "│") if unicode else (".", "|")
    pieces = board.setup().pieces
    layout = Layout(geo, flipped)
    # each line of the diagram: its cells (row, col) from the left
    rows: list[list[tuple[int, int]]] = [[] for _ in range(geo.height)]
    for cell in sorted(((row, col) for row in range(geo.height) for col in range(geo.width)),
                       key=lambda cell: layout.place(*cell)[0]):
        rows[layout.place(*cell)[1]].append(cell)
    edges = [_row_edges(geo, notation, row) for row in rows]
    pad = max(len(edge) for pair in edges for edge in pair)
    lines = []
    for row, (left, right) in zip(rows, edges, strict=True):
        squares = [geo.at(*cell) for cell in row]
        cells = " ".join(symbols.get(pieces.get(sq, ""), empty) if sq is not None else " "
                         for sq in squares)
        lines.append(f"{left:>{pad}} {bar} {cells} {bar} {right}".rstrip())
    if not notation.numeric:
        files = " ".join(FILES[col] for _, col in rows[0])
        lines.append(f"{'':>{pad}}   {files}")
    lines.append(to_move(board.turn == WHITE, words))
    return "\n".join(lines)


def _row_edges(geo: Geometry, notation: SquareNotation, row: list[tuple[int, int]]
               ) -> tuple[str, str]:
    if not notation.numeric:
        rank = str(row[0][0] + 1)
        return rank, rank
    playable = [square for cell in row if (square := geo.at(*cell)) is not None]
    return notation.name(playable[0]), notation.name(playable[-1])
