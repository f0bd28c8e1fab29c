"""Converting records between notations: the library behind ``pdn convert``.

- ``games``: one game rewritten in a target notation (``convert_game``, ``convert_text``,
  ``render``), with every move checked on the board;
- ``sources``: whole sources converted on a runner, game by game, in file order.

>>> from replay.convert import Target, convert_text
>>> convert_text("1. cd4 fg5 *", target=Target("numeric")).splitlines()[-2]
'1. 22-18 11-16 *'
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
