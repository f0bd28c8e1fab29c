"""``pdn stats``: tables of games, moves, players, openings and a summary, with plots."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from pdn.i18n import N_
from pdn.wording import number
from replay.rules.choice import RulesChoice

from .common import (
    CANNOT_READ_OR_WRITE,
    escape_controls,
    fail,
    fail_io,
    games_exit,
    input_size,
    progress_bar,
    spoken,
    stderr_console,
)
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JobsOption,
    JsonOption,
    NoForcedCaptureOption,
    PathsArgument,
    RulesOption,
    RunnerOption,
    SchedulerOption,
    UntaggedVariantOption,
    check_runner,
    variant_choice,
)
from .sources import SourceError, collect_sources, exit_if_no_sources

TABLE_NAMES = ("games", "moves", "players", "openings", "summary")
OUTPUT_SUFFIXES = (".csv", ".parquet", ".jsonl", ".ndjson")
PLOT_SUFFIXES = (".png", ".svg")
SHOWN_ROWS = 20
SHOWN_COLUMNS = {
    "games": ["file", "game", "White", "Black", "Result", "result", "plies", "ending",
              "status", "error"],
    "moves": ["game", "ply", "move_number", "side", "move", "short", "numeric", "piece",
              "captured", "promotes"],
    "players": ["player", "games", "wins", "draws", "losses", "score_pct", "first_year",
                "last_year", "events"],
    "openings": ["variant", "opening", "games", "white", "black", "draw", "white_score_pct",
                 "ballot"],
    "summary": ["file", "variant", "event", "year", "games", "white", "black", "draw",
                "average_plies", "valid_share"],
}
# Left out first on a narrow terminal: the results (white, black, draw) are what people read.
SPARE_COLUMNS = {"summary": ["valid_share", "average_plies", "year", "variant"]}


def stats(
    paths: PathsArgument,
    table: Annotated[str, typer.Option(
        "--table", "-t", help=f"The table to show or write: {', '.join(TABLE_NAMES)}.")]
    = "summary",
    output: Annotated[str | None, typer.Option(
        "--output", "-o", help="Write the table as .csv, .parquet or .jsonl (atomically), "
        "or as a Parquet dataset written by the workers into a folder: DIR/, an existing "
        "folder or a URL such as s3://bucket/prefix/.", show_default=False)] = None,
    plot: Annotated[Path | None, typer.Option(
        "--plot", help="Draw results, lengths, first kings and openings to .png or .svg.")]
    = None,
    as_json: JsonOption = False,
    jobs: JobsOption = 0,
    runner: RunnerOption = "local",
    scheduler: SchedulerOption = None,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    opening_plies: Annotated[int, typer.Option(
        "--opening-plies", min=1, help="Plies of an opening sequence.")] = 6,
    encoding: EncodingOption = None,
) -> None:
    """Tabulate archives with pandas: games, moves, players, openings, summary; plot them.

    Without -o: on a terminal, the first rows in the columns that fit; piped or redirected,
    the whole table as tab-separated values; with --json, the whole table as JSON lines.
    A game whose recorded result its final position contradicts is tabulated as recorded,
    with a warning naming it on stderr. A games table has at most 1,000 tag columns: tags
    past them go into its other_tags column, with a warning naming the first such game.
    Exit status: 0 done, 1 some games invalid or unreadable (tabulated all the same), 2
    usage error, unreadable input or a missing optional library.
    """
    from replay.run.dataset import is_dataset_target
    from replay.run.output import OutputError, check_outputs

    _check_options(table, output, plot, runner, scheduler)
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    try:
        sources = collect_sources(paths)
        file_output = output if output is not None and not is_dataset_target(output) else None
        check_outputs({"-o": file_output, "--plot": plot}, sources)
    except (SourceError, OutputError) as error:
        fail(str(error))
    if output is None and plot is None:
        exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    statuses: Counter[str] = Counter()
    run = {"jobs": jobs, "engine": runner, "scheduler": scheduler,
           "opening_plies": opening_plies, "encoding": encoding}
    if output is not None and is_dataset_target(output):
        rows = _write_dataset(sources, choice, table, output, {**run, "statuses": statuses})
        typer.echo(_rows_written(rows, table, output, dataset=True), err=True)
        _exit(statuses)
    if output is not None:
        rows, games = _write(sources, choice, table, Path(output), plot is not None,
                             {**run, "statuses": statuses, "warn": _warn})
        typer.echo(_rows_written(rows, table, output), err=True)
        if plot is not None:
            _plot(games, plot)
        _exit(statuses)
    if table == "summary" and plot is None:
        _show_summary(sources, choice, run, as_json)
    tables = _compute(sources, choice, table == "moves", run)
    statuses.update(tables.games["status"].astype(str))
    from replay.stats.schema import folded_rows
    from replay.stats.stream import folded_warning
    from replay.stats.tables import contradicted_lines

    for line in contradicted_lines(tables.games):
        _warn(line)
    if folded_rows(tables.games).any():
        _warn(folded_warning(tables.games))
    if plot is not None:
        _plot(tables.games, plot)
    frame = tables.table(table)
    if as_json:
        frame.to_json(sys.stdout, orient="records", lines=True, date_format="iso",
                      force_ascii=False)
    else:
        show_table(tables.games, frame, table)
    if table == "players":
        _print_name_pairs(tables.games)
    _exit(statuses)


def _show_summary(sources: list[str], choice: RulesChoice, run: dict, as_json: bool) -> None:
    """The summary table, folded part by part as the games come (its memory does not grow
    with the archives), with the warnings and exit status of the games table."""
    from replay.stats import EngineUnavailableError
    from replay.stats.summary import running_summary

    try:
        with progress_bar(N_("tabulating"), input_size(sources)) as progress:
            summary = running_summary(sources, choice.default, choice.override,
                                      rules=choice.rules, progress=progress, **run)
    except (EngineUnavailableError, ValueError) as error:
        fail(str(error))
    except OSError as error:
        fail_io(error)
    for line in summary.contradicted:
        _warn(line)
    if summary.folded is not None:
        _warn(summary.folded)
    if as_json:
        summary.table.to_json(sys.stdout, orient="records", lines=True, date_format="iso",
                              force_ascii=False)
    else:
        show_table(summary.overview, summary.table, "summary")
    _exit(summary.statuses)


def _warn(line: str) -> None:
    """A game whose recorded result its final position contradicts, on stderr (tabulated
    all the same, as recorded: ``pdn clean --fix-results`` writes the result the rules
    decide), or the first whose tags went into other_tags."""
    typer.secho(spoken().wholly(line), err=True, fg="yellow")


# The tables by name (the --table values) as the terminal's messages name them
TABLE_TITLES = {"games": N_("games"), "moves": N_("moves"), "players": N_("players"),
                "openings": N_("openings"), "summary": N_("summary")}


def _rows_written(rows: int, table: str, output: str, dataset: bool = False) -> str:
    """``1,024 rows of games written to games.csv``, in the user's language."""
    words = spoken()
    said = (words.ngettext("{count} row of {table} written to the dataset {output}",
                           "{count} rows of {table} written to the dataset {output}", rows)
            if dataset else words.ngettext("{count} row of {table} written to {output}",
                                           "{count} rows of {table} written to {output}", rows))
    return said.format(count=number(rows), table=words.gettext(TABLE_TITLES[table]),
                       output=output)


