"""The Lark side of reading PDN: game chunks, the parser, the transformer, error messages.

``split_chunks`` cuts a stream of lines into game chunks with a cheap scan (a new chunk at a
tag line that follows movetext, or at movetext that follows a result); ``load_parser`` gives
the LALR parser of ``grammar.lark`` with a ``GameTransformer`` that builds ``Game`` values
while parsing (no tree); ``explain_error`` turns a Lark error into a ``Diagnostic`` a person
understands, located in the whole file.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import IO

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer

from pdn.model import Diagnostic, Game, Line, MoveRecord, Ply

RESULTS = frozenset(
    {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "1:0", "0:1", "1/2:1/2"}
)
# Result tag values that only say "unknown": accepted without a word.
UNKNOWN_RESULTS = frozenset({"", "?", "-"})


@dataclass(frozen=True)
class Chunk:
    """A piece of the input holding one game (rarely several untagged ones)."""

    text: str
    line: int  # 1-based line of its first character in the whole file
    # the line after it, when that line starts a new game by starting the move numbers again
    # at 1 (``split_chunks``): this chunk's game then ends without a result
    restart_line: int = 0


# ---- chunks -----------------------------------------------------------------------------------

_TAG_RUN = re.compile(r'(?:\s*\[[^\[\]"\n]*(?:"(?:[^"\\\n]|\\.?)*"[^\[\]\n]*)?\])+(?:\s|\\r)*')
_TAG_START = re.compile(r'\s*\[[A-Za-z][A-Za-z0-9_]*\s+"')
_EVENT_START = re.compile(r'\[Event\s+"')
_ENDS_WITH_RESULT = re.compile(
    r"(?:^|\s)(?:1/2-1/2|1/2:1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|\*)\s*$"
)


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
    first = _move_pattern().match(text)
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
        self.tagged = False  # a tag line was seen
        self.has_move = False  # a main-line move was seen (looked for in untagged chunks)
        self.depth = 0  # variations (or parenthesised comments) open
        # where a comment still open was opened after a finished game: (buffer index, line)
        self.open_after_end: tuple[int, int] | None = None

    def flush(self, number: int, restart: bool = False) -> Iterator[Chunk]:
        if self.open_after_end is not None:  # the finished game keeps only its own lines
            index, line = self.open_after_end
            yield Chunk("".join(self.buffer[:index]), self.start)
            self.buffer, self.start, self.open_after_end = self.buffer[index:], line, None
        if self.buffer and (self.has_body or any(part.strip() for part in self.buffer)):
            yield Chunk("".join(self.buffer), self.start, number if restart else 0)
        self.buffer, self.start, self.has_body, self.ended = [], number, False, False
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
        if stripped.startswith("[") and (not self.in_comment or _TAG_START.match(stripped)):
            if self.has_body or self.in_comment or (self.broken_tag
                                                    and _EVENT_START.match(stripped)):
                yield from self.flush(number)  # a broken game must not take the next one
            self.in_comment, self.open_after_end = False, None
            tags = _TAG_RUN.match(stripped)
            rest = stripped[tags.end():] if tags else ""  # a broken tag line is still a tag line
            self.broken_tag = self.broken_tag or tags is None or rest.startswith("[")
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
                yield from self.flush(number)
                yield from self.feed(" " * cut + line[cut:], number)
                return
        if content and self.ended:
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
                          and _ENDS_WITH_RESULT.search(tail) is not None)
        if not self.buffer:
            self.start = number
        self.buffer.append(line)


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


# ---- blocks -----------------------------------------------------------------------------------

# A sure game end is a tag line that follows blank lines and, before them, a line with
# something on it but no "{", "}", ";" or "[" (nor a "%" first): ``split_chunks`` cuts there
# whatever came before (movetext, or a comment left open) and starts afresh, so a piece of
# the input that begins there is cut into chunks exactly as the whole input would be.
_TAG_LINE = re.compile(r'\[[A-Za-z][A-Za-z0-9_]*[ \t]+"')
_ENDING_LINE = re.compile(r"[ \t]*[^\s{};\[%][^\n{};\[]*")

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
        if not _TAG_LINE.match(text, newline + 1):
            continue
        end = newline  # walk back over blank lines to the line before them
        while (line_start := text.rfind("\n", 0, end) + 1) > 0 and \
                not text[line_start:end].strip(" \t\r"):
            end = line_start - 1
        ending = text[line_start:end]
        if _ENDING_LINE.fullmatch(ending) and (
                not after_result or _ENDS_WITH_RESULT.search(ending)):
            return newline + 1
    return 0


def block_chunks(block: Chunk) -> Iterator[Chunk]:
    """The game chunks of a piece from ``split_blocks`` (numbered as in the whole input)."""
    return split_chunks(io.StringIO(block.text, newline="\n"), block.line)


# ---- tags -------------------------------------------------------------------------------------

_TAG_PARTS = re.compile(r'\[\s*([^\s"\]]*)\s*(?:"((?:[^"\\]|\\.?)*)"|(.*?))\s*\]', re.S)
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
        return match.group(1), _UNESCAPE.sub(r"\1", quoted)
    if _UNCLOSED_QUOTE.fullmatch(text):
        return match.group(1), match.group(3).removeprefix('"')
    return match.group(1), match.group(3)


def check_tag(text: str, name: str, value: str, line: int, column: int) -> Diagnostic | None:
    """A diagnostic for a tag (its token ``text``, read as ``name`` and ``value``) that cannot
    be what it says, else None."""
    where = f"{line}:{column}"
    if _UNCLOSED_QUOTE.fullmatch(text):
        return Diagnostic("tag", f"tag {shown(text, 60)} at {where}: the quote is not closed; "
                          "the value is read up to the ']'", line, column, "warning")
    if not _TAG_NAME.fullmatch(name):
        return Diagnostic("tag", f"tag [{shown(name)} {shown(value, 40)}] at {where}: "
                          f"'{shown(name)}' is not a tag name", line, column, "warning")
    if name == "Result":
        result = value.strip()
        if result not in RESULTS and result not in UNKNOWN_RESULTS:
            return Diagnostic("result", f"Result tag \"{shown(value)}\" at {where} is not a PDN "
                              "result (1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 * 1:0 0:1 1/2:1/2)",
                              line, column)
    return None


@lru_cache(maxsize=1 << 12)
def _read_tag(text: str) -> tuple[str, str, bool]:
    """Name and value of a tag token and whether ``check_tag`` finds nothing wrong with it,
    cached by its text (archives repeat their Event, Site and Result tags thousands of
    times)."""
    name, value = split_tag(text)
    return name, value, check_tag(text, name, value, 0, 0) is None


def head_tags(text: str, first_line: int = 1) -> tuple[dict[str, str], list[Diagnostic]]:
    """The tags at the head of a chunk (before any movetext), read without the parser; a
    broken tag line is passed over, so a game with a syntax error keeps its other tags."""
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
        column = position - text.rfind("\n", 0, position)
        diagnostic = check_tag(match.group(), name, value, line, column)
        if diagnostic:
            diagnostics.append(diagnostic)
        tags[name] = value
        position = match.end()
    return tags, diagnostics


_BROKEN_TAG = re.compile(r"\[[^\n]*")
_HEAD_SKIP = re.compile(r'(?:\s|\\r|\{[^}]*\}|;[^\n]*|(?m:^%[^\n]*))*')


@cache
def _tag_pattern() -> re.Pattern[str]:
    """The grammar's TAG terminal as a compiled regex: one definition of a tag pair."""
    parser, _ = load_parser()
    return re.compile(parser.get_terminal("TAG").pattern.to_regexp())


