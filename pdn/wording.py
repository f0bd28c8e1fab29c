"""How numbers and counts are written in messages: one style for every command.

Every quantity has thousands separators, and a count names its noun in the singular for one
and in the plural otherwise. Identifiers (game numbers, years, line numbers) are not counts.

>>> count(1, "file"), count(22621, "game"), count(2, "ply"), count(0, "move")
('1 file', '22,621 games', '2 plies', '0 moves')
>>> number(78241.4), number(0.5)
('78,241', '0')
"""

from __future__ import annotations

_PLURALS = {"ply": "plies", "copy": "copies"}


def number(value: float) -> str:
    """A quantity with thousands separators, rounded to a whole number."""
    return f"{round(value):,}"


def plural(noun: str, value: float = 2) -> str:
    """The noun as it goes with ``value``: singular for exactly one, else its plural."""
    if value == 1:
        return noun
    head, _, last = noun.rpartition(" ")
    word = _PLURALS.get(last) or (last + "es" if last.endswith(("s", "x", "ch", "sh"))
                                  else last + "s")
    return f"{head} {word}" if head else word


def count(value: float, noun: str) -> str:
    """``1 game``, ``22,621 games``: the number and its noun."""
    return f"{number(value)} {plural(noun, value)}"
