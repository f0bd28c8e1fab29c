"""``pdn dedupe`` on a Dask cluster: the workers find the copies, the client keeps nothing
per game.

Every game is named by an ordinal that sorts in reading order, ``partition << 32 | index``
(the partition's number in reading order, the game's place in it), so that no pass needs
to know how many games came before. Three passes over the partitions, on the workers:

1. ``fingerprint_part`` reads a partition and fingerprints its games
   (``replay.archive.dedupe``); the fingerprints stay on the workers, and only the games
   counted and the unreadable ones reach the client. The fingerprints, as a Dask DataFrame,
   are shuffled on their written key and each worker keeps the keys two or more games share
   (``group_partition``), as the client's ``Grouper`` does.
2. Those games go back to their partitions (a shuffle on the partition number), where
   ``exact_part`` reads them again and computes each one's exact ``move_key`` and what the
   report shows of it; shuffled on the written key, ``settle_part`` splits them by exact
   key and tells the records of each line of moves apart as games, marking the copy kept,
   with ``dedupe.settle`` itself, as the local engine does.
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
from replay.archive.dedupe import Fingerprint, move_key, settle
from replay.archive.identity import FIELDS, Facts
from replay.archive.run import ALIKE, COPIES, REPORT_TAGS, DedupeTask, Settings, game_text
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


FACT_COLUMNS = {"white": "string", "black": "string", "year": "Int64", "month": "Int64",
                "day": "Int64", "round": "string", "game": "Int64", "result": "string",
                "site": "string"}
FINGERPRINT_COLUMNS = {"ordinal": "int64", "key": "string", **FACT_COLUMNS,
                       **dict.fromkeys(_SCORES, "int64")}
GROUPED_COLUMNS = {**FINGERPRINT_COLUMNS, "group": "int64"}
EXACT_COLUMNS = {"ordinal": "int64", "group": "int64", "exact": "string", **FACT_COLUMNS,
                 **dict.fromkeys(_SCORES, "int64"), "line": "int64",
                 **{tag: "string" for tag in REPORT_TAGS}}
SETTLED_COLUMNS = {"ordinal": "int64", "section": "string", "first": "int64", "place": "int64",
                   "kept": "bool", "differs": "string", "line": "int64",
                   **{tag: "string" for tag in REPORT_TAGS}}


def _fact_values(facts: Facts) -> list:
    """A fingerprint's facts as ``FACT_COLUMNS``."""
    return [facts.white, facts.black, *facts.date, facts.round, facts.game, facts.result,
            facts.site]


def _facts(row: Any) -> Facts:
    """A row's ``FACT_COLUMNS`` (missing values None) as facts again."""
    return Facts(row.white, row.black, (row.year, row.month, row.day),
                 *(getattr(row, name) for name in FIELDS[3:]))


def fingerprint_frame(rows: list[tuple[int, Fingerprint]]) -> pd.DataFrame:
    """One row per game with moves: its ordinal, written key (hex), the facts its record
    states and how complete the copy is."""
    values = [[o, f.key.hex() if f.key else None, *_fact_values(f.facts), *f.score]
              for o, f in rows]
    return _frame(dict(zip(FINGERPRINT_COLUMNS, map(list, zip(*values, strict=True)),
                           strict=True)) if values else {}, FINGERPRINT_COLUMNS)


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """A frame with Python values, None where missing."""
    return frame.astype(object).where(frame.notna(), None)


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


def group_partition(frame: pd.DataFrame) -> pd.DataFrame:
    """A worker: the games of a partition shuffled on the key whose key two or more share,
    with their group (the ordinal of the first of them), in reading order."""
    ordered = frame.sort_values("ordinal")
    first = ordered.groupby("key")["ordinal"].transform("min")
    shared = ordered.groupby("key")["ordinal"].transform("size") > 1
    return ordered[shared].assign(group=first[shared].astype("int64")).reset_index(drop=True)


