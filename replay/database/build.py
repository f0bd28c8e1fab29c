"""Index sources into a database: every game's tags, moves, positions and place in its file.

Games are read and replayed in worker processes (``replay.archive.stream.run_task``, the
archive tools' machinery); the main process writes the rows, one transaction per file.
A file already indexed with the same bytes is skipped; a file whose bytes changed has its
old games replaced; a file that cannot be read is reported by name and the others go on.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from pdn.i18n import N_
from replay.archive.run import Settings, game_text
from replay.archive.stream import Record, run_task
from replay.archive.tags import DateParts, date_parts_plain, date_range
from replay.database.bulk import insert_rows
from replay.database.game_positions import GamePositions
from replay.database.lock import index_lock
from replay.database.native import PythonKeySet, key_set
from replay.database.planes import update_planes
from replay.database.played import (
    MovesPlayed,
    NativeMovesPlayed,
    facts_of,
    moves_played,
    refresh_latest,
    remove_games,
)
from replay.database.positions_table import PositionsTable
from replay.database.rows import line_rows, moves_text
from replay.database.schema import (
    INDEXES,
    SCHEMA_VERSION,
    DatabaseError,
    build_indexes,
    create_or_open,
    older_database,
)
from replay.database.sqlite_reasons import sqlite_reason
from replay.record.replayer import UNKNOWN, normalise_result
from replay.rules.draws import Material
from replay.run.parallel import gc_paused
from replay.run.partitions import shown_name

Note = Callable[[str], None]
UNREADABLE = "unreadable"
# SQLite's page cache: the rows come in key order (game_positions) or in the order of their
# table (the others), and the indexes built after a load are sorted (spilling to disk past the
# cache), so a small cache does whatever the archive's size.
CACHE_KIB = 32 * 1024
BATCH_GAMES = 4096  # games written together: one date parse, one statement per table
GAMES_INSERT = ("INSERT INTO games (game_id, file_id, game_index, line, variant, white, black, "
                "event, date, date_low, date_high, result, status, plies, moves, opening, "
                "ballot, white_men, white_kings, black_men, black_kings, tags, pdn)")
GAMES_COLUMNS = 23


@dataclass
class GameEntry:
    """What a worker found about one game: its row, its positions, and the rows of the
    positions this process had not yet described in the run."""

    line: int
    pdn: str
    tags: dict[str, str]
    error: str = ""
    variant: str | None = None
    status: str = UNREADABLE
    moves: str = ""
    opening: str | None = None
    ballot: str | None = None
    material: tuple[int, int, int, int] | None = None
    outcome: str = UNKNOWN  # the Result tag read in the game's variant (white, black...)
    keys: list[int] = field(default_factory=list)  # the key at each ply, from the start
    new_positions: list[tuple] = field(default_factory=list)  # rows.LineRows.rows
    # the Date tag's day span, read by the main process for many games at once
    date: tuple[int | None, int | None] = (None, None)


_SEEN: dict[str, PythonKeySet] = {}  # per run: the keys this process already described
# then forgotten (a Python set's: about 60 MB; the native KeySet's, 4 times more in 64 MB): a
# position described twice is merely written twice
SEEN_LIMIT = 1_000_000
NATIVE_SEEN_LIMIT = 4_000_000
_DAYS: dict[str, tuple[int | None, int | None]] = {}  # Date tag -> day span, per process
DAYS_LIMIT = 100_000


@dataclass
class IndexTask:
    """Replay every game of a batch and describe it for the database; a worker describes
    each position once per run (``run``: a token of the indexing run)."""

    settings: Settings
    run: str

    def __call__(self, records: list[Record]) -> list[GameEntry]:
        seen = _SEEN.get(self.run)
        if seen is None or len(seen) > (SEEN_LIMIT if isinstance(seen, set)
                                        else NATIVE_SEEN_LIMIT):
            _SEEN.clear()
            seen = _SEEN[self.run] = key_set()
        return [self._entry(record, seen) for record in records]

    def _entry(self, record: Record, seen: PythonKeySet) -> GameEntry:
        entry = GameEntry(record.line, game_text(record), dict(record.tags), record.error)
        if record.game is None:
            return entry
        line = line_rows(record.game, self.settings.choice, seen)
        variant = line.variant
        entry.variant, entry.status = variant.name, line.status
        entry.outcome = normalise_result(record.game.headers_result, variant)
        entry.moves = line.moves
        entry.material = tuple(Material.of(line.final))
        entry.opening, entry.ballot = line.opening, line.ballot
        entry.keys, entry.new_positions = line.keys, line.rows
        return entry


def day_spans(texts: list[str]) -> list[tuple[int | None, int | None]]:
    """The day span of each Date tag; a date met before in this process is not read again
    (an archive repeats its dates). Read by ``date_parts_plain``, the games table's rules
    without pandas, whose import would double the run's memory."""
    if len(_DAYS) > DAYS_LIMIT:
        _DAYS.clear()
    spans = []
    for text in texts:
        span = _DAYS.get(text)
        if span is None:
            span = _DAYS[text] = day_span(date_parts_plain(text))
        spans.append(span)
    return spans


