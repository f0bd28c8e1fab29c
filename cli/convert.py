"""``pdn convert``: write records in another notation, resolved through the rules engine."""

from __future__ import annotations

import sys
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cli.common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE, UntaggedVariantOption, fail
from cli.engine import EngineOption, SchedulerOption, check_engine
from cli.sources import SourceError, collect_sources
from replay.validate import problem_line

if TYPE_CHECKING:
    from replay.convert_sources import Converted, Job

SEPARATORS = {"pdn": "\n\n", "text": "\n\n", "json": "\n", "fen": "\n\n"}


def convert(
    paths: Annotated[list[str], typer.Argument(
        help="PDN files, directories (searched for *.pdn and *.txt) or - for stdin.")],
    to: Annotated[str, typer.Option(
        "--to", help="full (c3-d4, c3:e5), short (Russian ed4, b:d6), numeric (22-17) or pdn "
        "(PDN 3.0 as the GameType prescribes).")] = "pdn",
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write here (atomically) instead of to stdout.")] = None,
    paths_style: Annotated[str, typer.Option(
        "--paths", help="Capture paths: minimal (from-to, the full path where ambiguous), "
        "turns (every turning square), canonical (PDN 3.0 full form), all (every landing "
        "square).")] = "minimal",
    capture_sep: Annotated[str | None, typer.Option(
        "--capture-sep", help="Capture mark x, : or - (default: the GameType's).")] = None,
    numbering: Annotated[str | None, typer.Option(
        "--numbering", help="For --to numeric: N0..N3 or a GameType whose numbering to use "
        "(default: the variant's).")] = None,
    output_format: Annotated[str, typer.Option(
        "--format", "-f", help="pdn; text (a scoresheet, see --layout); json (one line per "
        "game: tags, every ply in every notation with the FEN after it); fen (one FEN per "
        "main-line ply).")] = "pdn",
    layout: Annotated[str, typer.Option(
        "--layout", help="For --format text: columns (1. c3-d4   f6-g5) or inline "
        "(1.ed4 dc5 2.fe3).")] = "columns",
    partial: Annotated[bool, typer.Option(
        "--partial", help="Convert a game with an illegal move up to the error and say so in "
        "a comment.")] = False,
    repair: Annotated[bool, typer.Option(
        "--repair", help="Mend a game that stops replaying where ONE best repair makes it "
        "replay to its end (noted in the game as {repaired: ...} and on stderr).")] = False,
    variant: UntaggedVariantOption = None,
    encoding: Annotated[str | None, typer.Option(help="Input encoding (default: detect).")]
    = None,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=0, help="Worker processes (0: all cores when the input is large).")]
    = 0,
    engine: EngineOption = "local",
    scheduler: SchedulerOption = None,
) -> None:
    """Convert records to another notation; illegal games are reported, not converted.

    Games with lost moves are converted as far as they are known. Exit status: 0 all
    converted, 1 some games not (fully) converted, 2 usage error or unreadable input.
    """
    from pdn.output import OutputError, refuse_overwriting_inputs
    from replay.convert import FORMATS, LAYOUTS, Target, TargetError
    from replay.convert_sources import Job

    if output_format not in FORMATS or layout not in LAYOUTS:
        fail(f"--format must be one of {', '.join(FORMATS)} and --layout one of "
             f"{', '.join(LAYOUTS)}")
    if (problem := check_engine(engine, scheduler)) is not None:
        fail(problem)
    try:
        target = Target(to, paths_style, capture_sep, numbering)
        if variant is not None:
            target.gametype(variant)
        sources = collect_sources(paths)
        if output is not None:
            refuse_overwriting_inputs(output, sources)
    except (TargetError, SourceError, OutputError) as error:
        fail(str(error))
    job = Job(variant, target, output_format, layout, partial, repair)
    counts = _convert_sources(sources, output, job, encoding,
                              {"jobs": jobs, "engine": engine, "scheduler": scheduler})
    summary = ", ".join(f"{counts[key]} {key}" for key in (
        "converted", "incomplete", "partly converted", "not converted", "unreadable")
        if counts[key])
    typer.echo(f"{summary or 'no games'}", err=True)
    if counts["unreadable"]:
        raise typer.Exit(EXIT_UNREADABLE)
    failed = counts["not converted"] + counts["partly converted"]
    raise typer.Exit(EXIT_INVALID if failed else EXIT_OK)


def _convert_sources(sources: list[str], output: Path | None, job: Job, encoding: str | None,
                     run: dict) -> Counter[str]:
    from pdn.output import atomic_writer
    from pdn.runner import EngineUnavailableError
    from replay.convert import TargetError
    from replay.convert_sources import convert_sources

    counts: Counter[str] = Counter()
    context = atomic_writer(output) if output is not None else nullcontext(sys.stdout)
    with context as stream:
        try:
            for item in convert_sources(sources, job, encoding=encoding, **run):
                if isinstance(item, str):
                    typer.secho(item, err=True, fg="red")
                    counts["unreadable"] += 1
                    continue
                counts[_report(item)] += 1
                if item.text is not None:
                    stream.write(item.text + SEPARATORS[job.output_format])
        except TargetError as error:  # --numbering does not fit a game's board
            fail(str(error))
        except EngineUnavailableError as error:
            fail(str(error))
    return counts


def _report(item: Converted) -> str:
    """Say on stderr what was repaired, not converted or written differently; the verdict."""
    report = item.report
    if item.mend:
        typer.echo(f"{report.file or '<stdin>'}:{report.line}: game {report.game}: repaired: "
                   f"{item.mend}", err=True)
    for problem in report.errors:
        typer.echo(problem_line(report, problem, "error"), err=True)
    for problem in report.warnings:
        typer.echo(problem_line(report, problem, "warning"), err=True)
    if item.text is None:
        return "unreadable" if report.status == "unreadable" else "not converted"
    if report.errors:
        typer.echo(f"{report.file or '<stdin>'}:{report.line}: {report.title}: converted up "
                   f"to the error ({item.plies} plies of the main line)", err=True)
        return "partly converted"
    return "incomplete" if report.status == "incomplete" else "converted"


def register(app: typer.Typer) -> None:
    app.command()(convert)
