"""Read PDN games: from a path, an open file or a string, streamed in constant memory.

The input is decoded (UTF-8 with or without BOM, UTF-16 or UTF-32 with one, Windows-1251,
Latin-1; see ``detect_encoding``), cut into game chunks by a cheap line scan
(``pdn.chunks``), and each chunk is parsed by the Lark LALR grammar ``grammar.lark``, whose
transformer builds the ``Game`` values directly. A syntax error becomes a ``Diagnostic`` on
the game of its chunk, with the line and column in the whole file, and reading goes on with
the next chunk.

>>> games = list(read_games('[Event "x"]\\n1. 32-28 19-23 2. 37-32 (2. 33-29 $1) 1-0'))
>>> game = games[0]
>>> game.tags["Event"], len(game.moves.plies), game.result
('x', 3, '1-0')
>>> game.moves.plies[2].variations[0].plies[0].record.squares
('33', '29')
"""

from __future__ import annotations

import codecs
import errno
import io
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Generic, TypeVar, overload

from lark.exceptions import UnexpectedInput

from pdn.chunks import Chunk, block_chunks, newline_lines, split_blocks, split_chunks
from pdn.errors import explain_error, internal_error
from pdn.game import Game
from pdn.i18n import N_
from pdn.lexer import NestingError
from pdn.lookalikes import mend_lookalikes, spaced_moves
from pdn.model import Diagnostic, Line, Ply
from pdn.moves import NumberError
from pdn.movetext import GameTransformer
from pdn.parser import load_parser
from pdn.plain import FAST_PATH, plain_game
from pdn.records import RECORD_SUFFIXES
from pdn.tags import head_tags

Source = str | os.PathLike | IO[str] | IO[bytes]
T = TypeVar("T")

SNIFF_BYTES = 1 << 20


class PdnSyntaxError(ValueError):
    """Raised in strict mode: the first error diagnostic of a game, with its location."""

    def __init__(self, diagnostic: Diagnostic, game: int):
        self.diagnostic = diagnostic
        self.game = game
        super().__init__(f"game {game}: {diagnostic.message}")


# ---- decoding -------------------------------------------------------------------------------


_WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
              (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
WIDE_ENCODINGS = ("utf-16", "utf-32")  # told by their byte order mark, which they read


def detect_encoding(sample: bytes) -> str:
    """The encoding of a file from its first bytes: ``utf-8-sig``, ``utf-16`` or ``utf-32``
    (by their byte order mark), ``utf-8``, ``cp1251`` or ``latin-1``.

    >>> detect_encoding("\ufeff[Event]".encode("utf-16-le")), detect_encoding(b"[Event]")
    ('utf-16', 'utf-8')

    Bytes that are valid UTF-8 are UTF-8. Otherwise the file is an 8-bit code page, told
    apart by a heuristic: Cyrillic text in Windows-1251 is whole words of bytes >= 0x80,
    while Western Latin-1 text has single accented letters between ASCII ones. So when most
    high bytes stand next to another high byte the file is Windows-1251, else Latin-1.

    >>> detect_encoding("Ренжин".encode("cp1251")), detect_encoding("Bertè, J.".encode("latin-1"))
    ('cp1251', 'latin-1')
    """
    if sample.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    for bom, encoding in _WIDE_BOMS:  # UTF-32's come first: UTF-16's LE mark begins one
        if sample.startswith(bom):
            return encoding
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as error:
        if error.reason == "unexpected end of data":  # a character cut by the sample's end
            return "utf-8"
    high = [i for i, byte in enumerate(sample) if byte >= 0x80]
    paired = sum(1 for i in high if _has_high_neighbour(sample, i))
    return "cp1251" if paired * 2 > len(high) else "latin-1"


def _has_high_neighbour(sample: bytes, i: int) -> bool:
    return (i > 0 and sample[i - 1] >= 0x80) or (i + 1 < len(sample) and sample[i + 1] >= 0x80)


def _latin1_fallback(error: UnicodeError) -> tuple[str, int]:
    """Decode a byte the detected encoding cannot as Latin-1: late non-UTF-8 bytes in a
    UTF-8-looking file, or 0x98, the one byte Windows-1251 leaves undefined."""
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start : error.end].decode("latin-1"), error.end


codecs.register_error("pdn-latin-1", _latin1_fallback)


