"""Names probably written two ways: two names of one event that spell one name in two
transliterations, a letter doubled, one letter apart or with more or fewer initials, whose
games show one seat (docs/tournaments.md).

Matching names as ``replay.tournament.players`` does joins only the same letters (word
order, initials fitting one player, accents). What it cannot know is found here and
reported, never merged: a pair is reported when

- **the names** agree: the surnames are the same once each Russian letter is written as
  ISO 9 writes it without its accent (``Goryunov``, BGN/PCGN ``yu``, ~ ``Gorunov``, ISO 9
  ``û``; ``Tsjizjow`` ~ ``Chizhov``) and doubled letters once, or they are one letter apart
  (``Skrabov`` ~ ``Scrabov``), five letters or more, with the same given names; a feminine
  form (``Ivanov`` / ``Ivanova``) is never one; the given names agree as far as both go;
- **the games** agree: the two never met (no one plays himself), and no round has both
  (one seat plays once a round); where no round is known, no opponent met both and
  together they met half the others or more.

>>> games = [Seat("Goryunov", "Cipes", "wc", "1"), Seat("Guba", "Gorunov", "wc", "2"),
...          Seat("Gorunov", "Cipes", "wc", "3"), Seat("Guba", "Cipes", "wc", "4")]
>>> [pair] = probable_pairs(games)
>>> (pair.name, pair.player, pair.kind)
('Goryunov', 'Gorunov', 'the same name transliterated two ways')
>>> pair.evidence()
'yu/u, the same name transliterated two ways; never met, never in one round (rounds 1 / 2-3)'
>>> pair.options()
['--same Goryunov=Gorunov']
"""

from __future__ import annotations

import datetime
import re
import shlex
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import combinations

from pdn.i18n import N_, Catalog, catalog
from replay.archive.tags import clean_name

# Each Russian letter's Latin spellings, longest first, written as ISO 9 writes the letter
# without its accent: BGN/PCGN (1947), GOST 7.79-2000 system B, ICAO Doc 9303, and the
# German, French and Dutch spellings of Russian names (docs/tournaments.md); x is кс, as
# names write it (Alexander), not GOST 7.79 B's х.
_LETTERS = (
    (r"shch|schtsch|sjtsj|chtch|shh", "s"),  # щ (ISO 9 ŝ)
    (r"tsch", "c"),  # ч (German tsch, before its sch)
    (r"sch|sh|sj", "s"),  # ш (š)
    (r"tch|tsj|ch", "c"),  # ч (č)
    (r"zh|zj", "z"),  # ж (ž)
    (r"kh", "h"),  # х (h)
    (r"ts|tz", "c"),  # ц (c)
    (r"x", "ks"),  # кс
    (r"yu|ju|iu|oe|ou", "u"),  # ю (û), у (Dutch oe, French ou)
    (r"ya|ja|ia", "a"),  # я (â)
    (r"ye|je|yo|jo", "e"),  # е, ё (ë)
    (r"y|j", "i"),  # й (j), ы (y)
    (r"w", "v"),  # в (German, Dutch w)
)
_LETTER_RULES = [(re.compile(pattern), letter) for pattern, letter in _LETTERS]
MIN_ONE_LETTER = 5  # shorter surnames one letter apart are too often two families
# How two names agree (what the report says; the JSON's "kind" in English)
TRANSLITERATED = N_("the same name transliterated two ways")
DOUBLED = N_("a letter doubled")
ONE_LETTER = N_("one letter apart")
INITIALS = N_("the same surname, the given names agreeing as far as both go")
# What the games show
APART_IN_ROUNDS = N_("never met, never in one round (rounds {first} / {second})")
APART = N_("never met, no opponent in common")
ENGLISH = catalog("en")


