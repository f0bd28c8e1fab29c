"""The opening explorer: from a position, every move played in the database's games, with
the games, the results from the mover's side, the score, the average rating, the latest
game and the opening's name (``pdn explore``).

The position decides, not the path: a game counts for a move when its main line stands at
the position at any ply and makes the move, so transpositions meet. Without criteria on
the games the answer is a few rows of ``position_moves`` (a key lookup, whatever the number
of games); with ``pdn search``'s criteria (players, dates, tags, final material) the games
through the position are read and counted one by one.

>>> from replay.rules.position import start_position
>>> from replay.rules.variants import ENGLISH
>>> import sqlite3
>>> from replay.database.schema import TABLES
>>> connection = sqlite3.connect(":memory:")
>>> _ = connection.executescript(TABLES)
>>> explore(connection, start_position(ENGLISH), ENGLISH).rows
[]
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from pdn.i18n import N_
from replay.database.keys import fen_of, position_hash
from replay.database.query import game_conditions, position_of_fen, stored_variants
from replay.record.board import Board
from replay.record.notation import full_text
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.position import Position, start_position
from replay.rules.variants import Variant

if TYPE_CHECKING:
    from replay.archive.select import Criteria

# The row's fields, in the order of the table and of the JSON object.
COLUMNS = ("move", "games", "wins", "draws", "losses", "unfinished", "score", "rating",
           "latest_date", "latest_white", "latest_black", "opening", "fen")


@dataclass(frozen=True)
class ExplorerRow:
    """One move played from the position: its games and how they went for the mover
    (``unfinished``: no result, or a double forfeit), the score in percent over the games
    with a result (None: none), the average of the ratings the games' tags give (None:
    none), the latest game (by date, then by index order), the name of the opening it
    reaches (None: no source names it) and the position after it."""

    move: str
    games: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    score: float | None
    rating: int | None
    latest_date: str | None
    latest_white: str | None
    latest_black: str | None
    latest_game: int
    opening: str | None
    fen: str
    numeric: str  # as games.moves writes it

    def as_dict(self) -> dict:
        """The row by COLUMNS' names."""
        return {name: getattr(self, name) for name in COLUMNS}


@dataclass
class Exploration:
    """A position and the moves played from it, the most played first."""

    variant: Variant
    position: Position
    fen: str
    opening: str | None
    rows: list[ExplorerRow] = field(default_factory=list)

    @property
    def games(self) -> int:
        """The games counted in the rows (a game that comes back to the position and plays
        another move counts in both)."""
        return sum(row.games for row in self.rows)

    def as_dict(self) -> dict:
        return {"variant": self.variant.name, "fen": self.fen, "opening": self.opening,
                "games": self.games, "moves": [row.as_dict() for row in self.rows]}


class ExplorerError(ValueError):
    """A position or a line that fits none of the database's variants."""


def explore(connection: sqlite3.Connection, position: Position, variant: Variant,
            criteria: Criteria | None = None, *, opening: str | None = None) -> Exploration:
    """The moves played from ``position`` in the games of ``variant`` meeting ``criteria``
    (``pdn search``'s; None: every game); ``opening`` names the position when the way to
    it is known (else its own name, if a source gives one)."""
    key = position_hash(position, variant)
    fen = fen_of(position, variant)
    named = _named(variant)
    own = named.get(_plain(position))
    found = Exploration(variant, position, fen, own or opening)
    if not _same_position(connection, key, fen):
        return found
    legal = _legal_steps(position, variant)
    if _needs_games(criteria):
        counted = _counted_from_games(connection, key, variant, criteria, legal)
    else:
        counted = _counted_from_table(connection, key)
    mover_white = position.turn == WHITE
    for next_key, tally in counted.items():
        step = legal.get(next_key)
        if step is None:  # a move the variant's rules do not allow here (another --rule)
            row = tally.row(tally.move, mover_white, None, _fen_of_key(connection, next_key))
        else:
            row = tally.row(step.text, mover_white, named.get(_plain(step.after)),
                            fen_of(step.after, variant))
        found.rows.append(row)
    found.rows.sort(key=lambda row: (-row.games, row.move))
    return found