# ---- moves ----------------------------------------------------------------------------------

_SQUARE = re.compile(r"[a-l](?:1[0-2]|[1-9])|[0-9]+")
_SEPARATOR = re.compile(r"[-xX:×]")
_STRENGTH = re.compile(r"(?:[!?]+|\([!?]+\)|\*)$")
NAG_FORCED_MOVE = 7  # "$7", what a "*" glued to a move (a star move) means


@lru_cache(maxsize=1 << 16)
def _move_token(value: str) -> tuple:
    """What one move record of a MOVE token says, cached by its text (they repeat a lot).

    ``(number, black, line_delta, column, column_is_absolute, head, star)``: the move number
    and whether it was ``n...``; where the move starts relative to its text (a newline may
    separate it from its number); ``head``, the first five fields of its ``MoveRecord``
    (the move as written; its squares normalised, lowercase and without leading zeros; the
    capture separator, ``X`` and ``×`` read as ``x``; the file letter of a short record; a
    glued strength mark); and whether a glued ``*`` marked a star move.
    """
    number = None
    black = False
    line_delta = 0
    column = 0
    absolute = False
    dot = value.rfind(".")
    if dot >= 0:
        black = value[dot - 2 : dot + 1] == "..."
        number = int(value[: value.index(".")])
        start = dot + 1
        while value[start].isspace():
            start += 1
        gap = value[:start]
        line_delta = gap.count("\n")
        absolute = line_delta > 0
        column = start - gap.rfind("\n") if absolute else start
        value = value[start:]
    strength_match = _STRENGTH.search(value)
    strength = strength_match.group() if strength_match else None
    text = value[: strength_match.start()] if strength_match else value
    lowered = text.lower()
    origin_file = None
    if not lowered[0].isdigit() and not lowered[1].isdigit():
        origin_file, lowered = lowered[0], lowered[1:]
    squares = tuple(name.lstrip("0") if name[0] == "0" else name
                    for name in _SQUARE.findall(lowered))
    separator = _SEPARATOR.search(lowered)
    mark = separator.group() if separator else ""
    star = strength == "*"
    head = (text, squares, "x" if mark in ("X", "×") else mark, origin_file,
            None if star else strength)
    return number, black, line_delta, column, absolute, head, star


