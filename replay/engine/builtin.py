"""The built-in engine: an alpha-beta search on the native rules core (``replay/engine/_search.c``,
the extension ``replay.engine._search``) as a player.

It plays every variant the native core takes (all but Canadian's 12x12 board) and has the
Hub client's face: ``play(board, limit)`` gives a ``PlayResult``, ``analyse(board, limit)``
an ``Info`` (score from the mover's side in centi-men, a won or lost end as ``Score.mate``
in plies, the same units as a Hub engine's; depth, nodes, seconds, the principal line).
``stop()`` ends a running search from another thread; the move is then the first of the
last completed iteration. docs/engines.md says how it searches and evaluates.

>>> score_of(9997), score_of(-35)
(Score(centi=9997, mate=3), Score(centi=-35, mate=None))
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from pdn.i18n import N_
from replay.engine.limits import EngineError, Info, Limit, PlayResult, Score
from replay.engine.lines import several_lines
from replay.record.board import Board
from replay.rules.move import Move
from replay.rules.native import NativeRules, extension, rules_for
from replay.rules.position import RestrictedPosition
from replay.rules.variants import CANNOT_MOVE_WINS, FIRST_KING_WINS, Variant, get_variant

NAME = "pdn builtin"
SEARCH = "replay.engine._search"  # the extension that searches
MATE = 10000        # a won end n plies away scores MATE - n (replay/engine/_search.c)
MATE_FROM = 9000
MAX_DEPTH = 94      # the search's own bound (S_MAXPLY - 2)
MOVES_TO_GO = 30    # a clock's time is shared out over this many moves
MAN = 100
FLYING_KING = 300   # a king that flies is worth three men
SHORT_KING = 150    # one that steps (English, Italian, ...), a man and a half
FAMILIES = {CANNOT_MOVE_WINS: 1, FIRST_KING_WINS: 2}  # else 0: the classic games


def score_of(centi: int) -> Score:
    """The search's score as a ``Score``: centi-men, with ``mate`` set past ``MATE_FROM``."""
    if abs(centi) > MATE_FROM:
        plies = MATE - abs(centi)
        return Score(centi=centi, mate=plies if centi > 0 else -plies)
    return Score(centi=centi)


def king_value(variant: Variant) -> int:
    """A king's worth in centi-men in the evaluation."""
    return FLYING_KING if variant.flying_kings else SHORT_KING


def budget(limit: Limit) -> float:
    """Milliseconds the search may take (0: no bound): ``movetime``, else a share of the
    clock's ``time`` (a thirtieth, less a margin for the answer)."""
    if limit.movetime is not None:
        return max(1.0, limit.movetime * 1000)
    if limit.time is not None:
        return max(1.0, limit.time * 1000 / MOVES_TO_GO - 5)
    return 0.0


class BuiltinEngine:
    """The built-in engine for one variant (a ``Variant`` or its name). Raises
    ``EngineError`` for a variant the native core does not take or where it is not built."""

    def __init__(self, variant: Variant | str = "international") -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self._native = extension(SEARCH)
        if self._native is None:
            raise EngineError(N_("the built-in engine needs the native rules core, which is "
                                 "not built here (PDN_PURE_PYTHON, no C compiler): give an "
                                 "external engine (--engine-cmd)"))
        rules = rules_for(self.variant)
        if rules is None:
            raise EngineError(N_("the built-in engine does not play {variant}: its board has "
                                 "more squares than the native core takes (64)").format(
                                     variant=self.variant.name))
        self.rules: NativeRules = rules
        self.name = NAME
        self.author = "pdn-toolkit"
        self._stop = bytearray(1)
        self._lock = threading.Lock()

    def stop(self) -> None:
        """Ask a running search to end now (any thread)."""
        self._stop[0] = 1

    def arm(self) -> None:
        """Clear an earlier ``stop()``: before a search started with ``fresh=False``, so that
        a ``stop()`` coming before that search begins still ends it."""
        self._stop[0] = 0

    def quit(self) -> None:
        """Nothing to close: the search runs in this process."""

    close = quit

    def __enter__(self) -> BuiltinEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<BuiltinEngine {self.variant.name}>"

    def search(self, board: Board, limit: Limit,
               on_info: Callable[[Info], object] | None = None, fresh: bool = True) -> Info:
        """Search ``board`` within ``limit``; ``on_info`` gets each completed depth's
        ``Info``. The last ``Info`` is returned (its ``pv`` empty when there is no move).
        ``fresh``: an earlier ``stop()`` is forgotten (else see ``arm``)."""
        if board.variant.name != self.variant.name:
            raise EngineError(f"engine {self.name} was started for {self.variant.name}, "
                              f"not {board.variant.name}")
        p = board.position
        streaks = p.streaks if isinstance(p, RestrictedPosition) else None
        history = [(s.white, s.black, s.kings, s.turn) for s in board._states]
        depth = MAX_DEPTH if limit.depth is None else max(1, min(MAX_DEPTH, limit.depth))
        callback = None
        if on_info is not None:
            def callback(d: int, centi: int, nodes: int, seconds: float, pv: list) -> None:
                on_info(Info(score_of(centi), d, nodes, seconds, self._line(pv)))
        with self._lock:
            if fresh:
                self._stop[0] = 0
            pv, centi, done, nodes, seconds = self._native.search(
                self.rules.core, p.white, p.black, p.kings, p.turn, streaks, history, depth,
                limit.nodes or 0, budget(limit), self._stop, callback,
                FAMILIES.get(self.variant.win_rule, 0), MAN, king_value(self.variant))
        return Info(score_of(centi), done or None, nodes, seconds, self._line(pv))

    def _line(self, fields: list) -> list[Move]:
        return [self.rules._move(f) for f in fields]

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> Info | list[Info]:
        """The engine's view of ``board``: score from the mover's side, depth, nodes, time
        and line. With ``multipv`` above 1 a list of that many lines, best first
        (``replay.engine.lines``: each move's position searched one ply less deep)."""
        if not board.legal_moves():
            raise EngineError(f"the position {board.fen()} has no legal move to search")
        if multipv > 1:  # one stop() ends every search of the lines
            self.arm()
            return several_lines(board, lambda b, bound: self.search(b, bound, fresh=False), limit,
                                 multipv)
        return self.search(board, limit)

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move (``None`` when it has none) and its ``Info``."""
        info = self.search(board, limit)
        if not info.pv:
            return PlayResult(None, None, info)
        return PlayResult(info.pv[0], info.pv[1] if len(info.pv) > 1 else None, info)


__all__ = ["NAME", "BuiltinEngine", "budget", "score_of"]
