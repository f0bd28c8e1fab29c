"""Convert whole sources on a runner (``replay.run.runner``): partitions of games are read, mended
where a repair is sure, replayed and written in the target notation where they lie (this
process, worker processes or a Dask cluster), and only the text and a plain report per game
come back, in order; the library behind ``pdn convert``.

>>> import tempfile, pathlib
>>> from replay.convert.games import Target
>>> from replay.rules.variants import RUSSIAN
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.pdn"
>>> _ = path.write_text("1.ed4 dc5 2.fe3 *")
>>> (item,) = convert_sources([str(path)], Job(RulesChoice(RUSSIAN), Target("full"), "text",
...                                                 "inline"))
>>> verdict(item), item.text
('converted', '1.e3-d4 d6-c5 2.f2-e3')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import replay.convert.games as convert
from pdn.game import Game
from pdn.i18n import N_, Catalog, catalog
from pdn.reader import read_block
from replay.convert.games import Target, TargetError
from replay.record.agreement import agree_file
from replay.record.inference import keyed_variant
from replay.record.silent import follow_file
from replay.rules.choice import RulesChoice
from replay.rules.variants import Variant
from replay.run.parallel import gc_paused
from replay.run.partitions import Partition, source_name
from replay.run.runner import open_runner
from replay.validate.reports import GameReport, problem_line, read_again

# What became of a game, in the order ``pdn convert`` sums them up.
VERDICTS = ("converted", "incomplete", "partly converted", "not converted", "unreadable")


@dataclass(frozen=True)
class Job:
    """How to convert: how each game's rules are chosen, the target, the output form, and
    whether to convert up to an error and to mend sure slips."""

    choice: RulesChoice
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


@dataclass(frozen=True)
class Unreadable:
    """A source that could not be read, and why (``name: cannot read: reason``)."""

    source: str
    message: str


def convert_partition(partition: Partition, job: Job) -> tuple[int, list[Converted]]:
    """Worker entry: the partition's size and its games converted (numbered from 1 in it)."""
    from replay.validate.repair import repair_game

    done = []
    with gc_paused():
        block = partition.chunk()
        for place, game in enumerate(read_block(block, partition.source)):
            choice = job.choice
            mend = repair_game(game, choice.default, choice.override, rules=choice.rules).mend \
                if job.repair else ""
            converted = _converted(game, job, mend or "")
            report = converted.report
            if report.open_variant and not report.silent and not job.repair:
                # held for the file's variant without its record, read again from the
                # partition's text if redone (a repaired game is kept: it was mended in place)
                report.record, report.origin = None, (block, place)
            done.append(converted)
    return partition.size, done


def _converted(game: Game, job: Job, mend: str, follow: Variant | None = None,
               shown: Variant | None = None) -> Converted:
    """One game converted; ``follow``: the variant of a record that tells nothing, ``shown``:
    the variant its file's games show (``replay.record.replayer.replay_game``)."""
    choice = job.choice
    variant, replayed = convert.reading_variant(game, choice.default, choice.override,
                                                rules=choice.rules, follow=follow, shown=shown)
    if job.output_format == "pdn" and (plain := convert.convert_plainly(
            game, variant, replayed, job.target)) is not None:
        text, report = plain
        return Converted(text, report, replayed.plies, mend)
    conversion = convert.convert_replayed(game, variant, replayed, job.target,
                                          partial=job.partial,
                                          details=job.output_format == "json")
    text = (convert.render(conversion, job.output_format, job.layout)
            if conversion.game is not None else None)
    plies = len(conversion.tree.steps) if conversion.tree is not None else 0
    return Converted(text, conversion.report, plies, mend)


def _followed(items: Iterator[Converted], job: Job) -> Iterator[Converted]:
    """The games of one source, where one that several variants replay is converted again
    with the variant its file's games show offered first (``replay.record.agreement``), and one
    whose record tells nothing of its variant under the variant of the file's games around
    it (``replay.record.silent``)."""
    def redo(item: Converted, key: str, *, silent: bool) -> Converted:
        report = item.report
        variant = keyed_variant(key)
        again = _converted(report.record or read_again(report), job, item.mend,
                           variant if silent else None, None if silent else variant)
        again.report.game = report.game
        return again

    agreed = agree_file(items, lambda item: None if item.report.silent else item.report.variant_key,
                        lambda item: item.report.open_variant
                        and (item.report.record is not None or item.report.origin is not None),
                        lambda item, key: redo(item, key, silent=False))
    for item in follow_file(agreed, lambda item: item.report.silent
                            and item.report.record is not None,
                            lambda item: item.report.variant_key,
                            lambda item, key: redo(item, key, silent=True)):
        item.report.record = item.report.origin = None
        yield item


def convert_sources(sources: list[str], job: Job, *, jobs: int = 0,
                    encoding: str | None = None, engine: str = "local",
                    scheduler: str | None = None,
                    progress: Callable[[int], None] | None = None
                    ) -> Iterator[Converted | Unreadable]:
    """Every game of every source converted, in order, numbered in its source; a source
    that cannot be read gives an ``Unreadable`` instead and the others are still read.
    ``progress`` is told how much of the input each partition covered. Raises
    ``TargetError`` when the target does not fit a game's board."""
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        for source in sources:
            try:
                parts = runner.map(convert_partition, runner.partitions(source, encoding), job)
                yield from _followed(_numbered(parts, progress), job)
            except OSError as error:
                name = source_name(source)
                yield Unreadable(name, f"{name}: cannot read: {error.strerror or error}")
            except TargetError as error:
                raise TargetError(f"{source_name(source)}: {error}") from None


def _numbered(parts: Iterator[tuple[int, list[Converted]]],
             progress: Callable[[int], None] | None) -> Iterator[Converted]:
    """The games of one source's partitions, numbered in the source."""
    offset = 0
    for size, part in parts:
        if progress is not None:
            progress(size)
        for converted in part:
            converted.report.game += offset
            yield converted
        offset += len(part)


def verdict(item: Converted) -> str:
    """What became of a game: one of ``VERDICTS``."""
    report = item.report
    if item.text is None:
        return "unreadable" if report.status == "unreadable" else "not converted"
    if report.errors:
        return "partly converted"
    return "incomplete" if report.status == "incomplete" else "converted"


def messages(item: Converted, words: Catalog | None = None) -> list[str]:
    """What to tell the user about a game: the repair made, its errors and the records
    written differently, in ``pdn validate``'s form, and where a partial conversion
    stopped; in the language of ``words`` (English by default)."""
    words = words or catalog("en")
    report = item.report
    where = f"{report.file or '<stdin>'}:{report.line}"
    game = words.localize(N_("game {number}").format(number=report.game))
    lines = [f"{where}: {game}: " + words.gettext(N_("repaired: {mend}")).format(
        mend=words.localize(item.mend))] if item.mend else []
    lines += [problem_line(report, problem, "error", words) for problem in report.errors]
    lines += [problem_line(report, problem, "warning", words) for problem in report.warnings]
    if verdict(item) == "partly converted":
        lines.append(f"{where}: {words.localize(report.title)}: " + words.ngettext(
            "converted up to the error ({count} ply of the main line)",
            "converted up to the error ({count} plies of the main line)", item.plies).format(
                count=item.plies))
    return lines
