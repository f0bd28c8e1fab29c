"""``pdn dedupe`` over whole sources: each game written once, on the runner the settings
name. Here the games wait in a temporary spool while their fingerprints are grouped
(``replay.archive.dedupe``); on a Dask cluster the workers do it all
(``replay.archive.shuffle``). Both speak the archive commands' vocabulary
(``replay.archive.run``: settings, summary, the report's rows)."""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, NamedTuple

from pdn.chunks import Chunk
from pdn.game import Game
from pdn.reader import read_block
from pdn.records import STDIN
from pdn.tags import head_tags
from replay.archive.dedupe import (
    GameKeys,
    Group,
    SameMoves,
    completeness,
    game_keys,
    move_key,
    settle,
)
from replay.archive.identity import Facts, facts_of
from replay.archive.run import (
    ALIKE,
    COPIES,
    Located,
    Note,
    Out,
    Settings,
    Summary,
    game_text,
    note_unreadable,
    portable,
    report_row,
    run_over,
    write_report,
)
from replay.archive.stream import Record
from replay.archive.tags import DateParts, date_parts_plain
from replay.rules.variants import Variant
from replay.run.output import as_write_error
from replay.run.runner import DaskRunner, Runner, open_runner


def dedupe_games(sources: list[str], out: IO[str], settings: Settings, *,
                 by: str = "game", report: str | os.PathLike | None = None,
                 rejects: IO[str] | None = None, note: Note = print) -> Summary:
    """Write each game once: of every group of copies of one game only the most complete.

    A copy is the same game recorded twice: the same moves, and nothing both records state
    of the game (players, date, round, game number, result, site; those ``by`` names,
    ``replay.archive.identity``) that differs. Different games of the same moves are all
    written, and counted in ``Summary.alike``.

    On the local engine the games wait in a temporary spool file while their written keys
    are grouped, so memory holds 17 bytes a game (``Catalogue``); the games that share a
    written key are read back from the spool and compared by their positions. On the dask
    engine the workers do all of it (``replay.archive.shuffle``) and the client keeps
    nothing per game; the groups and the copies kept are the same.
    ``report``: a CSV file (``REPORT_COLUMNS``) with one row per copy of every group, then
    one row per game of every line of moves several games played.
    """
    with open_runner(settings.engine, jobs=settings.jobs,
                     scheduler=settings.scheduler) as runner:
        if isinstance(runner, DaskRunner) and STDIN not in sources:
            return _dedupe_on_cluster(runner, sources, out, settings, by, report, rejects,
                                      note)
        return _dedupe_here(runner, sources, out, settings, by, report, rejects, note)


def _dedupe_here(runner: Runner, sources: list[str], out: IO[str], settings: Settings,
                 by: str, report: str | os.PathLike | None, rejects: IO[str] | None,
                 note: Note) -> Summary:
    """``dedupe_games`` with the groups filed in this process."""
    summary = Summary()
    with tempfile.TemporaryFile(buffering=0) as spool:  # unbuffered: a full disk shows at once
        catalogue = Catalogue(spool)
        for item in run_over(sources, KeyTask(portable(settings)), settings, runner):
            summary.games += 1
            catalogue.add(item)
            if item.result.error:
                note_unreadable(item, summary, rejects, note)
        settled = _settled_lines(catalogue, settings, by, listing=report is not None)
        for ordinal, flags in enumerate(catalogue.flags):
            if flags & UNREADABLE:
                (rejects or out).write(catalogue.text(ordinal))
            elif not flags & REMOVED:
                out.write(catalogue.text(ordinal))
                summary.written += 1
        summary.groups, summary.removed, summary.alike = (settled.groups, settled.removed,
                                                          settled.alike)
        if report is not None:
            write_report(report, _report_rows(catalogue, settled))
    return summary


@dataclass
class KeyTask:
    """Every game's text and ``GameKeys``, made once per distinct text in a run of a
    worker (a game pasted over and over is read for its variant once)."""

    settings: Settings

    def __call__(self, records: list[Record]) -> list[Out]:
        choice = self.settings.choice
        run = repr(choice)
        results = []
        for record in records:
            if record.game is None:
                results.append(Out(game_text(record), record.line, record.error,
                                   left_out=record.too_large))
                continue
            text = hashlib.blake2b(record.text.encode("utf-8"), digest_size=16).digest()
            key = (run, text, record.part[0])
            keys = _KEYS_MADE.get(key)
            if keys is None:
                if len(_KEYS_MADE) >= _KEYS_KEPT:
                    _KEYS_MADE.clear()
                keys = _KEYS_MADE[key] = game_keys(record.game, choice.default,
                                                   choice.override, rules=choice.rules)
            results.append(Out(game_text(record), record.line, value=keys))
        return results


