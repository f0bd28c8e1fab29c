"""Move numbers as a scoresheet counts them: both sides' moves share a number.

The one place that numbers plies: the replayer, the game tree, conversion, diagrams and
repair suggestions all count with a ``MoveNumbering``. The first number is the set-up's ``F``
field (else 1); a set-up with the second player to move makes the first ply ``1...``.

>>> from replay.rules.variants import RUSSIAN
>>> numbering = MoveNumbering.of(None, RUSSIAN)
>>> [numbering.label(index) for index in range(3)]
['1.', '1...', '2.']
>>> later = MoveNumbering.of("B:W18:B14:H0:F12", RUSSIAN)
>>> later.label(0), later.side(0), later.number(1)
('12...', 'Black', 13)
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.fen import first_move_number, second_player_starts
from pdn.i18n import N_
from replay.rules.variants import Variant

SIDE_NAMES = (N_("White"), N_("Black"))
SIDE_WORDS = (N_("white"), N_("black"))  # in a sentence: "no white piece on c3"


@dataclass(frozen=True, slots=True)
class MoveNumbering:
    """Numbers plies from a game's start: ``first`` is the number of the first ply,
    ``offset`` is 1 when the second player moves first, ``first_side`` (0 White, 1 Black)
    is the side that makes the first ply."""

    first: int
    offset: int
    first_side: int

    @classmethod
    def of(cls, fen: str | None, variant: Variant) -> MoveNumbering:
        """The numbering of a game that starts from ``fen`` (None: the initial position)."""
        second = second_player_starts(fen, variant.white_starts)
        first_mover = 0 if variant.white_starts else 1
        return cls(first_move_number(fen), int(second), first_mover ^ int(second))

    def number(self, index: int) -> int:
        """The move number of the ``index``-th ply (0-based) from the start."""
        return self.first + (index + self.offset) // 2

    def is_second(self, index: int) -> bool:
        """Whether the ``index``-th ply is the second player's (written ``n...``)."""
        return (index + self.offset) % 2 == 1

    def side_index(self, index: int) -> int:
        """0 when White makes the ``index``-th ply, 1 when Black does."""
        return (self.first_side + index) % 2

    def side(self, index: int) -> str:
        """``White`` or ``Black``: who makes the ``index``-th ply."""
        return SIDE_NAMES[self.side_index(index)]

    def label(self, index: int) -> str:
        """``12.`` for the first player's ply, ``12...`` for the second player's."""
        return f"{self.number(index)}{'...' if self.is_second(index) else '.'}"
