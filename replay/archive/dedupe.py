"""Find duplicate games: the same game recorded twice, told by its moves, compared as
positions, and by what the records state of it (``replay.archive.identity``).

Each game is reduced in a worker process to a compact key -- a hash of its variant, start
and the origin and destination square of every move (``written_key``, which needs no replay
for records in full notation) -- and a hash of its moves as written (``line_key``). The few
games that share a written key are then compared exactly: those of one line key are one line
of moves, and the others are told by the position after every main-line move (``move_key``),
plus the written text of moves that do not replay. So ``c3-d4`` and ``22-18``, a
capture written ``26x17x10x1`` or ``26x1``, are the same move. The records of one line of
moves are then told apart as games (``identity.identify``): the copies of one game are
duplicates, and of each the most complete copy is kept (a real result, more known tags,
more annotation); different games of the same moves (a repeated draw, a book line) are
all kept, and listed.

>>> from pdn.reader import read_games
>>> from replay.rules.variants import INTERNATIONAL
>>> a = next(read_games('[White "Sijbrands, T."]\\n1. 32-28 19-23 2. 28x19 14x23 2-0'))
>>> b = next(read_games('[White "T. Sijbrands"][GameType "20"]\\n32-28 19-23 28-19 14-23 *'))
>>> fingerprint(a, INTERNATIONAL).key == fingerprint(b, INTERNATIONAL).key
True
>>> move_key(a, INTERNATIONAL) == move_key(b, INTERNATIONAL)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from pdn.game import Game
from pdn.gametype import SquareNotation
from pdn.model import Line, MoveRecord
from pdn.moves import record_of
from pdn.squares import SquareError
from pdn.writer import format_move
from replay.archive.identity import (
    BY_CHOICES,
    Facts,
    dates_compatible,
    differences,
    facts_of,
    identify,
    names_compatible,
)
from replay.archive.tags import NO_NAME, DateParts, is_real_result
from replay.archive.walk import walk_main_line
from replay.record.replayer import game_variant
from replay.rules.variants import Rules, Variant

UNSCORED = (-1, -1, -1)  # a fingerprint made without its score


@dataclass(frozen=True)
class Fingerprint:
    """What duplicate detection keeps of a game: its written key (None for a game without
    moves, never a duplicate), what its record states of which game it is, and how
    complete it is."""

    key: bytes | None
    facts: Facts
    score: tuple[int, int, int]


def move_key(game: Game, default: Variant, override: Variant | None = None, *,
             rules: Rules | None = None) -> bytes | None:
    """A 16-byte key of the main line's positions (None when it has no moves).

    The positions are hashed as integers (whose hash is the same in every process), and the
    key also holds their number and the final position, so that two different lines share
    a key only if a 64-bit hash collides and they end alike at the same length.
    """
    if not game.moves.plies:
        return None
    line = walk_main_line(game, default, override, rules=rules)
    keys = tuple((p.white, p.black, p.kings, p.turn) for p in line.positions)
    digest = hashlib.blake2b(digest_size=16)
    digest.update(b"%d;%d;%d;%r" % (line.variant.gametype.number, len(keys),
                                    hash(keys) & (1 << 64) - 1, keys[-1]))
    for ply in game.moves.plies[len(line.moves):]:  # what does not replay, as written
        digest.update(b"|" + format_move(ply.record).encode())
    return digest.digest()


def written_key(game: Game, default: Variant, override: Variant | None = None, *,
                rules: Rules | None = None) -> bytes | None:
    """A cheap key that equal ``move_key``s always share: the origin and destination
    square of every move (as board squares, so numeric and alphanumeric records agree and
    capture paths do not count). It needs no replay unless a move is written short
    (``ed4``); then the moves are resolved. Two different games share it only when they
    differ by an ambiguous capture alone, which ``move_key`` then tells apart."""
    if not game.moves.has_plies():
        return None
    return _written_key(game, game_variant(game, default, override, rules=rules), default,
                        override, rules)


def _written_key(game: Game, variant: Variant, default: Variant, override: Variant | None,
                 rules: Rules | None, tokens: list[str] | None = None) -> bytes:
    """``written_key`` of a game with moves, replayed under ``variant``. Where the reader
    kept the main line's move texts (``tokens``, else asked of the game), each text's part
    of the key is made once per run (``_text_key``) and no ply is made, so a replay stays on
    the native core's path."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(b"%d;%s;" % (variant.gametype.number,
                               (game.tags.get("FEN") or game.moves.setup or "").encode()))
    notation = variant.gametype.notation
    if tokens is None:
        tokens = game.main_line_tokens()
    if tokens is not None:
        known = _TEXT_KEYS.setdefault(notation, {})
        if len(known) > _TEXT_KEYS_KEPT:
            known.clear()
        try:  # every text met before and none short: joined in one C loop
            digest.update(b"".join(map(known.__getitem__, tokens)))  # type: ignore[arg-type]
            return digest.digest()
        except (KeyError, TypeError):  # a new text, or a short one (None)
            pass
        parts = [known[token] if token in known else known.setdefault(
            token, _text_key(token, notation)) for token in tokens]
        if None not in parts:
            digest.update(b"".join(parts))  # type: ignore[arg-type]
            return digest.digest()
    records = [record_of(token) for token in tokens] if tokens is not None else [
        ply.record for ply in game.moves.plies]
    start = 0
    if any(record.is_short for record in records):
        line = walk_main_line(game, default, override, rules=rules)
        digest.update(b"".join(b"%d-%d;" % (m.origin, m.destination) for m in line.moves))
        start = len(line.moves)
    for record in records[start:]:
        digest.update(_record_key(record, notation))
    return digest.digest()


