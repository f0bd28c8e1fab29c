"""``validate_to_dataset``: the reports of ``pdn validate --json`` written by the workers, as
JSON-lines parts of a dataset folder (``replay.run.dataset``).

Two passes over the partitions on the runner's workers, as ``replay.stats.dataset`` does:
the first validates a partition and leaves its reports in the run's hidden folder, telling
the client only how many games it holds and how their results read; the second numbers
the games in their file, settles their result checks the way ``settle_results`` does for
the whole stream and writes ``part-NNNNNNNN.jsonl``, returning a few counts. The lines are
those ``pdn validate --json`` prints, in the same order.
"""

from __future__ import annotations

import json
import pickle
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from replay.record.agreement import file_variant
from replay.record.replayer import COLOUR_READING, FIRST_MOVER_READING, apply_reading, file_reading
from replay.record.silent import heads_follow
from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.run.dataset import Dataset
from replay.run.output import WriteError
from replay.run.partitions import Partition, source_name
from replay.run.runner import open_runner
from replay.validate.reports import (
    BLOCK,
    HELD_REPORTS,
    GameReport,
    Tally,
    ValidationWork,
    agree_reports,
    follow_reports,
    mark_contradicted,
    validate_partition,
)

_CODES = {None: 0, FIRST_MOVER_READING: 1, COLOUR_READING: 2}


@dataclass(frozen=True)
class SpooledReports:
    """What the client learns of a partition validated in the first pass."""

    source: str
    size: int
    spool: str
    readings: bytes  # one byte per game: 0 no reading, 1 for the first mover, 2 colour
    offset: int = 0  # games before the partition in its file (set by the client)
    index: int = 0  # the part's number (set by the client)
    reading: str | None = None  # the file's reading (set by the client)
    # The variants the first and the last of its games that tell one tell
    # (``replay.record.silent``), and the one its silent games at its head follow (by the client).
    first_told: str | None = None
    last_told: str | None = None
    follow: str | None = None
    # The variants its games that tell one tell, counted (``replay.record.agreement``), and the one
    # its file's games show (by the client).
    votes: tuple[tuple[str, int], ...] = ()
    shown: str | None = None


def spool_reports(partition: Partition, work: ValidationWork, dataset: Dataset) -> SpooledReports:
    """First pass (a worker): validate a partition and leave its reports."""
    size, reports = validate_partition(partition, work)
    path = dataset.spool_path(f"{uuid.uuid4().hex}.pickle")
    with dataset.files().open(path, "wb") as stream:
        pickle.dump(reports, stream, protocol=pickle.HIGHEST_PROTOCOL)
    told = [report.variant_key for report in reports if not report.silent]
    return SpooledReports(partition.source, size, path,
                          bytes(_CODES[r.result_reading] for r in reports),
                          first_told=told[0] if told else None,
                          last_told=told[-1] if told else None,
                          votes=tuple(Counter(told).items()))


def write_reports(spooled: SpooledReports, dataset: Dataset, work: ValidationWork) -> Tally:
    """Second pass (a worker): number, settle and write one part of JSON lines."""
    files = dataset.files()
    with files.open(spooled.spool, "rb") as stream:
        reports: list[GameReport] = pickle.load(stream)
    files.rm(spooled.spool)
    reports = list(follow_reports(agree_reports(reports, work, known=True,
                                                shown=spooled.shown), work, spooled.follow))
    tally = Tally()
    lines = []
    for number, report in enumerate(reports, spooled.offset + 1):
        report.game = number
        apply_reading(report, spooled.reading)
        mark_contradicted(report)
        lines.append(json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
        tally.count(report)
    with dataset.part_stream(spooled.index) as stream:
        stream.write("".join(lines).encode())
    return tally


class _Votes:
    """A source's reading as ``settle_results`` tells it: the votes of the first
    ``HELD_REPORTS`` games from the first one whose result reads one way or the other."""

    def __init__(self) -> None:
        self.left = HELD_REPORTS
        self.started = False
        self.first = self.colour = 0

    def add(self, codes: bytes) -> None:
        if not self.started:
            codes = codes.lstrip(b"\0")
            self.started = bool(codes)
        counted = codes[: self.left]
        self.left -= len(counted)
        self.first += counted.count(1)
        self.colour += counted.count(2)

    def reading(self) -> str | None:
        return file_reading([FIRST_MOVER_READING] * self.first
                            + [COLOUR_READING] * self.colour)


@dataclass
class Written:
    """A dataset written: the counts, and the sources that could not be read."""

    tally: Tally
    unreadable: list[str]


def validate_to_dataset(sources: Iterable[str], target: str, default: Variant | None = None,
                        override: Variant | None = None, *, jobs: int = 0,
                        encoding: str | None = None, suggest: bool = False,
                        rules: Rules | None = None, strict: bool = False,
                        progress: Callable[[int], None] | None = None, engine: str = "local",
                        scheduler: str | None = None) -> Written:
    """Validate ``sources`` and have the workers write the reports into the dataset folder
    or URL ``target`` as JSON lines (``replay.run.dataset``); the arguments are
    ``validate_sources``'. An unreadable source is named in ``unreadable`` (``path:
    reason``) and the others are still read. Raises ``ValueError`` for a folder holding
    other files and ``EngineUnavailableError`` without Dask."""
    dataset = Dataset.plan(target, ".jsonl")
    work = ValidationWork(RulesChoice(default, override, rules), suggest, strict)
    spooled: list[SpooledReports] = []
    unreadable: list[str] = []
    tally = Tally()
    try:
        with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
            for source in sources:
                votes, offset, first = _Votes(), 0, len(spooled)
                try:
                    for item in runner.map(spool_reports,
                                           runner.partitions(source, encoding, BLOCK),
                                           work, dataset):
                        if progress is not None:
                            progress(item.size)
                        votes.add(item.readings)
                        spooled.append(replace(item, offset=offset, index=len(spooled),
                                               readings=b""))
                        offset += len(item.readings)
                except WriteError:
                    raise  # the dataset's fault, not the source's
                except OSError as error:
                    unreadable.append(f"{source_name(source)}: cannot read: "
                                      f"{error.strerror or error}")
                reading = votes.reading()
                shown = file_variant(sum((Counter(dict(s.votes)) for s in spooled[first:]),
                                         Counter()))
                keys = heads_follow([(s.first_told, s.last_told) for s in spooled[first:]])
                spooled[first:] = [replace(s, reading=reading, follow=key, shown=shown)
                                   for s, key in zip(spooled[first:], keys, strict=True)]
            for counts in runner.map(write_reports, spooled, dataset, work):
                tally.add(counts)
        dataset.commit(len(spooled), tally.rows)
    except BaseException:
        dataset.abort()
        raise
    return Written(tally, unreadable)


__all__ = ["Tally", "Written", "validate_to_dataset"]
