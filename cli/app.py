"""The ``pdn`` command line: one module per command, registered here.

Command modules import only the standard library and our light modules at import time;
heavy libraries (pandas, matplotlib, dask) and the rules core are imported inside the
commands that need them, so that ``pdn --help`` stays fast (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

import copy
import sys
from typing import Annotated

import typer

from . import (
    analyse,
    archive,
    cat,
    convert,
    database,
    engine,
    explore,
    info,
    match,
    moves,
    perft,
    serve,
    show,
    standings,
    stats,
    validate,
    view,
)
from .command import PdnTyper
from .common import EXIT_STATUS_HELP

app = PdnTyper(
    name="pdn",
    help="Read, validate, convert and analyse draughts game records (PDN and scoresheets).",
    epilog=EXIT_STATUS_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich's formatter costs more than the rest of --help
)
for module in (validate, convert, stats, info, cat, show, view, moves, perft, archive,
               database, explore, standings, analyse, match, serve, engine):
    module.register(app)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        from pdn.compiled import build

        typer.echo(f"pdn-toolkit {version('pdn-toolkit')} (rules core: {build()})")
        raise typer.Exit()


@app.callback()
def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and the build of the rules core (compiled or pure Python)."
        )] = False) -> None:
    pass


def command_app(args: list[str]) -> typer.Typer:
    """The app that runs ``pdn ARGS``: when they name one command (``pdn validate ...``), the
    app with that command alone, so that typer builds only its click command (building all
    of them costs a short command a sixth of its start-up); else the whole app (``pdn``,
    ``pdn --help``, a group such as ``pdn engine``, a name that is no command)."""
    from typer.main import get_command_name

    name = args[0] if args else ""
    named = [info for info in app.registered_commands
             if (info.name or get_command_name(info.callback.__name__)) == name]
    if len(named) != 1:
        return app
    one = copy.copy(app)  # the same settings and --version callback
    one.registered_commands, one.registered_groups = named, []
    return one


def main() -> None:
    """Console-script entry point."""
    from .common import guard_stdout
    from .signals import exit_on_sigterm

    exit_on_sigterm()
    guard_stdout()
    command_app(sys.argv[1:])()
