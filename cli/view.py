"""``pdn view``: games as one self-contained HTML page with a board that steps through them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, TypeVar

import typer

from .common import fail, games_exit, progress_bar
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    JobsOption,
    NoForcedCaptureOption,
    RulesOption,
    UntaggedVariantOption,
    variant_choice,
)
from .show import game_of

T = TypeVar("T")


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
    jobs: JobsOption = 0,
) -> None:
    """Write an HTML viewer of a file's games: board, moves, variations, comments, errors.

    The variant is each game's GameType, else --variant, else the one its record tells.
    Exit status: 0 done, 1 some games do not replay to their end, 2 usage error or bad
    input.
    """
    from pdn.output import OutputError, atomic_writer, refuse_overwriting_inputs
    from replay.replayer import replay_game
    from replay.viewer import ViewerPage, archive_entries, board_kind, game_entry

    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    try:
        refuse_overwriting_inputs(output, [file])
    except OutputError as error:
        fail(str(error))
    invalid = 0
    size = None if game else _size(file)
    with progress_bar("replaying", size) as progress:
        if game:
            replayed = replay_game(game_of(file, game, encoding), choice.default,
                                   choice.override, rules=choice.rules)
            entries = iter([(*game_entry(replayed, flipped=flip),
                             board_kind(replayed.variant, flip), bool(replayed.errors))])
        else:
            entries = _read(file, archive_entries(
                file, choice.default, choice.override, rules=choice.rules, flipped=flip,
                jobs=jobs, encoding=encoding, progress=progress))
        try:
            with atomic_writer(output) as stream:
                page = ViewerPage(stream, title=file.name)
                for key, entry, kind, broken in entries:
                    page.add(key, entry, kind)
                    invalid += broken
                if not page.count:
                    fail(f"{file} has no games")
                page.close()
        except OSError as error:
            fail(f"{output}: {error.strerror or error}")
    note = f", {invalid} with moves that do not replay" if invalid else ""
    typer.echo(f"viewer of {page.count} game{'' if page.count == 1 else 's'}{note} "
               f"written to {output}", err=True)
    raise typer.Exit(games_exit(bool(invalid)))


def _size(file: Path) -> int | None:
    """The file's size in bytes, for the progress bar (None when it cannot be read: the
    reading says why)."""
    try:
        return file.stat().st_size
    except OSError:
        return None


def _read(file: Path, entries: Iterator[T]) -> Iterator[T]:
    """The entries, an error reading the file exiting with its name."""
    try:
        yield from entries
    except OSError as error:
        fail(f"{file}: {error.strerror or error}")


def register(app: typer.Typer) -> None:
    app.command()(view)
