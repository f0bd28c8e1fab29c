"""``pdn analyse``: annotate games with a Hub engine (evaluations, mistakes, blunders, better
moves) and tabulate each game's and each player's accuracy."""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, TextIO

import typer

from pdn.i18n import N_

from .common import (
    CANNOT_WRITE,
    ExitCode,
    fail,
    for_people,
    progress_bar,
    spoken,
    stderr_console,
)
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JsonOption,
    LangOption,
    NoForcedCaptureOption,
    PathsArgument,
    RulesOption,
    UntaggedVariantOption,
    check_engine,
    variant_choice,
    words_for,
)
from .signals import TERMINATED
from .sources import SourceError, collect_sources, exit_if_no_sources

DEFAULT_DEPTH = 12  # Scan 2.0 reports its evaluation from depth 12 on


def analyse(
    paths: PathsArgument,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE",
        help="Write the annotated games here, each as soon as it is done; games already in "
        "FILE (a stopped run) are skipped. - or nothing: stdout.", show_default=False)] = None,
    engine: Annotated[str, typer.Option(
        "--engine", metavar="NAME",
        help="builtin: the toolkit's own engine (every variant but Canadian; "
        "docs/engines.md); hub: the one of --engine-cmd (given --engine-cmd, the default)."
        )] = "builtin",
    engine_cmd: Annotated[str | None, typer.Option(
        "--engine-cmd", metavar="COMMAND",
        help='An external Hub engine to run instead, e.g. "dame hub" or "./scan hub" (first '
        "or second Hub protocol, told at start-up).", show_default=False)] = None,
    engine_dir: Annotated[Path | None, typer.Option(
        "--engine-dir", metavar="DIR",
        help="The engine's working folder (Scan reads scan.ini and data/ there).")] = None,
    engine_option: Annotated[list[str] | None, typer.Option(
        "--engine-option", metavar="NAME=VALUE",
        help="An engine parameter set before init (set-param; Scan 2.0: its scan.ini "
        "names, e.g. tt-size=20); repeatable.")] = None,
    depth: Annotated[int | None, typer.Option(
        min=1, help=f"Search every position to this depth (default {DEFAULT_DEPTH} without "
        "--movetime).")] = None,
    movetime: Annotated[float | None, typer.Option(
        min=0.001, metavar="SECONDS", help="Search every position this long instead.")] = None,
    mistake: Annotated[float, typer.Option(
        min=0.0, metavar="MEN",
        help="A move whose evaluation drop (mover's view, in men) reaches this is a "
        "mistake, marked ? ($2), when it is not the engine's move.")] = 0.5,
    blunder: Annotated[float, typer.Option(
        min=0.0, metavar="MEN", help="... and this, a blunder, marked ?? ($4).")] = 1.0,
    cap: Annotated[float, typer.Option(
        min=0.1, metavar="MEN",
        help="Evaluations are clamped to ±this before drops are measured (a win counts as "
        "the cap).")] = 5.0,
    variation_plies: Annotated[int, typer.Option(
        min=1, metavar="N", help="Plies of the engine's line added after a mistake.")] = 10,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", min=1, metavar="N", help="Engine processes, each on its own games.")]
    = 1,
    timeout: Annotated[float, typer.Option(
        min=0.1, metavar="SECONDS", help="How long the engine may take to start, and each "
        "search: --movetime and this more, under --depth this in all.")] = 60.0,
    json_rows: JsonOption = False,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    encoding: EncodingOption = None,
    lang: LangOption = None,
) -> None:
    """Annotate games with an engine: [%eval] after every move, ? and ?? with the better move.

    The engine is the built-in one unless --engine-cmd names an external Hub engine; it is
    started for each game's own variant, the one pdn validate reads it as.

    Every main-line position is searched to --depth (or for --movetime); the evaluation is
    written after each move as lidraughts writes it ([%eval 0.35], men from White's side;
    [%eval #-3]). A move that drops the mover's evaluation by --mistake men (default 0.5) is
    marked ?, by --blunder men (default 1.0) ??, and the engine's move follows as a
    variation. Then a table per game and per player (accuracy after lichess, mistakes,
    blunders); --json prints a row per ply instead. Exit status: 0 all analysed, 1 some games
    not (wholly) analysed, 2 usage error or an engine that does not start.
    """
    from rich.markup import escape

    from replay.engine.annotate import Thresholds, analysed_games, annotate_games
    from replay.engine.hub import popen_hub
    from replay.engine.limits import Limit
    from replay.engine.server import builtin_command

    words = words_for(lang)
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    check_engine(engine, engine_cmd, ("builtin", "hub"))
    command: str | list[str] = engine_cmd if engine_cmd is not None else builtin_command()
    if depth is not None and movetime is not None:
        fail(N_("give --depth or --movetime, not both"))
    if json_rows and output in (None, "-"):
        fail(N_("--json writes the rows on stdout: give the annotated games a file with -o"))
    if blunder < mistake:
        fail(N_("--blunder ({blunder}) must be at least --mistake ({mistake})").format(
            blunder=f"{blunder:g}", mistake=f"{mistake:g}"))
    limit = Limit(movetime=movetime) if movetime is not None else Limit(
        depth=depth or DEFAULT_DEPTH)
    options = _engine_options(engine_option)
    out = None if output in (None, "-") else Path(output)
    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    stream = sys.stdout if out is None else _open_output(out, sources)
    thresholds = Thresholds(mistake, blunder, cap)
    console = stderr_console()
    inputs = contextlib.ExitStack()
    try:
        done = analysed_games(out) if out is not None and out.is_file() else {}
        readable = _read_twice(sources, inputs)
        survey = _survey(_games(sources, readable, encoding), done, thresholds, choice,
                         console)
    except OSError as error:
        inputs.close()
        fail(f"{error.filename or ', '.join(paths)}: {error.strerror or error}")
    if survey.skipped:
        console.print(escape(words.ngettext(
            "{skipped} of {count} game is in {file} already: skipped",
            "{skipped} of {count} games are in {file} already: skipped", survey.games).format(
                skipped=survey.skipped, count=survey.games, file=for_people(str(out)))))

    def start(variant_name: str):
        return popen_hub(command, cwd=engine_dir, timeout=timeout, options=options,
                         variant=variant_name)

    wanted = [reading.variant.name for reading in survey.readings] or ["international"]
    name = _tried_engine(start, list(dict.fromkeys(wanted)), limit, command)
    from replay.engine.annotate import limit_text

    annotator = f"{name}, {limit_text(limit)}"
    numbers, rows_by_game, unreadable = survey.numbers, survey.rows, survey.unreadable
    failed = len(unreadable)
    before = _stop_on_sigterm()
    try:
        from pdn.writer import write_game

        # advanced per position searched, not per game: a long game moves the bar too
        todo = _games_numbered(_games(sources, readable, encoding), set(numbers))
        with progress_bar(N_("analysing"), survey.positions, console) as advance:
            for outcome in annotate_games(
                    todo, start, limit, thresholds, jobs=jobs, progress=advance,
                    readings=survey.readings,
                    variation_plies=variation_plies, default=choice.default,
                    override=choice.override, rules=choice.rules, annotator=annotator):
                where = escape(survey.places[outcome.index])
                if outcome.analysis is None:
                    failed += 1
                    label = escape(words.gettext(N_("error")))
                    console.print(f"[red]{label}:[/red] {where}: "
                                  + escape(for_people(words.localize(outcome.error or ""))))
                else:
                    if outcome.analysis.problem:
                        failed += 1
                        console.print(escape(words.gettext(N_("note"))) + f": {where}: "
                                      + escape(for_people(words.localize(
                                          outcome.analysis.problem))))
                    stream.write(write_game(outcome.analysis.game) + "\n\n")
                    stream.flush()
                    number = numbers[outcome.index]
                    rows_by_game[number] = [replace(row, game=number)
                                            for row in outcome.analysis.rows]
    except KeyboardInterrupt as stop:
        console.print(words.gettext(N_("stopped: run the same command again to go on where "
                                       "it stopped")))
        raise typer.Exit(TERMINATED if isinstance(stop, _Terminated) else 130) from None
    except OSError as error:  # the output: a full or read-only disk, /dev/full
        fail(CANNOT_WRITE.format(file=out, reason=error.strerror or error))
    finally:
        inputs.close()
        if stream is not sys.stdout:
            with contextlib.suppress(OSError):  # a write that failed is reported already
                stream.close()
        _restore_sigterm(before)
    rows = [row for number in sorted(rows_by_game) for row in rows_by_game[number]]
    _report(rows, json_rows, stdout_free=out is not None, words=words)
    raise typer.Exit(ExitCode.SOME_GAMES if failed else ExitCode.OK)


