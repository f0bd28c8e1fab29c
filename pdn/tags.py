"""Tag pairs: a tag token's name and value, what is wrong with one, the tags at a game's head.

>>> split_tag('[Site "\\\\"64\\\\", 1974"]')
('Site', '"64", 1974')
>>> split_tag("[Round 17]")
('Round', '17')
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from pdn.grammar import terminal
from pdn.i18n import N_
from pdn.model import Diagnostic
from pdn.quoting import shown
from pdn.results import UNKNOWN_RESULTS

RESULTS = frozenset(
    {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "1:0", "0:1", "1/2:1/2"}
)

# Name, then a quoted value (\" escapes a quote; a lone backslash before the closing quote
# stands for itself) or anything up to the "]"; read possessively, so linear in the token.
_TAG_PARTS = re.compile(r'\[\s*([^\s"\]]*)\s*(?:"((?:[^"\\]|\\[^"]|\\"(?!\s*\]\Z)|\\(?="))*+)"'
                        r'\s*\]|(.*)\])', re.S)
_UNESCAPE = re.compile(r'\\([\\"])')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_UNCLOSED_QUOTE = re.compile(r'\[[^"\]]*"[^"]*\]')  # one quote only: [Round "11.1]


def split_tag(text: str) -> tuple[str, str]:
    """Name and value of a tag token: ``[Round "3"]``, ``[Round 17]``, ``[Empty]``."""
    match = _TAG_PARTS.fullmatch(text)
    if match is None:
        return text[1:-1].strip(), ""
    quoted = match.group(2)
    if quoted is not None:
        if "\n" in quoted:
            quoted = _join_lines(match.group(1), quoted)
        return match.group(1), _UNESCAPE.sub(r"\1", quoted)
    rest = match.group(3).rstrip()
    if _UNCLOSED_QUOTE.fullmatch(text):
        return match.group(1), rest.removeprefix('"')
    return match.group(1), rest


_LINE_BREAK = re.compile(r"[ \t\r]*\n[ \t]*")


def _join_lines(name: str, value: str) -> str:
    """A tag value that a program broke over two lines, read as one: a FEN has no spaces, so
    its pieces join as they are (the break may fall inside a number); other text was broken
    at a space, which the break stands for.

    >>> _join_lines("FEN", "W:W31,32:\\nB1,2"), _join_lines("Event", "World \\n Cup")
    ('W:W31,32:B1,2', 'World Cup')
    """
    return _LINE_BREAK.sub("" if name.upper() == "FEN" else " ", value)


def check_tag(text: str, name: str, value: str, line: int, column: int) -> Diagnostic | None:
    """A diagnostic for a tag (its token ``text``, read as ``name`` and ``value``) that cannot
    be what it says, else None."""
    where = f"{line}:{column}"
    if "\n" in text:
        return Diagnostic("tag-over-lines", N_("tag [{name} ...] at {where} runs over two lines: "
                                               "its value is read as one, \"{value}\"").format(
            name=shown(name), where=where, value=shown(value, 60)), line, column, "warning")
    if _UNCLOSED_QUOTE.fullmatch(text):
        return Diagnostic("tag", N_("tag {text} at {where}: the quote is not closed; the value "
                                    "is read up to the ']'").format(text=shown(text, 60),
                                                                    where=where),
                          line, column, "warning")
    if not _TAG_NAME.fullmatch(name):
        return Diagnostic("tag", N_("tag [{name} {value}] at {where}: '{name}' is not a tag "
                                    "name").format(name=shown(name), value=shown(value, 40),
                                                   where=where), line, column, "warning")
    if name == "Result":
        result = value.strip()
        if result not in RESULTS and result not in UNKNOWN_RESULTS:
            return Diagnostic("result", N_("Result tag \"{value}\" at {where} is not a PDN "
                                           "result ({results})").format(
                value=shown(value), where=where,
                results="1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 * 1:0 0:1 1/2:1/2"), line, column)
    return None


@lru_cache(maxsize=1 << 12)
def read_tag(text: str) -> tuple[str, str, bool]:
    """Name and value of a tag token and whether ``check_tag`` finds nothing wrong with it,
    cached by its text (archives repeat their Event, Site and Result tags thousands of
    times)."""
    name, value = split_tag(text)
    return name, value, check_tag(text, name, value, 0, 0) is None


def head_tags(text: str, first_line: int = 1, first_column: int = 0
              ) -> tuple[dict[str, str], list[Diagnostic]]:
    """The tags at the head of a chunk (before any movetext), read without the parser; a
    broken tag line is passed over, so a game with a syntax error keeps its other tags.
    ``first_column``: the characters before the chunk on its first line."""
    tags: dict[str, str] = {}
    diagnostics: list[Diagnostic] = []
    pattern = _tag_pattern()
    position = 0
    line = first_line
    line_start = 0
    while True:
        skip = _HEAD_SKIP.match(text, position)
        position = skip.end()
        match = pattern.match(text, position)
        if match is None:
            broken = _BROKEN_TAG.match(text, position)
            if broken is None:
                break
            position = broken.end()  # a tag line that lost a quote or a bracket: skip it
            continue
        line += text.count("\n", line_start, position)
        line_start = position
        name, value = split_tag(match.group())
        before = text.rfind("\n", 0, position)
        column = position - before + (first_column if before < 0 else 0)
        diagnostic = check_tag(match.group(), name, value, line, column)
        if diagnostic:
            diagnostics.append(diagnostic)
        tags[name] = value
        position = match.end()
    return tags, diagnostics


_BROKEN_TAG = re.compile(r"\[[^\n]*")
_HEAD_SKIP = re.compile(r'(?:\s++|\\r|\{[^}]*\}|;[^\n]*|(?m:^%[^\n]*))*+')


@cache
def _tag_pattern() -> re.Pattern[str]:
    """The grammar's TAG terminal as a compiled regex: one definition of a tag pair."""
    return re.compile(terminal("TAG"))
