"""Commands embedded in comments: clock times, evaluations and move times.

PDN 3.0's extensions (<https://github.com/wiegerw/pdn>, ``doc/extensions.rst``) take PGN's
embedded commands, ``[%COMMAND VALUE]`` anywhere inside a comment: ``[%clk 1:55:21]`` the
time left on the clock of the side that moved, ``[%emt 0:00:12]`` the time the move took
(both ``h:mm:ss``, from the PGN supplement of 2001), and its own ``[%clock w0:00:10
B0:00:03]`` with one or two times, each marked ``w`` or ``b`` for White's or Black's clock,
in capitals for the clock that is running. lidraughts writes ``[%clock ...]`` after every
move, White's time first, the side that moved in lowercase, and an engine's evaluation as
``[%eval 0.35]`` (pieces, from White's point of view) or ``[%eval #-3]`` (a win in 3 moves,
here for Black). docs/notation.md has the forms.

Nothing is parsed while reading: the comment text keeps the commands, the writer writes it
back as it is, and these functions read it when asked (``Ply.clock``, ``Ply.eval``).

>>> clock_of(["[%clock w0:09:57 B0:09:58]"])
Clock(left=597.0, white=597.0, black=598.0)
>>> eval_of(["[%eval #-3] [%clock W0:09:55 b0:09:58]"])
Eval(pieces=None, mate=-3)
>>> without_commands("Good move. [%clk 0:09:57]")
'Good move.'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

MARK = "[%"  # every command starts so: text without it has none
_COMMAND = re.compile(r"\[%(\w+)\s*([^\]]*)\]")
_TIME = re.compile(r"(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$")
_SIDE_TIME = re.compile(r"([wWbB])?(\S+)$")
_EVAL = re.compile(r"(#)?([+-]?\d+(?:\.\d+)?)$")


class Clock(NamedTuple):
    """Clock times after a move, in seconds: ``left`` for the side that moved, and each
    side's where the command names them (None where it does not say)."""

    left: float | None
    white: float | None = None
    black: float | None = None

    def mover(self, white: bool) -> float | None:
        """The mover's time left, told the mover's colour: its side's time where the command
        names sides, else ``left``.

        >>> Clock(597.0, 597.0, 598.0).mover(white=False)
        598.0
        """
        named = self.white if white else self.black
        return named if named is not None else self.left


class Eval(NamedTuple):
    """An evaluation as written: ``pieces`` (from White's point of view, as lidraughts
    writes it) or ``mate``, a win in that many moves (positive for White)."""

    pieces: float | None
    mate: int | None = None


def commands(comments: Iterable[str]) -> dict[str, str]:
    """The commands of a ply's comments, name → value (the last of a name counts)."""
    found: dict[str, str] = {}
    for comment in comments:
        if MARK in comment:
            found.update((m.group(1).lower(), m.group(2).strip())
                         for m in _COMMAND.finditer(comment))
    return found


def seconds(text: str) -> float | None:
    """``h:mm:ss`` or ``m:ss`` (seconds may have a fraction) as seconds; None otherwise."""
    match = _TIME.match(text.strip())
    if match is None:
        return None
    hours, minutes, secs = match.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(secs)


def clock_of(comments: Iterable[str]) -> Clock | None:
    """The clock times a ply's comments give (``%clock``, else ``%clk``), or None."""
    found = commands(comments)
    if "clock" in found:
        return _clock(found["clock"])
    if "clk" in found:
        left = seconds(found["clk"])
        return Clock(left) if left is not None else None
    return None


def _clock(value: str) -> Clock | None:
    """PDN 3.0's ``%clock``: one or two times, each maybe marked w/b (capital: running)."""
    times: dict[str, float] = {}
    running: set[str] = set()
    unmarked: float | None = None
    for word in value.split():
        match = _SIDE_TIME.match(word)
        time = seconds(match.group(2)) if match else None
        if match is None or time is None:
            return None
        letter = match.group(1)
        if letter is None:
            unmarked = time
            continue
        side = "white" if letter in "wW" else "black"
        times[side] = time
        if letter.isupper():
            running.add(side)
    if unmarked is not None and not times:
        return Clock(unmarked)
    stopped = [side for side in times if side not in running]  # the mover's clock stops
    left = times[stopped[0]] if len(stopped) == 1 else unmarked
    return Clock(left, times.get("white"), times.get("black")) if times else None


def eval_of(comments: Iterable[str]) -> Eval | None:
    """The evaluation a ply's comments give (``%eval``), or None."""
    value = commands(comments).get("eval")
    match = _EVAL.match(value.split(",")[0].strip()) if value else None
    if match is None:
        return None
    if match.group(1):
        return Eval(None, int(float(match.group(2))))
    return Eval(float(match.group(2)))


def move_time_of(comments: Iterable[str]) -> float | None:
    """The time the move took (``%emt``), in seconds, or None."""
    value = commands(comments).get("emt")
    return seconds(value) if value else None


def clock_text(seconds_left: float) -> str:
    """A clock time as a clock shows it: ``m:ss``, ``h:mm:ss`` from an hour on.

    >>> clock_text(597.0), clock_text(3923.4)
    ('9:57', '1:05:23')
    """
    whole = int(seconds_left)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def eval_text(evaluation: Eval) -> str:
    """An evaluation as the move list shows it: ``+0.35``, ``-1.20``, ``#3``, ``#-3``."""
    if evaluation.mate is not None:
        return f"#{evaluation.mate}"
    return f"{evaluation.pieces:+.2f}" if evaluation.pieces is not None else ""


