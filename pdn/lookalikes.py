"""Look-alike characters typed inside moves: Cyrillic ``с`` for Latin ``c`` and the like; a
space typed inside a move (``11- 16``).

A scoresheet typed on a Russian keyboard often has Cyrillic letters that look like the Latin
file letters (``1. сd4`` with a Cyrillic ``с``; likewise ``а е х`` and uppercase ``А В С Е Н
Х``); word processors turn ``-`` into a dash and some editors write full-width forms. Inside a
word of movetext that becomes a move record once each such character is read as the one it
looks like, the character is read so, with a ``lookalike-letter`` warning that names it.
Names, tags, comments and prose are never touched: only whole words outside them that then
read as a move record (the grammar's MOVE). The text keeps its length, so every line and
column stays that of the file.

>>> text, notes = mend_lookalikes("1. сd4 fe5 {Таль}", 1)
>>> text, notes[0].code, notes[0].column
('1. cd4 fe5 {Таль}', 'lookalike-letter', 4)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import cache

from pdn.grammar import terminal
from pdn.i18n import N_
from pdn.model import Diagnostic, Line
from pdn.quoting import shown

# Characters that look like the letters, digits and marks of a move record, and the ones they
# are typed for (Unicode's confusables for Latin a-l, x and the hyphen; full-width forms are
# found by their compatibility decomposition, see ``_read_as``).
LOOKALIKES = {
    # Cyrillic
    "а": "a", "А": "A", "В": "B", "с": "c", "С": "C", "ԁ": "d", "е": "e", "Е": "E",
    "һ": "h", "Н": "H", "і": "i", "І": "I", "ј": "j", "Ј": "J", "к": "k", "К": "K",
    "ӏ": "l", "х": "x", "Х": "X",
    # Greek
    "α": "a", "Α": "A", "Β": "B", "ϲ": "c", "Ϲ": "C", "ε": "e", "Ε": "E", "Η": "H",
    "ι": "i", "Ι": "I", "κ": "k", "Κ": "K", "χ": "x", "Χ": "X",
    # dashes for the hyphen
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
}

_MOVE_CHARACTERS = frozenset("0123456789abcdefghijklABCDEFGHIJKLxX-:×.!?* ")

# What is never mended (a comment, a tag, an escape line, a parenthesised group with a word of
# two letters or more, which is prose: moves have digits), and the words outside them that
# have a character that is not ASCII.
_PIECES = re.compile(r"""
    (?P<skip>\{[^}]*\}?|;[^\n]*|\[[^\]\n]*\]?|(?m:^%[^\n]*)
       |\((?=[^()]*(?<!\w)[^\W\d_]{2,}(?!\w))[^()]*\)?)
  | (?P<word>[^\s{}\[\];()]*[^\x00-\x7f][^\s{}\[\];()]*)
""", re.VERBOSE)


@cache
def _move_record() -> re.Pattern[str]:
    return re.compile(terminal("MOVE"))


def _read_as(character: str) -> str | None:
    """The character of a move record that ``character`` stands for, or None."""
    if character in LOOKALIKES:
        return LOOKALIKES[character]
    plain = unicodedata.normalize("NFKC", character)  # full-width ａ, ３, －
    return plain if len(plain) == 1 and plain in _MOVE_CHARACTERS else None


def mend_lookalikes(text: str, first_line: int, first_column: int = 0
                    ) -> tuple[str, list[Diagnostic]]:
    """``text`` (a chunk that starts on line ``first_line`` of its file, after
    ``first_column`` characters of that line) with the look-alike characters of its move
    records read as those they look like, and a warning for each word mended. Text that is
    all ASCII comes back as it is, at once."""
    if text.isascii():
        return text, []
    pieces: list[str] = []
    notes: list[Diagnostic] = []
    done = 0
    for found in _PIECES.finditer(text):
        if found.lastgroup != "word":
            continue
        word = found.group()
        mended = "".join((_read_as(c) or c) if ord(c) > 0x7f else c for c in word)
        if not mended.isascii() or not _move_record().fullmatch(mended):
            continue
        start = found.start()
        pieces += [text[done:start], mended]
        done = found.end()
        notes.append(_note(word, mended, text, start, first_line, first_column))
    if not notes:
        return text, []
    pieces.append(text[done:])
    return "".join(pieces), notes


def _note(word: str, mended: str, text: str, start: int, first_line: int,
          first_column: int) -> Diagnostic:
    line = first_line + text.count("\n", 0, start)
    before = text.rfind("\n", 0, start)
    column = start - before + (first_column if before < 0 else 0)
    swaps = [(c, m) for c, m in dict(zip(word, mended, strict=True)).items() if c != m]
    letters = ", ".join(f"'{c}' ({unicodedata.name(c, f'U+{ord(c):04X}').lower()})"
                        for c, _ in swaps)
    return Diagnostic("lookalike-letter", N_("'{word}' at {where} is typed with {letters} for "
                                             "{meant}: read as '{mended}'").format(
        word=shown(word), where=f"{line}:{column}", letters=letters,
        meant=", ".join(f"'{m}'" for _, m in swaps), mended=mended), line, column, "warning")


def spaced_moves(line: Line) -> Iterator[Diagnostic]:
    """A ``spaced-move`` warning for each move record of ``line`` (and of its variations)
    written with a space inside (``11- 16``, as column-aligned scoresheets pad a square),
    which the grammar reads as the move without it.

    >>> from pdn.reader import read_games
    >>> [note.message for note in spaced_moves(next(read_games("1. 11- 16 23-19 *")).moves)]
    ["'11- 16' at 1:4 is written with a space inside: read as '11-16'"]
    """
    if not _may_be_spaced(line):
        return  # the usual case, told from the move tokens without making the plies
    for ply in line.plies:
        record = ply.record
        text = record.text
        if not text.isprintable() or " " in text:
            joined = "".join(text.split())
            yield Diagnostic("spaced-move", N_("'{word}' at {where} is written with a space "
                                               "inside: read as '{mended}'").format(
                word=shown(text), where=f"{record.line}:{record.column}", mended=joined),
                             record.line, record.column, "warning")
        for variation in ply.variations:
            yield from spaced_moves(variation)


# The one place the grammar's MOVE admits a space inside a move: after the mark between two
# squares (NUMERIC_STEP); whitespace elsewhere in a MOVE token follows a move number or
# parts two records, and a record never ends with a mark.
_SPACED = re.compile("[-xX:×] ")


def _may_be_spaced(line: Line) -> bool:
    """Whether a record of ``line`` or of its variations may have a space inside: one
    search of each run of moves as the reader left it (True for a line whose plies are
    made: they are looked at)."""
    source = line._pending()
    items = getattr(source, "items", None)
    if items is None:
        return True
    for item in items:
        if isinstance(item, Line):
            if _may_be_spaced(item):
                return True
        elif hasattr(item, "variations"):  # variations with no move of their own
            if any(_may_be_spaced(variation) for variation in item.variations):
                return True
        elif item.type == "MOVE" and _SPACED.search(item.value):
            return True
    return False


__all__ = ["LOOKALIKES", "mend_lookalikes", "spaced_moves"]