def _moves(token, line_offset: int) -> list[Ply]:
    """The plies of a MOVE token: a run of move records that only whitespace separates."""
    value = token.value
    line = token.line + line_offset
    base = token.column  # a move at offset ``start`` of the token is in column base + start
    scanned = 0
    plies = []
    record = tuple.__new__  # MoveRecord's own __new__ is Python code; this is the tuple's
    for found in _move_pattern().finditer(value):
        start = found.start(1)
        newlines = value.count("\n", scanned, start)
        if newlines:
            line += newlines
            base = -value.rfind("\n", scanned, start)
        scanned = start
        number, black, line_delta, column, absolute, head, star = _move_token(found.group(1))
        where = (line + line_delta, column if absolute else base + start + column, False)
        plies.append(Ply(record(MoveRecord, head + where), number, black,
                         [NAG_FORCED_MOVE] if star else []))
    return plies


@cache
def _move_pattern() -> re.Pattern[str]:
    """One move record of a MOVE token (the grammar's own pattern), after its whitespace."""
    parser, _ = load_parser()
    return re.compile(f"(?:{_GAP})?({parser.get_terminal('MOVE').pattern.to_regexp()})")


def _comment_text(text: str) -> str:
    """A comment's text with its whitespace runs made single spaces (layout is not content)."""
    return " ".join(text.split())


def _result_key(result: str) -> str:
    return result.strip().replace(":", "-")


# ---- the transformer ------------------------------------------------------------------------


@dataclass
class _Hoisted:
    """Variations found in a line that has no move of its own, for the enclosing line."""

    variations: list[Line]