def day_span(parts: DateParts) -> tuple[int | None, int | None]:
    """The earliest and latest day a partial date can mean, as YYYYMMDD (None: no year)."""
    span = date_range(parts)
    if span is None:
        return None, None
    return tuple(year * 10000 + month * 100 + day for year, month, day in span)


@dataclass
class IndexSummary:
    """What an indexing run did."""

    files: int = 0
    skipped: int = 0
    replaced: int = 0
    failed: list[str] = field(default_factory=list)
    games: int = 0
    unreadable: int = 0
    positions: int = 0


def index_sources(database: str | Path, sources: list[str], settings: Settings, *,
                  note: Note = print) -> IndexSummary:
    """Add the games of ``sources`` (file paths) to ``database``, creating it when new, or
    rebuilding it when it is of an older schema (``rebuild``); raises
    ``schema.DatabaseError`` for a database that cannot be used."""
    with index_lock(database, note):  # one run at a time: judged, made and written by one
        older = older_database(database)  # under the lock: never another run's half-made file
        if older is not None:
            return rebuild(database, *older, sources, settings, note=note)
        return _index_into(database, sources, settings, note)


def _index_into(database: str | Path, sources: list[str], settings: Settings, note: Note
                ) -> IndexSummary:
    """``index_sources`` into a database of this schema or a new one, its lock held."""
    summary = IndexSummary()
    run = uuid.uuid4().hex
    with gc_paused():
        connection = create_or_open(database)
        connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        connection.execute("PRAGMA temp_store = FILE")
        try:
            positions = PositionsTable(connection)
            for source in sources:
                _index_file(connection, source, IndexTask(_portable(settings), run), summary,
                            note, settings, positions)
            with connection:
                build_indexes(connection, INDEXES)
        except sqlite3.Error as error:  # a database damaged past its header, a full disk...
            raise DatabaseError(N_("{file}: cannot write the database: {reason}").format(
                file=database, reason=sqlite_reason(error))) from None
        finally:
            connection.close()
    return summary


def rebuild(database: str | Path, version: int, indexed: list[str], sources: list[str],
            settings: Settings, *, note: Note = print) -> IndexSummary:
    """A database of schema ``version`` (older: its keys cannot be read) made again in this
    schema from the files it ``indexed`` that are still there, then ``sources``: written
    beside it and put in its place once whole, so a failed run leaves it as it was. The
    caller holds the database's lock (``index_sources``)."""
    target = Path(database)
    given = {os.path.realpath(source) for source in sources}
    kept = [path for path in indexed if os.path.isfile(path) and path not in given]
    note(N_("{file}: a database of schema version {version}, older than this toolkit's "
            "({current}): rebuilt from the files it indexed that are still there ({count}) "
            "and the files given").format(file=database, version=version,
                                          current=SCHEMA_VERSION, count=len(kept)))
    for path in indexed:
        if not os.path.isfile(path):
            note(N_("{file}: indexed before, no longer there: left out of the rebuilt "
                    "database").format(file=path))
    fresh = target.with_name(f".{target.name}.{os.getpid()}.rebuild")
    try:
        summary = index_sources(fresh, kept + sources, settings, note=note)
        os.replace(fresh, target)
    finally:
        fresh.unlink(missing_ok=True)
    return summary


def _portable(settings: Settings) -> Settings:
    return Settings(settings.choice, settings.jobs, settings.encoding)


def _index_file(connection: sqlite3.Connection, source: str, task: IndexTask,
                summary: IndexSummary, note: Note, settings: Settings,
                positions: PositionsTable) -> None:
    path = Path(os.path.realpath(source))  # resolve() raises on a loop of links
    stored, name = shown_name(str(path)), shown_name(source)  # text: no bytes but UTF-8
    try:
        digest, size = file_digest(path)
    except OSError as error:
        summary.failed.append(source)
        note(N_("{file}: cannot read: {reason}").format(file=name,
                                                      reason=error.strerror or error))
        return
    known = connection.execute("SELECT file_id FROM files WHERE path = ?",
                               (stored,)).fetchall()
    same = connection.execute("SELECT path FROM files WHERE sha256 = ?", (digest,)).fetchone()
    if same is not None:
        summary.skipped += 1
        note(N_("{file}: already indexed, skipped").format(file=name) if same[0] == stored
             else N_("{file}: already indexed (the same bytes as {other}), skipped").format(
                 file=name, other=same[0]))
        return
    try:
        with connection:
            for (file_id,) in known:  # the same path with other bytes: replace its games
                _remove_file(connection, file_id)
                summary.replaced += 1
            _insert_file(connection, source, stored, digest, size, task, settings, summary, note,
                         positions)
    except OSError as error:
        _SEEN.clear()  # the positions described for the file were rolled back with it
        positions.forget()
        summary.failed.append(source)
        note(N_("{file}: cannot read: {reason}; nothing of it indexed").format(
            file=name, reason=error.strerror or error))
        return
    summary.files += 1


