"""Board diagrams as SVG text: pure functions of a position (in the spirit of chess.svg).

>>> from replay.board import Board
>>> svg = board_svg(Board())
>>> svg.startswith("<svg") and svg.count('class="piece') == 24
True
"""

from __future__ import annotations

from html import escape

from pdn.fen import BLACK_KING, BLACK_MAN, WHITE_KING, WHITE_MAN
from replay.board import Board
from replay.move import Move

SQUARE = 40
MARGIN = 20
LIGHT, DARK = "#f0d9b5", "#b58863"
PIECE_FILL = {WHITE_MAN: "#fafafa", WHITE_KING: "#fafafa", BLACK_MAN: "#222", BLACK_KING: "#222"}
PIECE_STROKE = {WHITE_MAN: "#333", WHITE_KING: "#333", BLACK_MAN: "#000", BLACK_KING: "#000"}


def board_svg(board: Board, *, last_move: Move | None = None, flipped: bool = False,
              coordinates: bool = True, size: int | None = None) -> str:
    """An SVG diagram of the board: squares, pieces (kings with a crown ring), coordinates in
    the variant's notation, and the last move as an arrow along its path."""
    geo = board.variant.geometry
    width, height = geo.width * SQUARE + 2 * MARGIN, geo.height * SQUARE + 2 * MARGIN
    scale = f' width="{size}" height="{size * height // width}"' if size else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"{scale} '
             f'class="draughts-board">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>']

    def corner(square: int) -> tuple[int, int]:
        row, col = geo.row_col(square)
        if flipped:
            row, col = geo.height - 1 - row, geo.width - 1 - col
        return MARGIN + col * SQUARE, MARGIN + (geo.height - 1 - row) * SQUARE

    def centre(square: int) -> tuple[float, float]:
        x, y = corner(square)
        return x + SQUARE / 2, y + SQUARE / 2

    numeric = board.variant.gametype.notation.numeric
    for square in range(geo.size):
        x, y = corner(square)
        playable = geo.is_playable(square)
        fill = DARK if playable and not geo.all_squares else LIGHT
        parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>')
        if coordinates and numeric and playable:
            parts.append(f'<text x="{x + 2}" y="{y + 9}" font-size="8" fill="#eee" '
                         f'class="number">{escape(board.name(square))}</text>')
    if last_move is not None:
        parts.extend(_arrow(board, last_move, centre))
    pieces = board.setup().pieces
    for square, piece in sorted(pieces.items()):
        cx, cy = centre(square)
        king = piece in (WHITE_KING, BLACK_KING)
        colour = "white" if piece in (WHITE_MAN, WHITE_KING) else "black"
        kind = "king" if king else "man"
        parts.append(f'<circle cx="{cx}" cy="{cy}" r="{SQUARE * 0.38}" fill="{PIECE_FILL[piece]}"'
                     f' stroke="{PIECE_STROKE[piece]}" stroke-width="2" '
                     f'class="piece {colour} {kind}" data-square="{escape(board.name(square))}"/>')
        if king:
            ring = "#222" if colour == "white" else "#eee"
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{SQUARE * 0.18}" fill="none" '
                         f'stroke="{ring}" stroke-width="3"/>')
    if coordinates and not numeric:
        parts.extend(_edge_labels(board, flipped))
    parts.append("</svg>")
    return "".join(parts)


def _edge_labels(board: Board, flipped: bool) -> list[str]:
    geo = board.variant.geometry
    files = [geo.name(col)[0] for col in range(geo.width)]
    ranks = [str(row + 1) for row in range(geo.height)]
    if flipped:
        files, ranks = files[::-1], ranks[::-1]
    labels = []
    for index, name in enumerate(files):
        x = MARGIN + index * SQUARE + SQUARE / 2
        labels.append(f'<text x="{x}" y="{MARGIN + geo.height * SQUARE + 14}" font-size="12" '
                      f'text-anchor="middle" class="file">{name}</text>')
    for index, name in enumerate(ranks):
        y = MARGIN + (geo.height - 1 - index) * SQUARE + SQUARE / 2 + 4
        labels.append(f'<text x="{MARGIN / 2}" y="{y}" font-size="12" text-anchor="middle" '
                      f'class="rank">{name}</text>')
    return labels


def _arrow(board: Board, move: Move, centre) -> list[str]:
    points = [move.origin, *move.path]
    coords = " ".join(f"{x},{y}" for x, y in (centre(square) for square in points))
    marks = [f'<polyline points="{coords}" fill="none" stroke="#2a7" stroke-width="5" '
             f'stroke-opacity="0.8" stroke-linejoin="round" class="last-move"/>']
    for captured in move.captures:
        cx, cy = centre(captured)
        marks.append(f'<circle cx="{cx}" cy="{cy}" r="{SQUARE * 0.45}" fill="none" '
                     f'stroke="#d33" stroke-width="3" class="captured"/>')
    return marks