class GameTransformer(Transformer):
    """Builds ``Game`` values while the LALR parser reduces (Lark's ``transformer=``)."""

    def __init__(self) -> None:
        super().__init__()
        self.line_offset = 0
        self.diagnostics: list[Diagnostic] = []
        self.dashes = False

    def start_chunk(self, first_line: int) -> None:
        """Prepare for a chunk that starts at ``first_line`` of the file."""
        self.line_offset = first_line - 1
        self.diagnostics = []
        self.dashes = False  # a "-" lost move was seen

    def _report(self, token, code: str, message: str, severity: str = "error") -> None:
        line = token.line + self.line_offset
        self.diagnostics.append(
            Diagnostic(code, f"{message.format(where=f'{line}:{token.column}')}", line,
                       token.column, severity)
        )

    @staticmethod
    def items(children: list) -> list:
        if len(children) == 1:
            return children
        children[0].append(children[1])
        return children[0]

    def line(self, children: list) -> Line | _Hoisted:
        items = children[0]
        result = Line()
        plies = result.plies
        number = None  # a MOVENUMBER token waiting for its move
        pending: list = []  # NAGs, strength marks and variations written before any move
        for item in items:
            if isinstance(item, _Hoisted | Line):
                variations = item.variations if isinstance(item, _Hoisted) else [item]
                if plies:
                    plies[-1].variations.extend(variations)
                else:
                    pending.extend(variations)
                continue
            kind = item.type
            if kind == "MOVE":
                run = _moves(item, self.line_offset)
                first = run[0]
                if number is not None and first.number is None:
                    first.number = int(number.value.rstrip("."))
                    first.black_number = number.value.endswith("...")
                number = None
                if pending:
                    self._attach(first, pending)
                    pending = []
                plies.extend(run)
            elif kind == "MOVENUMBER":
                if number is not None:
                    self._dangling(number)
                number = item
            elif kind == "PLACEHOLDER":
                plies.append(self._placeholder(item, number))
                number = None
            elif kind in ("COMMENT", "PAREN_COMMENT"):
                self._comment(result, _comment_text(item.value[1:-1]))
            elif kind == "LINE_COMMENT":
                self._comment(result, _comment_text(item.value[1:]))
            elif kind == "NAG" or kind == "STRENGTH":
                if plies:
                    self._attach(plies[-1], [item])
                else:
                    pending.append(item)
            elif kind == "SETUP":
                fen = item.value[item.value.index('"') + 1 : item.value.rindex('"')]
                if plies:
                    plies[-1].setup = fen
                else:
                    result.setup = fen
        if number is not None:
            self._dangling(number)
        if not plies and pending and all(isinstance(item, Line) for item in pending):
            return _Hoisted(pending)
        for item in pending:
            if not isinstance(item, Line):
                self._report(item, "movetext", f"'{item.value}' at {{where}} annotates no move",
                             "warning")
        return result

    def _dangling(self, number) -> None:
        self._report(number, "syntax",
                     f"move number '{number.value}' at {{where}} is not followed by a move")

    def _placeholder(self, token, number) -> Ply:
        """A lost move (``...``, PDN's unknown move, or a bare ``-``)."""
        self.dashes = self.dashes or token.value == "-"
        record = MoveRecord(token.value, line=token.line + self.line_offset, column=token.column,
                            placeholder=True)
        if number is None:
            return Ply(record)
        return Ply(record, int(number.value.rstrip(".")), number.value.endswith("..."))

    @staticmethod
    def _comment(line: Line, text: str) -> None:
        if line.plies:
            line.plies[-1].comments.append(text)
        else:
            line.comments.append(text)

    @staticmethod
    def _attach(ply: Ply, items: list) -> None:
        """Attach annotations to a ply: NAGs, a strength mark, variations."""
        for item in items:
            if isinstance(item, Line):
                ply.variations.append(item)
            elif item.type == "NAG":
                ply.nags.append(int(item.value[1:]))
            else:
                ply.record = ply.record._replace(
                    strength=(ply.record.strength or "") + item.value)

    def variation(self, items: list) -> Line | _Hoisted:
        return items[0] if items else Line()

    def tagged(self, items: list) -> list[Game]:
        games = [Game(line=items[0].line + self.line_offset)]
        for item in items:
            game = games[-1]
            if isinstance(item, Line | _Hoisted):
                game.moves = self._main_line(item)
            elif item.type == "TAG":
                name, value, sound = _read_tag(item.value)
                line = item.line + self.line_offset
                if name == "Event" and "Event" in game.tags:  # a game with tags only, then the next
                    games.append(Game(line=line))
                    game = games[-1]
                diagnostic = None if sound else check_tag(item.value, name, value, line,
                                                          item.column)
                if diagnostic:
                    game.diagnostics.append(diagnostic)
                game.tags[name] = value
            else:
                game.result = item.value
                self._check_result(game, item)
        return games

    def _main_line(self, line: Line | _Hoisted) -> Line:
        if isinstance(line, Line):
            return line
        self.diagnostics.append(Diagnostic("movetext", "variations with no main line move are "
                                           "dropped", severity="warning"))
        return Line()

    def _check_result(self, game: Game, token) -> None:
        tag = game.tags.get("Result", "")
        if token.value != "*" and tag.strip() not in UNKNOWN_RESULTS | {"*"} and \
                _result_key(token.value) != _result_key(tag):
            self._report(token, "result", f"result '{token.value}' at {{where}} disagrees with the "
                         f"Result tag \"{tag}\" (the tag is taken)", "warning")

    def untagged(self, items: list) -> list[Game]:
        game = Game(moves=self._main_line(items[0]))
        if len(items) > 1:
            game.result = items[1].value
        if game.moves.plies:
            game.line = game.moves.plies[0].record.line
        return [game]

    def start(self, groups: list[list[Game]]) -> list[Game]:
        games = _merge_comment_only([game for group in groups for game in group])
        for game in games:
            _result_placeholder(game)
            _check_plycount(game)
            if self.dashes:
                _check_dashes(game.moves, game.diagnostics)
        placed = [game for game in games if game.line]
        starts = [game.line for game in placed]
        for diagnostic in self.diagnostics:
            _owner(games, placed, starts, diagnostic.line).diagnostics.append(diagnostic)
        return games


