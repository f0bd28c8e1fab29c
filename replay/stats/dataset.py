"""``write_dataset``: a statistics table written as a Parquet dataset by the workers.

Two passes over the partitions, both on the runner's workers (``replay.run.runner``):

1. each worker reads, replays and tabulates a partition and leaves the part in the run's
   hidden folder of the target (``replay.run.dataset``); only small facts come back: the source,
   the games counted, the tag names seen and the result-reading votes;
2. once the client knows every game's number in its file, every tag column and each
   file's reading, each worker finishes a part exactly as the single-file output finishes
   it and writes it as ``part-NNNNNNNN.parquet``.

The client holds a few numbers per partition, so its memory does not grow with the
archive; the dataset read with ``pandas.read_parquet(DIR)`` is the single-file table.
"""

from __future__ import annotations

import pickle
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

import pandas as pd

from pdn.writer import SEVEN_TAGS
from replay.record.agreement import file_variant
from replay.record.silent import heads_follow
from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.run.dataset import Dataset
from replay.run.partitions import Partition
from replay.run.runner import open_runner
from replay.stats.execution import BLOCK, Part, TableOptions, agree_parts, follow_rows, run_batch
from replay.stats.rows import MoveColumns
from replay.stats.schema import (
    READINGS,
    REPLAY_COLUMNS,
    file_categories,
    fold_tags,
    typed_games,
    typed_moves,
    with_file,
)
from replay.stats.stream import DERIVED_TABLES, write_table
from replay.stats.tables import ReadingVotes, finish_games, finish_moves


@dataclass(frozen=True)
class Spooled:
    """What the client learns of a partition done in the first pass."""

    source: str
    size: int
    spool: str  # where the worker left the part's frame
    games: int
    tags: tuple[str, ...]
    votes: tuple[int, int]  # decided Black-first games read for the first mover, the colour
    statuses: dict[str, int]  # the part's games of each status
    offset: int = 0  # games before the partition in its file (set by the client)
    index: int = 0  # the part's number (set by the client)
    # The variants its first and last games that tell one tell (``replay.record.silent``), and the
    # one its silent games at its head follow (set by the client).
    told: tuple[str | None, str | None] = (None, None)
    follow: str | None = None
    # The variants its games that tell one are read as, counted, and the one its file's
    # games show (set by the client; ``replay.record.agreement``).
    variants: tuple[tuple[str, int], ...] = ()
    shown: str | None = None


@dataclass(frozen=True)
class Finish:
    """What the second pass needs to finish every part alike."""

    table: str
    files: list[str]
    tags: tuple[str, ...]
    readings: pd.Series | None
    options: TableOptions


def spool_part(partition: Partition, options: TableOptions, dataset: Dataset, table: str
               ) -> Spooled:
    """First pass (a worker): tabulate a partition and leave the frame ``table`` needs."""
    part = run_batch(partition, options)
    frame = part.moves if table == "moves" else part.games
    silent = {} if table == "moves" else part.silent  # a silent game has no moves
    open_ = ((), None) if table == "moves" else (part.open, part.block)  # same moves anyway
    path = dataset.spool_path(f"{uuid.uuid4().hex}.pickle")
    with dataset.files().open(path, "wb") as stream:
        pickle.dump((frame, silent, open_), stream, protocol=pickle.HIGHEST_PROTOCOL)
    readings = part.games["result_reading"].value_counts()
    told = [str(part.games.at[row, "variant"]) for row in range(len(part.games))
            if row not in part.silent]
    return Spooled(part.source, part.size, path, len(part.games),
                   tuple(c for c in part.games.columns if c not in REPLAY_COLUMNS),
                   (int(readings.get(READINGS[0], 0)), int(readings.get(READINGS[1], 0))),
                   {str(status): int(count)
                    for status, count in part.games["status"].value_counts().items()},
                   told=(told[0], told[-1]) if told else (None, None),
                   variants=tuple(Counter(told).items()))


def write_part(spooled: Spooled, finish: Finish, dataset: Dataset) -> int:
    """Second pass (a worker): number, finish and write one part; the rows written."""
    files = dataset.files()
    with files.open(spooled.spool, "rb") as stream:
        frame, silent, open_ = pickle.load(stream)
    files.rm(spooled.spool)
    frame["game"] += spooled.offset
    if open_[0]:
        part = Part(spooled.source, 0, frame, None, open=open_[0], block=open_[1])
        frame = next(agree_parts([part], spooled.shown, finish.options)).games
    if silent:
        follow_rows(frame, silent, spooled.follow, finish.options)
    if finish.table == "moves":
        done = finish_moves(with_file([frame], [spooled.source], frame, finish.files))
    else:
        frame = fold_tags(frame, list(finish.tags))
        done = finish_games(with_file([frame], [spooled.source], frame, finish.files),
                            finish.readings)
    write_parquet_part(done, dataset, spooled.index)
    return len(done)


