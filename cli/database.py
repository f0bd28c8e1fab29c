"""``pdn index`` and ``pdn search``: a game database for instant searches.

``index`` stores every game's tags, moves, positions and place in its file in an SQLite
database (replay.database, schema in docs/database.md); ``search`` selects games from it
with ``pdn filter``'s criteria and ``--pattern``, and writes them as ``filter`` does, or
lists them. Library imports stay inside the commands so that ``pdn --help`` stays fast.
"""

from __future__ import annotations

import sqlite3
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_
from pdn.wording import number

from .common import ExitCode, fail, games_exit, write_out
from .options import (
    BlackOption,
    DateFromOption,
    DateToOption,
    EncodingOption,
    GameVariantOption,
    IgnoreGameTypeOption,
    JobsOption,
    LangOption,
    MaterialAnyPlyOption,
    MaterialOption,
    MovesOption,
    NoForcedCaptureOption,
    PlayerOption,
    PositionOption,
    RulesOption,
    TagOption,
    UntaggedVariantOption,
    WhiteOption,
    variant_choice,
    words_for,
)

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.database.build import IndexSummary
    from replay.database.query import Search
    from replay.rules.variants import Variant

FORMATS = ("pdn", "table", "json")


def index(
    paths: Annotated[list[str], typer.Argument(
        help="PDN files or directories (searched for *.pdn, *.phn and *.txt).",
        show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The database file (created "
                                         "when new, else updated).", show_default=False)],
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    jobs: JobsOption = 0,
    encoding: EncodingOption = None,
    lang: LangOption = None,
) -> None:
    """Index games into a database: tags, moves, positions, where each game lives.

    A file already indexed is skipped; a changed file is indexed again. A database of an
    older schema is rebuilt: the files it indexed that are still there, then those given.

    Exit status: 0 done; 1 games the reader gave up on (indexed without moves); 2 usage
    error, a file that cannot be read, or a database that cannot be used."""
    from replay.archive.run import Settings
    from replay.database.build import index_sources
    from replay.database.schema import DatabaseError
    from replay.run.output import OutputError, WriteError, output_target, refuse_overwriting_inputs

    from .archive import Console
    from .sources import SourceError, collect_sources, exit_if_no_sources

    words = words_for(lang)
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    if "-" in paths:
        fail(N_("pdn index reads files, not standard input: name the files"))
    try:
        sources = collect_sources(paths)
        refuse_overwriting_inputs(output, sources)
        if output_target(output).in_place:  # SQLite would leave NAME-journal beside it
            raise OutputError(N_("{file}: a database is a file of its own, not a device, "
                                 "pipe or descriptor: name a file").format(file=output))
    except (SourceError, OutputError, WriteError) as error:
        fail(str(error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    console = Console()
    with console.progress(sources, N_("indexing")) as progress:
        settings = Settings(choice, jobs, encoding, progress)
        try:
            summary = index_sources(output, sources, settings, note=console.note)
        except DatabaseError as error:
            fail(str(error))
    from rich.markup import escape

    console.rich.print(escape(index_summary(summary, output, words)))
    if summary.failed:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(bool(summary.unreadable)))


def index_summary(summary: IndexSummary, database: Path, words: Catalog) -> str:
    """What ``pdn index`` did, in the language of ``words``: one plural entry per count."""
    games, positions, files = summary.games, summary.positions, summary.files
    skipped, replaced, failed = summary.skipped, summary.replaced, len(summary.failed)
    text = words.gettext(N_("{games} ({positions}) from {files} indexed into {database}")
                         ).format(
        games=words.ngettext("{count} game", "{count} games", games).format(
            count=number(games)),
        positions=words.ngettext("{count} position", "{count} positions", positions).format(
            count=number(positions)),
        files=words.ngettext("{count} file", "{count} files", files).format(
            count=number(files)),
        database=database)
    text += "; " + words.ngettext("{count} file already there", "{count} files already there",
                                  skipped).format(count=number(skipped))
    text += ", " + words.ngettext("{count} replaced", "{count} replaced", replaced).format(
        count=number(replaced))
    if failed:
        text += "; " + words.ngettext("{count} file could not be read",
                                      "{count} files could not be read", failed).format(
            count=number(failed))
    if summary.unreadable:
        text += "; " + words.ngettext("{count} game unreadable", "{count} games unreadable",
                                      summary.unreadable).format(
            count=number(summary.unreadable))
    return text


def search(
    database: Annotated[Path, typer.Argument(help="A database made by pdn index.",
                                             show_default=False)],
    output: Annotated[str, typer.Option("--output", "-o", help="Output file (- for stdout).")]
    = "-",
    output_format: Annotated[str, typer.Option(
        "--format", "-f", help="pdn: the games as they were read; table or json: a list of "
        "the games with the ply where they match.")] = "pdn",
    position: PositionOption = None,
    pattern: Annotated[str | None, typer.Option(
        help="Games reaching a position with these squares fixed, e.g. 'c3,e3=wm "
        "any(a7,c7)=bk f4=empty turn=black' (see docs/database.md).")] = None,
    material: MaterialOption = None,
    material_any_ply: MaterialAnyPlyOption = False,
    moves: MovesOption = None,
    tag: TagOption = None,
    player: PlayerOption = None,
    white: WhiteOption = None,
    black: BlackOption = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    game_variant: GameVariantOption = None,
    result: Annotated[list[str] | None, typer.Option(
        help="Who won: white, black, draw, or a result (1-0, 0-1, 1/2-1/2, 2-0...) read in "
        "each game's variant, as pdn filter --result reads it.")] = None,
    lang: LangOption = None,
) -> None:
    """Find games in a database: every criterion given must hold.

    Exit status: 0 done (also when nothing matched); 2 usage error (a criterion that fits
    no variant of the database's games too) or a database that cannot be used."""
    from replay.database.pattern import Pattern, PatternError
    from replay.database.query import Search
    from replay.database.schema import CANNOT_READ, DatabaseError, indexed_files, open_readonly
    from replay.database.sqlite_reasons import sqlite_reason
    from replay.run.output import OutputError, atomic_writer, refuse_overwriting_inputs

    words = words_for(lang)
    if output_format not in FORMATS:
        fail(N_("--format '{value}': use {choices}").format(value=output_format,
                                                            choices=", ".join(FORMATS)))
    criteria = None
    if any((tag, player, white, black, date_from, date_to, game_variant, moves, material,
            result)):
        from .criteria import game_criteria

        criteria = game_criteria(tag, player, white, black, date_from, date_to, game_variant,
                                 result, None, None, None, moves, position, material,
                                 material_any_ply)
    try:
        wanted = Search(criteria, Pattern.parse(pattern) if pattern is not None else None,
                        position)
        if output != "-":
            refuse_overwriting_inputs(output, [database, *indexed_files(database)])
        connection = open_readonly(database)
    except (PatternError, OutputError, DatabaseError) as error:
        fail(str(error))
    if wanted.fen is not None or moves is not None:
        _check_board_criteria(connection, wanted, game_variant, database)
    with ExitStack() as stack:
        stream = sys.stdout if output == "-" else stack.enter_context(atomic_writer(output))
        try:
            count = _write(connection, wanted, stream, output_format)
        except (PatternError, DatabaseError) as error:
            fail(str(error))
        except sqlite3.Error as error:
            fail(CANNOT_READ.format(file=database, reason=sqlite_reason(error)))
        finally:
            connection.close()
    if output != "-" or output_format == "pdn":
        # plain print: rich takes longer to load
        print(words.ngettext("{count} game matched", "{count} games matched", count).format(
            count=number(count)), file=sys.stderr)


def _check_board_criteria(connection: sqlite3.Connection, wanted: Search,
                          selected: Variant | None, database: Path) -> None:
    """A usage error (exit 2) for --position or --moves that fit none of the variants of
    the database's games (any variant, when it holds none)."""
    from replay.database.query import stored_variants
    from replay.database.schema import CANNOT_READ
    from replay.database.sqlite_reasons import sqlite_reason
    from replay.record.criteria import CriterionError, check_moves, check_position, game_variants

    try:
        variants = stored_variants(connection, selected) or game_variants(selected)
        if wanted.fen is not None:
            check_position(wanted.fen, variants)
        if wanted.criteria is not None and wanted.criteria.moves is not None:
            check_moves(wanted.criteria.moves, variants)
    except CriterionError as error:
        connection.close()
        fail(str(error))
    except sqlite3.Error as error:
        connection.close()
        fail(CANNOT_READ.format(file=database, reason=sqlite_reason(error)))


def _write(connection: sqlite3.Connection, wanted: Search, stream: IO[str],
           output_format: str) -> int:
    """Write the games found in the chosen format; their number."""
    from replay.database.query import TABLE_COLUMNS, search, summaries
    from replay.run.spreadsheet import safe_row

    count = 0
    if output_format == "pdn":
        for match in search(connection, wanted):
            write_out(match.pdn, stream)  # control characters escaped on a terminal only
            count += 1
        return count
    if output_format == "table":
        write_out("\t".join(TABLE_COLUMNS) + "\n", stream)
    place = TABLE_COLUMNS.index("file") if output_format == "table" else None
    for line in summaries(connection, wanted, output_format):
        if place is not None:
            fields = line.rstrip("\n").split("\t")
            fields[place] = _as_given(fields[place])
            line = "\t".join(safe_row(fields)) + line[len(line.rstrip("\n")):]
        write_out(line, stream)
        count += 1
    return count


def _as_given(path: str) -> str:
    """A file the database names (by its absolute path) as a user gives it: relative to the
    current folder when it lies under it, as other commands print the paths given to them."""
    import os

    here = os.getcwd()
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else path


def register(app: typer.Typer) -> None:
    app.command()(index)
    app.command()(search)
