"""``pdn cat``: print games back as canonical PDN 3.0."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import EXIT_INVALID, fail
from .options import EncodingOption


def cat(
    file: Annotated[Path, typer.Argument(help="A PDN file.", show_default=False)],
    game: Annotated[int | None, typer.Option(
        "--game", "-g", min=1, help="Print only this game (1-based).")] = None,
    encoding: EncodingOption = None,
) -> None:
    """Print the games of FILE as canonical PDN (seven tags first, 80-column movetext)."""
    from pdn.reader import read_games
    from pdn.writer import write_game

    errors = 0
    count = 0
    try:
        for count, record in enumerate(read_games(file, encoding=encoding), 1):
            if game is not None and count != game:
                continue
            for diagnostic in record.errors:
                errors += 1
                typer.echo(f"{file}:{diagnostic.line}:{diagnostic.column}: game {count}: "
                           f"{diagnostic.message}", err=True)
            typer.echo(write_game(record) + "\n")
            if game is not None:
                break
    except (OSError, LookupError, UnicodeError) as error:
        fail(f"{file}: cannot read: {getattr(error, 'strerror', None) or error}")
    if game is not None and count < game:
        fail(f"{file} has {count} game{'' if count == 1 else 's'}, so there is no game {game}")
    if errors:
        raise typer.Exit(EXIT_INVALID)


def register(app: typer.Typer) -> None:
    app.command()(cat)
