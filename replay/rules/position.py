"""A position of any variant and the rules' board: legal moves, push/pop and a key for
repetitions, nothing of notation, pictures or outcomes.

``Position`` is the bitboards and the side to move; ``BaseBoard`` a position of a variant with
the moves that led to it. The friendly ``replay.Board`` (``replay.record.board``), which
also parses and writes moves, draws the position and tells the outcome, is built on it, as
python-chess keeps ``chess.svg`` and ``chess.pgn`` above its board.

>>> board = BaseBoard(variant="russian")      # the start position
>>> len(board.legal_moves())
7
>>> move = board.legal_moves()[0]; str(move)
'c3-b4'
>>> board.push(move); board.fen()
'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,b4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
>>> board.pop() == move
True
>>> BaseBoard("W:Wa1:Bc3,f4", variant="russian")
BaseBoard('W:Wa1:Bc3,f4', variant='russian')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdn.fen import BLACK_KING, BLACK_MAN, WHITE_KING, WHITE_MAN, Setup, format_fen, parse_fen
from replay.rules.identity import ByIdentity
from replay.rules.move import Move
from replay.rules.movegen import BLACK, WHITE, MoveGenerator, generator_for, iter_bits
from replay.rules.variants import RUSSIAN, Variant, get_variant

if TYPE_CHECKING:
    from pdn.gametype import SquareNotation


class Position:
    """The raw state: White's and Black's pieces, the kings among them, the side to move.

    An immutable value (compared and hashed by its fields, those of its class only). A plain
    class rather than a frozen dataclass: the compiled core builds one per move, and the
    dataclass's generated ``__init__`` ran as interpreted Python (a profile of perft found it
    among the top entries)."""

    __slots__ = ("black", "kings", "turn", "white")

    def __init__(self, white: int, black: int, kings: int, turn: int) -> None:
        # Checked where it is made: a negative mask never runs out of bits (a walk over its
        # pieces would not end), nor does a square hold two pieces or a king no piece.
        if (turn != WHITE and turn != BLACK) or (white | black | kings) < 0 or white & black \
                or kings & ~(white | black):
            raise ValueError(_position_fault(white, black, kings, turn))
        self.white = white
        self.black = black
        self.kings = kings
        self.turn = turn  # WHITE (0) or BLACK (1)

    def _fields(self) -> tuple:
        return self.white, self.black, self.kings, self.turn

    def __eq__(self, other: object) -> bool:
        return (type(other) is type(self) and isinstance(other, Position)
                and self._fields() == other._fields())

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(white={self.white}, black={self.black}, "
                f"kings={self.kings}, turn={self.turn})")

    def play(self, move: Move) -> Position:
        """The position after a legal move of the side to move."""
        moved = (1 << move.origin) ^ (1 << move.destination)
        kings = self.kings & ~move.captured_mask
        if (self.kings >> move.origin) & 1:
            kings ^= moved
        elif move.promotes:
            kings |= 1 << move.destination
        if self.turn == WHITE:
            return Position(self.white ^ moved, self.black & ~move.captured_mask, kings, BLACK)
        return Position(self.white & ~move.captured_mask, self.black ^ moved, kings, WHITE)

    def frozen_kings(self, limit: int) -> int:
        """Kings of the side to move that may not make a non-capturing move (none here)."""
        return 0

    def __reduce__(self) -> tuple[type[Position], tuple[int, int, int, int]]:
        """Pickled as its fields (the compiled class cannot set a frozen field afterwards)."""
        return Position, (self.white, self.black, self.kings, self.turn)


def _position_fault(white: int, black: int, kings: int, turn: int) -> str:
    """What makes ``Position(white, black, kings, turn)`` no position."""
    if turn != WHITE and turn != BLACK:
        return f"no position: the side to move is {turn}, not {WHITE} (White) or {BLACK} (Black)"
    if (white | black | kings) < 0:
        return "no position: a mask of squares is negative"
    if white & black:
        return "no position: a square holds a white and a black piece"
    return "no position: a king stands on a square without a piece"


class RestrictedPosition(Position):
    """A position that also remembers, per side, which king made the last non-capturing
    moves in a row and how many (Frisian: at most 3 while the side has men, docs/rules.md).

    ``streaks[side]`` is ``(square, count)``; ``(-1, 0)`` when the side's last move was not
    a quiet king move. Kept apart from ``Position`` so that other variants pay nothing.
    """

    __slots__ = ("streaks",)

    def __init__(self, white: int, black: int, kings: int, turn: int,
                 streaks: tuple[tuple[int, int], tuple[int, int]] = ((-1, 0), (-1, 0))
                 ) -> None:
        super().__init__(white, black, kings, turn)
        self.streaks = streaks

    def _fields(self) -> tuple:
        return self.white, self.black, self.kings, self.turn, self.streaks

    def __repr__(self) -> str:
        return f"{Position.__repr__(self)[:-1]}, streaks={self.streaks})"

    def play(self, move: Move) -> RestrictedPosition:
        after = Position.play(self, move)
        own = self.white if self.turn == WHITE else self.black
        streak = (-1, 0)
        # Only a quiet king move of a side that still has men counts (DCTL frisian.hpp).
        if not move.captures and (self.kings >> move.origin) & 1 and own & ~self.kings:
            square, count = self.streaks[self.turn]
            streak = (move.destination, count + 1 if square == move.origin else 1)
        streaks = ((streak, self.streaks[1]) if self.turn == WHITE
                   else (self.streaks[0], streak))
        return RestrictedPosition(after.white, after.black, after.kings, after.turn, streaks)

    def __reduce__(self) -> tuple[type[Position], tuple]:  # type: ignore[override]
        return RestrictedPosition, (self.white, self.black, self.kings, self.turn, self.streaks)

    def frozen_kings(self, limit: int) -> int:
        square, count = self.streaks[self.turn]
        own = self.white if self.turn == WHITE else self.black
        if count < limit or not own & ~self.kings:
            return 0
        return (1 << square) & own & self.kings


def for_variant(position: Position, variant: Variant) -> Position:
    """The position in the form the variant needs (with king-move streaks for Frisian)."""
    if variant.max_king_moves and not isinstance(position, RestrictedPosition):
        return RestrictedPosition(position.white, position.black, position.kings, position.turn)
    return position


def start_position(variant: Variant) -> Position:
    """The initial position of a variant."""
    return _STARTS(variant)


def _initial_position(variant: Variant) -> Position:
    geo = variant.geometry
    first, rows = variant.first_men_row, variant.men_rows
    white = black = 0
    for square in geo.playable:
        row = geo.row_col(square)[0]
        if first <= row < first + rows:
            white |= 1 << square
        elif geo.height - first - rows <= row < geo.height - first:
            black |= 1 << square
    return for_variant(Position(white, black, 0, WHITE if variant.white_starts else BLACK),
                       variant)


# The start position of each variant met, built once (a Position is an immutable value; a
# profile of validate found it rebuilt per game), found by the variant's identity (its hash
# is slow: replay.rules.identity); variants made with rule options are bounded all the same.
_STARTS: ByIdentity[Variant, Position] = ByIdentity(_initial_position)


def _playable_mask(variant: Variant) -> int:
    return sum(1 << square for square in variant.geometry.playable)


# The squares a piece may stand on, per variant (a bit each), as ``_STARTS`` keeps them.
_PLAYABLE: ByIdentity[Variant, int] = ByIdentity(_playable_mask)


class BaseBoard:
    """A position of a variant, with the moves that led to it (for ``pop``).

    ``BaseBoard(variant="russian")`` is the start position, ``BaseBoard(fen, variant=...)`` a
    FEN set-up in the variant's square notation (raises ``pdn.fen.FenError``), and the
    engine's own form ``BaseBoard(variant, position)`` a ``Position``. The variant is a
    ``Variant`` or its name (Russian when not given).
    """

    def __init__(self, fen: str | Variant | None = None, position: Position | None = None,
                 *, variant: Variant | str | None = None) -> None:
        if isinstance(fen, Variant):
            if variant is not None:
                raise TypeError("Board() got the variant twice")
            variant, fen = fen, None
        if isinstance(variant, str):
            variant = get_variant(variant)
        variant = variant or RUSSIAN
        if fen is not None:
            if position is not None:
                raise TypeError("Board() takes a FEN or a position, not both")
            position = position_from_setup(parse_fen(fen, variant.gametype.notation))
        self.variant = variant
        self.generator: MoveGenerator = generator_for(variant)
        if position is not None and (position.white | position.black) & ~_PLAYABLE(variant):
            raise ValueError(f"no position of {variant.name}: a piece stands off the board's "
                             "playable squares")
        self.position = (for_variant(position, variant) if position is not None
                         else start_position(variant))
        self.move_stack: list[Move] = []
        self._states: list[Position] = []

    @classmethod
    def from_fen(cls, fen: str, variant: Variant = RUSSIAN) -> BaseBoard:
        """A board set up from a FEN in the variant's notation; raises ``pdn.fen.FenError``."""
        return cls(fen, variant=variant)

    # -- state ------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.position.turn

    def _sides(self) -> tuple[int, int, int, int]:
        p = self.position
        if p.turn == WHITE:
            return p.white, p.black, p.kings, WHITE
        return p.black, p.white, p.kings, BLACK

    def frozen_kings(self) -> int:
        """Kings that may not make a non-capturing move now (Frisian, docs/rules.md)."""
        return self.position.frozen_kings(self.variant.max_king_moves)

    def key(self) -> Position:
        """A hashable key of the position (pieces and side to move) for repetition checks."""
        return self.position

    def setup(self) -> Setup:
        """The position as a ``pdn.fen.Setup``."""
        return setup_from_position(self.position)

    def fen(self) -> str:
        """FEN of the position in the variant's square notation."""
        return format_fen(self.setup(), self.variant.gametype.notation)

    def piece_at(self, square: int) -> str | None:
        """The piece code on a square (``w W b B``), or None."""
        return self.setup().pieces.get(square)

    # -- moves ------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move, one per (origin, destination, captured set)."""
        return self.generator.moves(*self._sides(), self.frozen_kings())

    def capture_routes(self, origins: int = -1) -> list[Move]:
        """Every legal capture route, keeping different routes of the same move (those of
        the pieces on the ``origins`` mask only, when given)."""
        return [route for route in self.generator.captures(*self._sides(), origins)
                if (origins >> route.origin) & 1]

    def has_capture(self) -> bool:
        return self.generator.has_capture(*self._sides())

    def quiet_moves_to(self, destination: int, origins: int) -> list[Move]:
        """The legal non-capturing moves to ``destination`` from the squares in the
        ``origins`` mask (captures aside; the resolver's fast path)."""
        return self.generator.quiet_moves_to(*self._sides(), destination,
                                             origins & ~self.frozen_kings())

    def legal_moves_to(self, destination: int, origins: int) -> list[Move]:
        """The legal moves to ``destination`` by the pieces on the squares of the ``origins``
        mask, capture routes kept apart (without building every legal move)."""
        sides = self._sides()
        moves = [route for route in self.generator.captures(*sides, origins)
                 if route.destination == destination]
        if self.variant.forced_capture and (moves or self.generator.has_capture(*sides)):
            return moves
        return moves + self.quiet_moves_to(destination, origins)

    def push(self, move: Move) -> None:
        """Play a legal move (not checked: use ``legal_moves`` or the resolver first)."""
        self._states.append(self.position)
        self.move_stack.append(move)
        self.position = self.position.play(move)

    def play(self, move: Move) -> None:
        """Play a legal move without keeping what ``pop`` needs (replaying a record)."""
        self.position = self.position.play(move)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        self.position = self._states.pop()
        return self.move_stack.pop()

    def copy(self) -> BaseBoard:
        """The same position and moves on a new board of this board's class."""
        board: BaseBoard = type(self)(self.variant, self.position)
        board.move_stack = list(self.move_stack)
        board._states = list(self._states)
        return board

    def name(self, square: int) -> str:
        """A square's name in the variant's notation."""
        return self.variant.gametype.notation.name(square)

    def move_text(self, move: Move, *, full_path: bool = False) -> str:
        """A move in the variant's preferred notation, ``c3-d4`` / ``c3:e5`` / ``22x15``."""
        separator = self.variant.gametype.capture_separator if move.captures else "-"
        squares = (move.origin, *move.path) if full_path else (move.origin, move.destination)
        return separator.join(self.name(square) for square in squares)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r}, variant={self.variant.name!r})"


