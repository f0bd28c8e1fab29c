"""The native rules core (``replay/rules/_native.c``) behind a Python face, and which rules it
takes.

The C generator reads the very tables of the Python reference (``replay.rules.movegen``: shifts
and masks, neighbour tables, promotion rows and the variant's switches), so one variant's two
generators differ only in speed; ``tests/rules/test_native.py`` compares them. Where the C
extension was not built (no compiler, ``PDN_PURE_PYTHON=1``) ``available()`` is False and
``rules_for`` says None: callers keep to the Python core, which gives the same results.

``rules_for(variant)`` is also None for rules the native core leaves to Python: boards of more
than 64 internal squares (Canadian's 12x12 takes 78).

>>> from replay.rules.variants import get_variant
>>> rules = rules_for(get_variant("international"))
>>> rules is None or rules.perft(rules.start, 3) == 658
True
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from types import ModuleType
from typing import NamedTuple

from pdn.compiled import NATIVE_SOURCE, native_is_stale, wants_pure
from pdn.game import Game
from pdn.gametype import SquareNotation
from replay.rules.draws import long_diagonal
from replay.rules.identity import ByIdentity
from replay.rules.move import Move
from replay.rules.movegen import (
    BLACK,
    WHITE,
    MoveGenerator,
    generator_for,
    unique,
)
from replay.rules.numbering import MoveNumbering
from replay.rules.position import (
    Position,
    RestrictedPosition,
    for_variant,
    position_fen,
    start_position,
)
from replay.rules.variants import (
    FIRST_KING_WINS,
    FREE,
    HIGHEST_VALUE,
    ITALIAN_ORDER,
    KING_MUST_CAPTURE,
    MAJORITY,
    MAJORITY_THEN_KINGS,
    PASS_THROUGH,
    PROMOTE_AND_CONTINUE,
    PROMOTE_AND_STOP,
    Variant,
)

NATIVE_VARIABLE = "PDN_NO_NATIVE"  # set (not 0): the native core is not used
MAX_SQUARES = 64

_PROMOTIONS = {PROMOTE_AND_CONTINUE: 0, PASS_THROUGH: 1, PROMOTE_AND_STOP: 2}
_PRECEDENCES = {FREE: 0, MAJORITY: 1, MAJORITY_THEN_KINGS: 2, KING_MUST_CAPTURE: 3,
                ITALIAN_ORDER: 4, HIGHEST_VALUE: 5}

# Why replay_line stopped, by the code the C core gives.
STOPS = ("end", "notation", "square", "no-move", "ambiguous", "warning", "limit", "number")
# The draw rules the C core counts (DRAWS_* of _native.c), by Variant.draw_rules.
_DRAW_RULES = {"none": 0, "russian": 1, "international": 2, "english": 3, "frisian": 4,
               "lidraughts-frisian": 5, "house": 6}
# The rules met, by the claim code the C core gives: (rule, words), replay.rules.draws's own.
DRAW_CLAIMS = (
    ("repetition", "the same position for the third time"),
    ("7.2.5", "15 moves of kings only without a capture"),
    ("7.2.4", "three or more kings against a lone king for 15 moves"),
    ("7.2.8", "two pieces or fewer against a lone king for 5 moves"),
    ("7.2.7", "three pieces against a lone king on the long diagonal for 5 moves"),
    ("7.2.6", "kings on both sides, 4-5 pieces, 30 moves without change of balance"),
    ("7.2.6", "kings on both sides, 6-7 pieces, 60 moves without change of balance"),
    ("kings-25", "25 moves of kings only without a capture"),
    ("lone-king-16", "three pieces against a lone king for 16 moves"),
    ("lone-king-5", "two pieces or fewer against a lone king for 5 moves"),
    ("kings-40", "40 moves of kings only without a capture"),
    ("kings-3-7", "two kings against one king for 7 moves"),
    ("kings-2-2", "one king against one king for 2 moves"),
    ("house-40", "40 moves without a capture or a promotion (house rule)"),
)


@cache
def _module() -> ModuleType | None:
    if wants_pure() or os.environ.get(NATIVE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from replay.rules import _native  # type: ignore[attr-defined]
    except ImportError:
        return None
    if native_is_stale():
        warnings.warn(f"the native rules core no longer matches {NATIVE_SOURCE}: using the "
                      "Python core (rebuild with `make` or `pip install -e .`)", RuntimeWarning,
                      stacklevel=2)
        return None
    return _native


def available() -> bool:
    """Whether the native core was built and may be used here."""
    return _module() is not None


@cache
def extension(name: str) -> ModuleType | None:
    """An extension module built on the native core (``pdn.compiled.NATIVE_EXTENSIONS``: it
    takes ``NativeRules.core``), or None where the native core is not used here (``available``)
    or that extension was not built."""
    if _module() is None:
        return None
    try:
        return import_module(name)
    except ImportError:
        return None


@dataclass(frozen=True)
class LineReplay:
    """What ``NativeRules.replay_line`` found: the moves it replayed (``plies`` of them), the
    position after them, and why it stopped (``end``: every text replayed; else the first
    text it left to Python: ``notation``, ``square``, ``no-move``, ``ambiguous``, ``warning``
    or ``limit``; ``position`` where the start is no position of the board)."""

    moves: list[Move]
    final: Position
    stop: str

    @property
    def plies(self) -> int:
        return len(self.moves)


class NativeRules:
    """One variant's rules in the native core: legal moves, perft and a whole line replayed."""

    def __init__(self, variant: Variant, core: object) -> None:
        self.variant = variant
        self.generator: MoveGenerator = generator_for(variant)
        self._core = core
        self.start: Position = start_position(variant)
        self.replays = bool(variant.forced_capture and not variant.max_king_moves
                            and variant.win_rule != FIRST_KING_WINS)
        self._diagonal = long_diagonal(variant)

    @property
    def core(self) -> object:
        """The C core's ``Rules`` object: the first argument of the extensions built on it."""
        return self._core

    def _move(self, fields: tuple) -> Move:
        origin, path, captures, promotes, mask = fields
        return Move(origin, path, captures, promotes, mask, self.variant)

    @staticmethod
    def _streaks(position: Position) -> tuple | None:
        return position.streaks if isinstance(position, RestrictedPosition) else None

    def routes(self, position: Position, origins: int = -1) -> tuple[list[Move], list[Move]]:
        """The capture routes the precedence rule allows (duplicates kept; those of the
        ``origins`` pieces when the choice is free) and the quiet moves, as the reference's
        ``captures`` and ``quiet_moves`` give them, in the same order."""
        frozen = position.frozen_kings(self.variant.max_king_moves)
        captures, quiet = self._core.routes(  # type: ignore[attr-defined]
            position.white, position.black, position.kings, position.turn,
            origins & ((1 << MAX_SQUARES) - 1), frozen)
        return [self._move(f) for f in captures], [self._move(f) for f in quiet]

    def legal_moves(self, position: Position) -> list[Move]:
        """Every legal move, one per (origin, destination, captured set): ``Board.legal_moves``."""
        captures, quiet = self.routes(position)
        captures = unique(captures)
        if captures and self.variant.forced_capture:
            return captures
        return captures + quiet

    def has_capture(self, position: Position) -> bool:
        return self._core.has_capture(  # type: ignore[attr-defined]
            position.white, position.black, position.kings, position.turn)

    def perft(self, position: Position, depth: int, keep_duplicates: bool = False) -> int:
        """Leaf nodes ``depth`` plies deep, as ``replay.rules.perft.perft`` counts them."""
        position = for_variant(position, self.variant)
        return self._core.perft(  # type: ignore[attr-defined]
            position.white, position.black, position.kings, position.turn,
            self._streaks(position), depth, keep_duplicates)

    def replay_line(self, position: Position, texts: Sequence[str] | str) -> LineReplay:
        """Replay move texts from a position while each means exactly one legal move and the
        reference would note nothing about it (full texts: ``11-15``, ``22x15``,
        ``26x17x10x1``, ``c3-d4``, ``h2:c7:a5:e1``); the rest is left to Python. ``texts``
        may be one run of moves as the reader keeps it (``Line.move_run``), split in C."""
        if not self.replays:
            return LineReplay([], position, "notation")
        try:
            moves, (white, black, kings, turn), stop = self._core.replay(  # type: ignore
                position.white, position.black, position.kings, position.turn, texts, Move,
                self.variant)
        except ValueError:  # a set-up that is no position of this board
            return LineReplay([], position, "position")
        return LineReplay(moves, Position(white, black, kings, turn), STOPS[stop])

    def check_line(self, position: Position, tokens: Sequence[str] | str,
                   numbering: MoveNumbering) -> LineCheck | None:
        """Replay a main line's move tokens as written (``Game.main_line_tokens``: numbers
        and glued marks kept; or the run of text they are split from, ``Line.move_run``) as
        ``replay_line`` does, counting the draw rules and checking the numbers against
        ``numbering``, with no object per ply; None where these rules are replayed by
        Python."""
        draws = _draw_code(self.variant)
        if not self.replays or draws is None or type(position) is not Position:
            return None
        try:
            plies, (white, black, kings, turn), stop, claims, left, counts = self._core.check(  # type: ignore
                position.white, position.black, position.kings, position.turn, tokens,
                numbering.first, numbering.offset, 0 if self.variant.white_starts else 1,
                draws, self._diagonal)
        except ValueError:  # a set-up that is no position of this board
            return None
        return LineCheck(plies, Position(white, black, kings, turn), STOPS[stop], claims, left,
                         LineCounts(*counts[:3], counts[3:]))


    def write_line(self, position: Position, run: str, names: tuple[str | None, ...],
                   separator: str, paths: int, number: int, second: bool, result: str
                   ) -> str | None:
        """A run of moves (``Line.move_run``) replayed as ``replay_line`` does and written as
        ``pdn.writer`` writes a main line of records in another notation, in lines of at most
        80 characters: each move's squares in path style ``paths`` (the index of its name in
        ``replay.record.notation.PATH_STYLES``) named by ``names`` (one ASCII name per internal
        square, None where none) and joined by ``separator`` (``-`` for a quiet move), a
        move number before each first-player move and before a first ply of the second
        player (counted from ``number`` and ``second``, or as a record was numbered), then
        ``result``. None where a record does not replay exactly (the Python core's), has a
        mark after its move, or its squares have no name here."""
        if not self.replays or type(position) is not Position:
            return None
        try:
            return self._core.write(  # type: ignore[attr-defined]
                position.white, position.black, position.kings, position.turn, run, names,
                separator, paths, number, int(second), result)
        except ValueError:  # a set-up that is no position of this board
            return None


    def count_line(self, position: Position, tokens: Sequence[str] | str, kept: int,
                   names: tuple[str | None, ...], separator: str, floor: int | None,
                   head: bool = False) -> LineCount | None:
        """What the statistics count along a main line (its move tokens or run, replayed as
        ``replay_line`` does), nothing made per ply but the first ``kept`` moves' texts (the
        minimal path, squares named by ``names``, one ASCII name per internal square, joined
        by ``separator`` for a capture) and the positions after each move while at least
        ``floor`` pieces stand (none for None). None where a record does not replay
        exactly: the Python core's. ``head``: only the plies that give a text or a position
        are replayed, and counted (the rest of a line ``check_line`` replayed whole is
        counted in its ``counts``)."""
        if not self.replays or type(position) is not Position:
            return None
        try:
            counted = self._core.count(  # type: ignore[attr-defined]
                position.white, position.black, position.kings, position.turn, tokens, kept,
                names, separator, -1 if floor is None else floor, int(head))
        except ValueError:  # a set-up that is no position of this board
            return None
        if counted is None:
            return None
        return LineCount(*counted)


    def move_rows(self, position: Position, tokens: Sequence[str] | str, tables: tuple
                  ) -> tuple[bytes, ...] | None:
        """The moves table's row of each move of a main line (its move tokens or run,
        replayed as ``replay_line`` does), as ``replay.stats.rows`` makes them, in columns of
        bytes (no Python object per ply): the seven numbers of each ply (unsigned
        bytes: piece, captured, promotes, white men, white kings, black men, black kings),
        the byte lengths of its five texts (native uint16), then the texts of each
        text column one after the other (full, short, numeric, origin, destination).
        ``tables`` are the full text's names, the numbers, the alphanumeric names and the
        origin's and destination's names (one ASCII name per internal square each), the file
        masks, whether men share files and the capture mark. None where a record does not
        replay exactly."""
        if not self.replays or type(position) is not Position:
            return None
        try:
            return self._core.rows(  # type: ignore[attr-defined]
                position.white, position.black, position.kings, position.turn, tokens,
                *tables)
        except ValueError:  # a set-up that is no position of this board
            return None


