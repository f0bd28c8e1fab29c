"""The friendly board: a position of any variant that also parses a move in any notation,
writes it in each, draws itself and tells how the game ended (``replay.Board``).

It is the rules' board (``replay.rules.position.BaseBoard``: legal moves, push/pop, FEN)
composed with the modules above it: the resolver, the notation, the endings and the diagrams.

>>> board = Board(variant="russian")      # the start position
>>> len(board.legal_moves())
7
>>> move = board.parse("cd4")             # any notation: c3-d4, cd4, 22-18, capture paths
>>> str(move), board.text(move, "numeric")
('c3-d4', '22-18')
>>> board.push(move); board.fen()
'B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
>>> board.pop() == move
True
>>> Board("W:Wa1:Bc3,f4", variant="russian")
Board('W:Wa1:Bc3,f4', variant='russian')
"""

from __future__ import annotations

from typing import NamedTuple, cast

from replay.record.diagram import board_svg, text_diagram
from replay.record.notation import move_text
from replay.record.resolve import parse_text
from replay.rules.endings import decide
from replay.rules.move import Move
from replay.rules.numbering import SIDE_NAMES
from replay.rules.position import BaseBoard


class Outcome(NamedTuple):
    """How a finished game ended: the ``winner`` (``White`` or ``Black``) and the
    ``reason`` in words."""

    winner: str
    reason: str


class Board(BaseBoard):
    """A position of a variant, with the moves that led to it (for ``pop``), that reads and
    writes moves as text, draws itself and tells the outcome.

    ``Board(variant="russian")`` is the start position, ``Board(fen, variant=...)`` a FEN
    set-up in the variant's square notation (raises ``pdn.fen.FenError``), and the engine's
    own form ``Board(variant, position)`` a ``Position``. The variant is a ``Variant`` or
    its name (Russian when not given).
    """

    def copy(self) -> Board:
        return cast(Board, super().copy())

    def parse(self, text: str) -> Move:
        """The legal move a text means, in any notation: ``c3-d4``, ``cd4``, ``22-18``,
        ``c3:e5``, ``h2:c7:a5:e1``. Raises ``IllegalMoveError`` or ``AmbiguousMoveError``
        (naming the legal moves), or ``InvalidMoveError`` for text that is no move; all three
        are ``ValueError``."""
        return parse_text(self, text)

    def push_text(self, text: str) -> Move:
        """Play the move a text means (see ``parse``) and return it."""
        move = self.parse(text)
        self.push(move)
        return move

    def text(self, move: Move, style: str = "full") -> str:
        """A legal move of this position as text: ``full`` (``c3-d4``, ``c3:e5``), ``short``
        (Russian ``cd4``, ``c:e5``), ``numeric`` (``22-18``) or ``pdn`` (the notation the
        variant's GameType prescribes); a capture path only where another move needs it."""
        return move_text(self, move, style)

    def outcome(self) -> Outcome | None:
        """How the game ended in this position (no legal move, or a Breakthrough king), or
        None while it goes on; draws by rule need the game's history (``replay_game``)."""
        decision = decide(self)
        return None if decision is None else Outcome(SIDE_NAMES[decision.winner],
                                                     decision.reason)

    def is_game_over(self) -> bool:
        """Whether the position ends the game (see ``outcome``)."""
        return self.outcome() is not None

    def __str__(self) -> str:
        """A plain-text diagram with coordinates and the side to move (``w W b B``)."""
        return text_diagram(self, unicode=False)

    def _repr_svg_(self) -> str:
        """The SVG diagram Jupyter shows for a board."""
        return board_svg(self, size=360)
