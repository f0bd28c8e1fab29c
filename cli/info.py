"""``pdn info``: per file, the number of games, variants, results and reading errors."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from pdn.i18n import N_
from pdn.wording import number

from .common import CANNOT_READ, ExitCode, fail, games_exit, spoken, stderr_console
from .notes import NoteSummary
from .options import EncodingOption, JsonOption, PathsArgument, VerboseOption
from .sources import SourceError, collect_sources, exit_if_no_sources


def variant_names(by_gametype: dict[str, int]) -> dict[str, int]:
    """The counts by GameType number shown with the variant's name, as ``pdn validate``
    names variants (``20`` is ``international (20)``); a number no variant has, and
    ``none`` (no GameType tag), as they are.

    >>> variant_names({"20": 190, "99": 1, "none": 2})
    {'international (20)': 190, '99': 1, 'none': 2}
    """
    from replay.rules.variants import UnknownVariantError, get_variant

    named = {}
    for key, games in by_gametype.items():
        try:
            label = f"{get_variant(key).name} ({key})" if key.isdigit() else key
        except UnknownVariantError:
            label = key
        named[label] = games
    return named


def _print_text(summary: dict[str, Any], notes: NoteSummary) -> None:
    def counts(values: dict[str, int]) -> str:
        return ", ".join(f"{key} ×{number(n)}" for key, n in values.items()) or "-"

    words = spoken()
    say = words.gettext
    problems = summary["errors"]
    games = summary["games"]
    typer.echo(f"{summary['file']}: " + words.ngettext("{count} game", "{count} games", games)
               .format(count=number(games)))
    typer.echo("  " + say(N_("variants: {list}")).format(
        list=counts(variant_names(summary["variants"]))))
    if summary["inferred"]:
        typer.echo("  " + say(N_("told from the records (no GameType): {list}")).format(
            list=counts(summary["inferred"])))
    typer.echo("  " + say(N_("results:  {list}")).format(list=counts(summary["results"])))
    games = len({problem["game"] for problem in problems})
    typer.echo("  " + (say(N_("reading problems: none")) if not problems else words.ngettext(
        "reading problems: {count} in {games} game (the games are not replayed here: pdn "
        "validate says which games are invalid or incomplete, and counts one whose moves all "
        "replay valid, with its reading problem as a warning)",
        "reading problems: {count} in {games} games (the games are not replayed here: pdn "
        "validate says which games are invalid or incomplete, and counts one whose moves all "
        "replay valid, with its reading problem as a warning)", games).format(
            count=number(len(problems)), games=number(games))))
    for problem in problems:
        game_words = words.localize(N_("game {number}").format(number=problem["game"]))
        notes.add(f"    {game_words}, {problem['line']}:{problem['column']}: "
                  f"{problem['code']} — {words.localize(problem['message'])}",
                  file=summary["file"],
                  kind=problem["code"], game=problem["game"], label="problem")
    notes.close()


def info(
    paths: PathsArgument,
    as_json: JsonOption = False,
    encoding: EncodingOption = None,
    verbose: VerboseOption = False,
) -> None:
    """Print, per file, its games, their variants and results, and the reading problems.

    Each problem comes with its game, line and column; one kind repeated in a game is shown
    once with its count (--verbose: each). The games are not replayed: pdn validate says
    which are invalid or incomplete, and counts a game whose moves all replay valid,
    with its reading problem among the warnings (a missing game separator, say). --json:
    one object per file with file, games, errors (every reading problem), variants,
    inferred and results. Exit status: 0 every game read,
    1 some with reading errors, 2 usage error or a file that cannot be read."""
    from rich.markup import escape

    from replay.run.partitions import shown_name
    from replay.validate.summary import summarise

    try:
        sources = collect_sources(paths)
    except SourceError as error:
        fail(str(error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    unreadable = errors = False
    for path in sources:
        try:
            summary = summarise(sys.stdin.buffer if path == "-" else Path(path), encoding)
        except (OSError, LookupError, UnicodeError) as error:
            unreadable = True
            reason = getattr(error, "strerror", None) or str(error)
            words = spoken()
            label = escape(words.gettext(N_("error")))
            stderr_console().print(f"[red]{label}:[/red] " + escape(
                words.localize(CANNOT_READ.format(file=shown_name(str(path)), reason=reason))))
            continue
        summary["file"] = "<stdin>" if path == "-" else shown_name(path)
        errors = errors or bool(summary["errors"])
        if as_json:
            typer.echo(json.dumps(summary, ensure_ascii=False))
        else:
            _print_text(summary, NoteSummary(
                verbose=verbose, echo=typer.echo, indent="    ", words=spoken(),
                hint=N_("--verbose shows each, --json lists them all")))
    if unreadable:
        raise typer.Exit(ExitCode.USAGE)
    raise typer.Exit(games_exit(errors))


def register(app: typer.Typer) -> None:
    app.command()(info)
