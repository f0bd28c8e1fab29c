"""Small pieces every command shares: the --variant option and error reporting."""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from replay.variants import UnknownVariantError, Variant, get_variant, variant_names

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def parse_variant(text: str) -> Variant:
    """Typer parser for --variant: a name, an alias or a GameType number."""
    try:
        return get_variant(text)
    except UnknownVariantError as error:
        raise typer.BadParameter(str(error)) from None


VariantOption = Annotated[
    Variant,
    typer.Option(
        "--variant", "-v", parser=parse_variant, metavar="VARIANT",
        help=f"Variant name or GameType number ({', '.join(variant_names())}).",
    ),
]


def fail(message: str, code: int = EXIT_UNREADABLE) -> NoReturn:
    """Print an error in red to stderr and exit with ``code``."""
    from rich.console import Console

    Console(stderr=True, highlight=False).print(f"[red]error:[/red] {message}")
    sys.exit(code)
