"""The Hub client against both real engines: Scan 2.0 (the first Hub protocol, its
``src/main.cpp``) and dame-rs (the second, Scan 3.x's ``protocol.txt``); and against tiny
fake engines for what a real one never does (an illegal move, a garbled line, silence)."""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
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
)

from replay.engine.hub import LINE_LIMIT, move_text, parse_move, popen_hub, position_text
from replay.engine.limits import EngineError, Limit, VariantRefused
from replay.record.board import Board
from replay.record.replayer import replay_game

INTERNATIONAL = "international"
WK2007 = Path("international") / "fmjd_wk2007_all_games.pdn"


@pytest.fixture(params=ENGINE_NAMES)
def spec(request) -> Spec:
    return engine_spec(request, request.param)


pytestmark = pytest.mark.usefixtures("no_engine_outlives_a_test")


@pytest.fixture
def wk2007_game(shared_data, archive):
    return replay_game(archive(shared_data / WK2007)[0])


def test_the_start_position_in_both_protocols():
    # Scan 2.0's fen.h Start_Hub; protocol.txt's example "pos pos=Wbbbb...": side, 50 squares
    board = Board(variant=INTERNATIONAL)
    assert position_text(board, 1) == "w" + "b" * 20 + "e" * 10 + "w" * 20
    assert position_text(board, 2) == "W" + "b" * 20 + "e" * 10 + "w" * 20


def test_hub_moves_are_read_with_or_without_the_captured_squares():
    board = Board(variant=INTERNATIONAL)
    for text in ("32-28", "19-23"):
        board.push(parse_move(board, text))
    # protocol.txt: captures list every captured square ("28x19x23"); Scan 2.0's PV names
    # them only where two captures would look alike ("28x19")
    assert str(parse_move(board, "28x19x23")) == str(parse_move(board, "28x19")) == "28x19"
    with pytest.raises(EngineError, match="'28-22', an illegal move"):
        parse_move(board, "28-22", "fake")
    with pytest.raises(EngineError, match="'28x17x23'"):
        parse_move(board, "28x17x23", "fake")
    with pytest.raises(EngineError, match="not a move"):
        parse_move(board, "e2e4", "fake")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_every_legal_move_reads_back_from_its_hub_text(choices):
    # a random game from the start: in every position each legal move's Hub text, with all
    # its captured squares, is read back as that move (kings and long captures included)
    board = Board(variant=INTERNATIONAL)
    for choice in choices:
        moves = board.legal_moves()
        if not moves:
            break
        for move in moves:
            assert parse_move(board, move_text(board, move)) == move
        board.push(moves[choice % len(moves)])
    side, squares = position_text(board, 2)[0], position_text(board, 2)[1:]
    assert side == ("W" if board.turn == 0 else "B") and len(squares) == 50
    assert squares.count("e") == 50 - len(board.setup().pieces)


def test_king_moves_are_sent_for_repetitions():
    # protocol.txt: "pos pos=... moves=..." carries the (reversible) king moves
    from replay.engine.hub import _position_pairs

    board = Board("W:WK46,35:BK1,25", variant=INTERNATIONAL)
    assert _position_pairs(board) == f"pos={position_text(board, 2)}"
    start = position_text(board, 2)
    for text in ("46-41", "1-7", "41-46"):
        board.push(parse_move(board, text))
    assert _position_pairs(board) == f'pos={start} moves="46-41 1-7 41-46"'
    board.push(parse_move(board, "25-30"))  # a man's move: nothing before it counts
    assert _position_pairs(board) == f"pos={position_text(board, 2)}"


def test_a_board_with_a_history_of_king_moves_is_searched(spec):
    board = Board("W:WK46,35:BK1,25", variant=INTERNATIONAL)
    for text in ("46-41", "1-7", "41-46"):
        board.push(parse_move(board, text))
    with start(spec) as engine:
        assert engine.play(board, Limit(depth=spec.depth)).move in board.legal_moves()


def test_the_protocol_generation_is_told_at_start_up(spec):
    with start(spec) as engine:
        assert engine.generation == spec.generation
        assert engine.name.startswith(spec.name)
        assert engine.author
        if spec.name == "dame":
            assert "hash" in engine.options  # dame's "param name=hash ..."


