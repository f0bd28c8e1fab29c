"""The engine behind the analysis board's "Evaluate": the built-in engine
(``replay.engine.builtin``, in this process) unless ``pdn serve --engine-cmd`` names a Hub
engine (``replay.engine.hub``), one per variant, started for the board's own variant on
the first request of that variant. One search at a time, bounded in time: a new request
or ``stop`` ends the running one, and ``close`` stops them all when the server stops. A
variant the engine does not play is refused with the engine's own words, and not asked
again. The answer is the best line and, with the built-in engine, the other best moves'
lines below it (multi-PV).
"""

from __future__ import annotations

import threading

from pdn.i18n import N_
from replay.engine.builtin import BuiltinEngine
from replay.engine.hub import HubEngine, popen_hub
from replay.engine.limits import EngineError, Info, Limit, VariantRefused
from replay.engine.lines import several_lines
from replay.record.board import Board

SEARCH_SECONDS = 1.0
LINES = 3  # the best line and two others
BUILTIN_SOURCE = "built-in (pdn)"


class Engines:
    """The engines of the desk, by variant: the built-in one (``command`` None) or those
    started for the Hub command ``command`` (``"dame hub"``)."""

    def __init__(self, command: str | None = None, seconds: float = SEARCH_SECONDS,
                 lines: int = LINES) -> None:
        self.command, self.seconds, self.lines = command, seconds, lines
        self.running: dict[str, BuiltinEngine | HubEngine] = {}
        self.refused: dict[str, str] = {}  # variant → why the engine does not play it
        self.lock = threading.Lock()       # one search at a time
        self.state = threading.Lock()      # guards ``running``, ``searching``, ``closed``
        self.searching: BuiltinEngine | HubEngine | None = None
        self.closed = False

    @property
    def source(self) -> str:
        """Where the engine comes from, in words: ``built-in (pdn)`` or the command."""
        return BUILTIN_SOURCE if self.command is None else self.command

    def evaluate(self, board: Board) -> dict:
        """The engine's score (White's view, in pieces), depth and best line from
        ``board``, and ``lines``: the best moves' lines, best first; raises EngineError
        when it cannot say. A search running already is stopped first."""
        if not self.lock.acquire(blocking=False):
            self.stop()
            self.lock.acquire()
        try:
            engine = self._engine(board.variant.name)
            with self.state:
                self.searching = engine
            try:
                best, lines = self._search(engine, board)
            finally:
                with self.state:
                    self.searching = None
        finally:
            self.lock.release()
        return {"engine": engine.name, "source": self.source, **_shown(best, board),
                "lines": [_shown(info, board) for info in lines]}

    def _engine(self, name: str) -> BuiltinEngine | HubEngine:
        with self.state:
            if self.closed:
                raise EngineError(N_("the server is stopping"))
            if name in self.refused:
                raise VariantRefused(self.refused[name])
            engine = self.running.get(name)
            if isinstance(engine, HubEngine) and engine.process.poll() is not None:
                engine.close()  # ended: waited for, its guard let go
                del self.running[name]
                engine = None
            if engine is None:
                try:
                    engine = self.running[name] = self._start(name)
                except EngineError as error:
                    self.refused[name] = N_("no engine for {variant}: {reason}").format(
                        variant=name, reason=error)
                    raise VariantRefused(self.refused[name]) from None
            return engine

    def _start(self, name: str) -> BuiltinEngine | HubEngine:
        if self.command is None:
            return BuiltinEngine(name)
        return popen_hub(self.command, variant=name)

    def _search(self, engine: BuiltinEngine | HubEngine, board: Board) -> tuple[Info, list[Info]]:
        """The best line within the time given; with the built-in engine, then the other
        moves' lines, one ply less deep, within the same time shared out among the moves
        (a Hub engine gives its one line: the protocol has no multi-PV, and a search per
        move would take a Hub engine's whole clock many times over)."""
        if isinstance(engine, HubEngine):
            found = engine.analyse(board, Limit(time=self.seconds))
            assert isinstance(found, Info)
            return found, [found]
        engine.arm()
        best = engine.search(board, Limit(movetime=self.seconds), fresh=False)
        moves = len(board.legal_moves())
        if self.lines <= 1 or moves <= 1 or not best.pv:
            return best, [best]

        def one(after: Board, limit: Limit) -> Info:
            return engine.search(after, limit, fresh=False)

        share = Limit(depth=best.depth, movetime=self.seconds / moves)
        others = [info for info in several_lines(board, one, share, self.lines)
                  if info.pv[0] != best.pv[0]][:self.lines - 1]
        return best, [best, *others]

    def stop(self) -> None:
        """End the running search now (its answer is what it found so far)."""
        with self.state:
            if self.searching is not None:
                self.searching.stop()

    def close(self) -> None:
        """Stop every engine started (and refuse new searches)."""
        with self.state:
            self.closed = True
        self.stop()
        with self.state:
            for engine in self.running.values():
                engine.close()
            self.running.clear()


def _shown(info: Info, board: Board) -> dict:
    """One line as the page shows it: score from White's side, depth, moves as text."""
    line, pv = board.copy(), []
    for move in info.pv:
        pv.append(line.text(move))
        line.push(move)
    return {"score": _score(info, board), "depth": info.depth, "pv": pv}


def _score(info: Info, board: Board) -> str | None:
    """``+0.35`` or ``#-3`` from White's side (the engine scores for the side to move)."""
    from replay.rules.movegen import WHITE

    score = info.score
    if score is None:
        return None
    sign = 1 if board.turn == WHITE else -1
    if score.mate is not None:
        return f"#{sign * score.mate:+d}".replace("+", "")
    return f"{sign * (score.centi or 0) / 100:+.2f}"


__all__ = ["BUILTIN_SOURCE", "SEARCH_SECONDS", "EngineError", "Engines"]
