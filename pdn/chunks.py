"""Cutting input into games: chunks of lines that each hold one game (rarely several untagged
ones), and, for worker processes, blocks of whole games that a worker cuts into chunks.

``split_chunks`` is a cheap line scan: a new chunk at a tag line that follows movetext, or at
movetext that follows a result. The grammar still separates games inside a chunk; chunks only
bound the damage of errors, so that a broken game never takes the next one with it.

>>> [chunk.line for chunk in split_chunks(['[Event "a"]\\n', '1. 32-28 *\\n', '[Event "b"]\\n'])]
[1, 3]
"""

from __future__ import annotations

import io
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import IO

from lark.exceptions import UnexpectedInput

from pdn.compiled import SCAN_SOURCE, scan_is_stale, wants_pure
from pdn.i18n import N_
from pdn.lexer import NestingError
from pdn.model import Diagnostic
from pdn.moves import move_pattern
from pdn.parser import load_parser
from pdn.quoting import shown


@dataclass(frozen=True)
class Chunk:
    """A piece of the input holding one game (rarely several untagged ones)."""

    text: str
    line: int  # 1-based line of its first character in the whole file
    # the line after it, when that line starts a new game by starting the move numbers again
    # at 1 (``split_chunks``): this chunk's game then ends without a result
    restart_line: int = 0
    # what the cutting mended, for the last game of the chunk (a game glued to its end)
    notes: tuple[Diagnostic, ...] = ()
    # the characters before ``text`` on its first line, a game glued to the end of another
    # on one line: the columns of that line are those in ``text`` plus this (0: none)
    column: int = 0
    # the characters of a game that ran over ``GAME_LIMIT`` (0: none): ``text`` then holds
    # only its head (for its tags), and the game is not parsed
    too_large: int = 0
    # what the native scanner read of a plain game (``pdn._scan``; ``pdn.plain`` builds the
    # game from it), or None: not compared, as the chunk is the same without it
    plain: tuple | None = field(default=None, compare=False, repr=False)


GAME_LIMIT = 1 << 24
"""The most characters a game (a chunk) may hold (16 Mi): the longest game of the public
archives the tests read has 11 KB, and a game with a 10 MB comment still reads. A "game"
beyond it (input with no game boundary, such as a file of zeros or one endless line) is not
parsed: it becomes a ``too-large`` error and reading goes on after it, so memory stays
bounded on any input."""


# A run of tags on a line: each read as the grammar's TAG reads one (possessively: linear).
_TAG_RUN = re.compile(r'(?:\s*\[[^\[\]"\n]*(?:"(?:[^"\\\n]|\\[^"\n]'
                      r'|\\"(?![^\[\]"\n]*\](?:[ \t\r]|\\r)*(?:\n|\Z))|\\(?="))*+'
                      r'"[^\[\]\n]*)?\])+(?:\s|\\r)*')
_TAG_START = re.compile(r'\s*\[[A-Za-z][A-Za-z0-9_]*\s+"')
# A tag line that ends inside its quoted value, and the line that closes such a value: a
# program broke the tag over two lines (the grammar's TAG reads the two as one). Repetitions
# are possessive, as in the grammar: memory stays flat on a line of any length.
_OPEN_VALUE = re.compile(r'\s*\[[^\[\]"\n]*"(?:[^"\\\n\]]++|\\.)*+')
_VALUE_CLOSE = re.compile(r'\s*(?:[^"\\\n\[\]]++|\\.)*+"[ \t]*\]')
_EVENT_START = re.compile(r'\[Event\s+"')
# A tag line opened with a doubled bracket (``[[Event "..."]``; group 1: the first bracket).
_DOUBLED_BRACKET = re.compile(r'\s*(\[)\[[A-Za-z][A-Za-z0-9_]*\s+"')
# The grammar's RESULT, also with spaces around the dash.
_RESULT = (r"(?:1/2\s*[-:]\s*1/2|1\s*[-:]\s*0|0\s*[-:]\s*1|2\s*-\s*0|0\s*-\s*2|1\s*-\s*1"
           r"|0\s*-\s*0|\*)")
