"""The database's native part (``replay/database/_positions.c``, the extension
``replay.database._positions``) behind a Python face: a main line's keys, rows and moves in
one call, and the tally of the moves played from each position. Both work on the native rules
core's rules (``replay.rules.native``); where that core or this part is not used here (not
built, ``PDN_PURE_PYTHON``, a build older than its sources) ``index_line`` and ``tally`` say
None and the database walks its games in Python, with the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.rules.native import NativeRules, extension
from replay.rules.position import Position

MODULE = "replay.database._positions"


def index_line(rules: NativeRules, position: Position, texts: Sequence[str], layout: tuple,
               seen: set[int] | None) -> tuple[int, Position, list[int], list[tuple], str] | None:
    """``NativeRules.replay_line`` for the game database: how many moves it replayed, the
    position after them, the key of each position from ``position`` on, the ``positions`` row
    of each key not in ``seen`` (added to it), and the moves as the database writes them;
    ``layout``: ``replay.database.keys.Coder.layout``. None where this part is not used,
    these rules are replayed by Python or ``position`` is no position of the board."""
    module = extension(MODULE)
    if module is None or not rules.replays:
        return None
    try:
        plies, _, (white, black, kings, turn), keys, rows, moves = module.index(
            rules.core, position.white, position.black, position.kings, position.turn, texts,
            layout, seen)
    except ValueError:
        return None
    return plies, Position(white, black, kings, turn), keys, rows, moves


def tally() -> object | None:
    """An empty tally of the moves played from each position (``replay.database.played``),
    or None where this part is not used."""
    module = extension(MODULE)
    return None if module is None else module.Tally()
