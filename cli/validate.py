"""``pdn validate``: replay records on the rules and say exactly what is wrong."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pdn.i18n import N_, Catalog
from pdn.wording import count, number
from replay.rules.choice import RulesChoice

from .common import (
    CANNOT_WRITE,
    ExitCode,
    StdoutLines,
    echo,
    fail,
    fail_io,
    games_exit,
    input_size,
    progress_bar,
)
from .notes import NoteSummary
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JobsOption,
    JsonOption,
    LangOption,
    NoForcedCaptureOption,
    PathsArgument,
    RulesOption,
    RunnerOption,
    SchedulerOption,
    UntaggedVariantOption,
    VerboseOption,
    check_runner,
    variant_choice,
    words_for,
)
from .sources import SourceError, collect_sources, exit_if_no_sources

if TYPE_CHECKING:
    from replay.validate.reports import Tally


def validate(
    paths: PathsArgument,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    as_json: JsonOption = False,
    jobs: JobsOption = 0,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Count warnings (notation slips, resolved ambiguities) as errors, "
        "and exit 1 for a result the final position contradicts.")]
    = False,
    warnings: Annotated[bool, typer.Option("--warnings", "-W", help="Print warnings too.")]
    = False,
    report: Annotated[Path | None, typer.Option(
        "--report", help="Write an arbiter's report (.html, .md, or .pdf printed by "
        "Chromium) with diagrams.")] = None,
    encoding: EncodingOption = None,
    suggest: Annotated[bool, typer.Option(
        "--suggest", help="Under each broken game, the slips that would mend it (a move "
        "missing, one too many, two exchanged, a letter or digit off).")] = False,
    runner: RunnerOption = "local",
    scheduler: SchedulerOption = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", help="With --json: have the workers write the reports as JSON-lines "
        "parts into a folder (DIR/, an existing folder, or a URL such as s3://bucket/prefix/).",
        show_default=False)] = None,
    verbose: VerboseOption = False,
    lang: LangOption = None,
) -> None:
    """Replay every game on the rules; report illegal, ambiguous and incomplete records.

    A kind of note repeated in a file (or a problem repeated in a game) is shown once with
    its count; --verbose shows each, --json lists them all.
    A recorded result that the final position contradicts (no pieces or no legal move left
    for the side the result names the winner) makes the game "contradicted", listed first;
    0-0 and a forfeit in the Termination tag are no result a position decides. A movetext
    result of another outcome than the Result tag (1-1 and 1/2:1/2 are one draw) is a
    warning shown without -W; the summary counts the other warnings by code.
    Exit status: 0 all games valid (or incomplete, or contradicted: the moves replay, and
    pdn clean --fix-results mends the result), 1 some invalid or unreadable, or under
    --strict some contradicted, 2 usage error or a file that cannot be read.
    """
    from replay.run.output import OutputError, check_outputs
    from replay.validate.reports import (
        RESULT_WARNING,
        Tally,
        suggestion_lines,
        validate_sources,
    )

    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    words = words_for(lang)
    check_runner(runner, scheduler)
    if report is not None:
        _check_report(report)
    if output is not None:
        _check_dataset_options(output, as_json, report)
    try:
        sources = collect_sources(paths)
        check_outputs({"--report": report}, sources)
    except (SourceError, OutputError) as error:
        fail(str(error))
    if output is None and report is None:
        exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    if output is not None:
        _write_dataset(sources, output, choice, jobs=jobs, encoding=encoding, suggest=suggest,
                       rules=choice.rules, strict=strict, engine=runner, scheduler=scheduler)
    started = time.perf_counter()
    tally = Tally()
    kept = []
    unreadable_files = 0
    out = StdoutLines(escape=not as_json)
    line = out.echo
    notes = NoteSummary(verbose=verbose, echo=line,
                        hint=N_("--verbose shows each, --json lists them all"), words=words)
    with progress_bar(N_("validating"), lambda: input_size(sources)) as progress, out:
        for item in _runner_checked(validate_sources(
                sources, choice.default, choice.override, jobs=jobs, encoding=encoding,
                suggest=suggest, rules=choice.rules, strict=strict, progress=progress,
                engine=runner, scheduler=scheduler, as_json=as_json and report is None)):
            if isinstance(item, str):
                line(words.localize(item), err=True, fg="red")
                unreadable_files += 1
                continue
            tally.count(item)
            if report is not None:
                kept.append(item)
            if as_json:
                line(item.json_line())
                continue
            if item.result_check == "inconsistent":
                line(f"{item.file or '<stdin>'}:{item.line}: {words.gettext(RESULT)}: "
                     f"{words.localize(item.title)}: "
                     f"result-contradicted — {words.localize(item.result_note)}")
            for problem in item.errors:
                _note(notes, item, problem, N_("error"), words)
            if suggest and item.status == "invalid":
                for text in suggestion_lines(item, words):
                    line(text)
            for problem in item.warnings:
                if warnings or strict or problem["code"] == RESULT_WARNING:
                    _note(notes, item, problem, N_("warning"), words)
            if warnings or strict:
                for problem in item.notes:
                    _note(notes, item, problem, N_("note"), words)
        notes.close()
    seconds = time.perf_counter() - started
    if report is not None:
        _write_report(report, kept, words)
    if not as_json:
        typer.echo(_summary(tally, seconds, warnings or strict, words), err=True)
    _exit(tally.statuses, unreadable_files, strict)




STATUSES = (N_("contradicted"), N_("valid"), N_("invalid"), N_("incomplete"),
            N_("unreadable"))
RESULT_CHECKS = (N_("consistent"), N_("inconsistent"), N_("undetermined"), N_("forfeit"))
RESULT, RESULTS, NONE = N_("result"), N_("results"), N_("none")
INFERRED = N_("; variants told from the records (no GameType tag): {told} (-W shows why)")


def _summary(tally: Tally, seconds: float, warnings_shown: bool = True,
             words: Catalog | None = None) -> str:
    """The closing line: games by status, moves checked and how fast, result checks,
    warnings by code (``warnings_shown``: printed above, else -W is named); in the language
    of ``words`` (English by default), the warning codes as they are."""
    from pdn.i18n import catalog

    words = words or catalog("en")
    say = words.gettext
    statuses, checks, moves = tally.statuses, tally.checks, tally.moves
    games = sum(statuses.values())
    rate = (say(N_(", {number} moves/s")).format(number=number(moves / seconds))
            if seconds > 0 and moves else "")
    summary = ", ".join(f"{number(statuses[s])} {say(s)}" for s in STATUSES if statuses[s])
    return (words.ngettext("{count} game", "{count} games", games).format(
                count=number(games))
            + f": {summary or say(NONE)}; "
            + words.ngettext("{count} move checked in {seconds} s",
                             "{count} moves checked in {seconds} s", moves).format(
                count=number(moves), seconds=f"{seconds:.2f}")
            + f"{rate}; {say(RESULTS)}: "
            + ", ".join(f"{number(n)} {say(c)}" for c, n in sorted(checks.items()))
            + _warnings_summary(tally.warnings, warnings_shown, words)
            + _inferred_summary(tally.inferred, words))


def _warnings_summary(warnings: Counter[str], shown: bool,
                      words: Catalog | None = None) -> str:
    """``; 3 warnings: 1 result, 2 notation (-W shows them)``: warnings about the result
    (printed without -W too) first, then the codes by count; nothing where there is none.

    >>> from collections import Counter
    >>> _warnings_summary(Counter({"notation": 2, "result": 1}), False)
    '; 3 warnings: 1 result, 2 notation (-W shows them)'
    """
    from pdn.i18n import catalog
    from replay.validate.reports import RESULT_WARNING

    if not warnings:
        return ""
    words = words or catalog("en")
    codes = sorted(warnings.items(), key=lambda item: (item[0] != RESULT_WARNING, -item[1],
                                                       item[0]))
    hint = "" if shown else words.gettext(N_(" (-W shows them)"))
    total = sum(warnings.values())
    return ("; " + words.ngettext("{count} warning", "{count} warnings", total)
            .format(count=number(total)) + ": "
            + ", ".join(f"{number(n)} {code}" for code, n in codes) + hint)


def _note(notes: NoteSummary, item: Any, problem: dict, label: str,
          words: Catalog | None = None) -> None:
    """A problem of a game: a note about the whole game is summed up per file, an error or
    warning per game."""
    from replay.validate.reports import problem_line

    notes.add(problem_line(item, problem, label, words), file=item.file, kind=problem["code"],
              game=None if label == "note" else item.game, label=label)


def _exit(statuses: Counter[str], unreadable_files: int, strict: bool) -> None:
    """2 for a file that cannot be read; 1 for a game that does not replay, and under
    ``--strict`` for a result its final position contradicts too; else 0."""
    if unreadable_files:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(bool(statuses["invalid"] or statuses["unreadable"]
                                     or (strict and statuses["contradicted"]))))


def _check_dataset_options(output: str, as_json: bool, report: Path | None) -> None:
    from replay.run.dataset import is_dataset_target

    if not as_json:
        fail("-o writes the reports as JSON lines: add --json")
    if report is not None:
        fail("--report needs every report in this process: leave out -o")
    if not is_dataset_target(output):
        fail(f"-o {output}: give a folder for the workers' parts (end it with /)")


def _write_dataset(sources: list[str], output: str, choice: RulesChoice, **run: Any) -> None:
    """The workers write the reports into ``output``; the summary goes to stderr."""
    from replay.run.dataset import DatasetError
    from replay.run.runner import EngineUnavailableError
    from replay.validate.dataset import validate_to_dataset

    started = time.perf_counter()
    try:
        with progress_bar(N_("validating"), lambda: input_size(sources)) as progress:
            written = validate_to_dataset(sources, output, choice.default, choice.override,
                                          progress=progress, **run)
    except (EngineUnavailableError, DatasetError) as error:
        fail(str(error))
    except ImportError as error:  # an fsspec URL whose filesystem package is missing
        fail(f"{output}: {error}")
    except OSError as error:
        fail_io(error, output, CANNOT_WRITE)
    for message in written.unreadable:
        echo(message, err=True, fg="red")
    tally = written.tally
    typer.echo(_summary(tally, time.perf_counter() - started)
               + f"; {count(tally.rows, 'report')} written to the dataset {output}", err=True)
    _exit(tally.statuses, len(written.unreadable), run["strict"])


def _runner_checked(items: Iterator) -> Iterator:
    """The reports, or a clear error when the runner asked for is not installed."""
    from replay.run.runner import EngineUnavailableError

    try:
        yield from items
    except EngineUnavailableError as error:
        fail(str(error))


def _inferred_summary(inferred: Counter[str], words: Catalog | None = None) -> str:
    from pdn.i18n import catalog

    if not inferred:
        return ""
    words = words or catalog("en")
    told = ", ".join(f"{number(games)} {words.localize(name)}"
                     for name, games in inferred.most_common())
    return words.gettext(INFERRED).format(told=told)


def _check_report(path: Path) -> None:
    """A report's file name must say its form; a PDF needs a browser to print it."""
    suffix = path.suffix.lower()
    if suffix not in (".html", ".htm", ".md", ".pdf"):
        fail(N_("--report must end in .html, .md or .pdf, not '{suffix}'").format(
            suffix=path.suffix))
    if suffix == ".pdf":
        from replay.validate.report_pdf import find_browser

        if find_browser() is None:
            fail("--report FILE.pdf needs Chromium (or Chrome) to print the report: install "
                 "it, or write .html and print that from a browser")


def _write_report(path: Path, reports: list, words: Catalog) -> None:
    from replay.run.output import write_atomically
    from replay.validate.report import html_report, markdown_report
    from replay.validate.report_pdf import PdfError, write_pdf

    suffix = path.suffix.lower()
    try:
        if suffix == ".md":
            write_atomically(path, markdown_report(reports, words))
        elif suffix == ".pdf":
            write_pdf(html_report(reports, words), path)
        else:
            write_atomically(path, html_report(reports, words))
    except PdfError as error:
        fail(str(error))
    except OSError as error:
        fail_io(error, str(path), CANNOT_WRITE)
    typer.echo(f"report written to {path}", err=True)


def register(app: typer.Typer) -> None:
    app.command()(validate)