ENDS_WITH_RESULT = re.compile(rf"(?:^|\s){_RESULT}\s*$")
# A line of results alone: after a game that ended, the same result written again.
_RESULTS_ONLY = re.compile(rf"\s*(?:{_RESULT}\s*)++")


def _content_outside_comments(text: str, in_comment: bool) -> tuple[bool, bool, int]:
    """Whether ``text`` has something besides comments, whether a ``{`` stays open, and how
    many more ``(`` than ``)`` it has outside comments."""
    content = False
    depth = 0
    position = 0
    while position < len(text):
        if in_comment:
            end = text.find("}", position)
            if end < 0:
                return content, True, depth
            in_comment, position = False, end + 1
            continue
        char = text[position]
        if char == "{":
            in_comment = True
        elif char == ";":
            break
        elif not char.isspace():
            content = True
            depth += (char == "(") - (char == ")")
        position += 1
    return content, in_comment, depth


# A line that starts with the move number 1 of White (not "1..." nor "1. ..." of Black).
_RESTART = re.compile(r"0*1\.(?![ \t]*\.)")


def _has_main_line_move(text: str, depth: int) -> bool:
    """Whether movetext outside comments (a line of it) holds a move or a lost move outside
    variations, ``depth`` of them being open where it starts; read with the grammar's own
    lexer, up to anything it cannot read."""
    first = move_pattern().match(text)
    if depth == 0 and first and "." in first.group(1):  # a numbered move: no other token
        return True
    parser, _ = load_parser()
    try:
        for token in parser.lex(text):
            kind = token.type
            if kind == "LPAR":
                depth += 1
            elif kind == "RPAR":
                depth = max(0, depth - 1)
            elif depth == 0 and kind in ("MOVE", "PLACEHOLDER"):
                return True
    except (UnexpectedInput, NestingError):
        pass
    return False