# Each move text's part of ``written_key``, by notation: a file repeats a few thousand texts.
_TEXT_KEYS: dict[SquareNotation, dict[str, bytes | None]] = {}
_TEXT_KEYS_KEPT = 1 << 16


def _text_key(token: str, notation: SquareNotation) -> bytes | None:
    """One move text's part of ``written_key`` (None for a move written short: then the
    moves are resolved)."""
    record = record_of(token)
    return None if record.is_short else _record_key(record, notation)


def _record_key(record: MoveRecord, notation: SquareNotation) -> bytes:
    """A move record's origin and destination square, or its text where they are no
    squares of the board."""
    try:
        return b"%d-%d;" % (notation.square(record.squares[0]),
                            notation.square(record.squares[-1]))
    except (SquareError, IndexError):
        return b"|" + format_move(record).encode() + b";"


class GameKeys(NamedTuple):
    """What the local dedupe keeps of a game besides its place: its ``written_key`` (None
    for a game without moves), its ``line_key`` and the variant it is read under."""

    written: bytes | None
    line: bytes
    variant: Variant


def game_keys(game: Game, default: Variant, override: Variant | None = None, *,
              rules: Rules | None = None) -> GameKeys:
    """A game's ``GameKeys``: its variant found once, no replay for a plain record."""
    variant = game_variant(game, default, override, rules=rules)
    if not game.moves.has_plies():
        return GameKeys(None, b"", variant)
    tokens = game.main_line_tokens()  # made once for both keys
    return GameKeys(_written_key(game, variant, default, override, rules, tokens),
                    line_key(game, variant, tokens), variant)


def line_key(game: Game, variant: Variant, tokens: list[str] | None = None) -> bytes:
    """A 16-byte key of the variant, the start and the main line's moves as written
    (``1. 32-28`` and ``32-28`` differ). Games that share it replay alike, so they share
    their ``move_key`` too: of the games of one ``written_key``, only those of different
    line keys need a replay to tell whether they played the same moves. ``tokens``: the
    game's ``main_line_tokens``, where the caller has them."""
    digest = hashlib.blake2b(_variant_text(variant), digest_size=16)
    digest.update(repr((game.tags.get("FEN"), game.moves.setup)).encode())
    if tokens is None:
        tokens = game.main_line_tokens()
    if tokens is None:  # the tree was made: its moves' records, written back
        tokens = ["|" + format_move(ply.record) for ply in game.moves.plies]
    digest.update("\n".join(tokens).encode())
    return digest.digest()


# The full text of each variant met (its rules, every field), by the object: the few a run
# reads are kept with their text, so that an id is never reused while it is a key.
_VARIANT_TEXTS: dict[int, tuple[Variant, bytes]] = {}