def _ascii(text: str) -> str:
    """Lower-case letters without accents (``Gérard`` → ``gerard``)."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if c.isalpha() and not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def skeleton(word: str) -> str:
    """A word with each Russian letter's Latin spellings written one way, doubled letters
    once (``Goryunov`` and ``Gorunov`` → ``gorunov``; ``Tsjizjow`` → ``cizov``)."""
    text = _ascii(word)
    for pattern, letter in _LETTER_RULES:
        text = pattern.sub(letter, text)
    return re.sub(r"(.)\1+", r"\1", text)


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether one letter added, dropped or changed turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    start = 0
    while start < len(a) and a[start] == b[start]:
        start += 1
    return a[start + (len(a) == len(b)):] == b[start + 1:]


def _feminine(a: str, b: str) -> bool:
    """Whether one surname is the other's feminine form (``ivanov``/``ivanova``,
    ``gorski``/``gorska``): two people, however alike."""
    return (a + "a" == b or b + "a" == a
            or (a[:-1] == b[:-1] and {a[-1:], b[-1:]} == {"a", "i"}))


@dataclass(frozen=True)
class _Name:
    """A name read as a surname and given names, in each way it can be read."""

    readings: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def read(cls, name: str) -> _Name:
        cleaned = clean_name(name)
        if "," in cleaned:
            last, _, first = cleaned.partition(",")
            return cls(((last.strip(), tuple(_ascii(w) for w in first.split())),))
        words = cleaned.split()
        if len(words) < 2:
            return cls(((cleaned, ()),))
        return cls(((words[-1], tuple(_ascii(w) for w in words[:-1])),
                    (words[0], tuple(_ascii(w) for w in words[1:]))))


def _given_agree(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Given names agree as far as both go: initials, or the same name transliterated."""
    return all(x.startswith(y) or y.startswith(x) or skeleton(x) == skeleton(y)
               for x, y in zip(a, b, strict=False))


def _agreement(a: tuple[str, tuple[str, ...]], b: tuple[str, tuple[str, ...]]
               ) -> tuple[str, str] | None:
    """How two readings (surname, given names) agree, with the letters that differ; None
    when they are two people's."""
    (last_a, first_a), (last_b, first_b) = a, b
    x, y = skeleton(last_a), skeleton(last_b)
    plain_a, plain_b = _ascii(last_a), _ascii(last_b)
    if not x or _feminine(x, y) or _feminine(plain_a, plain_b):
        return None
    given_a, given_b = " ".join(first_a), " ".join(first_b)
    if x == y and _given_agree(first_a, first_b):
        if plain_a == plain_b:
            return INITIALS, _difference(given_a or "-", given_b or "-")
        kind = DOUBLED if _undoubled(plain_a) == _undoubled(plain_b) else TRANSLITERATED
    elif ([skeleton(w) for w in first_a] == [skeleton(w) for w in first_b]
          and min(len(x), len(y)) >= MIN_ONE_LETTER and _one_letter_apart(x, y)):
        kind = ONE_LETTER
    else:
        return None
    differ = [_difference(last_a, last_b)]
    if given_a and given_b and given_a != given_b:
        differ.append(_difference(given_a, given_b))
    return kind, ", ".join(differ)


def _undoubled(text: str) -> str:
    return re.sub(r"(.)\1+", r"\1", text)


def _difference(a: str, b: str) -> str:
    """What differs between two spellings, a letter of context where one side has none
    (``Goryunov``/``Gorunov`` → ``yu/u``)."""
    x, y = (" ".join(_ascii(word) for word in text.split()) or text for text in (a, b))
    parts = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, x, y, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i1 == i2 or j1 == j2:
            if i2 < len(x) and j2 < len(y):
                i2, j2 = i2 + 1, j2 + 1
            else:
                i1, j1 = max(i1 - 1, 0), max(j1 - 1, 0)
        parts.append(f"{x[i1:i2]}/{y[j1:j2]}")
    return ", ".join(parts)


@dataclass(frozen=True)
class Seat:
    """One game as the check reads it: the players as named, its event and its round
    (None unknown)."""

    white: str
    black: str
    event: str
    round: str | None


