"""``pdn cat``: print games back as canonical PDN 3.0."""

from __future__ import annotations

from typing import Annotated

import typer

from pdn.i18n import N_

from .common import CANNOT_READ, fail, fail_stdout, games_exit, spoken, stdout_refused, write_out
from .notes import NoteSummary
from .options import EncodingOption, PathsArgument, VerboseOption
from .sources import SourceError, collect_sources, exit_if_no_sources, nth_game, read_inputs


def cat(
    paths: PathsArgument,
    game: Annotated[int | None, typer.Option(
        "--game", "-g", min=1, metavar="N",
        help="Print only this game (1-based, counted through the inputs in order).")] = None,
    encoding: EncodingOption = None,
    verbose: VerboseOption = False,
) -> None:
    """Print the games of PATHS as canonical PDN (seven tags first, 80-column movetext).

    What the reader found wrong goes to stderr, a kind repeated in a game summed up once.
    Exit status: 0 every game read, 1 some with reading errors, 2 usage error or a file
    that cannot be read."""
    from pdn.reader import NoSuchGameError
    from pdn.writer import write_game

    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    if game is None:  # an empty folder: 0 games, exit 0 (one rule); game N is missing there
        exit_if_no_sources(sources, paths)
    words = spoken()
    notes = NoteSummary(verbose=verbose, words=words)
    try:
        games = [nth_game(sources, game, encoding)] if game else read_inputs(sources, encoding)
        for record in games:
            for diagnostic in record.errors:
                game_words = words.localize(N_("game {number}").format(number=record.index))
                notes.add(f"{record.source}:{diagnostic.line}:{diagnostic.column}: "
                          f"{game_words}: {words.localize(diagnostic.message)}",
                          file=record.source,
                          kind=diagnostic.code, game=record.index, label=diagnostic.severity)
            write_out(write_game(record) + "\n\n")  # click's echo stripped CSI, kept OSC
    except NoSuchGameError as error:
        fail(str(error))
    except BrokenPipeError:
        raise  # stdout closed early (| head): not a reading error
    except (OSError, LookupError, UnicodeError) as error:
        if stdout_refused(error):  # the output refused, not the input
            fail_stdout(error)
        name = getattr(error, "filename", None) or ", ".join(paths)
        fail(CANNOT_READ.format(file=name, reason=getattr(error, "strerror", None) or error))
    finally:
        notes.close()
    raise typer.Exit(games_exit(bool(notes.total)))


def register(app: typer.Typer) -> None:
    app.command()(cat)
