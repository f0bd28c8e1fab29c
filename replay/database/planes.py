"""The ``--pattern`` index: for each square and kind of piece, a bitmap of the positions
holding it.

Positions are numbered 1, 2, 3... as they are first met (``positions.position_id``) and cut
into chunks of 65,536; a *plane* is one chunk's bitmap of one fact: ``kind * 64 + bit``
(kinds ``wm``, ``wk``, ``bm``, ``bk`` = 0-3, ``bit`` the square's dense bit, as in
``keys``), ``ALL`` (the position is of this variant) or ``BLACK_TO_MOVE``. A plane that
would be all zeros is not stored. A pattern is then a few ANDs and ORs of planes per chunk,
done on Python integers (``int.from_bytes``), instead of a scan of every distinct position:
its cost grows with the number of chunks and of squares named, not with the rows.
"""

from __future__ import annotations

import re
import sqlite3

from replay.database.pattern import PIECES, Pattern
from replay.rules.variants import Variant

CHUNK_BITS = 16
CHUNK = 1 << CHUNK_BITS
CHUNK_BYTES = CHUNK // 8
ALL = 256
BLACK_TO_MOVE = 257
_MARK = "planes_through"  # meta: the last position_id the planes cover
_NONZERO = re.compile(rb"[^\x00]")
_BYTE_BITS = tuple(tuple(b for b in range(8) if value >> b & 1) for value in range(256))


def update_planes(connection: sqlite3.Connection) -> int:
    """Add the positions written since the planes were last brought up to date (in the
    caller's transaction); the number of positions added. A chunk's rows of a variant are
    read as one integer array (SQL says which side is to move) and its planes made by numpy's
    bit unpacking, one chunk held at a time. (A new database's planes are made natively as
    its positions are written, ``positions_table``; this reads back the others.)"""
    import numpy as np

    done = connection.execute("SELECT value FROM meta WHERE name = ?", (_MARK,)).fetchone()
    start = int(done[0]) if done else 0
    last = connection.execute("SELECT MAX(position_id) FROM positions").fetchone()[0] or start
    added = 0
    variants = [name for (name,) in connection.execute(
        "SELECT DISTINCT variant FROM positions WHERE position_id > ?", (start,))]
    for chunk in range(start >> CHUNK_BITS, (last >> CHUNK_BITS) + 1):
        low, high = max(start + 1, chunk << CHUNK_BITS), (chunk + 1 << CHUNK_BITS) - 1
        for variant in variants:
            rows = connection.execute(
                "SELECT position_id, turn = 'B', white_men, white_kings, black_men, "
                "black_kings FROM positions WHERE position_id BETWEEN ? AND ? AND variant = ? "
                "AND white_men IS NOT NULL", (low, high, variant)).fetchall()
            if rows:  # none on a board of more than 64 squares: no bitboards
                made = _planes(np.array(rows, dtype=np.int64), chunk, np)
                merge_planes(connection, [(variant, chunk, {
                    plane: packed.tobytes() for plane, packed in made.items() if packed.any()})])
                added += len(rows)
    mark_planes(connection, last)
    return added


def mark_planes(connection: sqlite3.Connection, last: int) -> None:
    """Record that the planes cover the positions up to ``last`` (a position_id)."""
    connection.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (_MARK, str(last)))


def _planes(block, chunk: int, np) -> dict:
    """A chunk's planes of one variant's new positions (rows of ids, Black to move and the
    four bitboards)."""
    offsets = block[:, 0] - (chunk << CHUNK_BITS)
    both = _bitmaps(offsets, np.stack([np.ones(len(block), dtype=np.uint8),
                                       (block[:, 1] != 0).astype(np.uint8)], 1), np)
    planes = {ALL: both[0], BLACK_TO_MOVE: both[1]}
    for kind in range(4):
        boards = np.ascontiguousarray(block[:, 2 + kind], dtype="<i8").view(np.uint8)
        squares = np.unpackbits(boards.reshape(-1, 8), axis=1, bitorder="little")
        held = np.flatnonzero(squares.any(axis=0))  # the bits some position sets
        for bit, bitmap in zip(held.tolist(), _bitmaps(offsets, squares[:, held], np),
                               strict=True):
            planes[kind * 64 + bit] = bitmap
    return planes


