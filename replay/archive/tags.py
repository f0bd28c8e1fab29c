"""Tag values as archivists compare and clean them: player names, partial dates, results.

Dates are understood by ``date_parts_plain`` (every form the archives use);
names are matched the way ``replay.stats`` matches players: ignoring case and spacing.

>>> name_key("  sijbrands ,Ton "), clean_name("ABAULIN V."), clean_name("T. Sijbrands")
('sijbrands, ton', 'Abaulin, V.', 'Sijbrands, T.')
>>> clean_date("1.10.1973"), clean_date("1841-??-??"), clean_date("?")
('1973.10.01', '1841.??.??', '????.??.??')
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase
from functools import lru_cache

from replay.record.replayer import BLACK_WINS, DOUBLE_FORFEIT, DRAW, WHITE_WINS, normalise_result
from replay.rules.variants import Variant

DateParts = tuple[int | None, int | None, int | None]  # year, month, day; None = unknown

NO_NAME = re.compile(r"^[\s?*\-.]*$")
# A date of zeros (``0000.00.00``, as some programs write an unknown date): no year 0.
NO_DATE = re.compile(r"^[\s0?*\-./]*$")
_INITIALS = r"(?:[^\W\d_]{1,2}\.[\s-]*)+"
_INITIALS_FIRST = re.compile(rf"^(?P<first>{_INITIALS})\s*(?P<last>[^\W\d_].*)$")
_INITIALS_LAST = re.compile(rf"^(?P<last>[^\W\d_][^,]*?)\s+(?P<first>{_INITIALS})$")
_PARTICLES = frozenset({"van", "der", "den", "de", "du", "la", "le", "von", "ter", "ten", "da",
                        "di", "het", "'t"})
ACRONYM_LETTERS = 4
# PDN 3.0's "international" result type, and lidraughts' own 10x10 types (it writes 2-0 for
# every variant; docs/variants-lidraughts.md).
INTERNATIONAL_RESULT_TYPES = frozenset({20, 27, 96, 97, 98})
UNKNOWN_RESULT = "*"


# ---- names ---------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A player name for matching: case folded, spacing made single, ``", "`` after commas."""
    spaced = re.sub(r"\s*,\s*", ", ", " ".join(name.split()))
    return spaced.strip(" ,").casefold()


def name_words(name: str) -> frozenset[str]:
    """The words of a name, case folded, without punctuation (``"Sijbrands, T."`` →
    ``{"sijbrands", "t"}``)."""
    return frozenset(re.findall(r"[^\W_]+", name.casefold()))


def name_matches(pattern: str, name: str | None) -> bool:
    """Whether a name fits a query: a glob on the name's key when the query has wildcards,
    else every word of the query is a word of the name (in any order)."""
    if not name or NO_NAME.match(name):
        return False
    if any(char in pattern for char in "*?["):
        return fnmatchcase(name_key(name), name_key(pattern))
    wanted = name_words(pattern)
    return bool(wanted) and wanted <= name_words(name)


def _word_case(word: str, first: bool) -> str:
    if not first and word.casefold() in _PARTICLES:
        return word.casefold()
    return "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))


def _fix_case(name: str) -> str:
    """Title case for a name written all in capitals or all in small letters; others keep
    their own case (``McDonald``, ``van der Wal``), and so does a single short word in
    capitals, an acronym rather than a name (the program ``ADC``)."""
    letters = [char for char in name if char.isalpha()]
    if not letters or not (name.isupper() or name.islower()):
        return name
    if name.isupper() and " " not in name and len(letters) <= ACRONYM_LETTERS:
        return name
    return " ".join(_word_case(word, index == 0) for index, word in enumerate(name.split(" ")))


def clean_name(name: str) -> str:
    """A player name as ``Last, First``: single spaces, ``", "`` after the surname, initials
    moved behind it (``T. Sijbrands``, ``Abaulin V.`` → ``Sijbrands, T.``, ``Abaulin, V.``),
    names in all capitals or small letters title-cased. ``First Last`` without initials stays
    as written: which word is the surname cannot be told."""
    if NO_NAME.match(name):
        return "?"
    spaced = re.sub(r"\s*,\s*", ", ", " ".join(name.split())).strip(" ,")
    if "," not in spaced:
        match = _INITIALS_FIRST.match(spaced) or _INITIALS_LAST.match(spaced)
        if match:
            initials = re.sub(r"\s+", " ", match.group("first")).strip()
            spaced = f"{match.group('last').strip()}, {initials}"
    return _fix_case(spaced)


# ---- dates ---------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def date_parts_of(text: str) -> DateParts:
    """Year, month and day a Date tag knows (None where unknown): ``date_parts_plain``,
    each distinct text read once."""
    return date_parts_plain(text)


def date_parts_many(texts: Iterable[str | None]) -> list[DateParts]:
    """The parts of many dates (None: a missing date, no part known)."""
    return [(None, None, None) if text is None else date_parts_of(text) for text in texts]


