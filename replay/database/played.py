"""The ``position_moves`` table: for each position, every move played from it, with the
games, their results, ratings and the latest game, kept up to date as files are indexed
and replaced (``build``), read by the explorer (``explore``).

A game counts once for each (position, next position) step of its main line, at whatever
ply it makes it, so transpositions meet in one row: the position decides, not the path.
Rows are added up in memory per file and written as upserts in batches (``FLUSH_ROWS``), so a
file of a million games needs neither a row per game position nor unbounded memory.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass

from replay.database.bulk import insert_rows
from replay.record.replayer import BLACK_WINS, DRAW, WHITE_WINS

FLUSH_ROWS = 200_000
NATIVE_FLUSH_ROWS = 1_000_000  # the native tally's steps take about 100 bytes each
SLICE_ROWS = 20_000  # rows made Python tuples at a time (400 bytes each) when written
RATING = re.compile(r"^\s*(\d{1,5})")
RATING_TAGS = {"white": ("WhiteRating", "WhiteElo"), "black": ("BlackRating", "BlackElo")}

COLUMNS = 11
INSERT = """
INSERT INTO position_moves (position_key, next_key, move, games, white_wins, draws, black_wins,
                            rated, rating_sum, latest_day, latest_game)"""
ON_CONFLICT = """
ON CONFLICT (position_key, next_key) DO UPDATE SET
    games = games + excluded.games,
    white_wins = white_wins + excluded.white_wins,
    draws = draws + excluded.draws,
    black_wins = black_wins + excluded.black_wins,
    rated = rated + excluded.rated,
    rating_sum = rating_sum + excluded.rating_sum,
    latest_game = CASE WHEN (excluded.latest_day, excluded.latest_game) > (latest_day, latest_game)
                       THEN excluded.latest_game ELSE latest_game END,
    latest_day = MAX(latest_day, excluded.latest_day)
"""


def ratings(tags: dict[str, str]) -> list[int]:
    """The players' ratings a game's tags give (``WhiteRating``, else ``WhiteElo``; the
    same for Black), as the statistics read them: the first number of the tag."""
    found = []
    for names in RATING_TAGS.values():
        for name in names:
            match = RATING.match(tags.get(name) or "")
            if match:
                found.append(int(match.group(1)))
                break
    return [value for value in found if value > 0]


_OUTCOMES = {WHITE_WINS: 1, DRAW: 2, BLACK_WINS: 3}  # the native tally's codes


@dataclass(frozen=True)
class GameFacts:
    """What the table needs of one game."""

    game_id: int
    outcome: str  # replay.record.replayer: white / black / draw / double_forfeit / unknown
    ratings: tuple[int, ...]
    day: int  # date_high, 0 without a date


def steps(keys: list[int], moves: list[str]) -> dict[tuple[int, int], str]:
    """A main line's (position, next position) steps, each once, with the move made (the
    first time, when a game repeats one)."""
    found: dict[tuple[int, int], str] = {}
    for ply, move in enumerate(moves[:len(keys) - 1]):
        found.setdefault((keys[ply], keys[ply + 1]), move)
    return found


class MovesPlayed:
    """Rows added up in memory, written to ``position_moves`` by ``flush``."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.rows: dict[tuple[int, int], list] = {}

    def add(self, game: GameFacts, keys: list[int], moves: list[str]) -> None:
        """Count one game's steps; flushes when the rows held reach FLUSH_ROWS."""
        wins = (game.outcome == WHITE_WINS, game.outcome == DRAW, game.outcome == BLACK_WINS)
        rated, total = len(game.ratings), sum(game.ratings)
        for step, move in steps(keys, moves).items():
            row = self.rows.get(step)
            if row is None:
                self.rows[step] = [move, 1, *wins, rated, total, game.day, game.game_id]
                continue
            row[1] += 1
            row[2] += wins[0]
            row[3] += wins[1]
            row[4] += wins[2]
            row[5] += rated
            row[6] += total
            if (game.day, game.game_id) > (row[7], row[8]):
                row[7], row[8] = game.day, game.game_id
        if len(self.rows) >= FLUSH_ROWS:
            self.flush()

    def add_text(self, game: GameFacts, keys: list[int], moves: str) -> None:
        """``add`` with the moves as ``games.moves`` writes them."""
        self.add(game, keys, moves.split())

    def flush(self) -> None:
        """Write the rows held (added to those already in the table) and forget them, in
        the table's order: SQLite then walks its B-tree once."""
        insert_rows(self.connection, INSERT, COLUMNS,
                    ((*step, *self.rows[step]) for step in sorted(self.rows)), ON_CONFLICT)
        self.rows.clear()