class _PrefixedRaw(io.RawIOBase):
    """A raw stream that gives back an already-read prefix, then the rest of a binary file."""

    def __init__(self, prefix: bytes, rest: IO[bytes]):
        self._prefix = memoryview(prefix)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._prefix:
            size = min(len(buffer), len(self._prefix))
            buffer[:size] = self._prefix[:size]
            self._prefix = self._prefix[size:]
            return size
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _text_stream(binary: IO[bytes], encoding: str | None) -> IO[str]:
    """Decode a binary stream, detecting the encoding from its first megabyte when not given."""
    sample = binary.read(SNIFF_BYTES)
    errors = "strict"
    if encoding is None:  # a guess must not fail: a byte it cannot map reads as Latin-1
        encoding = detect_encoding(sample)
        errors = "pdn-latin-1"
    raw = _PrefixedRaw(sample, binary)
    buffered = io.BufferedReader(raw, 1 << 16)
    return newline_lines(io.TextIOWrapper(buffered, encoding=encoding, errors=errors,
                                          newline=None))




class PdnText(str):
    """PDN text given as a source: always read as text, whatever it holds (a plain ``str``
    that names a file is read as that file). ``pathlib.Path`` is the other explicit kind:
    always a path, whatever its name holds (a line break, a ``.pdn`` suffix or none).

    >>> [game.result for game in read_games(PdnText("1. c3-d4 f6-g5 1-0"))]
    ['1-0']
    """

    __slots__ = ()


def _names_a_file(text: str) -> bool:
    """Whether a plain string source is a path (an existing file, or a record file name that
    may be missing, which then fails as a missing file) rather than PDN text: the guess the
    documented API makes for a ``str``. Nothing in this toolkit hands a path over as ``str``
    (it passes ``pathlib.Path``) nor text (it passes ``PdnText`` or a ``StringIO``)."""
    if isinstance(text, PdnText):
        return False
    return "\n" not in text and (os.path.exists(text) or text.lower().endswith(RECORD_SUFFIXES))


@contextmanager
def open_text(source: Source, encoding: str | None = None) -> Iterator[tuple[IO[str], str | None]]:
    """An open text stream over any source (universal newlines), and the source's name.

    Every failure to read raises ``OSError``: also bytes that are not in the ``encoding``
    given, or an unknown encoding (as ``errno.EILSEQ`` and ``errno.EINVAL``), so that callers
    report any unreadable source in one way.
    """
    try:
        with _opened_text(source, encoding) as opened:
            yield opened
    except UnicodeError as error:  # also a codec's own: "undefined", UTF-16 without a BOM
        reason = getattr(error, "reason", None) or str(error)
        raise OSError(errno.EILSEQ, N_("not {encoding} text ({reason}): give the right "
                                       "--encoding").format(
            encoding=encoding or getattr(error, "encoding", ""), reason=reason),
            source_name(source)) from error
    except LookupError as error:
        raise OSError(errno.EINVAL, str(error), source_name(source)) from error


def source_name(source: Source) -> str | None:
    """The name locations give for a source: a path as given, an open file's name, None for
    text (``PdnText``, a string read as text, a ``StringIO``)."""
    if isinstance(source, str | os.PathLike):
        return os.fspath(source) if not isinstance(source, str) or _names_a_file(source) else None
    return getattr(source, "name", None)


@contextmanager
def _opened_text(source: Source, encoding: str | None) -> Iterator[tuple[IO[str], str | None]]:
    if isinstance(source, str) and not _names_a_file(source):
        yield newline_lines(io.StringIO(source.removeprefix("\ufeff"), newline=None)), None
    elif isinstance(source, str | os.PathLike):
        with open(source, "rb") as binary:
            yield _text_stream(binary, encoding), os.fspath(source)
    elif isinstance(source.read(0), str):  # type: ignore[union-attr]
        yield source, getattr(source, "name", None)  # type: ignore[misc]
    else:
        yield _text_stream(source, encoding), getattr(source, "name", None)  # type: ignore[arg-type]


# ---- games ----------------------------------------------------------------------------------