@dataclass(frozen=True)
class NamePair:
    """Two names probably of one player: ``name`` (fewer games) is probably ``player``."""

    name: str
    player: str
    games: tuple[int, int]
    difference: str  # the letters that differ: "yu/u"
    kind: str  # TRANSLITERATED, DOUBLED, ONE_LETTER or INITIALS
    rounds: tuple[tuple[str, ...], tuple[str, ...]] | None  # each one's rounds, if known
    same: tuple[tuple[str, str], ...] = ()  # (written, written) for --same; default the names

    def options(self) -> list[str]:
        """The ``--same`` options that count the two as one player, ready to paste."""
        pairs = self.same or ((self.name, self.player),)
        return [f"--same {shlex.quote(f'{name}={player}')}" for name, player in pairs]

    def evidence(self, words: Catalog = ENGLISH) -> str:
        """Why: the letters, then what the games show (in the language of ``words``)."""
        say = words.gettext
        games = (say(APART_IN_ROUNDS).format(first=_rounds_text(self.rounds[0], words),
                                             second=_rounds_text(self.rounds[1], words))
                 if self.rounds else say(APART))
        return f"{self.difference}, {say(self.kind)}; {games}"

    def said(self, words: Catalog = ENGLISH) -> str:
        """``Goryunov (1 game) ~ Gorunov (2 games): yu/u, ...`` in the language of
        ``words``."""
        counts = [words.ngettext("{count} game", "{count} games", n).format(count=n)
                  for n in self.games]
        return (f"{self.name} ({counts[0]}) ~ {self.player} ({counts[1]}): "
                f"{self.evidence(words)}")

    def __str__(self) -> str:
        return self.said()


def _rounds_text(rounds: tuple[str, ...], words: Catalog = ENGLISH) -> str:
    """Rounds as ranges where they are numbers (``1-2, 4``), else as written (their count
    where more than three: ``12 dates``)."""
    if not all(r.isdigit() for r in rounds):
        return ", ".join(rounds) if len(rounds) <= 3 else words.ngettext(
            "{count} date", "{count} dates", len(rounds)).format(count=len(rounds))
    numbers = sorted(int(r) for r in rounds)
    spans: list[list[int]] = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _similar(a: _Name, b: _Name) -> tuple[str, str] | None:
    """How two names agree (the first reading that does), None when they do not."""
    for reading_a in a.readings:
        for reading_b in b.readings:
            found = _agreement(reading_a, reading_b)
            if found:
                return found
    return None


def _candidates(names: dict[str, _Name]) -> set[tuple[str, str]]:
    """The pairs of names whose surnames' skeletons are equal or one letter apart: the only
    pairs worth comparing (so a large archive is not compared pair by pair)."""
    buckets: dict[str, set[str]] = defaultdict(set)
    for name, read in names.items():
        for last, _ in read.readings:
            key = skeleton(last)
            if not key:
                continue
            buckets[key].add(name)
            if len(key) >= MIN_ONE_LETTER - 1:
                for k in range(len(key)):
                    buckets[f"{key[:k]}*{key[k + 1:]}"].add(name)
                    buckets[f"{key[:k]}{key[k + 1:]}"].add(name)
    found = set()
    for members in buckets.values():
        if len(members) > 1:
            found.update(combinations(sorted(members), 2))
    return found


def round_of(tag: str | None) -> str | None:
    """The round a Round tag names: its first number (``"3.2"``: game 2 of round 3 → ``3``),
    else the tag as written (None when empty or unknown)."""
    text = (tag or "").strip()
    if text in ("", "?", "-"):
        return None
    number = re.match(r"(\d+)(?:\s*[.:/]\s*\d+)?\b", text)
    return number[1] if number else text


_FULL_DATE = re.compile(r"^\s*(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})\s*$")
MAX_EVENT_DAYS = 62  # a tournament's dates are its rounds; a longer span is a collection


