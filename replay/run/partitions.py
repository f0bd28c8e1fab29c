"""Partitions of sources: pieces of whole games that one worker reads and works through alone.

Two kinds, one value. On one machine the client reads each source and cuts its text into
blocks of whole games (``pdn.chunks.split_blocks``), which travel to the workers as text.
On a cluster the client never reads the data: each file is cut into byte ranges at game
boundaries that the workers find themselves (``scan_range``), and each worker opens its
range through an fsspec URL (a local path, or ``s3://...`` with its fsspec package).
Either way a partition knows its source's name and the line it starts on, so games are
cut into chunks and every location is reported exactly as when the whole file is read.

>>> part = Partition("games.pdn", 1, text='[Event "x"]\\n1. 32-28 *\\n')
>>> part.chunk().text.startswith('[Event'), part.size
(True, 23)
"""

from __future__ import annotations

import codecs
import errno
import io
import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO

# The sure game end of ``split_blocks``: from such a place ``split_chunks`` starts afresh,
# so a range that begins there is cut into chunks as the whole input would be.
from pdn.chunks import ENDING_LINE, ENDS_WITH_RESULT, TAG_LINE, Chunk
from pdn.reader import SNIFF_BYTES, WIDE_ENCODINGS, detect_encoding, iter_blocks
from pdn.records import STDIN

SEARCH_LIMIT = 16  # ranges searched for a game end after a result before any game end will do
LOOK_BACK = 1 << 16  # bytes read before a range to see the line that ends the game before it


def source_name(source: str) -> str:
    """The name locations give for a source: the path as given, ``<stdin>`` for ``-``; bytes
    of the name that are not UTF-8 shown escaped (``\\xff``), as text can carry them."""
    return "<stdin>" if source == STDIN else shown_name(source)


def shown_name(path: str) -> str:
    """A file name as text to show or store: bytes that are not UTF-8 (which Python holds as
    lone surrogates, unfit for any UTF-8 output) written as ``\\xff``.

    >>> shown_name(os.fsdecode(b"caf\\xe9.pdn")), shown_name("café.pdn")
    ('caf\\\\xe9.pdn', 'café.pdn')
    """
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


@dataclass(frozen=True)
class Partition:
    """Whole games of one source: carried as ``text`` (read by the client) or as the byte
    range ``start:end`` of the file at ``url``, decoded as the whole file is."""

    source: str
    line: int
    text: str | None = None
    url: str | None = None
    start: int = 0
    end: int = 0
    encoding: str = "utf-8"
    guessed: bool = False  # the encoding was detected: bytes it cannot map read as Latin-1

    @property
    def size(self) -> int:
        """Characters (text) or bytes (range) of the partition."""
        return len(self.text) if self.text is not None else self.end - self.start

    def chunk(self) -> Chunk:
        """The partition's text, numbered from its first line in the whole source."""
        if self.text is not None:
            return Chunk(self.text, self.line)
        data = read_range(self.url or "", self.start, self.end)
        stream = io.TextIOWrapper(io.BytesIO(data), encoding=self.encoding, newline=None,
                                  errors="pdn-latin-1" if self.guessed else "strict")
        try:
            return Chunk(stream.read(), self.line)
        except UnicodeError as error:  # reported as pdn.reader.open_text reports it
            reason = getattr(error, "reason", None) or str(error)
            raise OSError(errno.EILSEQ, f"not {self.encoding} text ({reason}): give "
                          "the right --encoding", self.source) from error


def client_partitions(source: str, encoding: str | None, size: int) -> Iterator[Partition]:
    """A source read by this process in blocks of about ``size`` characters of whole games;
    ``-`` is standard input, a URL is opened through fsspec. Raises ``OSError`` when it
    cannot be read."""
    name = source_name(source)
    with ExitStack() as stack:
        if source == STDIN:
            handle: Path | IO[bytes] = sys.stdin.buffer
        elif "://" in source:
            import fsspec

            handle = stack.enter_context(fsspec.open(source, "rb"))
        else:  # a Path: read as a path whatever its name holds (a line break too)
            handle = Path(source)
        for block in iter_blocks(handle, encoding=encoding, size=size):
            yield Partition(name, block.line, text=block.text)


# ---- byte ranges of a local file, planned by this process --------------------------------