class _Chunker:
    """The state of ``split_chunks``: the lines of the chunk being gathered."""

    def __init__(self) -> None:
        self.buffer: list[str] = []
        self.start = 1
        self.has_body = False  # movetext seen (not only tags and comments)
        self.ended = False  # the last movetext line ended with a result token
        self.in_comment = False
        self.broken_tag = False  # a tag line that lost a quote or a bracket was seen
        self.open_value = False  # the last line was a tag line that ended inside its value
        self.tagged = False  # a tag line was seen
        self.has_move = False  # a main-line move was seen (looked for in untagged chunks)
        self.depth = 0  # variations (or parenthesised comments) open
        # where a comment still open was opened after a finished game: (buffer index, line)
        self.open_after_end: tuple[int, int] | None = None
        self.notes: list[Diagnostic] = []  # for the chunk being gathered (``Chunk.notes``)
        self.size = 0  # characters of the chunk being gathered, also those not kept
        self.blank = True  # the lines kept are blank
        self.limit = GAME_LIMIT
        self.column = 0  # characters before the chunk's first on its line (``Chunk.column``)

    def flush(self, number: int, restart: bool = False) -> Iterator[Chunk]:
        if self.size > self.limit:  # only its head was kept: a game too large to read
            if self.open_after_end is not None:  # the finished game before it is kept
                index, line = self.open_after_end
                head, self.buffer = self.buffer[:index], self.buffer[index:]
                yield Chunk("".join(head), self.start, column=self.column)
                self.column = 0
                self.size -= sum(getattr(part, "length", len(part)) for part in head)
                self.start = line
            yield self._too_large()
            self._reset(number)
            return
        if self.open_after_end is not None:  # the finished game keeps only its own lines
            index, line = self.open_after_end
            yield Chunk("".join(self.buffer[:index]), self.start, column=self.column)
            self.buffer, self.start, self.open_after_end = self.buffer[index:], line, None
            self.column = 0
        if self.buffer and (self.has_body or any(part.strip() for part in self.buffer)):
            yield Chunk("".join(self.buffer), self.start, number if restart else 0,
                        tuple(self.notes), self.column)
        self._reset(number)

    def _reset(self, number: int) -> None:
        self.buffer, self.start, self.has_body, self.ended = [], number, False, False
        self.notes = []
        self.broken_tag = self.tagged = self.has_move = False
        self.depth = self.size = self.column = 0
        self.open_after_end = None
        self.blank = True

    def _too_large(self) -> Chunk:
        """The chunk of a game over the limit: its head, and an error saying where it is."""
        message = N_("the game at {line}:1 holds {count} characters, more than the {limit} a "
                     "game may hold (text with no game boundary, a tag line or moves after a "
                     "result, reads as one game): it is not read; the games around it "
                     "are").format(line=self.start, count=f"{self.size:,}",
                                   limit=f"{self.limit:,}")
        note = Diagnostic("too-large", message, self.start, 1)
        return Chunk("".join(self.buffer), self.start, 0, (*self.notes, note), self.column,
                     self.size)

    def keep(self, line: str, number: int, column: int = 0) -> None:
        """Add a line (or the piece of one from ``column`` on) to the chunk being gathered;
        past the limit it is counted, not kept, and blank lines there are dropped (a run of
        them is no game, nor part of one)."""
        if not self.buffer and not self.size:
            self.start, self.column = number, column
        length = getattr(line, "length", len(line))  # a line cut short counts whole
        blank = not line.strip()
        if blank and self.size + length > self.limit:
            if self.blank:  # nothing but blank lines yet: the chunk starts after them
                self.buffer, self.size, self.start, self.column = [], 0, number + 1, 0
            return
        self.size += length
        if self.size <= self.limit:
            self.buffer.append(line)
        self.blank = self.blank and blank

    def starts_game(self, line: str) -> bool:
        """Whether ``line``, fed now, would start a new chunk before it, or the chunk being
        gathered is still empty (the fast path of ``split_chunks`` may take a game there):
        only said of lines that start with a tag pair or a blank."""
        if not self.buffer and not self.size:
            return not (self.in_comment or self.open_value or self.notes)
        if line[:1] != "[":
            return False
        return (self.has_body or self.in_comment
                or ((self.broken_tag or self.open_value) and _EVENT_START.match(line) is not None))

    def restarts(self, stripped: str) -> bool:
        """Whether a movetext line starts a new game: untagged play that has not ended and
        has no comment or variation open goes on with a line starting again at move 1."""
        return (self.has_move and not (self.tagged or self.ended or self.in_comment
                                       or self.depth) and _RESTART.match(stripped) is not None)

    def look_for_move(self, rest: str, in_comment: bool) -> None:
        """Note whether a line of untagged movetext (``rest``: what is not a tag or an escape;
        ``in_comment``: it starts inside a comment) holds a main-line move, looking only
        outside comments."""
        if in_comment:
            closed = rest.find("}")
            if closed < 0:
                return
            rest = rest[closed + 1:]
        self.has_move = _has_main_line_move(rest, self.depth)

    def feed(self, line: str, number: int) -> Iterator[Chunk]:
        """Take line ``number``. Games glued one after another on it ("* [Event ...") are
        taken one piece at a time, each piece cut from the line once, without recursion:
        time and memory stay linear in the line however many games it holds."""
        column = 0  # where the piece taken starts on the line
        piece = line
        while True:
            glued = yield from self._feed(piece, number, column)
            if glued:
                column += glued
            elif column + len(piece) < len(line):  # not foreseen: the rest goes on the line
                column += len(piece)
            else:
                return
            piece = line[column:_next_glued(line, column)]

    def _feed(self, line: str, number: int, column: int) -> Iterator[Chunk]:
        """Take a line, or the piece of one from ``column`` on; return where in it a game
        glued to the previous one starts (its head taken, that game flushed), or 0."""
        doubled = None if self.in_comment else _DOUBLED_BRACKET.match(line)
        if doubled is not None and type(line) is str:
            # "[[Event ...": a doubled bracket read as one (the first becomes a space, so the
            # columns stay those of the file), with a warning on the game it starts.
            at = doubled.start(1)
            glued = yield from self._feed(f"{line[:at]} {line[at + 1:]}", number, column)
            self.notes.append(Diagnostic(
                "doubled-bracket", N_("tag '{tag}' at {line}:{column} opens with a doubled "
                                      "'[': read as one").format(
                    tag=shown(line[at:].split(chr(34))[0].strip()), line=number,
                    column=column + at + 1), number, column + at + 1, "warning"))
            return glued
        stripped = line.lstrip()
        closes_value = _VALUE_CLOSE.match(stripped) if self.open_value else None
        self.broken_tag = self.broken_tag or (self.open_value and closes_value is None)
        self.open_value = False
        if closes_value:  # the second line of a tag broken over two: still the head
            rest = stripped[closes_value.end():]
        elif stripped.startswith("[") and (not self.in_comment or _TAG_START.match(stripped)):
            if self.has_body or self.in_comment or (self.broken_tag
                                                    and _EVENT_START.match(stripped)):
                yield from self.flush(number)  # a broken game must not take the next one
            self.in_comment, self.open_after_end = False, None
            tags = _TAG_RUN.match(stripped)
            rest = stripped[tags.end():] if tags else ""  # a broken tag line is still a tag line
            self.open_value = tags is None and _OPEN_VALUE.fullmatch(stripped.rstrip()) is not None
            self.broken_tag = (self.broken_tag or (tags is None and not self.open_value)
                               or rest.startswith("["))
            self.tagged = True
        elif stripped.startswith("%") and not self.in_comment:
            rest = ""
        else:
            rest = stripped
            if self.restarts(stripped):
                yield from self.flush(number, restart=True)
        was_open = self.in_comment
        plain = not (was_open or "{" in rest or "}" in rest or ";" in rest)
        if not plain:
            content, self.in_comment, opened = _content_outside_comments(rest, was_open)
            if (self.in_comment and not was_open and self.ended and self.buffer
                    and self.size <= self.limit):
                self.open_after_end = (len(self.buffer), number)
            elif not self.in_comment:
                self.open_after_end = None
        else:
            content = bool(rest.strip())
            opened = rest.count("(") - rest.count(")") if "(" in rest or ")" in rest else 0
            tag = _TAG_START.search(rest, 1) if "[" in rest else None
            if tag and rest[: tag.start()].strip():
                # A game glued to the end of the previous one ("0-1[Event ..."): split the
                # line, and pad the second piece so that its columns stay those of the file.
                cut = len(line) - len(rest) + tag.start()
                yield from self._feed(line[:cut] + "\n", number, column)
                self.notes.append(_glued_tag(line, cut, column, number))
                yield from self.flush(number)
                return cut
        if content and self.ended and not _RESULTS_ONLY.fullmatch(rest):
            yield from self.flush(number)
        if not (self.tagged or self.has_move):
            self.look_for_move(rest, was_open)
        self.depth = max(0, self.depth + opened)
        if content:
            self.has_body = True
            # only what follows the line's last closed comment is trusted to end with a
            # result (the grammar still separates games inside a chunk; chunks only bound
            # the damage of errors)
            tail = rest[rest.rfind("}") + 1:]
            self.ended = (not self.in_comment and "{" not in tail and ";" not in rest
                          and ENDS_WITH_RESULT.search(tail) is not None)
        self.keep(line, number, column)
        return 0


