"""Positions of a replayed game's main line: the board after some plies, a move's label and
the plies that lead to a move written ``12w`` or ``12b``."""

from __future__ import annotations

import re

from pdn.i18n import N_
from replay.record.board import Board
from replay.record.replayer import ReplayedGame

MOVE_PATTERN = re.compile(r"^\s*(\d+)\s*([wb])\s*$", re.IGNORECASE)
# The refusals, catalog entries: the exception says them in English, a display puts them
# into the reader's language (``pdn.i18n.Catalog.localize``).
OUT_OF_RANGE = N_("ply {ply} is out of range: the game replays {plies}")
NOT_A_MOVE = N_("'{text}' is not a move: write the number and w or b, as in 12b")
NO_SUCH_MOVE = N_("the game has no move {move}: it replays {plies}")
STOPPED_BY = N_("{plies} (stopped by an error at line {line}: {reason})")


def board_after(replayed: ReplayedGame, plies: int) -> Board:
    """The board after the first ``plies`` moves of a game's main line, the moves pushed (so
    ``board.move_stack[-1]`` is the last move); raises ValueError beyond what replays."""
    if not 0 <= plies <= len(replayed.moves):
        raise ValueError(OUT_OF_RANGE.format(ply=plies, plies=_replays(replayed)))
    board = Board(replayed.variant, replayed.start)
    for move in replayed.moves[:plies]:
        board.push(move)
    return board


def move_label(replayed: ReplayedGame, index: int) -> str:
    """``12.`` for a first mover's ply, ``12...`` for the other side's (``index`` from 0)."""
    return replayed.numbering.label(index)


def plies_to_move(replayed: ReplayedGame, text: str) -> int:
    """How many plies lead to the position after a move written ``12w`` or ``12b`` (White's or
    Black's 12th move); raises ValueError for a move the game does not replay to.

    >>> from pdn.reader import read_games
    >>> from replay.record.replayer import replay_game
    >>> from replay.rules.variants import RUSSIAN
    >>> game = next(read_games("1. c3-d4 f6-g5 2. b2-c3 *"))
    >>> plies_to_move(replay_game(game, RUSSIAN), "1b")
    2
    """
    match = MOVE_PATTERN.match(text)
    if not match:
        raise ValueError(NOT_A_MOVE.format(text=text))
    wanted = int(match.group(1)), "White" if match.group(2).lower() == "w" else "Black"
    numbering = replayed.numbering
    for index in range(len(replayed.moves)):
        if (numbering.number(index), numbering.side(index)) == wanted:
            return index + 1
    raise ValueError(NO_SUCH_MOVE.format(move=text.strip(), plies=_replays(replayed)))


def _replays(replayed: ReplayedGame) -> str:
    """``12 plies``, and what stopped the replay, made of catalog entries."""
    plies = len(replayed.moves)
    said = N_("one ply") if plies == 1 else N_("{count} plies").format(count=plies)
    if replayed.errors:
        error = replayed.errors[0]
        said = STOPPED_BY.format(plies=said, line=error.line, reason=error.message)
    return said
