"""The ``pdn`` command line: one module per command, registered here.

Command modules import only the standard library and our light modules at import time;
heavy libraries (pandas, matplotlib, dask) are imported inside the commands that need them,
so that ``pdn --help`` stays fast.
"""

from __future__ import annotations

import typer

from . import archive, cat, convert, database, info, moves, perft, show, stats, validate, view

app = typer.Typer(
    name="pdn",
    help="Read, validate, convert and analyse draughts game records (PDN and scoresheets).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
for module in (validate, convert, stats, info, cat, show, view, moves, perft, archive,
               database):
    module.register(app)


def main() -> None:
    """Console-script entry point."""
    app()
