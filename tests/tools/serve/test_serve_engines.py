"""The analysis board's engines (``replay.serve.engines``): an engine that ended is waited for
and its guard let go before another starts (else the guard, on the server's exit, would kill
a process group whose number may have come back to another program); each board is evaluated
by an engine started for its own variant, and a variant the engine does not play is refused
in its words."""

from __future__ import annotations

import os
import shlex
import signal

import pytest
from conftest import require
from support.engines import fake_engine, find_dame

from replay.engine.limits import VariantRefused
from replay.record.board import Board
from replay.rules.variants import get_variant
from replay.serve.engines import Engines


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


def test_each_board_is_evaluated_by_an_engine_started_for_its_variant(builtin_command):
    engines = Engines(shlex.join(builtin_command), seconds=0.05)
    try:
        for name in ("english", "russian", "international"):
            found = engines.evaluate(Board(get_variant(name)))
            assert found["engine"] == "pdn builtin 1" and found["pv"]
        assert sorted(engines.running) == ["english", "international", "russian"]
        assert all(engine.variant == name for name, engine in engines.running.items())
    finally:
        engines.close()


def test_a_variant_the_engine_does_not_play_is_refused_with_its_words(tmp_path):
    command = fake_engine(tmp_path, "two-variants", {
        "hub": ["id name=two-variants",
                'param name=variant value=normal type=enum values="normal frisian"', "wait"],
        "init": ["ready"], "go": ["info depth=1 score=0.10 pv=32-28", "done move=32-28"]})
    engines = Engines(shlex.join(command), seconds=0.05)
    try:
        for _ in range(2):  # asked once: the second refusal starts no engine
            with pytest.raises(VariantRefused, match=r"does not play russian \(it plays "
                               r"normal, frisian\)"):
                engines.evaluate(Board(get_variant("russian")))
            assert "russian" not in engines.running
        assert engines.evaluate(Board(get_variant("international")))["score"] == "+0.10"
    finally:
        engines.close()


def test_the_desk_evaluates_with_the_builtin_engine_by_default_with_several_lines():
    engines = Engines(seconds=0.2)
    try:
        board = Board(get_variant("international"))
        found = engines.evaluate(board)
        assert engines.source == "built-in (pdn)" and found["source"] == "built-in (pdn)"
        assert found["engine"] == "pdn builtin" and found["pv"] and found["depth"]
        lines = found["lines"]
        assert len(lines) == 3 and lines[0]["pv"] == found["pv"]
        firsts = [line["pv"][0] for line in lines]
        assert len(set(firsts)) == 3, "each line starts with another move"
        legal = {board.text(move) for move in board.legal_moves()}
        assert set(firsts) <= legal
    finally:
        engines.close()


def test_a_variant_the_builtin_engine_does_not_play_is_said_to_have_no_engine():
    engines = Engines(seconds=0.05)
    try:
        with pytest.raises(VariantRefused, match="no engine for canadian"):
            engines.evaluate(Board(get_variant("canadian")))
    finally:
        engines.close()


def test_a_search_stopped_from_another_thread_answers_with_what_it_found():
    import threading

    engines = Engines(seconds=600.0)  # no stop: it would search for ten minutes
    board = Board(get_variant("russian"))
    answers: list[dict] = []
    searcher = threading.Thread(target=lambda: answers.append(engines.evaluate(board)))
    searcher.start()
    try:
        while engines.searching is None and searcher.is_alive():
            searcher.join(0.01)
        while searcher.is_alive():  # each stop ends the search running now
            engines.stop()
            searcher.join(0.05)
        assert answers and answers[0]["source"] == "built-in (pdn)"
    finally:
        engines.close()
        searcher.join()
