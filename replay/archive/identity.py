"""Which game a record names: the facts it states, and the rule that tells two records of
the same moves apart as different games.

A record states its players, date, round, result and site, and often a game number in its
event's name (``Newcastle 1858, game 3``). Two records of the same moves are the same game
unless a fact both state differs: a fact one of them leaves out (``?``, no tag) never
separates them. Names agree when the surnames are equal and the given names agree as far as
both go (``Sijbrands, T.`` ~ ``Sijbrands, Ton``), rounds as far as both go (``10`` ~
``10.1``, not ``10.3``), dates on every part both know (a date without a year takes the
event's: ``US National 1974``). Comments and annotation never separate records: they make
one copy more complete than another. The event's name itself is not compared (a match is
recorded as ``Chicago 1891`` in one source and ``US Ch Match 1891`` in another); its game
number and its year are.

>>> a = facts_of({"Event": "Newcastle 1858, game 3", "White": "Way, J.", "Round": "3"})
>>> b = facts_of({"Event": "Newcastle 1858, game 17", "White": "J. Way", "Round": "17"})
>>> c = facts_of({"Event": "Newcastle match", "White": "Way"})
>>> (a.game, a.date, a.round), differences([a, b], "game"), differences([a, c], "game")
((3, (1858, None, None), '3'), ('round', 'game'), ())
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from replay.archive.tags import NO_NAME, DateParts, clean_name, date_parts_of
from replay.record.replayer import UNKNOWN, normalise_result
from replay.rules.variants import Variant

BY_CHOICES = ("game", "moves", "moves+players", "moves+players+date")
FIELDS = ("white", "black", "date", "round", "game", "result", "site")
# The facts each ``--by`` compares. Every choice compares the round and the game number:
# records naming different rounds or games are never one game.
BY_FIELDS: dict[str, tuple[str, ...]] = {
    "game": FIELDS,
    "moves": ("round", "game"),
    "moves+players": ("white", "black", "round", "game"),
    "moves+players+date": ("white", "black", "date", "round", "game"),
}
_GAME_NUMBER = re.compile(r"\bgame\s*(?:no\.?\s*|#\s*)?(\d+)\s*$", re.IGNORECASE)
_YEAR = re.compile(r"\b(1[5-9]\d\d|20\d\d)\b")
_ROUND_WORD = re.compile(r"^(?:round|ronde|runde|rd|tour)\b\.?\s*")
_WORDS = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Facts:
    """What a record states of which game it is; None (or a date's None parts) where it
    says nothing. Names are cleaned (``clean_name``), the round and the site are their
    words, case folded, and the result is who won (``normalise_result``)."""

    white: str | None = None
    black: str | None = None
    date: DateParts = (None, None, None)
    round: str | None = None
    game: int | None = None
    result: str | None = None
    site: str | None = None


def facts_of(tags: Mapping[str, str], variant: Variant | None = None,
             date: DateParts | None = None) -> Facts:
    """The facts of a record's tags (``date``: its Date's parts when computed for a batch;
    ``variant`` reads the result, which is left unknown without it)."""
    event = tags.get("Event") or ""
    parts = date if date is not None else date_parts_of(tags.get("Date") or "")
    if parts[0] is None and (year := _YEAR.search(event)):
        parts = (int(year.group(1)), *parts[1:])
    number = _GAME_NUMBER.search(event)
    outcome = normalise_result(tags.get("Result"), variant) if variant is not None else UNKNOWN
    return Facts(_known_name(tags.get("White")), _known_name(tags.get("Black")), parts,
                 round_of(tags.get("Round")), int(number.group(1)) if number else None,
                 None if outcome == UNKNOWN else outcome, _words(tags.get("Site")))


def _known_name(name: str | None) -> str | None:
    return None if not name or NO_NAME.match(name) else clean_name(name)


def _words(text: str | None) -> str | None:
    if not text or NO_NAME.match(text):
        return None
    return " ".join(_WORDS.findall(text.casefold())) or None


def round_of(text: str | None) -> str | None:
    """A Round tag as its parts joined by dots, numbers without leading zeros and without a
    leading ``Round``/``ronde`` (``Ronde 07`` → ``7``, ``10.1`` → ``10.1``); None when it
    says nothing."""
    if not text or NO_NAME.match(text):
        return None
    words = _WORDS.findall(_ROUND_WORD.sub("", text.strip().casefold()))
    return ".".join(str(int(w)) if w.isdigit() else w for w in words) or None


# ---- agreement -----------------------------------------------------------------------------


def name_form(name: str) -> tuple[str, tuple[str, ...]]:
    """A name as its surname and given names, case folded, without punctuation."""
    last, _, first = name.partition(",")
    return " ".join(_WORDS.findall(last.casefold())), tuple(_WORDS.findall(first.casefold()))


def _prefixes_agree(a: Iterable[str], b: Iterable[str]) -> bool:
    return all(x.startswith(y) or y.startswith(x) for x, y in zip(a, b, strict=False))


def _longer_parts(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
    """Of two part lists that agree as prefixes, each part at its longest."""
    longest = a if len(a) >= len(b) else b
    return tuple(max(x, y, key=len) for x, y in zip(a, b, strict=False)) + longest[
        min(len(a), len(b)):]


def names_agree(a: tuple[str, tuple[str, ...]], b: tuple[str, tuple[str, ...]]) -> bool:
    """The same surname and given names that agree as far as both go."""
    return a[0] == b[0] and _prefixes_agree(a[1], b[1])


def names_compatible(a: str | None, b: str | None) -> bool:
    """Whether two player names may be the same person: one unknown, or the same surname
    and given names that agree as far as both go (``Sijbrands, T.`` ~ ``Sijbrands, Ton``)."""
    return a is None or b is None or names_agree(name_form(a), name_form(b))


def dates_compatible(a: DateParts, b: DateParts) -> bool:
    """Whether two partial dates agree on every part both know."""
    return all(x is None or y is None or x == y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class _Field:
    """How one fact is compared: its form for comparing, whether two forms agree, the
    form that holds what two agreeing ones know (agreeing with it is agreeing with both),
    and the part of a form two agreeing forms share (None where it is not known): a
    surname, a year, a round's first part."""

    form: Callable[[Any], Hashable]
    agree: Callable[[Any, Any], bool]
    merge: Callable[[Any, Any], Any]
    index: Callable[[Any], Hashable] = lambda form: form


