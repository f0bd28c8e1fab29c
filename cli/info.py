"""``pdn info``: per file, the number of games, variants, results and reading errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from .common import ExitCode, fail, games_exit, stderr_console
from .options import EncodingOption, JsonOption, PathsArgument
from .sources import SourceError, collect_sources


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
    paths: PathsArgument,
    as_json: JsonOption = False,
    encoding: EncodingOption = None,
) -> None:
    """Print, per file, its games, their variants and results, and the reading errors.

    Each error comes with its game, line and column. --json: one object per file with file,
    games, errors, variants, inferred and results. Exit status: 0 every game read, 1 some
    with reading errors, 2 usage error or a file that cannot be read."""
    from rich.markup import escape

    from replay.summary import summarise

    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    unreadable = errors = False
    for path in sources:
        try:
            summary = summarise(sys.stdin.buffer if path == "-" else Path(path), encoding)
        except (OSError, LookupError, UnicodeError) as error:
            unreadable = True
            reason = getattr(error, "strerror", None) or str(error)
            stderr_console().print(
                f"[red]error:[/red] {escape(str(path))}: cannot read: {escape(reason)}")
            continue
        summary["file"] = "<stdin>" if path == "-" else path
        errors = errors or bool(summary["errors"])
        if as_json:
            typer.echo(json.dumps(summary, ensure_ascii=False))
        else:
            _print_text(summary)
    if unreadable:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(errors))


def register(app: typer.Typer) -> None:
    app.command()(info)
