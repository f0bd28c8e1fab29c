"""The input paths of a command: files, directories searched recursively, or - for stdin."""

from __future__ import annotations

from pathlib import Path

RECORD_SUFFIXES = (".pdn", ".txt")
STDIN = "-"


class SourceError(ValueError):
    """An input path that does not exist."""


def collect_sources(paths: list[str], suffixes: tuple[str, ...] = RECORD_SUFFIXES) -> list[str]:
    """Files to read, in the order given; a directory contributes its record files, sorted."""
    sources: list[str] = []
    for text in paths:
        if text == STDIN:
            sources.append(STDIN)
            continue
        path = Path(text)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes
                           and p.is_file())
            sources.extend(str(p) for p in found)
        elif path.exists():
            sources.append(text)
        else:
            raise SourceError(f"{text}: no such file or directory")
    return sources
