"""A position as the database stores it: a 64-bit key, and bitboards per side and kind.

The key mixes the variant's seed (the first 8 bytes of a BLAKE2b digest of its name), the
pieces, the kings and the side to move, one 64-bit word at a time, each through the
finaliser of SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
generators", OOPSLA 2014); it is read as a signed integer (SQLite's INTEGER). The native
core computes the same key from its bitboards in a few multiplications
(``replay/database/_positions.c``). Two positions share a key only when they are the same
position of the same variant, but for a chance of about 1 in 10^7 among a billion distinct
positions (the birthday bound for 64 bits, which a good mixer of real positions meets). A
lookup never trusts the key alone: a search compares the stored position's variant and
FEN, the explorer its FEN too (``query``, ``explore``), so such a collision finds nothing
false; its one trace would be a position left out of the index (its key already taken).

Bitboards are dense: bit i stands for the i-th playing square in the board's internal
order (rank 1 from the left, then rank 2...), so 32 squares fit in 32 bits and 50 in 50.
Boards with more than 64 playing squares (Canadian, 72) have no bitboards (NULL); their
positions are still found by key.

>>> from replay.rules.position import start_position
>>> from replay.rules.variants import ENGLISH
>>> row = position_row(start_position(ENGLISH), ENGLISH)
>>> row.turn, bin(row.black_men).count("1"), row.counts
('B', 12, (12, 0, 12, 0))
"""

from __future__ import annotations

from functools import cache
from hashlib import blake2b
from typing import NamedTuple

from replay.rules.movegen import WHITE
from replay.rules.position import Position
from replay.rules.variants import Variant

DENSE_LIMIT = 64


class PositionRow(NamedTuple):
    """A row of the ``positions`` table (without its key)."""

    variant: str
    turn: str
    white_men: int | None
    white_kings: int | None
    black_men: int | None
    black_kings: int | None
    counts: tuple[int, int, int, int]  # white men, white kings, black men, black kings
    fen: str


WORD = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: no word leaves the state as it was