def _print_name_pairs(games) -> None:
    """The players table's hint on stderr: in each event (file and Event tag), the names
    probably of one player as ``pdn standings`` reports them (docs/tournaments.md), with
    the options that count them as one there."""
    from replay.tournament.event import name_pairs
    from replay.tournament.spellings import paste_line

    for (file, event), group in games.groupby(["file", "Event"], dropna=False, observed=True,
                                             sort=False):
        tags = [[v if isinstance(v, str) else None for v in group[tag].tolist()]
                for tag in ("White", "Black", "Round", "Date")]
        pairs = name_pairs(zip(*tags, strict=True))
        if not pairs:
            continue
        where = escape_controls(f"{file}" + (f" ({event})" if isinstance(event, str) else ""))
        words = spoken()
        typer.secho(words.gettext(N_("{where}: names probably of one player, counted apart "
                                     "above:")).format(where=where), err=True, fg="yellow")
        for pair in pairs:
            typer.echo(escape_controls(f"  {pair.said(words)}"), err=True)
        typer.echo(escape_controls("  " + words.gettext(N_(
            "pdn standings counts each as one with: {options}")).format(
                options=paste_line(pairs))), err=True)


def _exit(statuses: Counter[str]) -> None:
    """Exit 1 when some games were invalid or unreadable (say how many on stderr)."""
    broken = {status: statuses[status] for status in ("invalid", "unreadable")
              if statuses[status]}
    if broken:
        words = spoken()
        typer.echo(words.gettext(N_("games that do not replay: {counts}")).format(
            counts=", ".join(_status_count(words, status, n)
                             for status, n in broken.items())), err=True)
    raise typer.Exit(games_exit(bool(broken)))