def eval_command(evaluation: Eval) -> str:
    """An evaluation as lidraughts and python-chess write it: ``[%eval 0.35]`` (pieces from
    White's point of view, two decimals) or ``[%eval #-3]``.

    >>> eval_command(Eval(0.35)), eval_command(Eval(None, -3)), eval_command(Eval(-1.0))
    ('[%eval 0.35]', '[%eval #-3]', '[%eval -1.00]')
    """
    if evaluation.mate is not None:
        return f"[%eval #{evaluation.mate}]"
    if evaluation.pieces is None:
        raise ValueError("an evaluation needs pieces or mate")
    return f"[%eval {evaluation.pieces:.2f}]"


def clk_command(seconds_left: float) -> str:
    """The mover's time left as the PGN supplement's ``[%clk h:mm:ss]`` (python-chess's
    form; PDN 3.0's extensions take it too), a fraction of a second kept to tenths.

    >>> clk_command(60), clk_command(6921), clk_command(601.75)
    ('[%clk 0:01:00]', '[%clk 1:55:21]', '[%clk 0:10:01.8]')
    """
    if seconds_left < 0:
        raise ValueError(f"a clock cannot show {seconds_left} seconds")
    tenths = round(seconds_left * 10)
    whole, fraction = divmod(tenths, 10)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"[%clk {hours}:{minutes:02d}:{secs:02d}{f'.{fraction}' if fraction else ''}]"


def with_command(comments: list[str], names: Iterable[str], command: str | None) -> list[str]:
    """``comments`` without their commands named ``names`` (a comment left empty goes), and
    ``command`` added to the last comment (or as a comment of its own).

    >>> with_command(["Good move. [%eval 0.1] [%clk 0:09:57]"], ["eval"], "[%eval 0.35]")
    ['Good move. [%clk 0:09:57] [%eval 0.35]']
    >>> with_command(["[%eval 0.1]"], ["eval"], None)
    []
    """
    wanted = {name.lower() for name in names}
    kept: list[str] = []
    for comment in comments:
        if MARK in comment:
            comment = " ".join(_COMMAND.sub(
                lambda m: " " if m.group(1).lower() in wanted else m.group(0), comment).split())
            if not comment:
                continue
        kept.append(comment)
    if command is not None:
        if kept:
            kept[-1] = f"{kept[-1]} {command}"
        else:
            kept.append(command)
    return kept


class CommandsOfComments:
    """``eval``, ``clock``, ``set_eval`` and ``set_clock`` for a move node whose ``comments``
    (the comments after its move, a list edited in place) and ``mover_is_white`` are given,
    as python-chess's ``chess.pgn.GameNode`` has them."""

    __slots__ = ()
    comments: list[str]
    mover_is_white: Callable[[], bool]  # a method of the node: did White play its move?

    def eval(self) -> Eval | None:
        """The evaluation after the move (``[%eval ...]``: pieces from White's point of view,
        or a win in ``mate`` moves, positive for White), or None."""
        return eval_of(self.comments)

    def set_eval(self, evaluation: Eval | float | None) -> None:
        """Write ``evaluation`` (an ``Eval``, or pieces from White's view) as
        ``[%eval ...]`` in the move's comments, in place of any there; None removes it."""
        if isinstance(evaluation, int | float):
            evaluation = Eval(float(evaluation))
        command = None if evaluation is None else eval_command(evaluation)
        self.comments[:] = with_command(self.comments, ["eval"], command)

    def clock(self) -> float | None:
        """The mover's time left after the move, in seconds (``[%clock ...]`` as lidraughts
        writes it, or ``[%clk ...]``), or None."""
        found = clock_of(self.comments)
        return None if found is None else found.mover(self.mover_is_white())

    def set_clock(self, seconds_left: float | None) -> None:
        """Write the mover's time left as ``[%clk h:mm:ss]``, in place of any ``%clk`` or
        ``%clock`` there (a ``%clock`` with both sides' times goes with it); None removes it."""
        command = None if seconds_left is None else clk_command(seconds_left)
        self.comments[:] = with_command(self.comments, ["clk", "clock"], command)


def without_commands(comment: str) -> str:
    """A comment's text without its commands (what a reader is shown), spaces tidied."""
    if MARK not in comment:
        return comment
    return " ".join(_COMMAND.sub(" ", comment).split())


def time_control(text: str | None) -> tuple[float | None, float | None]:
    """PGN's ``TimeControl`` tag as (base seconds, increment seconds): ``600+5`` → (600, 5),
    ``600`` → (600, 0); (None, None) for other forms (``40/7200``, ``?``, ``-``).

    >>> time_control("2700+30")
    (2700.0, 30.0)
    """
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?\s*", text or "")
    if match is None:
        return None, None
    return float(match.group(1)), float(match.group(2) or 0)


__all__ = ["MARK", "Clock", "CommandsOfComments", "Eval", "clk_command", "clock_of",
           "clock_text", "commands", "eval_command", "eval_of", "eval_text", "move_time_of",
           "seconds", "time_control", "with_command", "without_commands"]
