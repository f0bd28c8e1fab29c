"""Opening names, each with its public source, matched by position.

The names and their defining moves are in ``openings.tsv`` beside this module, every entry
with the source that names it; a line no source names has no name. A game is named after
the most specific entry (the most moves) whose final position its main line reaches at any
ply, so a transposition gets the name too.

>>> from replay.record.board import Board
>>> from replay.rules.variants import RUSSIAN
>>> board = Board(RUSSIAN)
>>> positions = [board.position]
>>> for text in ("c3-d4", "b6-a5"):
...     board.push(board.parse(text))
...     positions.append(board.position)
>>> opening_of(positions, RUSSIAN).name
'Кол'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from replay.rules.move import Move
from replay.rules.position import Position
from replay.rules.variants import Variant, get_variant

TABLE = Path(__file__).with_name("openings.tsv")


@dataclass(frozen=True)
class Opening:
    """A named opening: its name, variant, defining moves, their number, and the source."""

    name: str
    variant: str
    moves: str
    plies: int
    source: str


def _key(position: Position) -> tuple[int, int, int, int]:
    return position.white, position.black, position.kings, position.turn


@cache
def named_positions(variant_name: str) -> dict[tuple[int, int, int, int], Opening]:
    """The final position of each named opening of a variant -> the opening; raises
    ValueError when two names of the table lead to one position (the table contradicts
    itself) and CriterionError when a line is not legal."""
    from replay.record.lines import opening_positions

    found = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        name, variant, moves, source = line.split("\t")
        if name == "name" or variant != variant_name:
            continue
        positions = opening_positions(moves, get_variant(variant))
        other = found.get(positions[-1])
        if other is not None and other.name != name:
            raise ValueError(f"{TABLE.name}: {name!r} ({moves}) reaches the position of "
                             f"{other.name!r} ({other.moves}): one position, two names")
        found[positions[-1]] = Opening(name, variant, moves, len(positions) - 1, source)
    return found


def opening_of(positions: list[Position], variant: Variant) -> Opening | None:
    """The most specific named opening whose position the game reaches (None: no name)."""
    return opening_at([_key(position) for position in positions], variant)


def opening_at(keys: list[tuple[int, int, int, int]], variant: Variant) -> Opening | None:
    """``opening_of`` the positions ``(white, black, kings, turn)``: the most specific named
    opening among them, the first met of equals."""
    named = named_positions(variant.name)
    best = None
    for key in keys:
        opening = named.get(key)
        if opening is not None and (best is None or opening.plies > best.plies):
            best = opening
    return best


def fmjd_ballot(variant: Variant, positions: list[Position], moves: list[Move]) -> str | None:
    """The FMJD Drawing Table 64 ballot code a Russian game from the start position opens
    with (``replay.reference.ballots``; the table has codes, not names); ``positions`` holds the
    position before each move."""
    from replay.record.board import Board
    from replay.record.notation import full_text
    from replay.reference.ballots import BALLOT_PLIES, ballot_of
    from replay.rules.position import start_position

    if variant.name != "russian" or not positions or positions[0] != start_position(variant):
        return None
    board, texts = Board(variant), []
    for position, move in zip(positions, moves[:BALLOT_PLIES], strict=False):
        board.position = position
        texts.append(full_text(board, move))
    return ballot_of(texts)


def opening_label(variant: Variant, positions: list[Position], moves: list[Move]) -> str:
    """The opening's name with its ballot code, ``Кол (4-IV)``; either alone; '' for none."""
    named = opening_of(positions, variant)
    ballot = fmjd_ballot(variant, positions, moves)
    name = named.name if named is not None else ""
    return f"{name} ({ballot})" if name and ballot else name or ballot or ""


def all_openings() -> list[Opening]:
    """Every named opening of the table, of every variant."""
    variants = {line.split("\t")[1] for line in TABLE.read_text(encoding="utf-8").splitlines()
                if line and not line.startswith("#") and not line.startswith("name\t")}
    return [opening for variant in sorted(variants)
            for opening in named_positions(variant).values()]


__all__ = ["Opening", "all_openings", "fmjd_ballot", "named_positions", "opening_at",
           "opening_label", "opening_of"]
