"""Searches over a game database, with ``pdn filter``'s criteria and ``--pattern``.

Board criteria are answered from the ``game_positions`` table: ``--position`` and
``--moves`` are lookups by position key (the stored FEN is compared too, so a key
collision never finds a wrong game), ``--pattern`` reads the pattern index (``planes``)
and ``--material-any-ply`` scans the distinct positions once. Tag, player and date
criteria follow ``pdn filter``'s rules (``replay.archive.select``), so both commands select
the same games. A search by position alone needs none of them, so this module loads the
archive tools only when a criterion does (a whole ``pdn search --position`` command then
starts in a fraction of a second).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pdn.fen import FenError, parse_fen
from pdn.i18n import N_
from replay.database.keys import fen_of, position_hash
from replay.database.pattern import Pattern, PatternError
from replay.database.planes import matching_positions
from replay.rules.position import Position, position_from_setup
from replay.rules.variants import UnknownVariantError, Variant, get_variant

if TYPE_CHECKING:
    from replay.archive.select import Criteria


@dataclass(frozen=True)
class Match:
    """A game found, where it lives, and the first ply where its position matched (None
    when no board criterion was given; for ``--moves``, the ply after the last move)."""

    game_id: int
    ply: int | None
    path: str
    game_index: int
    line: int
    variant: str
    white: str | None
    black: str | None
    event: str | None
    date: str | None
    result: str | None
    opening: str | None
    ballot: str | None
    pdn: str

    def summary(self) -> dict:
        """The match without its record: SUMMARY_COLUMNS by name."""
        return {"game_id": self.game_id, "file": self.path, "game": self.game_index,
                "line": self.line, "ply": self.ply, "variant": self.variant,
                "white": self.white, "black": self.black, "event": self.event,
                "date": self.date, "result": self.result, "opening": self.opening,
                "ballot": self.ballot}


@dataclass
class Search:
    """What to look for: ``pdn filter``'s criteria (tags, players, dates, variant, moves,
    position, material; None: none of them), a pattern, and a position (FEN) when it is
    given without ``criteria``."""

    criteria: Criteria | None = None
    pattern: Pattern | None = None
    position: str | None = None

    @property
    def fen(self) -> str | None:
        """The position searched for, if any."""
        return self.criteria.position if self.criteria is not None else self.position


# What a list of games shows: (name, SQL expression) per column, in order; the table
# leaves out the variant and the event (docs/database.md, "pdn search").
SUMMARY_COLUMNS = (("game_id", "g.game_id"), ("file", "f.path"), ("game", "g.game_index"),
                   ("line", "g.line"), ("ply", "found.ply"), ("variant", "g.variant"),
                   ("white", "g.white"), ("black", "g.black"), ("event", "g.event"),
                   ("date", "g.date"), ("result", "g.result"), ("opening", "g.opening"),
                   ("ballot", "g.ballot"))
TABLE_COLUMNS = tuple(name for name, _ in SUMMARY_COLUMNS if name not in ("variant", "event"))


def search(connection: sqlite3.Connection, wanted: Search, *, records: bool = True
           ) -> Iterator[Match]:
    """The games meeting every criterion, in index order (``records`` False: without their
    PDN records, ``pdn`` left empty); raises PatternError when the pattern fits none of the
    variants in the database."""
    columns = ", ".join(expression for name, expression in SUMMARY_COLUMNS if name != "variant")
    record = "g.pdn" if records else "''"
    for row in _selected(connection, wanted, f"g.variant, {columns}, {record}"):
        variant, game_id, path, game_index, line, ply, *described, pdn = row
        yield Match(game_id, ply, path, game_index, line, variant, *described, pdn)


def summaries(connection: sqlite3.Connection, wanted: Search, output_format: str
              ) -> Iterator[str]:
    """The games a search finds as lines of a list, each ending in a newline and made by
    SQLite itself (a list of a hundred thousand games takes a fraction of a second):
    ``table``, tab-separated TABLE_COLUMNS (an empty field for a missing value, tabs and
    line breaks in a field as spaces: a tag's tab must not make a column; no header),
    or ``json``, one object per game with every summary column (``Match.summary``)."""
    if output_format == "json":
        line = "json_object(" + ", ".join(f"'{name}', {expression}"
                                          for name, expression in SUMMARY_COLUMNS) + ")"
    elif output_format == "table":
        shown = dict(SUMMARY_COLUMNS)
        line = " || char(9) || ".join(
            f"REPLACE(REPLACE(REPLACE(IFNULL({shown[name]}, ''), char(9), ' '), char(10), ' '), "
            "char(13), ' ')" for name in TABLE_COLUMNS)
    else:
        raise ValueError(f"no list format {output_format!r}: table or json")
    for (text,) in _selected(connection, wanted, f"{line} || char(10)"):
        yield text


def _selected(connection: sqlite3.Connection, wanted: Search, columns: str
              ) -> Iterator[tuple]:
    """The chosen columns of the games meeting every criterion, in index order; the table
    ``found`` gives the ply where a board criterion first held (NULL without one)."""
    criteria = wanted.criteria
    variants = stored_variants(connection, criteria.variant if criteria is not None else None)
    plies: dict[int, int | None] | None = None
    for found in _board_matches(connection, wanted, variants):
        plies = found if plies is None else {
            game: plies[game] if plies[game] is not None else ply
            for game, ply in found.items() if game in plies}
    clauses, parameters, by_tags = game_conditions(connection, criteria)
    _fill_found(connection, plies)
    # CROSS JOIN keeps the games found as the outer loop (else SQLite may scan every game)
    source = ("temp.found CROSS JOIN games g USING (game_id)" if plies is not None
              else "games g LEFT JOIN temp.found USING (game_id)")
    rows = connection.execute(
        f"SELECT {columns}, {'g.tags' if by_tags else 'NULL'}, g.result, g.variant "
        f"FROM {source} JOIN files f USING (file_id) WHERE {' AND '.join(clauses)} "
        "ORDER BY g.game_id", parameters)
    for row in rows:
        if by_tags and not criteria.matches_tags(json.loads(row[-3]), None):
            continue
        if criteria is not None and criteria.results and not (
                row[-1] and criteria.result_matches(row[-2], stored_variant(row[-1]))):
            continue
        yield row[:-3]


def game_conditions(connection: sqlite3.Connection, criteria: Criteria | None
                    ) -> tuple[list[str], list, bool]:
    """The criteria on a game's own columns (variant, dates, final material, players) as
    SQL conditions on ``games g`` with their parameters, and whether ``--tag`` tests remain,
    to be made on each game's tags (``Criteria.matches_tags``); readable games only."""
    clauses, parameters = ["g.status != 'unreadable'"], []
    if criteria is None:
        return clauses, parameters, False
    if criteria.variant is not None:
        clauses.append("g.variant = ?")
        parameters.append(criteria.variant.name)
    _date_clauses(criteria, clauses, parameters)
    _material_clauses(criteria, clauses, parameters)
    _player_clauses(connection, criteria, clauses, parameters)
    return clauses, parameters, bool(criteria.tags)  # names: wholly decided by the clauses


def _fill_found(connection: sqlite3.Connection, plies: dict[int, int | None] | None) -> None:
    """The games a board criterion found, with their ply, in a temporary table (empty when
    there is no board criterion: every game then shows no ply)."""
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS found "
                       "(game_id INTEGER PRIMARY KEY, ply INTEGER)")
    connection.execute("DELETE FROM temp.found")
    if plies:
        connection.executemany("INSERT INTO temp.found VALUES (?, ?)", plies.items())