def file_digest(path: Path) -> tuple[str, int]:
    """The SHA-256 of a file's bytes and its size; raises OSError."""
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def _remove_file(connection: sqlite3.Connection, file_id: int) -> None:
    remove_games(connection, file_id)
    connection.execute("DELETE FROM game_positions WHERE game_id IN "
                       "(SELECT game_id FROM games WHERE file_id = ?)", (file_id,))
    connection.execute("DELETE FROM games WHERE file_id = ?", (file_id,))
    connection.execute("DELETE FROM files WHERE file_id = ?", (file_id,))
    refresh_latest(connection)


def _insert_file(connection: sqlite3.Connection, source: str, path: str, digest: str,
                 size: int, task: IndexTask, settings: Settings, summary: IndexSummary,
                 note: Note, positions: PositionsTable) -> None:
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    file_id = connection.execute(
        "INSERT INTO files (path, sha256, size, games, indexed_at) VALUES (?, ?, ?, 0, ?)",
        (path, digest, size, stamp)).lastrowid
    games, played, pending = 0, moves_played(connection), []
    held = GamePositions(connection)
    for item in run_task([source], task, jobs=settings.jobs, encoding=settings.encoding,
                         progress=settings.progress):
        games += 1
        pending.append(item)
        if len(pending) >= BATCH_GAMES:
            _insert_games(connection, file_id, pending, played, positions, held, summary, note)
            pending.clear()
            gc.collect(1)  # the batch's cycles, if any (the collector is paused for the run)
    _insert_games(connection, file_id, pending, played, positions, held, summary, note)
    held.flush()
    played.flush()
    connection.execute("UPDATE files SET games = ? WHERE file_id = ?", (games, file_id))
    positions.finish_planes()
    update_planes(connection)  # the planes of positions not made as they were written
    summary.games += games


def _insert_games(connection: sqlite3.Connection, file_id: int, items: list,
                  played: MovesPlayed | NativeMovesPlayed, positions_table: PositionsTable,
                  held: GamePositions, summary: IndexSummary, note: Note) -> None:
    """Write a batch of games (``run_task``'s items) in their order: their dates read in
    one call, and one statement per table. Each game's id is the one SQLite would give it,
    one past the largest (``INTEGER PRIMARY KEY``), given here so that its positions can
    name it before it is written."""
    days = day_spans([item.result.tags.get("Date") or "" for item in items])
    last = connection.execute("SELECT MAX(game_id) FROM games").fetchone()[0] or 0
    games: list[tuple] = []
    players: list[tuple[str]] = []
    positions: list[tuple] = []
    for item, day in zip(items, days, strict=True):
        entry: GameEntry = item.result
        entry.date = day
        if entry.error:
            summary.unreadable += 1
            if not entry.pdn:  # too large to read: an empty copy would be a game emptied
                note(N_("{place}: game {number}: unreadable, left out of the index: "
                        "{reason}").format(place=f"{item.source}:{entry.line}",
                                           number=item.index, reason=entry.error))
                continue
            note(N_("{place}: game {number}: unreadable, indexed without moves: {reason}")
                 .format(place=f"{item.source}:{entry.line}", number=item.index,
                         reason=entry.error))
        game_id = last + len(games) + 1
        games.append(_game_row(game_id, file_id, item.index, entry))
        players.extend((name,) for name in (entry.tags.get("White"), entry.tags.get("Black"))
                       if name)
        positions.extend(entry.new_positions)
        held.add(game_id, entry.keys)
        played.add_text(facts_of(game_id, entry.outcome, entry.tags, day[1]), entry.keys,
                        entry.moves)
        summary.positions += len(entry.keys)
    connection.executemany("INSERT OR IGNORE INTO players VALUES (?)", players)
    insert_rows(connection, GAMES_INSERT, GAMES_COLUMNS, games)
    positions_table.add(positions)


def _game_row(game_id: int, file_id: int, index: int, entry: GameEntry) -> tuple:
    """A game's ``games`` row."""
    tags = entry.tags
    material = entry.material or (None, None, None, None)
    return (game_id, file_id, index, entry.line, entry.variant, tags.get("White"),
            tags.get("Black"), tags.get("Event"), tags.get("Date"), *entry.date,
            tags.get("Result"), entry.status, max(len(entry.keys) - 1, 0), entry.moves,
            entry.opening, entry.ballot, *material, json.dumps(tags, ensure_ascii=False),
            entry.pdn)


__all__ = ["GameEntry", "IndexSummary", "IndexTask", "index_sources", "moves_text"]