def _glued_tag(line: str, cut: int, column: int, number: int) -> Diagnostic:
    """The note on a game whose movetext runs into the next game's first tag on one line
    (at ``cut`` of ``line``, a piece of the file's line from ``column`` on)."""
    tag = shown(line[cut:].split('"')[0].strip())
    at = column + cut + 1
    return Diagnostic("glued-game", N_("the movetext runs into the tag '{tag}' at "
                                       "{line}:{column} with no line break: the next game "
                                       "starts there").format(tag=tag, line=number, column=at),
                      number, at, "warning")


_SPACES = re.compile(r"\s*")


def _next_glued(line: str, start: int) -> int:
    """Where the piece of ``line`` from ``start`` (a glued game: blanks, then its tags,
    then its movetext) may end: past the start of the first tag after its movetext (where
    ``_Chunker._feed`` finds the next glued game), else at the line's end. Only the piece
    is looked at, so that cutting a line into its games is linear."""
    at = _SPACES.match(line, start).end()
    doubled = _DOUBLED_BRACKET.match(line, start)
    if doubled is not None:
        at = doubled.start(1) + 1
    tags = _TAG_RUN.match(line, at)
    if tags is None:
        return len(line)
    rest = tags.end()
    tag = _TAG_START.search(line, rest + 1)
    if tag is None or not line[rest:tag.start()].strip():
        return len(line)
    return tag.end()  # the piece holds the next tag's start, for ``_feed`` to find it


