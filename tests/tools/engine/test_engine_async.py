"""The engines for asyncio (``replay.engine.aio``): the synchronous engine's answers,
awaited; the event loop free while a search runs; a cancelled search stopped and the engine
free again; a call cancelled before its turn never run."""

from __future__ import annotations

import asyncio

import pytest

from replay.engine.aio import AsyncEngine
from replay.engine.builtin import BuiltinEngine
from replay.engine.limits import Limit
from replay.record.board import Board


def test_the_async_engine_answers_as_the_synchronous_one():
    board = Board(variant="international")
    board.push_text("32-28")
    with BuiltinEngine("international") as engine:
        expected = engine.analyse(board, Limit(depth=5))
        lines = engine.analyse(board, Limit(depth=3), multipv=2)

    async def asked():
        async with await AsyncEngine.builtin("international") as engine:
            return (await engine.analyse(board, Limit(depth=5)),
                    await engine.analyse(board, Limit(depth=3), multipv=2),
                    await engine.play(board, Limit(depth=5)))

    found, found_lines, played = asyncio.run(asked())
    assert (found.pv, found.score, found.depth) == (expected.pv, expected.score, expected.depth)
    assert [info.pv for info in found_lines] == [info.pv for info in lines]
    assert played.move == expected.pv[0]


def test_a_cancelled_search_is_stopped_while_the_loop_runs_and_the_engine_answers_again():
    board = Board(variant="russian")

    async def cancelled():
        async with await AsyncEngine.builtin("russian") as engine:
            endless = asyncio.create_task(engine.analyse(board, Limit()))  # no bound at all
            for _ in range(20):  # the loop goes on while the search runs
                await asyncio.sleep(0.01)
            endless.cancel()
            with pytest.raises(asyncio.CancelledError):
                await endless
            return await engine.play(board, Limit(depth=2))

    assert asyncio.run(cancelled()).move in board.legal_moves()


def test_a_call_cancelled_before_its_turn_never_runs():
    board = Board(variant="russian")
    searched: list[Board] = []

    async def queued():
        async with await AsyncEngine.builtin("russian") as engine:
            search = engine.engine.search

            def counted(position, limit, *args, **kwargs):
                searched.append(position)
                return search(position, limit, *args, **kwargs)

            engine.engine.search = counted  # type: ignore[method-assign]
            first = asyncio.create_task(engine.analyse(board, Limit()))
            second = asyncio.create_task(engine.play(board, Limit(depth=2)))
            while not searched:
                await asyncio.sleep(0.01)
            second.cancel()
            with pytest.raises(asyncio.CancelledError):
                await second
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first

    asyncio.run(queued())
    assert len(searched) == 1, "the queued play never searched"


def test_a_hub_engine_that_searches_until_stopped_is_stopped_by_a_cancelled_task(tmp_path):
    from support.engines import fake_engine

    command = fake_engine(tmp_path, "until-stop", {
        "hub": ["id name=until-stop", "wait"], "init": ["ready"],
        "go": ["info depth=1 score=0.10 pv=32-28"], "stop": ["done move=32-28"]})
    board = Board(variant="international")

    async def cancelled():
        engine = await AsyncEngine.popen_hub(command)
        try:
            endless = asyncio.create_task(engine.play(board, Limit()))
            while not engine.engine._searching:
                await asyncio.sleep(0.01)
            endless.cancel()
            with pytest.raises(asyncio.CancelledError):
                await endless
            # stopped, not timed out (a search past its time closes the engine)
            return engine.engine._searching, engine.engine.process.poll()
        finally:
            await engine.quit()

    assert asyncio.run(cancelled()) == (False, None)