@dataclass
class _Survey:
    """What a first reading of the input tells, kept instead of its games (a game per
    line of 58 characters took about 5 KB read; 200,000 of them, a gigabyte): the games to
    analyse (their numbers, places and readings), the rows of those a stopped run did, the
    unreadable ones, and the positions to search."""

    games: int = 0
    numbers: list[int] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    readings: list = field(default_factory=list)
    positions: int = 0
    skipped: int = 0
    unreadable: set[int] = field(default_factory=set)
    rows: dict[int, list] = field(default_factory=dict)


def _survey(games, done: dict, thresholds, choice, console) -> _Survey:
    """Read every game once: report the unreadable ones (never analysed into an empty game),
    take back the rows of those in ``done``, and note the others with their reading (each
    game is analysed on its own variant, the one pdn validate reads it as)."""
    from rich.markup import escape

    from pdn.errors import unreadable_reason
    from replay.engine.annotate import game_key, positions_of, rows_of_annotated
    from replay.engine.readings import read_games_as_validate

    survey = _Survey()
    for number, (game, reading) in enumerate(read_games_as_validate(
            games, choice.default, choice.override, rules=choice.rules), 1):
        survey.games = number
        reason = unreadable_reason(game)
        if reason is not None:
            survey.unreadable.add(number)
            words = spoken()
            console.print("[red]" + escape(words.gettext(N_("error"))) + ":[/red] " + escape(
                words.localize(N_("{place}: cannot be read, not analysed: {reason}").format(
                    place=_place(game), reason=reason))))
        key = game_key(game)
        if key in done:
            survey.skipped += 1
            survey.rows[number] = rows_of_annotated(done[key], number, thresholds)
        elif reason is None:
            survey.numbers.append(number)
            survey.places.append(_place(game))
            survey.readings.append(reading)
            survey.positions += positions_of(game)
    return survey


