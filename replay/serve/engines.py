"""The engine behind the analysis board's "Evaluate" (``pdn serve --engine-cmd``): one Hub
engine per variant (``replay.engine.hub``), started for the board's own variant on the first
request of that variant, one search at a time, every one of them stopped by ``close`` when
the server stops. A variant the engine does not play (a Hub engine's fixed set) is refused
with the engine's own words, and not asked again."""

from __future__ import annotations

import threading

from replay.board import Board
from replay.engine.hub import HubEngine, popen_hub
from replay.engine.limits import EngineError, Info, Limit, VariantRefused

SEARCH_SECONDS = 1.0


class Engines:
    """The engines started for the command ``command`` (``"dame hub"``), by variant."""

    def __init__(self, command: str, seconds: float = SEARCH_SECONDS) -> None:
        self.command, self.seconds = command, seconds
        self.running: dict[str, HubEngine] = {}
        self.refused: dict[str, str] = {}  # variant → why the engine does not play it
        self.lock = threading.Lock()
        self.closed = False

    def evaluate(self, board: Board) -> dict:
        """The engine's score (White's view, in pieces) and best line from ``board``;
        raises EngineError when it cannot say."""
        with self.lock:
            if self.closed:
                raise EngineError("the server is stopping")
            name = board.variant.name
            if name in self.refused:
                raise VariantRefused(self.refused[name])
            engine = self.running.get(name)
            if engine is None or engine.process.poll() is not None:
                if engine is not None:  # ended: waited for, its guard let go (replay.run.children)
                    engine.close()
                    del self.running[name]
                try:
                    engine = self.running[name] = popen_hub(self.command, variant=name)
                except VariantRefused as error:
                    self.refused[name] = str(error)
                    raise
            info = engine.analyse(board, Limit(time=self.seconds))
        assert isinstance(info, Info)
        line, pv = board.copy(), []
        for move in info.pv:
            pv.append(line.text(move))
            line.push(move)
        return {"engine": engine.name, "score": _score(info, board), "depth": info.depth,
                "pv": pv}

    def close(self) -> None:
        """Stop every engine started (and refuse new searches)."""
        with self.lock:
            self.closed = True
            for engine in self.running.values():
                engine.close()
            self.running.clear()


def _score(info: Info, board: Board) -> str | None:
    """``+0.35`` or ``#-3`` from White's side (the engine scores for the side to move)."""
    from replay.movegen import WHITE

    score = info.score
    if score is None:
        return None
    sign = 1 if board.turn == WHITE else -1
    if score.mate is not None:
        return f"#{sign * score.mate:+d}".replace("+", "")
    return f"{sign * (score.centi or 0) / 100:+.2f}"


__all__ = ["SEARCH_SECONDS", "EngineError", "Engines"]
