"""Small pieces every command shares: the --variant option and error reporting."""

from __future__ import annotations

import sys
from typing import Annotated, NoReturn

import typer

from replay.variants import (
    RULE_OPTIONS,
    UnknownRuleError,
    UnknownVariantError,
    Variant,
    get_variant,
    parse_rule,
    variant_names,
)

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


UntaggedVariantOption = Annotated[
    Variant | None,
    typer.Option(
        "--variant", "-v", parser=parse_variant, metavar="VARIANT",
        help="Variant of games without a GameType tag (default: told from each record: "
        "its Variant tag, FEN, squares and moves; see docs/inference.md).",
    ),
]


RulesOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule", "-r", metavar="NAME=VALUE",
        help="Change a rule (repeatable): " + "; ".join(
            f"{o.name}={'|'.join(o.values)}" for o in RULE_OPTIONS.values()) + ".",
    ),
]
NoForcedCaptureOption = Annotated[bool, typer.Option(
    "--no-forced-capture", help="Captures are optional (a house rule; "
    "same as --rule forced-capture=no).")]


def with_rules(variant: Variant, rules: list[str] | None, no_forced_capture: bool = False
               ) -> Variant:
    """The variant with the user's --rule options applied; a usage error if one is bad."""
    try:
        changes = dict(parse_rule(text) for text in rules or [])
        if no_forced_capture:
            changes["forced-capture"] = "no"
        return variant.with_rules(changes) if changes else variant
    except UnknownRuleError as error:
        raise typer.BadParameter(str(error), param_hint="--rule") from None


def fail(message: str, code: int = EXIT_UNREADABLE) -> NoReturn:
    """Print an error in red to stderr and exit with ``code``."""
    from rich.console import Console
    from rich.markup import escape

    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[red]error:[/red] {escape(message)}")
    sys.exit(code)
