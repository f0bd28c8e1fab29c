"""``pdn analyse`` and ``replay.engine.annotate`` against both real engines: a real game of
the 2007 World Championship annotated with evaluations that read back and lines that replay,
a blunder made in a copy of it marked ``??``, and the command's resume, jobs, rows and
tables."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from pdn.cli.app import app
from support.engines import (
    ENGINE_NAMES,
    HOSTILE,
    Spec,
    all_gone,
    engine_spec,
    fake_engine,
    hostile_engine,
    start,
    started_processes,
    stateful_engine,
)
from typer.testing import CliRunner

from pdn.model import Line, Ply
from pdn.reader import read_games
from pdn.writer import write_game
from replay.engine.annotate import (
    NAG_BLUNDER,
    Thresholds,
    analyse_game,
    games_table,
    move_record,
    players_table,
    rows_frame,
)
from replay.engine.limits import Limit
from replay.record.replayer import replay_game
from replay.record.tree import walk

runner = CliRunner()
WK2007 = Path("international") / "fmjd_wk2007_all_games.pdn"


pytestmark = pytest.mark.usefixtures("no_engine_outlives_a_test")


@pytest.fixture(params=ENGINE_NAMES)
def spec(request) -> Spec:
    return engine_spec(request, request.param)


@pytest.fixture
def wk2007(shared_data, archive):
    return archive(shared_data / WK2007)


def test_a_real_game_is_annotated_with_evaluations_that_read_back(spec: Spec, wk2007):
    game = wk2007[0]
    with start(spec) as engine:
        analysis = analyse_game(engine, game, Limit(depth=spec.depth))
    assert game.moves.plies[0].comments == []  # the archive's game is not changed
    again = replay_game(next(read_games(write_game(analysis.game))))
    assert str(again.status) == "valid" and again.plies == len(game.moves.plies)
    nodes = again.mainline()
    # lidraughts' form, read back by pdn.commands: an evaluation after every move
    assert all(node.ply.eval is not None for node in nodes)
    for node, row in zip(nodes, analysis.rows, strict=True):
        written = node.ply.eval
        value = written.pieces if written.mate is None else (99 if written.mate > 0 else -99)
        mover_white = node.side == "White"
        assert row.eval_after == pytest.approx(max(-5, min(5, value if mover_white
                                                           else -value)), abs=0.006)
    for node in nodes:  # every engine line added replays legally from where it branches
        for variation in node.variations:
            assert variation.stop is None and len(variation) == len(variation.line.plies)
            assert variation[0].move != node.move
    assert sum(1 for _ in walk(again.mainline())) >= len(nodes)


def _blundered_copy(engine, spec: Spec, game, ply: int):
    """The game to ``ply`` with, in place of the move played there, the legal move after
    which the engine sees the mover worst off (the line played after it is dropped)."""
    tree = replay_game(game)
    node = tree.mainline()[ply]
    board = node.board_before()
    limit = Limit(depth=spec.depth)
    best = engine.analyse(board, limit)
    worst, worst_score = None, None
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        score = -engine.analyse(after, limit).score.centi
        if worst_score is None or score < worst_score:
            worst, worst_score = move, score
    drop = (best.score.centi - worst_score) / 100
    assert drop >= 2, f"no move at ply {ply} loses two men or more (worst {drop})"
    copy = replace(game, moves=Line(list(game.moves.plies[:ply])), result="*")
    copy.moves.plies = [*(Ply(p.record) for p in copy.moves.plies),
                        Ply(move_record(board, worst))]
    return copy, worst


def test_a_deliberate_blunder_is_marked_double_question(spec: Spec, wk2007):
    with start(spec) as engine:
        game, blunder = _blundered_copy(engine, spec, wk2007[0], 30)
        analysis = analyse_game(engine, game, Limit(depth=spec.depth))
    row = analysis.rows[-1]
    assert (row.judgement, row.move, row.drop >= 1.0) == ("blunder", str(blunder), True)
    ply = analysis.game.moves.plies[-1]
    assert NAG_BLUNDER in ply.nags
    variation = replay_game(next(read_games(write_game(analysis.game)))).mainline()[-1]
    # the engine's move, as the variation: the one its search in the game chose (the game
    # begins with new-game, so its table is not the one that chose a best move before)
    engine_move = variation.variations[0][0]
    assert engine_move.move != blunder and engine_move.text("pdn") == row.best
    assert all(r.judgement == "" for r in analysis.rows[:-1] if r.drop is not None
               and r.drop < Thresholds().mistake)


def test_the_tables_count_what_the_rows_say(spec: Spec, wk2007):
    with start(spec) as engine:
        game, _ = _blundered_copy(engine, spec, wk2007[1], 40)
        rows = analyse_game(engine, game, Limit(depth=spec.depth), number=1).rows
    frame = rows_frame(rows)
    games = games_table(frame)
    side = rows[-1].side.lower()
    assert games.loc[0, f"{side}_blunders"] == sum(r.judgement == "blunder" and r.side.lower()
                                                   == side for r in rows)
    players = players_table(frame)
    assert sorted(players["player"]) == sorted({game.tags["White"], game.tags["Black"]})
    assert players["moves"].sum() == len(rows)
    assert players["accuracy"].between(0, 100).all()


def test_a_run_stopped_early_leaves_no_engine(spec: Spec, wk2007):
    from replay.engine.annotate import annotate_games

    def start_engine(variant):
        return start(spec, variant=variant)

    outcomes = annotate_games(wk2007[:4], start_engine, Limit(depth=spec.depth), jobs=2)
    first = next(outcomes)
    assert first.index == 0 and first.analysis is not None
    outcomes.close()  # as a Ctrl-C in the loop does: the engines are closed and reaped
    # (the autouse fixture checks /proc for this process's children)


# -- the command ----------------------------------------------------------------------------

@pytest.fixture
def dame_wrapper(dame_command) -> str:
    return " ".join(dame_command)


def _games_file(path: Path, games) -> str:
    path.write_text("".join(write_game(game) + "\n\n" for game in games), encoding="utf-8")
    return str(path)


def test_pdn_analyse_writes_rows_and_resumes_a_stopped_run(tmp_path, wk2007, dame_wrapper):
    source = _games_file(tmp_path / "three.pdn", wk2007[:3])
    out = tmp_path / "annotated.pdn"
    arguments = ["analyse", source, "-o", str(out), "--engine-cmd", dame_wrapper,
                 "--depth", "3", "--engine-option", "hash=8"]
    result = runner.invoke(app, [*arguments, "--json", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == sum(len(game.moves.plies) for game in wk2007[:3])
    written = list(read_games(out))
    # in input order, whichever engine finished first
    assert [g.tags["White"] for g in written] == [g.tags["White"] for g in wk2007[:3]]
    assert all(g.tags["Annotator"].startswith("dame") for g in written)
    # a run stopped after the first game: only the two others are analysed again
    out.write_text(write_game(written[0]) + "\n\n", encoding="utf-8")
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert "1 of 3 games are in" in result.output
    assert [write_game(g) for g in read_games(out)] == [write_game(g) for g in written]
    assert "players" in result.output and wk2007[0].tags["White"] in result.output
    result = runner.invoke(app, arguments)
    assert "3 of 3 games are in" in result.output


def test_pdn_analyse_says_which_engine_sent_an_illegal_move(tmp_path, wk2007):
    source = _games_file(tmp_path / "one.pdn", wk2007[:1])
    command = fake_engine(tmp_path, "illegal", {
        "hub": ["id name=liar", "wait"], "init": ["ready"],
        "go": ["info depth=1 score=0.00 pv=32-28", "done move=32-29"]})
    result = runner.invoke(app, ["analyse", source, "-o", str(tmp_path / "out.pdn"),
                                 "--engine-cmd", " ".join(command), "--depth", "1"])
    # the engine is tried on the start position first: a broken one is a usage error
    assert result.exit_code == 2, result.output
    assert "liar sent '32-29', an illegal move" in result.output
    assert "Traceback" not in result.output


def test_an_engine_failing_on_a_game_is_restarted_for_the_next(tmp_path, wk2007,
                                                                dame_command):
    from replay.engine.annotate import annotate_games
    from replay.engine.hub import popen_hub

    liar = fake_engine(tmp_path, "liar", {
        "hub": ["id name=liar", "wait"], "init": ["ready"],
        "go": ["info depth=1 score=0.00 pv=32-28", "done move=32-29"]})
    commands = iter([liar, dame_command])

    def start_engine(variant):
        return popen_hub(next(commands), variant=variant)

    outcomes = list(annotate_games(wk2007[:2], start_engine, Limit(depth=2)))
    assert outcomes[0].analysis is None and "liar sent '32-29'" in outcomes[0].error
    assert outcomes[1].analysis is not None and outcomes[1].analysis.rows


@pytest.mark.parametrize(("arguments", "message"), [
    (["--engine-cmd", "no-such-engine hub"], "cannot start no-such-engine hub"),
    (["--engine-cmd", "dame 'hub"], "cannot be read: No closing quotation"),  # a traceback
    (["--engine-cmd", "dame hub", "--depth", "3", "--movetime", "1"], "not both"),
    (["--engine", "hub"], "--engine-cmd"),
    (["--engine", "scan"], "--engine is builtin or hub"),
    (["--engine-cmd", "dame hub", "--mistake", "2", "--blunder", "1"], "at least --mistake"),
    (["--engine-cmd", "dame hub", "--json", "-o", "-"], "--json writes the rows on stdout"),
])
def test_pdn_analyse_usage_errors(tmp_path, wk2007, arguments, message):
    source = _games_file(tmp_path / "one.pdn", wk2007[:1])
    result = runner.invoke(app, ["analyse", source, "-o", str(tmp_path / "out.pdn"),
                                 *arguments])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())


def test_pdn_analyse_refuses_a_depth_scan_does_not_report(tmp_path, wk2007, scan_dir):
    source = _games_file(tmp_path / "one.pdn", wk2007[:1])
    result = runner.invoke(app, ["analyse", source, "-o", str(tmp_path / "out.pdn"),
                                 "--engine-cmd", "./scan hub", "--engine-dir", str(scan_dir),
                                 "--engine-option", "tt-size=16", "--depth", "6"])
    assert result.exit_code == 2, result.output
    assert "Scan 2.0 gives no evaluation at depth 6" in " ".join(result.output.split())


def _processes_in(folder: Path) -> list[int]:
    """The processes whose working folder is ``folder``."""
    found = []
    for cwd in Path("/proc").glob("[0-9]*/cwd"):
        try:
            if Path(os.readlink(cwd)) == folder:
                found.append(int(cwd.parent.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_pdn_analyse_interrupted_leaves_no_engine_and_resumes(tmp_path, wk2007, dame_command,
                                                              sig):
    source = _games_file(tmp_path / "four.pdn", wk2007[:4])
    out, engine_dir = tmp_path / "out.pdn", tmp_path / "engine"
    engine_dir.mkdir()
    command = [sys.executable, "-c", "from pdn.cli.app import main; main()", "analyse",
               source, "-o", str(out), "--engine-cmd", " ".join(dame_command),
               "--engine-dir", str(engine_dir), "--depth", "7", "-j", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while len(_processes_in(engine_dir)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)  # both engines searching
    assert _processes_in(engine_dir), "the engines did not start"
    process.send_signal(sig)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == (130 if sig == signal.SIGINT else 143), stderr
    assert "run the same command again" in stderr and "Traceback" not in stderr
    time.sleep(0.5)
    assert _processes_in(engine_dir) == []
    done = len(list(read_games(out))) if out.exists() else 0
    result = runner.invoke(app, command[3:])
    assert result.exit_code == 0, result.output
    assert len(list(read_games(out))) == 4
    if done:
        assert f"{done} of 4 games are in" in result.output


def test_pdn_analyse_of_an_unreadable_input_is_exit_2(tmp_path, dame_wrapper):
    result = runner.invoke(app, ["analyse", str(tmp_path / "none.pdn"), "--engine-cmd",
                                 dame_wrapper])
    assert result.exit_code == 2 and "none.pdn" in result.output


def _two_games(tmp_path: Path) -> Path:
    """Two games of one move each, for an engine that answers the first and not the second."""
    source = tmp_path / "two.pdn"
    source.write_text('[Event "a"]\n1. 32-28 *\n\n[Event "b"]\n1. 32-28 *\n\n',
                      encoding="utf-8")
    return source


def _analyse_process(tmp_path: Path, behaviour: str) -> tuple[list[str], Path]:
    """``pdn analyse`` of ``_two_games`` as a process of its own, by a hostile engine that
    answers the first game and then does ``behaviour``: the command and its output file."""
    engine = hostile_engine(tmp_path, "e", behaviour, good=2)
    out = tmp_path / "out.pdn"
    return [sys.executable, "-c", "from pdn.cli.app import main; main()", "analyse",
            str(_two_games(tmp_path)), "-o", str(out), "--engine-cmd", " ".join(engine),
            "--depth", "3", "--timeout", "600"], out


@pytest.mark.parametrize("behaviour", HOSTILE)
@pytest.mark.parametrize("limit", [["--depth", "3"], ["--movetime", "0.02"]])
def test_pdn_analyse_times_out_a_hostile_engine_and_keeps_the_games_done(tmp_path, behaviour,
                                                                        limit):
    """The engine answers the two searches of the first game, then floods, goes silent or
    writes an endless line: the search ends by --timeout whatever the limit, the engine's
    process group is killed, the first game stays written, exit 1 (an engine failed)."""
    source = _two_games(tmp_path)
    command = hostile_engine(tmp_path, "e", behaviour, good=2)
    out = tmp_path / "out.pdn"
    result = runner.invoke(app, ["analyse", str(source), "-o", str(out), "--engine-cmd",
                                 " ".join(command), "--timeout", "3", *limit])
    assert result.exit_code == 1, result.output
    assert "game 2: engine hostile" in result.output
    assert [g.tags["Event"] for g in read_games(out)] == ["a"]
    assert "[%eval 0.00]" in out.read_text(encoding="utf-8")
    pids = started_processes(tmp_path, "e")
    assert len(pids) == 4 and all_gone(pids)  # the probe's, the run's


def test_sigterm_stops_pdn_analyse_on_a_flooding_engine_with_143(tmp_path):
    """SIGTERM during a flood of ``info`` ended nothing within 3 s (the lines piled up), and
    analyse exited 130 where every command exits 143 on SIGTERM."""
    command, out = _analyse_process(tmp_path, "flood")
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 60
    while len(started_processes(tmp_path, "e")) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)  # the run's engine started (after the probe's)
    while not (out.exists() and out.read_text(encoding="utf-8").endswith("*\n\n")):
        assert time.monotonic() < deadline, "game a was not written"
        time.sleep(0.1)  # game a done: the engine floods on game b
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    assert [g.tags["Event"] for g in read_games(out)] == ["a"]
    assert all_gone(started_processes(tmp_path, "e"))


@pytest.mark.parametrize("target", ["folder", "/dev/full", "hard link", "locked"])
def test_pdn_analyse_follows_the_output_rule(tmp_path, target):
    """-o went its own way: a folder or /dev/full gave a traceback and exit 1, a hard link
    to the input counted as "already analysed", two runs on one output wrote every game
    twice. Now each is refused or fails with exit 2, naming the output."""
    import fcntl

    source = tmp_path / "one.pdn"
    source.write_text('[Event "a"]\n1. 32-28 *\n\n', encoding="utf-8")
    engine = hostile_engine(tmp_path, "e", "silent", good=10)
    out = {"folder": tmp_path, "/dev/full": Path("/dev/full"),
           "hard link": tmp_path / "link.pdn", "locked": tmp_path / "out.pdn"}[target]
    if target == "hard link":
        os.link(source, out)
    with open(tmp_path / "out.pdn", "a") as other_run:
        fcntl.flock(other_run, fcntl.LOCK_EX)
        result = runner.invoke(app, ["analyse", str(source), "-o", str(out), "--engine-cmd",
                                     " ".join(engine), "--depth", "3", "--timeout", "5"])
    said = {"folder": "is a folder", "/dev/full": "/dev/full: cannot write",
            "hard link": "it is also an input", "locked": "another run of pdn analyse"}
    assert result.exit_code == 2, result.output
    assert said[target] in result.output and "Traceback" not in result.output
    assert (tmp_path / "out.pdn").read_text(encoding="utf-8") == ""



def test_pdn_analyse_never_writes_an_unreadable_game_emptied(tmp_path):
    """A game the reader gave up on was analysed into an empty [Event "?"] * game with exit
    0; now it is named, not analysed, and the run exits 1."""
    source = tmp_path / "two.pdn"
    source.write_text('[Event "a"]\n1. 32-28 *\n\n[White "X"]\n1. 32-28 } 19-23 *\n\n',
                      encoding="utf-8")
    engine = hostile_engine(tmp_path, "e", "silent", good=10)
    out = tmp_path / "out.pdn"
    result = runner.invoke(app, ["analyse", str(source), "-o", str(out), "--engine-cmd",
                                 " ".join(engine), "--depth", "3"])
    assert result.exit_code == 1, result.output
    assert "game 2: cannot be read, not analysed: unexpected '}'" in result.output
    assert [g.tags["Event"] for g in read_games(out)] == ["a"]


def test_pdn_analyse_of_an_empty_folder_is_0_games_and_exit_0(tmp_path):
    """An empty folder exited 2 on analyse and 0 on the eleven other commands: one rule."""
    (tmp_path / "empty").mkdir()
    result = runner.invoke(app, ["analyse", str(tmp_path / "empty"), "--engine-cmd",
                                 "no-such-engine hub"])
    assert result.exit_code == 0, result.output
    assert "no record files (*.pdn, *.txt) found: 0 games" in result.output


def test_after_kill_9_of_pdn_analyse_no_engine_lives_on(tmp_path):
    """A silent engine lived on after ``kill -9`` of pdn (its own session, nobody left to
    close it); the kernel now kills it when pdn dies (prctl's PR_SET_PDEATHSIG), and the
    guard its whole process group (its own child too: replay.run.children)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("PR_SET_PDEATHSIG is Linux's")
    source = _two_games(tmp_path)
    engine = hostile_engine(tmp_path, "e", "silent", good=2)
    command = [sys.executable, "-c", "from pdn.cli.app import main; main()", "analyse",
               str(source), "-o", str(tmp_path / "out.pdn"), "--engine-cmd", " ".join(engine),
               "--depth", "3", "--timeout", "600"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(started_processes(tmp_path, "e")) < 4 and time.monotonic() < deadline:
        time.sleep(0.1)  # the run's engine started (after the probe's)
    out = tmp_path / "out.pdn"
    while not (out.exists() and out.read_text(encoding="utf-8").endswith("*\n\n")):
        assert time.monotonic() < deadline, "game a was not written"
        time.sleep(0.1)  # game a done: the engine is silent on game b
    engines = started_processes(tmp_path, "e")[2:]  # the run's engine and its child
    process.kill()
    process.wait()
    try:  # the engine by the kernel's death signal, its process group by the guard
        assert all_gone(engines)
    finally:  # were they not, ended here
        for pid in started_processes(tmp_path, "e")[3::2]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


TWO_GAMES = ('[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
             '[Event "b"]\n1. 33-29 18-22 2. 31-27 22x31 3. 36x27 *\n\n')


def _analysed(tmp_path: Path, name: str, text: str, *engine: str) -> dict[str, str]:
    source, out = tmp_path / f"{name}.pdn", tmp_path / f"{name}-out.pdn"
    source.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(source), "-o", str(out), *engine])
    assert result.exit_code == 0, result.output
    return {game.tags["Event"]: write_game(game) for game in read_games(out)}