class NativeMovesPlayed:
    """``MovesPlayed`` added up by the native core (``replay/database/_positions.c``'s Tally): the
    same rows, a step costing no Python object, held until ``NATIVE_FLUSH_ROWS``."""

    def __init__(self, connection: sqlite3.Connection, tally: object) -> None:
        self.connection = connection
        self.tally = tally

    def add_text(self, game: GameFacts, keys: list[int], moves: str) -> None:
        """Count one game's steps (``moves``: as ``games.moves`` writes them)."""
        self.tally.add(keys, moves, _OUTCOMES.get(game.outcome, 0),  # type: ignore[attr-defined]
                       len(game.ratings), sum(game.ratings), game.day, game.game_id)
        if len(self.tally) >= NATIVE_FLUSH_ROWS:  # type: ignore[arg-type]
            self.flush()

    def flush(self) -> None:
        """Write the rows held, sorted, a slice at a time, and forget them."""
        while rows := self.tally.rows(SLICE_ROWS):  # type: ignore[attr-defined]
            insert_rows(self.connection, INSERT, COLUMNS, rows, ON_CONFLICT)


def moves_played(connection: sqlite3.Connection) -> MovesPlayed | NativeMovesPlayed:
    """The native tally where the native core is used, else ``MovesPlayed``."""
    from replay.database.native import tally as native_tally

    tally = native_tally()
    return MovesPlayed(connection) if tally is None else NativeMovesPlayed(connection, tally)


def remove_games(connection: sqlite3.Connection, file_id: int) -> None:
    """Take a file's games out of ``position_moves`` (before they leave ``games`` and
    ``game_positions``); the latest game of a row that loses it is found again among the
    games left once they are gone (``refresh_latest``)."""
    facts = {game_id: GameFacts(game_id, outcome_of(variant, result), tuple(ratings(
        json.loads(tags))), day or 0) for game_id, variant, result, tags, day in connection.execute(
            "SELECT game_id, variant, result, tags, date_high FROM games WHERE file_id = ? "
            "AND variant IS NOT NULL", (file_id,))}
    if not facts:
        return
    lines: dict[int, dict[int, int]] = {}
    for game_id, ply, key in connection.execute(
            "SELECT game_id, ply, position_key FROM game_positions WHERE game_id IN "
            "(SELECT game_id FROM games WHERE file_id = ?)", (file_id,)):
        lines.setdefault(game_id, {})[ply] = key
    moves = dict(connection.execute("SELECT game_id, moves FROM games WHERE file_id = ?",
                                    (file_id,)))
    taken = MovesPlayed(connection)
    for game_id, plies in lines.items():
        keys = [plies[ply] for ply in sorted(plies)]
        taken.add(facts[game_id], keys, moves[game_id].split())
        if len(taken.rows) >= FLUSH_ROWS // 2:
            _subtract(connection, taken)
    _subtract(connection, taken)
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS stale_moves "
                       "(position_key INTEGER, next_key INTEGER, move TEXT)")
    connection.execute(
        "INSERT INTO temp.stale_moves SELECT position_key, next_key, move FROM position_moves "
        "WHERE latest_game IN (SELECT game_id FROM games WHERE file_id = ?)", (file_id,))
    connection.execute("DELETE FROM position_moves WHERE games <= 0")


def _subtract(connection: sqlite3.Connection, taken: MovesPlayed) -> None:
    connection.executemany(
        "UPDATE position_moves SET games = games - ?, white_wins = white_wins - ?, "
        "draws = draws - ?, black_wins = black_wins - ?, rated = rated - ?, "
        "rating_sum = rating_sum - ? WHERE position_key = ? AND next_key = ?",
        ((*row[1:7], *step) for step, row in taken.rows.items()))
    taken.rows.clear()


def refresh_latest(connection: sqlite3.Connection) -> None:
    """The rows whose latest game was removed (``remove_games``) get the latest of the games
    left: those at the position whose next move is the row's."""
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS stale_moves "
                       "(position_key INTEGER, next_key INTEGER, move TEXT)")
    stale = connection.execute("SELECT position_key, next_key, move FROM temp.stale_moves"
                               ).fetchall()
    for key, next_key, move in stale:
        latest = max(((day or 0, game_id) for game_id, ply, moves, day in connection.execute(
            "SELECT g.game_id, gp.ply, g.moves, g.date_high FROM game_positions gp "
            "JOIN games g USING (game_id) WHERE gp.position_key = ?", (key,))
            if _move_at(moves, ply) == move), default=None)
        if latest is not None:
            connection.execute("UPDATE position_moves SET latest_day = ?, latest_game = ? "
                               "WHERE position_key = ? AND next_key = ?",
                               (*latest, key, next_key))
    connection.execute("DELETE FROM temp.stale_moves")


def _move_at(moves: str, ply: int) -> str | None:
    words = moves.split()
    return words[ply] if ply < len(words) else None


def outcome_of(variant_name: str | None, result: str | None) -> str:
    """A game's result as white / black / draw / double_forfeit / unknown, in its variant."""
    from replay.record.replayer import normalise_result
    from replay.rules.variants import get_variant

    return normalise_result(result, get_variant(variant_name)) if variant_name else "unknown"


def facts_of(game_id: int, outcome: str, tags: dict[str, str], day: int | None) -> GameFacts:
    """A game's facts as the table counts them."""
    return GameFacts(game_id, outcome, tuple(ratings(tags)), day or 0)


__all__ = ["FLUSH_ROWS", "GameFacts", "MovesPlayed", "NativeMovesPlayed", "facts_of",
           "moves_played", "outcome_of", "ratings", "refresh_latest", "remove_games", "steps"]