def explore_fen(connection: sqlite3.Connection, fen: str, criteria: Criteria | None = None
                ) -> list[Exploration]:
    """The explorer at a FEN, in each of the database's variants it fits (``--game-variant``
    in ``criteria``: that one only); raises ExplorerError when it fits none."""
    chosen = criteria.variant if criteria is not None else None
    found = []
    for variant in stored_variants(connection, chosen):
        position = position_of_fen(fen, variant)
        if position is not None:
            found.append(explore(connection, position, variant, criteria))
    if not found:
        raise ExplorerError(N_("--position '{fen}' fits none of the database's variants")
                            .format(fen=fen))
    return found


def explore_moves(connection: sqlite3.Connection, moves: str, criteria: Criteria | None = None
                  ) -> list[Exploration]:
    """The explorer after a line of moves from the start (any notation, ``"1.cd4 fg5"``,
    ``"11-15 23-19"``; empty: the start itself), in each of the database's variants where
    it is legal; the opening's name is the most specific one the line goes through.
    Raises ExplorerError."""
    chosen = criteria.variant if criteria is not None else None
    found, reasons = [], []
    for variant in stored_variants(connection, chosen):
        if not moves.strip():
            line = [start_position(variant)]  # without the move reader (its grammar loads slowly)
        else:
            from replay.record.lines import MoveLineError, opening_positions

            try:
                line = [Position(*key) for key in opening_positions(moves, variant)]
            except MoveLineError as error:
                reasons.append(str(error))
                continue
        found.append(explore(connection, line[-1], variant, criteria,
                             opening=line_opening(line, variant)))
    if not found:
        raise ExplorerError(reasons[0] if len(reasons) == 1 else
                            N_("--moves '{moves}' is legal in none of the database's "
                               "variants").format(moves=moves))
    return found


def line_opening(line: list[Position], variant: Variant) -> str | None:
    """The most specific named opening a line of positions goes through."""
    from replay.reference.openings import opening_of

    named = opening_of(line, variant)
    return named.name if named is not None else None


# ---- counting ------------------------------------------------------------------------------


@dataclass
class _Tally:
    move: str
    games: int = 0
    white_wins: int = 0
    draws: int = 0
    black_wins: int = 0
    rated: int = 0
    rating_sum: int = 0
    latest_day: int = -1
    latest_game: int = 0
    latest: tuple[str | None, str | None, str | None] = (None, None, None)

    def row(self, move: str, mover_white: bool, opening: str | None, fen: str
            ) -> ExplorerRow:
        wins, losses = ((self.white_wins, self.black_wins) if mover_white
                        else (self.black_wins, self.white_wins))
        decided = wins + self.draws + losses
        score = round(100 * (wins + self.draws / 2) / decided, 1) if decided else None
        rating = round(self.rating_sum / self.rated) if self.rated else None
        return ExplorerRow(move, self.games, wins, self.draws, losses, self.games - decided,
                           score, rating, *self.latest, self.latest_game, opening, fen,
                           self.move)


def _needs_games(criteria: Criteria | None) -> bool:
    """Whether a criterion other than the variant (which the position's key holds) is set."""
    if criteria is None:
        return False
    return bool(criteria.tags or criteria.players or criteria.white or criteria.black
                or criteria.date_from or criteria.date_to or criteria.material
                or criteria.results or criteria.statuses or criteria.min_plies is not None
                or criteria.max_plies is not None)


def _counted_from_table(connection: sqlite3.Connection, key: int) -> dict[int, _Tally]:
    counted = {}
    for (next_key, move, games, white_wins, draws, black_wins, rated, rating_sum, day,
         latest_game, date, white, black) in connection.execute(
            "SELECT m.next_key, m.move, m.games, m.white_wins, m.draws, m.black_wins, m.rated, "
            "m.rating_sum, m.latest_day, m.latest_game, g.date, g.white, g.black "
            "FROM position_moves m LEFT JOIN games g ON g.game_id = m.latest_game "
            "WHERE m.position_key = ?", (key,)):
        counted[next_key] = _Tally(move, games, white_wins, draws, black_wins, rated,
                                   rating_sum, day, latest_game, (date, white, black))
    return counted


