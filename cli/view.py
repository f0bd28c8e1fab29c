"""``pdn view``: games as one self-contained HTML page with a board that steps through them."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, progress_bar
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    NoForcedCaptureOption,
    RulesOption,
    UntaggedVariantOption,
    variant_choice,
)
from .show import game_of

if TYPE_CHECKING:
    from pdn.model import Game


def view(
    file: Annotated[Path, typer.Argument(help="A PDN file.", show_default=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file to write.",
                                         show_default=False)],
    game: Annotated[int | None, typer.Option(
        "--game", "-g", min=1, help="Only this game of the file (default: every game).")]
    = None,
    flip: Annotated[bool, typer.Option(help="Black's side at the bottom.")] = False,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    encoding: EncodingOption = None,
) -> None:
    """Write an HTML viewer of a file's games: board, moves, variations, comments, errors.

    The variant is each game's GameType, else --variant, else the one its record tells.
    Exit status 2 on bad input.
    """
    from pdn.output import OutputError, refuse_overwriting_inputs, write_atomically
    from replay.replayer import replay_game
    from replay.viewer import viewer_html

    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    try:
        refuse_overwriting_inputs(output, [file])
    except OutputError as error:
        fail(str(error))
    games = [game_of(file, game, encoding)] if game else _all_games(file, encoding)
    replayed = []
    with progress_bar("replaying", len(games)) as progress:
        for item in games:
            replayed.append(replay_game(item, choice.default, choice.override,
                                        rules=choice.rules))
            if progress is not None:
                progress(1)
    try:
        write_atomically(output, viewer_html(replayed, flipped=flip, title=file.name))
    except OSError as error:
        fail(f"{output}: {error.strerror or error}")
    invalid = sum(1 for item in replayed if item.errors)
    note = f", {invalid} with moves that do not replay" if invalid else ""
    typer.echo(f"viewer of {len(replayed)} game{'' if len(replayed) == 1 else 's'}{note} "
               f"written to {output}", err=True)


def _all_games(path: Path, encoding: str | None) -> list[Game]:
    from pdn.reader import read_games

    try:
        games = list(read_games(path, encoding=encoding))
    except OSError as error:
        fail(f"{path}: {error.strerror or error}")
    if not games:
        fail(f"{path} has no games")
    return games


def register(app: typer.Typer) -> None:
    app.command()(view)
