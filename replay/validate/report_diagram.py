"""The arbiter's diagrams: the position where a record stops, with the move written drawn in
red and the move meant in green (the repair suggestion's move, else the legal moves the
written one could have been), and the legal moves listed in square order.

>>> from replay.validate.reports import report_game
>>> from pdn.reader import read_games
>>> from replay.rules.variants import RUSSIAN
>>> report = report_game(next(read_games("1. c3-d4 b6-c5 2. b2-c3 *")), RUSSIAN)
>>> error = error_diagram(report)
>>> error.written, error.meant, error.meant_text, error.legal
(['b2', 'c3'], [['d4', 'b6']], ['d4:b6'], ['d4:b6'])
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.i18n import N_, Catalog
from replay.record.board import Board
from replay.record.diagram import ARROW, CROSS, Arrow, board_svg
from replay.record.notation import full_text
from replay.record.resolve import in_square_order, record_of_text
from replay.rules.move import Move
from replay.rules.variants import get_variant
from replay.validate.reports import GameReport

MEANT_AT_MOST = 4  # green arrows on one diagram: more would hide the position


@dataclass
class Diagram:
    """One diagram of a report: the position (FEN), what it shows, the squares (by name) of
    the move written and of each move meant (and the moves meant as text), and the legal
    moves there in square order."""

    fen: str
    caption: str
    written: list[str]
    meant: list[list[str]]
    meant_text: list[str]
    legal: list[str]
    board: Board

    def svg(self, size: int = 340, words: Catalog | None = None) -> str:
        """The diagram as SVG: the written move a red arrow, each move meant a green one;
        who is to move in the language of ``words`` (English by default)."""
        square = self.board.variant.gametype.notation.square
        arrows = [Arrow([square(name) for name in self.written], CROSS, "written")] \
            if len(self.written) > 1 else []
        arrows += [Arrow([square(name) for name in route], ARROW, "meant")
                   for route in self.meant]
        return board_svg(self.board, size=size, arrows=arrows, words=words)


def report_diagrams(report: GameReport) -> list[Diagram]:
    """The diagrams of a game's report: the position before its first illegal move, and
    the one where the best suggestion puts the slip when that is another."""
    diagrams = [error_diagram(report)] if report.error_fens else []
    best = report.suggestions[0] if report.suggestions else None
    if best and best.get("fen") and best["fen"] not in report.error_fens:
        board = Board.from_fen(best["fen"], get_variant(report.variant))
        meant = _suggested_move(board, best)
        diagrams.append(_diagram(board, best["fen"], N_("Where the slip happened"), [],
                                 [meant] if meant else []))
    return diagrams


def error_diagram(report: GameReport) -> Diagram:
    """The position before the first illegal move: the move written, and the move meant
    (the best suggestion's, when it edits this ply; else the legal moves from the written
    move's origin or to its destination; else every legal move when they are few)."""
    fen = report.error_fens[0]
    board = Board.from_fen(fen, get_variant(report.variant))
    error = report.errors[0] if report.errors else {}
    written = _written_squares(board, error.get("token") or "")
    best = report.suggestions[0] if report.suggestions else None
    suggested = _suggested_move(board, best) if best and best.get("fen") == fen else None
    legal = in_square_order(board, board.legal_moves())
    if suggested is not None:
        meant = [suggested]
    else:
        ends = set(written[:1] + written[-1:])
        meant = [m for m in legal if {board.name(m.origin), board.name(m.destination)} & ends]
        if not meant and len(legal) <= MEANT_AT_MOST:
            meant = legal
    caption = N_("Before the error, where the slip happened") if suggested else N_(
        "Before the error")
    return _diagram(board, fen, caption, written, meant[:MEANT_AT_MOST])


def _diagram(board: Board, fen: str, caption: str, written: list[str], meant: list[Move]
             ) -> Diagram:
    return Diagram(fen, caption, written,
                   [[board.name(s) for s in (m.origin, *m.path)] for m in meant],
                   [full_text(board, m) for m in meant],
                   [full_text(board, m) for m in in_square_order(board, board.legal_moves())],
                   board)


def _written_squares(board: Board, token: str) -> list[str]:
    """The squares a written move names, origin first, as the board names them ([] when
    the text names no origin, as ``ed4``, or a square not on the board)."""
    try:
        record = record_of_text(token)
        if record.is_short:
            return []
        notation = board.variant.gametype.notation
        return [board.name(notation.square(name)) for name in record.squares]
    except ValueError:
        return []


def _suggested_move(board: Board, suggestion: dict | None) -> Move | None:
    """The move a suggestion plays here (its text ``3... gh4``), if it is legal here."""
    if not suggestion or not suggestion.get("text"):
        return None
    try:
        return board.parse(suggestion["text"].split()[-1])
    except ValueError:
        return None