def _read_twice(sources: list[str], stack: contextlib.ExitStack) -> dict[str, object]:
    """What to read each source from, twice (the survey, then the analysis): its path, or,
    for standard input, a temporary copy of it (removed when ``stack`` closes)."""
    import shutil
    import tempfile

    from .sources import readable

    found: dict[str, object] = {}
    for source in sources:
        if source == "-" and source not in found:
            copy = Path(stack.enter_context(tempfile.TemporaryDirectory(
                prefix="pdn-analyse-"))) / "stdin.pdn"
            with open(copy, "wb") as written:
                shutil.copyfileobj(sys.stdin.buffer, written)
            found[source] = copy
        else:
            found.setdefault(source, readable(source))
    return found


def _games(sources: list[str], readable: dict[str, object], encoding: str | None):
    """The games of every source in order, each named by its source (``Game.source``), as
    ``cli.sources.read_inputs`` reads them, standard input from its copy."""
    from pdn.reader import read_games

    from .sources import shown_name

    for source in sources:
        for game in read_games(readable[source], encoding=encoding):
            game.source = shown_name(source)
            yield game


def _games_numbered(games, numbers: set[int]):
    """The games whose 1-based number is in ``numbers``, in order."""
    return (game for number, game in enumerate(games, 1) if number in numbers)


def _place(game) -> str:
    """``FILE: game N``, the file's name fit for stderr (``cli.common.for_people``)."""
    return for_people(f"{game.source}: "
                      + spoken().gettext(N_("game {number}")).format(number=game.index))


def _tried_engine(start, variants: list[str], limit, command) -> str:
    """The engine's name, once it has started for the first of ``variants`` (the run's, in
    the order of their first game) it plays and searched that variant's start position, so
    that a wrong command or a depth too low is a usage error. A variant it does not play is
    no error (its games are each refused in the run); one that plays none is named by its
    command."""
    import shlex

    from replay.engine.limits import EngineError, VariantRefused
    from replay.record.board import Board

    for variant in variants:
        try:
            with start(variant) as engine:
                if limit.depth is not None and engine.analyse(Board(variant=variant),
                                                              limit).score is None:
                    fail(N_("engine {name} gives no evaluation at depth {depth} (Scan 2.0 "
                            "reports one from depth 12 on): use a greater --depth").format(
                                name=engine.name, depth=limit.depth))
                return engine.name
        except VariantRefused:
            continue
        except EngineError as error:
            fail(str(error))
    return command if isinstance(command, str) else shlex.join(command)


class _Terminated(KeyboardInterrupt):
    """A SIGTERM, stopping the run as Ctrl-C does but ending with its own status (143)."""


