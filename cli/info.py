"""``pdn info``: per file, the number of games, variants, results and reading errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .common import EXIT_UNREADABLE, stderr_console
from .options import EncodingOption, JsonOption


def _print_text(summary: dict[str, Any]) -> None:
    def counts(values: dict[str, int]) -> str:
        return ", ".join(f"{key} ×{count}" for key, count in values.items()) or "-"

    typer.echo(f"{summary['file']}: {summary['games']} games")
    typer.echo(f"  variants: {counts(summary['variants'])}")
    if summary["inferred"]:
        typer.echo(f"  told from the records (no GameType): {counts(summary['inferred'])}")
    typer.echo(f"  results:  {counts(summary['results'])}")
    typer.echo(f"  errors:   {len(summary['errors'])}")
    for error in summary["errors"]:
        typer.echo(f"    game {error['game']}, {error['line']}:{error['column']}: "
                   f"{error['message']}")


def info(
    files: Annotated[list[Path], typer.Argument(help="PDN files.", show_default=False)],
    as_json: JsonOption = False,
    encoding: EncodingOption = None,
) -> None:
    """Print, per file, its games, their variants and results, and the reading errors.

    Each error comes with its game, line and column. --json: one object per file with file,
    games, errors, variants, inferred and results."""
    from rich.markup import escape

    from replay.summary import summarise

    unreadable = False
    for path in files:
        try:
            summary = summarise(path, encoding)
        except (OSError, LookupError, UnicodeError) as error:
            unreadable = True
            reason = getattr(error, "strerror", None) or str(error)
            stderr_console().print(
                f"[red]error:[/red] {escape(str(path))}: cannot read: {escape(reason)}")
            continue
        if as_json:
            typer.echo(json.dumps(summary, ensure_ascii=False))
        else:
            _print_text(summary)
    if unreadable:
        raise typer.Exit(EXIT_UNREADABLE)


def register(app: typer.Typer) -> None:
    app.command()(info)
