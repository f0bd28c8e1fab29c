"""Draw rules, counted ply by ply along a game (docs/rules.md).

Russian (FMJD-64 art. 7.2.3-7.2.8, moves counted per side, so 15 moves = 30 plies):

- 7.2.3 the same position, same side to move, for the third time;
- 7.2.4 three or more kings against a lone king, not captured by the 15th move;
- 7.2.5 15 moves in which both sides moved only kings, with no capture;
- 7.2.6 both sides have kings and the balance does not change: 4-5 pieces 30 moves,
  6-7 pieces 60 moves;
- 7.2.7 three kings, two kings and a man, or a king and two men against a lone king on the
  long diagonal a1-h8: 5 moves (lidraughts' reading: counted while the lone king stands there);
- 7.2.8 two kings, a king and a man, or a king against a lone king: 5 moves.

Brazilian uses the Russian rules (lidraughts, docs/rules.md).

International and Canadian (FMJD, docs/rules.md): threefold repetition; 25 moves of kings only
without capture; three pieces (one a king) against a lone king 16 moves; two or fewer 5 moves.

English (docs/rules.md): threefold repetition; 40 moves each (80 plies) of kings only without a
capture, as DCTL encodes WCDF 1.32.2 ("max reversible moves 80"; the WCDF text itself was not
retrieved, so this is DCTL's reading).

Frisian: threefold repetition; 25 moves each of kings only without a capture. Only a secondary
description of the variant states this; no official Frisian draw rule was found, so it is
provisional.

Frysk! (lidraughts, docs/variants-lidraughts.md): no repetition rule; with kings only and
three pieces left (two kings against one) the game is drawn after 7 moves each, with two (one
king each) after 2 moves each, counted from the capture or promotion that left them.

Antidraughts (lidraughts): threefold repetition only. Breakthrough: lidraughts has no draw rule;
it ends at the first king, and before that no position can come back.

House rule of some online game sites (option ``draws=house``): 40 moves each without a capture or
a promotion.

Threefold repetition only, for want of a sourced counting rule (docs/rules.md): Pool, Italian,
Spanish, Portuguese, Czech and Turkish (docs/rules.md gives none; DCTL's Italian file has 4
repetitions and 80 reversible plies, not carried over), and Thai (docs/rules.md: draw
rules OPEN, no authoritative Thai text found).

Repetition compares piece placement and side to move; Frisian's king-move streaks are left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pdn.i18n import N_
from replay.rules.move import Move
from replay.rules.position import Position
from replay.rules.variants import Variant


def _placement(position: Position) -> tuple[int, int, int, int]:
    """What a repetition compares: the pieces and the side to move."""
    return position.white, position.black, position.kings, position.turn


@dataclass(frozen=True)
class DrawClaim:
    """A draw rule that was met: which, in words, and after which ply (1-based)."""

    rule: str
    description: str
    ply: int

    def __reduce__(self) -> tuple[type[DrawClaim], tuple[str, str, int]]:
        """Pickled as its fields (the compiled class cannot set a frozen field afterwards)."""
        return DrawClaim, (self.rule, self.description, self.ply)


class Material(NamedTuple):
    """Men and kings of each side."""

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int

    @classmethod
    def of(cls, position: Position) -> Material:
        kings = position.kings
        return tuple.__new__(cls, ((position.white & ~kings).bit_count(),
                                   (position.white & kings).bit_count(),
                                   (position.black & ~kings).bit_count(),
                                   (position.black & kings).bit_count()))

    @property
    def total(self) -> int:
        return self.white_men + self.white_kings + self.black_men + self.black_kings

    def lone_king_side(self) -> int | None:
        """0 or 1 when that side has a single king and nothing else, else None."""
        if (self.white_men, self.white_kings) == (0, 1):
            return 0
        if (self.black_men, self.black_kings) == (0, 1):
            return 1
        return None

    def strong(self, lone: int) -> tuple[int, int]:
        """(men, kings) of the side facing the lone king."""
        return (self.black_men, self.black_kings) if lone == 0 else (
            self.white_men, self.white_kings)


def long_diagonal(variant: Variant) -> int:
    """The squares of the board's long diagonal a1-h8 as a mask (0 on an oblong board)."""
    geo = variant.geometry
    if geo.width != geo.height:
        return 0
    return sum(1 << square for i in range(geo.width) if (square := geo.at(i, i)) is not None)


_NO_CLAIMS: list[DrawClaim] = []  # returned, never changed


