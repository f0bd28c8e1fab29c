"""``pdn cat``: print games back as canonical PDN 3.0."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import fail, games_exit
from .options import EncodingOption


def cat(
    file: Annotated[Path, typer.Argument(help="A PDN file.", show_default=False)],
    game: Annotated[int | None, typer.Option(
        "--game", "-g", min=1, help="Print only this game (1-based).")] = None,
    encoding: EncodingOption = None,
) -> None:
    """Print the games of FILE as canonical PDN (seven tags first, 80-column movetext).

    Exit status: 0 every game read, 1 some with reading errors, 2 usage error or a file
    that cannot be read."""
    from pdn.reader import NoSuchGameError, read_game, read_games
    from pdn.writer import write_game

    errors = 0
    try:
        games = [read_game(file, game, encoding=encoding)] if game else read_games(
            file, encoding=encoding)
        for record in games:
            for diagnostic in record.errors:
                errors += 1
                typer.echo(f"{file}:{diagnostic.line}:{diagnostic.column}: game "
                           f"{record.index}: {diagnostic.message}", err=True)
            typer.echo(write_game(record) + "\n")
    except NoSuchGameError as error:
        fail(str(error))
    except (OSError, LookupError, UnicodeError) as error:
        fail(f"{file}: cannot read: {getattr(error, 'strerror', None) or error}")
    raise typer.Exit(games_exit(bool(errors)))


def register(app: typer.Typer) -> None:
    app.command()(cat)