_KEYS_MADE: dict[tuple[str, bytes, int], GameKeys] = {}
_KEYS_KEPT = 4096


class Head(NamedTuple):
    """What the spool holds of a game before its text (``HEAD``): its place, and its
    ``line_key`` and variant (by number) for settling its written key."""

    line: int
    index: int
    source: int
    variant: int
    line_key: bytes


HEAD = struct.Struct("<qqIH16s")  # a game's Head in the spool, 38 bytes before its text
NO_GAME = -1  # the next game of a key no later game shares

UNREADABLE, FOLLOWS, REMOVED = 1, 2, 4  # a game's flags: one the reader gave up on, one
# whose written key an earlier game has, a copy that is not kept


class Column:
    """A growing column of integers (an ``array`` type code) held in blocks of ``BLOCK``
    entries made whole at once: growing never copies it, as a growing array's reallocation
    does, which leaves the old copy's pages in the heap."""

    BLOCK = 1 << 14

    def __init__(self, typecode: str) -> None:
        self.typecode = typecode
        self.blocks: list[array] = []
        self.size = 0

    def __len__(self) -> int:
        return self.size

    def append(self, value: int) -> None:
        if self.size == len(self.blocks) * self.BLOCK:
            self.blocks.append(array(self.typecode, [0]) * self.BLOCK)
        self.blocks[-1][self.size % self.BLOCK] = value
        self.size += 1

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self.size:
            raise IndexError(index)
        return self.blocks[index // self.BLOCK][index % self.BLOCK]

    def __setitem__(self, index: int, value: int) -> None:
        if not 0 <= index < self.size:
            raise IndexError(index)
        self.blocks[index // self.BLOCK][index % self.BLOCK] = value


class Catalogue:
    """What the local dedupe keeps of every game while the sources are read. In the spool,
    each game's ``Head`` (its place, its ``line_key`` and variant) and its text. In memory,
    17 bytes a game in columns -- its offset in the spool, the ordinal of the next game of
    its written key (8 bytes each) and a byte of flags -- and one dictionary entry per
    distinct written key (the 16-byte key and its last game so far), dropped before the
    keys are settled. So the games of a written key are a chain through the columns, from
    the first (not ``FOLLOWS``), and nothing else is held per game: the games that share a
    key are read back from the spool, a window at a time (``_settled_lines``)."""

    def __init__(self, spool: IO[bytes]) -> None:
        self.spool = spool
        self.offsets = Column("q")
        self.offsets.append(0)
        self.end = 0  # the spool's size
        self.following = Column("q")
        self.flags = bytearray()
        self.source_names: list[str] = []
        self.variant_table: list[Variant] = []
        self.variant_numbers: dict[Variant, int] = {}
        self.last: dict[bytes, int] = {}  # written key -> its last game so far

    def __len__(self) -> int:
        return len(self.flags)

    def add(self, item: Located[Out]) -> None:
        """Spool and file one game, in reading order."""
        ordinal = len(self.flags)
        if not self.source_names or self.source_names[-1] != item.source:
            self.source_names.append(item.source)
        keys = item.result.value
        flags = UNREADABLE if item.result.error else 0
        line_key, variant = (keys.line, self._variant_number(keys.variant)) \
            if isinstance(keys, GameKeys) else (b"", 0)
        head = HEAD.pack(item.result.line, item.index, len(self.source_names) - 1, variant,
                         line_key)
        self.end += _spool_write(self.spool, head, item.result.text)
        self.offsets.append(self.end)
        self.following.append(NO_GAME)
        if isinstance(keys, GameKeys) and keys.written is not None:  # else never a duplicate
            last = self.last.get(keys.written)
            if last is not None:
                self.following[last] = ordinal
                flags |= FOLLOWS
            self.last[keys.written] = ordinal
        self.flags.append(flags)

    def _variant_number(self, variant: Variant) -> int:
        if self.variant_table and self.variant_table[-1] is variant:
            return len(self.variant_table) - 1
        number = self.variant_numbers.get(variant)
        if number is None:
            number = self.variant_numbers[variant] = len(self.variant_table)
            self.variant_table.append(variant)
        return number

    def read(self, ordinal: int) -> tuple[Head, bytes]:
        """A game's ``Head`` and text (UTF-8), read back from the spool."""
        self.spool.seek(self.offsets[ordinal])
        data = self.spool.read(self.offsets[ordinal + 1] - self.offsets[ordinal])
        return Head._make(HEAD.unpack_from(data)), data[HEAD.size:]

    def text(self, ordinal: int) -> str:
        """A game's text, read back from the spool without its head."""
        start, end = self.offsets[ordinal] + HEAD.size, self.offsets[ordinal + 1]
        self.spool.seek(start)
        return self.spool.read(end - start).decode("utf-8")

    def game(self, ordinal: int) -> tuple[Game, Variant]:
        """A game read back from its text, and the variant it was read under."""
        head, text = self.read(ordinal)
        return (next(read_block(Chunk(text.decode("utf-8"), 1))),
                self.variant_table[head.variant])

    def row(self, ordinal: int) -> list:
        """A game's columns of the report from ``file`` to ``result``."""
        head, text = self.read(ordinal)
        return report_row(self.source_names[head.source], head.index, head.line,
                          head_tags(text.decode("utf-8"))[0])

    def shared(self) -> Iterator[list[int]]:
        """The games of every written key two or more games share, in the order of their
        first game; the dictionary of keys is dropped first (no game is added after)."""
        self.last = {}
        following, flags = self.following, self.flags
        for first in range(len(flags)):
            if following[first] != NO_GAME and not flags[first] & FOLLOWS:
                games = [first]
                while following[games[-1]] != NO_GAME:
                    games.append(following[games[-1]])
                yield games


@dataclass
class Settled:
    """What settling the written keys leaves besides each copy's ``REMOVED`` flag: the
    counts, and for the report (``listing``) the groups of copies and the lines several
    games played, in the order of their first record. Each group is a run of ``members``
    (ordinals, in reading order) from one of ``starts``; a line, its first record, the kept
    copy of each of its games and what tells them apart."""

    listing: bool
    groups: int = 0
    removed: int = 0
    alike: int = 0
    members: array = field(default_factory=lambda: array("q"))
    starts: array = field(default_factory=lambda: array("q"))
    lines: list[tuple[int, list[int], tuple[str, ...]]] = field(default_factory=list)

    def add(self, groups: list[Group], line: SameMoves | None, flags: bytearray) -> None:
        """File what ``dedupe.settle`` found of one line of moves: flag its copies that are
        not kept, and keep the groups and the line for the report."""
        self.groups += len(groups)
        for group in groups:
            for member in group.members:
                if member != group.best:
                    flags[member] |= REMOVED
                    self.removed += 1
            if self.listing:
                self.starts.append(len(self.members))
                self.members.extend(group.members)
        if line is not None:
            self.alike += 1
            if self.listing:
                self.lines.append((line.games[0].members[0], [game.best for game in line.games],
                                   line.differs))

    def copies(self) -> Iterator[array]:
        """Each group's members, groups in the order of their first record."""
        ends = [*self.starts[1:], len(self.members)]
        for number in sorted(range(len(self.starts)), key=lambda n: self.members[self.starts[n]]):
            yield self.members[self.starts[number]:ends[number]]


SAME_TEXT = (0, 0, 0)  # the score of records of one text, which tie: the first is kept
WINDOW = 2_000  # games of shared written keys settled at once


def _settled_lines(catalogue: Catalogue, settings: Settings, by: str, listing: bool
                   ) -> Settled:
    """The games that share a written key, split into lines of moves (by ``line_key``, and
    where a key's games differ in it, by the ``move_key`` of one game of each), and each
    line's records told apart as games (``dedupe.settle``). They are settled a window of
    keys at a time; each distinct text is read back from the spool once for its facts, and
    for its completeness only where a line holds other texts (copies of one text tie)."""
    settled = Settled(listing)
    dates: dict[str, DateParts] = {}  # each Date tag met, read once
    window: list[list[int]] = []
    for games in chain(catalogue.shared(), [[]]):
        window.append(games)
        if sum(len(g) for g in window) >= WINDOW or not games:
            for members, described in _window_lines(window, catalogue, settings, dates):
                settled.add(*settle(((ordinal, *facts) for ordinal, facts in
                                     zip(members, described, strict=True)), by),
                            catalogue.flags)
            window = []
    settled.lines.sort(key=lambda line: line[0])
    return settled


def _window_lines(window: list[list[int]], catalogue: Catalogue, settings: Settings,
                  dates: dict[str, DateParts]
                  ) -> Iterator[tuple[list[int], list[tuple[Facts, tuple[int, int, int]]]]]:
    """The lines of moves two or more games of a window of written keys played: each as
    its games' ordinals, in reading order, and their facts and completeness."""
    choice = settings.choice
    line_keys, digests = {}, {}
    for games in window:
        for ordinal in games:
            head, text = catalogue.read(ordinal)
            line_keys[ordinal] = head.line_key
            digests[ordinal] = hashlib.blake2b(text, digest_size=16).digest()
    lines: list[list[int]] = []
    for games in window:
        by_line: dict[bytes | None, list[int]] = {}
        for ordinal in games:
            by_line.setdefault(line_keys[ordinal], []).append(ordinal)
        if len(by_line) > 1:  # records of other texts: the same moves only if they replay alike
            exact = {key: move_key(catalogue.game(members[0])[0], choice.default,
                                   choice.override, rules=choice.rules)
                     for key, members in by_line.items()}
            by_line = {}
            for ordinal in games:
                by_line.setdefault(exact[line_keys[ordinal]], []).append(ordinal)
        lines += [members for members in by_line.values() if len(members) > 1]
    firsts: dict[bytes, int] = {}
    scored: set[bytes] = set()
    for members in lines:
        texts = {digests[ordinal] for ordinal in members}
        scored |= texts if len(texts) > 1 else set()
        for ordinal in members:
            firsts.setdefault(digests[ordinal], ordinal)
    described = _described(catalogue, firsts, scored, dates)
    for members in lines:
        yield members, [described[digests[ordinal]] for ordinal in members]


def _described(catalogue: Catalogue, firsts: dict[bytes, int], scored: set[bytes],
               dates: dict[str, DateParts]) -> dict[bytes, tuple[Facts, tuple[int, int, int]]]:
    """Each distinct text's facts, and its completeness where ``scored`` (else
    ``SAME_TEXT``), read from the game of its first record (each Date tag read once,
    without pandas: ``dates`` keeps them)."""
    described: dict[bytes, tuple[Facts, tuple[int, int, int]]] = {}
    for digest, ordinal in firsts.items():
        game, variant = catalogue.game(ordinal)
        date = game.tags.get("Date") or ""
        if date not in dates:
            dates[date] = date_parts_plain(date)
        described[digest] = (facts_of(game.tags, variant, dates[date]),
                             completeness(game, variant) if digest in scored else SAME_TEXT)
    return described


def _report_rows(catalogue: Catalogue, settled: Settled) -> Iterator[list]:
    """The report's rows: every copy, group by group, then the kept copy of every game of
    each line several games played, with what tells the games apart; each game's columns
    read back from the spool."""
    flags = catalogue.flags
    for number, members in enumerate(settled.copies(), 1):
        for member in members:
            yield [COPIES, number, "no" if flags[member] & REMOVED else "yes",
                   *catalogue.row(member), ""]
    for number, (_, kept, differs) in enumerate(settled.lines, settled.groups + 1):
        for best in kept:
            yield [ALIKE, number, "yes", *catalogue.row(best), " ".join(differs)]


def _dedupe_on_cluster(runner: DaskRunner, sources: list[str], out: IO[str],
                       settings: Settings, by: str, report: str | os.PathLike | None,
                       rejects: IO[str] | None, note: Note) -> Summary:
    """``dedupe_games`` on the workers of a cluster (``replay.archive.shuffle``)."""
    from replay.archive.shuffle import ClusterDedupe, write_texts  # Dask and pandas: here only

    summary = Summary()
    run = ClusterDedupe(runner, portable(settings), by)
    for facts in run.fingerprints(sources):
        if settings.progress is not None:
            settings.progress(facts.size)
        summary.games += facts.games
        for index, line, error, left_out in facts.unreadable:
            place = Located(facts.source, run.offsets[-1] + index + 1,
                            Out("", line, error, left_out=left_out))
            note_unreadable(place, summary, rejects, note)
    if not run.partitions:
        return summary
    settled = run.settle()
    summary.groups, summary.removed, summary.alike = run.counts(settled)
    summary.written = write_texts(run.texts(settled), out, rejects)
    if report is not None:
        write_report(report, run.report_rows(settled))
    return summary


def _spool_write(spool: IO[bytes], head: bytes, text: str) -> int:
    """Append a game's head and text to dedupe's spool; its bytes. A failure is a
    ``WriteError`` naming the temporary folder."""
    data = memoryview(head + text.encode("utf-8"))
    written = 0
    try:
        while written < len(data):  # a raw file may write less than asked
            written += spool.write(data[written:]) or 0
    except OSError as error:
        raise as_write_error(error, f"{tempfile.gettempdir()} (dedupe's temporary spool)"
                             ) from None
    return written
