"""Lines of moves given as text (``--moves "1.cd4 fg5"``, an opening's defining moves): read
in any notation, replayed from the start, and the positions they go through.

>>> from replay.rules.variants import RUSSIAN
>>> len(opening_positions("1.c3-d4 f6-g5 2.gh4", RUSSIAN))
4
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.i18n import N_
from pdn.model import MoveRecord
from pdn.reader import PdnText, read_games
from replay.record.board import Board
from replay.record.resolve import legal_listing, resolve
from replay.rules.numbering import MoveNumbering
from replay.rules.position import Position
from replay.rules.variants import Variant

PositionKey = tuple[int, int, int, int]
# The refusals, catalog entries: the exception says them in English, a display puts them
# into the reader's language (``pdn.i18n.Catalog.localize``).
NOT_MOVES = N_("--moves '{text}' is not a sequence of moves")
NOT_MOVES_BECAUSE = N_("--moves '{text}' is not a sequence of moves: {reason}")
NOT_LEGAL_IN = N_("--moves '{text}' is not legal in {variant}: {reason}")
STOP = N_("move {number} ({side}) '{move}': {reason}")
JOINED = N_("{first}; {second}")


class MoveLineError(ValueError):
    """A line of moves that is not a sequence of moves, or not legal in the variant."""


def position_key(position: Position) -> PositionKey:
    """Pieces, kings and side to move: what makes two positions the same on the board."""
    return position.white, position.black, position.kings, position.turn


@dataclass(frozen=True)
class OpeningStop:
    """Where a --moves sequence stops being legal in a variant: the ply (0-based), its text,
    why, the legal moves there in the variant's notation, and why as the move's resolution
    says it (the legal moves after the reason, or not)."""

    variant: Variant
    ply: int
    move: str
    reason: str
    legal: str
    said: str

    def sentence(self) -> str:
        """``move 1 (White) 'cd5': square 'd5' is not a playing square; legal moves: ...``"""
        return STOP.format(**self.fields())

    def fields(self) -> dict[str, object]:
        """The values of ``STOP``'s placeholders, for a message that says more around them:
        the reason followed by the legal moves, made of catalog entries whole (a reason that
        names the legal moves itself is one entry)."""
        numbering = MoveNumbering.of(None, self.variant)
        whole = f"{self.reason}; {self.legal}"
        if self.said != whole:
            whole = JOINED.format(first=self.reason, second=self.legal)
        return {"number": numbering.number(self.ply), "side": numbering.side(self.ply),
                "move": self.move, "reason": whole}


def opening_records(text: str) -> list[MoveRecord]:
    """The moves of a --moves sequence as records; raises MoveLineError, saying what is
    not a move, for text that is not a sequence of moves."""
    games = list(read_games(PdnText(text.strip() + " *")))
    if len(games) != 1 or not games[0].moves.plies or games[0].errors:
        errors = [error.message for game in games for error in game.errors]
        raise MoveLineError(NOT_MOVES_BECAUSE.format(text=text, reason=errors[0]) if errors
                            else NOT_MOVES.format(text=text))
    return [ply.record for ply in games[0].moves.plies]


def opening_line(records: list[MoveRecord], variant: Variant
                 ) -> list[PositionKey] | OpeningStop:
    """The start and the position after each move of an opening in a variant, or where
    it stops being legal there."""
    board = Board(variant)
    positions = [position_key(board.position)]
    for ply, record in enumerate(records):
        resolution = resolve(board, record)
        if resolution.move is None:
            reason = resolution.message.partition("; legal moves:")[0]
            return OpeningStop(variant, ply, record.text, reason,
                               legal_listing(board, board.legal_moves()), resolution.message)
        board.push(resolution.move)
        positions.append(position_key(board.position))
    return positions


def opening_positions(text: str, variant: Variant) -> list[PositionKey]:
    """The start and the position after each move of a sequence written in any notation
    (``"1.c3-d4 f6-g5"``, ``"cd4 fg5"``, ``"22-18 11-15"``); raises MoveLineError."""
    line = opening_line(opening_records(text), variant)
    if isinstance(line, OpeningStop):
        raise MoveLineError(NOT_LEGAL_IN.format(text=text, variant=variant.name,
                                                reason=line.sentence()))
    return line
