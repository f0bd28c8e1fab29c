"""``pdn serve``: the arbiter's desk and an analysis board in the browser (docs/serve.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import fail
from .options import (
    IgnoreGameTypeOption,
    NoForcedCaptureOption,
    RulesOption,
    UntaggedVariantOption,
    check_engine,
    variant_choice,
)
from .sources import STDIN, SourceError, collect_sources


def serve(
    paths: Annotated[list[str] | None, typer.Argument(
        help="PDN files or directories to put on the desk (more can be uploaded).",
        show_default=False)] = None,
    database: Annotated[Path | None, typer.Option(
        "--database", metavar="DB", help="A database made by pdn index: the explorer "
        "panel beside the board.", show_default=False)] = None,
    engine: Annotated[str, typer.Option(
        "--engine", metavar="ENGINE", help="The engine of the Evaluate button: builtin "
        "(pdn's own), hub (give --engine-cmd) or none.")] = "builtin",
    engine_cmd: Annotated[str | None, typer.Option(
        "--engine-cmd", metavar="CMD", help="A Hub engine (\"dame hub\", \"./scan hub\") "
        "instead of the built-in one: the evaluation and best lines on request.",
        show_default=False)] = None,
    port: Annotated[int, typer.Option("--port", min=0, max=65535,
                                      help="The port (0: any free one).")] = 8000,
    host: Annotated[str, typer.Option(
        "--host", help="The address to listen on; any other than 127.0.0.1 asks for a "
        "token in the address.")] = "127.0.0.1",
    write: Annotated[bool, typer.Option(
        "--write", help="Allow writing an edited file back in place (atomically, the "
        "original kept beside it as FILE.orig).")] = False,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
) -> None:
    """Serve the arbiter's desk on this machine: every game with its status as pdn validate
    gives it, a game's board and moves, the error at its move with the legal moves, the
    repair suggestions applied with one click, moves and tags edited and checked again,
    new games typed move by move, the event's standings and the arbiter's report.

    The first line printed is the address to open, the second the engine (the built-in
    one unless --engine-cmd names a Hub engine). Ctrl-C stops the server and every
    engine it started. Needs the serve extra (Starlette and uvicorn).
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        fail("pdn serve needs Starlette and uvicorn: pip install 'pdn-toolkit[serve]'")
    from replay.serve.app import Settings
    from replay.serve.desk import Desk, DeskError
    from replay.serve.engines import Engines
    from replay.serve.server import serve as run

    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    check_engine(engine, engine_cmd, ("builtin", "hub", "none"))
    engines = None if engine == "none" else Engines(engine_cmd)
    if STDIN in (paths or []):
        fail("pdn serve reads files: name them (or paste the text in the page)")
    try:
        sources = collect_sources(paths or [])
    except SourceError as error:
        fail(str(error))
    if database is not None:
        from replay.database.schema import DatabaseError, open_readonly

        try:
            open_readonly(database).close()
        except DatabaseError as error:
            fail(str(error))
    desk = Desk(choice)
    for source in sources:
        try:
            desk.add_file(source)
        except DeskError as error:
            typer.secho(str(error), err=True, fg="red")
    settings = Settings(write=write, database=database, engines=engines)

    def started(url: str) -> None:
        typer.echo(url)
        typer.echo(f"engine: {engines.source if engines else 'none'}")

    try:
        run(desk, settings, host, port, started)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    except KeyboardInterrupt:
        pass


def register(app: typer.Typer) -> None:
    app.command()(serve)
