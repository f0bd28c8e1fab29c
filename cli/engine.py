"""``pdn engine hub``: the built-in engine (replay/engine/_search.c) as a Hub engine on stdin
and stdout, for programs that speak the Hub protocol (docs/engines.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from .command import PdnTyper
from .common import fail
from .options import LangOption, words_for

engine_app = PdnTyper(name="engine", help="The built-in engine.", no_args_is_help=True)


@engine_app.command()
def hub(
    variant: Annotated[str, typer.Option(
        "--variant", metavar="NAME", help="The variant it plays until told another "
        "(set-param name=variant).")] = "international",
    lang: LangOption = None,
) -> None:
    """Speak the second Hub protocol (Scan 3.x's protocol.txt, as dame-rs does) on stdin and
    stdout: hub, set-param, init, pos, level, go, stop, ping, quit. The protocol stays
    English; an error that stops the engine before it starts speaks --lang's language."""
    from replay.engine.limits import EngineError
    from replay.engine.server import serve
    from replay.rules.variants import get_variant

    words_for(lang)
    try:
        get_variant(variant)
        serve(variant)
    except (KeyError, ValueError, EngineError) as error:
        fail(str(error))


def register(app: typer.Typer) -> None:
    app.add_typer(engine_app)
