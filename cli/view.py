"""``pdn view``: games as one self-contained HTML page with a board that steps through them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from pdn.i18n import N_, Catalog
from pdn.wording import number

from .common import CANNOT_WRITE, fail, fail_io, games_exit, input_size, progress_bar
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JobsOption,
    LangOption,
    NoForcedCaptureOption,
    PathsArgument,
    RulesOption,
    UntaggedVariantOption,
    variant_choice,
    words_for,
)
from .sources import SourceError, collect_sources, exit_if_no_sources, game_of

T = TypeVar("T")


def view(
    paths: PathsArgument,
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.",
                                         show_default=False)],
    game: Annotated[int | None, typer.Option(
        "--game", "-g", min=1, metavar="N",
        help="Only this game, counted through the inputs in order (default: every game).")]
    = None,
    flip: Annotated[bool, typer.Option(help="Black's side at the bottom.")] = False,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    encoding: EncodingOption = None,
    jobs: JobsOption = 0,
    suggest: Annotated[bool, typer.Option(
        "--suggest", help="Show at its move each slip that would mend a broken game (as "
        "pdn validate --suggest finds them).")] = False,
    database: Annotated[Path | None, typer.Option(
        "--database", metavar="DB", help="A database made by pdn index: the page gets an "
        "explorer panel, the moves its games played from the position shown, with counts "
        "and scores.", show_default=False)] = None,
    lang: LangOption = None,
) -> None:
    """Write an HTML viewer of the games of PATHS: board, moves, variations, comments, errors.

    The variant is each game's GameType, else --variant, else the one its record tells. The
    page and the messages speak --lang's language; the moves and tags stay as written.
    Exit status: 0 done, 1 some games invalid or unreadable (as pdn validate counts
    them), 2 usage error or bad input.
    """
    from replay.record.replayer import replay_game
    from replay.run.output import OutputError, atomic_writer, refuse_overwriting_inputs
    from replay.viewer.page import (
        ViewerPage,
        archive_entries,
        board_kind,
        game_entry,
        suggestions_of,
    )

    words = words_for(lang)
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    try:
        sources = collect_sources(paths)
        refuse_overwriting_inputs(output, sources)
    except (SourceError, OutputError) as error:
        fail(str(error))
    if not game:  # an empty folder: 0 games, exit 0 (one rule); game N is missing there
        exit_if_no_sources(sources, paths)
    if database is not None:
        _check_database(database, sources)
    statuses: Counter[str] = Counter()
    replayed = None
    size = None if game else input_size(sources)
    with progress_bar(N_("replaying"), size) as progress:
        if game:
            replayed = replay_game(game_of(paths, game, encoding), choice.default,
                                   choice.override, rules=choice.rules)
            found = suggestions_of(replayed) if suggest else ()
            entries = iter([(*game_entry(replayed, flipped=flip, suggestions=found, words=words),
                             board_kind(replayed.variant, flip), str(replayed.status))])
        else:
            entries = (entry for source in sources for entry in _read(source, archive_entries(
                source, choice.default, choice.override, rules=choice.rules, flipped=flip,
                jobs=jobs, encoding=encoding, progress=progress, suggest=suggest,
                language=words.language)))
        try:
            with atomic_writer(output) as stream:
                page = ViewerPage(stream, title=_title(sources, words), words=words)
                for key, entry, kind, status in entries:
                    page.add(key, entry, kind)
                    statuses[status] += 1
                if not page.count:
                    fail(N_("{files} has no games").format(files=", ".join(paths)))
                page.close(_explorer(database, sources, replayed, choice, encoding)
                           if database is not None else None)
        except OSError as error:
            fail_io(error, str(output), CANNOT_WRITE)
    typer.echo(_summary(page.count, statuses, output, words), err=True)
    raise typer.Exit(games_exit(bool(statuses["invalid"] or statuses["unreadable"])))


def _summary(games: int, statuses: Counter[str], output: Path, words: Catalog) -> str:
    """What ``pdn view`` wrote, in the language of ``words``: the games of the page, and
    those that do not replay counted as pdn validate and pdn stats count them (one count
    for a file that cannot be read), each status as pdn validate names it.

    >>> from pdn.i18n import catalog
    >>> _summary(3, Counter(valid=2, invalid=1), Path("v.html"), catalog("en"))
    'viewer of 3 games written to v.html; games that do not replay: 1 invalid'
    """
    broken = ", ".join(f"{number(statuses[status])} {words.gettext(status)}"
                       for status in (N_("invalid"), N_("unreadable")) if statuses[status])
    note = (words.gettext(N_("; games that do not replay: {statuses}")).format(
        statuses=broken) if broken else "")
    return words.ngettext("viewer of {count} game written to {output}",
                          "viewer of {count} games written to {output}", games).format(
        count=number(games), output=output) + note


def _check_database(database: Path, sources: list[str]) -> None:
    """A usage error for a database that cannot be used, or games from standard input
    (read twice: once for the page, once for the explorer)."""
    from replay.database.schema import DatabaseError, open_readonly

    if "-" in sources:
        fail(N_("--database reads the games twice: name the files, not standard input"))
    try:
        open_readonly(database).close()
    except DatabaseError as error:
        fail(str(error))


def _explorer(database: Path, sources: list[str], replayed, choice, encoding: str | None
              ) -> dict[str, list[list]]:
    """The explorer panel's rows for the positions of the page's games (the one game, or
    every game of the sources read again and replayed here)."""
    import sqlite3

    from pdn.reader import read_games
    from replay.database.schema import CANNOT_READ, DatabaseError, open_readonly
    from replay.database.sqlite_reasons import sqlite_reason
    from replay.record.replayer import replay_game
    from replay.viewer.explorer import explorer_rows

    try:
        connection = open_readonly(database)
    except DatabaseError as error:
        fail(str(error))
    games = [replayed] if replayed else (
        replay_game(game, choice.default, choice.override, rules=choice.rules)
        for source in sources for game in read_games(source, encoding=encoding))
    try:
        return explorer_rows(connection, games)
    except sqlite3.Error as error:  # a damaged database: a table gone, a page unreadable
        fail(CANNOT_READ.format(file=database, reason=sqlite_reason(error)))
    finally:
        connection.close()


def _title(sources: list[str], words: Catalog) -> str:
    """The page's title: the file's name, or how many files it shows, in the language of
    ``words``."""
    from replay.run.partitions import shown_name

    if len(sources) == 1:
        return (words.gettext(N_("standard input")) if sources[0] == "-"
                else shown_name(Path(sources[0]).name))
    return words.ngettext("games of {count} file", "games of {count} files",
                          len(sources)).format(count=len(sources))


def _read(file: str, entries: Iterator[T]) -> Iterator[T]:
    """The entries, an error reading the file exiting with its name."""
    try:
        yield from entries
    except OSError as error:
        fail(f"{file}: {error.strerror or error}")


def register(app: typer.Typer) -> None:
    app.command()(view)
