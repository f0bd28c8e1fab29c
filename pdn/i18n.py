"""The players' language: gettext catalogs, the language chosen, and messages put into it.

English is the source language and the default. A catalog is a ``.po`` file in
``pdn/locale/LANG/LC_MESSAGES/pdn.po``, read as it is (compiled in memory with the standard
library's ``gettext``), so a fresh clone speaks every language with no build step. Messages
use ``{name}`` placeholders; plural forms follow each catalog's ``Plural-Forms`` (Russian has
three, Thai one).

What machines read stays English: ``--json`` rows, codes and PDN output carry the messages as
the rules core writes them. A display (the command line, a report, a page) puts them into the
reader's language with ``localize``, which finds the catalog entry a message was made from
(``N_`` marks such templates where they are made) and fills its translation with the same
values, putting the values that are phrases themselves into the language too.

>>> catalog("ru").localize("capture is compulsory: d4:b6")
'бить обязательно: d4:b6'
>>> catalog("th").ngettext("{count} game", "{count} games", 3).format(count=3)
'3 เกม'
>>> catalog("en").localize("capture is compulsory: d4:b6")
'capture is compulsory: d4:b6'
>>> choose(None, {"LC_ALL": "", "LC_MESSAGES": "", "LANG": "ru_RU.UTF-8"})
'ru'
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # gettext, ast and struct are imported with the first catalog read
    import gettext

LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "pdn"
SOURCE_LANGUAGE = "en"
LANGUAGES = {"en": "English", "ru": "Русский", "th": "ไทย"}
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order of precedence

# Placeholders whose values are phrases made from catalog entries too (a side, a slip's
# parts, a reason): ``localize`` puts them into the language; every other value (a move, a
# square, a name, a place in the file) is written as it is.
PHRASES = frozenset({"side", "other", "whose", "went_wrong", "mended_by", "outcome", "nth",
                     "precedence", "piece", "who", "first", "second", "reason", "verdict",
                     "evidence", "listing", "at_move", "problem", "plies"})
NUMBERS = frozenset({"n", "count", "reach", "length", "number"})  # placeholders of digits
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def N_(message: str) -> str:
    """Mark ``message`` as a catalog entry where it is made; it stays English there."""
    return message


def choose(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``--lang`` if given, else the first of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set (``ru_RU.UTF-8`` -> ``ru``); English for one
    without a catalog, ``C`` and ``POSIX``.

    >>> choose("th_TH"), choose(None, {"LANG": "C.UTF-8"}), choose(None, {"LANG": "de_DE"})
    ('th', 'en', 'en')
    """
    if requested:
        return _supported(requested)
    environ = os.environ if environ is None else environ
    for variable in LANGUAGE_VARIABLES:
        if environ.get(variable):
            return _supported(environ[variable])
    return SOURCE_LANGUAGE


def negotiate(accept_language: str) -> str:
    """The language a browser's ``Accept-Language`` header prefers among those with a
    catalog (highest quality first, the header's order among equals); English for none.

    >>> negotiate("de-DE,th;q=0.8,ru;q=0.9"), negotiate("th-TH"), negotiate("fr, *;q=0.1")
    ('ru', 'th', 'en')
    """
    ranked = []
    for position, part in enumerate(accept_language.split(",")):
        tag, _, parameters = part.strip().partition(";")
        quality = 1.0
        for parameter in parameters.split(";"):
            name, _, value = parameter.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        code = _code(tag) if tag and tag != "*" else ""
        if code in LANGUAGES and quality > 0:
            ranked.append((-quality, position, code))
    return min(ranked)[2] if ranked else SOURCE_LANGUAGE


def check_language(requested: str) -> str:
    """``requested`` as a language code, or ValueError naming those there are."""
    code = _code(requested)
    if code not in LANGUAGES:
        raise ValueError(N_("--lang {value}: no such language; there are {choices}").format(
            value=requested, choices=", ".join(f"{key} ({name})"
                                               for key, name in LANGUAGES.items())))
    return code


def _code(value: str) -> str:
    return re.split(r"[_.@-]", value.strip(), maxsplit=1)[0].lower()


def _supported(value: str) -> str:
    code = _code(value)
    return code if code in LANGUAGES else SOURCE_LANGUAGE