def split_chunks(lines: Iterable[str], first_line: int = 1) -> Iterator[Chunk]:
    """Cut lines into game chunks.

    A chunk ends before a tag line that follows movetext (also a tag glued to the end of a
    movetext line), before an Event tag that follows a broken tag line (a head cut short
    spoils its own game only), and before movetext that follows a line ending in a result
    token. Lines inside a ``{}`` comment never split, except a line that clearly starts a
    tag pair (``[Name "``): an unclosed comment then spoils one game, not the next one. In
    movetext without tags (opening books, engine output: one game per line), a line that
    starts with move number ``1.`` of White begins a new game when the play before it has a
    main-line move and no comment or variation open; that chunk carries the line as
    ``restart_line``. ``%`` escape lines and comments alone are not movetext, so a comment
    before the first tag stays with the game after it.
    """
    chunker = _Chunker()
    number = first_line - 1
    if getattr(lines, "readline", None) is None:
        for number, line in enumerate(lines, first_line):
            yield from chunker.feed(line, number)
        yield from chunker.flush(number + 1)
        return
    pieces = (_pieces(lines, GAME_LIMIT) if getattr(lines, NEWLINE_MARK, False)
              else _joined(_batches(_bounded_lines(lines, GAME_LIMIT))))
    for piece in pieces:
        if type(piece) is not str:  # a line cut short (``_LongLine``)
            yield from chunker.feed(piece, number + 1)
            number += 1
            continue
        yield from _split_text(chunker, piece, number + 1)
        number += piece.count("\n") + (piece[-1] != "\n")
    yield from chunker.flush(number + 1)


# ---- the fast path: a plain game taken whole --------------------------------------------

# A plain game, as ``_Chunker.feed`` would gather it line by line and flush it at the tag
# line that follows: blank lines, tag pairs each alone on its line, then lines of movetext,
# then blank lines, up to a line that starts with "[". A line of movetext holds words of
# printable ASCII but "%()[]{};\", none with a "-" or ":" at its edge (so no comment, tag,
# escape, variation nor a result written with spaces); the last word of its last line,
# and of no other, is a result token (``_ends_once``): any other split the line scan would
# make is then ruled out. The native scanner (``pdn/_scan.c``) finds the same games.
_BLANK_LINE = r"[ \t]*\n"
_TAG_PAIR_LINE = r'\[[A-Za-z][A-Za-z0-9_]*[ ]+"[^"\\\n\r\[\]]*"\]\n'
_WORD = r"[!-$&'*-,.-9<-Z^-z|~]++(?:[-:][!-$&'*-,.-9<-Z^-z|~]++)*+"
_MOVE_LINE = rf"[ \t]*{_WORD}(?:[ \t]+{_WORD})*+[ \t]*\n"
_PLAIN_GAME = re.compile(
    rf"(?:{_BLANK_LINE})*{_TAG_PAIR_LINE}(?:{_TAG_PAIR_LINE}|{_BLANK_LINE})*"
    rf"(?P<moves>{_MOVE_LINE}(?:(?:{_BLANK_LINE})*{_MOVE_LINE})*+)"
    rf"(?:{_BLANK_LINE})*(?=\[)")
# The grammar's RESULT with no space inside, as a whole word.
_WORD_RESULT = re.compile(_RESULT.replace(r"\s*", ""))


def _ends_once(moves: str) -> bool:
    """Whether the last line of ``moves`` (lines of ``_MOVE_LINE`` and blank lines, the
    last one not blank) ends with a result token and no other line does, as
    ``ENDS_WITH_RESULT`` reads them."""
    lines = moves.rstrip().split("\n")
    last = lines.pop()
    if _WORD_RESULT.fullmatch(last.rsplit(None, 1)[-1]) is None:
        return False
    ending = _WORD_RESULT.fullmatch
    return not any(line and line[-1] in "012*" and ending(line.rsplit(None, 1)[-1])
                   for line in map(str.rstrip, lines))


