"""Validate game records: read, replay and report, one plain ``GameReport`` per game.

This is the library behind ``pdn validate``; reports are plain values, so they travel
between worker processes and become JSON lines as they are.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field

from pdn.fen import format_fen
from pdn.model import Game
from replay.board import setup_from_position
from replay.replayer import Problem, ReplayedGame, replay_game
from replay.variants import Variant


@dataclass
class GameReport:
    """The verdict on one game: the stable JSON interface of ``pdn validate --json``."""

    file: str | None
    game: int
    line: int
    white: str | None
    black: str | None
    variant: str
    plies: int
    status: str
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    result: str | None = None
    result_check: str = "undetermined"
    result_note: str = ""
    final_fen: str = ""
    event: str | None = None
    date: str | None = None
    draws: list[dict] = field(default_factory=list)
    error_fens: list[str] = field(default_factory=list)  # position before each main-line error

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def title(self) -> str:
        """``game 3 (Guba – Yumshanov)``."""
        if not (self.white or self.black):
            return f"game {self.game}"
        return f"game {self.game} ({self.white or '?'} – {self.black or '?'})"


def report_game(game: Game, default: Variant, override: Variant | None = None) -> GameReport:
    """Replay a game and sum it up."""
    replayed = replay_game(game, default, override)
    notation = replayed.variant.gametype.notation
    reading = {"error": [], "warning": []}
    for diagnostic in game.diagnostics:
        reading["error" if diagnostic.severity == "error" else "warning"].append(
            Problem(diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column))
    errors = reading["error"] + replayed.errors
    warnings = reading["warning"] + replayed.warnings
    return GameReport(
        file=game.source,
        game=game.index,
        line=game.line,
        white=game.tags.get("White"),
        black=game.tags.get("Black"),
        variant=replayed.variant.name,
        plies=replayed.plies,
        status=replayed.status,
        errors=[p.as_dict() for p in errors],
        warnings=[p.as_dict() for p in warnings],
        result=game.headers_result,
        result_check=replayed.result_check,
        result_note=replayed.result_note,
        final_fen=format_fen(setup_from_position(replayed.final or replayed.start), notation),
        event=game.tags.get("Event"),
        date=game.tags.get("Date"),
        draws=[{"rule": c.rule, "description": c.description, "ply": c.ply}
               for c in replayed.draws],
        error_fens=_error_fens(replayed),
    )


def _error_fens(replayed: ReplayedGame) -> list[str]:
    if not replayed.errors or replayed.final is None:
        return []
    notation = replayed.variant.gametype.notation
    return [format_fen(setup_from_position(replayed.final), notation)]


def report_games(games: Iterable[Game], default: Variant, override: Variant | None = None
                 ) -> Iterator[GameReport]:
    """Reports for a stream of games, in order."""
    for game in games:
        yield report_game(game, default, override)


def validate_sources(sources: list[str], default: Variant, override: Variant | None = None, *,
                     jobs: int = 0, encoding: str | None = None) -> Iterator[GameReport | str]:
    """Reports for every game of every source, in order; an unreadable file gives one error
    string (``path: reason``) instead, and the others are still read.

    ``jobs`` worker processes read and replay chunks of games (0: all cores, used only when
    a file is large enough to repay the start-up of the pool).
    """
    import os

    from pdn.reader import iter_chunks, read_games

    workers = jobs or (os.cpu_count() or 1)
    for source in sources:
        name = "<stdin>" if source == "-" else source
        handle = sys.stdin.buffer if source == "-" else source
        try:
            size = 0 if source == "-" else os.path.getsize(source)
            if workers > 1 and (jobs > 1 or size > PARALLEL_MIN_BYTES):
                yield from _validate_parallel(iter_chunks(handle, encoding=encoding), name,
                                              workers, default, override)
            else:
                for game in read_games(handle, encoding=encoding):
                    game.source = name
                    yield report_game(game, default, override)
        except OSError as error:
            yield f"{name}: cannot read: {error.strerror or error}"


PARALLEL_MIN_BYTES = 1 << 20
BATCH = 200


def _validate_batch(batch: list, source: str, default: Variant, override: Variant | None
                    ) -> list[GameReport]:
    from pdn.reader import parse_chunks

    reports = []
    for game in parse_chunks(batch, source):
        reports.append(report_game(game, default, override))
    return reports


def _validate_parallel(chunks: Iterable, source: str, workers: int, default: Variant,
                       override: Variant | None) -> Iterator[GameReport]:
    from concurrent.futures import ProcessPoolExecutor
    from itertools import islice

    index = 0
    with ProcessPoolExecutor(workers) as pool:
        pending = []
        iterator = iter(chunks)
        while batch := list(islice(iterator, BATCH)):
            pending.append(pool.submit(_validate_batch, batch, source, default, override))
            while len(pending) > 2 * workers:
                for report in pending.pop(0).result():
                    index += 1
                    report.game = index
                    yield report
        for future in pending:
            for report in future.result():
                index += 1
                report.game = index
                yield report