def game_rounds(rounds: Sequence[str | None], dates: Sequence[str | None]
                ) -> list[str | None]:
    """Each game's round: the Round tag's number where most games have one, else the date
    where every game has a full date and all lie within ``MAX_EVENT_DAYS`` days (one
    tournament, a round a day), else unknown (None)."""
    numbered = [round_of(r) for r in rounds]
    if sum(r is not None for r in numbered) * 2 > len(numbered):
        return numbered
    days = []
    for text in dates:
        match = _FULL_DATE.match(text or "")
        if not match:
            return [None] * len(numbered)
        try:
            days.append(datetime.date(int(match[1]), int(match[2]), int(match[3])))
        except ValueError:
            return [None] * len(numbered)
    if days and (max(days) - min(days)).days <= MAX_EVENT_DAYS:
        return [day.isoformat() for day in days]
    return [None] * len(numbered)


def probable_pairs(games: Iterable[Seat]) -> list[NamePair]:
    """The pairs of names probably of one player, the one with more games second, in the
    order of the names (``same`` left empty: the names are the ones to write)."""
    played: Counter[str] = Counter()
    met: set[frozenset[str]] = set()
    opponents: dict[str, set[str]] = defaultdict(set)
    rounds: dict[tuple[str, str], set[str]] = defaultdict(set)
    events: dict[str, set[str]] = defaultdict(set)
    entrants: dict[str, set[str]] = defaultdict(set)
    for game in games:
        met.add(frozenset((game.white, game.black)))
        entrants[game.event].update((game.white, game.black))
        for me, other in ((game.white, game.black), (game.black, game.white)):
            played[me] += 1
            opponents[me].add(other)
            events[me].add(game.event)
            if game.round is not None:
                rounds[(game.event, me)].add(game.round)
    names = {name: _Name.read(name) for name in played}
    found = []
    for a, b in sorted(_candidates(names)):
        shared = events[a] & events[b]
        if not shared or frozenset((a, b)) in met:
            continue
        similar = _similar(names[a], names[b])
        if similar is None or not _one_seat(a, b, shared, rounds, opponents, entrants):
            continue
        minor, major = sorted((a, b), key=lambda n: (played[n], n))
        known = [e for e in shared if rounds[(e, a)] and rounds[(e, b)]]
        seen = None
        if known:
            seen = (tuple(sorted(set().union(*(rounds[(e, minor)] for e in known)),
                                 key=_round_order)),
                    tuple(sorted(set().union(*(rounds[(e, major)] for e in known)),
                                 key=_round_order)))
        kind, difference = similar if minor == a else _similar(names[b], names[a])
        found.append(NamePair(minor, major, (played[minor], played[major]), difference, kind,
                              seen))
    return sorted(found, key=lambda pair: (pair.name, pair.player))


def _round_order(round_name: str) -> tuple[int, int, str]:
    """Rounds in order: numbers by value, then the others as written."""
    return (0, int(round_name), "") if round_name.isdigit() else (1, 0, round_name)


def _one_seat(a: str, b: str, shared: set[str], rounds: dict[tuple[str, str], set[str]],
              opponents: dict[str, set[str]], entrants: dict[str, set[str]]) -> bool:
    """Whether the games of two names could be one player's: no round of a shared event
    has both; where no round is known, no opponent met both and together they met at
    least half of the others (the two halves of one schedule)."""
    known = [e for e in shared if rounds[(e, a)] and rounds[(e, b)]]
    if known:
        return not any(rounds[(e, a)] & rounds[(e, b)] for e in known)
    together = opponents[a] | opponents[b]
    others = set().union(*(entrants[e] for e in shared)) - {a, b}
    return not opponents[a] & opponents[b] and len(together) * 2 >= len(others)


def paste_line(pairs: Iterable[NamePair]) -> str:
    """Every pair's ``--same`` options on one line, for the names with one candidate only
    (a name with two is for the arbiter to choose)."""
    pairs = list(pairs)
    times = Counter(pair.name for pair in pairs)
    return " ".join(option for pair in pairs if times[pair.name] == 1
                    for option in pair.options())


__all__ = ["DOUBLED", "INITIALS", "ONE_LETTER", "TRANSLITERATED", "NamePair", "Seat",
           "game_rounds", "paste_line", "probable_pairs", "round_of", "skeleton"]
