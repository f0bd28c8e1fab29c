"""A file on the desk as it was read from disk: its text and its bytes cut at the same
lines (so a game left unedited is written back byte for byte, whatever the encoding), the
codec an edited game is written in, and the stamp that tells whether the file changed on
disk since (its size, modification time and SHA-256).

>>> read = decoded(b"[Site \\"Li\\xe8ge\\"]\\r\\n1. 32-28 *\\n")
>>> read.encoding, read.lines
('latin-1', ['[Site "Liège"]\\r\\n', '1. 32-28 *\\n'])
>>> read.raw_lines
[b'[Site "Li\\xe8ge"]\\r\\n', b'1. 32-28 *\\n']
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from pdn.reader import SNIFF_BYTES, WIDE_ENCODINGS, detect_encoding

# the line ends the reader counts (universal newlines): \r\n, \r and \n, nothing else
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
         (codecs.BOM_UTF8, "utf-8"))
SPACE_ERRORS = {errno.ENOSPC, errno.EDQUOT}
PERMISSION_ERRORS = {errno.EACCES, errno.EPERM, errno.EROFS}


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` with their ends, cut where the reader counts lines."""
    return _LINE.findall(text)


@dataclass(frozen=True)
class Stamp:
    """What tells a file changed on disk: its size, modification time and SHA-256."""

    size: int
    mtime_ns: int
    digest: str

    @classmethod
    def of(cls, path: Path, raw: bytes) -> Stamp:
        """The stamp of ``path`` whose bytes are ``raw`` (raises OSError)."""
        status = path.stat()
        return cls(len(raw), status.st_mtime_ns, hashlib.sha256(raw).hexdigest())


@dataclass
class Decoded:
    """A file's bytes as text: ``lines`` and ``raw_lines`` cut at the same line ends
    (the byte order mark, if any, in the first raw line), ``encoding`` as
    ``pdn.reader.detect_encoding`` names it, ``codec`` what an edited line is written in,
    ``exact`` whether the lines encoded give back the bytes (always, but for a damaged
    UTF-16 or UTF-32 file)."""

    lines: list[str]
    raw_lines: list[bytes]
    encoding: str
    codec: str
    exact: bool = True
    bom: bytes = b""

    def piece(self, start: tuple[int, int], end: tuple[int, int]) -> tuple[str, bytes]:
        """The text and the bytes from ``start`` to ``end``, each a line (from 0) and a
        column (from 0) where the text is cut: the start of a line, or a ``[``."""
        (first, at), (last, until) = start, end
        if first == len(self.lines):
            return "", b""
        cut, stop = self._byte_column(first, at), self._byte_column(last, until)
        if first == last:
            return self.lines[first][at:until], self.raw_lines[first][cut:stop]
        text = [self.lines[first][at:], *self.lines[first + 1:last]]
        raw = [self.raw_lines[first][cut:], *self.raw_lines[first + 1:last]]
        if until:
            text.append(self.lines[last][:until])
            raw.append(self.raw_lines[last][:stop])
        return "".join(text), b"".join(raw)

    def _byte_column(self, line: int, column: int) -> int:
        """The byte in its line of the character ``column`` of line ``line``."""
        if column == 0:
            return 0
        text = self.lines[line]
        if self.encoding in WIDE_ENCODINGS:  # each line was encoded on its own
            return (len(self.bom) if line == 0 else 0) + len(text[:column].encode(self.codec))
        # ASCII-compatible: the byte "[" is the character "[" and nothing else
        assert text[column] == "[", "a line is cut at a '[' only"
        raw, found = self.raw_lines[line], -1
        for _ in range(text.count("[", 0, column) + 1):
            found = raw.index(b"[", found + 1)
        return found


def decoded(raw: bytes) -> Decoded:
    """``raw`` decoded as the reader decodes a file (a byte its encoding cannot map reads
    as Latin-1), cut into lines."""
    encoding = detect_encoding(raw[:SNIFF_BYTES])
    bom, codec = next(((bom, codec) for bom, codec in _BOMS if raw.startswith(bom)),
                      (b"", encoding))
    if encoding in WIDE_ENCODINGS:
        lines = split_lines(raw[len(bom):].decode(codec, errors="pdn-latin-1"))
        raw_lines = [line.encode(codec) for line in lines]
        if raw_lines:
            raw_lines[0] = bom + raw_lines[0]
        return Decoded(lines, raw_lines, encoding, codec, b"".join(raw_lines) == raw, bom)
    # ASCII-compatible: the bytes \r and \n are always those characters, the lines of the
    # bytes are those of the text
    raw_lines = raw.splitlines(keepends=True)
    lines = [line.decode(codec, errors="pdn-latin-1") for line in raw_lines]
    if lines and bom:
        lines[0] = lines[0].removeprefix("\ufeff")
    return Decoded(lines, raw_lines, encoding, codec, bom=bom)


def write_failure(error: OSError) -> int:
    """The HTTP status of a file that could not be written: 507 when the disk is full,
    403 when the folder or file is read-only, else 500."""
    if error.errno in SPACE_ERRORS:
        return 507
    if error.errno in PERMISSION_ERRORS:
        return 403
    return 500


__all__ = ["Decoded", "Stamp", "decoded", "split_lines", "write_failure"]
