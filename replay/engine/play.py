"""One game between two sides, judged by our rules: the loop that ``pdn match`` and the DXP
client and server share.

A *player* is anything with a ``name`` and ``play(board, limit) -> PlayResult`` (a Hub engine,
``RandomPlayer``). A *side* is what the loop talks to: ``PlayerSide`` wraps a player; a DXP
engine is a side of its own (``replay.engine.dxp.DxpSide``), since it is told the game and
the opponent's moves over its connection. Every move a side gives is checked against our
legal moves; the game ends when our rules say so (no legal move, a draw rule of
``replay.rules.draws``), at the move cap, or when a side ends it (a DXP engine's GAMEEND).

>>> record = play_game(PlayerSide(RandomPlayer(1)), PlayerSide(RandomPlayer(2)),
...                    Board(variant="international"), max_moves=3)
>>> record.result, record.reason, len(record.moves)
('*', 'move cap of 3 moves reached', 6)
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Protocol

from pdn.i18n import N_
from replay.engine.limits import EngineError, Limit, PlayResult
from replay.record.board import Board
from replay.rules.draws import DrawTracker
from replay.rules.move import Move
from replay.rules.numbering import SIDE_NAMES

DEFAULT_MAX_MOVES = 150  # moves of each side (300 plies); GAMEREQ's "number of moves"


class Player(Protocol):
    """What plays moves: a Hub engine, a random player, your own object."""

    name: str

    def play(self, board: Board, limit: Limit) -> PlayResult: ...


class RandomPlayer:
    """Plays a uniformly random legal move, from a seeded generator (tests, smoke runs)."""

    def __init__(self, seed: int = 0, name: str | None = None) -> None:
        self.random = random.Random(seed)
        self.name = name or f"random (seed {seed})"

    def play(self, board: Board, limit: Limit) -> PlayResult:
        moves = board.legal_moves()
        return PlayResult(self.random.choice(moves) if moves else None)

    def quit(self) -> None:
        pass


@dataclass(frozen=True)
class GameEnded:
    """What a side returns instead of a move when it ends the game itself (a DXP engine's
    GAMEEND): ``resigned`` when it gives up (it loses), else the game stops without a result
    our rules can give; ``reason`` in words."""

    resigned: bool
    reason: str


@dataclass
class Ending:
    """How a game ended: ``winner`` (0 White, 1 Black, None), ``draw``, ``reason`` in words
    and ``termination`` (PGN's word: normal, unterminated at the move cap, abandoned when a
    side stopped the game without a result)."""

    winner: int | None
    draw: bool
    reason: str
    termination: str = "normal"


class Side(Protocol):
    name: str

    def begin(self, board: Board, colour: int, minutes: int, max_moves: int,
              opponent: str) -> None: ...

    def move(self, board: Board, limit: Limit) -> Move | GameEnded: ...

    def finish(self, board: Board, colour: int, ending: Ending, last: bool) -> None: ...


class PlayerSide:
    """A player as a side: asked for a move with the limit; its move is checked legal."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name

    def begin(self, board: Board, colour: int, minutes: int, max_moves: int,
              opponent: str) -> None:
        new_game = getattr(self.player, "new_game", None)
        if new_game is not None:  # a Hub engine forgets the last game (its tables)
            new_game()

    def move(self, board: Board, limit: Limit) -> Move | GameEnded:
        result = self.player.play(board.copy(), limit)
        if result.move is None:
            raise EngineError(f"{self.name} has no move to play in {board.fen()}")
        return result.move

    def finish(self, board: Board, colour: int, ending: Ending, last: bool) -> None:
        pass


@dataclass
class GameRecord:
    """A finished game: the start position, the moves, the names, the result as PDN writes
    it, and how it ended."""

    start: Board
    moves: list[Move]
    white: str
    black: str
    result: str
    ending: Ending
    seconds: list[float] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return self.ending.reason


def result_text(ending: Ending, board: Board) -> str:
    """The PDN result: ``2-0``/``0-2``/``1-1`` on 10x10 boards, ``1-0``/``0-1``/``1/2-1/2``
    elsewhere; ``*`` when the game has none."""
    ten = board.variant.geometry.width == 10
    if ending.draw:
        return "1-1" if ten else "1/2-1/2"
    if ending.winner is None:
        return "*"
    win, loss = ("2", "0") if ten else ("1", "0")
    return f"{win}-{loss}" if ending.winner == 0 else f"{loss}-{win}"


def play_game(white: Side, black: Side, board: Board, *, minutes: int = 5,
              max_moves: int = DEFAULT_MAX_MOVES, limit: Limit | None = None,
              last: bool = True) -> GameRecord:
    """Play one game from ``board`` (not changed) and return its record.

    ``minutes`` is each side's clock for the game, told to the sides (a Hub engine gets the
    time left as ``Limit.time`` unless ``limit`` sets its own bounds; nobody loses on time);
    ``max_moves`` caps the game (``0``: no cap) and a capped game has no result (``*``);
    ``last`` tells a DXP engine that no game follows. A side's illegal move, or a failing
    engine, raises EngineError after both sides were told the game is over where they can
    be."""
    sides = (white, black)
    start = Board(board.variant, board.position)
    game = Board(board.variant, board.position)
    tracker = DrawTracker(game.variant, game.position)
    used = [0.0, 0.0]
    seconds: list[float] = []
    for colour, side in enumerate(sides):
        side.begin(start.copy(), colour, minutes, max_moves, sides[1 - colour].name)
    ending: Ending | None = None
    claims: list = []
    try:
        while ending is None:
            ending = _judge(game, claims, max_moves)
            if ending is not None:
                break
            colour = game.turn
            side = sides[colour]
            ask = limit or Limit(time=max(0.0, minutes * 60 - used[colour]))
            began = time.monotonic()
            reply = side.move(game, ask)
            spent = time.monotonic() - began
            used[colour] += spent
            if isinstance(reply, GameEnded):
                ending = (Ending(1 - colour, False, N_("{player} resigned").format(
                              player=side.name), "normal") if reply.resigned else
                          Ending(None, False, N_("{player} ended the game: {reason}").format(
                              player=side.name, reason=reply.reason), "abandoned"))
                break
            if reply not in game.legal_moves():
                raise EngineError(f"{side.name} played {reply!r}, which is not legal in "
                                  f"{game.fen()}")
            before = game.position
            game.push(reply)
            seconds.append(spent)
            claims = tracker.push(before, reply, game.position)
    except BaseException:
        for side in sides:
            _close_quietly(side)
        raise
    for colour, side in enumerate(sides):
        side.finish(game, colour, ending, last)
    return GameRecord(start, list(game.move_stack), white.name, black.name,
                      result_text(ending, game), ending, seconds)


def _judge(game: Board, claims: list, max_moves: int) -> Ending | None:
    """The end our rules see in the position reached, or None."""
    outcome = game.outcome()
    if outcome is not None:
        winner = SIDE_NAMES.index(outcome.winner)
        wins = N_("white wins: {reason}") if winner == 0 else N_("black wins: {reason}")
        return Ending(winner, False, wins.format(reason=outcome.reason))
    if claims:
        return Ending(None, True, N_("draw: {reason}").format(reason=claims[0].description))
    if max_moves and len(game.move_stack) >= 2 * max_moves:
        return Ending(None, False, N_("move cap of {count} moves reached").format(
            count=max_moves), "unterminated")
    return None


def _close_quietly(side: Side) -> None:
    close = getattr(side, "abort", None)
    if close is not None:
        with contextlib.suppress(Exception):  # already failing: the first error is shown
            close()
