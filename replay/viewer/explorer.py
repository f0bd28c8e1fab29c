"""The viewer's explorer panel (``pdn view --database DB``): for each position the page's
games reach, the moves the database's games played from it, with their counts and scores,
embedded in the page by FEN so that the panel follows the board with no server.

Each position is asked once (``replay.database.explore``); positions up to ``PLY_LIMIT``
plies into each line are kept, where an opening explorer helps, so that a page of many long
games stays small.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator

from replay.database.explore import explore
from replay.database.keys import fen_of
from replay.record.board import Board
from replay.record.notation import full_text, short_text
from replay.record.replayer import ReplayedGame
from replay.record.tree import walk
from replay.rules.position import Position
from replay.rules.variants import Variant

PLY_LIMIT = 40
# The fields of a row in the page, in order, then the move in short notation (None where the
# variant names squares by number), shown beside a game written short.
ROW_FIELDS = ("move", "games", "wins", "draws", "losses", "score")


def game_positions(replayed: ReplayedGame, limit: int = PLY_LIMIT) -> Iterator[Position]:
    """The start and every position after a move of the main line or a variation, up to
    ``limit`` plies from the start."""
    yield replayed.start
    for node in walk(replayed.mainline()):
        if node.index < limit:
            yield node.position


def explorer_rows(connection: sqlite3.Connection, games: Iterable[ReplayedGame], *,
                  limit: int = PLY_LIMIT) -> dict[str, list[list]]:
    """FEN -> the rows of the moves played from it (ROW_FIELDS), the most played first,
    for every position of ``games`` the database's games reach."""
    found: dict[str, list[list]] = {}
    for replayed in games:
        variant: Variant = replayed.variant
        for position in game_positions(replayed, limit):
            fen = fen_of(position, variant)
            if fen in found:
                continue
            rows = explore(connection, position, variant).rows
            short = short_texts(position, variant) if rows else {}
            found[fen] = [[*(getattr(row, name) for name in ROW_FIELDS), short.get(row.move)]
                          for row in rows]
    return {fen: rows for fen, rows in found.items() if rows}


def short_texts(position: Position, variant: Variant) -> dict[str, str]:
    """The legal moves' full text (as the explorer writes them) -> their Russian short
    text as ``pdn convert --to short`` writes it (full squares where short is ambiguous);
    empty where the variant names its squares by number."""
    if variant.gametype.notation.numeric:
        return {}
    board = Board(variant, position)
    found: dict[str, str] = {}
    for move in board.legal_moves():
        found.setdefault(full_text(board, move), short_text(board, move))
    return found


__all__ = ["PLY_LIMIT", "ROW_FIELDS", "explorer_rows", "game_positions", "short_texts"]
