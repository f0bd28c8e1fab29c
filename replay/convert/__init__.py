"""Converting records between notations: the library behind ``pdn convert``.

- ``games``: one game rewritten in a target notation (``convert_game``, ``convert_text``,
  ``render``), with every move checked on the board;
- ``sources``: whole sources converted on a runner, game by game, in file order.

>>> from replay.convert import convert_text, render
>>> render(convert_text("1. 22-18 11-15 *", target=None), "text").splitlines()[0]
'1. c3-d4 f6-e5'
"""

from replay.convert.games import (
    ConversionError,
    Target,
    TargetError,
    convert_game,
    convert_games,
    convert_text,
    render,
)
from replay.convert.sources import Job, convert_sources

__all__ = ["ConversionError", "Job", "Target", "TargetError", "convert_game", "convert_games",
           "convert_sources", "convert_text", "render"]
