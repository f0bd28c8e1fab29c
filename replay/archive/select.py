"""Select games: criteria on tags, dates, results, lengths, and on the positions reached.

Cheap tests run first (tags, dates, the written length); a game is replayed only when it
passed them and a criterion needs the board (status, opening moves, a position, material).
Moves and positions are compared as positions, so the notation a record uses never matters.

>>> from replay.rules.variants import INTERNATIONAL
>>> criteria = Criteria(players=("Sijbrands",), min_plies=2)
>>> from pdn.reader import read_games
>>> game = next(read_games('[White "T. Sijbrands"]\\n1. 32-28 19-23 2. 28x19 14x23 *'))
>>> criteria.matches(game, INTERNATIONAL)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from pdn.fen import FenError, parse_fen
from pdn.game import Game
from pdn.results import RESULT_TEXTS, is_unknown_result
from replay.archive.tags import (
    UNKNOWN_RESULT,
    DateParts,
    date_parts_of,
    date_range,
    name_matches,
    name_words,
)
from replay.archive.walk import LineEnd, MainLine, line_end, reaches, walk_main_line
from replay.record.criteria import CriterionError
from replay.record.lines import (
    MoveLineError,
    PositionKey,
    opening_positions,
    opening_records,
    position_key,
)
from replay.record.replayer import (
    BLACK_WINS,
    DRAW,
    WHITE_WINS,
    game_variant,
    normalise_result,
)
from replay.rules.draws import Material
from replay.rules.position import Position, position_from_setup
from replay.rules.variants import Rules, Variant

STATUSES = ("valid", "invalid", "incomplete")
_MATERIAL = re.compile(r"^\s*([WB])\s*:\s*((?:\d+\s*[KM]\s*)*)$", re.IGNORECASE)


@dataclass(frozen=True)
class TagTest:
    """``NAME=VALUE``: a case-insensitive glob, or a regular expression written ``/re/``."""

    name: str
    pattern: str

    @classmethod
    def parse(cls, text: str) -> TagTest:
        name, equals, pattern = text.partition("=")
        if not equals or not name.strip():
            raise CriterionError(f"--tag '{text}' is not of the form NAME=VALUE")
        if _is_regex(pattern):
            try:
                re.compile(pattern[1:-1])
            except re.error as error:
                raise CriterionError(f"--tag '{text}': bad regular expression: {error}") from None
        return cls(name.strip(), pattern)

    def matches(self, tags: dict[str, str]) -> bool:
        value = tags.get(self.name)
        if value is None:
            return False
        if _is_regex(self.pattern):
            return re.search(self.pattern[1:-1], value) is not None
        return fnmatchcase(value.casefold(), self.pattern.casefold())


def _is_regex(pattern: str) -> bool:
    return len(pattern) >= 2 and pattern.startswith("/") and pattern.endswith("/")


MAX_MATERIAL = 72  # the dark squares of the largest board (12x12): more can match nothing


@dataclass(frozen=True)
class MaterialTest:
    """``"W:3K1M B:1K"``: each side named has exactly these kings (K) and men (M)."""

    white: tuple[int, int] | None = None  # men, kings
    black: tuple[int, int] | None = None

    @classmethod
    def parse(cls, text: str) -> MaterialTest:
        sides: dict[str, tuple[int, int]] = {}
        for part in text.split():
            match = _MATERIAL.match(part.replace(",", ""))
            if not match:
                raise CriterionError(f"--material '{text}': write each side as W:3K1M or B:1K")
            counts = {"K": 0, "M": 0}
            for number, kind in re.findall(r"(\d+)\s*([KM])", match.group(2), re.IGNORECASE):
                # past any board when longer (and int() refuses 4,300 digits)
                counts[kind.upper()] += int(number) if len(number) <= 9 else 10**9
            if max(counts.values()) > MAX_MATERIAL:
                raise CriterionError(f"--material '{text}': no board holds more than "
                                     f"{MAX_MATERIAL} pieces of a kind")
            sides[match.group(1).upper()] = (counts["M"], counts["K"])
        if not sides:
            raise CriterionError("--material needs at least one side, e.g. W:3K1M B:1K")
        return cls(sides.get("W"), sides.get("B"))

    def matches(self, material: Material) -> bool:
        return ((self.white is None
                 or self.white == (material.white_men, material.white_kings))
                and (self.black is None
                     or self.black == (material.black_men, material.black_kings)))


@dataclass
class Criteria:
    """What a game must have to be selected; every criterion given must hold."""

    tags: tuple[TagTest, ...] = ()
    players: tuple[str, ...] = ()
    white: tuple[str, ...] = ()
    black: tuple[str, ...] = ()
    date_from: DateParts | None = None
    date_to: DateParts | None = None
    variant: Variant | None = None
    results: tuple[str, ...] = ()
    min_plies: int | None = None
    max_plies: int | None = None
    statuses: tuple[str, ...] = ()
    moves: str | None = None  # an opening sequence, any notation
    position: str | None = None  # a FEN
    material: MaterialTest | None = None
    material_any_ply: bool = False
    _targets: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def needs_board(self) -> bool:
        return bool(self.statuses or self.moves or self.position or self.material)

    def matches(self, game: Game, default: Variant, override: Variant | None = None,
                date: DateParts | None = None, *, rules: Rules | None = None) -> bool:
        """Whether a game meets every criterion (``date``: its Date tag's parts, when the
        caller computed them for a whole batch; ``rules``: rule options set on top of the
        game's variant)."""
        variant = game_variant(game, default, override, rules=rules)
        if not self.matches_headers(game, variant, date):
            return False
        if not self.needs_board:
            return True
        if self.position is not None and not (self.statuses or self.moves or self.material):
            return self._reaches(game, variant, default, override, rules)
        if self.position is None and self.moves is None and not self.material_any_ply:
            return self.matches_end(line_end(game, default, override, rules=rules))
        return self.matches_line(walk_main_line(game, default, override, rules=rules))

    def _reaches(self, game: Game, variant: Variant, default: Variant,
                 override: Variant | None, rules: Rules | None) -> bool:
        """The --position search alone: the walk stops once the target is out of reach."""
        target = self.target_position(variant)
        if target is None:
            return False
        white, black, kings, _ = target
        least = (white.bit_count(), black.bit_count(), (white & ~kings).bit_count(),
                 (black & ~kings).bit_count())

        def possible(p: Position) -> bool:  # pieces never come back, nor do men
            return (p.white.bit_count() >= least[0] and p.black.bit_count() >= least[1]
                    and (p.white & ~p.kings).bit_count() >= least[2]
                    and (p.black & ~p.kings).bit_count() >= least[3])

        return reaches(game, default, override, lambda p: position_key(p) == target, possible,
                       rules=rules)

    # -- tags ---------------------------------------------------------------------------------

    def matches_headers(self, game: Game, variant: Variant, date: DateParts | None = None
                        ) -> bool:
        """The cheap criteria: tags, players, dates, variant, result and written length."""
        plies = game.moves.ply_count()  # counted without making the plies
        return (self._names_match(game.tags, variant)
                and self.result_matches(game.headers_result, variant)
                and (self.min_plies is None or plies >= self.min_plies)
                and (self.max_plies is None or plies <= self.max_plies)
                and self._date_matches(game.tags.get("Date"), date))

    def matches_tags(self, tags: dict[str, str], variant: Variant | None) -> bool:
        """The criteria that the tags alone decide (a game without a Result tag is not
        turned down for its result here: its movetext may hold one; nor is one whose
        variant only its record tells, ``variant`` None)."""
        if variant is None:
            return self._names_match(tags, None)
        result = tags.get("Result")
        return self._names_match(tags, variant) and (
            is_unknown_result(result) or self.result_matches(result, variant))

    def _names_match(self, tags: dict[str, str], variant: Variant | None) -> bool:
        return (all(test.matches(tags) for test in self.tags)
                and all(name_matches(p, tags.get("White")) or name_matches(p, tags.get("Black"))
                        for p in self.players)
                and all(name_matches(p, tags.get("White")) for p in self.white)
                and all(name_matches(p, tags.get("Black")) for p in self.black)
                and (self.variant is None or variant is None
                     or variant.name == self.variant.name))

    def result_matches(self, result: str | None, variant: Variant) -> bool:
        """Whether the game's result says what one of the results asked for says: who won
        (``white``, ``black``, ``draw``, or a result token read in the game's variant, as
        ``normalise_result`` reads every result: in English ``1-0`` is the first mover's,
        Black's, win), or ``*`` (no result)."""
        if not self.results:
            return True
        return result_outcome(result, variant) in (
            wanted_outcome(query, variant) for query in self.results)

    def _date_matches(self, text: str | None, parts: DateParts | None) -> bool:
        if self.date_from is None and self.date_to is None:
            return True
        if parts is None:
            parts = date_parts_of(text or "")
        span = date_range(parts)
        if span is None:
            return False
        low, high = span
        if self.date_from is not None and high < date_range(self.date_from)[0]:
            return False
        return self.date_to is None or low <= date_range(self.date_to)[1]

    # -- the board ----------------------------------------------------------------------------

    def matches_end(self, end: LineEnd) -> bool:
        """``matches_line`` where no criterion looks before the final position (no
        --position, --moves or --material-any-ply)."""
        if self.statuses and end.status not in self.statuses:
            return False
        return self.material is None or self.material.matches(Material.of(end.final))

    def matches_line(self, line: MainLine) -> bool:
        """The criteria that need the replayed main line."""
        if self.statuses and line.status not in self.statuses:
            return False
        if self.moves is not None and not self._starts_with(line):
            return False
        if self.position is None and self.material is None:
            return True
        positions = line.positions
        if self.position is not None:
            target = self.target_position(line.variant)
            if target is None or all(position_key(p) != target for p in positions):
                return False
        if self.material is not None:
            reached = positions if self.material_any_ply else positions[-1:]
            return any(self.material.matches(Material.of(p)) for p in reached)
        return True

    def _starts_with(self, line: MainLine) -> bool:
        opening = self.opening_positions(line.variant)
        if opening is None or len(line.positions) < len(opening):
            return False
        return all(position_key(p) == wanted
                   for p, wanted in zip(line.positions, opening, strict=False))

    def target_position(self, variant: Variant) -> PositionKey | None:
        """The --position FEN read in a variant's notation (None where it does not fit)."""
        key = ("position", variant.name)
        if key not in self._targets:
            try:
                setup = parse_fen(self.position or "", variant.gametype.notation)
                self._targets[key] = position_key(position_from_setup(setup))
            except (FenError, ValueError):
                self._targets[key] = None
        return self._targets[key]

    def opening_positions(self, variant: Variant) -> list[PositionKey] | None:
        """The positions the --moves sequence goes through in a variant (None: the moves
        are not legal there)."""
        key = ("moves", variant.name)
        if key not in self._targets:
            try:
                self._targets[key] = opening_positions(self.moves or "", variant)
            except MoveLineError:
                self._targets[key] = None
        return self._targets[key]


WINNERS = (WHITE_WINS, BLACK_WINS, DRAW)  # --result by who won


def wanted_outcome(query: str, variant: Variant) -> str:
    """What ``--result QUERY`` asks for in a game of ``variant``: who won (``white``,
    ``black``, ``draw``: the same in every variant), else the outcome the token means there
    (``replay.record.replayer.normalise_result``), ``unknown`` for ``*``.

    >>> from replay.rules.variants import ENGLISH, RUSSIAN
    >>> wanted_outcome("1-0", ENGLISH), wanted_outcome("1-0", RUSSIAN), wanted_outcome("Black",
    ...                                                                                 RUSSIAN)
    ('black', 'white', 'black')
    """
    word = query.strip().lower()
    return word if word in WINNERS else normalise_result(query, variant)


def result_outcome(result: str | None, variant: Variant) -> str:
    """Who won a game, by its written result (the one meaning ``filter``, ``search``,
    ``stats``, ``standings`` and ``explore`` share); ``unknown`` for none."""
    return normalise_result(result, variant)


def criteria_from_text(*, tags: list[str] = (), players: list[str] = (),
                       white: list[str] = (), black: list[str] = (),
                       date_from: str | None = None, date_to: str | None = None,
                       variant: Variant | None = None, results: list[str] = (),
                       min_plies: int | None = None, max_plies: int | None = None,
                       statuses: list[str] = (), moves: str | None = None,
                       position: str | None = None, material: str | None = None,
                       material_any_ply: bool = False) -> Criteria:
    """Criteria from their written forms (``pdn filter``'s and ``pdn search``'s options);
    raises CriterionError, naming the option, for one that cannot be read.

    >>> criteria_from_text(date_from="1990.06.01", statuses=["valid"]).date_from
    (1990, 6, 1)
    >>> criteria_from_text(date_to="June")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    replay.record.criteria.CriterionError: --date-to 'June' is not a date: give 1990, ...
    """
    _check_texts(players=players, white=white, black=black, results=results, moves=moves)
    bad = [status for status in statuses if status not in STATUSES]
    if bad:
        raise CriterionError(f"--status '{bad[0]}': use {', '.join(STATUSES)}")
    dates = []
    for name, text in (("--date-from", date_from), ("--date-to", date_to)):
        parts = date_parts_of(text) if text else None
        if text and (not _CRITERION_DATE.fullmatch(text.strip()) or parts is None
                     or date_range(parts) is None  # read strictly, unlike a Date tag:
                     or sum(part is not None for part in parts)  # no month 13 dropped
                     < len(re.split(r"[./-]", text.strip()))):
            raise CriterionError(f"{name} '{text}' is not a date: give 1990, 1990.06 or "
                                 "1990.06.01")
        dates.append(parts)
    _check_ranges(dates[0], dates[1], date_from, date_to, min_plies, max_plies)
    return Criteria(
        tags=tuple(TagTest.parse(text) for text in tags), players=tuple(players),
        white=tuple(white), black=tuple(black), date_from=dates[0], date_to=dates[1],
        variant=variant, results=tuple(results), min_plies=min_plies, max_plies=max_plies,
        statuses=tuple(statuses), moves=moves, position=position,
        material=MaterialTest.parse(material) if material else None,
        material_any_ply=material_any_ply)


def _check_texts(*, players: list[str], white: list[str], black: list[str],
                 results: list[str], moves: str | None) -> None:
    """Names that name no one, results that are none, moves that are no moves: refused."""
    for option, names in (("--player", players), ("--white", white), ("--black", black)):
        for name in names:
            if not name_words(name) and not any(char in name for char in "*?["):
                raise CriterionError(f"{option} '{name}' names no one: give a name, or a glob "
                                     "such as 'Sijbr*'")
    for result in results:
        if result.strip() not in (*RESULT_TEXTS, UNKNOWN_RESULT) and \
                result.strip().lower() not in WINNERS:
            raise CriterionError(f"--result '{result}' is not a result: use "
                                 f"{', '.join(WINNERS)} (who won), "
                                 f"{', '.join(RESULT_TEXTS)} or {UNKNOWN_RESULT} (unknown)")
    if moves is not None:
        try:
            opening_records(moves)
        except MoveLineError as error:
            raise CriterionError(str(error)) from None


# A date given as a criterion: a year, a month or a day, as PDN writes dates ("-" or "/" also).
_CRITERION_DATE = re.compile(r"\d{4}(?:[./-]\d{1,2}(?:[./-]\d{1,2})?)?")


def _check_ranges(low: DateParts | None, high: DateParts | None, date_from: str | None,
                  date_to: str | None, min_plies: int | None, max_plies: int | None) -> None:
    """A range that holds nothing (a start after its end) is refused."""
    if low is not None and high is not None and date_range(low)[0] > date_range(high)[1]:
        raise CriterionError(f"--date-from '{date_from}' is after --date-to '{date_to}': "
                             "no date is in between")
    if min_plies is not None and max_plies is not None and min_plies > max_plies:
        raise CriterionError(f"--min-plies {min_plies} is more than --max-plies {max_plies}")


__all__ = ["STATUSES", "Criteria", "CriterionError", "MaterialTest", "TagTest",
           "criteria_from_text"]