def _open_output(out: Path, sources: list[str]) -> TextIO:
    """The output, by the rule every command's outputs follow (``replay.run.output``), save
    that games are appended to a regular file as they are done (a stopped run goes on where
    it stopped): refused when it is an input (also through a hard link), a folder, or being
    written by another run of analyse (a lock on it); a device or FIFO is written in
    place, and a FIFO that no program reads is refused at once. Any failure is a usage
    error (exit 2) naming the output."""
    from replay.run.output import (
        OutputError,
        WriteError,
        check_outputs,
        in_place_writer,
        output_target,
    )

    try:
        check_outputs({"-o": out}, sources)
        target = output_target(out)
        if target.in_place:  # a FIFO no program reads is refused, never waited on
            stream = in_place_writer(target, out)
        else:
            target.path.parent.mkdir(parents=True, exist_ok=True)
            stream = open(target.path, "a", encoding="utf-8")  # noqa: SIM115 - closed by the run
    except (OutputError, WriteError) as error:
        fail(str(error))
    except OSError as error:
        fail(CANNOT_WRITE.format(file=out, reason=error.strerror or error))
    try:
        import fcntl
    except ImportError:  # not on POSIX: no lock
        return stream
    if not target.in_place:
        try:
            fcntl.flock(stream, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            stream.close()
            fail(N_("{file}: another run of pdn analyse is writing it: wait for it to end")
                 .format(file=out))
    return stream


def _stop_on_sigterm() -> object:
    """A SIGTERM (``kill``, ``timeout``) stops the run as Ctrl-C does: the engines are closed
    and the games done so far stay written; the exit status is 143, as for every command
    (``cli.signals``), and a second SIGTERM while the engines close kills at once. Returns
    the handler it replaced (``_restore_sigterm``: the table at the end is written under
    the command's own, which exits 143 too)."""
    import signal
    import threading

    def interrupt(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        raise _Terminated

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, interrupt)


def _restore_sigterm(handler: object) -> None:
    import signal

    if handler is not None and signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        signal.signal(signal.SIGTERM, handler)  # type: ignore[arg-type]


def _engine_options(pairs: list[str] | None) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise typer.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--engine-option")
        options[name.strip()] = value.strip()
    return options


# The tables' columns as a terminal heads them, in the user's language (piped, the
# tab-separated rows keep the column names: data).
HEADINGS = {"game": N_("game"), "white": N_("White"), "black": N_("Black"),
            "plies": N_("plies"), "white_accuracy": N_("white_accuracy"),
            "white_mistakes": N_("white_mistakes"), "white_blunders": N_("white_blunders"),
            "black_accuracy": N_("black_accuracy"), "black_mistakes": N_("black_mistakes"),
            "black_blunders": N_("black_blunders"), "player": N_("player"),
            "games": N_("games"), "moves": N_("moves"), "accuracy": N_("accuracy"),
            "mistakes": N_("mistakes"), "blunders": N_("blunders")}
TITLES = {"games": N_("games"), "players": N_("players")}


def _report(rows, json_rows: bool, stdout_free: bool, words) -> None:
    """The ply rows as JSON lines, or the games and players tables (on stdout when the
    games went to a file, else on stderr): on a terminal headed in the language of
    ``words``."""
    from dataclasses import asdict

    if json_rows:
        for row in rows:
            sys.stdout.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
        return
    if not rows:  # every game refused or failed: no table of nothing
        stderr_console().print(words.gettext(N_("no move analysed: no games or players "
                                                "table")))
        return
    from replay.engine.annotate import games_table, players_table, rows_frame

    from .tables import print_terminal_table, write_tsv

    frame = rows_frame(rows)
    if stdout_free:
        from rich.console import Console

        console = Console(highlight=False)
    else:
        console = stderr_console()
    for title, table in (("games", games_table(frame)), ("players", players_table(frame))):
        headers = [str(column) for column in table.columns]
        cells = [["" if _missing(value) else str(value) for value in row]
                 for row in table.itertuples(index=False)]
        right = [table[column].dtype.kind in "iuf" or str(table[column].dtype) == "Int64"
                 for column in table.columns]
        if console.is_terminal:
            print_terminal_table(console, words.gettext(TITLES[title]),
                                 [_heading(name, words) for name in headers],
                                 cells, right, words.gettext(N_("see --json")))
        else:
            target = sys.stdout if stdout_free else sys.stderr
            target.write(f"# {title}\n")
            write_tsv(target, headers, cells)


def _heading(column: str, words) -> str:
    """A column's heading on a terminal: its name in English (as --json and the
    tab-separated rows name it), else its catalog entry in the language of ``words``."""
    from pdn.i18n import SOURCE_LANGUAGE

    if words.language == SOURCE_LANGUAGE:
        return column
    return words.gettext(HEADINGS.get(column, column))


def _missing(value) -> bool:
    try:
        import pandas as pd

        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def register(app: typer.Typer) -> None:
    app.command()(analyse)
