"""``pdn filter``, ``dedupe``, ``split``, ``merge`` and ``clean``: archive tools.

Each command parses its options and calls ``replay.archive.run``; outputs are written
atomically and never over an input; notes and the summary go to stderr, with a progress bar
when stderr is a terminal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_
from pdn.wording import number
from replay.rules.choice import RulesChoice
from replay.rules.variants import Variant

from .common import fail, fail_io, games_exit, input_size, progress_bar, spoken, stderr_console
from .criteria import check_board_criteria, game_criteria
from .options import (
    BlackOption,
    DateFromOption,
    DateToOption,
    EncodingOption,
    GameVariantOption,
    IgnoreGameTypeOption,
    JobsOption,
    MaterialAnyPlyOption,
    MaterialOption,
    MovesOption,
    NoForcedCaptureOption,
    OutputOption,
    PathsArgument,
    PlayerOption,
    PositionOption,
    RulesOption,
    RunnerOption,
    SchedulerOption,
    TagOption,
    UntaggedVariantOption,
    WhiteOption,
    check_runner,
    parse_variant,
    variant_choice,
)
from .sources import SourceError, collect_sources, exit_if_no_sources

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.archive.run import Settings, Summary

RejectsOption = Annotated[Path | None, typer.Option(
    help="Write games the reader gives up on here instead of to the output (a game over "
    "the size limit, 16 Mi characters, is named and left out: its text is not held).")]
OldDefaultVariantOption = Annotated[Variant | None, typer.Option(
    "--default-variant", parser=parse_variant, metavar="VARIANT", hidden=True,
    help="The old name of --variant.")]


class Console:
    """Notes to stderr, through the progress bar's console while one is shown."""

    def __init__(self) -> None:
        self.rich = stderr_console()

    def note(self, message: str) -> None:
        """A note made in English, said in the user's language (``spoken``) where the
        catalog has all of it."""
        from rich.markup import escape

        self.rich.print(escape(spoken().wholly(message)), emoji=False)  # "tinsley.pdn:100:"

    def progress(self, sources: list[str], label: str = N_("reading")):
        """A progress bar over the input's size (its callback is None off a terminal),
        ``label`` a catalog entry shown in the user's language."""
        return progress_bar(label, input_size(sources), self.rich)


