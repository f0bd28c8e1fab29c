"""Several lines from one position (multi-PV) for an engine that gives one: neither Hub
protocol nor the built-in search has several lines, so each legal move's position is
searched one ply less deep (or within the same bounds) and the best are kept, best first.
"""

from __future__ import annotations

from collections.abc import Callable

from replay.engine.limits import Info, Limit, Score
from replay.record.board import Board


def several_lines(board: Board, analyse: Callable[[Board, Limit], Info], limit: Limit,
                  count: int) -> list[Info]:
    """The ``count`` best lines of ``board``, each an ``Info`` whose ``pv`` starts with the
    root move and whose score is from the mover's side; ``analyse`` searches one position."""
    child_limit = limit if limit.depth is None else Limit(
        depth=max(1, limit.depth - 1), nodes=limit.nodes, time=limit.time,
        movetime=limit.movetime)
    lines: list[tuple[float, Info]] = []
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        if not after.legal_moves():
            score, reply = Score(centi=None, mate=1), Info(pv=[])
        else:
            reply = analyse(after, child_limit)
            score = negated(reply.score)
        info = Info(score=score, depth=reply.depth, nodes=reply.nodes, time=reply.time,
                    pv=[move, *reply.pv])
        lines.append((order(score), info))
    lines.sort(key=lambda pair: -pair[0])
    best = [info for _, info in lines[:count]]
    for number, info in enumerate(best, 1):
        info.multipv = number
    return best


def negated(score: Score | None) -> Score | None:
    """``score`` from the other side."""
    if score is None:
        return None
    mate = None if score.mate is None else -score.mate
    return Score(centi=None if score.centi is None else -score.centi, mate=mate)


def order(score: Score | None) -> float:
    """A number that sorts scores from the mover's side: quick wins first, slow losses
    before quick ones."""
    if score is None:
        return float("-inf")
    if score.mate is not None:
        return (1e9 - abs(score.mate)) * (1 if score.mate > 0 else -1)
    return float(score.centi or 0)


__all__ = ["negated", "order", "several_lines"]
