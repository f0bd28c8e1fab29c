"""``pdn validate``: replay records on the rules and say exactly what is wrong."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import ExitCode, fail, games_exit, input_size, progress_bar
from .options import (
    Choice,
    EncodingOption,
    EngineOption,
    IgnoreGameTypeOption,
    JobsOption,
    JsonOption,
    NoForcedCaptureOption,
    PathsArgument,
    RulesOption,
    SchedulerOption,
    UntaggedVariantOption,
    check_engine,
    variant_choice,
)
from .sources import SourceError, collect_sources


def validate(
    paths: PathsArgument,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    as_json: JsonOption = False,
    jobs: JobsOption = 0,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Count warnings (notation slips, resolved ambiguities) as errors.")]
    = False,
    warnings: Annotated[bool, typer.Option("--warnings", "-W", help="Print warnings too.")]
    = False,
    report: Annotated[Path | None, typer.Option(
        "--report", help="Write an arbiter's report (.html or .md) with diagrams.")] = None,
    encoding: EncodingOption = None,
    suggest: Annotated[bool, typer.Option(
        "--suggest", help="Under each broken game, the slips that would mend it (a move "
        "missing, one too many, two exchanged, a letter or digit off).")] = False,
    engine: EngineOption = "local",
    scheduler: SchedulerOption = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", help="With --json: have the workers write the reports as JSON-lines "
        "parts into a folder (DIR/, an existing folder, or a URL such as s3://bucket/prefix/).",
        show_default=False)] = None,
) -> None:
    """Replay every game on the rules; report illegal, ambiguous and incomplete records.

    Exit status: 0 all games valid (or incomplete), 1 some invalid or unreadable, 2 usage
    error or a file that cannot be read.
    """
    from replay.validate import problem_line, suggestion_lines, validate_sources

    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    check_engine(engine, scheduler)
    if report is not None and report.suffix.lower() not in (".html", ".htm", ".md"):
        fail(f"--report must end in .html or .md, not '{report.suffix}'")
    if output is not None:
        _check_dataset_options(output, as_json, report)
    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    if output is not None:
        _write_dataset(sources, output, choice, jobs=jobs, encoding=encoding, suggest=suggest,
                       rules=choice.rules, strict=strict, engine=engine, scheduler=scheduler)
    started = time.perf_counter()
    statuses: Counter[str] = Counter()
    checks: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    moves = 0
    kept = []
    unreadable_files = 0
    with progress_bar("validating", input_size(sources)) as progress:
        for item in _engine_checked(validate_sources(
                sources, choice.default, choice.override, jobs=jobs, encoding=encoding,
                suggest=suggest, rules=choice.rules, strict=strict, progress=progress,
                engine=engine, scheduler=scheduler)):
            if isinstance(item, str):
                typer.secho(item, err=True, fg="red")
                unreadable_files += 1
                continue
            statuses[item.status] += 1
            checks[item.result_check] += 1
            if item.variant_source == "inferred":
                inferred[item.variant] += 1
            moves += item.plies
            if report is not None:
                kept.append(item)
            if as_json:
                typer.echo(json.dumps(item.as_dict(), ensure_ascii=False))
                continue
            for problem in item.errors:
                typer.echo(problem_line(item, problem, "error"))
            if suggest and item.status == "invalid":
                for line in suggestion_lines(item):
                    typer.echo(line)
            if warnings or strict:
                for problem in item.warnings:
                    typer.echo(problem_line(item, problem, "warning"))
                for problem in item.notes:
                    typer.echo(problem_line(item, problem, "note"))
            if item.result_check == "inconsistent":
                typer.echo(f"{item.file or '<stdin>'}:{item.line}: result: {item.title}: "
                           f"{item.result_note}")
    seconds = time.perf_counter() - started
    if report is not None:
        _write_report(report, kept)
    if not as_json:
        typer.echo(_summary(statuses, checks, inferred, moves, seconds), err=True)
    _exit(statuses, unreadable_files)


def _summary(statuses: Counter[str], checks: Counter[str], inferred: Counter[str], moves: int,
             seconds: float) -> str:
    """The closing line: games by status, moves checked and how fast, result checks."""
    games = sum(statuses.values())
    rate = f", {moves / seconds:,.0f} moves/s" if seconds > 0 else ""
    summary = ", ".join(f"{statuses[s]} {s}" for s in
                        ("valid", "invalid", "incomplete", "unreadable") if statuses[s])
    return (f"{games} games: {summary or 'none'}; {moves:,} moves checked in "
            f"{seconds:.2f} s{rate}; results: "
            + ", ".join(f"{n} {c}" for c, n in sorted(checks.items()))
            + _inferred_summary(inferred))


def _exit(statuses: Counter[str], unreadable_files: int) -> None:
    if unreadable_files:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(bool(statuses["invalid"] or statuses["unreadable"])))


def _check_dataset_options(output: str, as_json: bool, report: Path | None) -> None:
    from pdn.dataset import is_dataset_target

    if not as_json:
        fail("-o writes the reports as JSON lines: add --json")
    if report is not None:
        fail("--report needs every report in this process: leave out -o")
    if not is_dataset_target(output):
        fail(f"-o {output}: give a folder for the workers' parts (end it with /)")


def _write_dataset(sources: list[str], output: str, choice: Choice, **run: Any) -> None:
    """The workers write the reports into ``output``; the summary goes to stderr."""
    from pdn.dataset import DatasetError
    from pdn.runner import EngineUnavailableError
    from replay.validate_dataset import validate_to_dataset

    started = time.perf_counter()
    try:
        with progress_bar("validating", input_size(sources)) as progress:
            written = validate_to_dataset(sources, output, choice.default, choice.override,
                                          progress=progress, **run)
    except (EngineUnavailableError, DatasetError) as error:
        fail(str(error))
    except ImportError as error:  # an fsspec URL whose filesystem package is missing
        fail(f"{output}: {error}")
    except OSError as error:
        fail(f"{error.filename or output}: cannot write: {error.strerror or error}")
    for message in written.unreadable:
        typer.secho(message, err=True, fg="red")
    tally = written.tally
    typer.echo(_summary(tally.statuses, tally.checks, tally.inferred, tally.moves,
                        time.perf_counter() - started)
               + f"; {tally.rows:,} reports written to the dataset {output}", err=True)
    _exit(tally.statuses, len(written.unreadable))


def _engine_checked(items: Iterator) -> Iterator:
    """The reports, or a clear error when the engine asked for is not installed."""
    from pdn.runner import EngineUnavailableError

    try:
        yield from items
    except EngineUnavailableError as error:
        fail(str(error))


def _inferred_summary(inferred: Counter[str]) -> str:
    if not inferred:
        return ""
    told = ", ".join(f"{count} {name}" for name, count in inferred.most_common())
    return f"; variants told from the records (no GameType tag): {told} (-W shows why)"


def _write_report(path: Path, reports: list) -> None:
    from pdn.output import write_atomically
    from replay.report import html_report, markdown_report

    text = markdown_report(reports) if path.suffix.lower() == ".md" else html_report(reports)
    try:
        write_atomically(path, text)
    except OSError as error:
        fail(f"{path}: {error.strerror}")
    typer.echo(f"report written to {path}", err=True)


def register(app: typer.Typer) -> None:
    app.command()(validate)