def _parse_chunk(chunk: Chunk, parser, transformer: GameTransformer,
                 source: str | None, fast: bool | None = None) -> list[Game]:
    """The games of one chunk; on a syntax error one game holding the error and its tags, and
    on an exception the reader does not expect, one game holding an ``internal-error``.
    ``fast``: a plain game is read without the parser (``pdn.plain``), to the same game
    (by default unless ``PDN_NO_FASTPATH=1``)."""
    if FAST_PATH if fast is None else fast:
        game = plain_game(chunk, source)
        if game is not None:
            return [_within_ply_limit(game, chunk)]
    if chunk.too_large:  # not parsed: its error is in its notes
        game = Game(tags=head_tags(chunk.text)[0], line=chunk.line, source=source)
        game.diagnostics.extend(chunk.notes)
        return [game]
    text, mended = mend_lookalikes(chunk.text, chunk.line, chunk.column)
    transformer.start_chunk(chunk.line, text)
    transformer.diagnostics.extend(mended)
    try:
        games = parser.parse(text, chunk.column) if chunk.column else parser.parse(text)
    except (UnexpectedInput, NestingError, NumberError) as error:  # the record's fault
        games = [Game(tags=head_tags(chunk.text)[0], diagnostics=[explain_error(error, chunk)])]
    except Exception as error:  # our fault: said so, and the games around it are still read
        games = [Game(tags=head_tags(chunk.text)[0], diagnostics=[internal_error(error, chunk)])]
    for game in games:
        game.source = source
    if games and not games[0].line:
        games[0].line = chunk.line
    if chunk.notes and games:
        games[-1].diagnostics.extend(chunk.notes)
    for game in games:
        if game.tags and game.result is None and not game.moves.has_plies() and not game.errors:
            game.diagnostics.append(_cut_off(game))
        game.diagnostics.extend(spaced_moves(game.moves))
    return [_within_ply_limit(game, chunk) for game in games]


PLY_LIMIT = 10_000
"""The most plies a game's main line may hold: a few times what the longest game of the
public archives the tests read (11 KB of text) could. Each ply read and replayed takes
about a kilobyte, so a game of 400,000 plies (two kings shuffling on one line of 3.5 MB)
would take hundreds of megabytes; a game beyond the limit is not read: it becomes a
``too-large`` error at its first line, and the games around it are read as always."""


def _within_ply_limit(game: Game, chunk: Chunk) -> Game:
    """The game, or, when its main line holds more than ``PLY_LIMIT`` plies, the game with
    its tags only and a ``too-large`` error (counted without making the plies, and only in
    a chunk long enough to hold that many)."""
    if len(chunk.text) <= 2 * PLY_LIMIT or (plies := game.moves.ply_count()) <= PLY_LIMIT:
        return game
    message = N_("the game at {line}:1 holds {count} plies, more than the {limit} a game may "
                 "hold: it is not read; the games around it are").format(
        line=game.line, count=f"{plies:,}", limit=f"{PLY_LIMIT:,}")
    refused = Game(tags=game.tags, line=game.line, source=game.source, preamble=game.preamble)
    refused.diagnostics.append(Diagnostic("too-large", message, game.line, 1))
    return refused


def _cut_off(game: Game) -> Diagnostic:
    """A game that ends after its tags: a file cut off there, not an empty game."""
    return Diagnostic("cut-off", N_("the game at {line}:1 ends after its tags, with no moves "
                                    "and no result or '*': the record is cut off").format(
        line=game.line), game.line, 1, "warning")


MISSING_RESULT = "missing-result"  # the code of a game ended by a new one's move numbers


def _chunk_games(chunk: Chunk, parser, transformer: GameTransformer,
                 source: str | None) -> list[Game]:
    """The games of one chunk, the last one noted when the next line started a new game."""
    games = _parse_chunk(chunk, parser, transformer, source)
    if chunk.restart_line and games:
        _note_missing_result(games[-1], chunk.restart_line)
    return games


def _note_missing_result(game: Game, next_line: int) -> None:
    """A warning on a game that ends without a result because the move numbers start again
    at 1 on ``next_line``: a game per line, as opening books and engines write them."""
    if game.result is not None or not game.moves.plies:
        return
    last = game.moves.plies[-1].record
    line, column = last.line, last.column + len(last.text)
    game.diagnostics.append(Diagnostic(
        MISSING_RESULT, N_("no result after '{move}' at {line}:{column}: the game ends without "
                           "one, as the move numbers start again at 1 on line {number} (a new "
                           "game)").format(move=last.text, line=line, column=column,
                                           number=next_line),
        line, column, "warning"))


def _read_chunks(chunks: Iterable[Chunk], source: str | None) -> Iterator[Game]:
    parser, transformer = load_parser()
    for chunk in chunks:
        yield from _chunk_games(chunk, parser, transformer, source)


def iter_chunks(source: Source, *, encoding: str | None = None) -> Iterator[Chunk]:
    """The game chunks of a source, for callers that parse them in their own processes."""
    with open_text(source, encoding) as (stream, _):
        yield from split_chunks(stream)


def iter_blocks(source: Source, *, encoding: str | None = None, size: int = 1 << 17
                ) -> Iterator[Chunk]:
    """The source in pieces of about ``size`` characters of whole games, for workers that
    cut them into chunks themselves (``block_chunks``) while this process only reads."""
    with open_text(source, encoding) as (stream, _):
        yield from split_blocks(stream, size)


