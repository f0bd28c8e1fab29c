"""Convert whole sources: read each file (or standard input), mend broken games where a repair
is sure, convert every game, and say what became of each (the library behind ``pdn convert``).

>>> from replay.convert import Target, render
>>> from replay.variants import RUSSIAN
>>> items = list(convert_sources(["1.ed4 dc5 2.fe3 *"], RUSSIAN, Target("full")))
>>> [verdict(item) for item in items], render(items[0], "text", "inline")
(['converted'], '1.e3-d4 d6-c5 2.f2-e3')
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import IO

from pdn.model import Game
from pdn.reader import read_games
from replay.convert import Conversion, Target, TargetError, convert_games
from replay.validate import problem_line
from replay.variants import Rules, Variant

# What became of a game, in the order ``pdn convert`` sums them up.
VERDICTS = ("converted", "incomplete", "partly converted", "not converted", "unreadable")


@dataclass(frozen=True)
class Unreadable:
    """A source that could not be read, and why (``path: cannot read: reason``)."""

    source: str
    message: str


@dataclass(frozen=True)
class Repaired:
    """A game mended before it was converted (``repair``), said in words."""

    message: str


def convert_sources(sources: Iterable[str], default: Variant | None = None,
                    target: Target | None = None, *, override: Variant | None = None,
                    rules: Rules | None = None, partial: bool = False, details: bool = False,
                    repair: bool = False, encoding: str | None = None,
                    progress: Callable[[int], None] | None = None
                    ) -> Iterator[Conversion | Repaired | Unreadable]:
    """Every game of every source converted, in order; a source that cannot be read gives an
    ``Unreadable`` instead and the others are still read. ``-`` is standard input, and a
    string that is not a file name is read as PDN text.

    ``repair`` mends a game that stops replaying where one repair is sure
    (``replay.repair.repair_game``; a ``Repaired`` comes before its conversion). ``progress``
    is told how many bytes each read of a file gave. Raises ``TargetError`` when
    ``target`` does not fit a game's board.
    """
    for source in sources:
        name = "<stdin>" if source == "-" else source
        try:
            stack = ExitStack()
            games = _games(_opened(source, stack, progress), name, encoding, stack)
            if repair:
                games = _repaired(games, default, override, rules)
            for item in games:
                if isinstance(item, Repaired):
                    yield item
                    continue
                yield from convert_games([item], default, target, override=override,
                                         partial=partial, details=details, rules=rules)
        except TargetError as error:
            raise TargetError(f"{name}: {error}") from None
        except (OSError, LookupError, UnicodeError) as error:
            reason = getattr(error, "strerror", None) or error
            yield Unreadable(name, f"{name}: cannot read: {reason}")


def _opened(source: str, stack: ExitStack, progress: Callable[[int], None] | None):
    """What the reader reads for a source: standard input, the file, or PDN text; a file or
    standard input counted as it is read when ``progress`` is given."""
    if source == "-":
        binary: IO[bytes] = sys.stdin.buffer
    elif progress is not None and os.path.isfile(source):
        binary = stack.enter_context(open(source, "rb"))  # noqa: SIM115 - the stack closes it
    else:
        return source
    return _Counted(binary, progress) if progress is not None else binary


class _Counted:
    """A binary stream that tells ``progress`` how many bytes each read gave."""

    def __init__(self, binary: IO[bytes], progress: Callable[[int], None]) -> None:
        self.binary, self.progress = binary, progress
        self.name = getattr(binary, "name", None)

    def read(self, size: int = -1) -> bytes:
        data = self.binary.read(size)
        self.progress(len(data))
        return data


def _games(handle, name: str, encoding: str | None, stack: ExitStack) -> Iterator[Game]:
    """The games of one source, with the name their messages give; the source is closed
    when they are done."""
    with stack:
        for game in read_games(handle, encoding=encoding):
            game.source = name
            yield game


def _repaired(games: Iterable[Game], default: Variant | None, override: Variant | None,
              rules: Rules | None) -> Iterator[Game | Repaired]:
    """The games, each broken one mended where a repair is sure (and said)."""
    from replay.repair import repair_game

    for game in games:
        mend = repair_game(game, default, override, rules=rules).mend
        if mend:
            yield Repaired(f"{game.source or '<stdin>'}:{game.line}: game {game.index}: "
                           f"repaired: {mend}")
        yield game


def verdict(conversion: Conversion) -> str:
    """What became of a game: one of ``VERDICTS``."""
    report = conversion.report
    if conversion.game is None:
        return "unreadable" if report.status == "unreadable" else "not converted"
    if report.errors:
        return "partly converted"
    return "incomplete" if report.status == "incomplete" else "converted"


def messages(conversion: Conversion) -> list[str]:
    """What to tell the user about a game: its errors and the records written differently,
    in ``pdn validate``'s form, and where a partial conversion stopped."""
    report = conversion.report
    lines = [problem_line(report, problem, "error") for problem in report.errors]
    lines += [problem_line(report, problem, "warning") for problem in report.warnings]
    if verdict(conversion) == "partly converted" and conversion.tree is not None:
        lines.append(f"{report.file or '<stdin>'}:{report.line}: {report.title}: converted up "
                     f"to the error ({len(conversion.tree.steps)} plies of the main line)")
    return lines
