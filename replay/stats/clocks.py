"""The moves table's clock and evaluation columns, from the commands in a game's comments.

``clock`` is the mover's time left after the move (``pdn.commands``); ``time_used`` the
move's ``[%emt]`` where written, else the mover's previous clock (the TimeControl tag's base
time before the side's first move) less this one, plus the increment the tag gives; ``eval``
and ``eval_mate`` the ``[%eval]`` as written (lidraughts: pieces, White's point of view).

>>> from pdn.reader import read_games
>>> game = next(read_games('[TimeControl "600+5"]\\n1. 31-26 {[%clock w0:09:50 B0:10:00]} '
...                        '18-22 {[%eval -0.2] [%clock W0:09:50 b0:09:58]} *'))
>>> clock_columns(game.moves.plies, 0, game.tags)
[(590.0, 15.0, None, None), (598.0, 7.0, -0.2, None)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pdn.commands import MARK, time_control
from pdn.model import Ply

# One ply's values: clock, time_used, eval, eval_mate (None where unknown).
Timing = tuple[float | None, float | None, float | None, int | None]


def has_commands(plies: Sequence[Ply]) -> bool:
    """Whether any comment of these plies holds an embedded command (cheap: a substring)."""
    return any(MARK in comment for ply in plies for comment in ply.comments)


def clock_columns(plies: Sequence[Ply], first_side: int, tags: Mapping[str, str]
                  ) -> list[Timing]:
    """Each ply's timing row; ``first_side`` is the side of the first ply (0 White, 1 Black)."""
    base, increment = time_control(tags.get("TimeControl"))
    previous: list[float | None] = [base, base]  # each side's last clock, None once unknown
    rows: list[Timing] = []
    for index, ply in enumerate(plies):
        side = (first_side + index) % 2
        if not ply.comments:
            previous[side] = None
            rows.append((None, None, None, None))
            continue
        reading = ply.clock
        clock = reading.mover(white=side == 0) if reading is not None else None
        used = ply.move_time
        before = previous[side]
        if used is None and clock is not None and before is not None:
            used = before - clock + (increment or 0.0)
            used = used if used >= 0 else None  # a new period of the time control
        previous[side] = clock
        evaluation = ply.eval
        rows.append((clock, used, *(evaluation if evaluation is not None else (None, None))))
    return rows


__all__ = ["Timing", "clock_columns", "has_commands"]
