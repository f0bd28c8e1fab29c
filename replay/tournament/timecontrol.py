"""Time controls and flag falls.

The ``TimeControl`` tag in PGN's forms (``docs/tournaments.md``): periods joined by ``:``,
each ``MOVES/SECONDS`` (that many moves in that time), ``SECONDS`` (the rest of the game),
``SECONDS+INCREMENT`` (the rest of the game, an increment after every move) or
``*SECONDS`` (a sandglass); ``?`` unknown, ``-`` none. The multi-period controls of the
FMJD and of the Russian code are written that way: "2 hours for 50 moves, then 1 hour for
every 25 moves" is ``50/7200:25/3600`` (a last ``MOVES/SECONDS`` period repeats), "45
minutes for 20 moves and 15 minutes to the end" ``20/2700:900``.

With clocks in the movetext (``[%clock]``/``[%clk]``: the times left after the move), a
side whose clock reads 0 has let its flag fall: at that move when it just moved, else on
its next move;
a player who exceeds the time loses (the Russian code), so a result that is not that
player's loss is flagged for the arbiter.

>>> [(p.moves, p.seconds) for p in parse_time_control("40/7200:3600").periods]
[(40, 7200.0), (None, 3600.0)]
>>> str(parse_time_control("45/5400:30/1800"))
'45 moves in 90 min, then 30 moves in 30 min (repeated)'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pdn.game import Game
from pdn.i18n import N_


class TimeControlError(ValueError):
    """A TimeControl tag in none of the forms."""


@dataclass(frozen=True)
class Period:
    """``moves`` in ``seconds`` (None: the rest of the game), ``increment`` after each move;
    ``sandglass``: the time flows back to the side not moving."""

    moves: int | None
    seconds: float
    increment: float = 0.0
    sandglass: bool = False

    def __str__(self) -> str:
        return self.said()

    def said(self, say: Callable[[str], str] = str) -> str:
        """The period in words, each put into a language by ``say`` (a catalog's gettext)."""
        time = _duration(self.seconds, say)
        if self.sandglass:
            return say(N_("sandglass {time}")).format(time=time)
        where = (say(N_("{moves} moves in {time}")).format(moves=self.moves, time=time)
                 if self.moves else say(N_("{time} to the end")).format(time=time))
        if not self.increment:
            return where
        return say(N_("{period} + {seconds} s a move")).format(period=where,
                                                               seconds=f"{self.increment:g}")


def _duration(seconds: float, say: Callable[[str], str] = str) -> str:
    if seconds >= 60 and seconds % 60 == 0:
        return say(N_("{value} min")).format(value=f"{seconds / 60:g}")
    return say(N_("{value} s")).format(value=f"{seconds:g}")


UNREAD_CONTROLS = {"?": N_("unknown"), "-": N_("no time control")}


@dataclass(frozen=True)
class TimeControl:
    """A time control: its periods in order (empty: none, or unknown)."""

    periods: tuple[Period, ...]
    text: str = ""

    def __str__(self) -> str:
        return self.said()

    def said(self, say: Callable[[str], str] = str) -> str:
        """The time control in words, each put into a language by ``say``."""
        if not self.periods:
            return say(UNREAD_CONTROLS[self.text]) if self.text in UNREAD_CONTROLS else self.text
        words = say(N_(", then ")).join(period.said(say) for period in self.periods)
        return say(N_("{periods} (repeated)")).format(periods=words) if self.periods[
            -1].moves else words

    def base(self) -> float | None:
        """The time on each clock at the start."""
        return self.periods[0].seconds if self.periods else None


_PERIOD = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<sand>\*)?(?P<secs>\d+(?:\.\d+)?)"
                     r"(?:\+(?P<inc>\d+(?:\.\d+)?))?$")


def parse_time_control(text: str | None) -> TimeControl:
    """The TimeControl tag's periods; raises TimeControlError for another form."""
    value = (text or "").strip()
    if value in ("", "?", "-"):
        return TimeControl((), value or "?")
    periods = []
    for part in value.split(":"):
        match = _PERIOD.match(part.strip())
        if not match or (match["sand"] and (match["moves"] or match["inc"])):
            raise TimeControlError(N_("TimeControl '{value}': '{part}' is none of "
                                      "MOVES/SECONDS, SECONDS, SECONDS+INCREMENT, *SECONDS"
                                      ).format(value=value, part=part))
        periods.append(Period(int(match["moves"]) if match["moves"] else None,
                              float(match["secs"]), float(match["inc"] or 0),
                              bool(match["sand"])))
    if any(p.moves is None for p in periods[:-1]):
        raise TimeControlError(N_("TimeControl '{value}': only the last period can be for "
                                  "the rest of the game").format(value=value))
    return TimeControl(tuple(periods), value)


@dataclass(frozen=True)
class FlagFall:
    """A clock at 0 after a move: the game, the move (number and side), the result."""

    game: int
    move: int
    white: bool
    result: str
    contradicted: bool

    def what(self) -> str:
        """The fall in words, without the game's number."""
        if self.white:
            fell = (N_("White's flag fell at move {move} (clock 0:00); the result {result} is "
                       "not White's loss") if self.contradicted else
                    N_("White's flag fell at move {move} (clock 0:00)"))
        else:
            fell = (N_("Black's flag fell at move {move}... (clock 0:00); the result {result} "
                       "is not Black's loss") if self.contradicted else
                    N_("Black's flag fell at move {move}... (clock 0:00)"))
        return fell.format(move=self.move, result=self.result)

    def __str__(self) -> str:
        return N_("game {number}: {reason}").format(number=self.game, reason=self.what())


def flag_fall(game: Game, number: int, outcome: str) -> FlagFall | None:
    """The first move after which the mover's clock reads 0 (``outcome`` as
    ``normalise_result`` gives it), else None."""
    plies = game.moves.plies
    if not plies:
        return None
    fen = (game.tags.get("FEN") or "").strip().upper()
    first_black = plies[0].black_number or fen.startswith("B")
    first_number = plies[0].number or 1
    for index, ply in enumerate(plies):
        reading = ply.clock
        if reading is None:
            continue
        mover = (index % 2 == 0) != first_black
        for white in (mover, not mover):
            named = reading.white if white else reading.black
            left = named if named is not None else (reading.left if white == mover else None)
            if left is None or left > 0:
                continue
            # the mover's clock ran out in this move; the other's while on its next move
            ply_index = index + (white != mover)
            loss = "black" if white else "white"
            return FlagFall(number, first_number + (ply_index + first_black) // 2, white,
                            game.headers_result or "*",
                            outcome not in (loss, "unknown"))
    return None


def flag_falls(games: Sequence[Game], outcomes: Sequence[str]) -> list[FlagFall]:
    """The flag falls of the games (numbered from 1), in order."""
    found = []
    for number, (game, outcome) in enumerate(zip(games, outcomes, strict=True), 1):
        fall = flag_fall(game, number, outcome)
        if fall is not None:
            found.append(fall)
    return found


__all__ = ["FlagFall", "Period", "TimeControl", "TimeControlError", "flag_fall", "flag_falls",
           "parse_time_control"]
