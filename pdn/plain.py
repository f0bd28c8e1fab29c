"""The reader's fast path: a game of the most common shape read without the parser.

A chunk that is blank lines, tag pairs each alone on its line (``[Name "value"]``), then one
run of move records with only whitespace between them and a result token after it, is
what the grammar reads as TAG tokens, ONE MOVE token (``pdn.lexer``) and a RESULT. For such
a chunk ``plain_game`` builds the very ``Game`` the parser's transformer (``pdn.movetext``)
builds, with the same lazy main line over the same MOVE token, without running Lark. It
declines (returns None) any chunk it is not sure of, and everything that would bring a
note: a tag the reader would warn about or that repeats a name, a move with a space inside
or a number too long, a character that is not ASCII in the movetext, a result written with
spaces, glued to what follows or disagreeing with the Result tag. Those, and every other
shape (comments, variations, NAGs, numbers apart from their moves, lost moves), go through
the grammar, which stays the reference: tests/notation/test_plain_games.py checks that the
two agree on every game of the real archives.

Where the chunker's native scanner (``pdn/_scan.c``) found the chunk, it has read it too
(``Chunk.plain``: the tag lines, the run of moves and the result, found as the patterns
below find them), and ``plain_game`` only builds the game; it also splits a run into its
records (``_PlainRun.tokens``). tests/notation/test_scan.py checks that the two readings
agree.

``PDN_NO_FASTPATH=1`` in the environment turns the fast path off (``FAST_PATH``), the native
scanner with it.

>>> from pdn.chunks import Chunk, native_scanner
>>> game = plain_game(Chunk('[Event "x"]\\n[Result "1-0"]\\n1. 32-28 19-23 1-0\\n', 5), None)
>>> game.tags, game.result, game.line, game.main_line_tokens()
({'Event': 'x', 'Result': '1-0'}, '1-0', 5, ['1. 32-28', '19-23'])
>>> plain_game(Chunk('[Event "x"]\\n1. 32-28 {good} 19-23 1-0\\n', 1), None) is None
True
"""

from __future__ import annotations

import os
import re
from functools import cache
from typing import NamedTuple

from lark import Token

from pdn.chunks import Chunk, native_scanner
from pdn.game import Game
from pdn.model import Line
from pdn.movetext import _check_plycount, _LineText
from pdn.parser import load_parser
from pdn.results import results_disagree
from pdn.tags import read_tag

FAST_PATH = os.environ.get("PDN_NO_FASTPATH", "") in ("", "0")
"""Whether the reader takes plain games without the parser (``PDN_NO_FASTPATH=1``: no)."""

# Blank lines and tag pairs each alone on its line, then the whitespace before the moves.
_HEAD = re.compile(r'(?:[ \t]*\n)*(?:\[[A-Za-z][A-Za-z0-9_]*[ ]+"[^"\\\n\r\[\]]*"\][ \t]*\n'
                   r"(?:[ \t]*\n)*)+[ \t\n]*")
_TAG = re.compile(r'\[[^\n]*\]')
_GAP = re.compile(r"[ \t\n]*")
_END = re.compile(r"[ \t\n]*\Z")


# One move record of the common shapes, as the grammar's MOVE reads it where whitespace
# follows it: a move number (no leading zero, at most six digits: a game of a million moves
# is no record), then a numeric move of squares 1 to 99 or an
# alphanumeric one of an 8x8 board, with "-", "x" (or ":" between named squares) and no
# strength mark. Much faster than MOVE, which knows every notation; a run of anything else
# is left to the grammar.
_RECORD = (r"(?:[1-9][0-9]{0,5}\.(?:\.\.)?[ \t\n]*)?"
           r"(?:[1-9][0-9]?(?:[-x][1-9][0-9]?)+|[a-h][1-8](?:[-x:][a-h][1-8])+)(?![^ \t\n])")
# The records of a run that ``_RECORD`` matched, told apart by the whitespace between them
# (a move number stays with its move).
_RECORDS = re.compile(r"(?:[0-9]+\.+[ \t\n]*)?[^ \t\n]+")


class _Patterns(NamedTuple):
    moves: re.Pattern[str]  # a run of records that the lexer makes ONE MOVE token
    result: re.Pattern[str]  # the RESULT token


