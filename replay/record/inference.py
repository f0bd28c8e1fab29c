"""Which variant a game without a GameType tag is, told from its record.

Files written by other programs often carry no GameType tag. The evidence, in order: a
``Variant`` tag (lidraughts, PlayStrategy and other sites name the game), a FEN set-up (its
squares tell the board), the Site, the squares the moves use (numbers up to 32, 50 or 72;
file letters a-h, a-j or a-l) and where the first move starts. That leaves a short list of
variants in order of how usual each is on that board; ``replay_game`` replays the record
under the first and, only when it fails, under the others: the one that replays to the end
wins, as an ambiguous move is resolved by its continuation (see ``docs/inference.md``).

>>> from pdn.reader import read_games
>>> game = next(read_games("1. 11-15 23-19 2. 8-11 22-17 *"))
>>> guess = candidates(game)
>>> [variant.name for variant in guess.variants][:2], guess.evidence
(['english', 'russian'], 'numeric squares up to 23, first move 11-15')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from pdn.game import Game
from pdn.gametype import GameType
from pdn.i18n import N_
from pdn.model import MoveRecord
from replay.rules import native
from replay.rules.identity import ByIdentity
from replay.rules.variants import (
    ENGLISH,
    UnknownVariantError,
    Variant,
    get_variant,
)

# Variants in order of how usual each is on a board, by how its squares are written; a tie
# between variants that all replay a record goes to the first.
_USUAL_NUMERIC_8X8 = ("english", "russian", "italian", "spanish", "portuguese", "pool",
                      "brazilian", "czech", "thai")
_USUAL_ALPHA_8X8 = ("russian", "brazilian", "czech", "pool", "english-first-mover-bottom",
                    "english", "turkish", "thai")
_USUAL_10X10 = ("international", "frisian", "frysk", "antidraughts", "breakthrough")
_USUAL_12X12 = ("canadian",)

# English checkers as online sites write it: squares named from the first mover's side,
# which they call White (a1 in its near left corner), and the players as P1 and P2.
ENGLISH_FIRST_MOVER_BOTTOM = ENGLISH.with_options(
    gametype=GameType(21, False, 8, 8, numeric=False, corner=0, invert=False))

_SITE_ENGLISH = "english-first-mover-bottom"
EVIDENCE_JOINED = N_("{first}, {second}")  # the evidence of a guess, clause by clause

_SQUARE = re.compile(r"([a-z])(\d{1,2})|(\d{1,3})", re.IGNORECASE)
_SCANNED_PLIES = 16  # the first plies tell the board and the first mover


@dataclass(frozen=True)
class Guess:
    """The variants a record may be in, most usual first, and what told them."""

    variants: tuple[Variant, ...]
    evidence: str
    decided: bool = False  # a tag named the variant: nothing to try
    silent: bool = False  # no square and no FEN: the record does not tell its board


class _Squares(NamedTuple):
    """What the written squares say: numbers or names, and how far they reach (a named
    tuple: ``_written_squares`` takes the fields of many at once)."""

    highest_number: int = 0
    widest_file: int = -1  # 0 = a
    highest_rank: int = 0
    first_move: str | None = None

    @classmethod
    def of(cls, names: list[str], first_move: str | None = None) -> _Squares:
        """From normalised square names (lowercase, no leading zeros)."""
        numbers = [int(name) for name in names if name.isdigit()]
        named = [name for name in names if not name.isdigit()]
        return cls(max(numbers, default=0),
                   max((ord(name[0]) for name in named), default=ord("a") - 1) - ord("a"),
                   max((int(name[1:]) for name in named if name[1:].isdigit()), default=0),
                   first_move)

    @property
    def numeric(self) -> bool:
        return self.highest_number > 0 and self.widest_file < 0

    @property
    def alphanumeric(self) -> bool:
        return self.widest_file >= 0


def candidates(game: Game, *, tokens: list[str] | str | None = None) -> Guess:
    """The variants ``game`` may be in, most likely first, with the evidence in words;
    ``tokens``: its main line's move tokens where the caller read them already
    (``Game.main_line_tokens``), or its run of moves (``Line.move_run``)."""
    named = _named_variant(game, tokens)
    if named is not None:
        return named
    players = "P1" in game.tags or "P2" in game.tags
    return _guess(_written_squares(game, tokens), _fen_squares(game),
                  game.tags.get("Site") or "", players)


@lru_cache(maxsize=4096)
def _guess(squares: _Squares, fen_squares: _Squares, site_tag: str, players: bool) -> Guess:
    """The guess from what the record shows (kept: an archive's games show the same few)."""
    site = site_tag.lower()
    lidraughts = "lidraughts" in site or "playstrategy" in site
    if fen_squares.alphanumeric or fen_squares.numeric:
        board, evidence = _board(fen_squares, True)
    else:
        board, evidence = _board(squares, False)
    setup = fen_squares.alphanumeric or fen_squares.numeric
    names = _order(board, squares, lidraughts, setup)
    if board == "8x8-alpha" and players:
        names.remove(_SITE_ENGLISH)  # players as P1 and P2: the sites' English convention
        names.insert(0, _SITE_ENGLISH)
        evidence = EVIDENCE_JOINED.format(first=evidence, second=N_("players as P1 and P2"))
    if squares.first_move is not None:
        evidence = EVIDENCE_JOINED.format(first=evidence, second=N_("first move {move}").format(
            move=squares.first_move))
    if lidraughts:
        evidence = EVIDENCE_JOINED.format(first=evidence, second=N_("Site {site}").format(
            site=site_tag))
    silent = not (squares.alphanumeric or squares.numeric or fen_squares.alphanumeric
                  or fen_squares.numeric)
    return Guess(_variants(tuple(names)), evidence, silent=silent)


def _named_variant(game: Game, tokens: list[str] | str | None = None) -> Guess | None:
    """A ``Variant`` tag naming a game we play (``American/English``, ``Russian``, ...)."""
    text = (game.tags.get("Variant") or "").strip()
    if not text:
        return None
    for part in re.split(r"[/,;]", text):
        key = part.strip().lower().replace(" ", "-")
        key = _VARIANT_TAG_NAMES.get(key, key)
        try:
            variant = get_variant(key)
        except UnknownVariantError:
            continue
        evidence = N_("Variant tag '{text}'").format(text=text)
        if variant.name == "english" and _written_squares(game, tokens).alphanumeric:
            evidence = EVIDENCE_JOINED.format(first=evidence, second=N_(
                "squares named from the first mover's side"))
            return Guess((ENGLISH_FIRST_MOVER_BOTTOM,), evidence, decided=True)
        return Guess((variant,), evidence, decided=True)
    return None


# Names sites write in a Variant tag that are not our names or aliases.
_VARIANT_TAG_NAMES = {
    "standard": "international", "draughts": "international", "checkers": "english",
    "american": "english", "straight-checkers": "english", "shashki": "russian",
    "russian-shashki": "russian", "frysk!": "frysk", "anti-draughts": "antidraughts",
}


def _written_squares(game: Game, tokens: list[str] | str | None = None) -> _Squares:
    """What the first plies' squares say: read from the main line's run of moves or its
    move tokens where the reader kept them (no ply made), else from its plies; the same
    whichever way."""
    if isinstance(tokens, str):  # a plain run (Line.move_run): read in C where it can
        read = native.written_squares(tokens, _SCANNED_PLIES)
        if read is not None:
            return _Squares(*read)
        tokens = None
    if tokens is None:
        tokens = game.main_line_tokens()
    if tokens is not None:
        read = [_token_squares(token) for token in tokens[:_SCANNED_PLIES]]
        if not read:
            return _Squares()
        numbers, files, ranks, _ = zip(*read, strict=True)  # the fields, in C
        return _Squares(max(numbers), max(files), max(ranks), read[0].first_move)
    records = [ply.record for ply in game.moves.plies[:_SCANNED_PLIES]
               if not ply.record.placeholder and ply.record.squares]
    names = [name for record in records for name in _record_names(record)]
    return _Squares.of(names, records[0].text if records else None)


def _record_names(record: MoveRecord) -> tuple[str, ...]:
    """The squares a record names, a short record's file as its first rank (``b:d6``: d6
    and b1): how far the board reaches."""
    if record.origin_file:
        return (*record.squares, record.origin_file.lower() + "1")
    return record.squares


@lru_cache(maxsize=1 << 14)
def _token_squares(token: str) -> _Squares:
    """What a move token's record says of the board, its text as the first move (tokens
    repeat: kept)."""
    from pdn.moves import record_of  # the reader's (it loads the grammar: not at import)

    record = record_of(token)
    return _Squares.of(list(_record_names(record)), record.text)


_NO_SQUARES = _Squares()


def _fen_squares(game: Game) -> _Squares:
    fen = game.tags.get("FEN") or game.moves.setup or ""
    if not fen:
        return _NO_SQUARES
    names = []
    for section in fen.split(":")[1:]:
        body = section.strip()
        if body[:1].upper() not in ("W", "B"):
            continue
        for item in body[1:].split(","):
            token = item.strip()
            if token[:1].upper() == "K":  # the king mark, as pdn.fen reads it: not file k
                token = token[1:]
            names += [(number.lstrip("0") or "0") if number else (letter + rank).lower()
                      for letter, rank, number in _SQUARE.findall(token)]
    return _Squares.of(names)


def _board(squares: _Squares, setup: bool) -> tuple[str, str]:
    """The board the squares need, and the evidence in words (``setup``: the squares of
    the FEN set-up)."""
    if squares.alphanumeric:
        if squares.widest_file > 9 or squares.highest_rank > 10:
            board, words = "12x12", N_("squares named up to file l")
        elif squares.widest_file > 7 or squares.highest_rank > 8:
            board, words = "10x10", N_("squares named up to file j")
        else:
            board, words = "8x8-alpha", N_("squares named a1-h8")
    elif squares.highest_number:
        board = ("12x12" if squares.highest_number > 50 else
                 "10x10" if squares.highest_number > 32 else "8x8-numeric")
        words = N_("numeric squares up to {number}").format(number=squares.highest_number)
    else:
        return "8x8-alpha", N_("no squares written")
    return board, N_("FEN set-up with {evidence}").format(evidence=words) if setup else words


def _order(board: str, squares: _Squares, lidraughts: bool, setup: bool = False) -> list[str]:
    """The variants of ``board`` in order; a first move from 21-24 puts Russian first only
    from the start position: a set-up writes the side to move, so where its first move
    starts tells nothing of who moves first in the variant."""
    if board == "12x12":
        return list(_USUAL_12X12)
    if board == "10x10":
        return list(_USUAL_10X10)
    if board == "8x8-alpha":
        return list(_USUAL_ALPHA_8X8)
    names = list(_USUAL_NUMERIC_8X8)
    origin = _first_origin(squares.first_move)
    if lidraughts or (not setup and 21 <= origin <= 24):
        names.remove("russian")  # the side at the bottom (21-32) moves first
        names.insert(0, "russian")
    return names + list(_USUAL_10X10)  # low numbers alone do not rule out 10x10


def _first_origin(move: str | None) -> int:
    """The number the first move starts from (0 when it is not a number)."""
    digits = re.match(r"\d+", move or "")
    return int(digits.group()) if digits else 0


@cache
def _variants(names: tuple[str, ...]) -> tuple[Variant, ...]:
    found = []
    for name in names:
        if name == _SITE_ENGLISH:
            found.append(ENGLISH_FIRST_MOVER_BOTTOM)
            continue
        try:
            found.append(get_variant(name))
        except UnknownVariantError:
            continue  # a variant this build does not play
    return tuple(found)


def variant_key(variant: Variant) -> str:
    """The variant's name, or for English as online sites write it
    ``english-first-mover-bottom`` (``keyed_variant`` gives the variant back)."""
    return _SITE_ENGLISH if is_first_mover_bottom(variant) else variant.name


def keyed_variant(key: str) -> Variant:
    """The variant of a ``variant_key``; raises UnknownVariantError."""
    return ENGLISH_FIRST_MOVER_BOTTOM if key == _SITE_ENGLISH else get_variant(key)


def is_first_mover_bottom(variant: Variant) -> bool:
    """Whether the variant is English checkers as online sites write it (whatever rule
    options are set on top)."""
    return _first_mover_bottom(variant)


def _is_first_mover_bottom(variant: Variant) -> bool:
    return variant.gametype == ENGLISH_FIRST_MOVER_BOTTOM.gametype and variant.name == "english"


# Kept per variant object (a report asks three times; comparing game types is slow).
_first_mover_bottom = ByIdentity(_is_first_mover_bottom)


def standard_form(variant: Variant) -> Variant:
    """The variant as its standard records write it (a site's convention undone, rule
    options kept)."""
    if not is_first_mover_bottom(variant):
        return variant
    return ENGLISH if variant is ENGLISH_FIRST_MOVER_BOTTOM else variant.with_options(
        gametype=ENGLISH.gametype)


def standard_players(tags: dict[str, str], variant: Variant) -> tuple[str | None, str | None]:
    """(White, Black) in the variant's standard form: where a site calls the first mover
    White (or P1), that player is Black in English checkers."""
    if is_first_mover_bottom(variant):
        return tags.get("Black") or tags.get("P2"), tags.get("White") or tags.get("P1")
    return tags.get("White") or tags.get("P1"), tags.get("Black") or tags.get("P2")


def standard_tags(tags: dict[str, str], variant: Variant) -> dict[str, str]:
    """The tags written back in the variant's standard form (players named by colour)."""
    if not is_first_mover_bottom(variant):
        return dict(tags)
    white, black = standard_players(tags, variant)
    written = {name: value for name, value in tags.items() if name not in ("P1", "P2")}
    for name, player in (("White", white), ("Black", black)):
        if player is not None:
            written[name] = player
    return written