def test_each_game_is_analysed_as_if_alone_the_engine_told_of_a_new_game(tmp_path):
    """A resumed run differed from an undisturbed one in 293 eval lines: the engine carried
    its state from game to game. It is told ``new-game`` before each: game b analysed after
    game a reads as game b analysed alone (an engine that counts its searches since then)."""
    engine = ["--engine-cmd", " ".join(stateful_engine(tmp_path, "counting"))]
    both = _analysed(tmp_path, "both", TWO_GAMES, *engine)
    alone = _analysed(tmp_path, "alone", TWO_GAMES.split("\n\n", 1)[1], *engine)
    assert "[%eval 0.01]" in both["b"]
    assert both["b"] == alone["b"]


def test_the_builtin_engine_analyses_a_game_after_another_as_alone(tmp_path):
    """The built-in engine at a fixed depth: game b after game a, game b alone, and a run
    that resumes after game a give the same annotated game b."""
    pytest.importorskip("replay.engine._search")
    engine = ["--engine", "builtin", "--depth", "4"]
    both = _analysed(tmp_path, "both", TWO_GAMES, *engine)
    alone = _analysed(tmp_path, "alone", TWO_GAMES.split("\n\n", 1)[1], *engine)
    assert both["b"] == alone["b"]
    source, out = tmp_path / "both.pdn", tmp_path / "resumed.pdn"
    out.write_text(both["a"] + "\n\n", encoding="utf-8")  # a run stopped after game a
    result = runner.invoke(app, ["analyse", str(source), "-o", str(out), *engine])
    assert result.exit_code == 0 and "1 of 2 games are in" in result.output, result.output
    assert out.read_text(encoding="utf-8") == (tmp_path / "both-out.pdn").read_text(
        encoding="utf-8")


def test_sigterm_stops_pdn_analyse_on_a_silent_engine_at_once_with_143(tmp_path):
    """SIGTERM on a silent engine took 20 s (the engine's thread waited out --timeout after
    the engine was closed), and a second SIGTERM meanwhile escaped as exit 130."""
    command, out = _analyse_process(tmp_path, "silent")
    for signals in (1, 2):
        out.unlink(missing_ok=True)
        (tmp_path / "e.pids").unlink(missing_ok=True)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        deadline = time.monotonic() + 60
        while not (out.exists() and out.read_text(encoding="utf-8").endswith("*\n\n")):
            assert time.monotonic() < deadline, "game a was not written"
            time.sleep(0.1)  # game a done: the engine is silent on game b
        process.send_signal(signal.SIGTERM)
        if signals == 2:
            time.sleep(0.3)  # the engine is being closed (it ignores SIGTERM: 1 s)
            process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode in ((143,) if signals == 1 else (143, -signal.SIGTERM)), \
            stderr
        assert [g.tags["Event"] for g in read_games(out)] == ["a"]
        for pid in started_processes(tmp_path, "e")[1::2]:  # the engine's child
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