@cache
def _patterns() -> _Patterns | None:
    """The run and the result as the lexer reads them, or None if the grammar's tokens are
    not as this module reads them (then the fast path stays off). The lexer ends a run of
    moves where RESULT, the one terminal that outranks MOVE, matches; of the records of
    ``_RECORD`` it can only match one that starts with "1-1" (its other forms start with
    "0", "2-0", "1-0", "1/2" or "*"), so it is tried there only."""
    scanner = load_parser()[0]._scanner
    if scanner.outranking_names != ("RESULT",):
        return None
    result = scanner.outranking.pattern
    record = f"(?!(?=1-1)(?:{result})){_RECORD}"
    return _Patterns(re.compile(f"{record}(?:[ \t\n]+{record})*+"), scanner.outranking)


class _PlainRun(_LineText):
    """A main line that is one run of ``_RECORD`` moves: its records are told apart by the
    whitespace between them (the grammar's MOVE finds the same ones there, slower)."""

    __slots__ = ()

    def tokens(self) -> list[str]:
        native = native_scanner()
        if native is not None:
            return native.tokens(self.items[0].value)
        return _RECORDS.findall(self.items[0].value)

    def run_text(self) -> str:
        """The run as written: ``tokens`` are its records split at whitespace as
        ``_RECORDS`` splits it (``Line.move_run``)."""
        return self.items[0].value

    def ply_count(self) -> int:
        return len(self.tokens())


# The grammar's RESULT as the native scanner reads it (``result_after_1_1`` and
# ``result_word`` of pdn/_scan.c): where the grammar's differs, the scanner's readings are
# not used.
_NATIVE_RESULT = (r"(?:1\/2[ \t]*[-:][ \t]*1\/2|1[ \t]*[-:][ \t]*0|0[ \t]*[-:][ \t]*1"
                  r"|2[ \t]*-[ \t]*0|0[ \t]*-[ \t]*2|1[ \t]*-[ \t]*1|0[ \t]*-[ \t]*0|\*)"
                  r"(?:(?![0-9A-Za-z\/])|(?=0*[1-9][0-9]*\.|(?:1\/2|[012])[-:][012](?![0-9])"
                  r"|\*))").replace(r"\t", "\t")  # Lark writes the tab itself


def plain_game(chunk: Chunk, source: str | None) -> Game | None:
    """The game of ``chunk`` as the parser would read it, or None where the chunk is not
    a plain game (see the module's docstring)."""
    patterns = _patterns()
    if patterns is None or chunk.too_large:
        return None
    if chunk.plain is not None and patterns.result.pattern == _NATIVE_RESULT:
        return _game(chunk, source, *chunk.plain)
    text = chunk.text
    head = _HEAD.match(text)
    if head is None:
        return None
    start = head.end()
    run = patterns.moves.match(text, start)
    if run is None:
        return None
    at = _GAP.match(text, run.end()).end()
    result = patterns.result.match(text, at)
    if result is None or not _END.match(text, result.end()):
        return None
    written = result.group()
    if written != "".join(written.split()):  # spaces inside: a result-spelling note
        return None
    tags = [tag.group() for tag in _TAG.finditer(text, 0, start)]
    first = text.count("\n", 0, text.index("[")) + 1 if tags else 0
    line = text.count("\n", 0, start)
    before = text.rfind("\n", 0, start)
    column = start - before + (chunk.column if before < 0 else 0)
    return _game(chunk, source, tags, first, start, run.end(), line + 1, column, written)


def _game(chunk: Chunk, source: str | None, tag_texts: list[str] | tuple[str, ...], first: int,
          start: int, end: int, line: int, column: int, written: str) -> Game | None:
    """The game of a plain chunk read: its tag tokens, the line of the first (in the chunk),
    the run of moves ``text[start:end]`` at ``line`` and ``column``, and the result; or None
    where a tag or the result would bring a note."""
    tags: dict[str, str] = {}
    for tag in tag_texts:
        name, value, sound = read_tag(tag)
        if not sound or name in tags:
            return None
        tags[name] = value
    tag_result = tags.get("Result", "")
    if tag_result != written and results_disagree(written, tag_result):
        return None  # the result disagrees with the Result tag: a note
    offset = chunk.line - 1
    token = Token("MOVE", chunk.text[start:end], start, line, column)
    game = Game(tags=tags, moves=Line.lazy(_PlainRun([token], offset, True, True), [], None),
                result=written, line=first + offset, source=source)
    _check_plycount(game)
    game.diagnostics.extend(chunk.notes)
    return game
