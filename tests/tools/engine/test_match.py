"""``pdn match`` and ``replay.engine.match``: start positions from ballots and FENs, each played
twice with colours swapped, the games written as PDN game by game (atomically; a stopped match
keeps its finished games) with the players' names and the result our rules give; Hub players
through the Hub client's ``popen_hub`` (a stand-in here), DXP players over TCP (Scan 2.0)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from pdn.cli.app import app
from support.engines import HOSTILE, all_gone, hostile_engine, started_processes
from support.scan_dxp import free_port, processes_in, scan_dxp, scan_folder
from typer.testing import CliRunner

import replay
from pdn.reader import read_games
from replay.engine.limits import EngineError, PlayResult
from replay.engine.match import (
    GameFile,
    MatchError,
    game_pdn,
    play_match,
    start_positions,
)
from replay.engine.play import PlayerSide, RandomPlayer
from replay.record.board import Board
from replay.rules.variants import INTERNATIONAL, get_variant

runner = CliRunner()


def replayed(text: str) -> list:
    return [replay.replay_game(game) for game in read_games(text)]


def assert_judged_by_our_rules(text: str) -> None:
    """Every game replays legally; a decided result is the one the rules give, and an
    undecided one stopped at the move cap."""
    for tree, game in zip(replayed(text), read_games(text), strict=True):
        assert str(tree.status) == "valid"
        if game.tags["Result"] == "*":
            assert game.tags["Termination"] == "unterminated"
        else:
            assert tree.result_check == "consistent"


# -- start positions ---------------------------------------------------------------------------


def test_ballots_are_moves_or_fens_one_a_line(tmp_path):
    ballots = tmp_path / "ballots.txt"
    ballots.write_text("# two openings and a position\n32-28 19-23\n1. 33-28 18-22 2. 39-33\n"
                       "W:W31,32,33:B1,2  # three against two\n\n", encoding="utf-8")
    starts = start_positions(INTERNATIONAL, ballots=str(ballots), fens=("B:W40:B10",))
    assert [start.label for start in starts] == ["32-28 19-23", "33-28 18-22 39-33", "", ""]
    after = Board(variant="international")
    after.push_text("32-28")
    after.push_text("19-23")
    assert starts[0].board.position == after.position
    assert starts[2].board.fen() == "W:W31,32,33:B1,2"
    assert starts[3].board.turn == 1


def test_a_ballot_line_that_is_no_position_names_its_line(tmp_path):
    ballots = tmp_path / "ballots.txt"
    ballots.write_text("32-28 19-23\n32-28 32-27\n", encoding="utf-8")
    with pytest.raises(MatchError, match=r"ballots.txt:2: ballot move '32-27'"):
        start_positions(INTERNATIONAL, ballots=str(ballots))
    with pytest.raises(MatchError, match="--fen 'W:X99'"):
        start_positions(INTERNATIONAL, fens=("W:X99",))


def test_the_fmjd_ballots_are_russian():
    russian = get_variant("russian")
    starts = start_positions(russian, ballots="fmjd-64")
    assert len(starts) > 150 and starts[0].label.startswith("1-I: a3-b4 b6-a5")
    with pytest.raises(MatchError, match="Russian"):
        start_positions(INTERNATIONAL, ballots="fmjd-64")


def test_without_ballots_the_initial_position_is_played_count_times():
    starts = start_positions(INTERNATIONAL, count=3)
    assert len(starts) == 3 and all(s.board.position == Board(INTERNATIONAL).position
                                    for s in starts)


# -- playing and writing ------------------------------------------------------------------------


def test_each_start_is_played_twice_with_colours_swapped_and_written_as_pdn():
    starts = start_positions(INTERNATIONAL, fens=("W:W28,32,33,37,38:B12,13,17,18,19",),
                             count=1)
    first, second = PlayerSide(RandomPlayer(1, "One")), PlayerSide(RandomPlayer(2, "Two"))
    seen = []
    records = play_match(first, second, starts * 2, max_moves=40,
                         on_game=lambda number, record, start: seen.append(number))
    assert seen == [1, 2, 3, 4]
    assert [(r.white, r.black) for r in records] == [("One", "Two"), ("Two", "One")] * 2
    texts = [game_pdn(record, event="E", round_=str(n), date="2026.01.02", minutes=3,
                      ballot="x") for n, record in enumerate(records, 1)]
    text = "\n\n".join(texts)
    games = list(read_games(text))
    assert [g.tags["Round"] for g in games] == ["1", "2", "3", "4"]
    assert {g.tags["FEN"] for g in games} == {"W:W28,32,33,37,38:B12,13,17,18,19"}
    assert {(g.tags["Event"], g.tags["Date"], g.tags["TimeControl"], g.tags["GameType"])
            for g in games} == {("E", "2026.01.02", "180", "20")}
    assert "{ballot x}" in texts[0]
    assert_judged_by_our_rules(text)


def test_a_game_at_the_move_cap_has_no_result():
    [record] = play_match(PlayerSide(RandomPlayer(5)), PlayerSide(RandomPlayer(6)),
                          start_positions(INTERNATIONAL), max_moves=3)[:1]
    assert (record.result, record.ending.termination, len(record.moves)) == (
        "*", "unterminated", 6)


class Failing:
    """A player that fails (EngineError, or Ctrl-C) on its ``after``-th move."""

    def __init__(self, after: int, error: BaseException) -> None:
        self.name, self.calls, self.after, self.error = "Failing", 0, after, error
        self.random = RandomPlayer(9)

    def play(self, board, limit) -> PlayResult:
        self.calls += 1
        if self.calls == self.after:
            raise self.error
        return self.random.play(board, limit)


def test_a_stopped_match_keeps_its_finished_games(tmp_path):
    out = tmp_path / "games.pdn"
    out.write_text('[Event "earlier"]\n\n1. 32-28 *', encoding="utf-8")
    output = GameFile(out)
    output.close()  # the lock: this test plays the match itself
    failing = Failing(after=1000, error=EngineError("Failing died"))

    def write(number, record, start):
        output.add(game_pdn(record, event="m", round_=str(number)))
        failing.after = failing.calls + 3  # the next game fails on its third move

    with pytest.raises(EngineError, match="Failing died"):
        play_match(PlayerSide(RandomPlayer(1)), PlayerSide(failing),
                   start_positions(INTERNATIONAL), max_moves=20, on_game=write)
    games = list(read_games(out.read_text(encoding="utf-8")))
    assert [g.tags["Event"] for g in games] == ["earlier", "m"]
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


# -- the command --------------------------------------------------------------------------------


def test_pdn_match_writes_every_game_with_its_tags(tmp_path):
    out = tmp_path / "match.pdn"
    result = runner.invoke(app, ["match", "random:1", "random:2", "-o", str(out),
                                 "--pairs", "2", "--max-moves", "30", "--event", "Test cup"])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    games = list(read_games(text))
    assert len(games) == 4 and "game 4/4: random (seed 2) - random (seed 1)" in result.stderr
    assert [g.tags["White"] for g in games] == ["random (seed 1)", "random (seed 2)"] * 2
    assert {g.tags["Event"] for g in games} == {"Test cup"}
    assert {g.tags["TimeControl"] for g in games} == {"300"}
    assert "FEN" not in games[0].tags
    assert_judged_by_our_rules(text)


def test_pdn_match_writes_to_stdout_without_an_output():
    result = runner.invoke(app, ["match", "random", "random:3", "--max-moves", "5"])
    assert result.exit_code == 0, result.output
    assert len(list(read_games(result.stdout))) == 2


@pytest.mark.parametrize(("arguments", "code", "says"), [
    (["random", "nonsense"], 2, "is none of builtin, hub:COMMAND"),
    (["random", "dxp:127.0.0.1:x"], 2, "the port is a number"),
    (["random", "random:z"], 2, "the seed is a number"),
    (["random", "random", "--engine-dir", "a", "--engine-dir", "b", "--engine-dir", "c"], 2,
     "--engine-dir is given"),
    (["random", "dxp:127.0.0.1:5", "--variant", "russian"], 2,
     "DXP engines play International draughts only"),
    (["random", "dxp-listen:x"], 2, "the port is a number"),
    (["random", "hub:dame 'hub"], 1, "cannot be read: No closing quotation"),  # a traceback
    (["random", "dxp:127.0.0.1:1", "--timeout", "1"], 1, "no DXP engine answers on "
     "127.0.0.1:1"),
])
def test_pdn_match_errors_are_one_line_and_exit_codes(arguments, code, says):
    result = runner.invoke(app, ["match", *arguments])
    assert result.exit_code == code
    assert says in result.stderr and "Traceback" not in result.output + result.stderr


class FakeHub:
    """What ``replay.engine.hub.popen_hub`` gives (the Hub client is another module): a name,
    ``play``, ``quit``, a context manager; it records how it was started and stopped."""

    started: list = []  # noqa: RUF012 - shared on purpose, reset by the test

    def __init__(self, command, cwd=None, variant="international", timeout=None) -> None:
        self.command, self.cwd, self.quitted = command, cwd, False
        self.name = f"Fake {command}"
        self.random = RandomPlayer(len(FakeHub.started))
        FakeHub.started.append(self)

    def play(self, board, limit) -> PlayResult:
        if self.command == "interrupted" and len(board.move_stack) > 5:
            raise KeyboardInterrupt
        return self.random.play(board, limit)

    def quit(self) -> None:
        self.quitted = True

    def __enter__(self) -> FakeHub:
        return self

    def __exit__(self, *exc) -> None:
        self.quit()


@pytest.fixture
def fake_hub(monkeypatch):
    module = types.ModuleType("replay.engine.hub")
    module.popen_hub = FakeHub
    monkeypatch.setitem(sys.modules, "replay.engine.hub", module)
    FakeHub.started = []
    return FakeHub


def test_hub_players_start_in_their_folders_and_always_quit(fake_hub, tmp_path):
    out = tmp_path / "hub.pdn"
    result = runner.invoke(app, ["match", "hub:engine one", "hub:engine two", "-o", str(out),
                                 "--engine-dir", "/a", "--engine-dir", "/b", "--depth", "4",
                                 "--max-moves", "10"])
    assert result.exit_code == 0, result.output
    assert [(e.command, e.cwd, e.quitted) for e in fake_hub.started] == [
        ("engine one", "/a", True), ("engine two", "/b", True)]
    games = list(read_games(out.read_text(encoding="utf-8")))
    assert games[0].tags["White"] == "Fake engine one" and \
        games[0].tags["EngineLimit"] == "depth=4"
    interrupted = runner.invoke(app, ["match", "hub:interrupted", "hub:other",
                                      "-o", str(tmp_path / "x.pdn"), "--engine-dir", "/c"])
    assert interrupted.exit_code != 0
    assert [(e.cwd, e.quitted) for e in fake_hub.started[2:]] == [("/c", True), ("/c", True)]
    assert not (tmp_path / "x.pdn").exists()


def test_pdn_match_against_scan_over_dxp_from_ballots(scan_dir, tmp_path):
    """Scan 2.0 listening as DXP follower; the ballots start from positions other than the
    initial one (GAMEREQ with a position); two pairs on one connection, then Scan stops."""
    port = free_port()
    folder = scan_folder(scan_dir, tmp_path, port=port, server=True, initiator=False)
    ballots = tmp_path / "ballots.txt"
    ballots.write_text("32-28 19-23 28x19 14x23\n33-28 17-22 28x17 11x22\n", encoding="utf-8")
    out = tmp_path / "scan.pdn"
    with scan_dxp(folder) as process:
        result = runner.invoke(app, ["match", "random:4", f"dxp:127.0.0.1:{port}",
                                     "--ballots", str(ballots), "--minutes", "0",
                                     "-o", str(out), "--timeout", "30"])
        assert result.exit_code == 0, result.output
        assert process.wait(timeout=20) == 0
    text = out.read_text(encoding="utf-8")
    games = list(read_games(text))
    assert len(games) == 4 and {g.tags["White"] for g in games} == {"random (seed 4)",
                                                                     "Scan 2.0"}
    assert all("FEN" in g.tags for g in games)
    assert_judged_by_our_rules(text)
    assert processes_in(folder) == []


def test_pdn_match_listens_for_scan_connecting_as_follower(scan_dir, tmp_path):
    """dxp-listen: we listen and stay the initiator; Scan connects as client and follower
    (dxp-server false, dxp-initiator false)."""
    port = free_port()
    folder = scan_folder(scan_dir, tmp_path, port=port, server=False, initiator=False)
    out = tmp_path / "listen.pdn"
    with scan_dxp(folder, delay=1.5) as process:
        result = runner.invoke(app, ["match", f"dxp-listen:{port}", "random:8", "--minutes",
                                     "0", "-o", str(out), "--timeout", "30"])
        assert result.exit_code == 0, result.output
        assert process.wait(timeout=20) == 0
    games = list(read_games(out.read_text(encoding="utf-8")))
    assert [g.tags["White"] for g in games] == ["Scan 2.0", "random (seed 8)"]
    assert_judged_by_our_rules(out.read_text(encoding="utf-8"))
    assert processes_in(folder) == []


def test_gamefile_keeps_earlier_text_and_never_leaves_a_part_file(tmp_path):
    path = tmp_path / "g.pdn"
    with GameFile(path) as output:
        output.add('[Event "a"]\n\n*')
        output.add('[Event "b"]\n\n*')
    assert [g.tags["Event"] for g in read_games(path.read_text())] == ["a", "b"]
    with GameFile(path) as again:
        assert again.text == path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.pdn"]


def test_pdn_match_scan_hub_against_scan_dxp(scan_dir, tmp_path):
    """The Hub client (replay.engine.hub) driving ``scan hub`` against Scan listening over
    DXP: both games legal, results by our rules, no Scan process left (either one)."""
    pytest.importorskip("replay.engine.hub")
    port = free_port()
    folder = scan_folder(scan_dir, tmp_path, port=port, server=True, initiator=False)
    out = tmp_path / "hub.pdn"
    with scan_dxp(folder) as process:
        result = runner.invoke(app, ["match", "hub:./scan hub", f"dxp:127.0.0.1:{port}",
                                     "--engine-dir", str(scan_dir), "--depth", "4",
                                     "--minutes", "0", "--max-moves", "80", "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert process.wait(timeout=20) == 0
    text = out.read_text(encoding="utf-8")
    games = list(read_games(text))
    assert [(g.tags["White"], g.tags["Black"]) for g in games] == [("Scan 2.0", "Scan 2.0")] * 2
    assert_judged_by_our_rules(text)
    assert processes_in(folder) == [] and processes_in(scan_dir) == []


@pytest.mark.parametrize("behaviour", HOSTILE)
@pytest.mark.parametrize("limit", [["--depth", "3"], ["--movetime", "0.02"]])
def test_pdn_match_times_out_a_hostile_engine_and_keeps_the_games_played(tmp_path, behaviour,
                                                                         limit):
    """The engine plays White's first move of game 1 (the move cap ends it), then floods,
    goes silent or writes an endless line as Black in game 2: --timeout ends its search
    whatever the limit, its process group is killed, game 1 stays written, exit 1."""
    command = hostile_engine(tmp_path, "e", behaviour, good=1)
    out = tmp_path / "match.pdn"
    result = runner.invoke(app, ["match", "hub:" + " ".join(command), "random", "--timeout",
                                 "3", "--max-moves", "1", "-o", str(out), *limit])
    assert result.exit_code == 1, result.output
    assert "engine hostile" in result.output
    [game] = read_games(out.read_text(encoding="utf-8"))
    assert game.tags["White"] == "hostile" and game.tags["Round"] == "1"
    pids = started_processes(tmp_path, "e")
    assert len(pids) == 2 and all_gone(pids)


@pytest.mark.parametrize("target", ["folder", "/dev/full"])
def test_pdn_match_never_reads_a_device_and_refuses_a_folder(tmp_path, target):
    """-o /dev/full was read first (it grew to 21 GB), a folder gave a traceback."""
    out = tmp_path if target == "folder" else Path(target)
    result = runner.invoke(app, ["match", "random", "random:1", "--max-moves", "2", "-o",
                                 str(out)])
    assert result.exit_code == 2, result.output
    said = "is a folder" if target == "folder" else "/dev/full: cannot write"
    assert said in result.output and "Traceback" not in result.output



def test_pdn_match_goes_on_after_the_games_a_stopped_run_wrote(tmp_path):
    """A rerun after a kill appended the whole match again: it now plays only the games the
    output lacks, told by Event and Round, start and players."""
    out = tmp_path / "match.pdn"
    arguments = ["match", "random:1", "random:2", "-o", str(out), "--pairs", "2",
                 "--max-moves", "5"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    games = out.read_text(encoding="utf-8").split("\n\n[Event")
    out.write_text(games[0] + "\n\n[Event" + games[1] + "\n\n", encoding="utf-8")  # killed
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0, result.output
    assert "2 of 4 games are in" in result.output and "game 1/4" not in result.output
    assert "final score after 4 games" in result.output
    rounds = [game.tags["Round"] for game in read_games(out.read_text(encoding="utf-8"))]
    assert rounds == ["1", "2", "3", "4"]
    result = runner.invoke(app, arguments)
    assert result.exit_code == 0 and "4 of 4 games are in" in result.output, result.output
    assert len(list(read_games(out.read_text(encoding="utf-8")))) == 4
    assert [p.name for p in tmp_path.iterdir()] == ["match.pdn"]  # no lock file left


def test_pdn_match_refuses_an_output_holding_another_match(tmp_path):
    out = tmp_path / "match.pdn"
    result = runner.invoke(app, ["match", "random:1", "random:2", "-o", str(out),
                                 "--max-moves", "3"])
    assert result.exit_code == 0, result.output
    before = out.read_text(encoding="utf-8")
    result = runner.invoke(app, ["match", "random:3", "random:2", "-o", str(out),
                                 "--max-moves", "3"])
    assert result.exit_code == 2, result.output
    assert "has another White than this match's" in result.output
    assert "give another --event or -o" in result.output
    assert out.read_text(encoding="utf-8") == before


def test_two_matches_on_one_output_the_second_is_refused(tmp_path):
    """Two runs at once on one -o kept one run's games only: the output is locked."""
    out = tmp_path / "match.pdn"
    with GameFile(out):
        result = runner.invoke(app, ["match", "random:1", "random:2", "-o", str(out),
                                     "--max-moves", "3"])
    assert result.exit_code == 2, result.output
    assert "another pdn match is writing it" in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == []
    result = runner.invoke(app, ["match", "random:1", "random:2", "-o", str(out),
                                 "--max-moves", "3"])
    assert result.exit_code == 0, result.output