def _owner(games: list[Game], placed: list[Game], starts: list[int], line: int | None
           ) -> Game:
    """The game of a chunk that a diagnostic at ``line`` belongs to: the last one starting on
    or before it (``placed``: the games with a known first line, ``starts``: those lines)."""
    if line is None:
        return games[0]
    found = bisect_right(starts, line)
    return placed[found - 1] if found else games[0]


def _check_dashes(line: Line, diagnostics: list[Diagnostic]) -> None:
    """A bare ``-`` for a lost move is not PDN: an error, although the game is read with the
    move marked lost (PDN writes an unknown move as ``...``)."""
    for ply in line.plies:
        record = ply.record
        if record.placeholder and record.text == "-":
            where = f"{record.line}:{record.column}"
            diagnostics.append(Diagnostic("lost-move", f"'-' at {where} is not a move: PDN writes "
                                          "an unknown move as '...'", record.line, record.column))
        for variation in ply.variations:
            _check_dashes(variation, diagnostics)


def _check_plycount(game: Game) -> None:
    """A PlyCount tag that is not the number of plies of the main line: a warning."""
    written = game.tags.get("PlyCount", "").strip()
    if written.isdigit() and (written.lstrip("0") or "0") != str(len(game.moves.plies)):
        game.diagnostics.append(Diagnostic(
            "plycount", f"PlyCount tag says {written} but the main line has "
            f"{len(game.moves.plies)} plies", game.line, 1, "warning"))


def _merge_comment_only(games: list[Game]) -> list[Game]:
    """Fold a game that is only comments (text after a result) into a neighbour game."""
    kept: list[Game] = []
    leading: list[str] = []
    for game in games:
        if not game.tags and not game.moves.plies and game.result is None and not game.moves.setup:
            if kept:
                _append_comments(kept[-1].moves, game.moves.comments)
            else:
                leading.extend(game.moves.comments)
            continue
        if leading:
            game.moves.comments[:0] = leading
            leading = []
        kept.append(game)
    if leading and not kept:
        kept.append(Game(moves=Line(comments=leading)))
    return kept


def _append_comments(line: Line, comments: list[str]) -> None:
    target = line.plies[-1].comments if line.plies else line.comments
    target.extend(comments)


def _result_placeholder(game: Game) -> None:
    """A closing ``-`` with Result tag ``-`` (BrunoGUI exports) is the result, not a lost move."""
    plies = game.moves.plies
    if (game.result is None and game.tags.get("Result") == "-" and plies
            and plies[-1].record.placeholder and plies[-1].record.text == "-"
            and not plies[-1].comments and not plies[-1].variations):
        plies.pop()
        game.result = "-"


