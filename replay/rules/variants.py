"""The rules of each variant as data: one ``Variant`` value per game type.

Every rule cited here is in ``docs/rules.md`` with its sources (Russian, Thai,
§3 the others). Directions are (row, column) steps as seen from White; Black's are mirrored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from pdn.gametype import GameType, default_gametype
from pdn.i18n import N_
from pdn.squares import Geometry

Direction = tuple[int, int]

DIAGONALS: tuple[Direction, ...] = ((1, -1), (1, 1), (-1, -1), (-1, 1))
FORWARD_DIAGONALS: tuple[Direction, ...] = ((1, -1), (1, 1))
ORTHOGONALS: tuple[Direction, ...] = ((1, 0), (0, -1), (0, 1), (-1, 0))
FORWARD_AND_SIDEWAYS: tuple[Direction, ...] = ((1, 0), (0, -1), (0, 1))
# Frisian orthogonal captures on a board of dark squares only (docs/rules.md): the next dark
# square along a file or rank is two cells away, so the prey stands 2 cells off and the
# capturing piece lands 4 cells off.
DARK_ORTHOGONALS: tuple[Direction, ...] = ((2, 0), (0, -2), (0, 2), (-2, 0))

# How a man that reaches the far row during a capture goes on (docs/rules.md).
PROMOTE_AND_CONTINUE = "continue"  # crowned at once, goes on capturing as a king (Russian)
PASS_THROUGH = "pass"  # stays a man; crowned only if the move ends there (International)
PROMOTE_AND_STOP = "stop"  # crowned, and the move ends there (English)

# Which captures may be chosen among the legal ones (docs/rules.md "precedence").
FREE = "free"
MAJORITY = "majority"  # most pieces
MAJORITY_THEN_KINGS = "majority-kings"  # most pieces, then most kings (Spanish, Portuguese)
KING_MUST_CAPTURE = "king-first"  # a capture by a king if there is one (Czech)
# Italian (docs/rules.md; Federazione Italiana Dama; DCTL italian.hpp art. 6.6-6.9): most
# pieces, then with a king rather than a man, then most kings, then the kings met earliest.
ITALIAN_ORDER = "italian"
# Frisian (docs/rules.md, DCTL frisian.hpp): highest value, a king worth more than one man and
# less than two (see Variant.king_value); on equal value a king must capture.
HIGHEST_VALUE = "value"
PRECEDENCES = (FREE, MAJORITY, MAJORITY_THEN_KINGS, KING_MUST_CAPTURE, ITALIAN_ORDER,
               HIGHEST_VALUE)
PROMOTIONS = (PROMOTE_AND_CONTINUE, PASS_THROUGH, PROMOTE_AND_STOP)

# How a game is won (docs/variants-lidraughts.md for the two lidraughts goals).
CANNOT_MOVE_LOSES = "cannot-move-loses"  # no piece or no legal move loses (every classic game)
CANNOT_MOVE_WINS = "cannot-move-wins"  # no piece or no legal move wins (Antidraughts)
FIRST_KING_WINS = "first-king-wins"  # making a king wins at once (Breakthrough)
WIN_RULES = (CANNOT_MOVE_LOSES, CANNOT_MOVE_WINS, FIRST_KING_WINS)

# Frisian king values as (man, king) weights. DCTL counts a king as just under two men
# (value 2N-1 against N per man, N = board capacity); Wikipedia says 1.5 men (docs/rules.md).
KING_VALUE_DCTL = (64, 127)
KING_VALUE_ONE_AND_A_HALF = (2, 3)


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
    king_value: tuple[int, int] = KING_VALUE_DCTL  # (man, king) weights for HIGHEST_VALUE
    # The same king may make at most this many non-capturing moves in a row while its side
    # has men (Frisian, docs/rules.md); 0 = no limit.
    max_king_moves: int = 0
    white_first: bool | None = None  # overrides the GameType's starting side (Thai option)
    draw_rules: str = "none"
    win_rule: str = CANNOT_MOVE_LOSES
    aliases: tuple[str, ...] = ()

    @property
    def white_starts(self) -> bool:
        if self.white_first is not None:
            return self.white_first
        return self.gametype.white_starts

    @cached_property
    def geometry(self) -> Geometry:
        return self.gametype.geometry

    def with_options(self, **changes) -> Variant:
        """A copy with some rules changed (e.g. ``forced_capture=False``, a house rule of
        some online game sites)."""
        return replace(self, **changes)

    def with_rules(self, rules: Mapping[str, str]) -> Variant:
        """A copy with named rule options set, e.g. ``{"forced-capture": "no"}`` (see
        ``RULE_OPTIONS``); raises UnknownRuleError for an unknown name or value."""
        changes = {}
        for name, text in rules.items():
            option = RULE_OPTIONS.get(name.strip().lower())
            if option is None:
                raise UnknownRuleError(
                    f"unknown rule '{name}'; known: {', '.join(RULE_OPTIONS)}")
            changes[option.field] = option.value(text)
        return self.with_options(**changes)


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
    draw_rules="russian",  # lidraughts applies the Russian draw rules (docs/rules.md)
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
    draw_rules="english",
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

ITALIAN = Variant(
    name="italian",
    gametype=default_gametype(22),
    men_rows=3,
    man_captures=FORWARD_DIAGONALS,
    flying_kings=False,
    men_capture_kings=False,
    promotion_in_capture=PROMOTE_AND_STOP,  # men capture forward only: the move ends
    precedence=ITALIAN_ORDER,
)

FRISIAN = Variant(
    name="frisian",
    gametype=default_gametype(40),
    men_rows=4,
    man_captures=DIAGONALS + DARK_ORTHOGONALS,
    king_captures=DIAGONALS + DARK_ORTHOGONALS,  # kings move diagonally only (§6.6)
    promotion_in_capture=PASS_THROUGH,
    precedence=HIGHEST_VALUE,
    max_king_moves=3,
    draw_rules="frisian",
)

# lidraughts' variants (docs/variants-lidraughts.md; lidraughts modules/draughts/src/main/
# variant/Frysk.scala, Antidraughts.scala, Breakthrough.scala). Frysk! is Frisian from five
# men each on the back row; lidraughts gives it Frisian's draw rules, which are not ours.
FRYSK = replace(
    FRISIAN,
    name="frysk",
    gametype=default_gametype(97),
    men_rows=1,
    draw_rules="lidraughts-frisian",
    aliases=("frysk!",),
)

# International play; the side that cannot move (no piece left, or all blocked) wins, and
# threefold repetition is the only draw rule.
ANTIDRAUGHTS = replace(
    INTERNATIONAL,
    name="antidraughts",
    gametype=default_gametype(98),
    draw_rules="none",
    win_rule=CANNOT_MOVE_WINS,
    aliases=(),
)

# International play; the first side to make a king wins. lidraughts has no draw rule: with
# men only on the board no position can come back, so "none" never meets one either.
BREAKTHROUGH = replace(
    INTERNATIONAL,
    name="breakthrough",
    gametype=default_gametype(96),
    draw_rules="none",
    win_rule=FIRST_KING_WINS,
    aliases=(),
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
    # A man that reaches the last row during a capture goes on capturing as a man and is
    # crowned where the move ends (Wikipedia, hgware's Dama, iggamecenter, kish, pydraughts);
    # the readings 'stop' and 'continue' are the 'promotion' option. docs/turkish.md.
    promotion_in_capture=PASS_THROUGH,
    precedence=MAJORITY,
    aliases=("dama",),
)

VARIANTS: tuple[Variant, ...] = (
    RUSSIAN, BRAZILIAN, POOL, INTERNATIONAL, CANADIAN, ENGLISH, ITALIAN, SPANISH, PORTUGUESE,
    CZECH, THAI, TURKISH, FRISIAN, FRYSK, ANTIDRAUGHTS, BREAKTHROUGH,
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
        raise UnknownVariantError(N_("unknown variant '{name}'; known: {names} or a GameType "
                                     "number").format(name=name,
                                                      names=", ".join(variant_names())))
    return variant


class UnknownRuleError(ValueError):
    """A rule option name or value we do not know."""


@dataclass(frozen=True)
class RuleOption:
    """A named rule option: the readings where sources or house rules differ (docs/rules.md)."""

    name: str
    field: str
    values: Mapping[str, object]
    help: str

    def value(self, text: str) -> object:
        """The Variant field value a written value stands for."""
        key = text.strip().lower()
        if key not in self.values:
            raise UnknownRuleError(
                f"rule '{self.name}' takes {' | '.join(self.values)}, not '{text}'")
        return self.values[key]


_YES_NO = {"yes": True, "no": False}

RULE_OPTIONS: dict[str, RuleOption] = {option.name: option for option in (
    RuleOption("forced-capture", "forced_capture", _YES_NO,
               "capture is compulsory; 'no' is a house rule some online game sites "
               "offer for the 8x8 variants"),
    RuleOption("first", "white_first", {"white": True, "black": False},
               "which side moves first (Thai: dark/Black by PDN 3.0, White by "
               "mindsports; docs/rules.md)"),
    RuleOption("king-turns-back", "king_turns_back", _YES_NO,
               "whether a king may reverse 180 degrees between two jumps when pieces are "
               "removed at once (Thai 'no' reading of mindsports, docs/rules.md)"),
    RuleOption("precedence", "precedence", {name: name for name in PRECEDENCES},
               "which captures may be chosen; Czech 'capture the most' of some descriptions is "
               "'majority' (docs/rules.md)"),
    RuleOption("promotion", "promotion_in_capture", {name: name for name in PROMOTIONS},
               "a man reaching the far row during a capture: crowned and goes on, passes "
               "as a man, or is crowned and stops (Turkish: 'pass' by default, docs/turkish.md)"),
    RuleOption("draws", "draw_rules", {"house": "house", "repetition": "none"},
               "draw rules: 'house' = 40 moves each without a capture or a promotion "
               "(a house rule of online game sites), 'repetition' = threefold repetition only"),
    RuleOption("king-value", "king_value",
               {"dctl": KING_VALUE_DCTL, "1.5": KING_VALUE_ONE_AND_A_HALF},
               "Frisian king value: just under two men (DCTL) or 1.5 men (Wikipedia), "
               "docs/rules.md"),
)}


Rules = Mapping[str, str]  # named rule options and their values, e.g. {"forced-capture": "no"}


def with_rules(variant: Variant, rules: Rules | None) -> Variant:
    """The variant with rule options set on top of its own rules; the same value for the same
    variant and rules, so its move generator is built once.

    >>> with_rules(RUSSIAN, {"forced-capture": "no"}).forced_capture
    False
    >>> with_rules(RUSSIAN, None) is RUSSIAN
    True
    """
    if not rules:
        return variant
    return _with_rules(variant, tuple(sorted(rules.items())))


@lru_cache(maxsize=256)
def _with_rules(variant: Variant, rules: tuple[tuple[str, str], ...]) -> Variant:
    return variant.with_rules(dict(rules))


def parse_rules(texts: Iterable[str]) -> dict[str, str]:
    """``["NAME=VALUE", ...]`` as a mapping of rule options, each checked; raises
    UnknownRuleError for a malformed one, an unknown name or a value it does not take.

    >>> parse_rules(["forced-capture=no", "draws=house"])
    {'forced-capture': 'no', 'draws': 'house'}
    """
    rules = dict(parse_rule(text) for text in texts)
    for name, value in rules.items():
        option = RULE_OPTIONS.get(name)
        if option is None:
            raise UnknownRuleError(f"unknown rule '{name}'; known: {', '.join(RULE_OPTIONS)}")
        option.value(value)
    return rules


def parse_rule(text: str) -> tuple[str, str]:
    """``"NAME=VALUE"`` as (name, value); raises UnknownRuleError when malformed."""
    name, separator, value = text.partition("=")
    if not separator or not name.strip() or not value.strip():
        raise UnknownRuleError(f"a rule is written NAME=VALUE, not '{text}'")
    return name.strip().lower(), value.strip()
