"""Commands embedded in comments: clocks, evaluations, move times (docs/notation.md)."""

from __future__ import annotations

from pathlib import Path

from pdn.commands import Clock, Eval, seconds, time_control, without_commands
from pdn.model import MoveRecord, Ply
from pdn.reader import read_games


def ply(*comments: str) -> Ply:
    return Ply(MoveRecord("31-26", ("31", "26"), "-"), comments=list(comments))


def test_lidraughts_clock_gives_both_sides_and_the_mover_is_the_stopped_clock():
    after_white = ply("[%clock w0:09:57 B0:09:58]")
    after_black = ply("[%clock W0:09:57 b0:09:56]")
    assert after_white.clock == Clock(597.0, 597.0, 598.0)
    assert after_black.clock == Clock(596.0, 597.0, 596.0)


def test_pgn_clk_and_emt_are_the_movers_time_left_and_time_taken():
    assert ply("[%clk 1:55:21]").clock == Clock(6921.0)
    assert ply("[%clk 0:10:01.7]").clock == Clock(601.7)
    assert ply("[%emt 0:00:12]").move_time == 12.0
    assert ply("[%emt 0:00:12]").clock is None


def test_pdn_clock_with_one_time_or_unmarked():
    assert ply("Optional leading comments [%clock 0:49:11] trailing").clock == Clock(2951.0)
    assert ply("[%clock b0:00:03]").clock == Clock(3.0, None, 3.0)
    assert ply("[%clock B0:00:03]").clock == Clock(None, None, 3.0)  # running: the opponent


def test_evaluations_in_pieces_or_a_win_in_n():
    assert ply("[%eval 0.35]").eval == Eval(0.35)
    assert ply("[%eval -1.2]").eval == Eval(-1.2)
    assert ply("[%eval #-3] [%clock W0:09:55 b0:09:58]").eval == Eval(None, -3)
    assert ply("[%eval #4]").eval == Eval(None, 4)


def test_no_command_or_a_damaged_one_gives_none():
    assert ply("a fine move").clock is None and ply("a fine move").eval is None
    assert ply().clock is None
    assert ply("[%clock soon]").clock is None
    assert ply("[%eval ?]").eval is None
    assert ply("[%clk 1:2:3:4]").clock is None


def test_remarks_leave_the_commands_out_and_drop_empty_comments():
    game = next(read_games("1. 31-26 {[%clock w0:10:00 B0:10:00]} 18-22 "
                           "{Black resigns. [%clock W0:10:00 b0:09:59]} 2-0"))
    white, black = game.moves.plies
    assert white.remarks == [] and black.remarks == ["Black resigns."]
    assert white.comments == ["[%clock w0:10:00 B0:10:00]"]  # the text itself is kept
    assert without_commands("before [%clk 0:01:00] after") == "before after"


def test_times_and_time_controls():
    assert seconds("0:09:57") == 597.0 and seconds("9:57") == 597.0
    assert seconds("1:05:23") == 3923.0 and seconds("x") is None
    assert time_control("600+0") == (600.0, 0.0) and time_control("2700+30") == (2700.0, 30.0)
    assert time_control("300") == (300.0, 0.0)
    assert time_control("40/7200") == (None, None) and time_control(None) == (None, None)


def test_lidraughts_samples_have_a_clock_after_every_move(shared_data: Path, archive):
    games = archive(shared_data / "lidraughts_sample" / "lidraughts_export_sample.pdn")
    plies = games[0].moves.plies
    assert all(p.clock is not None for p in plies)
    assert plies[0].clock == Clock(600.0, 600.0, 600.0)
    assert plies[2].clock == Clock(597.0, 597.0, 598.0)  # 2. 34-30 {[%clock w0:09:57 ...]}
    assert plies[3].clock == Clock(598.0, 597.0, 598.0)  # 2... 20-25 {[%clock W0:09:57 b0:09:58]}


def test_nodes_of_a_lidraughts_game_read_the_movers_clock_and_write_eval_and_clk_back(
        shared_data: Path, archive):
    from pdn.writer import write_game
    from replay.record.editing import EditableGame
    from replay.record.replayer import replay_game

    game = archive(shared_data / "lidraughts_sample" / "lidraughts_export_sample.pdn")[0]
    nodes = list(replay_game(game).mainline())
    assert len(nodes) > 20
    assert [node.clock() for node in nodes[2:4]] == [597.0, 598.0]  # White's, then Black's
    assert [node.clock() for node in nodes] == [
        ply.clock.mover(node.mover_is_white()) for node, ply in zip(nodes, game.moves.plies,
                                                                   strict=False)]
    nodes[2].set_eval(Eval(None, -3))
    nodes[3].set_eval(0.5)
    nodes[3].set_clock(None)
    nodes[4].set_clock(3723.25)
    again = next(read_games(write_game(game)))
    plies = again.moves.plies
    assert plies[2].eval == Eval(None, -3) and plies[3].eval == Eval(0.5)
    assert plies[3].clock is None and plies[4].clock == Clock(3723.2)
    assert "[%clk 1:02:03.2]" in write_game(game) and plies[5].clock == game.moves.plies[5].clock
    edited = EditableGame.from_game(again)
    node = edited.next().next().next()
    assert node.eval() == Eval(None, -3) and node.clock() == 597.0
    node.set_eval(None)
    assert node.eval() is None and node.clock() == 597.0  # the clock kept
    assert "%eval" not in " ".join(node.comments)


def test_commands_are_written_as_lidraughts_and_python_chess_write_them():
    from pdn.commands import clk_command, eval_command, with_command

    assert [eval_command(Eval(0.17)), eval_command(Eval(None, 3)),
            eval_command(Eval(None, -3)), eval_command(Eval(-0.05))] == [
        "[%eval 0.17]", "[%eval #3]", "[%eval #-3]", "[%eval -0.05]"]
    assert [clk_command(60), clk_command(0.04), clk_command(36000)] == [
        "[%clk 0:01:00]", "[%clk 0:00:00]", "[%clk 10:00:00]"]
    kept = with_command(["before [%clock w0:01:00 B0:02:00] after", "[%eval 1.0]"],
                        ["clk", "clock"], "[%clk 0:00:59]")
    assert kept == ["before after", "[%eval 1.0] [%clk 0:00:59]"]