def write_parquet_part(frame: pd.DataFrame, dataset: Dataset, index: int) -> None:
    """Write ``frame`` as part ``index`` of the dataset."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with dataset.part_stream(index) as stream:
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), stream)


def write_dataset(sources: Iterable[str], default: Variant, target: str, table: str = "games",
                  override: Variant | None = None, *, jobs: int = 1, engine: str = "local",
                  scheduler: str | None = None, opening_plies: int = 6,
                  encoding: str | None = None, rules: Rules | None = None,
                  progress: Callable[[int], None] | None = None,
                  statuses: Counter[str] | None = None) -> int:
    """Write ``table`` of ``sources`` as a Parquet dataset in the folder or URL ``target``
    (``replay.run.dataset``: one part per partition, ``_SUCCESS`` once complete); the rows written.

    The arguments are ``write_table``'s (``statuses`` counts the games of each status). The
    games and moves tables are written by the workers; players, openings and summary (small
    aggregates) as one part by the client.
    Raises ``OSError`` for an unreadable file, ``ValueError`` for an unknown table or a
    folder holding other files, and ``EngineUnavailableError`` without Dask.
    """
    if table not in ("games", "moves", *DERIVED_TABLES):
        raise ValueError(f"unknown table '{table}'")
    sources = list(sources)
    dataset = Dataset.plan(target, ".parquet")
    run = {"jobs": jobs, "engine": engine, "scheduler": scheduler, "encoding": encoding,
           "progress": progress}
    try:
        if table in DERIVED_TABLES:
            rows = _write_derived(sources, default, override, table, dataset,
                                  opening_plies=opening_plies, rules=rules,
                                  statuses=statuses, **run)
            dataset.commit(1, rows)
            return rows
        options = TableOptions(RulesChoice(default, override, rules), opening_plies,
                           with_moves=table == "moves")
        parts, rows = _write_parts(sources, options, dataset, table, statuses=statuses,
                                   **run)
        dataset.commit(parts, rows)
        return rows
    except BaseException:
        dataset.abort()
        raise


def _write_parts(sources: list[str], options: TableOptions, dataset: Dataset, table: str, *,
                 jobs: int, engine: str, scheduler: str | None, encoding: str | None,
                 progress: Callable[[int], None] | None, statuses: Counter[str] | None
                 ) -> tuple[int, int]:
    """Both passes on one runner; the parts and rows written."""
    files = file_categories(sources)
    spooled: list[Spooled] = []
    counts: dict[str, int] = {}
    tags: dict[str, None] = dict.fromkeys(SEVEN_TAGS)
    votes: dict[str, tuple[int, int]] = {}
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        for facts in runner.run(spool_part, sources, options, dataset, table,
                                encoding=encoding, size=BLOCK):
            if progress is not None:
                progress(facts.size)
            offset = counts.get(facts.source, 0)
            counts[facts.source] = offset + facts.games
            tags.update(dict.fromkeys(facts.tags))
            first, colour = votes.get(facts.source, (0, 0))
            votes[facts.source] = (first + facts.votes[0], colour + facts.votes[1])
            spooled.append(replace(facts, offset=offset, index=len(spooled)))
            if statuses is not None:
                statuses.update(facts.statuses)
        spooled = _followed(spooled)
        finish = Finish(table, files, tuple(tags), _readings(votes), options)
        rows = sum(runner.map(write_part, spooled, finish, dataset))
    if not spooled:  # an empty table still has its columns
        write_parquet_part(_empty(table, files), dataset, 0)
        return 1, 0
    return len(spooled), rows


def _followed(spooled: list[Spooled]) -> list[Spooled]:
    """Each part told the variant its silent games at its head follow (``replay.record.silent``)
    and the one its file's games show (``replay.record.agreement``), over the parts of each
    source."""
    by_source: dict[str, list[int]] = {}
    for number, part in enumerate(spooled):
        by_source.setdefault(part.source, []).append(number)
    followed = list(spooled)
    for numbers in by_source.values():
        keys = heads_follow([spooled[number].told for number in numbers])
        shown = file_variant(sum((Counter(dict(spooled[number].variants))
                                  for number in numbers), Counter()))
        for number, key in zip(numbers, keys, strict=True):
            followed[number] = replace(spooled[number], follow=key, shown=shown)
    return followed


def _readings(votes: dict[str, tuple[int, int]]) -> pd.Series | None:
    """Each file's reading of its results (``replay.stats.tables.ReadingVotes``)."""
    gathered = ReadingVotes()
    for name, counts in votes.items():
        gathered.add_counts(name, counts)
    return gathered.readings()


def _empty(table: str, files: list[str]) -> pd.DataFrame:
    if table == "moves":
        return finish_moves(with_file([], [], typed_moves(MoveColumns().columns), files))
    return finish_games(with_file([], [], typed_games([]), files))


def _write_derived(sources: list[str], default: Variant, override: Variant | None,
                   table: str, dataset: Dataset, **run) -> int:
    """An aggregate table, small whatever the archive: built by the client as
    ``write_table`` builds it, and written as the dataset's one part."""
    with tempfile.TemporaryDirectory(prefix="pdn-stats-") as folder:
        local = Path(folder) / f"{table}.parquet"
        rows, _ = write_table(sources, default, local, table, override, **run)
        with dataset.part_stream(0) as stream:
            stream.write(local.read_bytes())
    return rows


__all__ = ["write_dataset"]