def stored_variants(connection: sqlite3.Connection, chosen: Variant | None = None
                    ) -> list[Variant]:
    """The variants of the games (only ``chosen``, when given), one index lookup per
    variant (a SELECT DISTINCT would read every game's entry)."""
    names = [name for (name,) in connection.execute(
        "WITH RECURSIVE found(name) AS (SELECT MIN(variant) FROM games UNION ALL "
        "SELECT (SELECT MIN(variant) FROM games WHERE variant > name) FROM found "
        "WHERE name IS NOT NULL) SELECT name FROM found WHERE name IS NOT NULL")]
    return [stored_variant(name) for name in names if chosen is None or name == chosen.name]


def stored_variant(name: str) -> Variant:
    """The variant a game's row names; ``sqlite3.DatabaseError`` for a name this toolkit
    does not know (``pdn index`` writes known names only: the database is damaged)."""
    try:
        return get_variant(name)
    except UnknownVariantError:
        raise sqlite3.DatabaseError(N_("a game's variant '{name}' is none this toolkit "
                                       "knows: the database is damaged").format(name=name)
                                    ) from None


def _board_matches(connection: sqlite3.Connection, wanted: Search, variants: list[Variant]
                   ) -> Iterator[dict[int, int | None]]:
    """For each board criterion given, the games meeting it and the ply where they do."""
    criteria = wanted.criteria
    if wanted.fen is not None:
        yield _position_matches(connection, wanted.fen, variants)
    if wanted.pattern is not None:
        yield _pattern_matches(connection, wanted.pattern, variants)
    if criteria is not None and criteria.moves is not None:
        yield _opening_matches(connection, criteria, variants)
    if criteria is not None and criteria.material is not None and criteria.material_any_ply:
        yield _material_matches(connection, criteria, variants)


