"""The ``pdn`` command line: one module per command, registered here.

Command modules import only the standard library and our light modules at import time;
heavy libraries (pandas, matplotlib, dask) and the rules core are imported inside the
commands that need them, so that ``pdn --help`` stays fast (tests/cli/test_cli_startup.py).
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Annotated

import typer

from .command import PdnTyper
from .common import EXIT_STATUS_HELP

# The command modules, in the order the help lists their commands, and the module that
# registers each command: ``pdn NAME ...`` imports that module alone (``command_app``).
MODULES = ("validate", "convert", "stats", "info", "cat", "show", "view", "moves", "perft",
           "archive", "database", "explore", "standings", "analyse", "match", "serve",
           "engine")
COMMAND_MODULES = {
    "validate": "validate", "convert": "convert", "stats": "stats", "info": "info",
    "cat": "cat", "show": "show", "view": "view", "moves": "moves", "perft": "perft",
    "filter": "archive", "dedupe": "archive", "split": "archive", "merge": "archive",
    "clean": "archive", "index": "database", "search": "database", "explore": "explore",
    "standings": "standings", "analyse": "analyse", "match": "match", "serve": "serve",
}  # a group such as ``engine`` is built with the whole app


def build_app(modules: tuple[str, ...] = MODULES) -> PdnTyper:
    """The ``pdn`` app with the commands of ``modules`` (names in ``MODULES``)."""
    built = PdnTyper(
        name="pdn",
        help="Read, validate, convert and analyse draughts game records (PDN and "
             "scoresheets).",
        epilog=EXIT_STATUS_HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # plain help: rich's formatter costs more than the rest of --help
    )
    for name in modules:
        import_module(f"{__package__}.{name}").register(built)
    built.callback()(_options)
    return built


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        from pdn.compiled import build

        typer.echo(f"pdn-toolkit {version('pdn-toolkit')} (rules core: {build()})")
        raise typer.Exit()


def _options(version: Annotated[bool, typer.Option(
        "--version", callback=_print_version, is_eager=True,
        help="Print the version and the build of the rules core (compiled or pure Python)."
        )] = False) -> None:
    pass


_whole: PdnTyper | None = None


def whole_app() -> PdnTyper:
    """The app with every command, built (every command module imported) once."""
    global _whole
    if _whole is None:
        _whole = build_app()
    return _whole


def __getattr__(name: str) -> PdnTyper:
    """``app``: the whole app (``whole_app``), built when first asked for."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return whole_app()


def command_app(args: list[str]) -> typer.Typer:
    """The app that runs ``pdn ARGS``: when they name one command (``pdn validate ...``), an
    app with that command alone, its module alone imported (importing every command module
    cost a short command a tenth of its start-up, and building every click command a sixth);
    else the whole app (``pdn``, ``pdn --help``, a group such as ``pdn engine``, a name that
    is no command)."""
    from typer.main import get_command_name

    name = args[0] if args else ""
    module = COMMAND_MODULES.get(name)
    if module is None:
        return whole_app()
    one = build_app((module,))
    one.registered_commands = [
        info for info in one.registered_commands
        if (info.name or get_command_name(info.callback.__name__)) == name]
    return one


def main() -> None:
    """Console-script entry point."""
    from .common import guard_stdout
    from .signals import exit_on_sigterm

    exit_on_sigterm()
    guard_stdout()
    command_app(sys.argv[1:])()