def _variant_text(variant: Variant) -> bytes:
    known = _VARIANT_TEXTS.get(id(variant))
    if known is None or known[0] is not variant:
        if len(_VARIANT_TEXTS) > 256:
            _VARIANT_TEXTS.clear()
        known = _VARIANT_TEXTS[id(variant)] = (variant, repr(variant).encode())
    return known[1]


def completeness(game: Game, variant: Variant) -> tuple[int, int, int]:
    """A real result, the number of known tags, the amount of annotation: more is better."""
    known = sum(1 for value in game.tags.values() if value and not NO_NAME.match(value))
    return (int(is_real_result(game.headers_result, variant)), known, _annotations(game.moves))


def _annotations(line: Line) -> int:
    count = len(line.comments)
    for ply in line.plies:
        count += len(ply.comments) + len(ply.nags) + sum(1 + _annotations(v)
                                                         for v in ply.variations)
    return count


def fingerprint(game: Game, default: Variant, override: Variant | None = None,
                date: DateParts | None = None, *, rules: Rules | None = None,
                scored: bool = True) -> Fingerprint:
    """A game's fingerprint (``date``: its Date's parts when computed for a batch). The
    variant is found once, and the key made before anything reads the plies
    (``completeness`` does), so that a plain game is replayed from its move texts.
    ``scored`` False leaves the completeness out (``UNSCORED``)."""
    variant = game_variant(game, default, override, rules=rules)
    key = _written_key(game, variant, default, override, rules) if game.moves.has_plies() \
        else None
    return Fingerprint(key, facts_of(game.tags, variant, date),
                       completeness(game, variant) if scored else UNSCORED)


# ---- grouping ------------------------------------------------------------------------------


@dataclass
class Group:
    """Copies of one game: the ordinal of each (in reading order) and the best one."""

    members: list[int] = field(default_factory=list)
    best: int = -1
    best_score: tuple[int, int, int] = (-1, -1, -1)

    def add(self, ordinal: int, score: tuple[int, int, int]) -> None:
        self.members.append(ordinal)
        if score > self.best_score:  # the first of equals stays
            self.best, self.best_score = ordinal, score


@dataclass(frozen=True)
class SameMoves:
    """Different games of one line of moves (a repeated draw, a book line): each game's
    copies, and the facts that tell their kept copies apart (``identity.differences``)."""

    games: list[Group]
    differs: tuple[str, ...]


@dataclass
class Grouper:
    """Files fingerprints by written key as they come, one dictionary lookup per game;
    keeps per game only its ordinal and fingerprint, never the game."""

    buckets: dict[bytes, list[tuple[int, Fingerprint]]] = field(default_factory=dict)

    def add(self, ordinal: int, found: Fingerprint) -> None:
        """File a game (one without moves is never a duplicate)."""
        if found.key is not None:
            self.buckets.setdefault(found.key, []).append((ordinal, found))

    def shared(self) -> list[list[tuple[int, Fingerprint]]]:
        """The games of every written key two or more games share, in reading order."""
        return sorted((games for games in self.buckets.values() if len(games) > 1),
                      key=lambda games: games[0][0])


def settle(records: Iterable[tuple[int, Facts, tuple[int, int, int]]], by: str
           ) -> tuple[list[Group], SameMoves | None]:
    """The records of one line of moves (``(ordinal, facts, completeness)``, in reading
    order) told apart as games: its groups of two or more copies, and the line as
    ``SameMoves`` when two or more games played it."""
    listed = list(records)
    scores = {ordinal: score for ordinal, _, score in listed}
    facts = {ordinal: found for ordinal, found, _ in listed}
    games = []
    for members in identify(((ordinal, found) for ordinal, found, _ in listed), by):
        group = Group()
        for ordinal in members:
            group.add(ordinal, scores[ordinal])
        games.append(group)
    alike = None
    if len(games) > 1:
        alike = SameMoves(games, differences((facts[g.best] for g in games), by))
    return [g for g in games if len(g.members) > 1], alike


__all__ = ["BY_CHOICES", "UNSCORED", "Fingerprint", "GameKeys", "Group", "Grouper",
           "SameMoves", "completeness", "dates_compatible", "fingerprint", "game_keys",
           "line_key", "move_key", "names_compatible", "settle", "written_key"]
