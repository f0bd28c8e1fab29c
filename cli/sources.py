"""The input paths of a command: files, directories searched recursively, or - for stdin."""

from __future__ import annotations

from pathlib import Path

RECORD_SUFFIXES = (".pdn", ".txt")
STDIN = "-"


class SourceError(ValueError):
    """An input path that does not exist."""


def collect_sources(paths: list[str], suffixes: tuple[str, ...] = RECORD_SUFFIXES) -> list[str]:
    """Files to read, in the order given; a directory contributes its record files, sorted;
    a URL (``s3://...``, read through fsspec) is taken as it is."""
    sources: list[str] = []
    for text in paths:
        if text == STDIN or "://" in text:
            sources.append(text)
            continue
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes
                           and _readable_kind(p))
            sources.extend(str(p) for p in found)
        elif path.exists():
            sources.append(text)
        else:
            raise SourceError(f"{text}: no such file or directory")
    return sources


def _readable_kind(path: Path) -> bool:
    """A file, or a dangling link to one (reported as unreadable, never skipped in silence);
    not a directory, pipe or device, which would hang or make no sense."""
    return path.is_file() or (path.is_symlink() and not path.exists())