class DrawTracker:
    """Feeds on the positions of a game and reports each draw rule the first time it is met."""

    def __init__(self, variant: Variant, start: Position) -> None:
        self.rules = variant.draw_rules
        self.long_diagonal = long_diagonal(variant)
        self.seen: dict[tuple[int, int, int, int], int] = {_placement(start): 1}
        self.ply = 0
        self.kings_only = 0  # plies with only king moves and no capture
        self.quiet_plies = 0  # plies without a capture or a promotion (house rule)
        self.balance: Material | None = Material.of(start)  # None: not counted since a capture
        self.balance_plies = 0  # plies since the material balance last changed
        self.diagonal_plies = 0
        self.claims: list[DrawClaim] = []
        self._met: set[str] = set()

    def push(self, before: Position, move: Move, after: Position) -> list[DrawClaim]:
        """Account for one move; returns the rules met for the first time by it."""
        self.ply += 1
        if not after.kings and self.rules != "house":
            return self._men_only(move, after)
        new: list[DrawClaim] = []
        king_move = bool((before.kings >> move.origin) & 1)
        if move.captures or not king_move:
            self.seen.clear()  # a man move or a capture cannot be undone: no earlier repeats
        key = _placement(after)
        self.seen[key] = count = self.seen.get(key, 0) + 1
        if count >= 3 and self.rules != "lidraughts-frisian":
            self._meet("repetition", N_("the same position for the third time"), new)
        self.kings_only = self.kings_only + 1 if king_move and not move.captures else 0
        self.quiet_plies = 0 if move.captures or move.promotes else self.quiet_plies + 1
        changed = move.captures or move.promotes  # only these change the material
        if changed or self.balance is None:
            self.balance = Material.of(after)
        self.balance_plies = 0 if changed else self.balance_plies + 1
        material = self.balance
        if not after.kings:
            self.diagonal_plies = 0  # every counting rule but the house rule needs a king
            if self.rules != "house":
                self.claims.extend(new)
                return new
        if self.rules == "russian":
            self._russian(after, material, new)
        elif self.rules == "international":
            self._international(material, new)
        elif self.rules == "english" and self.kings_only >= 80:
            self._meet("kings-40", N_("40 moves of kings only without a capture"), new)
        elif self.rules == "frisian" and self.kings_only >= 50:
            self._meet("kings-25", N_("25 moves of kings only without a capture"), new)
        elif self.rules == "lidraughts-frisian":
            self._lidraughts_frisian(material, new)
        elif self.rules == "house" and self.quiet_plies >= 80:
            self._meet("house-40", N_("40 moves without a capture or a promotion "
                       "(house rule)"), new)
        self.claims.extend(new)
        return new

    def _men_only(self, move: Move, after: Position) -> list[DrawClaim]:
        """A ply that leaves no king on the board: every move was a man's, so no position can
        come back and no counting rule runs (all need a king); only the counters move on."""
        if self.seen:
            self.seen.clear()
        self.kings_only = self.diagonal_plies = 0
        if move.captures:
            self.quiet_plies = self.balance_plies = 0
            self.balance = None  # counted when a rule needs it (every rule needs a king)
        else:
            self.quiet_plies += 1
            self.balance_plies += 1
        return _NO_CLAIMS

    def _meet(self, rule: str, description: str, new: list[DrawClaim]) -> None:
        if rule not in self._met:
            self._met.add(rule)
            new.append(DrawClaim(rule, description, self.ply))

    def _russian(self, after: Position, material: Material, new: list[DrawClaim]) -> None:
        if self.kings_only >= 30:
            self._meet("7.2.5", N_("15 moves of kings only without a capture"), new)
        lone = material.lone_king_side()
        if lone is not None:
            men, kings = material.strong(lone)
            if kings >= 3 and self.balance_plies >= 30:
                self._meet("7.2.4", N_("three or more kings against a lone king for 15 moves"), new)
            if (men, kings) in ((0, 2), (1, 1), (0, 1)) and self.balance_plies >= 10:
                self._meet("7.2.8", N_("two pieces or fewer against a lone king for 5 moves"), new)
            lone_bits = after.white if lone == 0 else after.black
            on_diagonal = bool(lone_bits & self.long_diagonal)
            self.diagonal_plies = self.diagonal_plies + 1 if (
                on_diagonal and (men, kings) in ((0, 3), (1, 2), (2, 1))) else 0
            if self.diagonal_plies >= 10:
                self._meet("7.2.7", N_("three pieces against a lone king on the long diagonal "
                           "for 5 moves"), new)
        else:
            self.diagonal_plies = 0
        if material.white_kings and material.black_kings:
            if material.total in (4, 5) and self.balance_plies >= 60:
                self._meet("7.2.6", N_("kings on both sides, 4-5 pieces, 30 moves without change "
                           "of balance"), new)
            if material.total in (6, 7) and self.balance_plies >= 120:
                self._meet("7.2.6", N_("kings on both sides, 6-7 pieces, 60 moves without change "
                           "of balance"), new)

    def _lidraughts_frisian(self, material: Material, new: list[DrawClaim]) -> None:
        """Frysk! as lidraughts counts it (Frisian.scala, maxDrawingMoves)."""
        if material.white_men or material.black_men:
            return
        if material.total == 3 and self.balance_plies >= 14:
            self._meet("kings-3-7", N_("two kings against one king for 7 moves"), new)
        if material.total == 2 and self.balance_plies >= 4:
            self._meet("kings-2-2", N_("one king against one king for 2 moves"), new)

    def _international(self, material: Material, new: list[DrawClaim]) -> None:
        if self.kings_only >= 50:
            self._meet("kings-25", N_("25 moves of kings only without a capture"), new)
        lone = material.lone_king_side()
        if lone is None:
            return
        men, kings = material.strong(lone)
        if kings and men + kings == 3 and self.balance_plies >= 32:
            self._meet("lone-king-16", N_("three pieces against a lone king for 16 moves"), new)
        if kings and men + kings <= 2 and self.balance_plies >= 10:
            self._meet("lone-king-5", N_("two pieces or fewer against a lone king for 5 moves"),
                       new)