def _counted_from_games(connection: sqlite3.Connection, key: int, variant: Variant,
                        criteria: Criteria, legal: dict[int, _Step]) -> dict[int, _Tally]:
    """The rows counted game by game from the games through the position that meet the
    criteria (each game once per move it makes there)."""
    # the archive tools and the replayer, loaded only here: a search without criteria on the
    # games starts faster without them
    from replay.database.build import moves_text
    from replay.database.played import RATING_TAGS, outcome_of, ratings
    from replay.record.replayer import BLACK_WINS, DRAW, WHITE_WINS

    clauses, parameters, by_tags = game_conditions(connection, criteria)
    by_text = {moves_text([step.move], variant): next_key for next_key, step in legal.items()}
    by_text.update((move, next_key) for next_key, move in connection.execute(
        "SELECT next_key, move FROM position_moves WHERE position_key = ? ", (key,))
        if move not in by_text)
    counted: dict[int, _Tally] = {}
    seen: set[tuple[int, int]] = set()
    outcomes: dict[tuple[str, str | None], str] = {}  # (variant, Result tag) -> outcome
    # the rating tags alone by SQLite's JSON functions, unless --tag needs them all
    tags = "g.tags" if by_tags else "json_object(" + ", ".join(
        f"'{name}', json_extract(g.tags, '$.{name}')" for names in RATING_TAGS.values()
        for name in names) + ")"
    # A player's games are few: found by the indexes on White and Black first, each then
    # looked up at the position; other criteria go through the position's games instead.
    source = ("games g CROSS JOIN game_positions gp ON gp.position_key = ?1 AND "
              "gp.game_id = g.game_id" if criteria.players or criteria.white or criteria.black
              else "game_positions gp CROSS JOIN games g ON g.game_id = gp.game_id AND "
              "gp.position_key = ?1")
    rows = connection.execute(
        f"SELECT gp.ply, g.game_id, g.moves, g.variant, g.result, {tags}, g.date, "
        f"g.date_high, g.white, g.black FROM {source} WHERE {' AND '.join(clauses)}",
        [key, *parameters])
    for ply, game_id, moves, variant_name, result, tag_text, date, day, white, black in rows:
        words = moves.split(" ", ply + 1)
        if ply >= len(words) or not words[ply]:
            continue  # the game ends here
        move = words[ply]
        next_key = by_text.get(move)
        if next_key is None or (game_id, next_key) in seen:
            continue
        tag_values = json.loads(tag_text)
        if by_tags and not criteria.matches_tags(tag_values, None):
            continue
        seen.add((game_id, next_key))
        outcome = outcomes.get((variant_name, result))
        if outcome is None:
            outcome = outcomes[variant_name, result] = outcome_of(variant_name, result)
        found = ratings(tag_values)
        tally = counted.get(next_key)
        if tally is None:
            tally = counted[next_key] = _Tally(move)
        tally.games += 1
        tally.white_wins += outcome == WHITE_WINS
        tally.draws += outcome == DRAW
        tally.black_wins += outcome == BLACK_WINS
        if found:
            tally.rated += len(found)
            tally.rating_sum += sum(found)
        day = day or 0
        if (day, game_id) > (tally.latest_day, tally.latest_game):
            tally.latest_day, tally.latest_game = day, game_id
            tally.latest = (date, white, black)
    return counted


# ---- positions and moves -------------------------------------------------------------------


class _Step(NamedTuple):
    text: str  # in the variant's notation
    move: Move
    after: Position


def _legal_steps(position: Position, variant: Variant) -> dict[int, _Step]:
    """Each legal move's next position key -> the move and the position after it; of two
    moves reaching one position, the first."""
    board = Board(variant, position)
    found: dict[int, _Step] = {}
    for move in board.legal_moves():
        after = _after(variant, position, move)
        found.setdefault(position_hash(after, variant), _Step(full_text(board, move), move,
                                                             after))
    return found


def _after(variant: Variant, position: Position, move: Move) -> Position:
    board = Board(variant, position)
    board.push(move)
    return board.position


def _plain(position: Position) -> tuple[int, int, int, int]:
    return position.white, position.black, position.kings, position.turn


def _named(variant: Variant) -> dict:
    from replay.reference.openings import named_positions

    return {key: opening.name for key, opening in named_positions(variant.name).items()}


def _same_position(connection: sqlite3.Connection, key: int, fen: str) -> bool:
    """Whether the database knows the position under its key (the stored FEN compared, so
    a key collision never answers for another position)."""
    row = connection.execute("SELECT fen FROM positions WHERE position_key = ?", (key,)
                             ).fetchone()
    return row is not None and row[0] == fen


def _fen_of_key(connection: sqlite3.Connection, key: int) -> str:
    row = connection.execute("SELECT fen FROM positions WHERE position_key = ?", (key,)
                             ).fetchone()
    return row[0] if row is not None else ""


__all__ = ["COLUMNS", "Exploration", "ExplorerError", "ExplorerRow", "explore", "explore_fen",
           "explore_moves", "line_opening"]