def parse_chunks(chunks: Iterable[Chunk], source: str | None = None) -> Iterator[Game]:
    """The games of chunks from ``iter_chunks`` (their ``index`` is left for the caller)."""
    return _read_chunks(chunks, source)


def read_block(block: Chunk, source: str | None = None) -> Iterator[Game]:
    """The games of a block of whole games (``split_blocks``; a partition of a source),
    numbered from 1 in the block, located and checked as ``read_games`` does over the whole
    source."""
    for index, game in enumerate(_check_separators(parse_chunks(block_chunks(block), source)),
                                 1):
        game.index = index
        yield game


def read_games(source: Source, *, encoding: str | None = None, strict: bool = False
               ) -> Iterator[Game]:
    """Stream the games of a PDN source (a path, an open text or binary file, or PDN text).

    A ``pathlib.Path`` is always a path and ``PdnText`` always text; a plain ``str`` is a
    path when it names an existing file, or a record file name (``.pdn``, ``.phn``,
    ``.txt``) on one line, else PDN text.

    Each game carries its syntax errors as diagnostics; ``strict=True`` raises
    ``PdnSyntaxError`` at the first one instead. (``replay.run.reading.read_games`` parses
    in worker processes.)
    """
    with open_text(source, encoding) as (stream, name):
        yield from numbered_games(_read_chunks(split_chunks(stream), name), strict)


def numbered_games(games: Iterable[Game], strict: bool = False) -> Iterator[Game]:
    """Games in source order, numbered from 1 and checked for a missing result between two
    of them; ``strict`` raises ``PdnSyntaxError`` at the first game with an error."""
    for index, game in enumerate(_check_separators(games), 1):
        game.index = index
        if strict and game.errors:
            raise PdnSyntaxError(game.errors[0], index)
        yield game


def _check_separators(games: Iterable[Game]) -> Iterator[Game]:
    """Flag a game that runs into the next one without a result or ``*`` (PDN needs a game
    separator between games; the last game of a file may go without)."""
    previous = None
    for game in games:
        if previous is not None:
            if (previous.result is None and previous.moves.has_plies() and not previous.errors
                    and not any(d.code == MISSING_RESULT for d in previous.diagnostics)):
                previous.diagnostics.append(_missing_separator(previous, game))
            yield previous
        previous = game
    if previous is not None:
        yield previous


def _missing_separator(game: Game, following: Game) -> Diagnostic:
    last = game.moves.plies[-1].record
    line, column = last.line, last.column + len(last.text)
    return Diagnostic("syntax", N_("no result or '*' after '{move}' at {line}:{column}: the "
                                   "game runs into the next one (line {number})").format(
        move=last.text, line=line, column=column, number=following.line), line, column)


# ---- visitors ------------------------------------------------------------------------------

SKIP = False
"""Returned by ``Visitor.end_tags`` to skip the movetext (it is then not parsed at all)."""


class Visitor(Generic[T]):
    """Receives the events of one game, in the spirit of python-chess' ``chess.pgn.BaseVisitor``.

    Subclass and override what you need; ``result()`` is what ``visit_games`` yields.
    """

    def begin_game(self, index: int, line: int) -> None:
        """A game starts (1-based index in the source, first line)."""

    def visit_tag(self, name: str, value: str) -> None:
        """A tag pair, in file order."""

    def end_tags(self) -> bool:
        """All tags are seen; return ``SKIP`` to skip the movetext."""
        return True

    def begin_line(self, line: Line) -> None:
        """The main line or a variation starts (its leading comments and setup are on it)."""

    def visit_ply(self, ply: Ply) -> None:
        """A move of the current line, with its annotations."""

    def end_line(self) -> None:
        """The current line ends."""

    def visit_result(self, result: str) -> None:
        """The movetext's result token."""

    def handle_error(self, diagnostic: Diagnostic) -> None:
        """A problem found in the game."""

    def result(self) -> T:  # type: ignore[return-value]
        """What the visitor built."""


class HeadersVisitor(Visitor[dict[str, str]]):
    """Collects the tags and skips the movetext."""

    def begin_game(self, index: int, line: int) -> None:
        self.tags: dict[str, str] = {}

    def visit_tag(self, name: str, value: str) -> None:
        self.tags[name] = value

    def end_tags(self) -> bool:
        return SKIP

    def result(self) -> dict[str, str]:
        return self.tags


def _walk(line: Line, visitor: Visitor) -> None:
    visitor.begin_line(line)
    for ply in line.plies:
        visitor.visit_ply(ply)
        for variation in ply.variations:
            _walk(variation, visitor)
    visitor.end_line()


