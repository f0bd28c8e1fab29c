"""Who has won a position by its variant's win rule, and when a game is over before its
side to move runs out of moves.

Every classic variant: the side to move with no piece or no legal move loses. Antidraughts:
it wins. Breakthrough: the first king wins at once (docs/variants-lidraughts.md).

>>> from replay.rules.variants import get_variant
>>> decide(BaseBoard.from_fen("B:WK3,30:B22,23", get_variant("breakthrough"))).reason
'White made a king'
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.i18n import N_
from replay.rules.movegen import BLACK, WHITE
from replay.rules.numbering import SIDE_NAMES
from replay.rules.position import BaseBoard, Position
from replay.rules.variants import CANNOT_MOVE_WINS, FIRST_KING_WINS, Variant


@dataclass(frozen=True)
class Decision:
    """A won position: the winner (WHITE or BLACK), how it ended and why, in words."""

    winner: int
    ending: str  # no-moves, no-pieces or promotion
    reason: str


def crowned_side(variant: Variant, position: Position) -> int | None:
    """The side whose king ended a Breakthrough game, else None (also in other variants)."""
    if variant.win_rule != FIRST_KING_WINS or not position.kings:
        return None
    return WHITE if position.white & position.kings else BLACK


def decide(board: BaseBoard) -> Decision | None:
    """The decision of the board's position, or None while the game goes on."""
    position = board.position
    crowned = crowned_side(board.variant, position)
    if crowned is not None:
        return Decision(crowned, "promotion", N_("{side} made a king").format(
            side=SIDE_NAMES[crowned]))
    if board.legal_moves():
        return None
    stuck = position.turn
    own = position.white if stuck == WHITE else position.black
    ending = "no-moves" if own else "no-pieces"
    if board.variant.win_rule == CANNOT_MOVE_WINS:
        return Decision(stuck, ending, N_("{side} has no legal move, which wins in "
                                          "{variant}").format(side=SIDE_NAMES[stuck],
                                                              variant=board.variant.name))
    return Decision(1 - stuck, ending, N_("{side} has no legal move").format(
        side=SIDE_NAMES[stuck]))