def _status_count(words, status: str, games: int) -> str:
    """``3 invalid``, ``1 unreadable`` in the language of ``words``."""
    said = (words.ngettext("{count} invalid", "{count} invalid", games) if status == "invalid"
            else words.ngettext("{count} unreadable", "{count} unreadable", games))
    return said.format(count=number(games))


def _check_options(table: str, output: str | None, plot: Path | None, runner: str,
                   scheduler: str | None) -> None:
    from replay.run.dataset import is_dataset_target

    if table not in TABLE_NAMES:
        fail(N_("--table must be one of {choices}, not '{value}'").format(
            choices=", ".join(TABLE_NAMES), value=table))
    if output is not None and is_dataset_target(output):
        if plot is not None:
            fail(N_("--plot needs the games in this process: write -o to a file, not a "
                    "folder"))
    elif output is not None and "://" in output:
        fail(N_("-o {output}: a URL is written as a dataset folder: end it with /").format(
            output=output))
    elif output is not None and Path(output).suffix.lower() not in OUTPUT_SUFFIXES:
        fail(N_("-o must end in {choices} or name a folder (DIR/), not '{value}'").format(
            choices=", ".join(OUTPUT_SUFFIXES), value=Path(output).suffix))
    if plot is not None and plot.suffix.lower() not in PLOT_SUFFIXES:
        fail(N_("--plot must end in .png or .svg, not '{value}'").format(value=plot.suffix))
    check_runner(runner, scheduler)


def _compute(sources: list[str], choice: RulesChoice, with_moves: bool, run: dict):
    from replay.stats import EngineUnavailableError, stats_tables

    try:
        with progress_bar(N_("tabulating"), input_size(sources)) as progress:
            return stats_tables(sources, choice.default, choice.override,
                                with_moves=with_moves, rules=choice.rules, progress=progress,
                                **run)
    except (EngineUnavailableError, ValueError) as error:
        fail(str(error))
    except OSError as error:
        fail_io(error)


def _write(sources: list[str], choice: RulesChoice, table: str, output: Path, keep_games: bool,
           run: dict):
    """Stream the table to ``output``; the rows written and, if kept, the games table."""
    from replay.run.output import OutputError, refuse_overwriting_inputs
    from replay.stats import EngineUnavailableError, write_table

    try:
        refuse_overwriting_inputs(output, sources)
    except OutputError as error:
        fail(str(error))
    if output.suffix.lower() == ".parquet":
        try:
            import pyarrow  # noqa: F401 - only to say clearly that the extra is missing
        except ImportError:
            fail(N_("Parquet output needs pyarrow: pip install 'pdn-toolkit[parquet]'"))
    try:
        with progress_bar(N_("tabulating"), input_size(sources)) as progress:
            return write_table(sources, choice.default, output, table, choice.override,
                               keep_games=keep_games, rules=choice.rules, progress=progress,
                               **run)
    except (EngineUnavailableError, ValueError) as error:
        fail(str(error))
    except OSError as error:
        fail_io(error)


def _write_dataset(sources: list[str], choice: RulesChoice, table: str, output: str, run: dict
                   ) -> int:
    """Have the workers write the table as a Parquet dataset into ``output``; the rows."""
    from replay.run.dataset import DatasetError
    from replay.stats import EngineUnavailableError
    from replay.stats.dataset import write_dataset

    try:
        import pyarrow  # noqa: F401 - only to say clearly that the extra is missing
    except ImportError:
        fail(N_("a dataset is written in Parquet, which needs pyarrow: "
                "pip install 'pdn-toolkit[parquet]'"))
    try:
        with progress_bar(N_("tabulating"), input_size(sources)) as progress:
            return write_dataset(sources, choice.default, output, table, choice.override,
                                 rules=choice.rules, progress=progress, **run)
    except (EngineUnavailableError, DatasetError, ValueError) as error:
        fail(str(error))
    except ImportError as error:  # an fsspec URL whose filesystem package is missing
        fail(f"{output}: {error}")
    except OSError as error:
        fail_io(error, output, CANNOT_READ_OR_WRITE)