class Catalog:
    """One language's translations, with ``localize`` for messages made in English."""

    def __init__(self, language: str, translations: gettext.NullTranslations,
                 entries: dict[str, str]) -> None:
        self.language = language
        self.translations = translations
        self._templates = [(_pattern(msgid), msgid) for msgid in entries
                           if _PLACEHOLDER.search(msgid)]
        self._templates.sort(key=lambda item: -len(_PLACEHOLDER.sub("", item[1])))
        self._known: dict[str, tuple[str, float] | None] = {}

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def localize(self, text: str) -> str:
        """``text``, made in English from catalog entries, in this language; as it is where
        no entry made it.

        A message whose placeholders hold phrases (a reason, the slips of a suggestion
        joined by "and") may match several templates. The reading taken puts every phrase
        into the language (a phrase of no words, a quoted move, stays as it is) and, of
        those, explains the most of the message by catalog text, the longer template first
        among equals: "A is missing, and B is a slip" reads as two slips joined, not as one
        slip of a "who" that holds the first. A sentence (a capital, a full stop) is its
        entry's. Where no reading puts every phrase into the language, the first template
        that matches is filled as far as it goes."""
        if self.language == SOURCE_LANGUAGE or not text:
            return text
        found = self._translate(text)
        return found[0] if found is not None else self._loosely(text)

    def wholly(self, text: str) -> str:
        """``text`` in this language where catalog entries make all of it, else as it is:
        an error of the command line made of no entry (a library's own words) is never
        half translated, as ``localize`` fills a template as far as it goes.

        >>> catalog("ru").wholly("x.pdn: no such file or directory")
        'x.pdn: нет такого файла или папки'
        >>> catalog("ru").wholly("x.pdn: cannot open: Too many levels of symbolic links")
        'x.pdn: cannot open: Too many levels of symbolic links'
        """
        if self.language == SOURCE_LANGUAGE or not text:
            return text
        found = self._translate(text)
        return text if found is None else found[0]

    def _translate(self, text: str) -> tuple[str, float] | None:
        """``text`` wholly in this language and how much of it catalog text explains (its
        characters, less a little for each phrase that is data), or None where a part of
        it is no entry."""
        if text in self._known:
            return self._known[text]
        found = self._read(text)
        if len(self._known) >= _KNOWN_LIMIT:
            self._known.clear()
        self._known[text] = found
        return found

    def _read(self, text: str) -> tuple[str, float] | None:
        translated = self.translations.gettext(text)
        if translated is not text:
            return translated, len(text)
        if len(text) > 1 and text.endswith(".") and not text.endswith(".."):
            sentence = self._translate(text[:-1])
            if sentence is not None:
                return sentence[0] + ".", sentence[1] + 1
        best: tuple[str, float] | None = None
        for pattern, msgid in self._templates:
            match = pattern.fullmatch(text)
            if match is None:
                continue
            literal = len(text) - sum(map(len, match.groups()))
            values, explained = {}, float(literal)
            for name, value in match.groupdict().items():
                if literal < _JOIN and name not in PHRASES and _WORD.search(
                        _QUOTED.sub(" ", value)):
                    break  # a join of moves ("{move} or {moves}") joins no English words
                phrase = self._translate(value) if name in PHRASES else self._data(value)
                if phrase is None and name in PHRASES:
                    if not _wordless(value):
                        break
                    explained -= _GUESSED  # a phrase of data: a reading less likely
                values[name] = value if phrase is None else phrase[0]
                explained += 0 if phrase is None else phrase[1]
            else:
                if best is None or explained > best[1]:
                    best = self.translations.gettext(msgid).format(**values), explained
        if best is not None:
            return best
        if text[:1].isupper() and text[1:2].islower():
            lowered = self._translate(text[:1].lower() + text[1:])
            return None if lowered is None else (lowered[0][:1].upper() + lowered[0][1:],
                                                 lowered[1])
        return None

    def _data(self, value: str) -> tuple[str, float] | None:
        """A value that is data joined by catalog words (``'gh4' and 'cb4'``) in this
        language; None for any other (a move, a name: written as it is)."""
        if not _PLACEHOLDER_FREE_WORDS.search(value):
            return None
        for pattern, msgid in self._templates:
            match = pattern.fullmatch(value)
            if match and not any(_PLACEHOLDER_FREE_WORDS.search(_QUOTED.sub("", part))
                                 for part in match.groups()):
                return (self.translations.gettext(msgid).format(**match.groupdict()),
                        len(value) - sum(map(len, match.groups())))
        return None

    def _loosely(self, text: str) -> str:
        """The first template that matches ``text``, each phrase put into the language where
        it wholly goes and else written as it is (a reason the system gave: ``No such file
        or directory``); ``text`` as it is where none matches."""
        for pattern, msgid in self._templates:
            match = pattern.fullmatch(text)
            if match:
                values = {name: (self._translate(value) or (value,))[0] if name in PHRASES
                          else value for name, value in match.groupdict().items()}
                return self.translations.gettext(msgid).format(**values)
        return text


