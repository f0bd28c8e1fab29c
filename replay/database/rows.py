"""A game's main line as the database stores it: the key of every position, the
``positions`` row of each key not met before in the run, the moves as text, the final
position, the opening and the ballot.

The native core gives the keys, rows and moves in one call per game (``index_line`` of
``replay.database.native``, written in ``replay/database/_positions.c``) wherever it replays
the very main line the replayer replays; any other game (rules or texts the core leaves to
Python, a main line with variations, no compiler) is walked by Python (``walk_main_line``)
and described by ``keys.Coder``. Both give the same rows: tests/database/test_rows.py
compares them on every game of an archive and on generated positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pdn.game import Game
from replay.archive.walk import MainLine, is_plain, walk_main_line
from replay.database.keys import coder, position_hash
from replay.database.native import index_line
from replay.record import inference
from replay.record.replayer import VALID, replay_game, told_variant
from replay.reference.openings import Opening, fmjd_ballot, named_positions, opening_of
from replay.rules import native
from replay.rules.choice import RulesChoice
from replay.rules.move import Move
from replay.rules.position import Position, start_position
from replay.rules.variants import Variant, get_variant, with_rules


@dataclass
class LineRows:
    """What the database keeps of a game's main line."""

    variant: Variant
    status: str
    keys: list[int]  # the key of the start and of the position after each move
    rows: list[tuple]  # ``positions`` rows: key, variant, turn, bitboards, counts, FEN
    moves: str  # ``moves_text``
    final: Position
    opening: str | None
    ballot: str | None


def line_rows(game: Game, choice: RulesChoice, seen: set[int]) -> LineRows:
    """The rows of a game's main line replayed as ``walk_main_line`` replays it; ``seen``:
    the keys whose rows were already given in the run (the new ones are added)."""
    found = _native_rows(game, choice, seen)
    if found is not None:
        return found
    return python_rows(walk_main_line(game, choice.default, choice.override,
                                      rules=choice.rules), seen)


def python_rows(line: MainLine, seen: set[int]) -> LineRows:
    """The rows of a main line walked by Python."""
    variant = line.variant
    code = coder(variant)
    keys, rows = [], []
    for position in line.positions:
        key = position_hash(position, variant)
        keys.append(key)
        if key not in seen:
            seen.add(key)
            rows.append(code.position_row(key, position))
    named = opening_of(line.positions, variant)
    return LineRows(variant, line.status, keys, rows, moves_text(line.moves, variant),
                    line.final, named.name if named is not None else None,
                    fmjd_ballot(variant, line.positions, line.moves))


def moves_text(moves: list[Move], variant: Variant) -> str:
    """The moves in numeric notation, every landing square of a capture: ``9x18x27``."""
    names = variant.gametype.notation.numbers
    return " ".join(("x" if move.captures else "-").join(
        names[square] for square in (move.origin, *move.path)) for move in moves)


def _native_rows(game: Game, choice: RulesChoice, seen: set[int]) -> LineRows | None:
    """The rows from the native core, or None: the game is Python's to walk. A game whose
    variant is told replays from the start and must replay to its end (``walk_main_line``'s
    plain loop), and so does a plain game under its likeliest variant (``_likeliest_rows``);
    any other is replayed by the replayer first (the variant it infers, the status it gives),
    and its main line is taken where the core replays exactly as many moves to the same final
    position."""
    plain = is_plain(game)
    variant = told_variant(game, choice.default, choice.override,
                           rules=choice.rules) if plain else None
    tokens = game.main_line_tokens()
    if tokens is None:
        return None
    if variant is None and plain:
        found = _likeliest_rows(game, choice, tokens, seen)
        if found is not None:
            return found
    if variant is not None:
        start, status, plies, final = start_position(variant), VALID, len(tokens), None
    else:
        replayed = replay_game(game, choice.default, choice.override, rules=choice.rules)
        variant, start, status, plies = (replayed.variant, replayed.start, replayed.status,
                                         replayed.plies)
        final = replayed.final if replayed.final is not None else replayed.start
    return _rows_if(variant, start, status, tokens, seen, plies, final)


def _likeliest_rows(game: Game, choice: RulesChoice, tokens: list[str], seen: set[int]
                    ) -> LineRows | None:
    """The rows of a plain game whose variant only a replay tells, where the native core
    replays every move under the likeliest variant (``inference.candidates``' first): the
    replayer tries that variant first and keeps it when the whole line replays, so its
    variant inference and replay need not run. None: the
    replayer decides (a line cut short, no moves, a record cut off after its tags)."""
    if not tokens or any(note.code == "cut-off" for note in game.diagnostics):
        return None
    likeliest = with_rules(inference.candidates(game, tokens=tokens).variants[0],
                           choice.rules)
    return _rows_if(likeliest, start_position(likeliest), VALID, tokens, seen, len(tokens))


def _rows_if(variant: Variant, start: Position, status: str, tokens: list[str],
             seen: set[int], plies: int, final: Position | None = None) -> LineRows | None:
    """The rows of the line the native core replays from ``start``, or None (nothing
    added to ``seen``) unless it replays exactly ``plies`` moves (to ``final``, if given)."""
    rules = native.rules_for(variant)
    layout = coder(variant).layout
    if rules is None or not rules.replays or layout is None or type(start) is not Position:
        return None
    done = index_line(rules, start, tokens, layout, seen)
    if done is None:
        return None
    count, end, keys, rows, moves = done
    if count != plies or (final is not None and end != final):
        seen.difference_update(row[0] for row in rows)  # their rows are not kept
        return None
    named = _opening(keys, variant)
    return LineRows(variant, status, keys, rows, moves, end,
                    named.name if named is not None else None,
                    _ballot(variant, start, tokens, rules))


@cache
def _openings_by_key(variant_name: str) -> dict[int, Opening]:
    """The named openings of a variant by the key of their position."""
    named = named_positions(variant_name)
    if not named:
        return {}
    variant = get_variant(variant_name)
    return {position_hash(Position(*fields), variant): opening
            for fields, opening in named.items()}


def _opening(keys: list[int], variant: Variant) -> Opening | None:
    """``opening_of`` read from the keys of the positions (a key stands for one position,
    ``keys``)."""
    named = _openings_by_key(variant.name)
    found = named.keys() & keys if named else None  # a set's walk of the keys, in C
    if not found:
        return None
    # the longest, the first met of equals (``opening_of``'s order)
    return named[min(found, key=lambda key: (-named[key].plies, keys.index(key)))]


def _ballot(variant: Variant, start: Position, tokens: Sequence[str],
            rules: native.NativeRules) -> str | None:
    """``fmjd_ballot`` of the main line's first moves."""
    from replay.reference.ballots import BALLOT_PLIES

    if variant.name != "russian":
        return None
    moves = rules.replay_line(start, tokens[:BALLOT_PLIES]).moves
    positions = [start]
    for move in moves:
        positions.append(positions[-1].play(move))
    return fmjd_ballot(variant, positions, moves)


__all__ = ["LineRows", "line_rows", "moves_text", "python_rows"]