def _plot(games, path: Path) -> None:
    try:
        import matplotlib  # noqa: F401 - only to say clearly that the extra is missing
    except ImportError:
        fail(N_("plots need matplotlib: pip install 'pdn-toolkit[plots]'"))
    from replay.stats import openings_table
    from replay.stats.plots import plot_tables

    plot_tables(games, openings_table(games), path)
    typer.echo(spoken().gettext(N_("plot written to {path}")).format(path=path), err=True)


def show_table(games, frame, table: str, console=None) -> None:
    """On a terminal, a headline and the first rows of the table in the columns that fit;
    piped or redirected, the whole table as tab-separated values (the headline on stderr).
    ``games``: the games table, or its ``Overview`` (replay.stats.summary)."""
    from rich.console import Console
    from rich.markup import escape

    from replay.stats.summary import Overview

    from .tables import print_terminal_table, write_tsv

    console = console or Console()
    words = spoken()
    overview = games if isinstance(games, Overview) else Overview.of(games)
    valid = overview.valid / overview.games * 100 if overview.games else 0.0
    files = len(overview.files)
    headline = escape(words.gettext(HEADLINE)).format(
        games="[bold]" + words.ngettext("{count} game", "{count} games", overview.games)
        .format(count=number(overview.games)) + "[/bold]",
        files=escape(words.ngettext("in {count} file", "in {count} files", files).format(
            count=number(files))),
        valid=f"{valid:.1f}", results=", ".join(
            escape(words.gettext(RESULT_COUNTS.get(str(name), f"{name} {{count}}")).format(
                count=number(n))) for name, n in overview.results.items() if n))
    columns = [c for c in SHOWN_COLUMNS[table] if c in frame]
    if not console.is_terminal:
        stderr_console().print(headline)
        write_tsv(console.file, columns, (
            [_cell(value) for value in values]
            for values in frame[columns].itertuples(index=False)))
        return
    console.print(headline)
    shown = min(SHOWN_ROWS, len(frame))
    rows = [[_cell(value) for value in values]
            for values in frame[columns].head(SHOWN_ROWS).itertuples(index=False)]
    title = escape(words.ngettext("{table} (first {shown} of {count} row)",
                                  "{table} (first {shown} of {count} rows)", len(frame))
                   .format(table=words.gettext(TABLE_TITLES[table]), shown=number(shown),
                           count=number(len(frame))))
    if "file" in columns:
        folder, names = files_shown(overview.files)
        at = columns.index("file")
        for row in rows:
            row[at] = names.get(row[at], row[at])
        title += escape(words.gettext(N_(", files in {folder}")).format(folder=folder)) \
            if folder else ""
    print_terminal_table(
        console, title, columns, rows, [frame[column].dtype.kind in "iuf" for column in columns],
        words.gettext(N_("--json or -o {table}.csv has every column and row")).format(
            table=table), SPARE_COLUMNS.get(table, ()), words)


HEADLINE = N_("{games} {files}, {valid}% valid; results: {results}")
# The headline's count of each value of the result column (the values stay in the tables)
RESULT_COUNTS = {"white": N_("white {count}"), "black": N_("black {count}"),
                 "draw": N_("draw {count}"), "double_forfeit": N_("double_forfeit {count}"),
                 "first": N_("first {count}"), "second": N_("second {count}"),
                 "unknown": N_("unknown {count}")}


def files_shown(files: list[str]) -> tuple[str, dict[str, str]]:
    """The folder the files share, and each file as shown under it on a terminal (its path
    from there): what differs from row to row, not the same folder cut short on each.

    >>> files_shown(["/data/ru/wc1998.pdn", "/data/ru/sssr/1968.pdn"])
    ('/data/ru', {'/data/ru/wc1998.pdn': 'wc1998.pdn', '/data/ru/sssr/1968.pdn': 'sssr/1968.pdn'})
    >>> files_shown(["games.pdn"])
    ('', {'games.pdn': 'games.pdn'})
    """
    import os.path

    paths = [file for file in files if isinstance(file, str)]
    if not paths:
        return "", {}
    try:
        folder = os.path.commonpath([os.path.dirname(path) for path in paths])
    except ValueError:  # absolute and relative paths mixed
        return "", {path: path for path in paths}
    return folder, {path: os.path.relpath(path, folder) if folder else path for path in paths}


def _cell(value) -> str:
    import pandas as pd

    if value is None or value is pd.NA or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def register(app: typer.Typer) -> None:
    app.command()(stats)
