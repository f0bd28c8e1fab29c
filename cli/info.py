"""``pdn info``: per file, the number of games, variants, results and reading errors."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.cat import EncodingOption
from cli.common import EXIT_UNREADABLE

NO_GAMETYPE = "none"


def summarise(path: Path, encoding: str | None = None) -> dict[str, Any]:
    """The summary of one file (the ``--json`` line): games, errors, variants (by GameType
    tag), inferred (for games without one: the variant their tags and squares tell, without
    replaying; ``pdn validate`` replays to confirm it), results."""
    from pdn.reader import read_games
    from replay.inference import candidates

    games = 0
    errors: list[dict[str, Any]] = []
    variants: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    results: Counter[str] = Counter()
    for game in read_games(path, encoding=encoding):
        games += 1
        gametype = game.gametype
        written = game.tags.get("GameType") or NO_GAMETYPE
        variants[str(gametype.number) if gametype else written] += 1
        if gametype is None:
            inferred[candidates(game).variants[0].name] += 1
        results[(game.headers_result or "?").strip() or "?"] += 1
        errors += [{"game": game.index, "line": d.line, "column": d.column, "message": d.message}
                   for d in game.errors]
    return {"file": str(path), "games": games, "errors": errors,
            "variants": dict(variants.most_common()), "inferred": dict(inferred.most_common()),
            "results": dict(results.most_common())}


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
    as_json: Annotated[bool, typer.Option(
        "--json", help="One JSON object per file and line: file, games, errors, variants, "
        "inferred, results.")] = False,
    encoding: EncodingOption = None,
) -> None:
    """Print, per file, how many games it holds, their variants and results, and the errors
    met while reading (each with game, line and column)."""
    from rich.console import Console
    from rich.markup import escape

    unreadable = False
    for path in files:
        try:
            summary = summarise(path, encoding)
        except (OSError, LookupError, UnicodeError) as error:
            unreadable = True
            reason = getattr(error, "strerror", None) or str(error)
            Console(stderr=True, highlight=False, soft_wrap=True).print(
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
