"""The values shared by every engine protocol: how long to search, what came back."""

from __future__ import annotations

from dataclasses import dataclass, field

from replay.rules.move import Move


class EngineError(RuntimeError):
    """An engine failed: it died, did not answer in time, or sent a message we cannot use
    (an illegal move among them). The message says which engine and what it sent."""


class VariantRefused(EngineError):
    """An engine that does not play the variant it was to be started for (a Hub engine's
    fixed set of variants, the built-in engine and Canadian's board): a fact of the engine,
    so every game of that variant would meet it."""


@dataclass(frozen=True)
class Limit:
    """How long a search may run; ``None`` leaves a bound unset. ``time`` is the time left on
    the mover's clock (seconds), ``movetime`` the time for this move (seconds)."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    movetime: float | None = None


@dataclass(frozen=True)
class Score:
    """An evaluation from the mover's side: ``centi`` in the engine's centi-man units, or
    ``mate`` plies to a won (positive) or lost (negative) end, as the protocol gives it."""

    centi: int | None = None
    mate: int | None = None


@dataclass
class Info:
    """What an engine reported about one search line."""

    score: Score | None = None
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    pv: list[Move] = field(default_factory=list)
    multipv: int = 1


@dataclass(frozen=True)
class PlayResult:
    """The engine's move (``None`` when it has none to play) and what it thought of it."""

    move: Move | None
    ponder: Move | None = None
    info: Info | None = None