def position_from_setup(setup: Setup) -> Position:
    """A Position from a FEN set-up."""
    white = black = kings = 0
    for square, piece in setup.pieces.items():
        bit = 1 << square
        if piece in (WHITE_MAN, WHITE_KING):
            white |= bit
        else:
            black |= bit
        if piece in (WHITE_KING, BLACK_KING):
            kings |= bit
    return Position(white, black, kings, WHITE if setup.white_to_move else BLACK)


def position_fen(position: Position, notation: SquareNotation) -> str:
    """``format_fen(setup_from_position(position), notation)``, the same text made straight
    from the bitboards (no set-up, no dict): a report writes one per game."""
    names = notation.names
    kings = position.kings
    by_number = notation.numbering.by_square.__getitem__ if notation.numbering else None

    def section(pieces: int) -> str:
        squares: list[int] = []  # lowest first (iter_bits inlined): square order
        while pieces:
            low = pieces & -pieces
            squares.append(low.bit_length() - 1)
            pieces ^= low
        if by_number is not None:
            squares.sort(key=by_number)
        return ",".join(["K" + names[sq] if kings >> sq & 1 else names[sq] for sq in squares])

    turn = "W" if position.turn == WHITE else "B"
    return f"{turn}:W{section(position.white)}:B{section(position.black)}"


def setup_from_position(position: Position) -> Setup:
    """A FEN set-up from a Position."""
    pieces: dict[int, str] = {}
    for square in iter_bits(position.white):
        pieces[square] = WHITE_KING if (position.kings >> square) & 1 else WHITE_MAN
    for square in iter_bits(position.black):
        pieces[square] = BLACK_KING if (position.kings >> square) & 1 else BLACK_MAN
    return Setup(position.turn == WHITE, pieces)
