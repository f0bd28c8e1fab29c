"""One line of moves replayed on the rules: a variation's moves, the notation warning of each
and why it stops, and ``Problem``, the replayer's error or warning about one move.

The replayer (``replay.record.replayer``) replays every line it meets with ``replay_line``;
the game tree (``replay.record.tree``) replays here a variation the replayer did not reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pdn.i18n import N_
from pdn.model import Line, MoveRecord
from replay.record.resolve import resolve
from replay.rules.endings import crowned_side
from replay.rules.move import Move
from replay.rules.numbering import SIDE_NAMES, MoveNumbering
from replay.rules.position import BaseBoard, Position


@dataclass(frozen=True)
class Problem:
    """An error or warning about one move (or the game), with where it was written."""

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    move_number: int | None = None
    side: str | None = None
    token: str | None = None

    def __reduce__(self) -> tuple[type[Problem], tuple]:
        """Pickled as its fields (the compiled class cannot set a frozen field afterwards)."""
        return Problem, (self.code, self.message, self.line, self.column, self.move_number,
                         self.side, self.token)

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "line": self.line,
                "column": self.column, "move_number": self.move_number, "side": self.side,
                "token": self.token}


class VariationReplay(NamedTuple):
    """What the replayer found on one variation: its moves in order, the notation warning of
    each (None where the record was plain), and why it stops before its record ends."""

    moves: list[Move]
    notes: list[Problem | None]
    stop: Problem | None


def side_name(board: BaseBoard) -> str:
    """``White`` or ``Black``: the side to move."""
    return SIDE_NAMES[board.turn]


def problem(code: str, message: str, record: MoveRecord, number: int, side: str) -> Problem:
    """A ``Problem`` at a move record's place and text (a record made, not read: no place)."""
    return Problem(code, message, record.line or None, record.column or None, number, side,
                   record.text)


# a variation waiting to be replayed: its line, the position it starts from, its ply index
PendingVariation = tuple[Line, Position, int]


def replay_line(board: BaseBoard, line: Line, first_index: int, numbering: MoveNumbering,
                branches: list[PendingVariation] | None = None) -> VariationReplay:
    """Replay a variation on ``board`` (its branch point; played on), its first ply being the
    game's ``first_index``-th; the variations met on the way are added to ``branches``."""
    moves: list[Move] = []
    notes: list[Problem | None] = []
    variant = board.variant
    for offset, ply in enumerate(line.plies):
        index = first_index + offset
        if branches is not None:
            branches.extend((variation, board.position, index) for variation in ply.variations)
        record = ply.record
        if record.placeholder:
            return VariationReplay(moves, notes, problem(
                "variation-lost-moves", N_("in a variation: the record has lost moves from "
                                           "here"),
                record, numbering.number(index), side_name(board)))
        if crowned_side(variant, board.position) is not None:
            return VariationReplay(moves, notes, problem(
                "variation-after-end", N_("in a variation: a move after the king that won "
                                          "the game"),
                record, numbering.number(index), side_name(board)))
        resolution = resolve(board, record)
        if resolution.move is None:
            return VariationReplay(moves, notes, problem(
                f"variation-{resolution.code}", N_("in a variation: {reason}").format(
                    reason=resolution.message),
                record, numbering.number(index), side_name(board)))
        notes.append(problem("notation", resolution.warning, record, numbering.number(index),
                              side_name(board)) if resolution.warning else None)
        moves.append(resolution.move)
        board.play(resolution.move)
    return VariationReplay(moves, notes, None)