def _equal(a: Any, b: Any) -> bool:
    return a == b


def _either(a: Any, _b: Any) -> Any:
    return a


def _round_parts(text: str) -> tuple[str, ...]:
    return tuple(text.split("."))


def _same_start(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two rounds' parts are equal as far as both go (``10`` ~ ``10.1``, not
    ``1`` ~ ``10``)."""
    return a[:len(b)] == b[:len(a)]


def _first(form: tuple) -> Hashable:
    return form[0]


_NAME = _Field(name_form, names_agree, lambda a, b: (a[0], _longer_parts(a[1], b[1])), _first)
_EQUAL = _Field(lambda value: value, _equal, _either)
_FIELDS: dict[str, _Field] = {
    "white": _NAME, "black": _NAME,
    "date": _Field(lambda parts: parts, dates_compatible,
                   lambda a, b: tuple(x if x is not None else y for x, y in zip(a, b,
                                                                                strict=True)),
                   _first),
    "round": _Field(_round_parts, _same_start, lambda a, b: max(a, b, key=len), _first),
    "game": _EQUAL, "result": _EQUAL, "site": _EQUAL,
}
_UNKNOWN_DATE = (None, None, None)


def _known(value: Any) -> bool:
    return value is not None and value != _UNKNOWN_DATE


def compared(facts: Facts, by: str) -> tuple:
    """The facts ``by`` compares, in ``BY_FIELDS`` order: the key of records alike."""
    return tuple(getattr(facts, name) for name in BY_FIELDS[by])


def differences(records: Iterable[Facts], by: str = "game") -> tuple[str, ...]:
    """The facts (of those ``by`` compares) that tell the records apart, in ``FIELDS``
    order: a fact of a record that disagrees with what the records before it state of it
    (one pass: linear in the records)."""
    names = BY_FIELDS[by]
    held = Profile(names, [None] * len(names))
    found = set()
    for facts in records:
        profile = Profile.of(compared(facts, by), by)
        found.update(held.disagreements(profile))
        held.absorb(profile, keep=True)
    return tuple(name for name in names if name in found)


# ---- one game's records --------------------------------------------------------------------


@dataclass
class Profile:
    """What the records of one game state between them, fact by fact (None: none says):
    a record agrees with every record of the game exactly when it agrees with this."""

    names: tuple[str, ...]
    forms: list[Any] = field(default_factory=list)

    @classmethod
    def of(cls, values: tuple, by: str) -> Profile:
        names = BY_FIELDS[by]
        return cls(names, [_FIELDS[n].form(v) if _known(v) else None
                           for n, v in zip(names, values, strict=True)])

    def accepts(self, other: Profile) -> bool:
        """Whether every fact both state agrees."""
        return all(a is None or b is None or _FIELDS[name].agree(a, b)
                   for name, a, b in zip(self.names, self.forms, other.forms, strict=True))

    def disagreements(self, other: Profile) -> list[str]:
        """The facts both state that disagree."""
        return [name for name, a, b in zip(self.names, self.forms, other.forms, strict=True)
                if a is not None and b is not None and not _FIELDS[name].agree(a, b)]

    def index(self) -> list[Hashable]:
        """The shared part of each fact (``_Field.index``), None where it is not known."""
        return [None if form is None else _FIELDS[name].index(form)
                for name, form in zip(self.names, self.forms, strict=True)]

    def absorb(self, other: Profile, *, keep: bool = False) -> None:
        """Take in what an agreeing record states (``keep``: of a record that may disagree,
        only the facts that agree)."""
        for index, (name, a, b) in enumerate(zip(self.names, self.forms, other.forms,
                                                 strict=True)):
            if b is None:
                continue
            if a is None:
                self.forms[index] = b
            elif not keep or _FIELDS[name].agree(a, b):
                self.forms[index] = _FIELDS[name].merge(a, b)


class _Games:
    """The games of one line of moves, found by the shared part of each fact
    (``Profile.index``): a record stating a surname, a year, a round or a result is
    compared only with the games that state the same or nothing of it."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.profiles: list[Profile] = []
        self.stating: list[dict[Hashable, dict[int, None]]] = [{} for _ in names]
        self.silent: list[dict[int, None]] = [{} for _ in names]  # the games stating nothing

    def first_accepting(self, profile: Profile) -> int | None:
        """The first game (in the order they were made) that agrees with a record."""
        parts = profile.index()
        choices = [(len(self.stating[f].get(part, ())) + len(self.silent[f]), f)
                   for f, part in enumerate(parts) if part is not None]
        if choices:
            _, f = min(choices)
            candidates = sorted([*self.stating[f].get(parts[f], ()), *self.silent[f]])
        else:
            candidates = range(len(self.profiles))
        return next((n for n in candidates if self.profiles[n].accepts(profile)), None)

    def add(self, number: int | None, profile: Profile) -> int:
        """File a record's facts in game ``number`` (None: a new game); its number."""
        if number is None:
            number = len(self.profiles)
            self.profiles.append(Profile(profile.names, [None] * len(profile.names)))
            for silent in self.silent:
                silent[number] = None
        held = self.profiles[number]
        before = held.index()
        held.absorb(profile)
        for f, (old, new) in enumerate(zip(before, held.index(), strict=True)):
            if old is None and new is not None:  # a shared part, once known, stays
                del self.silent[f][number]
                self.stating[f].setdefault(new, {})[number] = None
        return number


