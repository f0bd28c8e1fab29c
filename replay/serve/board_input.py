"""What the desk's board needs to take moves from the mouse, pen or finger: every legal
route with the squares the piece lands on, and where each square is drawn. The rules stay
here on the server; the page's script only matches the squares clicked against these routes.

>>> from replay.record.board import Board
>>> from replay.rules.variants import RUSSIAN
>>> routes = legal_routes(Board(RUSSIAN))
>>> len(routes), routes[0]
(7, {'text': 'a3-b4', 'squares': ['a3', 'b4'], 'taken': []})
"""

from __future__ import annotations

from replay.record.board import Board
from replay.record.diagram import SQUARE, Layout
from replay.record.notation import full_text
from replay.record.resolve import in_square_order


def legal_routes(board: Board) -> list[dict]:
    """Every legal move of the position as ``{text, squares, taken}``: ``squares`` is the
    origin and each landing square in order, ``taken`` the squares of the pieces it takes
    (two routes of one capture are both listed, each with the text naming its own route),
    ``text`` what the desk's move API accepts."""
    legal = in_square_order(board, board.legal_moves())
    keys = {(move.origin, move.destination, move.captured_mask) for move in legal}
    routes = [route for route in board.capture_routes()
              if (route.origin, route.destination, route.captured_mask) in keys]
    routes += [move for move in legal if not move.captures]
    name = board.variant.geometry.name
    return [{"text": full_text(board, route, "all" if _twin(route, routes) else "minimal"),
             "squares": [name(route.origin), *map(name, route.path)],
             "taken": sorted(map(name, route.captures))} for route in routes]


def _twin(route, routes) -> bool:
    """Whether another route is the same move by another way (its text must name its way)."""
    return any(other is not route and other.origin == route.origin
               and other.destination == route.destination
               and other.captured_mask == route.captured_mask
               and tuple(other.path) != tuple(route.path) for other in routes)


def square_centres(board: Board) -> dict:
    """Where each playing square is drawn on the server's diagram (``replay.record.diagram``), by
    its name, the side of a square, in SVG units, and each square's name in the variant's
    notation (``32`` on a numbered board), for the page's messages."""
    layout = Layout(board.variant.geometry)
    geometry, notation = board.variant.geometry, board.variant.gametype.notation
    squares = sorted(geometry.playable)
    return {"size": SQUARE,
            "centres": {geometry.name(square): layout.centre(square) for square in squares},
            "labels": {geometry.name(square): notation.name(square) for square in squares}}


__all__ = ["legal_routes", "square_centres"]
