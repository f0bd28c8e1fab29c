"""``pdn dedupe`` on a Dask cluster: the workers find the copies, the client keeps nothing
per game.

Every game is named by an ordinal that sorts in reading order, ``partition << 32 | index``
(the partition's number in reading order, the game's place in it), so that no pass needs
to know how many games came before. Three passes over the partitions, on the workers:

1. ``fingerprint_part`` reads a partition and fingerprints its games
   (``replay.archive.dedupe``); the fingerprints stay on the workers, and only the games
   counted and the unreadable ones reach the client. The fingerprints, as a Dask DataFrame,
   are shuffled on their written key and each worker groups its keys in reading order with
   ``Grouper`` itself (``group_partition``): the groups the client's ``Grouper`` would make.
2. The members of those groups go back to their partitions (a shuffle on the partition
   number), where ``exact_part`` reads the games again and computes each member's exact
   ``move_key`` and what the report shows of it; shuffled on the group, ``settle_part``
   splits every group by exact key and marks the copy kept, as ``refine`` and
   ``Group.add`` do.
3. The copies dropped go back to their partitions, and ``kept_part`` reads each partition
   once more and returns the texts to write, in order, a few partitions at a time.

The client holds a few facts per partition and at most a few partitions' texts in flight,
whatever the archive's size; the report is written from the settled groups sorted on the
workers, one partition at a time. Output, report and summary are the local engine's.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

import pandas as pd

from pdn.chunks import block_chunks
from pdn.tags import head_tags
from replay.archive.dedupe import Fingerprint, Grouper, move_key
from replay.archive.run import REPORT_TAGS, DedupeTask, Settings, game_text
from replay.archive.stream import Record, read_records
from replay.run.partitions import Partition

if TYPE_CHECKING:
    from replay.run.runner import DaskRunner

PART_BITS = 32  # an ordinal is partition << PART_BITS | index in the partition
_SCORES = ("score_result", "score_tags", "score_notes")


def ordinal(partition: int, index: int) -> int:
    """The name of a partition's ``index``-th game, sorting in reading order."""
    return partition << PART_BITS | index


@dataclass(frozen=True)
class PartFacts:
    """What the client learns of a partition: its source, its size, its games and, for
    each game the reader gave up on, its index in the partition, line and why."""

    source: str
    size: int
    games: int
    unreadable: tuple[tuple[int, int, str, bool], ...]  # index, line, error, left out


def _records(partition: Partition) -> list[Record]:
    return read_records(partition.source, block_chunks(partition.chunk()))


