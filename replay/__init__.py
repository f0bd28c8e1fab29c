"""Rules of play: variants, move generation, replay, notation, statistics and outputs.

The public API, after python-chess: ``replay_game`` replays a ``pdn.Game`` into a game tree
(``mainline()`` gives a ``GameNode`` per move, each with its variations), and ``Board``
holds a position with its legal moves, text in every notation, ``push``/``pop`` and the
outcome; ``stats_tables`` and ``write_table`` make the pandas tables of whole archives.

>>> import pdn, replay
>>> game = next(pdn.read_games("1. cd4 fg5 2. dc5 (2. gh4) bd4 *"))
>>> tree = replay.replay_game(game, "russian")
>>> str(tree.status), [node.text("full") for node in tree.mainline()]
('valid', ['c3-d4', 'f6-g5', 'd4-c5', 'b6:d4'])
>>> board = replay.Board(variant="russian")
>>> board.push_text("22-18")
Move('c3-d4')
>>> board.push_text("fg5"); str(board.pop())
Move('f6-g5')
'f6-g5'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from pdn import compiled
from replay import _moved

compiled.install()  # before any module of the rules core (see pdn/__init__.py)
_moved.install()  # the old paths of the modules now in rules/, record/ and reference/

if TYPE_CHECKING:
    from replay.record.board import Board, Outcome
    from replay.record.editing import EditableGame, MoveNode
    from replay.record.replayer import Problem, ReplayedGame, Status, replay_game
    from replay.record.tree import GameNode, Variation
    from replay.rules.move import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Move
    from replay.rules.numbering import MoveNumbering
    from replay.rules.variants import Variant, get_variant, variant_names
    from replay.stats import stats_tables, write_table

    GameTree = ReplayedGame

# Imported on first use, so that importing one submodule (as every command does) does not
# load the replayer and the grammar (nor pandas, for the tables).
_HOMES = {
    "Board": "replay.record.board", "Outcome": "replay.record.board",
    "EditableGame": "replay.record.editing", "MoveNode": "replay.record.editing",
    "AmbiguousMoveError": "replay.rules.move", "IllegalMoveError": "replay.rules.move",
    "InvalidMoveError": "replay.rules.move", "Move": "replay.rules.move",
    "MoveNumbering": "replay.rules.numbering",
    "Problem": "replay.record.replayer", "ReplayedGame": "replay.record.replayer",
    "Status": "replay.record.replayer", "replay_game": "replay.record.replayer",
    "stats_tables": "replay.stats", "write_table": "replay.stats",
    "GameNode": "replay.record.tree", "Variation": "replay.record.tree",
    "Variant": "replay.rules.variants", "get_variant": "replay.rules.variants",
    "variant_names": "replay.rules.variants",
}


def __getattr__(name: str) -> object:
    if name == "GameTree":  # the name the API gives a replayed game
        name = "ReplayedGame"
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'replay' has no attribute '{name}'")


__all__ = [
    "AmbiguousMoveError",
    "Board",
    "EditableGame",
    "GameNode",
    "GameTree",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveNode",
    "MoveNumbering",
    "Outcome",
    "Problem",
    "ReplayedGame",
    "Status",
    "Variant",
    "Variation",
    "get_variant",
    "replay_game",
    "stats_tables",
    "variant_names",
    "write_table",
]
