"""Moves as text: full, short (Russian), numeric, with the capture path in any style.

Path styles for a multi-capture (docs/rules.md):

- ``minimal``: origin and destination, the full canonical path only where another legal move
  shares them (the PDN 3.0 rule);
- ``turns``: every square where the capturing piece changes direction (Russian books,
  ``h2:c7:a5:e1``);
- ``canonical``: PDN 3.0's full form -- for each captured piece but the last, the square where
  the piece turned or, if it went straight on, the square just behind that piece;
- ``all``: every landing square of the route.
"""

from __future__ import annotations

from collections.abc import Sequence

from pdn.squares import Geometry
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.position import BaseBoard

PATH_STYLES = ("minimal", "turns", "canonical", "all")


def direction(geo: Geometry, start: int, end: int) -> tuple[int, int]:
    """The unit step (row, col) from one square towards another on the same line."""
    (r0, c0), (r1, c1) = geo.row_col(start), geo.row_col(end)
    return (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)


def trajectory(geo: Geometry, route: Move) -> list[int]:
    """Every square the piece stands on or passes over, from origin to destination."""
    squares = [route.origin]
    for landing in route.path:
        dr, dc = direction(geo, squares[-1], landing)
        row, col = geo.row_col(squares[-1])
        end = geo.row_col(landing)
        while (row, col) != end:
            row, col = row + dr, col + dc
            square = geo.at(row, col)
            if square is not None:  # a light cell passed over (Frisian's lines) has none
                squares.append(square)
    return squares


def turning_squares(geo: Geometry, route: Move) -> list[int]:
    """Origin, each square where the direction changes, destination (Russian book form)."""
    points = [route.origin, *route.path]
    result = [route.origin]
    for before, here, after in zip(points, points[1:], points[2:], strict=False):
        if direction(geo, before, here) != direction(geo, here, after):
            result.append(here)
    result.append(route.destination)
    return result


def canonical_squares(geo: Geometry, route: Move) -> list[int]:
    """PDN 3.0 canonical full form of a capture route."""
    points = [route.origin, *route.path]
    result = [route.origin]
    for index, captured in enumerate(route.captures[:-1]):
        before, here, after = points[index], points[index + 1], points[index + 2]
        if direction(geo, before, here) != direction(geo, here, after):
            result.append(here)
        else:
            result.append(_behind(geo, captured, direction(geo, before, here)))
    result.append(route.destination)
    return result


def _behind(geo: Geometry, square: int, step: tuple[int, int]) -> int:
    """The playing square immediately behind ``square`` going ``step`` (two cells away on an
    orthogonal line of a checkered board, as in Frisian; one on a diagonal). The route goes
    on past ``square`` that way, so there is one on the board."""
    row, col = geo.row_col(square)
    while True:
        row, col = row + step[0], col + step[1]
        if (behind := geo.at(row, col)) is not None:
            return behind


def route_squares(board: BaseBoard, route: Move, paths: str = "minimal") -> list[int]:
    """The squares to write for a move in a path style (see the module docstring)."""
    geo = board.variant.geometry
    if not route.captures or (len(route.captures) == 1 and paths != "all"):
        return [route.origin, route.destination]
    if paths == "all":
        return [route.origin, *route.path]
    if paths == "turns":
        return turning_squares(geo, route)
    if paths == "canonical" or is_ambiguous(board, route):
        return canonical_squares(geo, route)
    return [route.origin, route.destination]


def is_ambiguous(board: BaseBoard, move: Move, legal: Sequence[Move] | None = None) -> bool:
    """Whether another legal move has the same origin and destination."""
    moves = board.legal_moves_to(move.destination, 1 << move.origin) if legal is None else legal
    return any(other.origin == move.origin and other.destination == move.destination
               and other != move for other in moves)


def separator_of(board: BaseBoard, move: Move, capture_separator: str | None = None) -> str:
    """``-`` for a quiet move, the variant's capture mark (or the one asked for) otherwise."""
    if not move.captures:
        return "-"
    if capture_separator:
        return capture_separator
    return board.variant.gametype.capture_separator


def full_text(board: BaseBoard, move: Move, paths: str = "minimal",
              capture_separator: str | None = None, numeric: bool | None = None) -> str:
    """The move in full notation: ``c3-d4``, ``c3:e5``, ``h2:c7:a5:e1``, ``22x15``."""
    notation = board.variant.gametype.notation
    use_numbers = notation.numeric if numeric is None else numeric
    names = notation.numbers if use_numbers else board.variant.geometry.names
    separator = separator_of(board, move, capture_separator)
    if len(move.path) == 1:  # one landing square: origin and destination in every style
        return f"{names[move.origin]}{separator}{names[move.destination]}"
    return separator.join([names[s] for s in route_squares(board, move, paths)])


def short_is_ambiguous(board: BaseBoard, move: Move, legal: Sequence[Move] | None = None) -> bool:
    """Whether another legal move has the same short form (origin file, destination and
    whether it captures), so that short notation must fall back to full squares."""
    geo = board.variant.geometry
    if legal is None:  # only another piece of the same file making a move of the same kind
        generator = board.generator
        same_file = generator.column_masks[move.origin]
        position = board.position
        white = position.turn == WHITE
        own = position.white if white else position.black
        others = own & same_file & ~(1 << move.origin)
        if others and move.captures:
            opp = position.black if white else position.white
            others &= generator.capturing_pieces(own, opp, position.kings, position.turn)
        elif not generator.men_share_files and not (position.kings >> move.origin) & 1:
            others &= position.kings  # a man's rival in its file is a king
        if not others:
            return False
        legal = (board.capture_routes(same_file) if move.captures
                 else board.quiet_moves_to(move.destination, same_file))
    file = geo.name(move.origin)[0]
    return any(other != move and other.destination == move.destination
               and geo.name(other.origin)[0] == file
               and bool(other.captures) == bool(move.captures) for other in legal)


def short_text(board: BaseBoard, move: Move, legal: Sequence[Move] | None = None) -> str:
    """Russian short notation (``ed4``, ``b:d6``); the full form where short is ambiguous."""
    if short_is_ambiguous(board, move, legal):
        return full_text(board, move, "minimal", numeric=False)
    names = board.variant.geometry.names
    mark = ":" if move.captures else ""
    return f"{names[move.origin][0]}{mark}{names[move.destination]}"


def move_text(board: BaseBoard, move: Move, style: str = "full") -> str:
    """A move as text in a style: ``full`` (squares by name), ``short`` (Russian), ``numeric``
    (squares by number) or ``pdn`` (as the variant's GameType prescribes); minimal paths."""
    if style == "full":
        return full_text(board, move, numeric=False)
    if style == "short":
        return short_text(board, move)
    if style == "numeric":
        return full_text(board, move, numeric=True)
    if style == "pdn":
        return full_text(board, move)
    raise ValueError(f"unknown move text style '{style}'; choose full, short, numeric or pdn")


def move_json(board: BaseBoard, move: Move) -> dict:
    """The stable JSON form of a move (``pdn moves --json``), squares in the variant's
    notation.

    >>> from replay.rules.variants import RUSSIAN
    >>> board = BaseBoard.from_fen("W:Wc3:Bd4", RUSSIAN)
    >>> move_json(board, board.legal_moves()[0])
    {'from': 'c3', 'to': 'e5', 'path': ['c3', 'e5'], 'captures': ['d4'], 'promotes': False}
    """
    return {
        "from": board.name(move.origin),
        "to": board.name(move.destination),
        "path": [board.name(square) for square in (move.origin, *move.path)],
        "captures": [board.name(square) for square in move.captures],
        "promotes": move.promotes,
    }
