"""Perft: the number of move paths of a given length, the standard move-generator test.

Counts follow docs/rules.md: by default a capture that takes the same pieces from the same
origin to the same destination counts once ("drop duplicates"); with ``keep_duplicates`` routes
that take the pieces in a different order count apart (a king's straight run over two pieces
on one diagonal stays one route), which is the DCTL / Kallisto convention.
"""

from __future__ import annotations

import gc

from replay.rules.move import Move
from replay.rules.movegen import WHITE, MoveGenerator, unique
from replay.rules.native import rules_for
from replay.rules.position import Position


def perft(generator: MoveGenerator, position: Position, depth: int,
          keep_duplicates: bool = False) -> int:
    """Leaf nodes of the move tree ``depth`` plies deep (bulk-counted at the last ply).

    Counted by the native core where it takes the variant (``replay.rules.native``), else here:
    ``python_perft``, the reference the native core is tested against."""
    native = rules_for(generator.variant)
    if native is not None and depth > 1:
        try:
            return native.perft(position, depth, keep_duplicates)
        except OverflowError:  # more moves in a position than its buffers hold
            pass
    return python_perft(generator, position, depth, keep_duplicates)


def python_perft(generator: MoveGenerator, position: Position, depth: int,
                 keep_duplicates: bool = False) -> int:
    """``perft`` by the Python core.

    The garbage collector is paused meanwhile: the count makes millions of short-lived moves
    and positions and no reference cycle, and the collector's passes over them took a tenth
    of the time (a profile of the compiled build)."""
    if depth <= 1 or not gc.isenabled():
        return _perft(generator, position, depth, keep_duplicates)
    gc.disable()
    try:
        return _perft(generator, position, depth, keep_duplicates)
    finally:
        gc.enable()


def _perft(generator: MoveGenerator, position: Position, depth: int,
           keep_duplicates: bool = False) -> int:
    if depth <= 0:
        return 1
    if depth > 1:
        return sum(_perft(generator, position.play(move), depth - 1, keep_duplicates)
                   for move in _moves(generator, position, keep_duplicates))
    limit = generator.max_king_moves
    # Only Frisian has held kings (docs/rules.md); the other variants skip the look-up.
    frozen = position.frozen_kings(limit) if limit else 0
    own, opp = ((position.white, position.black) if position.turn == WHITE
                else (position.black, position.white))
    return generator.count(own, opp, position.kings, position.turn, keep_duplicates, frozen)


def perft_divide(generator: MoveGenerator, position: Position, depth: int,
                 keep_duplicates: bool = False) -> list[tuple[Move, int]]:
    """Each legal move with the leaf nodes below it, ``depth`` plies deep counted from the
    position (so the counts add up to ``perft(..., depth)``): the way to find the first
    position where two move generators disagree."""
    return [(move, perft(generator, position.play(move), depth - 1, keep_duplicates))
            for move in _moves(generator, position, keep_duplicates)]


def _moves(generator: MoveGenerator, position: Position, keep_duplicates: bool) -> list[Move]:
    """The legal moves perft counts: one per move, or per route with ``keep_duplicates``."""
    limit = generator.max_king_moves
    frozen = position.frozen_kings(limit) if limit else 0
    own, opp = ((position.white, position.black) if position.turn == WHITE
                else (position.black, position.white))
    captures = generator.captures(own, opp, position.kings, position.turn)
    if captures and generator.forced_capture:
        return unique(captures, keep_duplicates)
    return unique(captures, keep_duplicates) + generator.quiet_moves(
        own, opp, position.kings, position.turn, frozen)