class LineCount(NamedTuple):
    """What ``NativeRules.count_line`` found: the plies replayed, the moves that capture, the
    pieces taken, the promotions, the ply (1-based; 0: none) of the first promotion of the
    side that moves first and of the other, the first moves' texts, and the positions after
    the first moves while the board keeps enough pieces, each as ``(white, black, kings,
    turn)`` (no object made per ply: ``Position(*key)`` is one)."""

    plies: int
    captures: int
    pieces_captured: int
    promotions: int
    first_kings: tuple[int, int]
    texts: list[str]
    keys: list[tuple[int, int, int, int]]


class LineCounts(NamedTuple):
    """What the statistics count along the plies a line replays (``LineCount``'s counts):
    the moves that capture, the pieces taken, the promotions and the ply (1-based; 0: none)
    of the first promotion of the side that moves first and of the other."""

    captures: int
    pieces_captured: int
    promotions: int
    first_kings: tuple[int, int]


class LineCheck(NamedTuple):
    """What ``NativeRules.check_line`` found, nothing made per ply: how many plies replayed,
    the position after them, why it stopped (``STOPS``; ``number``: a move number the
    reference warns about), the draw rules met on the way, ``(claim code, ply)`` each
    (``DRAW_CLAIMS``), whether the side to move in ``final`` has a legal move, and what the
    statistics count along the plies replayed."""

    plies: int
    final: Position
    stop: str
    claims: tuple[tuple[int, int], ...]
    moves_left: bool
    counts: LineCounts


