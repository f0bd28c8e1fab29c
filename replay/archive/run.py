"""The archive commands as functions: filter, dedupe, split, merge and clean whole sources.

Each reads its sources as a stream (``replay.archive.stream``), writes PDN 3.0 games to an
open text stream, passes every game the reader gave up on through unchanged (to
``rejects`` when given) and says so through ``note``; each returns a small summary.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import groupby
from pathlib import Path
from typing import IO

from pdn.i18n import N_
from pdn.reader import PdnText, read_games
from pdn.writer import write_game
from replay.archive.clean import CleanOptions, clean_game
from replay.archive.dedupe import fingerprint
from replay.archive.select import Criteria
from replay.archive.stream import Located, Record, Task, run_task
from replay.archive.tags import DateParts, clean_name, date_parts_many, date_parts_plain
from replay.record.agreement import agree_file
from replay.record.inference import keyed_variant, variant_key
from replay.record.replayer import replay_game
from replay.record.silent import follow_file
from replay.rules.choice import RulesChoice
from replay.rules.variants import Variant
from replay.run.output import (
    as_write_error,
    atomic_writer,
    output_target,
    refuse_overwriting_inputs,
    sync_folder,
)
from replay.run.runner import Runner
from replay.run.spreadsheet import safe_row

Note = Callable[[str], None]
Progress = Callable[[int], None] | None


@dataclass
class Settings:
    """How to read: how each game's rules are chosen, workers, encoding, progress, and the
    runner that does the work."""

    choice: RulesChoice
    jobs: int = 0
    encoding: str | None = None
    progress: Progress = None
    engine: str = "local"  # or dask (``replay.run.runner``)
    scheduler: str | None = None  # a Dask scheduler's address


@dataclass
class Summary:
    """What a command did: games read, written (games the reader gave up on aside),
    passed through unreadable, and more."""

    games: int = 0
    written: int = 0
    unreadable: int = 0
    left_out: int = 0  # of the unreadable: too large to pass through (``Record.too_large``)
    # of the unreadable: not passed to a selection, which holds only games that meet the
    # criteria (``filter_games`` without ``rejects``)
    unselected: int = 0
    matched: int = 0
    groups: int = 0
    removed: int = 0
    alike: int = 0  # dedupe: lines of moves that several different games played
    changed: int = 0
    changes: int = 0
    files: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Out:
    """A task's result for one game: the text to write (empty: nothing) and, for a game the
    reader gave up on, why."""

    text: str
    line: int
    error: str = ""
    value: object = None  # what the command needs besides the text
    left_out: bool = False  # a game too large to read: no text, and none may be written


def game_text(record: Record) -> str:
    """The text of a game as it was read (an unreadable game's too), so that selecting
    games never rewrites them; a game sharing its chunk with others is written afresh."""
    if record.too_large:  # only its head was read: writing that would empty the game
        return ""
    if record.game is not None and record.part[1] > 1:
        return canonical_text(record)
    return record.text if record.text.endswith("\n\n") else record.text.rstrip("\n") + "\n\n"


def canonical_text(record: Record) -> str:
    """A game as PDN 3.0 (``pdn.writer``), or an unreadable game's text unchanged."""
    if record.game is None:
        return game_text(record)
    return write_game(record.game) + "\n\n"


def dates_of(records: list[Record]) -> list[DateParts]:
    return date_parts_many(record.tags.get("Date") or "" for record in records)


def note_unreadable(item: Located[Out], summary: Summary, rejects: IO[str] | None, note: Note,
                selection: bool = False) -> IO[str] | None:
    """Count and report a game the reader gave up on; the stream it goes to (None: the
    output, or, for a ``selection``, nowhere: it cannot be told to meet the criteria)."""
    summary.unreadable += 1
    where, reason = f"{item.source}:{item.result.line}", item.result.error
    to_rejects = rejects is not None
    if item.result.left_out:  # too large to hold: never written emptier, left out
        summary.left_out += 1
        note((N_("{where}: game {number}: unreadable, left out of --rejects: {reason}")
              if to_rejects else
              N_("{where}: game {number}: unreadable, left out of the output: {reason}"))
             .format(where=where, number=item.index, reason=reason))
        return rejects
    if selection and rejects is None:
        summary.unselected += 1
        note(N_("{where}: game {number}: unreadable, left out of the selection (--rejects "
                "FILE keeps it): {reason}").format(where=where, number=item.index,
                                                   reason=reason))
        return None
    note((N_("{where}: game {number}: unreadable, passed to --rejects unchanged: {reason}")
          if to_rejects else
          N_("{where}: game {number}: unreadable, passed to the output unchanged: {reason}"))
         .format(where=where, number=item.index, reason=reason))
    return rejects


def _write_all(items: Iterator[Located[Out]], out: IO[str], rejects: IO[str] | None,
               note: Note, summary: Summary, *, selection: bool = False) -> None:
    """Write every item's text to ``out``, a game the reader gave up on to ``rejects``
    (without it: to ``out`` too, unless ``out`` is a ``selection``)."""
    for item in items:
        summary.games += 1
        target: IO[str] | None = out
        if item.result.error:
            target = note_unreadable(item, summary, rejects, note, selection)
            if target is None and not selection:
                target = out
        if item.result.text and target is not None:
            target.write(item.result.text)
            summary.written += target is out and not item.result.error


# ---- filter --------------------------------------------------------------------------------


@dataclass
class FilterTask:
    """Keep the games that meet the criteria (or, inverted, the others)."""

    criteria: Criteria
    settings: Settings
    invert: bool = False

    def screen(self, tags: dict[str, str]) -> bool:
        """Parse a game only if its tags may match (or, inverted, always)."""
        if self.invert:
            return True
        settings = self.settings
        variant = settings.choice.override or _tagged_variant(tags, settings.choice.default)
        return self.criteria.matches_tags(tags, variant)

    def __call__(self, records: list[Record]) -> list[Out]:
        dated = self.criteria.date_from is not None or self.criteria.date_to is not None
        dates = dates_of(records) if dated else [None] * len(records)
        results = []
        for record, date in zip(records, dates, strict=True):
            if record.screened:
                results.append(Out("", record.line, value=False))
                continue
            if record.game is None:  # kept unless its tags alone rule it out
                ruled_out = not self.screen(record.tags)
                results.append(Out("" if ruled_out else game_text(record), record.line,
                                   "" if ruled_out else record.error,
                                   left_out=record.too_large and not ruled_out))
                continue
            matched = self.criteria.matches(record.game, self.settings.choice.default,
                                            self.settings.choice.override, date,
                                            rules=self.settings.choice.rules)
            kept = matched != self.invert
            results.append(Out(game_text(record) if kept else "", record.line, value=matched))
        return results


def _tagged_variant(tags: dict[str, str], default: Variant | None) -> Variant | None:
    """The variant a GameType tag names (as ``replay.record.replayer.game_variant`` reads it)."""
    from replay.rules.variants import get_variant

    gametype = tags.get("GameType")
    try:
        return get_variant(gametype.split(",")[0]) if gametype else default
    except ValueError:
        return default


def filter_games(sources: list[str], out: IO[str], criteria: Criteria, settings: Settings, *,
                 invert: bool = False, rejects: IO[str] | None = None,
                 note: Note = print) -> Summary:
    """Write the games that meet every criterion (``invert``: the others). A game the
    reader gave up on cannot be told to meet them: it goes to ``rejects``, else nowhere
    (named through ``note``), unless its tags alone rule it out."""
    summary = Summary()
    items = run_over(sources, FilterTask(criteria, portable(settings), invert), settings)
    _write_all(_counting_matches(items, summary), out, rejects, note, summary, selection=True)
    return summary


def _counting_matches(items: Iterator[Located[Out]], summary: Summary
                      ) -> Iterator[Located[Out]]:
    for item in items:
        summary.matched += bool(item.result.value)
        yield item


def portable(settings: Settings) -> Settings:
    """The settings a worker process needs (no progress callback)."""
    return Settings(settings.choice, settings.jobs, settings.encoding)


def run_over(sources: list[str], task: Task[Out], settings: Settings,
         runner: Runner | None = None) -> Iterator[Located[Out]]:
    """The task over every game of the sources, on the engine the settings name (or on
    ``runner``, left open)."""
    return run_task(sources, task, jobs=settings.jobs, encoding=settings.encoding,
                    progress=settings.progress, engine=settings.engine,
                    scheduler=settings.scheduler, runner=runner)


# ---- merge ---------------------------------------------------------------------------------


@dataclass
class CopyTask:
    """Every game as PDN 3.0 text."""

    def __call__(self, records: list[Record]) -> list[Out]:
        return [Out(game_text(r), r.line, r.error, left_out=r.too_large) for r in records]


def merge_games(sources: list[str], out: IO[str], settings: Settings, *,
                rejects: IO[str] | None = None, note: Note = print) -> Summary:
    """Write the games of every source, in order, into one stream."""
    summary = Summary()
    items = run_over(sources, CopyTask(), settings)
    _write_all(items, out, rejects, note, summary)
    return summary


# ---- clean ---------------------------------------------------------------------------------


@dataclass
class CleanTask:
    """Clean every game; its changes travel with its text."""

    settings: Settings
    options: CleanOptions

    def __call__(self, records: list[Record]) -> list[Out]:
        results = []
        for record, date in zip(records, dates_of(records), strict=True):
            if record.game is None:
                results.append(Out(canonical_text(record), record.line, record.error,
                                   left_out=record.too_large))
                continue
            choice = self.settings.choice
            changes = clean_game(record.game, choice.default, date, self.options,
                                 chunk=(record.text, *record.part), rules=choice.rules)
            results.append(Out(canonical_text(record), record.line, value=changes))
        return results


CHANGE = N_("{where}: game {number}: {reason}")  # a change clean made, on its own line


def clean_games(sources: list[str], out: IO[str], settings: Settings, options: CleanOptions, *,
                rejects: IO[str] | None = None, note: Note = print,
                changes: Note | None = None) -> Summary:
    """Write every game cleaned; each change goes to ``changes`` (default: ``note``) as
    ``file:line: game N: what changed``."""
    summary = Summary()
    tell = changes or note
    items = run_over(sources, CleanTask(portable(settings), options), settings)

    def reported() -> Iterator[Located[Out]]:
        for item in items:
            made = item.result.value or []
            summary.changed += bool(made)
            summary.changes += len(made)
            for change in made:
                tell(CHANGE.format(where=f"{item.source}:{item.result.line}",
                                   number=item.index, reason=change))
            yield item

    _write_all(reported(), out, rejects, note, summary)
    return summary


# ---- split ---------------------------------------------------------------------------------

SPLIT_CHOICES = ("event", "variant", "year", "player", "count:N")


def split_keys(tags: dict[str, str], by: str, variant: Variant | None, date: DateParts
               ) -> list[str]:
    """The names of the files a game goes to by its event, variant, year or players (a game
    goes to both its players' files)."""
    if by == "event":
        return [tags.get("Event") or "unknown"]
    if by == "variant":  # a game the reader gave up on may have none
        return [variant.name if variant is not None else "unknown"]
    if by == "year":
        return [str(date[0]) if date[0] is not None else "unknown"]
    names = {clean_name(tags.get(side) or "") for side in ("White", "Black")}
    return sorted(names - {"?"}) or ["unknown"]


def parse_split(by: str) -> tuple[str, int]:
    """``--by`` as a kind and, for ``count:N``, the slice size; raises ValueError."""
    kind, _, size = by.partition(":")
    if kind == "count" and size.isdigit() and int(size) > 0:
        return kind, int(size)
    if kind in SPLIT_CHOICES[:-1] and not size:
        return kind, 0
    raise ValueError(f"--by '{by}': use one of {', '.join(SPLIT_CHOICES)}")


@dataclass
class SplitTask:
    """Every game's text and the files it goes to (``count:N`` slices are cut later)."""

    settings: Settings
    kind: str

    def __call__(self, records: list[Record]) -> list[Out]:
        choice = self.settings.choice
        if self.kind == "variant":
            return [Out(game_text(record), record.line, record.error,
                        _variant_keys(record, choice)) for record in records]
        # only a split by year reads the dates (without pandas, each distinct one once); by
        # event, player or count no game is replayed
        dates = [_year_parts(record.tags.get("Date") or "") for record in records] \
            if self.kind == "year" else [_NO_DATE] * len(records)
        return [Out(game_text(record), record.line, record.error,
                    None if self.kind == "count" else
                    split_keys(record.tags, self.kind, None, date), record.too_large)
                for record, date in zip(records, dates, strict=True)]


_NO_DATE: DateParts = (None, None, None)
_year_parts = lru_cache(maxsize=4096)(date_parts_plain)  # an archive has a few thousand dates


@dataclass(frozen=True)
class VariantKeys:
    """A game's split key by variant, with what its file's games may change in it: its
    ``variant_key``, whether its record tells nothing (``silent``) or several variants
    replay it (``open``; ``replay.record.agreement``)."""

    keys: list[str]
    key: str | None = None
    silent: bool = False
    open: bool = False


def _variant_keys(record: Record, choice: RulesChoice, shown: Variant | None = None
                  ) -> VariantKeys:
    """The file a game goes to by variant, as ``pdn validate`` tells it on its own (or
    with ``shown``, the variant its file's games show, offered first)."""
    if record.game is None:  # the reader gave up on it: it goes with its neighbours
        return VariantKeys(split_keys(record.tags, "variant", choice.default, (None,) * 3),
                           silent=True)
    replayed = replay_game(record.game, choice.default, choice.override, rules=choice.rules,
                           shown=shown)
    return VariantKeys([replayed.variant.name], variant_key(replayed.variant),
                       replayed.silent, replayed.open_variant)


def _agreed_variants(items: Iterator[Located[Out]], choice: RulesChoice
                     ) -> Iterator[Located[Out]]:
    """The games of each source, where one that several variants replay goes to the file of
    its file's variant where that replays it too (``replay.record.agreement``), and one whose
    record tells nothing to its neighbours' (``replay.record.silent``), as ``pdn validate`` reads
    them."""
    def keys(item: Located[Out]) -> VariantKeys:
        return item.result.value  # type: ignore[return-value]

    def again(item: Located[Out], key: str) -> Located[Out]:
        game = next(read_games(PdnText(item.result.text)), None)
        if game is None:
            return item
        record = Record(item.source, item.result.line, item.result.text, game, game.tags)
        value = _variant_keys(record, choice, keyed_variant(key))
        return Located(item.source, item.index, replace(item.result, value=value))

    def followed(item: Located[Out], key: str) -> Located[Out]:
        value = VariantKeys([keyed_variant(key).name], key)
        return Located(item.source, item.index, replace(item.result, value=value))

    for _, group in groupby(items, key=lambda item: item.source):
        agreed = agree_file(group, lambda item: None if keys(item).silent else keys(item).key,
                            lambda item: keys(item).open, again)
        yield from follow_file(agreed, lambda item: keys(item).silent,
                               lambda item: keys(item).key or "", followed)


# Names Windows keeps for devices, whatever their case or extension ("nul.pdn" too), the
# superscript digits among them (Microsoft's "Naming Files, Paths, and Namespaces").
WINDOWS_RESERVED = frozenset(["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
                              *(f"{port}{n}" for port in ("COM", "LPT")
                                for n in [*range(10), "\u00b9", "\u00b2", "\u00b3"])])


def file_name(key: str, taken: dict[str, str], used: set[str] | None = None) -> str:
    """A safe file name for a split key, unique among those already given (``used``, when
    kept by the caller: their names casefolded, which the new name joins)."""
    if key in taken:
        return taken[key]
    stem = re.sub(r"[^\w.-]+", "_", key, flags=re.UNICODE).strip("._")[:80] or "unknown"
    if stem.split(".", 1)[0].upper() in WINDOWS_RESERVED:  # CON.pdn cannot be made there
        stem = f"_{stem}"
    if stem.startswith("-"):  # "-rf.pdn", "--help.pdn": read as options by other tools
        stem = f"_{stem}"
    if used is None:  # case-insensitive file systems
        used = {value.casefold() for value in taken.values()}
    name, number = f"{stem}.pdn", 2
    while name.casefold() in used:
        name, number = f"{stem}-{number}.pdn", number + 1
    taken[key] = name
    used.add(name.casefold())
    return name


class _Files:
    """The split's output files: written in a temporary folder, moved into place at the end
    (so an interrupted run changes nothing), with few handles open at once."""

    OPEN_LIMIT = 64

    def __init__(self, directory: Path, inputs: list[str]) -> None:
        self.directory = directory
        self.inputs = inputs
        self.work = Path(tempfile.mkdtemp(prefix=".split-", dir=directory))
        self.names: dict[str, str] = {}
        self.used: set[str] = set()  # the names given, casefolded (``file_name``)
        self.handles: dict[str, IO[str]] = {}

    def write(self, key: str, text: str) -> None:
        name = file_name(key, self.names, self.used)
        try:
            handle = self.handles.pop(name, None)
            if handle is None:
                if len(self.handles) >= self.OPEN_LIMIT:
                    self.handles.pop(next(iter(self.handles))).close()
                handle = open(self.work / name, "a", encoding="utf-8", newline="")  # noqa: SIM115
            self.handles[name] = handle  # most recently used last
            handle.write(text)
        except OSError as error:  # a full disk, a file-size limit: an output's fault
            raise as_write_error(error, self.directory / name) from None

    def finish(self) -> list[str]:
        try:
            for handle in self.handles.values():
                handle.close()
        except OSError as error:
            raise as_write_error(error, self.directory) from None
        self.handles.clear()
        names = sorted(set(self.names.values()))
        for name in names:
            refuse_overwriting_inputs(self.directory / name, self.inputs)
        synced = sync_folder(self.work)
        written = []
        for name in names:
            if not self._moved(name, synced):
                with atomic_writer(self.directory / name) as stream, \
                        open(self.work / name, encoding="utf-8", newline="") as part:
                    while block := part.read(1 << 20):
                        stream.write(block)
            written.append(str(self.directory / name))
        return written

    def _moved(self, name: str, synced: bool) -> bool:
        """Move a written file into place as ``atomic_writer`` would put its copy there
        (synced, here unless the whole folder was, ``synced``; keeping the mode of a file it
        replaces; by one rename): False, nothing done,
        where the output is no regular file nor new (a device, a FIFO: written in place) or
        lies on another file system (through a symbolic link), for a copy to write it."""
        path = self.directory / name
        target = output_target(path)
        if target.in_place:
            return False
        work = self.work / name
        try:
            mode = stat.S_IMODE(os.stat(target.path).st_mode)
        except FileNotFoundError:
            mode = None  # made as a new file would be: the work file's own
        try:
            if not synced:
                handle = os.open(work, os.O_RDONLY)
                try:
                    os.fsync(handle)
                finally:
                    os.close(handle)
            if mode is not None:
                os.chmod(work, mode)
            os.replace(work, target.path)
        except OSError as error:
            if error.errno == errno.EXDEV:
                return False
            raise as_write_error(error, path) from None
        return True

    def discard(self) -> None:
        for handle in self.handles.values():
            with contextlib.suppress(OSError):  # a full disk: the error is on its way already
                handle.close()
        self.handles.clear()
        if self.work.exists():
            for path in self.work.iterdir():
                path.unlink()
            self.work.rmdir()


def split_games(sources: list[str], directory: str | os.PathLike, by: str,
                settings: Settings, *, rejects: IO[str] | None = None,
                note: Note = print) -> Summary:
    """Write the games into one file per event, variant, year, player (``--by``) or slice
    of N games (``count:N``) in ``directory``; raises ValueError for a bad ``by``."""
    kind, size = parse_split(by)
    summary = Summary()
    target = Path(directory)
    try:
        target.mkdir(parents=True, exist_ok=True)
        files = _Files(target, sources)
    except OSError as error:
        raise as_write_error(error, target) from None
    try:
        items = run_over(sources, SplitTask(portable(settings), kind), settings)
        if kind == "variant":
            items = _agreed_variants(items, settings.choice)
        for item in items:
            summary.games += 1
            if item.result.error and note_unreadable(item, summary, rejects, note) is not None:
                rejects.write(item.result.text)
                continue
            if item.result.left_out:  # a game too large to pass through: left out
                continue
            value = item.result.value
            keys = (value.keys if isinstance(value, VariantKeys) else value) or [
                f"{(summary.games - 1) // size + 1:04d}"]
            for key in keys:
                files.write(key, item.result.text)
            summary.written += not item.result.error
    except BaseException:
        files.discard()
        raise
    try:
        summary.files = files.finish()
    finally:
        files.discard()
    return summary


# ---- dedupe --------------------------------------------------------------------------------

REPORT_COLUMNS = ("section", "group", "kept", "file", "game", "line", "white", "black", "event",
                  "round", "date", "result", "differs")
REPORT_TAGS = ("White", "Black", "Event", "Round", "Date", "Result")  # columns 7 to 12
COPIES = "copies"  # the report's sections: the copies of one game, one group each,
ALIKE = "same moves, different games"  # then the lines several games played, kept


@dataclass
class DedupeTask:
    """Every game's text and fingerprint (the cluster's dedupe, ``replay.archive.shuffle``)."""

    settings: Settings

    def __call__(self, records: list[Record]) -> list[Out]:
        results = []
        for record, date in zip(records, dates_of(records), strict=True):
            if record.game is None:
                results.append(Out(game_text(record), record.line, record.error,
                                   left_out=record.too_large))
                continue
            choice = self.settings.choice
            found = fingerprint(record.game, choice.default, choice.override, date,
                                rules=choice.rules)
            results.append(Out(game_text(record), record.line, value=found))
        return results


def report_row(source: str, index: int, line: int, tags: dict[str, str]) -> list:
    """A game's columns of the report from ``file`` to ``result``."""
    return [source, index, line, *(tags.get(name, "") for name in REPORT_TAGS)]


def write_report(path: str | os.PathLike, rows: Iterable[list]) -> None:
    """dedupe's CSV report: ``REPORT_COLUMNS``, then ``rows`` (a copy each, group by group,
    then the games of the lines several games played)."""
    with atomic_writer(path) as stream:
        writer = csv.writer(stream, lineterminator="\n")
        writer.writerow(REPORT_COLUMNS)
        writer.writerows(safe_row(row) for row in rows)  # no formula for a spreadsheet


__all__ = ["ALIKE", "COPIES", "REPORT_COLUMNS", "REPORT_TAGS", "SPLIT_CHOICES", "Settings",
           "Summary", "clean_games", "file_name", "filter_games", "merge_games",
           "report_row", "split_games", "split_keys", "write_report"]
