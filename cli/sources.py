"""The input paths of a command: files, directories searched recursively, or - for stdin."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from pdn.i18n import N_
from pdn.records import RECORD_SUFFIXES, STDIN

if TYPE_CHECKING:
    from pdn.game import Game


class SourceError(ValueError):
    """An input path that does not exist."""


NO_SUCH_FILE = N_("{name}: no such file or directory")
CANNOT_OPEN = N_("{name}: cannot open: {reason}")
NO_GAMES = N_("{name}: no games: {reason}")
NO_RECORD_FILES = N_("{names}: no record files (*.pdn, *.phn, *.txt) found")
NO_RECORD_FILES_TO_DO = N_("{names}: no record files (*.pdn, *.txt) found: 0 games")


def collect_sources(paths: list[str], suffixes: tuple[str, ...] = RECORD_SUFFIXES) -> list[str]:
    """Files to read, in the order given; a directory contributes its record files, sorted;
    a URL (``s3://...``, read through fsspec) is taken as it is."""
    sources: list[str] = []
    for text in paths:
        if text == STDIN or "://" in text:
            sources.append(text)
            continue
        path = Path(text)
        try:
            kind = os.stat(path).st_mode
        except FileNotFoundError:
            raise SourceError(NO_SUCH_FILE.format(name=text)) from None
        except OSError as error:  # a name too long, a loop of links, no permission
            raise SourceError(CANNOT_OPEN.format(name=text, reason=error.strerror or error)
                              ) from None
        if stat.S_ISDIR(kind):
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes
                           and _readable_kind(p))
            sources.extend(str(p) for p in found)
        else:
            if (why := no_games_in(path)) is not None:
                raise SourceError(NO_GAMES.format(name=text, reason=why))
            sources.append(text)
    return sources


def exit_if_no_sources(sources: list[str], paths: list[str]) -> None:
    """The rule for inputs with no record file (an empty folder): nothing to do, which is no
    error: a note, and exit 0, as every command that reads them does with no game."""
    if sources:
        return
    import typer

    from .common import spoken, stderr_console

    stderr_console().print(spoken().localize(NO_RECORD_FILES_TO_DO.format(
        names=", ".join(paths))), markup=False)
    raise typer.Exit(0)


SNIFFED_BYTES = 8192  # how much of a file named on the command line is looked at first
BINARY_SHARE = 16  # one byte in this many NUL (or more): binary data, not a damaged text
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")  # UTF-8, UTF-16 (UTF-32 starts alike)


def no_games_in(path: Path) -> str | None:
    """Why a file named on the command line cannot hold a game, or None: it is empty (or
    blank), or it is binary data: one byte in 16 or more of its first 8 KiB is NUL, at even
    and at odd offsets, which no text in UTF-8 or UTF-16 has (an executable, an image). A
    few stray NULs in a text are damage the reader reports game by game."""
    try:
        if not path.is_file():
            return None
        with path.open("rb") as stream:
            head = stream.read(SNIFFED_BYTES)
            more = bool(stream.read(1))
    except OSError:
        return None  # the command's reader says what is wrong with it
    if head.startswith(_BOMS):
        return None
    if not more and not head.strip():
        return N_("the file is empty") if not head else N_("the file holds only blank space")
    zeros = [offset for offset, byte in enumerate(head) if byte == 0]
    if len(zeros) * BINARY_SHARE >= len(head) and {offset % 2 for offset in zeros} == {0, 1}:
        return N_("the file is binary data, not text (no PDN file or scoresheet has NUL "
                  "bytes)")
    return None


def _readable_kind(path: Path) -> bool:
    """A file, or a dangling link to one (reported as unreadable, never skipped in silence);
    not a directory, pipe or device, which would hang or make no sense."""
    return path.is_file() or (path.is_symlink() and not path.exists())


def shown_name(source: str) -> str:
    """A source as messages name it: the path as given, ``<stdin>`` for ``-``."""
    return "<stdin>" if source == STDIN else source


def readable(source: str):
    """What ``pdn.reader`` reads for a source: the path (a ``Path``: read as a path whatever
    its name holds, a line break too), or standard input's bytes."""
    import sys

    return sys.stdin.buffer if source == STDIN else Path(source)


def read_inputs(sources: list[str], encoding: str | None = None):
    """The games of every source in order, each named by its source (``Game.source``)."""
    from pdn.reader import read_games

    for source in sources:
        for game in read_games(readable(source), encoding=encoding):
            game.source = shown_name(source)
            yield game


def nth_game(sources: list[str], number: int, encoding: str | None = None):
    """Game ``number`` (1-based) of the sources, counted through them in order; raises
    ``pdn.reader.NoSuchGameError`` when they hold fewer (saying how many)."""
    from pdn.reader import NoSuchGameError, read_game
    from pdn.wording import count

    if len(sources) == 1:
        game = read_game(readable(sources[0]), number, encoding=encoding)
        game.source = shown_name(sources[0])
        return game
    seen = 0
    for seen, game in enumerate(read_inputs(sources, encoding), 1):
        if seen == number:
            return game
    raise NoSuchGameError(f"the {count(len(sources), 'input')} hold {count(seen, 'game')}, "
                          f"so there is no game {number}")


def game_of(paths: list[str], number: int, encoding: str | None = None) -> Game:
    """Game ``number`` (1-based) of the inputs (files, folders or ``-``), counted through
    them in order; exits with a clear error when there is none."""
    from pdn.reader import NoSuchGameError

    from .common import fail, fail_io

    try:
        sources = collect_sources(paths)
        if not sources:
            fail(NO_RECORD_FILES.format(names=", ".join(paths)))
        return nth_game(sources, number, encoding)
    except SourceError as error:
        fail(str(error))
    except OSError as error:
        fail_io(error, ', '.join(paths))
    except NoSuchGameError as error:
        fail(str(error))