_JOIN = 6  # a template with less text than this joins values ("{move} or {moves}")
_WORD = re.compile(r"[^\W\d_]{3,}")  # a word: three letters running (no move has them)
_GUESSED = 0.5  # below one character: decides between readings that explain as much
_KNOWN_LIMIT = 1 << 14  # messages a catalog keeps in its language (archives repeat them)
_PLACEHOLDER_FREE_WORDS = re.compile(r"[^\W\d_]")  # a letter: what data has none of
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _wordless(value: str) -> bool:
    """Whether a phrase's value has no words to put into a language outside its quotes: a
    quoted move ``'gh4'``, a number, a name of one word (``russian``).

    >>> _wordless("'gh4'"), _wordless("'gh4' and 'cb4'"), _wordless("3"), _wordless("russian")
    (True, False, True, True)
    """
    unquoted = _QUOTED.sub(" ", value).strip()
    if re.search(r"[^\W\d_]{2,}", unquoted) is None:
        return True
    return unquoted == value.strip() and " " not in unquoted


def _pattern(msgid: str) -> re.Pattern[str]:
    """A template's regular expression: each ``{name}`` a named group (digits for a count)."""
    parts, seen = [], set()
    for index, piece in enumerate(_PLACEHOLDER.split(msgid)):
        if index % 2 == 0:
            parts.append(re.escape(piece))
        elif piece in seen:
            parts.append(f"(?P={piece})")
        else:
            seen.add(piece)
            parts.append(f"(?P<{piece}>[0-9,]+)" if piece in NUMBERS else f"(?P<{piece}>.+?)")
    return re.compile("".join(parts), re.DOTALL)


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (English: the messages as they are)."""
    import gettext
    import io

    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == SOURCE_LANGUAGE or not path.is_file():
        return Catalog(SOURCE_LANGUAGE, gettext.NullTranslations(), {})
    entries = read_po(path)
    translations = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
    return Catalog(language, translations, {key.split("\0")[0]: value
                                            for key, value in entries.items() if key})


def read_po(path: Path) -> dict[str, str]:
    """A ``.po`` file's entries as ``.mo`` keys: ``msgid`` (``msgid\\0msgid_plural`` for a
    plural) to ``msgstr`` (the plural forms joined by ``\\0``); fuzzy and untranslated
    entries are left out, as ``msgfmt`` leaves them."""
    import ast

    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    fuzzy = False
    last = ""

    def close() -> None:
        nonlocal fuzzy
        if "msgid" in fields:
            plural_forms = [fields[key] for key in sorted(fields) if key.startswith("msgstr[")]
            key = fields["msgid"] + ("\0" + fields["msgid_plural"]
                                     if "msgid_plural" in fields else "")
            value = "\0".join(plural_forms) if plural_forms else fields.get("msgstr", "")
            if value.replace("\0", "") and (not fuzzy or key == ""):
                entries[key] = value
        fields.clear()
        fuzzy = False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            close()
            fuzzy = True
        elif not line or line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[last] += ast.literal_eval(line)
        else:
            keyword, _, value = line.partition(" ")
            if keyword == "msgid" and "msgid" in fields:
                close()
            last = keyword
            fields[keyword] = ast.literal_eval(value)
    close()
    return entries


def mo_bytes(entries: dict[str, str]) -> bytes:
    """The entries as a GNU ``.mo`` file (the layout of ``msgfmt``'s output)."""
    import struct

    keys = sorted(entries)
    ids = [key.encode() for key in keys]
    strs = [entries[key].encode() for key in keys]
    start = 7 * 4 + 16 * len(keys)
    id_table, str_table = [], []
    offset = start
    for data in ids:
        id_table += [len(data), offset]
        offset += len(data) + 1
    for data in strs:
        str_table += [len(data), offset]
        offset += len(data) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys),
                         0, 0)
    tables = struct.pack(f"{len(id_table)}i", *id_table) + struct.pack(
        f"{len(str_table)}i", *str_table)
    return header + tables + b"".join(d + b"\0" for d in ids) + b"".join(
        d + b"\0" for d in strs)


def placeholders(message: str) -> set[str]:
    """The ``{name}`` placeholders of a message.

    >>> sorted(placeholders("{who} is written as {place}"))
    ['place', 'who']
    """
    return set(_PLACEHOLDER.findall(message))


__all__ = [
    "LANGUAGES",
    "N_",
    "SOURCE_LANGUAGE",
    "Catalog",
    "catalog",
    "check_language",
    "choose",
    "mo_bytes",
    "placeholders",
    "read_po",
]
