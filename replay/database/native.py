"""The database's native part (``replay/database/_positions.c``, the extension
``replay.database._positions``) behind a Python face: a main line's keys, rows and moves in
one call, the tally of the moves played from each position, a compact set of keys and the
pattern planes of the positions written. They work on the native rules core's rules
(``replay.rules.native``); where that core or this part is not used here (not built,
``PDN_PURE_PYTHON``, a build older than its sources) ``index_line``, ``tally`` and ``planes``
say None, ``key_set`` gives a Python set, and the database walks its games in Python and
reads its planes back from the table, with the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.rules.native import NativeRules, extension
from replay.rules.position import Position

MODULE = "replay.database._positions"


def index_line(rules: NativeRules, position: Position, texts: Sequence[str], layout: tuple,
               seen: set[int] | object | None
               ) -> tuple[int, Position, list[int], list[tuple], str] | None:
    """``NativeRules.replay_line`` for the game database: how many moves it replayed, the
    position after them, the key of each position from ``position`` on, the ``positions`` row
    of each key not in ``seen`` (a set or a ``KeySet``, added to), and the moves as the
    database writes them; ``layout``: ``replay.database.keys.Coder.layout``. None where this
    part is not used, these rules are replayed by Python or ``position`` is no position of
    the board."""
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


class PythonKeySet(set):
    """``KeySet`` where the native part is not used: a set of ints with its ``fresh``."""

    def fresh(self, rows: list[tuple]) -> list[tuple]:
        """The rows whose key (first item) the set did not hold, in order; their keys added."""
        return [row for row in rows if not (row[0] in self or self.add(row[0]))]


def key_set() -> PythonKeySet:
    """An empty set of position keys: the native ``KeySet`` (8 bytes a slot, looked up by
    ``index_line`` without a Python call) where this part is used, else ``PythonKeySet``."""
    module = extension(MODULE)
    return PythonKeySet() if module is None else module.KeySet()


def planes() -> object | None:
    """An empty native maker of the pattern planes of positions as they are written
    (``replay.database.planes``), or None where this part is not used."""
    module = extension(MODULE)
    return None if module is None else module.Planes()


def tally() -> object | None:
    """An empty tally of the moves played from each position (``replay.database.played``),
    or None where this part is not used."""
    module = extension(MODULE)
    return None if module is None else module.Tally()