class PdnLexer(Lexer):
    """Scans with ONE compiled regular expression built from the grammar's own terminals.

    Lark's lexers match the ignored whitespace as a token of its own and try the terminals
    one after another; here every match eats the whitespace before a token too. Terminals are
    tried in Lark's order (priority, then length). A MOVE token is a whole run of move
    records with only whitespace between them (none of them a stronger terminal such as the
    result ``1-1``): the parser takes a run of play in one step, and the transformer splits
    it with the same MOVE pattern.
    """

    __future_interface__ = 2

    def __init__(self, lexer_conf) -> None:
        terminals = sorted(lexer_conf.terminals,
                           key=lambda t: (-t.priority, -t.pattern.max_width,
                                          -len(t.pattern.value), t.name))
        by_name = {t.name: t for t in terminals}
        ignored = "|".join(by_name[name].pattern.to_regexp() for name in lexer_conf.ignore)
        alternatives = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})"
                                for t in terminals if t.name not in lexer_conf.ignore)
        self.scanner = re.compile(f"(?:{ignored})*+(?:{alternatives})")
        self.trailer = re.compile(f"(?:{ignored})*+")
        move = by_name["MOVE"]
        stronger = "|".join(t.pattern.to_regexp() for t in terminals
                            if t.priority > move.priority and t.name not in lexer_conf.ignore)
        self.run = re.compile(f"(?:{_GAP}(?!{stronger}){move.pattern.to_regexp()})*+")
        self.token_class = Token

    def lex(self, lexer_state, parser_state) -> Iterator[Token]:
        text = lexer_state.text
        return self.tokens(text if isinstance(text, str) else text.text)

    def tokens(self, text: str) -> Iterator[Token]:
        """The tokens of ``text``, with 1-based lines and columns; raises UnexpectedCharacters,
        and ``NestingError`` for variations nested deeper than ``MAX_NESTING``."""
        found = self._scan(text)
        return _limit_nesting(found) if text.count("(") > MAX_NESTING else found

    def _scan(self, text: str) -> Iterator[Token]:
        new_token = self.token_class
        match = self.scanner.match
        run = self.run.match
        count = text.count
        end = len(text)
        position = line = 0
        line_start = -1
        while True:
            found = match(text, position)
            if found is None:
                break
            kind = found.lastgroup
            start = found.start(kind)
            newlines = count("\n", position, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", position, start)
            position = found.end()
            if kind == "MOVE":
                position = run(text, position).end()
            yield new_token(kind, text[start:position], start, line + 1, start - line_start)
            if kind in _MULTILINE:
                newlines = count("\n", start, position)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", start, position)
        position = self.trailer.match(text, position).end()
        if position < end:
            newlines = count("\n", 0, position)
            column = position - text.rfind("\n", 0, position)
            raise UnexpectedCharacters(text, position, newlines + 1, column)


# What may separate the moves of one MOVE token: plain whitespace (a comment, an escape line
# or anything else ends the run).
_GAP = r"[ \t\r\n]+"

# Terminals whose text may span lines (the others never hold a newline).
_MULTILINE = frozenset({"MOVE", "COMMENT", "PAREN_COMMENT", "SETUP"})

# Real records nest variations a few levels deep; a limit keeps every tree walk (writer,
# converter, viewer, pickling to workers) far from Python's recursion limit.
MAX_NESTING = 100


class NestingError(ValueError):
    """Variations nested deeper than ``MAX_NESTING``: the game is not read."""

    def __init__(self, line: int, column: int) -> None:
        self.line, self.column = line, column
        super().__init__(f"variations nested more than {MAX_NESTING} deep")


def _limit_nesting(tokens: Iterator[Token]) -> Iterator[Token]:
    """The tokens, raising ``NestingError`` at the "(" that opens one variation too many."""
    depth = 0
    for token in tokens:
        if token.type == "LPAR":
            depth += 1
            if depth > MAX_NESTING:
                raise NestingError(token.line, token.column)
        elif token.type == "RPAR":
            depth -= 1
        yield token


class PdnParser:
    """``parse(text) -> list[Game]``: Lark's LALR parser fed by ``PdnLexer``.

    With lark-cython installed (the optional extra ``fast``) the LALR tables run on its
    compiled parser loop; our lexer then hands it lark-cython tokens directly, since Lark's
    front end cannot join a custom lexer to that loop.
    """

    def __init__(self, grammar: str, transformer: GameTransformer) -> None:
        options: dict = {"parser": "lalr", "lexer": PdnLexer, "transformer": transformer,
                         "maybe_placeholders": False}
        self._compiled = None
        try:
            import lark_cython
        except ImportError:
            self.lark = Lark(grammar, **options)
            return
        plugins = {name: lark_cython.plugins[name] for name in ("LALR_Parser", "_Parser")}
        self.lark = Lark(grammar, _plugins=plugins, **options)
        self._compiled = lark_cython.lark_cython
        self._lexer = self.lark.parser.lexer
        self._lexer.token_class = self._compiled.Token
        self._feeder = _token_feeder(self._compiled.Lexer)()

    def parse(self, text: str) -> list[Game]:
        if self._compiled is None:
            return self.lark.parse(text)
        compiled = self._compiled
        self._feeder.tokens = self._lexer.tokens(text)
        state = compiled.LexerState(text, compiled.LineCounter("\n"))
        thread = compiled.LexerThread(self._feeder, state)
        return self.lark.parser.parser.parser.parse(thread, "start")

    def lex(self, text: str) -> Iterator[Token]:
        """The tokens of ``text`` (used to explain errors)."""
        return self.lark.parser.lexer.tokens(text)

    def get_terminal(self, name: str):
        return self.lark.get_terminal(name)


@cache
def _token_feeder(base: type) -> type:
    """A lark-cython lexer class that hands out the tokens of an iterator."""

    class TokenFeeder(base):
        tokens: Iterator

        def next_token(self, state, parser_state):
            try:
                return next(self.tokens)
            except StopIteration:
                raise EOFError from None

    return TokenFeeder


@cache
def load_parser() -> tuple[PdnParser, GameTransformer]:
    """The parser of ``grammar.lark`` and the transformer it reports to (one per process)."""
    grammar = resources.files("pdn").joinpath("grammar.lark").read_text(encoding="utf-8")
    transformer = GameTransformer()
    return PdnParser(grammar, transformer), transformer


# ---- errors ---------------------------------------------------------------------------------

_CHARACTER_REASONS = {
    "{": "comment opened but never closed",
    "}": "comment closed but none is open",
    "[": "tag not closed on its line",
    "]": "tag closed but none is open",
    '"': "a quote outside a tag",
    "/": "setup is not of the form /FEN \"...\"/",
}


def shown(text: str, limit: int = 20) -> str:
    """Input text fit to quote in a message: at most ``limit`` characters, control characters
    escaped (hostile bytes must not drive the terminal)."""
    cut = text[:limit]
    safe = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in cut)
    return safe + ("…" if len(text) > limit else "")


