"""``pdn dedupe`` over whole sources: each game written once, on the runner the settings
name. Here the games wait in a temporary spool while their fingerprints are grouped
(``replay.archive.dedupe``); on a Dask cluster the workers do it all
(``replay.archive.shuffle``). Both speak the archive commands' vocabulary
(``replay.archive.run``: settings, summary, the report's rows)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO

from pdn.chunks import Chunk
from pdn.game import Game
from pdn.reader import read_block
from pdn.records import STDIN
from pdn.tags import head_tags
from replay.archive.dedupe import (
    Found,
    GameKeys,
    Group,
    SameMoves,
    completeness,
    dropped,
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

    On the local engine the games wait in a temporary spool file while their fingerprints
    are grouped, so memory holds one small fingerprint per game; the games that share a
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
        found = _settled_lines(catalogue, settings, by)
        removed = dropped(found.copies)
        listed = _listed(found) if report is not None else set()
        rows = {}
        for ordinal in range(summary.games):
            text = catalogue.text(ordinal)
            if report is not None and ordinal in listed:
                rows[ordinal] = report_row(*catalogue.place(ordinal), head_tags(text)[0])
            if ordinal in catalogue.unreadable:
                (rejects or out).write(text)
            elif ordinal not in removed:
                out.write(text)
                summary.written += 1
    summary.groups, summary.removed, summary.alike = (len(found.copies), len(removed),
                                                      len(found.alike))
    if report is not None:
        write_report(report, _report_rows(found, removed, rows))
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


class Catalogue:
    """What the local dedupe keeps of every game while the sources are read: its text in
    the spool, and in memory its place and its keys in arrays (46 bytes a game: offset,
    line and index 8 each, source 4, ``line_key`` 16, variant 2), an entry of a dictionary
    per distinct ``written_key`` (the 16-byte key and its first game's ordinal) and a list
    of the ordinals of the games that share one. Nothing else per game: facts and
    completeness are read back for the games that share a written key, a window at a time
    (``_settled_lines``). Measured (tracemalloc): 136 bytes a game on OCA 2.0, 134 on
    four copies of it."""

    def __init__(self, spool: IO[bytes]) -> None:
        self.spool = spool
        self.offsets = array("q", [0])
        self.lines = array("q")
        self.indexes = array("q")
        self.sources = array("I")
        self.source_names: list[str] = []
        self.line_keys = bytearray()
        self.variants = array("H")
        self.variant_table: list[Variant] = []
        self.variant_numbers: dict[Variant, int] = {}
        self.unreadable: set[int] = set()
        self.first: dict[bytes, int] = {}  # written key -> its first game
        self.shared: dict[int, list[int]] = {}  # first game -> every game of its key

    def add(self, item: Located[Out]) -> None:
        """Spool and file one game, in reading order."""
        ordinal = len(self.lines)
        self.offsets.append(self.offsets[-1] + _spool_write(self.spool, item.result.text))
        if not self.source_names or self.source_names[-1] != item.source:
            self.source_names.append(item.source)
        self.sources.append(len(self.source_names) - 1)
        self.lines.append(item.result.line)
        self.indexes.append(item.index)
        keys = item.result.value
        if item.result.error:
            self.unreadable.add(ordinal)
        if not isinstance(keys, GameKeys):
            self.line_keys += bytes(16)
            self.variants.append(0)
            return
        self.line_keys += keys.line.ljust(16, b"\0")
        self.variants.append(self._variant_number(keys.variant))
        if keys.written is not None:  # a game without moves is never a duplicate
            first = self.first.setdefault(keys.written, ordinal)
            if first != ordinal:
                self.shared.setdefault(first, [first]).append(ordinal)

    def _variant_number(self, variant: Variant) -> int:
        if self.variant_table and self.variant_table[-1] is variant:
            return len(self.variant_table) - 1
        number = self.variant_numbers.get(variant)
        if number is None:
            number = self.variant_numbers[variant] = len(self.variant_table)
            self.variant_table.append(variant)
        return number

    def text(self, ordinal: int) -> str:
        """A game's text, read back from the spool."""
        self.spool.seek(self.offsets[ordinal])
        return self.spool.read(self.offsets[ordinal + 1] - self.offsets[ordinal]).decode(
            "utf-8")

    def place(self, ordinal: int) -> tuple[str, int, int]:
        """A game's source, index in it and first line."""
        return (self.source_names[self.sources[ordinal]], self.indexes[ordinal],
                self.lines[ordinal])

    def digest(self, ordinal: int) -> bytes:
        """A hash of a game's text: records of one text are read once."""
        self.spool.seek(self.offsets[ordinal])
        return hashlib.blake2b(self.spool.read(self.offsets[ordinal + 1]
                                               - self.offsets[ordinal]), digest_size=16).digest()

    def game(self, ordinal: int) -> Game:
        """A game read back from its text."""
        return next(read_block(Chunk(self.text(ordinal), 1)))

    def line_key(self, ordinal: int) -> bytes:
        return bytes(self.line_keys[16 * ordinal:16 * ordinal + 16])

    def variant(self, ordinal: int) -> Variant:
        return self.variant_table[self.variants[ordinal]]

    def groups(self) -> list[list[int]]:
        """The games of every written key two or more games share, by their first."""
        return [self.shared[first] for first in sorted(self.shared)]


SAME_TEXT = (0, 0, 0)  # the score of records of one text, which tie: the first is kept
WINDOW = 2_000  # games of shared written keys settled at once


def _settled_lines(catalogue: Catalogue, settings: Settings, by: str) -> Found:
    """The games that share a written key, split into lines of moves (by ``line_key``, and
    where a key's games differ in it, by the ``move_key`` of one game of each), and each
    line's records told apart as games (``dedupe.settle``). They are settled a window of
    keys at a time; each distinct text is read back from the spool once for its facts, and
    for its completeness only where a line holds other texts (copies of one text tie)."""
    copies: list[Group] = []
    alike: list[SameMoves] = []
    dates: dict[str, DateParts] = {}  # each Date tag met, read once
    window: list[list[int]] = []
    for games in [*catalogue.groups(), []]:
        window.append(games)
        if sum(len(g) for g in window) >= WINDOW or not games:
            for members, described in _window_lines(window, catalogue, settings, dates):
                groups, several = settle(((ordinal, *facts) for ordinal, facts in
                                          zip(members, described, strict=True)), by)
                copies += groups
                alike += [several] if several is not None else []
            window = []
    return Found(sorted(copies, key=lambda group: group.members[0]),
                 sorted(alike, key=lambda line: line.games[0].members[0]))


def _window_lines(window: list[list[int]], catalogue: Catalogue, settings: Settings,
                  dates: dict[str, DateParts]
                  ) -> Iterator[tuple[list[int], list[tuple[Facts, tuple[int, int, int]]]]]:
    """The lines of moves two or more games of a window of written keys played: each as
    its games' ordinals, in reading order, and their facts and completeness."""
    choice = settings.choice
    digests = {ordinal: catalogue.digest(ordinal) for games in window for ordinal in games}
    lines: list[list[int]] = []
    for games in window:
        by_line: dict[bytes | None, list[int]] = {}
        for ordinal in games:
            by_line.setdefault(catalogue.line_key(ordinal), []).append(ordinal)
        if len(by_line) > 1:  # records of other texts: the same moves only if they replay alike
            exact = {key: move_key(catalogue.game(members[0]), choice.default,
                                   choice.override, rules=choice.rules)
                     for key, members in by_line.items()}
            by_line = {}
            for ordinal in games:
                by_line.setdefault(exact[catalogue.line_key(ordinal)], []).append(ordinal)
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
        game, variant = catalogue.game(ordinal), catalogue.variant(ordinal)
        date = game.tags.get("Date") or ""
        if date not in dates:
            dates[date] = date_parts_plain(date)
        described[digest] = (facts_of(game.tags, variant, dates[date]),
                             completeness(game, variant) if digest in scored else SAME_TEXT)
    return described


def _listed(found: Found) -> set[int]:
    """The games the report has a row for."""
    return ({m for group in found.copies for m in group.members}
            | {game.best for line in found.alike for game in line.games})


def _report_rows(found: Found, removed: set[int], rows: dict[int, list]) -> Iterator[list]:
    """The report's rows: every copy, group by group, then the kept copy of every game of
    each line several games played, with what tells the games apart."""
    for number, group in enumerate(found.copies, 1):
        for member in group.members:
            yield [COPIES, number, "no" if member in removed else "yes", *rows[member], ""]
    for number, line in enumerate(found.alike, len(found.copies) + 1):
        for game in line.games:
            yield [ALIKE, number, "yes", *rows[game.best], " ".join(line.differs)]


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


def _spool_write(spool: IO[bytes], text: str) -> int:
    """Append a game's text to dedupe's spool; its bytes. A failure is a ``WriteError``
    naming the temporary folder."""
    data = memoryview(text.encode("utf-8"))
    written = 0
    try:
        while written < len(data):  # a raw file may write less than asked
            written += spool.write(data[written:]) or 0
    except OSError as error:
        raise as_write_error(error, f"{tempfile.gettempdir()} (dedupe's temporary spool)"
                             ) from None
    return written