def _bitmaps(offsets, facts, np):
    """One chunk's bitmap per column of ``facts`` (a 0/1 matrix, one row per position at
    ``offsets``), as bytes in bit order."""
    bits = np.zeros((CHUNK, facts.shape[1]), dtype=np.uint8)
    bits[offsets] = facts
    return np.ascontiguousarray(np.packbits(bits, axis=0, bitorder="little").T)


def merge_planes(connection: sqlite3.Connection,
                 found: list[tuple[str, int, dict[int, bytes]]]) -> None:
    """OR each chunk's planes of new positions (variant, chunk, {plane: bitmap}; no plane of
    zeros) into the bitmaps stored."""
    for variant, chunk, planes in found:
        stored = dict(connection.execute(
            "SELECT plane, bits FROM pattern_planes WHERE variant = ? AND chunk = ?",
            (variant, chunk)))
        for plane, bits in planes.items():
            if plane in stored:
                bits = (int.from_bytes(bits, "little") | int.from_bytes(stored[plane], "little")
                        ).to_bytes(CHUNK_BYTES, "little")
            connection.execute("INSERT OR REPLACE INTO pattern_planes VALUES (?, ?, ?, ?)",
                               (variant, chunk, plane, bits))


def matching_positions(connection: sqlite3.Connection, pattern: Pattern, variant: Variant
                       ) -> list[int]:
    """The position_ids of a variant's positions that fit the pattern; raises PatternError
    when a square is not on its board."""
    bits = pattern.square_bits(variant)
    wanted = {ALL} | ({BLACK_TO_MOVE} if pattern.turn else set())
    for squares, kinds, _ in bits:
        wanted |= {kind * 64 + bit for kind in _kinds_read(kinds) for bit in squares}
    chunks: dict[int, dict[int, int]] = {}
    for chunk, plane, blob in connection.execute(
            "SELECT chunk, plane, bits FROM pattern_planes WHERE variant = ? AND plane IN "
            "(SELECT value FROM json_each(?)) ORDER BY chunk",
            (variant.name, "[" + ",".join(map(str, sorted(wanted))) + "]")):
        chunks.setdefault(chunk, {})[plane] = int.from_bytes(blob, "little")
    found: list[int] = []
    for chunk, planes in chunks.items():
        every = planes.get(ALL, 0)
        result = every
        for squares, kinds, each in bits:
            result &= _term(planes, every, squares, kinds, each)
            if not result:
                break
        if result and pattern.turn is not None:
            black = planes.get(BLACK_TO_MOVE, 0)
            result &= black if pattern.turn == "B" else every & ~black
        if result:
            found += _ids(result, chunk << CHUNK_BITS)
    return found


def _term(planes: dict[int, int], every: int, squares: list[int], kinds: frozenset[str],
          each: bool) -> int:
    """The positions of a chunk where every square (``each``), or any, holds a kind."""
    result = every if each else 0
    for bit in squares:
        holding = 0
        for kind in _kinds_read(kinds):
            holding |= planes.get(kind * 64 + bit, 0)
        if "empty" in kinds:  # none of the other kinds is there
            holding = every & ~holding
        result = result & holding if each else result | holding
    return result


def _kinds_read(kinds: frozenset[str]) -> list[int]:
    """The kinds whose planes decide a term: those it names, or with ``empty`` those it
    does not name (a square is empty or one of the kinds when none of the others is
    there)."""
    pieces = [PIECES.index(kind) for kind in sorted(kinds - {"empty"})]
    return [k for k in range(4) if k not in pieces] if "empty" in kinds else pieces


def _ids(bits: int, base: int) -> list[int]:
    """The position_ids of a chunk's set bits (scanning its bytes, not its bits)."""
    data = bits.to_bytes(CHUNK_BYTES, "little")
    return [base + match.start() * 8 + bit for match in _NONZERO.finditer(data)
            for bit in _BYTE_BITS[data[match.start()]]]


__all__ = ["ALL", "BLACK_TO_MOVE", "CHUNK", "mark_planes", "matching_positions",
           "merge_planes", "update_planes"]