def _visit_game(game: Game, visitor: Visitor) -> None:
    for diagnostic in game.diagnostics:
        visitor.handle_error(diagnostic)
    _walk(game.moves, visitor)
    if game.result is not None:
        visitor.visit_result(game.result)


def visit_games(source: Source, visitor: Callable[[], Visitor[T]], *,
                encoding: str | None = None) -> Iterator[T]:
    """Drive a fresh visitor per game and yield its ``result()``.

    The tags come from a cheap scan of the game's head; the movetext is parsed only when
    ``end_tags`` does not return ``SKIP``, so reading only headers costs little.
    """
    parser, transformer = load_parser()
    index = 0
    with open_text(source, encoding) as (stream, name):
        for chunk in split_chunks(stream):
            tags, diagnostics = head_tags(chunk.text, chunk.line, chunk.column)
            current = visitor()
            current.begin_game(index + 1, chunk.line)
            for tag_name, value in tags.items():
                current.visit_tag(tag_name, value)
            if current.end_tags() is SKIP:
                for diagnostic in (*diagnostics, *chunk.notes):
                    current.handle_error(diagnostic)
                index += 1
                yield current.result()
                continue
            for position, game in enumerate(_chunk_games(chunk, parser, transformer, name)):
                if position:
                    current = visitor()
                    current.begin_game(index + 1, game.line)
                    for tag_name, value in game.tags.items():
                        current.visit_tag(tag_name, value)
                    current.end_tags()
                _visit_game(game, current)
                index += 1
                yield current.result()


def read_headers(source: Source, *, encoding: str | None = None) -> Iterator[dict[str, str]]:
    """The tags of every game, without parsing any movetext."""
    return visit_games(source, HeadersVisitor, encoding=encoding)


class NoSuchGameError(ValueError):
    """A source holds fewer games than the number asked for."""


@overload
def read_game(source: Source, number: None = None, *, encoding: str | None = None
              ) -> Game | None: ...


@overload
def read_game(source: Source, number: int, *, encoding: str | None = None) -> Game: ...


def read_game(source: Source, number: int | None = None, *, encoding: str | None = None
              ) -> Game | None:
    """One game of a source, as python-chess's ``chess.pgn.read_game`` reads one.

    Without ``number``: the next game of an open file (each call reads on from where the
    last one stopped, numbering and locating the games as ``read_games`` does), the first
    game of a path or of PDN text; None when no game is left. With ``number``: game
    ``number`` (1-based) of the source, ``NoSuchGameError`` when it holds fewer (saying how
    many). ``OSError`` when the source cannot be read.

    >>> read_game("1. c3-d4 * 1. e3-f4 *").moves.plies[0].record.text
    'c3-d4'
    >>> handle = io.StringIO("1. c3-d4 *\\n1. e3-f4 *\\n")
    >>> [game.moves.plies[0].record.text for game in iter(lambda: read_game(handle), None)]
    ['c3-d4', 'e3-f4']
    >>> read_game("1. c3-d4 * 1. e3-f4 *", 2).moves.plies[0].record.text
    'e3-f4'
    >>> read_game("1. c3-d4 *", 3)
    Traceback (most recent call last):
    pdn.reader.NoSuchGameError: the source has 1 game, so there is no game 3
    """
    if number is None:
        return next(_games_of(source, encoding), None)
    count = 0
    for count, game in enumerate(read_games(source, encoding=encoding), 1):
        if count == number:
            return game
    name = source_name(source) or "the source"
    raise NoSuchGameError(f"{name} has {count} game{'' if count == 1 else 's'}, so there is "
                          f"no game {number}")


_GAMES_READ = "_pdn_games"  # the attribute of an open file that holds its reader


def _games_of(source: Source, encoding: str | None) -> Iterator[Game]:
    """The games ``read_game`` takes the next one of: a path's or a text's from the start,
    an open file's from one reader kept with the file (the reader reads ahead of the game it
    gives, so a new reader would lose what the last one had read)."""
    if isinstance(source, str | os.PathLike):
        return read_games(source, encoding=encoding)
    games = getattr(source, _GAMES_READ, None)
    if games is None:
        games = read_games(source, encoding=encoding)
        setattr(source, _GAMES_READ, games)
    return games

__all__ = [
    "SKIP",
    "HeadersVisitor",
    "NoSuchGameError",
    "PdnSyntaxError",
    "PdnText",
    "Visitor",
    "detect_encoding",
    "iter_blocks",
    "iter_chunks",
    "open_text",
    "parse_chunks",
    "read_block",
    "read_game",
    "read_games",
    "read_headers",
    "source_name",
    "visit_games",
]