def _plain_games(text: str, start: int, limit: int) -> tuple[list[tuple], int]:
    """The plain games from offset ``start`` of ``text`` (where a chunk may start), each of
    at most ``limit`` characters, as ``(end, newlines, None)``, and the offset reached: the
    Python twin of ``pdn._scan.scan``, which also reads each game for ``pdn.plain``."""
    games: list[tuple] = []
    match = _PLAIN_GAME.match
    while (found := match(text, start)) is not None and found.end() - start <= limit \
            and _ends_once(found.group("moves")):
        end = found.end()
        games.append((end, text.count("\n", start, end), None))
        start = end
    return games, start


NO_FAST_PATH_VARIABLE = "PDN_NO_FASTPATH"


@cache
def native_scanner() -> ModuleType | None:
    """The native scanner (``pdn._scan``), or None: not built, a pure-Python build asked for,
    the fast path turned off (``PDN_NO_FASTPATH=1``), or, with a warning, a build older than
    its source."""
    if wants_pure() or os.environ.get(NO_FAST_PATH_VARIABLE, "") not in ("", "0"):
        return None
    try:
        from pdn import _scan  # type: ignore[attr-defined]
    except ImportError:
        return None
    if scan_is_stale():
        warnings.warn(f"the reader's native scanner no longer matches {SCAN_SOURCE}: reading "
                      "with Python (rebuild with `make` or `pip install -e .`)", RuntimeWarning,
                      stacklevel=2)
        return None
    return _scan


def _scanner() -> Callable[[str, int, int], tuple[list[tuple], int]]:
    native = native_scanner()
    return native.scan if native is not None else _plain_games


# How many characters of whole lines the fast path looks at in one piece.
_BATCH_CHARACTERS = 1 << 18

# The attribute that marks a stream whose lines end at "\n" alone (``newline_lines``).
NEWLINE_MARK = "pdn_lines_end_at_newline"


def newline_lines(stream: IO[str]) -> IO[str]:
    """Mark a text stream whose lines end at "\n" alone (decoded with universal newlines,
    or a ``StringIO`` with ``newline="\n"``): ``split_chunks`` then reads it in large
    pieces rather than line by line."""
    setattr(stream, NEWLINE_MARK, True)
    return stream


def _split_text(chunker: _Chunker, text: str, first: int) -> Iterator[Chunk]:
    """Feed whole lines of text (the first is line ``first`` of the file) to ``chunker``,
    taking each plain game (``_PLAIN_GAME``) whole where the line scan would start a new
    chunk at its first line, and finish it at the line after it: the same chunks, without
    the scan of each line."""
    scan = _scanner()
    find = text.find
    offset, number, size = 0, first, len(text)
    while offset < size:
        end = find("\n", offset) + 1 or size
        line = text[offset:end]
        if line[0] in "[ \t\n" and chunker.starts_game(line):
            games, _ = scan(text, offset, GAME_LIMIT)
            if games:
                yield from chunker.flush(number)
                chunker.in_comment = chunker.open_value = False
                for stop, lines, plain in games:
                    yield Chunk(text[offset:stop], number, plain=plain)
                    number += lines
                    offset = stop
                chunker.start = number
                continue
        yield from chunker.feed(line, number)
        number += 1
        offset = end


def _pieces(stream: IO[str], limit: int) -> Iterator[str]:
    """The text of a stream whose lines end at "\n" (``newline_lines``) in pieces of whole
    lines of about ``_BATCH_CHARACTERS`` characters, none longer than ``limit``: a longer
    line comes alone as its head, a ``_LongLine`` that knows its length (as
    ``_bounded_lines`` gives it)."""
    read, readline = stream.read, stream.readline
    while piece := read(_BATCH_CHARACTERS):
        if piece[-1] == "\n":
            yield piece
            continue
        cut = piece.rfind("\n") + 1
        line = piece[cut:] + readline(limit + 1 - (len(piece) - cut))
        if len(line) <= limit or line[-1] in "\r\n":
            yield piece[:cut] + line
            continue
        if cut:
            yield piece[:cut]
        yield _long_line(line, readline, limit)


