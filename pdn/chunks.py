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
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from lark.exceptions import UnexpectedInput

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


_TAG_RUN = re.compile(r'(?:\s*\[[^\[\]"\n]*(?:"(?:[^"\\\n]|\\.?)*"[^\[\]\n]*)?\])+(?:\s|\\r)*')
_TAG_START = re.compile(r'\s*\[[A-Za-z][A-Za-z0-9_]*\s+"')
# A tag line that ends inside its quoted value, and the line that closes such a value: a
# program broke the tag over two lines (the grammar's TAG reads the two as one).
_OPEN_VALUE = re.compile(r'\s*\[[^\[\]"\n]*"(?:[^"\\\n\]]|\\.)*')
_VALUE_CLOSE = re.compile(r'\s*(?:[^"\\\n\[\]]|\\.)*"[ \t]*\]')
_EVENT_START = re.compile(r'\[Event\s+"')
# The grammar's RESULT, also with spaces around the dash.
_RESULT = (r"(?:1/2\s*[-:]\s*1/2|1\s*[-:]\s*0|0\s*[-:]\s*1|2\s*-\s*0|0\s*-\s*2|1\s*-\s*1"
           r"|0\s*-\s*0|\*)")
ENDS_WITH_RESULT = re.compile(rf"(?:^|\s){_RESULT}\s*$")
# A line of results alone: after a game that ended, the same result written again.
_RESULTS_ONLY = re.compile(rf"\s*(?:{_RESULT}\s*)+")


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

    def flush(self, number: int, restart: bool = False) -> Iterator[Chunk]:
        if self.open_after_end is not None:  # the finished game keeps only its own lines
            index, line = self.open_after_end
            yield Chunk("".join(self.buffer[:index]), self.start)
            self.buffer, self.start, self.open_after_end = self.buffer[index:], line, None
        if self.buffer and (self.has_body or any(part.strip() for part in self.buffer)):
            yield Chunk("".join(self.buffer), self.start, number if restart else 0,
                        tuple(self.notes))
        self.buffer, self.start, self.has_body, self.ended = [], number, False, False
        self.notes = []
        self.broken_tag = self.tagged = self.has_move = False
        self.depth = 0

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
            if self.in_comment and not was_open and self.ended and self.buffer:
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
                yield from self.feed(line[:cut] + "\n", number)
                self.notes.append(_glued_tag(line, cut, number))
                yield from self.flush(number)
                yield from self.feed(" " * cut + line[cut:], number)
                return
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
        if not self.buffer:
            self.start = number
        self.buffer.append(line)


def _glued_tag(line: str, cut: int, number: int) -> Diagnostic:
    """The note on a game whose movetext runs into the next game's first tag on one line."""
    tag = shown(line[cut:].split('"')[0].strip())
    return Diagnostic("glued-game", f"the movetext runs into the tag '{tag}' at {number}:"
                      f"{cut + 1} with no line break: the next game starts there", number,
                      cut + 1, "warning")


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
    for number, line in enumerate(lines, first_line):
        yield from chunker.feed(line, number)
    yield from chunker.flush(number + 1)


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
    ``_BLOCK_SEARCH_LIMIT`` sizes without one; input with no sure game end is one piece.
    """
    pending, line = "", 1
    while data := stream.read(size):
        searched = len(pending)
        pending += data
        cut = _sure_end(pending, searched, after_result=True)
        if not cut and len(pending) > _BLOCK_SEARCH_LIMIT * size:
            cut = _sure_end(pending, 0, after_result=False)
        if cut:
            block, pending = pending[:cut], pending[cut:]
            yield Chunk(block, line)
            line += block.count("\n")
    if pending:
        yield Chunk(pending, line)


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
    return split_chunks(io.StringIO(block.text, newline="\n"), block.line)
