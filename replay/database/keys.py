"""A position as the database stores it: a 64-bit key, and bitboards per side and kind.

The key is the first 8 bytes of a BLAKE2b digest of the variant's name, the pieces, the
kings and the side to move, read as a signed integer (SQLite's INTEGER): two positions
share a key only when they are the same position of the same variant, but for a chance of
about 1 in 10^7 among a billion distinct positions (the birthday bound for 64 bits). A
search compares the stored position's pieces too, so even such a collision finds nothing
false (``query``).

Bitboards are dense: bit i stands for the i-th playing square in the board's internal
order (rank 1 from the left, then rank 2...), so 32 squares fit in 32 bits and 50 in 50.
Boards with more than 64 playing squares (Canadian, 72) have no bitboards (NULL); their
positions are still found by key.

>>> from replay.board import start_position
>>> from replay.variants import ENGLISH
>>> row = position_row(start_position(ENGLISH), ENGLISH)
>>> row.turn, bin(row.black_men).count("1"), row.counts
('B', 12, (12, 0, 12, 0))
"""

from __future__ import annotations

from functools import cache, lru_cache
from hashlib import blake2b
from typing import NamedTuple

from replay.board import Position
from replay.movegen import WHITE, iter_bits
from replay.variants import Variant

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


def position_key(position: Position, variant: Variant) -> int:
    """The position's 64-bit key (a signed integer, as SQLite stores it)."""
    text = f"{variant.name}:{position.white}:{position.black}:{position.kings}:{position.turn}"
    digest = blake2b(text.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


@cache
def dense_squares(variant: Variant) -> tuple[int, ...] | None:
    """The internal squares in dense bit order; None when there are more than 64."""
    playable = variant.geometry.playable
    return playable if len(playable) <= DENSE_LIMIT else None


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


@lru_cache(maxsize=1 << 16)  # a move changes one side: the other's bitboards come again
def dense(bits: int, variant: Variant) -> int | None:
    """A bitboard on internal squares as a dense signed 64-bit bitboard (None: too big)."""
    tables = _byte_tables(variant)
    if tables is None:
        return None
    value = 0
    for table in tables:
        if not bits:
            break
        value |= table[bits & 0xFF]
        bits >>= 8
    return signed(value)


def signed(value: int) -> int:
    """An unsigned 64-bit value as the signed integer SQLite stores."""
    return value - (1 << 64) if value >= 1 << 63 else value


def position_row(position: Position, variant: Variant) -> PositionRow:
    """What the ``positions`` table holds about a position."""
    kings, white, black = position.kings, position.white, position.black
    parts = (white & ~kings, white & kings, black & ~kings, black & kings)
    return PositionRow(variant.name, "W" if position.turn == WHITE else "B",
                       *(dense(part, variant) for part in parts),
                       tuple(part.bit_count() for part in parts), fen_of(position, variant))


@cache
def _fen_order(variant: Variant) -> tuple[dict[int, int], tuple[str, ...] | dict[int, str]]:
    """Each square's rank in FEN order (``pdn.fen.format_fen``'s) and the square names."""
    notation = variant.gametype.notation
    playable = variant.geometry.playable
    by_square = notation.numbering.by_square if notation.numbering else None
    ranked = sorted(playable, key=lambda sq: by_square[sq] if by_square else sq)
    return {square: rank for rank, square in enumerate(ranked)}, notation.names


def fen_of(position: Position, variant: Variant) -> str:
    """The position's FEN as ``pdn.fen.format_fen`` writes it, without building a Setup."""
    white, black, kings = position.white, position.black, position.kings
    return (f"{'W' if position.turn == WHITE else 'B'}:W{_section(white, white & kings, variant)}"
            f":B{_section(black, black & kings, variant)}")


@lru_cache(maxsize=1 << 16)  # a move changes one side: the other's section comes again
def _section(pieces: int, kings: int, variant: Variant) -> str:
    """One side's squares in FEN order, kings marked K."""
    rank, names = _fen_order(variant)
    squares = sorted(iter_bits(pieces), key=rank.__getitem__)
    return ",".join(("K" if kings >> sq & 1 else "") + names[sq] for sq in squares)


__all__ = ["PositionRow", "dense", "dense_squares", "fen_of", "position_key", "position_row",
           "signed"]
