"""``pdn convert``: write records in another notation, resolved through the rules engine."""

from __future__ import annotations

import sys
from collections import Counter
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_
from pdn.wording import number

from .common import (
    ExitCode,
    echo,
    fail,
    games_exit,
    input_size,
    progress_bar,
    spoken,
    write_out,
)
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JobsOption,
    JsonOption,
    NoForcedCaptureOption,
    OutputOption,
    PathsArgument,
    RulesOption,
    RunnerOption,
    SchedulerOption,
    UntaggedVariantOption,
    check_runner,
    output_path,
    variant_choice,
)
from .sources import SourceError, collect_sources, exit_if_no_sources

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.convert.sources import Job

NO_GAMES = N_("no games")
SEPARATORS = {"pdn": "\n\n", "text": "\n\n", "json": "\n", "fen": "\n\n"}


def convert(
    paths: PathsArgument,
    to: Annotated[str, typer.Option(
        "--to", help="full (c3-d4, c3:e5), short (Russian ed4, b:d6), numeric (22-17) or pdn "
        "(PDN 3.0 as the GameType prescribes).")] = "pdn",
    output: OutputOption = None,
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
    as_json: JsonOption = False,
    layout: Annotated[str, typer.Option(
        "--layout", help="For --format text: columns (1. c3-d4   f6-g5) or inline "
        "(1.ed4 dc5 2.fe3).")] = "columns",
    partial: Annotated[bool, typer.Option(
        "--partial", help="Convert a game with an illegal move up to the error and say so in "
        "a comment.")] = False,
    repair: Annotated[bool, typer.Option(
        "--repair", help="Mend a game that stops replaying where ONE best repair makes it "
        "replay to its end without cutting it short (noted in the game as {repaired: ...} "
        "and on stderr).")] = False,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    encoding: EncodingOption = None,
    jobs: JobsOption = 0,
    runner: RunnerOption = "local",
    scheduler: SchedulerOption = None,
) -> None:
    """Convert records to another notation; illegal games are reported, not converted.

    Games with lost moves are converted as far as they are known. --json is --format json.
    Exit status: 0 all converted, 1 some games not (fully) converted or unreadable, 2 usage
    error or a file that cannot be read.
    """
    from replay.convert.games import FORMATS, LAYOUTS, Target, TargetError
    from replay.run.output import OutputError, refuse_overwriting_inputs

    output_format = "json" if as_json else output_format
    if output_format not in FORMATS or layout not in LAYOUTS:
        fail(N_("--format must be one of {formats} and --layout one of {layouts}").format(
            formats=", ".join(FORMATS), layouts=", ".join(LAYOUTS)))
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    check_runner(runner, scheduler)
    target_file = output_path(output)
    try:
        target = Target(to, paths_style, capture_sep, numbering)
        if variant is not None:
            target.gametype(variant)
        sources = collect_sources(paths)
        if target_file is not None:
            refuse_overwriting_inputs(target_file, sources)
    except (TargetError, SourceError, OutputError) as error:
        fail(str(error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    from replay.convert.sources import VERDICTS, Job

    job = Job(choice, target, output_format, layout, partial, repair)
    counts, unreadable_files = _convert(sources, target_file, job, encoding,
                                        {"jobs": jobs, "engine": runner,
                                         "scheduler": scheduler})

    words = spoken()
    summary = ", ".join(_verdict(words, key, counts[key]).format(count=number(counts[key]))
                        for key in VERDICTS if counts[key])
    files = "; " + words.ngettext("{count} file could not be read",
                                  "{count} files could not be read", unreadable_files).format(
        count=number(unreadable_files)) if unreadable_files else ""
    typer.echo((summary or words.gettext(NO_GAMES)) + files, err=True)
    if unreadable_files:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(bool(counts["not converted"] + counts["partly converted"]
                                     + counts["unreadable"])))


def _verdict(words: Catalog, key: str, games: int) -> str:
    """The summary's count of the games of a verdict (``replay.convert.sources.VERDICTS``)
    in the language of ``words``: ``{count} converted``."""
    if key == "converted":
        return words.ngettext("{count} converted", "{count} converted", games)
    if key == "incomplete":
        return words.ngettext("{count} incomplete", "{count} incomplete", games)
    if key == "partly converted":
        return words.ngettext("{count} partly converted", "{count} partly converted", games)
    if key == "not converted":
        return words.ngettext("{count} not converted", "{count} not converted", games)
    return words.ngettext("{count} unreadable", "{count} unreadable", games)


def _convert(sources: list[str], output: Path | None, job: Job, encoding: str | None,
             run: dict) -> tuple[Counter[str], int]:
    """Convert and write every game; the number of games of each verdict, and of the files
    that could not be read."""
    from replay.convert.games import TargetError
    from replay.convert.sources import Unreadable, convert_sources, messages, verdict
    from replay.run.output import atomic_writer
    from replay.run.runner import EngineUnavailableError

    counts: Counter[str] = Counter()
    words = spoken()
    unreadable_files = 0
    context = atomic_writer(output) if output is not None else nullcontext(sys.stdout)
    with context as stream, progress_bar(N_("converting"), input_size(sources)) as progress:
        try:
            for item in convert_sources(sources, job, encoding=encoding, progress=progress,
                                        **run):
                if isinstance(item, Unreadable):
                    echo(words.localize(item.message), err=True, fg="red")
                    unreadable_files += 1
                    continue
                for line in messages(item, words):
                    echo(line, err=True)
                counts[verdict(item)] += 1
                if item.text is not None:  # escaped on a terminal only, as pdn cat does
                    write_out(item.text + SEPARATORS[job.output_format], stream)
        except (TargetError, EngineUnavailableError) as error:
            fail(str(error))  # --numbering does not fit a game's board, or no Dask
    return counts, unreadable_files


def register(app: typer.Typer) -> None:
    app.command()(convert)
