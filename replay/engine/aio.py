"""The engines for asyncio, as python-chess's ``chess.engine`` gives its protocols: an
``AsyncEngine`` wraps a synchronous engine (``BuiltinEngine``, ``HubEngine``) and runs each
of its calls in a worker thread of its own, so the event loop never waits on a search and
the limits, the engine's checks and its clean-up are those of the synchronous engine.

Calls are answered in the order they were made, one search at a time. A task cancelled
while its search runs stops that search (``stop()``: the engine answers at once) and waits
for the engine to be free again before the cancellation goes on; one cancelled before its
search began never starts it. ``quit()`` (or leaving ``async with``) closes the engine.
The built-in engine needs the native rules core; ``docs/engines.md`` has a tested example::

    async with await AsyncEngine.builtin("russian") as engine:
        move = (await engine.play(Board(variant="russian"), Limit(depth=2))).move
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

from replay.engine.limits import EngineError, Info, Limit, PlayResult
from replay.record.board import Board

T = TypeVar("T")
STOP_EVERY = 0.05  # seconds between two stop() of a cancelled search until it ends


class SyncEngine(Protocol):
    """What ``AsyncEngine`` wraps: the built-in engine or a Hub engine."""

    name: str

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> Info | list[Info]: ...
    def play(self, board: Board, limit: Limit) -> PlayResult: ...
    def stop(self) -> None: ...
    def quit(self) -> None: ...


class _Call:
    """One call queued for the worker: whether it began, whether it was called off."""

    def __init__(self) -> None:
        self.began = False
        self.called_off = False


class AsyncEngine:
    """``engine`` for asyncio: ``await analyse(...)``, ``await play(...)``, ``await quit()``."""

    def __init__(self, engine: SyncEngine) -> None:
        self.engine = engine
        self.name = engine.name
        self._worker = ThreadPoolExecutor(1, thread_name_prefix=f"engine {engine.name}")
        self._state = threading.Lock()

    @classmethod
    async def builtin(cls, variant: str = "international") -> AsyncEngine:
        """The built-in engine for ``variant`` (``replay.engine.builtin``)."""
        from replay.engine.builtin import BuiltinEngine

        return cls(BuiltinEngine(variant))

    @classmethod
    async def popen_hub(cls, command: str | list[str], **options: Any) -> AsyncEngine:
        """A Hub engine started as ``replay.engine.hub.popen_hub`` starts it (its start-up
        runs in a worker thread too)."""
        from replay.engine.hub import popen_hub

        loop = asyncio.get_running_loop()
        return cls(await loop.run_in_executor(None, lambda: popen_hub(command, **options)))

    async def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> Info | list[Info]:
        """The synchronous engine's ``analyse``, awaited."""
        return await self._call(self.engine.analyse, board.copy(), limit, multipv)

    async def play(self, board: Board, limit: Limit) -> PlayResult:
        """The synchronous engine's ``play``, awaited."""
        return await self._call(self.engine.play, board.copy(), limit)

    async def quit(self) -> None:
        """Close the engine once the calls made before are answered."""
        try:
            await self._call(self.engine.quit)
        finally:
            self._worker.shutdown(wait=False)

    async def __aenter__(self) -> AsyncEngine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()

    def __repr__(self) -> str:
        return f"<AsyncEngine {self.engine!r}>"

    async def _call(self, function: Callable[..., T], *args: Any) -> T:
        call = _Call()

        def run() -> T:
            with self._state:
                if call.called_off:
                    raise EngineError("the call was cancelled before it began")
                call.began = True
            return function(*args)

        future = asyncio.get_running_loop().run_in_executor(self._worker, run)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            with self._state:
                call.called_off = True
                running = call.began
            if not running:  # its turn will find it called off: nothing to wait for
                future.cancel()
                raise
            while not future.done():  # again until it ends: a stop() that came just
                self.engine.stop()        # before the search began is forgotten by it
                await asyncio.wait({future}, timeout=STOP_EVERY)
            with contextlib.suppress(Exception):  # free again before the cancellation goes on
                await future
            raise


__all__ = ["AsyncEngine", "SyncEngine"]