def _position_matches(connection: sqlite3.Connection, fen: str, variants: list[Variant]
                      ) -> dict[int, int | None]:
    found: dict[int, int | None] = {}
    for variant in variants:
        position = position_of_fen(fen, variant)
        if position is None:
            continue
        found.update(connection.execute(
            "SELECT gp.game_id, MIN(gp.ply) FROM game_positions gp JOIN positions p "
            "ON p.position_key = gp.position_key WHERE gp.position_key = ? AND p.variant = ? "
            "AND p.fen = ? GROUP BY gp.game_id",
            (position_hash(position, variant), variant.name, fen_of(position, variant))))
    return found


def position_of_fen(fen: str, variant: Variant) -> Position | None:
    """A FEN read in a variant's notation (None where it does not fit), as ``pdn filter
    --position`` reads it (``Criteria.target_position``)."""
    try:
        return position_from_setup(parse_fen(fen, variant.gametype.notation))
    except (FenError, ValueError):
        return None


def _pattern_matches(connection: sqlite3.Connection, pattern: Pattern, variants: list[Variant]
                     ) -> dict[int, int | None]:
    found: dict[int, int | None] = {}
    problems = []
    for variant in variants:
        try:
            ids = matching_positions(connection, pattern, variant)
        except PatternError as error:
            problems.append(error)
            continue
        found.update(connection.execute(
            "SELECT gp.game_id, MIN(gp.ply) FROM positions p JOIN game_positions gp "
            "ON gp.position_key = p.position_key WHERE p.position_id IN "
            "(SELECT value FROM json_each(?)) GROUP BY gp.game_id", (json.dumps(ids),)))
    if problems and len(problems) == len(variants):
        raise problems[0]
    return found


def _opening_matches(connection: sqlite3.Connection, criteria: Criteria,
                     variants: list[Variant]) -> dict[int, int | None]:
    """Games whose main line goes through every position of the --moves sequence, ply by
    ply (as ``pdn filter --moves``)."""
    found: dict[int, int | None] = {}
    for variant in variants:
        opening = criteria.opening_positions(variant)
        if opening is None:
            continue
        games: list[int] | None = None
        for ply in reversed(range(len(opening))):  # the last position is the rarest
            key = position_hash(Position(*opening[ply]), variant)
            if games is None:
                rows = connection.execute(
                    "SELECT game_id FROM game_positions WHERE position_key = ? AND ply = ?",
                    (key, ply))
            else:  # only the games still in, a lookup each (the start holds every game;
                # CROSS JOIN keeps that order: SQLite would rather walk the position's rows)
                rows = connection.execute(
                    "SELECT gp.game_id FROM json_each(?) AS j CROSS JOIN game_positions gp "
                    "ON gp.position_key = ? AND gp.game_id = j.value AND gp.ply = ?",
                    (json.dumps(games), key, ply))
            games = [game for (game,) in rows]
            if not games:
                break
        found.update(dict.fromkeys(games or (), len(opening) - 1))
    return found


