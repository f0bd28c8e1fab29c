"""PDN notation: reading, writing, squares and FEN, with no rules of play.

>>> import pdn
>>> games = list(pdn.read_games('[Event "x"]\\n1. c3-d4 f6-g5 *'))
>>> games[0].tags["Event"], [p.record.text for p in games[0].moves.plies]
('x', ['c3-d4', 'f6-g5'])
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from pdn import compiled

# Before any module of the rules core is imported: a compiled module older than its source,
# or PDN_PURE_PYTHON=1, makes the core load from its .py files (pdn.compiled).
compiled.install()

if TYPE_CHECKING:
    from pdn.game import Game
    from pdn.reader import PdnText, read_game, read_games, read_headers, visit_games
    from pdn.writer import write_game, write_games

# Imported on first use, so that a command that needs none of them (``pdn --help``, whose
# command line lives in pdn.cli) does not load the grammar.
_HOMES = {"Game": "pdn.game", "PdnText": "pdn.reader", "read_game": "pdn.reader",
          "read_games": "pdn.reader", "read_headers": "pdn.reader",
          "visit_games": "pdn.reader", "write_game": "pdn.writer", "write_games": "pdn.writer"}

__all__ = ["Game", "PdnText", "read_game", "read_games", "read_headers", "visit_games",
           "write_game", "write_games"]


def __getattr__(name: str) -> object:
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'pdn' has no attribute '{name}'")