# The forms archives write dates in, tried in this order, each filling the parts the ones
# before it left unknown: year first (the day may be left out), day first, a month's name,
# a year alone.
DATE_PATTERNS = (
    re.compile(r"^\s*(?P<year>\d{4}|\?{4})\s*[.\-/]\s*(?P<month>\d{1,2}|\?{1,2})"
               r"(?:\s*[.\-/]\s*(?P<day>\d{1,2}|\?{1,2}))?\s*$"),
    re.compile(r"^\s*(?P<day>\d{1,2})[.\-/](?P<month>\d{1,2})[.\-/](?P<year>\d{4})\s*$"),
    re.compile(r"(?P<day>\d{1,2})?(?:\s*-\s*\d{1,2})?\s*(?P<month>[A-Za-z]{3,})\.?,?\s+"
               r"(?P<year>\d{4})"),
    re.compile(r"(?P<year>\b(?:1[5-9]|20)\d\d\b)"),
)
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                "dec")


def date_parts_plain(text: str) -> DateParts:
    """Year, month and day a Date tag knows (None where unknown), in every form
    ``DATE_PATTERNS`` reads, without pandas: a number in other digits than ASCII's is
    unknown, as is a year 0, a month past 12 and a day past 31 (a day without its month).
    The games table (``replay.stats.tables.date_parts``) reads its dates with it.

    >>> date_parts_plain("1841.??.??"), date_parts_plain("1-2 June 2002")
    ((1841, None, None), (2002, 6, 1))
    """
    found: dict[str, str | int | None] = {"year": None, "month": None, "day": None}
    for number, pattern in enumerate(DATE_PATTERNS):
        match = pattern.search(text)
        if match is None:
            continue
        for name, value in match.groupdict().items():
            if found[name] is None and value is not None:
                found[name] = _month_number(value) if number == 2 and name == "month" else value
    year, month, day = (_number(found[name]) for name in ("year", "month", "day"))
    year = year if year is not None and year > 0 else None
    month = month if month is not None and 1 <= month <= 12 else None
    day = day if day is not None and 1 <= day <= 31 and month is not None else None
    return year, month, day


def _month_number(name: str) -> int | None:
    """A month's number from its name (its first three letters); None for another word."""
    short = name.lower()[:3]
    return _MONTH_NAMES.index(short) + 1 if short in _MONTH_NAMES else None


def _number(value: str | int | None) -> int | None:
    if isinstance(value, str):
        return int(value) if value.isascii() and value.isdigit() else None
    return value


def format_date(parts: DateParts) -> str:
    """``YYYY.MM.DD`` with ``?`` for the unknown parts."""
    year, month, day = parts
    return ".".join(("????" if year is None else f"{year:04d}",
                     "??" if month is None else f"{month:02d}",
                     "??" if day is None else f"{day:02d}"))


def clean_date(text: str, parts: DateParts | None = None) -> str:
    """A Date tag in PDN form (``0000.00.00``, zeros for an unknown date, is
    ``????.??.??``); a value no rule understands is kept as it is."""
    parts = date_parts_of(text) if parts is None else parts
    if parts == (None, None, None) and not (NO_NAME.match(text) or NO_DATE.match(text)):
        return text
    return format_date(parts)


def date_range(parts: DateParts) -> tuple[tuple[int, int, int], tuple[int, int, int]] | None:
    """The earliest and latest day a partial date can mean; None without a year."""
    year, month, day = parts
    if year is None:
        return None
    low = (year, month or 1, day or 1)
    high = (year, month or 12, day or 31)
    return low, high


# ---- results -------------------------------------------------------------------------------


def result_tokens(variant: Variant) -> dict[str, str]:
    """The result set of a variant's game type, by outcome from the first mover's view."""
    if variant.gametype.number in INTERNATIONAL_RESULT_TYPES:
        return {"first": "2-0", "second": "0-2", DRAW: "1-1", DOUBLE_FORFEIT: "0-0"}
    return {"first": "1-0", "second": "0-1", DRAW: "1/2-1/2", DOUBLE_FORFEIT: "0-0"}


def clean_result(token: str | None, variant: Variant) -> str:
    """A result in the variant's result set (``1:0`` → ``1-0``, chess ``1-0`` in an
    international game → ``2-0``); ``*`` when it says nothing."""
    outcome = normalise_result(token, variant)
    if outcome in (WHITE_WINS, BLACK_WINS):
        first = WHITE_WINS if variant.white_starts else BLACK_WINS
        outcome = "first" if outcome == first else "second"
    return result_tokens(variant).get(outcome, UNKNOWN_RESULT)


def is_real_result(token: str | None, variant: Variant) -> bool:
    """Whether a result says who won (or that it was a draw or a double forfeit)."""
    return clean_result(token, variant) != UNKNOWN_RESULT