def file_partitions(path: str, encoding: str | None, size: int) -> Iterator[Partition]:
    """A local file cut into byte ranges of about ``size`` bytes of whole games, which the
    workers read themselves: this process only looks for the cuts, reading the file once
    with bytes searches (no decoding, no chunking) and holding at most
    ``(1 + SEARCH_LIMIT) * size`` bytes. Each range ends at a sure game end after a
    result, else at any sure game end within ``SEARCH_LIMIT`` sizes (as
    ``pdn.chunks.split_blocks`` cuts); where the file has none that far, or in a wide
    encoding (UTF-16, UTF-32), its rest is read and cut as text by this process
    (``client_partitions``). Raises ``OSError`` when it cannot be read."""
    url = os.path.abspath(path)
    facts = file_facts(url, encoding)
    name = source_name(path)
    if facts.encoding in WIDE_ENCODINGS:
        yield from client_partitions(path, encoding, size)
        return
    window = (1 + SEARCH_LIMIT) * size
    with open(url, "rb") as handle:
        data, base, start, line = bytearray(), 0, 0, 1  # data[base] is byte ``start``
        ended = False  # read to its end (not by its size: /proc's files say 0 and hold more)
        while True:
            if base >= window:  # drop what is behind: a bounded buffer, moved rarely
                del data[:base]
                base = 0
            wanted = max(0, base + window - len(data))
            if wanted and not ended:
                more = handle.read(wanted)
                ended = len(more) < wanted
                data += more
            rest = len(data) - base
            if not rest:
                return
            cut = rest if rest <= size else _sure_cut(data, base, size, facts.encoding)
            if cut is None:
                if not ended:
                    yield from _text_rest(name, url, start, line, facts, size)
                    return
                cut = rest  # no sure end in the file's last stretch: one piece
            yield Partition(name, line, url=url, start=start, end=start + cut,
                            encoding=facts.encoding, guessed=facts.guessed)
            line += _line_ends(data, base, base + cut)
            base, start = base + cut, start + cut


def _line_ends(data: bytearray, start: int, end: int) -> int:
    """The line ends of ``data[start:end]`` as ``count_lines`` counts them, without a copy
    (a range starts after a ``\\n``: no ``\\r\\n`` is cut in two)."""
    returns = data.count(b"\r", start, end)  # none in most files: no \r\n looked for
    ends = data.count(b"\n", start, end)
    return ends + returns - data.count(b"\r\n", start, end) if returns else ends


def _sure_cut(data: bytearray, base: int, size: int, encoding: str) -> int | None:
    """The offset from ``base`` (a game boundary in ``data``, a piece of a file) of the
    first tag line ``size`` or more bytes on that follows a sure game end, preferring one
    after a result."""
    for after_result in (True, False):
        position = base + size - 1
        while (newline := data.find(b"\n[", position)) >= 0:
            if _is_sure_end(data, newline, encoding, after_result):
                return newline + 1 - base
            position = newline + 1
    return None


def _text_rest(name: str, url: str, start: int, line: int, facts: FileFacts, size: int
               ) -> Iterator[Partition]:
    """The file from byte ``start`` (a game boundary, on line ``line``) read as text and cut
    into blocks of whole games by this process (``pdn.chunks.split_blocks``)."""
    from pdn.chunks import split_blocks

    with open(url, "rb") as binary:
        binary.seek(start)
        stream = io.TextIOWrapper(binary, encoding=facts.encoding, newline=None,
                                  errors="pdn-latin-1" if facts.guessed else "strict")
        try:
            for block in split_blocks(stream, size):
                yield Partition(name, line + block.line - 1, text=block.text)
        except UnicodeError as error:
            reason = getattr(error, "reason", None) or str(error)
            raise OSError(errno.EILSEQ, f"not {facts.encoding} text ({reason}): give "
                          "the right --encoding", name) from error


# ---- byte ranges, planned by the workers ----------------------------------------------------


def file_url(source: str) -> str:
    """What a worker opens: a URL as given, a local path made absolute (workers may run
    elsewhere in the directory tree)."""
    return source if "://" in source else os.path.abspath(source)


def read_range(url: str, start: int, end: int) -> bytes:
    """Bytes ``start:end`` of the file at ``url`` (any fsspec URL; a plain path without)."""
    if "://" not in url:
        with open(url, "rb") as handle:
            handle.seek(start)
            return handle.read(end - start)
    import fsspec

    with fsspec.open(url, "rb") as handle:
        handle.seek(start)
        return handle.read(end - start)


def _file_size(url: str) -> int:
    if "://" not in url:
        return os.path.getsize(url)
    import fsspec

    filesystem, path = fsspec.core.url_to_fs(url)
    return int(filesystem.size(path))


@dataclass(frozen=True)
class FileFacts:
    """What planning a file needs: its size and how it is decoded."""

    size: int
    encoding: str
    guessed: bool