def test_every_evaluation_and_line_of_a_real_game_is_legal(spec, wk2007_game):
    nodes = wk2007_game.mainline()
    with start(spec) as engine:
        for node in nodes[::8]:
            board = node.board_before()
            info = engine.analyse(board, Limit(depth=spec.depth))
            assert info.score is not None and info.score.centi is not None
            assert info.depth == spec.depth
            assert info.pv
            for move in info.pv:  # each move legal where the line has come to
                assert move in board.legal_moves()
                board.push(move)


def test_play_gives_a_legal_move_and_a_legal_ponder_move(spec, wk2007_game):
    board = wk2007_game.mainline()[20].board_before()
    with start(spec) as engine:
        result = engine.play(board, Limit(depth=spec.depth))
    assert result.move in board.legal_moves()
    if result.ponder is not None:
        board.push(result.move)
        assert result.ponder in board.legal_moves()


def test_multipv_gives_that_many_lines_best_first(spec, wk2007_game):
    board = next(board for board in (node.board_before() for node in wk2007_game.mainline())
                 if len(board.legal_moves()) >= 5)
    with start(spec) as engine:
        lines = engine.analyse(board, Limit(depth=spec.depth + 1), multipv=3)
    assert [info.multipv for info in lines] == [1, 2, 3]
    firsts = [info.pv[0] for info in lines]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves() for move in firsts)
    scores = [info.score.centi for info in lines]
    assert scores == sorted(scores, reverse=True)


def test_analysis_streams_until_stopped(spec):
    board = Board(variant=INTERNATIONAL)
    with start(spec) as engine:
        with engine.analysis(board) as analysis:
            depths = []
            for info in analysis:
                if info.depth is not None:
                    depths.append(info.depth)
                if len(depths) >= 2:
                    break
            best = analysis.stop()
        assert depths == sorted(depths) and depths[0] >= (12 if spec.generation == 1 else 1)
        assert best.move in board.legal_moves()
        # the engine is ready for the next search
        assert engine.play(board, Limit(depth=spec.depth)).move in board.legal_moves()


def test_an_analysis_left_running_is_stopped_by_the_next_search(spec):
    board = Board(variant=INTERNATIONAL)
    with start(spec) as engine:
        analysis = engine.analysis(board)
        next(iter(analysis))
        after = board.copy()
        after.push(parse_move(after, "32-28"))
        result = engine.play(after, Limit(depth=spec.depth))
        assert result.move in after.legal_moves()


def test_an_engine_killed_mid_search_is_a_clean_error(spec):
    board = Board(variant=INTERNATIONAL)
    engine = start(spec)
    threading.Timer(0.5, os.kill, (engine.process.pid, signal.SIGKILL)).start()
    with pytest.raises(EngineError, match="killed by signal 9"):
        engine.analyse(board, Limit())  # no limit: it searches until killed
    assert engine.process.poll() is not None
    engine.quit()  # nothing left to do, and no error