def test_after_kill_9_of_pdn_match_no_engine_lives_on(tmp_path):
    """A silent engine, and the child it started, lived on after ``kill -9`` of pdn match."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the processes are read from /proc")
    engine = hostile_engine(tmp_path, "e", "silent")
    command = [sys.executable, "-c", "from pdn.cli.app import main; main()", "match",
               "hub:" + " ".join(engine), "random", "--depth", "3", "--timeout", "600",
               "-o", str(tmp_path / "out.pdn")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(started_processes(tmp_path, "e")) < 2:
        assert time.monotonic() < deadline, "the engine did not start"
        time.sleep(0.1)
    time.sleep(0.5)  # the engine is asked its first move, and is silent
    process.kill()
    process.wait()
    pids = started_processes(tmp_path, "e")
    try:
        assert all_gone(pids)
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _connect(port: int, timeout: float = 30.0):
    import socket

    deadline = time.monotonic() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            assert time.monotonic() < deadline, "nobody listens"
            time.sleep(0.05)


@pytest.mark.parametrize("probes", [1, 3])
def test_pdn_match_dxp_listen_outlives_a_probe_that_connects_and_closes(tmp_path, probes):
    """One connect-and-close probe ended ``dxp-listen`` (the match failed on it): it is now
    noted, and the next connection, a DXP engine's (our own follower here), plays."""
    import threading

    from replay.engine.dxp import DxpConnection, serve_games

    port = free_port()
    played: list = []

    def prober_then_engine() -> None:
        for _ in range(probes):
            _connect(port).close()  # not a word
        with DxpConnection(_connect(port), "the initiator", timeout=30) as connection:
            played.extend(serve_games(connection, RandomPlayer(5), games=2))

    thread = threading.Thread(target=prober_then_engine, daemon=True)
    thread.start()
    out = tmp_path / "match.pdn"
    result = runner.invoke(app, ["match", f"dxp-listen:{port}", "random", "--max-moves", "4",
                                 "--timeout", "30", "-o", str(out)])
    thread.join(timeout=30)
    assert result.exit_code == 0, result.output
    assert result.output.count("closed the connection without a word") == probes
    assert len(played) == 2 and len(list(read_games(out.read_text(encoding="utf-8")))) == 2