def _batches(lines: Iterable[str]) -> Iterator[list[str]]:
    """The lines in lists of about ``_BATCH_CHARACTERS`` characters; a line cut short
    (``_LongLine``) comes in a list of its own."""
    batch: list[str] = []
    size = 0
    for line in lines:
        if type(line) is not str:
            if batch:
                yield batch
            yield [line]
            batch, size = [], 0
            continue
        batch.append(line)
        size += len(line)
        if size >= _BATCH_CHARACTERS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _joined(batches: Iterable[list[str]]) -> Iterator[str]:
    """Each batch of lines as one text; a line cut short (``_LongLine``) as it is."""
    for batch in batches:
        yield batch[0] if type(batch[0]) is not str else "".join(batch)


class _LongLine(str):
    """The head of a line longer than a game may be, with the length of the whole line."""

    length: int


def _bounded_lines(lines: Iterable[str], limit: int) -> Iterator[str]:
    """The lines of a stream (anything with ``readline``), none held longer than ``limit``
    characters: a longer one comes as its head, a ``_LongLine`` that knows its length, and
    the rest of it is read and dropped. Other iterables come as they are."""
    readline = getattr(lines, "readline", None)
    if readline is None:
        yield from lines
        return
    while line := readline(limit + 1):
        if len(line) <= limit or line[-1] in "\r\n":
            yield line
            continue
        yield _long_line(line, readline, limit)


def _long_line(head: str, readline: Callable[[int], str], limit: int) -> _LongLine:
    """A line longer than ``limit`` whose ``head`` was read: the rest read and dropped, its
    head kept with the length of the whole line."""
    length = len(head)
    while (more := readline(limit)) and more[-1] not in "\r\n":
        length += len(more)
    long = _LongLine(head[:limit] + "\n")
    long.length = length + len(more)
    return long


# ---- blocks: pieces of whole games for worker processes -----------------------------------

# A sure game end is a tag line that follows blank lines and, before them, a line with
# something on it but no "{", "}", ";" or "[" (nor a "%" first): ``split_chunks`` cuts there
# whatever came before (movetext, or a comment left open) and starts afresh, so a piece of
# the input that begins there is cut into chunks exactly as the whole input would be.
TAG_LINE = re.compile(r'\[[A-Za-z][A-Za-z0-9_]*[ \t]+"')
ENDING_LINE = re.compile(r"[ \t]*[^\s{};\[%][^\n{};\[]*")

# Without a sure end after a result in this many block sizes, any sure end will do.
_BLOCK_SEARCH_LIMIT = 16


def split_blocks(stream: IO[str], size: int) -> Iterator[Chunk]:
    """The text of a stream in pieces of about ``size`` characters that end where a game
    ends, for workers that cut their own piece into chunks (``block_chunks``): the main
    process only looks for those places, it does not run the chunker.

    A piece holds whole games and chunks there as in the whole input. Its last game ends
    with a result (so no game separator is missing between pieces) unless the input went
    ``_BLOCK_SEARCH_LIMIT`` sizes without one; then any sure end will do. Input with no sure
    end in that search is cut at the last likely end (the next line of moves after a line
    that ends with a result, as opening books write a game per line) within its first
    ``size`` characters, so that a file of untagged games travels in pieces of about
    ``size`` as a tagged one does (an 11 MB file of 200,000 such games was one piece,
    whose results took 1.2 GB); without one there, once a piece reaches
    ``block_limit(size)`` characters, at its last likely end, else at a line break, else
    anywhere.

    Time is linear and memory bounded on any input: each character is searched a bounded
    number of times, and while no end is found each read doubles what is held (up to the
    limit), so that joining the reads costs no more than reading them; at most
    ``block_limit(size) + size`` characters are held.
    """
    hard = block_limit(size)
    pending, line, want, likely_from = "", 1, size, 0
    while data := stream.read(want):
        searched = len(pending)
        pending += data
        cut = _sure_end(pending, searched, after_result=True)
        cuts: list[int] = []
        if not cut and len(pending) > _BLOCK_SEARCH_LIMIT * size:
            # the first time over the limit, all of it; then only what came since
            start = searched if searched > _BLOCK_SEARCH_LIMIT * size else 0
            cut = _sure_end(pending, start, after_result=False)
            if not cut:  # no tag line after a game end: games without tags, one a line?
                cuts = _likely_cuts(pending, size, _BLOCK_SEARCH_LIMIT * size)
                cut = cuts[-1] if cuts else 0
        if not cut and len(pending) >= hard:
            cut = (_likely_end(pending, likely_from) or pending.rfind("\n") + 1
                   or len(pending))
            likely_from = len(pending)
        if cut:
            block, pending = pending[:cut], pending[cut:]
            for start, end in zip([0, *cuts], cuts or [cut], strict=False):
                yield Chunk(block[start:end], line)
                line += block.count("\n", start, end)
            likely_from, want = max(0, likely_from - cut), size
        else:
            want = max(size, min(len(pending), hard - len(pending)))
    if pending:
        yield Chunk(pending, line)