def identify(records: Iterable[tuple[int, Facts]], by: str = "game") -> list[list[int]]:
    """The records of one line of moves (``(ordinal, facts)`` in reading order) as games:
    the ordinals of each game's records, in the order of their first. A record joins the
    first game it agrees with (``Profile``), else starts one.

    One ``Profile`` per game, and the game each set of facts joined remembered by those
    facts: a record stating what one before it stated (copies of a file, a game entered
    twice) costs a lookup, whatever the size of its game. A record stating facts not met
    before is compared with the games that may agree with it (``_Games``), not with every
    game of its line: the different games of a line of moves played by different players
    (a short line in a large archive) are not compared with each other.
    """
    games = _Games(BY_FIELDS[by])
    members: list[list[int]] = []
    joined: dict[tuple, int] = {}  # compared facts -> the game they joined
    for ordinal, facts in records:
        values = compared(facts, by)
        number = joined.get(values)
        if number is None:
            profile = Profile.of(values, by)
            number = joined[values] = games.add(games.first_accepting(profile), profile)
            if number == len(members):
                members.append([])
        members[number].append(ordinal)
    return members


__all__ = ["BY_CHOICES", "BY_FIELDS", "FIELDS", "Facts", "Profile", "compared",
           "dates_compatible", "differences", "facts_of", "identify", "name_form",
           "names_agree", "names_compatible", "round_of"]
