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
from typing import IO

from pdn.reader import PdnText, read_games
from pdn.records import STDIN
from pdn.tags import head_tags
from replay.archive.dedupe import (
    Fingerprint,
    Found,
    Grouper,
    completeness,
    dropped,
    move_key,
    refine,
)
from replay.archive.run import (
    ALIKE,
    COPIES,
    DedupeTask,
    Located,
    Note,
    Out,
    Settings,
    Summary,
    note_unreadable,
    portable,
    report_row,
    run_over,
    write_report,
)
from replay.record.replayer import game_variant
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
    places: list[tuple[str, int, int]] = []
    offsets = array("q", [0])
    unreadable: set[int] = set()
    grouper = Grouper()
    with tempfile.TemporaryFile(buffering=0) as spool:  # unbuffered: a full disk shows at once
        items = run_over(sources, DedupeTask(portable(settings), scored=False), settings, runner)
        for ordinal, item in enumerate(items):
            summary.games += 1
            places.append((item.source, item.index, item.result.line))
            offsets.append(offsets[-1] + _spool_write(spool, item.result.text))
            if item.result.error:
                note_unreadable(item, summary, rejects, note)
                unreadable.add(ordinal)
            elif isinstance(item.result.value, Fingerprint):
                grouper.add(ordinal, item.result.value)

        def spooled(ordinal: int) -> str:
            spool.seek(offsets[ordinal])
            return spool.read(offsets[ordinal + 1] - offsets[ordinal]).decode("utf-8")

        made: dict[bytes, tuple[bytes | None, tuple[int, int, int]]] = {}

        def exact_key(ordinal: int) -> tuple[bytes | None, tuple[int, int, int]]:
            """A game's exact key and completeness, made once per distinct text (a file
            read twice, a game pasted over and over)."""
            text = spooled(ordinal)
            digest = hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()
            if digest not in made:
                choice = settings.choice
                game = next(read_games(PdnText(text)))
                variant = game_variant(game, choice.default, choice.override,
                                       rules=choice.rules)
                made[digest] = (move_key(game, choice.default, choice.override,
                                         rules=choice.rules), completeness(game, variant))
            return made[digest]

        found = refine(grouper.shared(), exact_key, by)
        removed = dropped(found.copies)
        listed = _listed(found)
        rows = {}
        for ordinal in range(summary.games):
            text = spooled(ordinal)
            if ordinal in listed:
                source, index, line = places[ordinal]
                rows[ordinal] = report_row(source, index, line, head_tags(text)[0])
            if ordinal in unreadable:
                (rejects or out).write(text)
            elif ordinal not in removed:
                out.write(text)
                summary.written += 1
    summary.groups, summary.removed, summary.alike = (len(found.copies), len(removed),
                                                      len(found.alike))
    if report is not None:
        write_report(report, _report_rows(found, removed, rows))
    return summary


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
