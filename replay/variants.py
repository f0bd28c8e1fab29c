"""The rules of each variant as data: one ``Variant`` value per game type.

Every rule cited here is in ``../shared/docs/RULES.md`` with its sources (§1 Russian, §2 Thai,
§3 the others). Directions are (row, column) steps as seen from White; Black's are mirrored.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from pdn.gametype import GameType, default_gametype

Direction = tuple[int, int]

DIAGONALS: tuple[Direction, ...] = ((1, -1), (1, 1), (-1, -1), (-1, 1))
FORWARD_DIAGONALS: tuple[Direction, ...] = ((1, -1), (1, 1))
ORTHOGONALS: tuple[Direction, ...] = ((1, 0), (0, -1), (0, 1), (-1, 0))
FORWARD_AND_SIDEWAYS: tuple[Direction, ...] = ((1, 0), (0, -1), (0, 1))

# How a man that reaches the far row during a capture goes on (RULES.md §1.3, §3).
PROMOTE_AND_CONTINUE = "continue"  # crowned at once, goes on capturing as a king (Russian)
PASS_THROUGH = "pass"  # stays a man; crowned only if the move ends there (International)
PROMOTE_AND_STOP = "stop"  # crowned, and the move ends there (English)

# Which captures may be chosen among the legal ones (RULES.md §3 "precedence").
FREE = "free"
MAJORITY = "majority"  # most pieces
MAJORITY_THEN_KINGS = "majority-kings"  # most pieces, then most kings (Spanish, Portuguese)
KING_MUST_CAPTURE = "king-first"  # a capture by a king if there is one (Czech)


@dataclass(frozen=True)
class Variant:
    """The rules of one variant, read by the move generator and the replayer."""

    name: str
    gametype: GameType
    men_rows: int  # rows of men per side at the start
    first_men_row: int = 0  # rows left empty before them (Turkish: 1)
    man_moves: tuple[Direction, ...] = FORWARD_DIAGONALS
    man_captures: tuple[Direction, ...] = DIAGONALS
    king_moves: tuple[Direction, ...] = DIAGONALS
    king_captures: tuple[Direction, ...] = DIAGONALS
    flying_kings: bool = True
    king_lands_behind: bool = False  # a king lands on the square just behind its prey (Thai)
    remove_at_once: bool = False  # captured pieces leave the board during the move (Thai)
    king_turns_back: bool = True  # with remove_at_once: may a king reverse between jumps
    men_capture_kings: bool = True
    promotion_in_capture: str = PROMOTE_AND_CONTINUE
    precedence: str = FREE
    forced_capture: bool = True
    draw_rules: str = "none"
    aliases: tuple[str, ...] = ()

    @property
    def white_starts(self) -> bool:
        return self.gametype.white_starts

    @cached_property
    def geometry(self):
        return self.gametype.geometry

    def with_options(self, **changes) -> Variant:
        """A copy with some rules changed (e.g. ``forced_capture=False``, the house rule of
        source document 002)."""
        return replace(self, **changes)


RUSSIAN = Variant(
    name="russian",
    gametype=default_gametype(25),
    men_rows=3,
    draw_rules="russian",
    aliases=("shashki", "russian-draughts"),
)

BRAZILIAN = Variant(
    name="brazilian",
    gametype=default_gametype(26),
    men_rows=3,
    promotion_in_capture=PASS_THROUGH,
    precedence=MAJORITY,
    draw_rules="russian",  # lidraughts applies the Russian draw rules (RULES.md §3)
)

POOL = Variant(
    name="pool",
    gametype=default_gametype(23),
    men_rows=3,
    promotion_in_capture=PASS_THROUGH,
    aliases=("american-pool",),
)

INTERNATIONAL = Variant(
    name="international",
    gametype=default_gametype(20),
    men_rows=4,
    promotion_in_capture=PASS_THROUGH,
    precedence=MAJORITY,
    draw_rules="international",
    aliases=("10x10",),
)

CANADIAN = Variant(
    name="canadian",
    gametype=default_gametype(27),
    men_rows=5,
    promotion_in_capture=PASS_THROUGH,
    precedence=MAJORITY,
    draw_rules="international",
)

ENGLISH = Variant(
    name="english",
    gametype=default_gametype(21),
    men_rows=3,
    man_captures=FORWARD_DIAGONALS,
    flying_kings=False,
    promotion_in_capture=PROMOTE_AND_STOP,
    aliases=("american", "checkers"),
)

SPANISH = Variant(
    name="spanish",
    gametype=default_gametype(24),
    men_rows=3,
    man_captures=FORWARD_DIAGONALS,
    promotion_in_capture=PROMOTE_AND_STOP,  # men capture forward only: the move ends
    precedence=MAJORITY_THEN_KINGS,
)

PORTUGUESE = Variant(
    name="portuguese",
    gametype=default_gametype(28),
    men_rows=3,
    man_captures=FORWARD_DIAGONALS,
    promotion_in_capture=PROMOTE_AND_STOP,  # men capture forward only: the move ends
    precedence=MAJORITY_THEN_KINGS,
)

CZECH = Variant(
    name="czech",
    gametype=default_gametype(29),
    men_rows=3,
    man_captures=FORWARD_DIAGONALS,
    promotion_in_capture=PROMOTE_AND_STOP,  # men capture forward only: the move ends
    precedence=KING_MUST_CAPTURE,
)

THAI = Variant(
    name="thai",
    gametype=default_gametype(31),
    men_rows=2,
    man_captures=FORWARD_DIAGONALS,
    king_lands_behind=True,
    remove_at_once=True,
    promotion_in_capture=PROMOTE_AND_STOP,
    aliases=("mak-hos", "makhos"),
)

TURKISH = Variant(
    name="turkish",
    gametype=default_gametype(30),
    men_rows=2,
    first_men_row=1,
    man_moves=FORWARD_AND_SIDEWAYS,
    man_captures=FORWARD_AND_SIDEWAYS,
    king_moves=ORTHOGONALS,
    king_captures=ORTHOGONALS,
    remove_at_once=True,
    king_turns_back=False,
    promotion_in_capture=PROMOTE_AND_STOP,
    precedence=MAJORITY,
    aliases=("dama",),
)

VARIANTS: tuple[Variant, ...] = (
    RUSSIAN, BRAZILIAN, POOL, INTERNATIONAL, CANADIAN, ENGLISH, SPANISH, PORTUGUESE, CZECH,
    THAI, TURKISH,
)


def _index() -> dict[str, Variant]:
    table: dict[str, Variant] = {}
    for variant in VARIANTS:
        table[variant.name] = variant
        table[str(variant.gametype.number)] = variant
        for alias in variant.aliases:
            table[alias] = variant
    return table


_BY_NAME = _index()


class UnknownVariantError(ValueError):
    """A variant name or GameType number we do not play."""


def variant_names() -> list[str]:
    """The primary names of every variant."""
    return [variant.name for variant in VARIANTS]


def get_variant(name: str | int) -> Variant:
    """A variant by name, alias or GameType number (``"russian"``, ``"25"``, ``25``)."""
    key = str(name).strip().lower()
    variant = _BY_NAME.get(key) or _BY_NAME.get(key.split(",")[0])
    if variant is None:
        raise UnknownVariantError(
            f"unknown variant '{name}'; known: {', '.join(variant_names())} or a GameType number"
        )
    return variant