def _word_at(text: str, position: int) -> str:
    match = re.compile(r"\S{1,20}").match(text, position)
    return shown(match.group() if match else text[position : position + 1])


def _open_variations(text: str, end: int) -> list[tuple[int, int]]:
    """Lines and columns (in the chunk) of the variations still open before offset ``end``."""
    parser, _ = load_parser()
    stack: list[tuple[int, int]] = []
    try:
        for token in parser.lex(text):
            if token.start_pos >= end:
                break
            if token.type == "LPAR":
                stack.append((token.line, token.column))
            elif token.type == "RPAR" and stack:
                stack.pop()
    except (UnexpectedInput, NestingError):
        pass
    return stack


def explain_error(error: Exception, chunk: Chunk) -> Diagnostic:
    """A Lark error or a ``NestingError`` as a diagnostic located in the whole file (anything
    else as an internal error)."""
    offset = chunk.line - 1
    if isinstance(error, NestingError):
        line = error.line + offset
        message = (f"variation opened at {line}:{error.column} is nested more than "
                   f"{MAX_NESTING} deep: the game is not read")
        return Diagnostic("syntax", message, line, error.column)
    if isinstance(error, UnexpectedCharacters):
        line, column = error.line + offset, error.column
        word = _word_at(chunk.text, error.pos_in_stream)
        reason = _CHARACTER_REASONS.get(word[0], "not a move, move number, comment, NAG or result")
        message = f"unexpected '{word}' at {line}:{column}: {reason}"
        return Diagnostic("syntax", message, line, column)
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            lines = chunk.text.splitlines() or [""]
            line, column = len(lines) + offset, len(lines[-1]) + 1
            opened = _open_variations(chunk.text, len(chunk.text))
            reason = (f"variation opened at {opened[-1][0] + offset}:{opened[-1][1]} is not closed"
                      if opened else "the game ends too early")
            return Diagnostic("syntax", f"end of game at {line}:{column}: {reason}", line, column)
        line, column = token.line + offset, token.column
        opened = _open_variations(chunk.text, token.start_pos)
        if token.type == "RPAR":
            reason = "variation closed but none is open"
        elif opened:
            where = f"{opened[-1][0] + offset}:{opened[-1][1]}"
            reason = f"inside the variation opened at {where}, not closed"
        elif token.type == "RESULT":
            reason = "a result where the game has already ended"
        else:
            reason = "not expected here"
        message = f"unexpected '{shown(token.value)}' at {line}:{column}: {reason}"
        return Diagnostic("syntax", message, line, column)
    return internal_error(error, chunk)


def internal_error(error: BaseException, chunk: Chunk) -> Diagnostic:
    """An exception the reader does not expect, as a diagnostic that says it is a bug of the
    toolkit, not of the record (the games around it are still read)."""
    message = (f"internal error reading the game at {chunk.line}:1: "
               f"{type(error).__name__}: {shown(str(error), 200)} (a bug of pdn-toolkit, not of "
               "the record: please report it with this game)")
    return Diagnostic("internal-error", message, chunk.line, 1)