def position_hash(position: Position, variant: Variant) -> int:
    """The position's 64-bit key (a signed integer, as SQLite stores it)."""
    state, words = key_seed(variant.name), -(-variant.geometry.size // 64)
    for bits in (position.white, position.black, position.kings):
        for _ in range(words):
            state = _mix(((state ^ bits & WORD) + GAMMA) & WORD)
            bits >>= 64
    return signed(_mix(((state ^ position.turn) + GAMMA) & WORD))


def _mix(value: int) -> int:
    """SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit."""
    value = (value ^ value >> 30) * 0xBF58476D1CE4E5B9 & WORD
    value = (value ^ value >> 27) * 0x94D049BB133111EB & WORD
    return value ^ value >> 31


@cache
def key_seed(name: str) -> int:
    """A variant's seed of the key: the first 8 bytes of BLAKE2b of its name, big-endian."""
    return int.from_bytes(blake2b(name.encode("ascii"), digest_size=8).digest(), "big")


@cache
def dense_squares(variant: Variant) -> tuple[int, ...] | None:
    """The internal squares in dense bit order; None when there are more than 64."""
    playable = variant.geometry.playable
    return playable if len(playable) <= DENSE_LIMIT else None


class Coder:
    """One variant's bitboard and FEN writing, with its tables built once and its results
    cached by bitboard: a move changes one side, so the other side's bitboards and FEN
    section come again and again. (Caches keyed by plain integers: hashing a Variant, a
    dataclass of dataclasses, on every call cost more than the work it saved.)"""

    CACHE_LIMIT = 1 << 16

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.tables = _byte_tables(variant)
        notation = variant.gametype.notation
        by_square = notation.numbering.by_square if notation.numbering else None
        ranked = sorted(variant.geometry.playable,
                        key=lambda sq: by_square[sq] if by_square else sq)
        rank = {square: rank for rank, square in enumerate(ranked)}
        self.rank_names = tuple(notation.names[square] for square in ranked)
        # For each byte of an internal bitboard, its 256 values as bits in FEN order.
        self.rank_tables = tuple(
            tuple(sum(1 << rank[start + b] for b in range(8)
                      if value >> b & 1 and start + b in rank) for value in range(256))
            for start in range(0, variant.geometry.size, 8))
        self._dense: dict[int, int | None] = {}
        self._sections: dict[tuple[int, int], str] = {}
        self.layout = _native_layout(variant, self.rank_names, rank)

    def position_row(self, key: int, position: Position) -> tuple:
        """The ``positions`` table's row of a position with its key, as the INSERT takes it:
        key, variant, turn, four dense bitboards, their counts, FEN (``_positions.c`` writes
        the same tuple)."""
        row = self.row(position)
        return (key, row.variant, row.turn, row.white_men, row.white_kings, row.black_men,
                row.black_kings, *row.counts, row.fen)

    def dense(self, bits: int) -> int | None:
        """A bitboard on internal squares as a dense signed 64-bit bitboard (None: the
        board has more than 64 playing squares)."""
        found = self._dense.get(bits, _MISSING)
        if found is not _MISSING:
            return found
        value = None
        if self.tables is not None:
            value, rest = 0, bits
            for table in self.tables:
                if not rest:
                    break
                value |= table[rest & 0xFF]
                rest >>= 8
            value = signed(value)
        if len(self._dense) >= self.CACHE_LIMIT:
            self._dense.clear()
        self._dense[bits] = value
        return value

    def section(self, pieces: int, kings: int) -> str:
        """One side's squares in FEN order, kings marked K."""
        key = (pieces, kings)
        found = self._sections.get(key)
        if found is None:
            ranks, king_ranks, names = self._ranks(pieces), self._ranks(kings), []
            while ranks:
                low = ranks & -ranks
                names.append(("K" if king_ranks & low else "")
                             + self.rank_names[low.bit_length() - 1])
                ranks ^= low
            found = ",".join(names)
            if len(self._sections) >= self.CACHE_LIMIT:
                self._sections.clear()
            self._sections[key] = found
        return found

    def _ranks(self, bits: int) -> int:
        """A bitboard on internal squares with bit i standing for the i-th square in FEN
        order."""
        value = 0
        for table in self.rank_tables:
            if not bits:
                break
            value |= table[bits & 0xFF]
            bits >>= 8
        return value

    def fen(self, position: Position) -> str:
        """The position's FEN as ``pdn.fen.format_fen`` writes it."""
        white, black, kings = position.white, position.black, position.kings
        return (f"{'W' if position.turn == WHITE else 'B'}:W{self.section(white, white & kings)}"
                f":B{self.section(black, black & kings)}")

    def row(self, position: Position) -> PositionRow:
        """What the ``positions`` table holds about a position."""
        kings, white, black = position.kings, position.white, position.black
        parts = (white & ~kings, white & kings, black & ~kings, black & kings)
        return PositionRow(self.variant.name, "W" if position.turn == WHITE else "B",
                           *(self.dense(part) for part in parts),
                           tuple(part.bit_count() for part in parts), self.fen(position))


_MISSING = object()


def _native_layout(variant: Variant, rank_names: tuple[str, ...], rank: dict[int, int]
                   ) -> tuple | None:
    """What the database's native ``index`` reads of the variant (``_positions.c``): the
    name, the key's seed (8 bytes, big-endian), each internal square's dense bit then its
    FEN rank (255: none), the FEN names by rank and the move names (``build.moves_text``) by
    square; None where the board has more than 64 playing squares."""
    squares = dense_squares(variant)
    if squares is None:
        return None
    size = variant.geometry.size
    table = bytearray([255] * (2 * size))
    for bit, square in enumerate(squares):
        table[square] = bit
    for square, place in rank.items():
        table[size + square] = place
    numbers = variant.gametype.notation.numbers
    return (variant.name, key_seed(variant.name).to_bytes(8, "big"), bytes(table), rank_names,
            tuple(numbers.get(square, "") for square in range(size)))


@cache
def coder(variant: Variant) -> Coder:
    """The variant's coder (built once per process)."""
    return Coder(variant)


@cache
def _byte_tables(variant: Variant) -> tuple[tuple[int, ...], ...] | None:
    """For each byte of an internal bitboard, its 256 values' dense bits (fast ``dense``)."""
    squares = dense_squares(variant)
    if squares is None:
        return None
    index = {square: bit for bit, square in enumerate(squares)}
    tables = []
    for start in range(0, variant.geometry.size, 8):
        tables.append(tuple(sum(1 << index[start + b] for b in range(8)
                                if value >> b & 1 and start + b in index)
                            for value in range(256)))
    return tuple(tables)


def dense(bits: int, variant: Variant) -> int | None:
    """A bitboard on internal squares as a dense signed 64-bit bitboard (None: too big)."""
    return coder(variant).dense(bits)


def signed(value: int) -> int:
    """An unsigned 64-bit value as the signed integer SQLite stores."""
    return value - (1 << 64) if value >= 1 << 63 else value


def position_row(position: Position, variant: Variant) -> PositionRow:
    """What the ``positions`` table holds about a position (``coder(variant).row`` where
    many positions of one variant come in a row)."""
    return coder(variant).row(position)


def fen_of(position: Position, variant: Variant) -> str:
    """The position's FEN as ``pdn.fen.format_fen`` writes it, without building a Setup."""
    return coder(variant).fen(position)


__all__ = ["Coder", "PositionRow", "coder", "dense", "dense_squares", "fen_of", "position_hash",
           "position_row", "signed"]