def _draw_code(variant: Variant) -> int | None:
    return _DRAW_RULES.get(variant.draw_rules)


def main_line_tokens(game: Game) -> list[str] | None:
    """The texts of a game's main line, as written (``11-15``, ``c3:e5``; a lost move's
    placeholder too: the native replay stops there), or None where a ply has variations: such
    a game is replayed by Python, which replays its variations too."""
    plies = game.moves.plies
    if any(ply.variations for ply in plies):
        return None
    return [ply.record.text for ply in plies]


def _spec(variant: Variant) -> dict | None:
    """The tables the C core reads, or None where they do not fit it."""
    gen = generator_for(variant)
    geo = gen.geometry
    if gen.size > MAX_SQUARES or geo.width > 16 or geo.height > 16:
        return None
    notation = variant.gametype.notation
    known = notation.known_squares
    numbers = [known[str(n)] for n in range(1, len(geo.playable) + 1) if str(n) in known]
    names = []
    for name, square in known.items():
        if name[0].isalpha():
            col, row = ord(name[0]) - ord("a"), int(name[1:]) - 1
            names.append((col, row, square))
    cells = tuple(geo.row_col(square) if geo.is_playable(square) else (-1, -1)
                  for square in range(gen.size))
    return {
        "size": gen.size,
        "board": gen.board_mask,
        "promo": gen.promotion_mask,
        "man_moves": gen.man_shifts,
        "man_cap_shifts": gen.man_capture_shifts,
        "man_cap_steps": gen.man_capture_steps,
        "king_move_steps": gen.king_move_steps,
        "king_cap_steps": gen.king_capture_steps,
        "opposite": gen.opposite,
        "flags": (int(gen.forced_capture), int(gen.men_capture_kings), int(gen.flying_kings),
                  int(gen.remove_at_once), int(gen.king_lands_behind),
                  int(gen.king_turns_back), _PROMOTIONS[variant.promotion_in_capture],
                  _PRECEDENCES[variant.precedence], variant.max_king_moves,
                  *variant.king_value, int(variant.gametype.capture_separator == "-")),
        "numbers": numbers,
        "names": names,
        "cells": cells,
        "shape": (geo.width, geo.height),
    }