def _frame(columns: dict[str, list], dtypes: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame({name: pd.array(columns.get(name, []), dtype=dtype)
                         for name, dtype in dtypes.items()})


FINGERPRINT_COLUMNS = {"ordinal": "int64", "key": "string", "white": "string",
                       "black": "string", "year": "Int64", "month": "Int64", "day": "Int64",
                       **dict.fromkeys(_SCORES, "int64")}
GROUPED_COLUMNS = {**FINGERPRINT_COLUMNS, "group": "int64"}
EXACT_COLUMNS = {"ordinal": "int64", "group": "int64", "exact": "string",
                 **dict.fromkeys(_SCORES, "int64"), "line": "int64",
                 **{tag: "string" for tag in REPORT_TAGS}}
SETTLED_COLUMNS = {"ordinal": "int64", "first": "int64", "kept": "bool", "line": "int64",
                   **{tag: "string" for tag in REPORT_TAGS}}


def fingerprint_frame(rows: list[tuple[int, Fingerprint]]) -> pd.DataFrame:
    """One row per game with moves: its ordinal, written key (hex), what ``--by`` compares
    and how complete the copy is."""
    return _frame({
        "ordinal": [o for o, _ in rows],
        "key": [f.key.hex() if f.key else None for _, f in rows],
        "white": [f.white for _, f in rows], "black": [f.black for _, f in rows],
        "year": [f.date[0] for _, f in rows], "month": [f.date[1] for _, f in rows],
        "day": [f.date[2] for _, f in rows],
        **{name: [f.score[i] for _, f in rows] for i, name in enumerate(_SCORES)},
    }, FINGERPRINT_COLUMNS)


def _fingerprints(frame: pd.DataFrame) -> list[tuple[int, Fingerprint]]:
    """The rows of ``fingerprint_frame`` as fingerprints again."""
    values = frame.astype(object).where(frame.notna(), None)
    return [(row.ordinal, Fingerprint(bytes.fromhex(row.key), row.white, row.black,
                                      (row.year, row.month, row.day),
                                      (row.score_result, row.score_tags, row.score_notes)))
            for row in values.itertuples(index=False)]


def fingerprint_part(partition: Partition, number: int, settings: Settings
                     ) -> tuple[PartFacts, pd.DataFrame]:
    """Pass 1 (a worker): a partition's facts, and its games' fingerprints."""
    results = DedupeTask(settings)(_records(partition))
    rows = [(ordinal(number, index), out.value) for index, out in enumerate(results)
            if isinstance(out.value, Fingerprint) and out.value.key is not None]
    unreadable = tuple((index, out.line, out.error, out.left_out)
                       for index, out in enumerate(results) if out.error)
    return (PartFacts(partition.source, partition.size, len(results), unreadable),
            fingerprint_frame(rows))


def group_partition(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """A worker: the games of a partition shuffled on the key that have copies, with their
    group (the ordinal of its first copy), grouped in reading order as ``Grouper`` does."""
    grouper = Grouper(by)
    for number, found in _fingerprints(frame.sort_values("ordinal")):
        grouper.add(number, found)
    rows, groups = [], []
    for group in grouper.duplicates():
        rows += zip(group.members, group.prints, strict=True)
        groups += [group.members[0]] * len(group.members)
    return fingerprint_frame(rows).assign(group=pd.array(groups, dtype="int64"))


def exact_part(partition: Partition, members: pd.DataFrame, settings: Settings
               ) -> pd.DataFrame:
    """Pass 2 (a worker): the exact key of each group member of a partition (read again
    only when it has one), and what the report shows of it."""
    if members.empty:
        return _frame({}, EXACT_COLUMNS)
    records = _records(partition)
    columns: dict[str, list] = {name: [] for name in EXACT_COLUMNS}
    for row in members.sort_values("ordinal").itertuples(index=False):
        record = records[row.ordinal & ((1 << PART_BITS) - 1)]
        choice = settings.choice
        key = move_key(record.game, choice.default, choice.override, rules=choice.rules)
        tags = head_tags(game_text(record))[0]
        values = [row.ordinal, row.group, key.hex() if key else None,
                  *(getattr(row, name) for name in _SCORES), record.line,
                  *(tags.get(tag, "") for tag in REPORT_TAGS)]
        for name, value in zip(EXACT_COLUMNS, values, strict=True):
            columns[name].append(value)
    return _frame(columns, EXACT_COLUMNS)


def settle_part(frame: pd.DataFrame) -> pd.DataFrame:
    """A worker: the groups of a partition shuffled on the group split by exact key (as
    ``refine``), each part of two or more copies with its first copy and the one kept: the
    first of the most complete, in reading order (as ``Group.add``)."""
    columns: dict[str, list] = {name: [] for name in SETTLED_COLUMNS}
    ordered = frame.sort_values("ordinal")
    for _, part in ordered.groupby(["group", "exact"], sort=False, dropna=False):
        if len(part) < 2:
            continue
        scores = list(zip(*(part[name].tolist() for name in _SCORES), strict=True))
        best = scores.index(max(scores))
        first = int(part["ordinal"].iloc[0])
        for place, row in enumerate(part.itertuples(index=False)):
            values = [row.ordinal, first, place == best, row.line,
                      *(getattr(row, tag) for tag in REPORT_TAGS)]
            for name, value in zip(SETTLED_COLUMNS, values, strict=True):
                columns[name].append(value)
    return _frame(columns, SETTLED_COLUMNS)


def kept_part(partition: Partition, dropped: pd.DataFrame) -> list[tuple[str, bool]]:
    """Pass 3 (a worker): the texts of a partition's games that are not dropped copies,
    in order, each marked when the reader gave up on it."""
    gone = {number & ((1 << PART_BITS) - 1) for number in dropped["ordinal"].tolist()}
    return [(game_text(record), record.game is None)
            for index, record in enumerate(_records(partition)) if index not in gone]


@dataclass
class ClusterDedupe:
    """One ``pdn dedupe`` run on a ``DaskRunner``'s cluster (``settings`` as the workers
    get them: without a progress callback)."""

    runner: DaskRunner
    settings: Settings
    by: str

    def __post_init__(self) -> None:
        self.partitions: list[Partition] = []
        self.offsets: list[int] = []  # games before each partition in its source
        self.frames: list[Any] = []  # futures of the fingerprints, held by the workers

    def fingerprints(self, sources: list[str]) -> Iterator[PartFacts]:
        """Pass 1, partition by partition in reading order: each one's facts."""
        runner = self.runner
        counts: dict[str, int] = {}

        def submitted() -> Iterator[Any]:
            for source in sources:
                for partition in runner.partitions(source, self.settings.encoding):
                    both = runner.submit(fingerprint_part, partition, len(self.partitions),
                                         self.settings)
                    self.partitions.append(partition)
                    self.frames.append(runner.client.submit(operator.getitem, both, 1))
                    yield runner.client.submit(operator.getitem, both, 0)

        for facts in runner.in_order(submitted()):
            self.offsets.append(counts.get(facts.source, 0))
            counts[facts.source] = self.offsets[-1] + facts.games
            yield facts

    def settle(self) -> Any:
        """Passes 1 and 2 on the workers: a Dask DataFrame of every copy of every group
        (``SETTLED_COLUMNS``), persisted on the cluster."""
        import dask.dataframe as dd

        parts = len(self.partitions)
        grouped = dd.from_delayed(self.frames, meta=_frame({}, FINGERPRINT_COLUMNS)).shuffle(
            "key", npartitions=parts).map_partitions(group_partition, self.by,
                                                     meta=_frame({}, GROUPED_COLUMNS))
        exact = [self.runner.submit(exact_part, partition, members, self.settings)
                 for partition, members in zip(self.partitions, self._by_partition(grouped),
                                               strict=True)]
        settled = dd.from_delayed(exact, meta=_frame({}, EXACT_COLUMNS)).shuffle(
            "group", npartitions=parts).map_partitions(settle_part,
                                                       meta=_frame({}, SETTLED_COLUMNS))
        self.frames = []
        return self.runner.client.persist(settled)

    def _by_partition(self, frame: Any) -> list[Any]:
        """Futures of ``frame``'s rows for each partition, in partition order."""
        numbered = frame.assign(part=frame["ordinal"] // (1 << PART_BITS))
        spread = numbered.set_index("part", divisions=list(range(len(self.partitions) + 1)))
        return self.runner.client.compute(spread.to_delayed())

    def texts(self, settled: Any) -> Iterator[tuple[str, bool]]:
        """Pass 3: the texts to write, in reading order, each marked when unreadable."""
        dropped = self._by_partition(settled[~settled["kept"]][["ordinal"]])
        futures = (self.runner.submit(kept_part, partition, gone)
                   for partition, gone in zip(self.partitions, dropped, strict=True))
        for part in self.runner.in_order(futures):
            yield from part

    def counts(self, settled: Any) -> tuple[int, int]:
        """The groups and the copies dropped."""
        groups, removed = self.runner.client.compute(
            [settled["first"].nunique(), (~settled["kept"]).sum()], sync=True)
        return int(groups), int(removed)

    def report_rows(self, settled: Any) -> Iterator[list]:
        """The report's rows (``REPORT_COLUMNS``): the copies sorted on the workers by group
        and reading order, fetched one partition at a time."""
        import dask

        # the sort samples the data on the cluster and leaves the sorted parts there
        with dask.config.set(scheduler=self.runner.client.get):
            ordered = self.runner.client.persist(settled.sort_values(["first", "ordinal"]))
        number, last = 0, None
        for piece in ordered.to_delayed():
            for row in self.runner.client.compute(piece, sync=True).itertuples(index=False):
                if row.first != last:
                    number, last = number + 1, row.first
                part, index = divmod(row.ordinal, 1 << PART_BITS)
                yield [number, "yes" if row.kept else "no", self.partitions[part].source,
                       self.offsets[part] + index + 1, row.line,
                       *(getattr(row, tag) for tag in REPORT_TAGS)]


def write_texts(texts: Iterator[tuple[str, bool]], out: IO[str], rejects: IO[str] | None
                ) -> int:
    """Write the kept games (an unreadable one to ``rejects`` when given); the games
    written to ``out`` that the reader could read."""
    written = 0
    for text, unreadable in texts:
        (rejects if unreadable and rejects is not None else out).write(text)
        written += not unreadable
    return written


__all__ = ["ClusterDedupe", "PartFacts", "exact_part", "fingerprint_frame",
           "fingerprint_part", "group_partition", "kept_part", "ordinal", "settle_part",
           "write_texts"]
