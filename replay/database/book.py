"""The explorer's tree as a PDN opening book (``pdn explore --book``): from a position, the
most played move as the main line, every other move played as a variation, each with its
games, results and score in a comment, down to a depth in plies.

A book read back with ``pdn.reader`` replays as a game with variations; its main line is,
ply by ply, the most played move.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import TYPE_CHECKING

from replay.database.explore import Exploration, ExplorerRow, explore
from replay.database.keys import fen_of
from replay.rules.position import Position, start_position
from replay.rules.variants import Variant

if TYPE_CHECKING:
    from replay.archive.select import Criteria


def row_comment(row: ExplorerRow) -> str:
    """``{1751 games: +182 =1302 -267, 47.6%}`` without the braces; the mover's view."""
    games = f"{row.games} game{'s' if row.games != 1 else ''}"
    text = f"{games}: +{row.wins} ={row.draws} -{row.losses}"
    if row.unfinished:
        text += f" *{row.unfinished}"
    if row.score is not None:
        text += f", {row.score:g}%"
    if row.rating is not None:
        text += f", rating {row.rating}"
    if row.opening:
        text += f"; {row.opening}"
    return text


@dataclass
class _Writer:
    connection: sqlite3.Connection
    variant: Variant
    criteria: Criteria | None
    min_games: int
    first_white: bool  # whether the explored position's mover is the variant's first mover
    number: int  # the move number of the explored position

    def label(self, ply: int, forced: bool) -> str:
        """``3.`` before the first mover's move, ``3...`` before the other's when it starts
        a line or follows a variation or comment (PDN's numbering)."""
        first = (ply % 2 == 0) == self.first_white
        offset = 0 if self.first_white else 1
        number = self.number + (ply + offset) // 2
        if first:
            return f"{number}. "
        return f"{number}... " if forced else ""

    def rows(self, position: Position) -> list[ExplorerRow]:
        found = explore(self.connection, position, self.variant, self.criteria)
        return [row for row in found.rows if row.games >= self.min_games]

    def line(self, position: Position, ply: int, depth: int, forced: bool) -> list[str]:
        """The book from a position: its most played move, the others as variations, then
        the main move's continuation."""
        if depth <= 0:
            return []
        rows = self.rows(position)
        if not rows:
            return []
        main, *others = rows
        words = [self.label(ply, forced) + main.move, "{" + row_comment(main) + "}"]
        for other in others:
            after = _position_of(other.fen, self.variant)
            words += ["(" + self.label(ply, True) + other.move, "{" + row_comment(other) + "}",
                      *self.line(after, ply + 1, depth - 1, True), ")"]
        words += self.line(_position_of(main.fen, self.variant), ply + 1, depth - 1, True)
        return words


def _position_of(fen: str, variant: Variant) -> Position:
    from replay.database.query import position_of_fen

    return position_of_fen(fen, variant)


def book_pdn(connection: sqlite3.Connection, root: Exploration, depth: int, *,
             criteria: Criteria | None = None, min_games: int = 1,
             line: list[str] = (), title: str = "Opening book") -> str:
    """The book from ``root`` (an ``explore`` answer) down ``depth`` plies, moves played in
    fewer than ``min_games`` games left out. ``line``: the moves (in the variant's notation)
    from the start that led to ``root``, written first; else the book starts at ``root``'s
    position (a FEN tag when it is not the start)."""
    variant = root.variant
    start = start_position(variant)
    begin = start if line else root.position
    tags = [("Event", title), ("Site", "?"), ("Date", "????.??.??"), ("Round", "-"),
            ("White", "?"), ("Black", "?"), ("Result", "*"),
            ("GameType", str(variant.gametype.number))]
    if begin != start:
        tags += [("SetUp", "1"), ("FEN", fen_of(begin, variant))]
    first_white = (begin.turn == start.turn)
    writer = _Writer(connection, variant, criteria, min_games, first_white, 1)
    words = [writer.label(ply, ply == 0) + move for ply, move in enumerate(line)]
    words += writer.line(root.position, len(line), depth, not line)
    header = "".join(f'[{name} "{_escape(value)}"]\n' for name, value in tags)
    return header + "\n" + _wrapped([*words, "*"]) + "\n\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrapped(words: list[str], width: int = 79) -> str:
    """The movetext in lines of at most ``width`` characters (a longer word alone)."""
    lines, current = [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    lines.append(current)
    return "\n".join(lines)


__all__ = ["book_pdn", "row_comment"]
