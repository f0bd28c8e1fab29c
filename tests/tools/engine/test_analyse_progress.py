"""``pdn analyse``'s progress moves per position searched, not per game: a long game moves
the bar while it is analysed. Counted on real games of the 2007 World Championship with
dame-rs (the amounts, not the time), with a game that stops replaying and an engine that
fails."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from pdn.cli import analyse as analyse_command
from pdn.cli.app import app
from support.engines import fake_engine
from typer.testing import CliRunner

from pdn.model import Line
from pdn.writer import write_game
from replay.engine.annotate import analyse_game, annotate_games, positions_of
from replay.engine.hub import popen_hub
from replay.engine.limits import Limit
from replay.record.replayer import replay_game

WK2007 = Path("international") / "fmjd_wk2007_all_games.pdn"
pytestmark = pytest.mark.usefixtures("no_engine_outlives_a_test")


@pytest.fixture
def wk2007(shared_data, archive):
    return archive(shared_data / WK2007)


class Recorder:
    """A progress callback that keeps the amounts it is given, from any thread."""

    def __init__(self) -> None:
        self.amounts: list[int] = []
        self.lock = threading.Lock()

    def __call__(self, amount: int) -> None:
        with self.lock:
            self.amounts.append(amount)


def broken_copy(game, ply: int):
    """The game with its move at ``ply`` (from 0) replaced by one that cannot be played
    (a man moving backwards), so that replaying stops there."""
    plies = list(game.moves.plies)
    record = plies[ply].record
    plies[ply] = replace(plies[ply], record=record._replace(
        text=f"{record.squares[1]}-{record.squares[0]}",
        squares=(record.squares[1], record.squares[0]), separator="-"))
    return replace(game, moves=Line(plies))


def test_analyse_game_reports_each_position_it_searches(wk2007, dame_command):
    game = wk2007[0]
    seen = []
    with popen_hub(dame_command, variant="international") as engine:
        analysis = analyse_game(engine, game, Limit(depth=2), searched=lambda: seen.append(
            len(seen)))
    assert len(seen) == positions_of(game) == len(game.moves.plies) + 1 > 50
    assert len(analysis.rows) == len(game.moves.plies)


def test_the_amounts_add_up_per_game_with_a_game_that_stops_and_an_engine_that_fails(
        wk2007, dame_command, tmp_path):
    broken = broken_copy(wk2007[1], 20)
    assert replay_game(broken).errors  # it stops at its 21st move
    games = [wk2007[2], wk2007[0], broken]
    liar = fake_engine(tmp_path, "liar", {
        "hub": ["id name=liar", "wait"], "init": ["ready"],
        "go": ["info depth=1 score=0.00 pv=32-28", "done move=32-29"]})
    commands = iter([liar, dame_command])  # the first game's engine fails: then dame-rs
    progress = Recorder()
    outcomes = list(annotate_games(games, lambda variant: popen_hub(next(commands),
                                                                    variant=variant),
                                   Limit(depth=2), progress=progress))
    assert [outcome.analysis is not None for outcome in outcomes] == [False, True, True]
    assert outcomes[1].analysis.problem is None and outcomes[2].analysis.problem
    # one game after another (one job): the failing engine's game all at once when it
    # fails; the next position by position; the broken one as far as it replays (20 moves:
    # 21 positions), then the rest of its share at once
    failed, whole, cut = (positions_of(game) for game in games)
    assert progress.amounts == [failed] + [1] * whole + [1] * 21 + [cut - 21]
    assert sum(progress.amounts) == sum(positions_of(game) for game in games)


def test_pdn_analyse_advances_its_bar_within_a_game(wk2007, dame_command, tmp_path,
                                                      monkeypatch):
    """The command's bar (a terminal's; here recorded): its total is the positions of the
    games to analyse, and it moves many times per game."""
    source = tmp_path / "two.pdn"
    source.write_text("".join(write_game(game) + "\n\n" for game in wk2007[:2]),
                      encoding="utf-8")
    bars: list[tuple[str, int | None, Recorder]] = []

    @contextmanager
    def recorded_bar(label: str, total: int | None, console=None) -> Iterator[Recorder]:
        bars.append((label, total, Recorder()))
        yield bars[-1][2]

    monkeypatch.setattr(analyse_command, "progress_bar", recorded_bar)
    done = CliRunner().invoke(app, ["analyse", str(source), "-o", str(tmp_path / "out.pdn"),
                                    "--engine-cmd", " ".join(dame_command), "--depth", "2"])
    assert done.exit_code == 0, done.output
    [(label, total, progress)] = bars
    positions = positions_of(wk2007[0]) + positions_of(wk2007[1])
    assert (label, total, sum(progress.amounts)) == ("analysing", positions, positions)
    assert len(progress.amounts) == positions  # one step per position, none per game