def block_limit(size: int) -> int:
    """The most characters a piece of ``split_blocks`` holds: the search for a sure end,
    and room for two games as large as a game may be (``GAME_LIMIT``)."""
    return _BLOCK_SEARCH_LIMIT * size + 2 * GAME_LIMIT


def _likely_cuts(text: str, size: int, keep: int) -> list[int]:
    """Offsets that cut ``text`` at likely ends (``_likely_end``) into pieces of at most
    ``size`` characters, from its start until at most ``keep`` characters are left."""
    cuts = [0]
    while len(text) - cuts[-1] > keep and (
            cut := _likely_end(text, cuts[-1] + 1, cuts[-1] + size)) > cuts[-1]:
        cuts.append(cut)
    return cuts[1:]


def _likely_end(text: str, start: int, end: int | None = None) -> int:
    """The offset of the last line, at or after ``start`` (roughly) and starting before
    ``end`` (None: anywhere), of movetext other than results that follows a line ending
    with a result (and blank lines), neither with a ``{``, ``}``, ``;``, ``[`` (nor a ``%``
    first); or 0. ``split_chunks`` starts a game there unless a comment opened before is
    still open."""
    position = len(text) if end is None else min(end, len(text))
    while (newline := text.rfind("\n", max(0, start - 1), position)) >= 0:
        position = newline
        ending = text[text.rfind("\n", 0, newline) + 1 : newline]
        if not (ENDING_LINE.fullmatch(ending) and ENDS_WITH_RESULT.search(ending)):
            continue
        cut = newline + 1
        while (after := text.find("\n", cut)) >= 0 and not text[cut:after].strip(" \t\r"):
            cut = after + 1
        following = text[cut:after]
        # whole in the text, and movetext the chunker starts a game with after a result
        if after >= 0 and ENDING_LINE.fullmatch(following) and not _RESULTS_ONLY.fullmatch(
                following):
            return cut
    return 0


def _sure_end(text: str, start: int, *, after_result: bool) -> int:
    """The offset of the last tag line at or after ``start`` (roughly) that follows a sure
    game end, or 0."""
    position = len(text)
    while (newline := text.rfind("\n[", max(0, start - 1), position)) >= 0:
        position = newline
        if not TAG_LINE.match(text, newline + 1):
            continue
        end = newline  # walk back over blank lines to the line before them
        while (line_start := text.rfind("\n", 0, end) + 1) > 0 and \
                not text[line_start:end].strip(" \t\r"):
            end = line_start - 1
        ending = text[line_start:end]
        if ENDING_LINE.fullmatch(ending) and (
                not after_result or ENDS_WITH_RESULT.search(ending)):
            return newline + 1
    return 0


def block_chunks(block: Chunk) -> Iterator[Chunk]:
    """The game chunks of a piece from ``split_blocks`` (numbered as in the whole input)."""
    return split_chunks(newline_lines(io.StringIO(block.text, newline="\n")), block.line)