def _material_matches(connection: sqlite3.Connection, criteria: Criteria,
                      variants: list[Variant]) -> dict[int, int | None]:
    """Games with the --material balance at some ply (--material-any-ply). The index on
    the four counts answers it; a side left free is every count a board allows, so that
    the index still serves a test of Black alone (a few hundred lookups, not a scan)."""
    clauses, parameters = [], []
    test = criteria.material
    counts = json.dumps(list(range(max((len(v.geometry.playable) for v in variants),
                                       default=0) + 1)))
    for prefix, side in (("white", test.white), ("black", test.black)):
        if side is not None:
            clauses.append(f"p.{prefix}_men_count = ? AND p.{prefix}_kings_count = ?")
            parameters += list(side)
        else:
            clauses.append(f"p.{prefix}_men_count IN (SELECT value FROM json_each(?)) AND "
                           f"p.{prefix}_kings_count IN (SELECT value FROM json_each(?))")
            parameters += [counts, counts]
    names = json.dumps([variant.name for variant in variants])
    return dict(connection.execute(
        "SELECT gp.game_id, MIN(gp.ply) FROM positions p JOIN game_positions gp "
        "ON gp.position_key = p.position_key WHERE p.variant IN (SELECT value FROM "
        f"json_each(?)) AND {' AND '.join(clauses)} GROUP BY gp.game_id",
        [names, *parameters]))


def _date_clauses(criteria: Criteria, clauses: list[str], parameters: list) -> None:
    """--date-from/--date-to as ``pdn filter`` reads them: a partial date on either side
    is a span of days, and a game matches when the spans meet."""
    from replay.archive.tags import date_range

    for parts, clause, side in ((criteria.date_from, "g.date_high >= ?", 0),
                                (criteria.date_to, "g.date_low <= ?", 1)):
        if parts is None:
            continue
        year, month, day = date_range(parts)[side]
        clauses.append(clause)
        parameters.append(year * 10000 + month * 100 + day)


def _player_clauses(connection: sqlite3.Connection, criteria: Criteria, clauses: list[str],
                    parameters: list) -> None:
    """--player, --white, --black: the names that fit (``pdn filter``'s rule, tried on each
    distinct name once), then the games by the indexes on White and Black (the columns
    hold the tags as written, as ``players`` does: no game's tags need reading again)."""
    from replay.archive.tags import name_matches

    tests = [(query, ("white", "black")) for query in criteria.players]
    tests += [(query, ("white",)) for query in criteria.white]
    tests += [(query, ("black",)) for query in criteria.black]
    if not tests:
        return
    names = [name for (name,) in connection.execute("SELECT name FROM players")]
    for query, columns in tests:
        fitting = json.dumps([name for name in names if name_matches(query, name)])
        clauses.append("(" + " OR ".join(f"g.{column} IN (SELECT value FROM json_each(?))"
                                         for column in columns) + ")")
        parameters += [fitting] * len(columns)


def _material_clauses(criteria: Criteria, clauses: list[str], parameters: list) -> None:
    """--material at the end of the main line."""
    test = criteria.material
    if test is None or criteria.material_any_ply:
        return
    for prefix, side in (("white", test.white), ("black", test.black)):
        if side is not None:
            clauses.append(f"g.{prefix}_men = ? AND g.{prefix}_kings = ?")
            parameters += list(side)


__all__ = ["SUMMARY_COLUMNS", "TABLE_COLUMNS", "Match", "Search", "game_conditions",
           "position_of_fen", "search", "stored_variants", "summaries"]
