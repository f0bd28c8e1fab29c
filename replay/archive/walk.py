"""The main line of a game as positions: what filters and duplicate keys look at.

``walk_main_line`` resolves each written move on the board and keeps every position; the
plain loop covers almost every game, and a record the loop cannot follow to its end without
help (an ambiguous move, an error, a set-up position) is handed to ``replay_game``, whose
moves are then taken, so the outcome is always the replayer's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pdn.game import Game
from replay.record.board import Board
from replay.record.replayer import (
    INCOMPLETE,
    INVALID,
    VALID,
    game_variant,
    replay_game,
    told_variant,
)
from replay.record.resolve import plain_mover, resolve
from replay.rules import native
from replay.rules.move import Move
from replay.rules.position import Position, start_position
from replay.rules.variants import Rules, Variant


@dataclass
class MainLine:
    """A replayed main line: the start, the moves as far as they replay, the status."""

    variant: Variant
    moves: list[Move]
    positions: list[Position]  # the start and the position after every replayed move
    status: str

    @property
    def start(self) -> Position:
        return self.positions[0]

    @property
    def final(self) -> Position:
        return self.positions[-1]


def walk_main_line(game: Game, default: Variant, override: Variant | None = None, *,
                   rules: Rules | None = None) -> MainLine:
    """The main line of a game replayed on its variant's rules (``rules``: rule options set
    on top). A plain game whose variant is known without a replay is walked by the plain
    loop; any other is replayed once (a variant only a replay can tell comes with its
    moves)."""
    variant = told_variant(game, default, override, rules=rules) if is_plain(game) else None
    if variant is not None:
        line = _plain_line(game, variant)
        if line is not None:
            return line
    replayed = replay_game(game, default, override, rules=rules)
    final = replayed.final if replayed.final is not None else replayed.start
    return MainLine(replayed.variant, replayed.moves, [*replayed.positions, final],
                    replayed.status)


@dataclass(frozen=True)
class LineEnd:
    """Where a main line ends: its variant, status and final position (``MainLine``'s,
    without the positions on the way)."""

    variant: Variant
    status: str
    final: Position


def line_end(game: Game, default: Variant, override: Variant | None = None, *,
             rules: Rules | None = None) -> LineEnd:
    """``walk_main_line``'s variant, status and final position; a plain game the native
    core replays whole from its move tokens makes no position on the way."""
    variant = told_variant(game, default, override, rules=rules) if is_plain(game) else None
    if variant is not None:
        native_rules = native.rules_for(variant)
        tokens = game.main_line_tokens() if native_rules is not None and \
            native_rules.replays else None
        if tokens:
            assert native_rules is not None
            line = native_rules.replay_line(start_position(variant), tokens)
            if line.stop == "end":
                return LineEnd(variant, VALID, line.final)
        walked = walk_main_line(game, default, override, rules=rules)
        return LineEnd(walked.variant, walked.status, walked.final)
    replayed = replay_game(game, default, override, rules=rules)  # its positions not asked
    return LineEnd(replayed.variant, replayed.status,
                   replayed.final if replayed.final is not None else replayed.start)


def is_plain(game: Game) -> bool:
    """A game from the start position without reading errors: the plain loop may do."""
    return not (game.tags.get("FEN") or game.moves.setup or game.errors)


def _plain_line(game: Game, variant: Variant, keep_going: Callable[[Position], bool] | None
                = None) -> MainLine | None:
    """The main line up to the end or a lost move (or until ``keep_going`` says no), or None
    when a record does not resolve to exactly one legal move. A line the native core
    replays whole from its move tokens makes no ply (its moves are the replayer's)."""
    line = _native_line(game, variant)
    if line is not None:
        if keep_going is not None:
            moves, positions = line.moves, line.positions
            stop = next((i for i, position in enumerate(positions[:-1])
                         if not keep_going(position)), None)
            if stop is not None:
                return MainLine(variant, moves[:stop], positions[:stop + 1], INCOMPLETE)
        return line
    board = Board(variant)
    plain = plain_mover(board)  # as the replayer resolves: one move's route is the same
    moves: list[Move] = []
    positions = [board.position]
    for ply in game.moves.plies:
        if ply.record.placeholder or (keep_going is not None and not keep_going(positions[-1])):
            break
        move = plain(ply.record) or resolve(board, ply.record).move
        if move is None:
            return None
        board.push(move)
        moves.append(move)
        positions.append(board.position)
    placeholder = len(moves) < len(game.moves.plies)
    return MainLine(variant, moves, positions, INCOMPLETE if placeholder else VALID)


def _native_line(game: Game, variant: Variant) -> MainLine | None:
    """The whole main line replayed by the native core from its move tokens, or None: the
    core does not take the variant or some text, or the line needs its plies."""
    rules = native.rules_for(variant)
    tokens = game.main_line_tokens() if rules is not None and rules.replays else None
    if not tokens:
        return None
    assert rules is not None
    start = start_position(variant)
    line = rules.replay_line(start, tokens)
    if line.stop != "end":
        return None
    positions = [start]
    for move in line.moves:
        positions.append(positions[-1].play(move))
    return MainLine(variant, line.moves, positions, VALID)


def reaches(game: Game, default: Variant, override: Variant | None,
            wanted: Callable[[Position], bool], possible: Callable[[Position], bool], *,
            rules: Rules | None = None) -> bool:
    """Whether the main line reaches a ``wanted`` position; the walk stops as soon as one is
    found or the game can no longer get there (``possible`` says no: pieces never come
    back)."""
    found = False

    def keep_going(position: Position) -> bool:
        nonlocal found
        found = found or wanted(position)
        return not found and possible(position)

    variant = game_variant(game, default, override, rules=rules)
    if is_plain(game):
        line = _plain_line(game, variant, keep_going)
        if line is not None:
            return found or wanted(line.final)
    return any(wanted(p) for p in walk_main_line(game, default, override, rules=rules).positions)


__all__ = ["INCOMPLETE", "INVALID", "VALID", "LineEnd", "MainLine", "line_end", "reaches",
           "walk_main_line"]
