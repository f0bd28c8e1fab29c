"""Convert every game of many sources on a runner (``pdn.runner``): partitions of games are
read, replayed and written in the target notation where they lie (worker processes, or a
Dask cluster), and only the text and a plain report per game come back, in order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pdn.parallel import gc_paused
from pdn.partitions import Partition, source_name
from pdn.reader import read_block
from pdn.runner import open_runner
from replay import convert
from replay.convert import Target, TargetError
from replay.validate import GameReport
from replay.variants import Variant


@dataclass(frozen=True)
class Job:
    """How to convert: the variant of games without GameType, the target and the output."""

    default: Variant | None
    target: Target
    output_format: str = "pdn"
    layout: str = "columns"
    partial: bool = False
    repair: bool = False


@dataclass
class Converted:
    """One game's outcome: its text in the output format (None: not converted), its report
    (numbered in its source), the main-line plies converted, and a repair made ("": none)."""

    text: str | None
    report: GameReport
    plies: int
    mend: str = ""


def convert_partition(partition: Partition, job: Job) -> list[Converted]:
    """Worker entry: convert the games of one partition (numbered from 1 in it)."""
    from replay.repair import repair_game

    done = []
    with gc_paused():
        for game in read_block(partition.chunk(), partition.source):
            mend = repair_game(game, job.default).mend if job.repair else ""
            conversion = convert.convert_game(game, job.default, job.target,
                                              partial=job.partial,
                                              details=job.output_format == "json")
            text = (convert.render(conversion, job.output_format, job.layout)
                    if conversion.game is not None else None)
            plies = len(conversion.tree.steps) if conversion.tree is not None else 0
            done.append(Converted(text, conversion.report, plies, mend or ""))
    return done


def convert_sources(sources: list[str], job: Job, *, jobs: int = 0,
                    encoding: str | None = None, engine: str = "local",
                    scheduler: str | None = None) -> Iterator[Converted | str]:
    """Every game of every source converted, in order, numbered in its source; a source
    that cannot be read gives one error string (``name: cannot read: reason``) instead.
    Raises ``TargetError`` when the target does not fit a game's board."""
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        for source in sources:
            offset = 0
            try:
                for part in runner.map(convert_partition, runner.partitions(source, encoding),
                                       job):
                    for converted in part:
                        converted.report.game += offset
                        yield converted
                    offset += len(part)
            except OSError as error:
                yield f"{source_name(source)}: cannot read: {error.strerror or error}"
            except TargetError as error:
                raise TargetError(f"{source_name(source)}: {error}") from None