def rules_for(variant: Variant) -> NativeRules | None:
    """The variant's native rules, or None: not built here, or rules left to Python."""
    return _rules_kept(variant)


@cache
def _rules(variant: Variant) -> NativeRules | None:
    module = _module()
    if module is None:
        return None
    spec = _spec(variant)
    if spec is None:
        return None
    return NativeRules(variant, module.Rules(spec))


# found by identity: a variant's hash is slow (replay.rules.identity)
_rules_kept = ByIdentity(_rules)


def written_squares(run: str, plies: int) -> tuple[int, int, int, str | None] | None:
    """What the first ``plies`` records of a run of moves (``Line.move_run``) say of the
    board: the highest number, widest file (0 = a), highest rank and the first move's text
    (``replay.record.inference``'s reading); None where the native core is not here or a record is
    not of the reader's plain shape (``pdn.plain``)."""
    module = _module()
    return None if module is None else module.written_squares(run, plies)


def fast_position_fen(position: Position, notation: SquareNotation) -> str:
    """``replay.rules.position.position_fen``, written in C where the native core is here."""
    module = _module()
    if module is not None:
        order, names = _fen_order(notation)
        if order is not None:
            text = module.fen(position.white, position.black, position.kings, position.turn,
                              order, names)
            if text is not None:
                return text
    return position_fen(position, notation)


def _order(notation: SquareNotation) -> tuple[bytes | None, tuple[str, ...]]:
    """The squares as a FEN lists them (by number in a numeric notation, else by index)
    with their names; (None, ()) where a name is not ASCII or a square is past 63."""
    every = notation.names
    squares = sorted(every) if isinstance(every, dict) else list(range(len(every)))
    if notation.numbering:
        squares.sort(key=notation.numbering.by_square.__getitem__)
    names = tuple(every[square] for square in squares)
    if any(square >= MAX_SQUARES for square in squares) or not all(map(str.isascii, names)):
        return None, ()
    return bytes(squares), names


_fen_order = ByIdentity(_order)


__all__ = ["BLACK", "DRAW_CLAIMS", "WHITE", "LineCheck", "LineCount", "LineCounts",
           "LineReplay", "NativeRules",
           "available", "extension", "fast_position_fen", "main_line_tokens", "rules_for",
           "written_squares"]
