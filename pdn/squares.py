"""Board geometry: sizes, playable squares, square names and every numbering.

One definition serves the parser, the writer, FEN and diagrams.

Internal square index: over the playing squares only, row 0 being the rank nearest White
(rank 1) and col 0 the file ``a``, in a "ghost square" layout: on a checkered board of even
width ``w`` the square at (row, col) is ``(row * (w + 1) + col - p) // 2`` (``p`` 1 when a1 is
light, else 0), so that rows take ``w / 2`` squares and every second row one unused index
(a ghost) at its end. A step along a line is then the same difference of indices from every
square, and a bitboard fits 36 bits on 8x8 and 55 bits on 10x10: a machine word, where the
compiled core computes without allocating (12x12 takes 78 bits and stays correct on Python's
long integers). Boards played on every square (Turkish) are indexed ``row * width + col``.
Light squares have no index; ``a1`` is 0 on every board, and on 8x8 ``h8`` is 35. Only this
module turns squares into rows and columns (``row_col``, ``at``); everything else asks it.

Numeric notations follow the PDN GameType code ``N0..N3`` (PDN 3.0, ``doc/gametype.rst``):
the digit says in which corner square 1 lies *seen from the starting player's seat*
(0 bottom-left, 1 bottom-right, 2 top-left, 3 top-right); numbering runs horizontally away
from that corner, row by row. White always sits at the bottom of the internal board.

>>> g = geometry(8, 8)
>>> g.name(0), g.square("h8"), g.row_col(35), g.at(1, 1), g.at(0, 1)
('a1', 35, (7, 7), 5, None)
>>> n = g.numbering(corner=1, white_starts=False)   # English checkers, 21,B,8,8,N1,0
>>> n.name(g.square("b8")), n.name(g.square("a1")), n.name(g.square("g1"))
('1', '29', '32')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, cached_property

from pdn.i18n import N_

FILES = "abcdefghijklmnopqrstuvwxyz"


class SquareError(ValueError):
    """A square name or number that does not exist on the board."""


@dataclass(frozen=True)
class SquareNumbering:
    """A numeric square numbering: number ``n`` (1-based) is ``squares[n - 1]``."""

    squares: tuple[int, ...]
    by_square: dict[int, int] = field(compare=False, hash=False, repr=False)

    def name(self, square: int) -> str:
        """The number of an internal square, as text."""
        return self.names[square]

    @cached_property
    def names(self) -> dict[int, str]:
        """Internal square -> its number as text, for every numbered square."""
        return {square: str(number) for square, number in self.by_square.items()}

    def square(self, number: int) -> int:
        """The internal square of a number; raises SquareError when off the board."""
        if not 1 <= number <= len(self.squares):
            raise SquareError(N_("square {square} is not on the board (1-{count})").format(
                square=number, count=len(self.squares)))
        return self.squares[number - 1]


@dataclass(frozen=True)
class Geometry:
    """An ``width`` x ``height`` board.

    ``invert`` follows the PDN GameType invert flag: False when White's bottom-left corner
    (a1) is a playing square. ``all_squares`` marks boards played on every square (Turkish).
    """

    width: int
    height: int
    invert: bool = False
    all_squares: bool = False

    @property
    def ghosts(self) -> bool:
        """Whether the squares use the ghost-square layout (checkered boards of even sides)."""
        return not self.all_squares and self.width % 2 == 0 and self.height % 2 == 0

    @property
    def size(self) -> int:
        """Number of internal indices (playing squares and ghosts): every square is below it,
        and ``size - 1 - square`` is the square turned 180 degrees."""
        return _size(self)

    def is_playable(self, square: int) -> bool:
        """Whether an internal index is a square pieces may stand on (not a ghost)."""
        return 0 <= square < self.size and self.at(*self.row_col(square)) == square

    def is_playable_cell(self, row: int, col: int) -> bool:
        """Whether the cell at (row, col) is on the board and a playing square."""
        if not (0 <= row < self.height and 0 <= col < self.width):
            return False
        return self.all_squares or (row + col) % 2 == (1 if self.invert else 0)

    @property
    def playable(self) -> tuple[int, ...]:
        """Every playable internal square, in index order."""
        return _playable(self)

    def row_col(self, square: int) -> tuple[int, int]:
        """(row, col) of an internal square; row 0 is White's first rank (a ghost gets a
        column off the board)."""
        if not self.ghosts:
            return divmod(square, self.width)
        return divmod(2 * square + (1 if self.invert else 0), self.width + 1)

    def at(self, row: int, col: int) -> int | None:
        """The internal square at (row, col), or None off the board or on a light square."""
        if not self.is_playable_cell(row, col):
            return None
        if not self.ghosts:
            return row * self.width + col
        return (row * (self.width + 1) + col - (1 if self.invert else 0)) // 2

    def offset(self, rows: int, cols: int) -> int:
        """The difference of indices of one step of (rows, cols) between two playing squares,
        the same from every square (``rows + cols`` even on a checkered board)."""
        if not self.ghosts:
            return rows * self.width + cols
        return (rows * (self.width + 1) + cols) // 2

    def name(self, square: int) -> str:
        """Alphanumeric name: files a.., ranks 1.. from White's side."""
        return self.names[square]

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The alphanumeric name of every internal square, by index."""
        cells = [self.row_col(square) for square in range(self.size)]
        return tuple(f"{FILES[col]}{row + 1}" if col < self.width else "" for row, col in cells)

    def square(self, name: str) -> int:
        """Internal square of an alphanumeric name (any case); raises SquareError."""
        text = name.strip().lower()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            raise SquareError(N_("'{square}' is not a square name").format(square=name))
        col = FILES.find(text[0])
        row = int(text[1:]) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise SquareError(N_("square '{square}' is not on a {width}x{height} "
                                 "board").format(square=name, width=self.width,
                                                 height=self.height))
        square = self.at(row, col)
        if square is None:
            raise SquareError(N_("square '{square}' is not a playing square").format(
                square=name))
        return square

    def numbering(self, corner: int, white_starts: bool) -> SquareNumbering:
        """The numeric numbering of PDN code ``N<corner>`` for the given starting side."""
        return _numbering(self, corner, white_starts)


@cache
def geometry(width: int, height: int, invert: bool = False, all_squares: bool = False) -> Geometry:
    """The shared Geometry value for a board shape."""
    return Geometry(width, height, invert, all_squares)


@cache
def _size(geo: Geometry) -> int:
    if not geo.ghosts:
        return geo.width * geo.height
    top = geo.height - 1
    return max(square for col in range(geo.width)
               if (square := geo.at(top, col)) is not None) + 1


@cache
def _playable(geo: Geometry) -> tuple[int, ...]:
    return tuple(sorted(square for row in range(geo.height) for col in range(geo.width)
                        if (square := geo.at(row, col)) is not None))


@cache
def _numbering(geo: Geometry, corner: int, white_starts: bool) -> SquareNumbering:
    if corner not in (0, 1, 2, 3):
        raise ValueError(f"numbering corner must be 0-3, not {corner}")
    # Work in the starter's frame (u: column from its left, v: row from its near edge),
    # then map back to White's frame; Black's seat is White's frame turned 180 degrees.
    from_right = corner in (1, 3)
    from_top = corner in (2, 3)
    order = []
    for step_v in range(geo.height):
        v = geo.height - 1 - step_v if from_top else step_v
        for step_u in range(geo.width):
            u = geo.width - 1 - step_u if from_right else step_u
            row, col = (v, u) if white_starts else (geo.height - 1 - v, geo.width - 1 - u)
            square = geo.at(row, col)
            if square is not None:
                order.append(square)
    squares = tuple(order)
    return SquareNumbering(squares, {sq: i + 1 for i, sq in enumerate(squares)})