def _sources(paths: list[str], outputs: dict[str, str | Path | None]) -> list[str]:
    """The input files; a usage error when an output (by option) is one of them, a folder,
    or the same file as another output."""
    from replay.run.output import OutputError, check_outputs

    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    try:
        check_outputs(outputs, sources)
    except OutputError as error:
        fail(str(error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    return sources


def _opened(path: str | Path | None, stack: ExitStack) -> IO[str] | None:
    """A stream on an output (stdout for -), replacing the file only if the command ends
    well."""
    from replay.run.output import atomic_writer

    if path is None:
        return None
    if str(path) == "-":
        return sys.stdout
    return stack.enter_context(atomic_writer(path))


def _settings(choice: RulesChoice, jobs: int, encoding: str | None,
              progress: Callable[[int], None] | None) -> Settings:
    from replay.archive.run import Settings

    return Settings(choice, jobs, encoding, progress)


def _run(action: Callable[[], Summary]) -> Summary:
    """Run a command's work; an unreadable input (or encoding) exits with status 2."""
    from replay.run.output import OutputError

    try:
        return action()
    except OutputError as error:
        fail(str(error))
    except OSError as error:
        fail_io(error, '<stdin>')
    except ImportError as error:  # the dask runner without Dask
        fail(str(error))


WRITTEN = N_("{count} written")


def _games(words: Catalog, games: int) -> str:
    """``3 games`` in the language of ``words``."""
    return words.ngettext("{count} game", "{count} games", games).format(count=number(games))


def _finish(console: Console, message: str, summary: Summary, rejects: Path | None = None
            ) -> None:
    """Print the summary (``message`` already in the user's language) and exit: 1 when some
    games were unreadable (the reader gave up on them, and they were passed through
    unchanged, to the output or to --rejects, or left out of a selection)."""
    from rich.markup import escape

    words = spoken()
    if summary.unreadable:
        passed = summary.unreadable - summary.left_out - summary.unselected
        if passed and rejects is not None:
            message += "; " + words.ngettext(
                "{count} unreadable game passed through unchanged to --rejects {file}",
                "{count} unreadable games passed through unchanged to --rejects {file}",
                passed).format(count=number(passed), file=rejects)
        elif passed:
            message += "; " + words.ngettext(
                "{count} unreadable game passed through unchanged to the output",
                "{count} unreadable games passed through unchanged to the output",
                passed).format(count=number(passed))
        if summary.unselected:
            message += "; " + words.ngettext(
                "{count} unreadable game left out of the selection (each named above; "
                "--rejects FILE keeps them)",
                "{count} unreadable games left out of the selection (each named above; "
                "--rejects FILE keeps them)", summary.unselected).format(
                    count=number(summary.unselected))
        if summary.left_out:
            message += "; " + words.ngettext(
                "{count} game too large to read left out (each named above)",
                "{count} games too large to read left out (each named above)",
                summary.left_out).format(count=number(summary.left_out))
    console.rich.print(escape(message))
    raise typer.Exit(games_exit(bool(summary.unreadable)))


# ---- filter --------------------------------------------------------------------------------


def _selected_variants(selected: Variant | None, choice: RulesChoice) -> list[Variant]:
    """The variants the games may be in; a usage error when --game-variant selects a
    variant --ignore-gametype rules out."""
    from replay.record.criteria import game_variants

    if selected is not None and choice.override is not None \
            and selected.name != choice.override.name:
        fail(f"--game-variant {selected.name} selects no game: --ignore-gametype makes every "
             f"game {choice.override.name}")
    return game_variants(selected, choice.override, choice.default, choice.rules)


def filter_command(
    paths: PathsArgument,
    output: OutputOption = None,
    tag: TagOption = None,
    player: PlayerOption = None,
    white: WhiteOption = None,
    black: BlackOption = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    game_variant: GameVariantOption = None,
    result: Annotated[list[str] | None, typer.Option(
        help="Who won: white, black, draw; or a result (1-0, 0-1, 1/2-1/2, 2-0...) read in "
        "each game's variant (in English 1-0 is Black's win, as OCA writes it).")] = None,
    min_plies: Annotated[int | None, typer.Option(min=0, help="At least this many plies.")]
    = None,
    max_plies: Annotated[int | None, typer.Option(min=0, help="At most this many plies.")]
    = None,
    status: Annotated[list[str] | None, typer.Option(
        help="valid, invalid or incomplete, as pdn validate says.")] = None,
    moves: MovesOption = None,
    position: PositionOption = None,
    material: MaterialOption = None,
    material_any_ply: MaterialAnyPlyOption = False,
    invert: Annotated[bool, typer.Option("--invert", help="Keep the games that do not match."
                                         )] = False,
    variant: UntaggedVariantOption = None,
    default_variant: OldDefaultVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    rejects: RejectsOption = None,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
) -> None:
    """Keep the games that match every criterion; cheap tag tests first, then the board.

    A game the reader gave up on cannot be told to match: it goes to --rejects, else it is
    left out and named (unless its tags alone rule it out). Exit status: 0 done; 1 games
    the reader gave up on; 2 usage error or unreadable input."""
    from replay.archive.run import filter_games

    choice = variant_choice(variant or default_variant, ignore_gametype, rule,
                            no_forced_capture)
    criteria = game_criteria(tag, player, white, black, date_from, date_to, game_variant, result,
                         min_plies, max_plies, status, moves, position, material,
                         material_any_ply)
    check_board_criteria(criteria, _selected_variants(game_variant, choice))
    sources = _sources(paths, {"-o": output, "--rejects": rejects})
    console = Console()
    with ExitStack() as stack, console.progress(sources, N_("filtering")) as progress:
        out, bad = _opened(output or "-", stack), _opened(rejects, stack)
        summary = _run(lambda: filter_games(
            sources, out, criteria, _settings(choice, jobs, encoding, progress),
            invert=invert, rejects=bad, note=console.note))
    words = spoken()
    _finish(console, words.ngettext("{matched} of {count} game matched; {written} written",
                                    "{matched} of {count} games matched; {written} written",
                                    summary.games).format(
        matched=number(summary.matched), count=number(summary.games),
        written=number(summary.written)), summary, rejects)


# ---- dedupe, merge, split, clean -----------------------------------------------------------


def dedupe(
    paths: PathsArgument,
    output: OutputOption = None,
    report: Annotated[Path | None, typer.Option(
        help="CSV file: one row per copy of every group of duplicates, then the different "
        "games that played the same moves.")] = None,
    by: Annotated[str, typer.Option(
        help="What must agree besides the moves: game (everything the records state: "
        "players, date, round, game number, result, site), moves, moves+players, "
        "moves+players+date. A fact one record leaves out agrees; records naming "
        "different rounds or games never do.")] = "game",
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    rejects: RejectsOption = None,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
    runner: RunnerOption = "local",
    scheduler: SchedulerOption = None,
) -> None:
    """Remove duplicate games (the same game recorded twice: the same moves, compared as
    positions, and nothing both records state of the game differs), keeping the most
    complete copy of each.

    Exit status: 0 done; 1 games the reader gave up on (passed through); 2 usage error or
    unreadable input."""
    from replay.archive.dedupe import BY_CHOICES
    from replay.archive.duplicates import dedupe_games

    if by not in BY_CHOICES:
        fail(N_("--by '{value}': use one of {choices}").format(value=by,
                                                                 choices=", ".join(BY_CHOICES)))
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    check_runner(runner, scheduler)
    sources = _sources(paths, {"-o": output, "--rejects": rejects, "--report": report})
    console = Console()
    with ExitStack() as stack, console.progress(sources, N_("deduplicating")) as progress:
        out, bad = _opened(output or "-", stack), _opened(rejects, stack)
        settings = _settings(choice, jobs, encoding, progress)
        settings.engine, settings.scheduler = runner, scheduler
        summary = _run(lambda: dedupe_games(sources, out, settings, by=by, report=report,
                                            rejects=bad, note=console.note))
    words = spoken()
    alike = "; " + words.ngettext(
        "{count} line of moves played by different games, all kept",
        "{count} lines of moves played by different games, all kept", summary.alike).format(
            count=number(summary.alike)) if summary.alike else ""
    _finish(console, _games(words, summary.games) + ": " + words.ngettext(
        "{count} group of duplicates", "{count} groups of duplicates", summary.groups).format(
            count=number(summary.groups)) + ", " + words.ngettext(
        "{count} copy removed", "{count} copies removed", summary.removed).format(
            count=number(summary.removed)) + ", " + words.gettext(WRITTEN).format(
        count=number(summary.written)) + alike, summary, rejects)


def merge(
    paths: PathsArgument,
    output: OutputOption = None,
    rejects: RejectsOption = None,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
) -> None:
    """Write the games of every input, in order, into one file, each as written (text
    between games kept); pdn cat writes them as canonical PDN 3.0.

    Exit status: 0 done; 1 games the reader gave up on (passed through); 2 usage error or
    unreadable input."""
    from replay.archive.run import merge_games
    from replay.rules.variants import RUSSIAN

    sources = _sources(paths, {"-o": output, "--rejects": rejects})
    console = Console()
    with ExitStack() as stack, console.progress(sources, N_("merging")) as progress:
        out, bad = _opened(output or "-", stack), _opened(rejects, stack)
        summary = _run(lambda: merge_games(
            sources, out, _settings(RulesChoice(RUSSIAN), jobs, encoding, progress),
            rejects=bad, note=console.note))
    _finish(console, spoken().ngettext("{count} game written", "{count} games written",
                                       summary.written).format(count=number(summary.written)),
            summary, rejects)


def split(
    path: Annotated[str, typer.Argument(help="A PDN file, a directory or - for stdin.",
                                        show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output directory.",
                                         show_default=False)],
    by: Annotated[str, typer.Option(help="event, variant, year, player or count:N.")]
    = "event",
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    rejects: RejectsOption = None,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
) -> None:
    """Split games into one file per event, variant, year, player or N games.

    Exit status: 0 done; 1 games the reader gave up on (passed through); 2 usage error or
    unreadable input."""
    from replay.archive.run import parse_split, split_games

    try:
        parse_split(by)
    except ValueError as error:
        fail(str(error))
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    if output.exists() and not output.is_dir():
        fail(f"-o {output}: not a folder (split writes a file per group into a folder)")
    sources = _sources([path], {"--rejects": rejects})
    console = Console()
    with ExitStack() as stack, console.progress(sources, N_("splitting")) as progress:
        bad = _opened(rejects, stack)
        summary = _run(lambda: split_games(
            sources, output, by, _settings(choice, jobs, encoding, progress),
            rejects=bad, note=console.note))
    words, files = spoken(), len(summary.files)
    _finish(console, _games(words, summary.games) + " " + words.ngettext(
        "into {count} file in {folder}", "into {count} files in {folder}", files).format(
            count=number(files), folder=output), summary, rejects)


def clean(
    paths: PathsArgument,
    output: OutputOption = None,
    strip: Annotated[str | None, typer.Option(
        help="Remove these, comma-separated: comments, nags, variations.")] = None,
    changes: Annotated[Path | None, typer.Option(
        help="Write the list of changes here instead of to stderr.")] = None,
    notation: Annotated[str | None, typer.Option(
        help="Rewrite the moves through pdn convert: full, short, numeric or pdn.")] = None,
    repair: Annotated[bool, typer.Option(
        "--repair", help="Mend a game that stops replaying where ONE best repair makes it "
        "replay to its end without cutting it short; the repair is noted in the game as "
        "{repaired: ...}.")] = False,
    fix_results: Annotated[bool, typer.Option(
        "--fix-results", help="Where the moves end in a position the rules decide (the side "
        "to move has no piece or no legal move, by the variant's own win rule), write that "
        "result in the Result tag and the movetext; each change is reported.")] = False,
    variant: UntaggedVariantOption = None,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    rejects: RejectsOption = None,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
) -> None:
    """Normalise dates, player names, results and GameType, drop text between games,
    optionally strip annotations or write the results the rules decide; report every
    change.

    Exit status: 0 done; 1 games the reader gave up on (passed through); 2 usage error or
    unreadable input."""
    from replay.archive.clean import STRIP_CHOICES, CleanOptions, Rewrite
    from replay.archive.run import clean_games
    from replay.convert.games import TARGETS

    kinds = frozenset(part.strip() for part in (strip or "").split(",") if part.strip())
    if kinds - set(STRIP_CHOICES):
        fail(N_("--strip: use {choices}, not {value}").format(
            choices=", ".join(STRIP_CHOICES), value=", ".join(sorted(kinds))))
    if notation is not None and notation not in TARGETS:
        fail(N_("--notation: use {choices}, not '{value}'").format(choices=", ".join(TARGETS),
                                                                    value=notation))
    choice = variant_choice(variant, False, rule, no_forced_capture)
    sources = _sources(paths, {"-o": output, "--rejects": rejects, "--changes": changes})
    console = Console()
    with ExitStack() as stack, console.progress(sources, N_("cleaning")) as progress:
        out, bad = _opened(output or "-", stack), _opened(rejects, stack)
        log = _opened(changes, stack)
        summary = _run(lambda: clean_games(
            sources, out, _settings(choice, jobs, encoding, progress),
            CleanOptions(kinds, Rewrite(notation) if notation else None, repair, fix_results),
            rejects=bad,
            note=console.note,
            changes=(lambda line: log.write(spoken().wholly(line) + "\n"))
            if log is not None else None))
    words = spoken()
    _finish(console, _games(words, summary.games) + ": " + words.ngettext(
        "{count} change", "{count} changes", summary.changes).format(
            count=number(summary.changes)) + " " + words.ngettext(
        "in {count} game", "in {count} games", summary.changed).format(
            count=number(summary.changed)) + ", " + words.gettext(WRITTEN).format(
        count=number(summary.written)), summary, rejects)


def register(app: typer.Typer) -> None:
    app.command("filter")(filter_command)
    for command in (dedupe, split, merge, clean):
        app.command()(command)