def file_facts(url: str, encoding: str | None) -> FileFacts:
    """Worker task: the file's size and encoding (given, or detected from its first
    megabyte as ``pdn.reader`` does). Raises ``OSError`` when it cannot be read."""
    size = _file_size(url)
    if encoding is not None:
        try:
            codecs.lookup(encoding)
        except LookupError as error:
            raise OSError(errno.EINVAL, str(error), url) from error
        return FileFacts(size, encoding, False)
    return FileFacts(size, detect_encoding(read_range(url, 0, min(size, SNIFF_BYTES))), True)


@dataclass(frozen=True)
class Cut:
    """A scanned range ``[start, start + length)``: the first sure game end at or after its
    start (the file's size when none), the lines before that end from the start, and the
    lines of the whole range."""

    offset: int
    lines_to_offset: int
    lines: int


def scan_range(url: str, start: int, length: int, facts: FileFacts) -> Cut:
    """Worker task: where the first partition starting in a range begins, and line counts
    that let the client number every partition without reading the file."""
    end = min(start + length, facts.size)
    before = read_range(url, start - 1, start) if start else b""
    data = read_range(url, start, end)
    lines = count_lines(data, before)
    if start == 0:
        return Cut(0, 0, lines)
    if facts.encoding in WIDE_ENCODINGS:  # no byte search finds their lines: one partition
        return Cut(facts.size, 0, 0)
    offset = _first_sure_end(url, start, length, facts, after_result=True)
    if offset is None:
        offset = _first_sure_end(url, start, length, facts, after_result=False)
    offset = facts.size if offset is None else offset
    counted = count_lines(read_range(url, start, offset), before)
    return Cut(offset, counted, lines)


def count_lines(data: bytes, before: bytes = b"") -> int:
    """Line ends in ``data`` as universal newlines count them (``\\r\\n``, ``\\r``, ``\\n``);
    ``before`` is the byte preceding it (a ``\\r\\n`` cut in two counts once)."""
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    return ends - (before == b"\r" and data.startswith(b"\n"))


def _first_sure_end(url: str, start: int, length: int, facts: FileFacts, *,
                    after_result: bool) -> int | None:
    """The offset of the first tag line at or after ``start`` that follows a sure game end
    (after a result, if asked), searching ``SEARCH_LIMIT`` ranges forward."""
    low = max(0, start - LOOK_BACK)
    limit = min(facts.size, start + SEARCH_LIMIT * length)
    data = read_range(url, low, limit)
    position = start - low - 1
    while (newline := data.find(b"\n[", max(position, 0))) >= 0:
        position = newline + 1
        if newline + 1 < start - low:
            continue
        if _is_sure_end(data, newline, facts.encoding, after_result):
            return low + newline + 1
    return None


def _is_sure_end(data: bytes | bytearray, newline: int, encoding: str, after_result: bool) -> bool:
    """Whether the tag line after ``data[newline]`` follows a sure game end, as
    ``pdn.chunks.split_blocks`` decides it on the decoded text."""
    tag_end = data.find(b"\n", newline + 1)
    tag_line = data[newline + 1 : tag_end if tag_end >= 0 else len(data)]
    if not TAG_LINE.match(_decoded(tag_line, encoding)):
        return False
    end = newline  # walk back over blank lines to the line before them
    while True:
        line_start = data.rfind(b"\n", 0, end) + 1
        if line_start == 0:
            return False  # the ending line starts before what was read: not sure here
        if data[line_start:end].strip(b" \t\r"):
            break
        end = line_start - 1
    ending = _decoded(data[line_start:end].rstrip(b"\r"), encoding)
    return bool(ENDING_LINE.fullmatch(ending)) and (
        not after_result or bool(ENDS_WITH_RESULT.search(ending)))


def _decoded(line: bytes, encoding: str) -> str:
    return line.decode(encoding.replace("-sig", ""), errors="pdn-latin-1")


def plan_ranges(source: str, url: str, facts: FileFacts, cuts: list[Cut]
                ) -> Iterator[Partition]:
    """The partitions of a file from the cuts of its consecutive ranges (first to last)."""
    lines = 1
    starts: list[tuple[int, int]] = []
    for cut in cuts:
        if not starts or cut.offset > starts[-1][0]:
            starts.append((cut.offset, lines + cut.lines_to_offset))
        lines += cut.lines
    ends = [offset for offset, _ in starts[1:]] + [facts.size]
    for (offset, line), end in zip(starts, ends, strict=True):
        if end > offset:
            yield Partition(source, line, url=url, start=offset, end=end,
                            encoding=facts.encoding, guessed=facts.guessed)
