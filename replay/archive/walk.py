"""The main line of a game as positions: what filters and duplicate keys look at.

``walk_main_line`` resolves each written move on the board and keeps every position; the
plain loop covers almost every game, and a record the loop cannot follow to its end without
help (an ambiguous move, an error, a set-up position) is handed to ``replay_game``, whose
moves are then taken, so the outcome is always the replayer's.
"""

from __future__ import annotations

from dataclasses import dataclass

from pdn.model import Game
from replay.board import Board, Position, start_position
from replay.move import Move
from replay.replayer import INCOMPLETE, INVALID, VALID, game_variant, replay_game
from replay.resolve import resolve
from replay.variants import Variant


@dataclass
class MainLine:
    """A replayed main line: the start, the moves as far as they replay, the status."""

    variant: Variant
    start: Position
    moves: list[Move]
    status: str

    def positions(self) -> list[Position]:
        """The start and the position after every replayed move."""
        positions = [self.start]
        for move in self.moves:
            positions.append(positions[-1].play(move))
        return positions

    @property
    def final(self) -> Position:
        position = self.start
        for move in self.moves:
            position = position.play(move)
        return position


def walk_main_line(game: Game, default: Variant, override: Variant | None = None) -> MainLine:
    """The main line of a game replayed on its variant's rules."""
    variant = game_variant(game, default, override)
    if not (game.tags.get("FEN") or game.moves.setup or game.errors):
        moves = _plain_moves(game, variant)
        if moves is not None:
            placeholder = len(moves) < len(game.moves.plies)
            return MainLine(variant, start_position(variant), moves,
                            INCOMPLETE if placeholder else VALID)
    replayed = replay_game(game, default, override)
    return MainLine(replayed.variant, replayed.start, replayed.moves, replayed.status)


def _plain_moves(game: Game, variant: Variant) -> list[Move] | None:
    """The moves up to the end or a lost move, or None when a record does not resolve to
    exactly one legal move."""
    board = Board(variant)
    moves = []
    for ply in game.moves.plies:
        if ply.record.placeholder:
            break
        resolution = resolve(board, ply.record)
        if resolution.move is None:
            return None
        board.push(resolution.move)
        moves.append(resolution.move)
    return moves


__all__ = ["INCOMPLETE", "INVALID", "VALID", "MainLine", "walk_main_line"]