def test_ctrl_c_during_a_search_leaves_no_engine(spec):
    board = Board(variant=INTERNATIONAL)
    engine = start(spec)
    threading.Timer(0.5, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        engine.analyse(board, Limit())
        time.sleep(5)  # the interrupt lands here if the search ended first
    assert engine.process.poll() is not None


def test_a_variant_the_engine_does_not_play_is_refused(spec):
    with pytest.raises(VariantRefused, match=rf"does not play {spec.foreign} \(it plays "
                       r"(International draughts only|russian, brazilian, pool, normal)"):
        start(spec, variant=spec.foreign)


# -- fake engines: what a real one never does ---------------------------------------------

SECOND = {"hub": ["id name=fake version=1", "wait"], "init": ["ready"]}
FIRST = {"hub": ["name Fake 1", "author Nobody", "wait"], "init": ["ready"]}


def test_an_illegal_engine_move_is_an_error_naming_engine_and_move(tmp_path):
    command = fake_engine(tmp_path, "illegal", {**SECOND, "go": [
        "info depth=1 score=0.10 pv=32-28", "done move=32-29"]})
    board = Board(variant=INTERNATIONAL)
    with popen_hub(command) as engine, pytest.raises(EngineError) as error:
        engine.play(board, Limit(depth=1))
    assert "fake 1" in str(error.value) and "'32-29', an illegal move" in str(error.value)


def test_an_illegal_move_in_a_line_is_an_error(tmp_path):
    command = fake_engine(tmp_path, "badpv", {**FIRST, "analyse": [
        "info 12 12.0 5 100 0.01 1.0 32-28 32-28", "move 32-28"]})
    with popen_hub(command) as engine, pytest.raises(EngineError, match=r"Fake 1.*'32-28'"):
        engine.analyse(Board(variant=INTERNATIONAL), Limit(depth=12))


def test_a_garbled_info_line_is_an_error(tmp_path):
    command = fake_engine(tmp_path, "garbled", {**SECOND, "go": [
        "info depth=deep score=high", "done move=32-28"]})
    with popen_hub(command) as engine, pytest.raises(EngineError, match="garbled line"):
        engine.analyse(Board(variant=INTERNATIONAL), Limit(depth=1))


def test_an_engine_that_refuses_the_position_is_an_error(tmp_path):
    # dame-rs answers a bad position with "error message=..." and goes on with the old one
    command = fake_engine(tmp_path, "refuses", {**SECOND, "pos": ['error message="no"'],
                                                "go": ["done move=32-28"]})
    with popen_hub(command) as engine, pytest.raises(EngineError, match=r"refused.*no"):
        engine.play(Board(variant=INTERNATIONAL), Limit(depth=1))


def test_a_silent_engine_times_out_and_is_gone(tmp_path):
    """The timeout is the client's own decision (its message names it); the module's
    fixture checks that the silent engine is gone with it."""
    command = fake_engine(tmp_path, "silent", {})
    with pytest.raises(EngineError, match="did not answer within 1 s"):
        popen_hub(command, timeout=1)


@pytest.mark.parametrize("behaviour", HOSTILE)
@pytest.mark.parametrize("limit", [Limit(movetime=0.02), Limit(depth=12)])
def test_a_hostile_engine_times_out_whatever_the_limit_and_its_group_is_killed(
        tmp_path, behaviour, limit):
    """An engine flooding ``info`` and never sending ``done`` once ran on for ever, its
    lines piling up in memory (30 MB/s); under a depth limit a silent one was waited for
    for ever. Now every search ends by ``timeout`` (after its own time, under
    ``movetime``), and the engine, which ignores SIGTERM, is killed with its child."""
    command = hostile_engine(tmp_path, "e", behaviour, good=1)
    engine = popen_hub(command, timeout=3)
    assert engine.analyse(Board(variant=INTERNATIONAL), limit).score.centi == 0
    said = (f"longer than {LINE_LIMIT:,} characters" if behaviour == "huge-line"
            else "did not answer within 3")
    with pytest.raises(EngineError, match=said):
        engine.analyse(Board(variant=INTERNATIONAL), limit)
    pids = started_processes(tmp_path, "e")
    assert len(pids) == 2 and all_gone(pids)


def test_a_command_that_does_not_exist_is_an_error():
    with pytest.raises(EngineError, match="cannot start"):
        popen_hub("no-such-engine-here hub")


def test_first_protocol_banner_lines_are_skipped(tmp_path):
    command = fake_engine(tmp_path, "banner", FIRST, banner=("Fake 1 by Nobody",))
    with popen_hub(command) as engine:
        assert (engine.generation, engine.name, engine.author) == (1, "Fake 1", "Nobody")


def test_the_second_protocol_names_the_variant(tmp_path):
    # Scan 3.x: "param name=variant value=normal type=enum values=..." (protocol.txt)
    command = fake_engine(tmp_path, "variants", {
        "hub": ["id name=multi", 'param name=variant value=normal type=enum '
                'values="normal frisian killer bt losing"', "wait"],
        "init": ["ready"], "go": ["done move=1-6"]})
    with popen_hub(command, variant="frisian") as engine:
        assert engine.options["variant"] == "frisian"  # set-param sent before init
        board = Board(variant="frisian")
        assert position_text(board, 2) == "W" + "b" * 20 + "e" * 10 + "w" * 20
        with pytest.raises(EngineError, match="'1-6', an illegal move"):
            engine.play(board, Limit(depth=1))
    with pytest.raises(VariantRefused, match=r"does not play russian \(it plays normal, "
                       "frisian, killer, bt, losing\\)"):
        popen_hub(command, variant="russian")
