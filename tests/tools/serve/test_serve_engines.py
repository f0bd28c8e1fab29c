"""The analysis board's engines (``replay.serve.engines``): an engine that ended is waited for
and its guard let go before another starts (else the guard, on the server's exit, would kill
a process group whose number may have come back to another program)."""

from __future__ import annotations

import os
import signal

from conftest import require
from support.engines import find_dame

from replay.board import Board
from replay.serve.engines import Engines
from replay.variants import get_variant


def test_an_engine_that_ended_is_let_go_before_another_starts():
    dame = find_dame()
    require(dame is not None, "dame-rs (make test-deps)")
    engines = Engines(f"{dame} hub", seconds=0.05)
    board = Board(get_variant("international"))
    try:
        assert engines.evaluate(board)["pv"]
        first = engines.running["international"]
        guard = first.process.guard
        assert guard is not None and guard.poll() is None
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait(timeout=30)
        assert engines.evaluate(board)["pv"]  # a new engine answers
        assert engines.running["international"] is not first
        assert first.process.guard is None  # released: told "done", not left to kill
        assert guard.wait(timeout=30) == 0
    finally:
        engines.close()