def exact_part(partition: Partition, members: pd.DataFrame, settings: Settings
               ) -> pd.DataFrame:
    """Pass 2 (a worker): the exact key of each game of a partition that shares its
    written key (read again only when one does), with its facts, and what the report shows
    of it."""
    if members.empty:
        return _frame({}, EXACT_COLUMNS)
    records = _records(partition)
    columns: dict[str, list] = {name: [] for name in EXACT_COLUMNS}
    for row in _plain(members.sort_values("ordinal")).itertuples(index=False):
        record = records[row.ordinal & ((1 << PART_BITS) - 1)]
        choice = settings.choice
        key = move_key(record.game, choice.default, choice.override, rules=choice.rules)
        tags = head_tags(game_text(record))[0]
        values = [row.ordinal, row.group, key.hex() if key else None,
                  *(getattr(row, name) for name in FACT_COLUMNS),
                  *(getattr(row, name) for name in _SCORES), record.line,
                  *(tags.get(tag, "") for tag in REPORT_TAGS)]
        for name, value in zip(EXACT_COLUMNS, values, strict=True):
            columns[name].append(value)
    return _frame(columns, EXACT_COLUMNS)


def settle_part(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """A worker: the games of a partition shuffled on the written key, split by exact key
    and told apart as games (``dedupe.settle``, as the local engine): the copies of each group of
    two or more, the first of the most complete marked kept, then the kept copy of each
    game of every line several games played, with what tells them apart."""
    columns: dict[str, list] = {name: [] for name in SETTLED_COLUMNS}

    def add(ordinal: int, section: str, first: int, place: int, kept: bool, differs: str
            ) -> None:
        row = rows[ordinal]
        values = [ordinal, section, first, place, kept, differs, row.line,
                  *(getattr(row, tag) for tag in REPORT_TAGS)]
        for name, value in zip(SETTLED_COLUMNS, values, strict=True):
            columns[name].append(value)

    ordered = _plain(frame.sort_values("ordinal"))
    rows = {row.ordinal: row for row in ordered.itertuples(index=False)}
    for _, part in ordered.groupby(["group", "exact"], sort=False, dropna=False):
        if len(part) < 2:
            continue
        groups, alike = settle(((row.ordinal, _facts(row),
                                 tuple(getattr(row, name) for name in _SCORES))
                                for row in part.itertuples(index=False)), by)
        for group in groups:
            for member in group.members:
                add(member, COPIES, group.members[0], member, member == group.best, "")
        if alike is not None:
            first, differs = alike.games[0].members[0], " ".join(alike.differs)
            for game in alike.games:
                add(game.best, ALIKE, first, game.members[0], True, differs)
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
    by: str = "game"

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
            "key", npartitions=parts).map_partitions(group_partition,
                                                     meta=_frame({}, GROUPED_COLUMNS))
        exact = [self.runner.submit(exact_part, partition, members, self.settings)
                 for partition, members in zip(self.partitions, self._by_partition(grouped),
                                               strict=True)]
        settled = dd.from_delayed(exact, meta=_frame({}, EXACT_COLUMNS)).shuffle(
            "group", npartitions=parts).map_partitions(settle_part, self.by,
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
        gone = settled[(settled["section"] == COPIES) & ~settled["kept"]][["ordinal"]]
        futures = (self.runner.submit(kept_part, partition, dropped)
                   for partition, dropped in zip(self.partitions, self._by_partition(gone),
                                                 strict=True))
        for part in self.runner.in_order(futures):
            yield from part

    def counts(self, settled: Any) -> tuple[int, int, int]:
        """The groups of copies, the copies dropped and the lines several games played."""
        copies = settled["section"] == COPIES
        groups, removed, alike = self.runner.client.compute(
            [settled[copies]["first"].nunique(), (copies & ~settled["kept"]).sum(),
             settled[~copies]["first"].nunique()], sync=True)
        return int(groups), int(removed), int(alike)

    def report_rows(self, settled: Any) -> Iterator[list]:
        """The report's rows (``REPORT_COLUMNS``): sorted on the workers by section, group
        and game, fetched one partition at a time."""
        import dask

        # the sort samples the data on the cluster and leaves the sorted parts there
        with dask.config.set(scheduler=self.runner.client.get):
            ordered = self.runner.client.persist(settled.sort_values(["section", "first",
                                                                      "place"]))
        number, last = 0, None
        for piece in ordered.to_delayed():
            for row in self.runner.client.compute(piece, sync=True).itertuples(index=False):
                if (row.section, row.first) != last:
                    number, last = number + 1, (row.section, row.first)
                part, index = divmod(row.ordinal, 1 << PART_BITS)
                yield [row.section, number, "yes" if row.kept else "no",
                       self.partitions[part].source, self.offsets[part] + index + 1, row.line,
                       *(getattr(row, tag) for tag in REPORT_TAGS), row.differs]


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
