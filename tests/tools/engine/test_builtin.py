"""The built-in engine (replay/engine/_search.c through replay.engine.builtin): every move it
gives is legal by the Python core, it keeps to its limits, it stops when told, its scores are in the
Hub client's units, and random positions do not crash it. Its Hub server is driven by the
Hub client's own tests (test_engine_hub.py, test_analyse.py: the ``builtin`` engine)."""

from __future__ import annotations

import itertools
import os
import random
import threading
import time
from pathlib import Path

import pytest
from conftest import require

from replay.engine.builtin import MATE, SEARCH, BuiltinEngine, budget, score_of
from replay.engine.hub import popen_hub
from replay.engine.limits import EngineError, Limit, Score
from replay.engine.match import open_side, play_match, start_positions
from replay.engine.play import PlayerSide, RandomPlayer, play_game
from replay.record.board import Board
from replay.rules.native import available, extension, rules_for
from replay.rules.position import Position
from replay.rules.variants import VARIANTS, get_variant

pytestmark = pytest.mark.usefixtures("native_core")

NATIVE_VARIANTS = [v.name for v in VARIANTS if v.name != "canadian"]


@pytest.fixture
def native_core() -> None:
    require(available(), "the native rules core (the built-in engine runs on it)")


def _line_is_legal(board: Board, line: list) -> None:
    here = board.copy()
    for move in line:
        assert move in here.legal_moves(), (here.fen(), move)
        here.push(move)


@pytest.mark.parametrize("name", NATIVE_VARIANTS)
def test_a_game_against_a_random_player_is_legal_move_by_move(name):
    """The match referee (replay.engine.play) checks each move against the Python core's
    legal moves; each line the engine gives is checked here too."""
    engine = BuiltinEngine(name)
    lines = []

    class Checked:
        name = "checked builtin"

        def play(self, board, limit):
            result = engine.play(board, limit)
            lines.append((board.copy(), result.info.pv))
            return result

    record = play_game(PlayerSide(Checked()), PlayerSide(RandomPlayer(7)),
                       Board(variant=name), max_moves=40, limit=Limit(depth=3))
    assert record.moves and lines
    for board, line in lines:
        _line_is_legal(board, line)


def test_the_search_takes_only_the_rules_cores_rules_and_refuses_anything_else():
    """The engine's extension reads its first argument as the rules core's ``Rules``: any
    other object (the Python face, a number, none at all) is a TypeError, never read as
    rules."""
    search = extension(SEARCH).search
    rules = rules_for(get_variant("international"))
    start = rules.start
    rest = (start.white, start.black, start.kings, start.turn, None, None, 2, 0, 0.0, None,
            None, 0, 100, 300)
    line, _, depth, _, _ = search(rules.core, *rest)
    assert depth == 2 and line
    for wrong in (None, rules, 0, object(), bytearray(1), "rules"):
        with pytest.raises(TypeError, match=r"replay\.rules\._native\.Rules"):
            search(wrong, *rest)
    with pytest.raises(TypeError):
        search()
    with pytest.raises(TypeError):
        search(rules.core, *rest[:-1])


def test_every_variant_but_canadian_is_played():
    assert all(rules_for(get_variant(name)) is not None for name in NATIVE_VARIANTS)
    with pytest.raises(EngineError, match="canadian"):
        BuiltinEngine("canadian")


@pytest.mark.parametrize("nodes", [1, 7, 500, 20_000])
def test_a_node_limit_is_never_passed(nodes):
    engine = BuiltinEngine("international")
    board = Board(variant="international")
    info = engine.analyse(board, Limit(nodes=nodes))
    assert 0 < info.nodes <= nodes
    assert info.pv and info.pv[0] in board.legal_moves()


def test_a_depth_limit_is_the_depth_reached():
    board = Board(variant="russian")
    reached = []
    info = BuiltinEngine("russian").search(board, Limit(depth=6), reached.append)
    assert info.depth == 6 and [i.depth for i in reached] == [1, 2, 3, 4, 5, 6]
    assert all(a.nodes < b.nodes for a, b in itertools.pairwise(reached))


@pytest.mark.parametrize("seconds", [0.05, 0.3])
def test_a_time_limit_is_kept(seconds):
    """The search stops by its own clock: it ends unfinished (far from the deepest search) once
    its clock has passed the limit, and it spends no more than the limit in CPU time, plus the
    64 nodes between two readings of the clock. Both hold on a loaded machine: a search that
    waits for a core uses no CPU, and its clock reads the waiting as spent."""
    engine = BuiltinEngine("international")
    cpu = time.thread_time()  # the search runs in this thread, the GIL released
    info = engine.analyse(Board(variant="international"), Limit(movetime=seconds))
    spent = time.thread_time() - cpu
    assert info.time >= seconds - 1e-6 and (info.depth or 0) < 30
    assert spent <= seconds + 0.1
    assert info.pv and info.pv[0] in Board(variant="international").legal_moves()


def test_a_limit_too_short_for_one_iteration_still_gives_a_legal_move():
    """Not one depth finished within the limit: the first move of the ordering, unsearched,
    so that a player on a clock always has a move."""
    board = Board(variant="russian")
    result = BuiltinEngine("russian").play(board, Limit(movetime=0.000_001))
    assert result.move in board.legal_moves()


def test_a_clock_is_shared_out_over_the_moves_to_come():
    assert budget(Limit(time=60)) == pytest.approx(60_000 / 30 - 5)
    assert budget(Limit(movetime=0.5)) == 500
    assert budget(Limit(depth=3)) == 0


def test_stop_from_another_thread_ends_an_unbounded_search_at_once():
    """Measured in the searching thread's CPU time from the moment ``stop`` is called (what
    the search does, not how fast a loaded machine lets it run): at most the 64 nodes between
    two readings of the flag."""
    engine = BuiltinEngine("international")
    board = Board(variant="international")
    searcher = time.pthread_getcpuclockid(threading.get_ident())
    at_stop: list[float] = []

    def stop() -> None:
        at_stop.append(time.clock_gettime(searcher))
        engine.stop()

    timer = threading.Timer(0.3, stop)
    timer.start()
    result = engine.play(board, Limit())  # no limit: it searches until stopped
    assert at_stop and time.thread_time() - at_stop[0] < 0.1
    assert result.move in board.legal_moves()
    # the stop was for that search only
    assert engine.analyse(board, Limit(depth=4)).depth == 4


def test_a_won_end_is_a_mate_score_in_plies():
    # Russian: White's king takes Black's last man: won in one ply
    info = BuiltinEngine("russian").analyse(Board("W:WKc1:Bd2", variant="russian"),
                                            Limit(depth=6))
    assert info.score == Score(centi=MATE - 1, mate=1)
    # International: White must take Black's last man, and has won (Antidraughts: lost)
    board = Board("W:W28:B23", variant="international")
    info = BuiltinEngine("international").analyse(board, Limit(depth=6))
    assert info.score == Score(centi=MATE - 1, mate=1)


def test_scores_are_centi_men_from_the_mover_s_side():
    # English: a man up, nothing hanging: about +1 man for the side to move, -1 for the other
    up = Board("B:W21,22,23:B1,2", variant="english")
    down = Board("W:W21,22,23:B1,2", variant="english")
    engine = BuiltinEngine("english")
    assert -150 < engine.analyse(up, Limit(depth=1)).score.centi < -50
    assert 50 < engine.analyse(down, Limit(depth=1)).score.centi < 150
    assert score_of(9990) == Score(centi=9990, mate=10)
    assert score_of(-9997) == Score(centi=-9997, mate=-3)


def test_antidraughts_wants_to_lose_its_pieces():
    # the side without a move wins (lidraughts Antidraughts): White must take Black's last
    # man, and Black, with no piece left, has won
    board = Board("W:W28:B23", variant="antidraughts")
    info = BuiltinEngine("antidraughts").analyse(board, Limit(depth=4))
    assert info.score == Score(centi=-(MATE - 1), mate=-1)


def test_breakthrough_scores_the_first_king():
    board = Board("W:W7:B45", variant="breakthrough")  # 7 reaches the far row in one move
    info = BuiltinEngine("breakthrough").analyse(board, Limit(depth=3))
    assert info.score == Score(centi=MATE - 1, mate=1)


def test_the_match_player_spec_builtin():
    positions = start_positions(get_variant("russian"), count=1)
    with open_side("builtin", variant="russian") as side:
        records = play_match(side, PlayerSide(RandomPlayer(1)), positions, max_moves=30,
                             limit=Limit(depth=2))
    assert len(records) == 2


def _random_position(variant, rng: random.Random) -> Position:
    board = Board(variant=variant)
    squares = [s for s in range(board.generator.size) if board.generator.board_mask >> s & 1]
    white = black = kings = 0
    for square in rng.sample(squares, rng.randint(2, min(24, len(squares)))):
        bit = 1 << square
        if rng.random() < 0.5:
            white |= bit
        else:
            black |= bit
        if rng.random() < 0.3 and variant.name != "breakthrough":  # a king there has won
            kings |= bit
    return Position(white, black, kings, rng.randint(0, 1))


@pytest.mark.parametrize("name", NATIVE_VARIANTS)
def test_random_positions_neither_crash_nor_give_an_illegal_line(name):
    rng = random.Random(name)
    engine = BuiltinEngine(name)
    variant = get_variant(name)
    for _ in range(25):
        board = Board(variant, _random_position(variant, rng))
        info = engine.search(board, Limit(depth=4, nodes=20_000))
        if not board.legal_moves():
            assert info.pv == [] and info.score.mate is not None
            continue
        assert info.pv and info.score is not None
        _line_is_legal(board, info.pv)


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used, from ``/proc/PID/stat``: what the
    process did, whatever the load of the machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.usefixtures("no_engine_outlives_a_test")
def test_the_hub_server_answers_stop_at_once(builtin_command):
    board = Board(variant="russian")
    with popen_hub(builtin_command, variant="russian") as engine:
        with engine.analysis(board) as analysis:  # no limit: it searches until stopped
            first = next(iter(analysis))
            asked = _cpu_seconds(engine.process.pid)
            best = analysis.stop()
            spent = _cpu_seconds(engine.process.pid) - asked
        assert first.depth == 1 and best.move in board.legal_moves()
        assert spent < 0.25  # CPU the server used between the stop and its answer
        # the next search runs as usual
        assert engine.analyse(board, Limit(depth=3)).depth == 3


def test_the_hub_server_answers_a_bad_position_with_an_error():
    from io import StringIO

    from replay.engine.server import HubServer

    out = StringIO()
    HubServer(StringIO("pos pos=Wxyz\nlevel speed=3\nping\n"), out, "russian").run()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith('error message="a position is W or B and 32 letters')
    assert lines[1].startswith("error message=") and "level" in lines[1]
    assert lines[2] == "pong"


def test_the_hub_server_refuses_a_line_too_long_without_holding_it():
    """A 200 MB line cost ``pdn engine hub`` 1.25 GB: it is read in pieces of at most
    ``LINE_LIMIT`` characters, refused with an error, and the conversation goes on."""
    from io import StringIO

    from replay.engine.server import LINE_LIMIT, HubServer

    class Pieces(StringIO):
        longest = 0

        def readline(self, size: int | None = -1) -> str:
            piece = super().readline(size)
            Pieces.longest = max(Pieces.longest, len(piece))
            return piece

    out = StringIO()
    long = "pos pos=" + "W" * (3 * LINE_LIMIT)
    HubServer(Pieces(f"ping\n{long}\nping\n"), out, "russian").run()
    assert out.getvalue().splitlines() == [
        "pong", f'error message="a line of {LINE_LIMIT:,} characters or more is refused"', "pong"]
    assert Pieces.longest == LINE_LIMIT


@pytest.mark.usefixtures("no_engine_outlives_a_test")
def test_pdn_analyse_uses_the_built_in_engine_by_default(shared_data, tmp_path):
    from typer.testing import CliRunner

    from cli.app import app

    text = (shared_data / "games-checkers" / "russian" / "World_Championship_1998.pdn"
            ).read_text(encoding="utf-8")
    source = tmp_path / "two.pdn"
    source.write_text("\n\n[".join(text.split("\n\n[")[:2]) + "\n", encoding="utf-8")
    out = tmp_path / "out.pdn"
    result = CliRunner().invoke(app, ["analyse", str(source), "-o", str(out), "--depth", "4"])
    assert result.exit_code == 0, result.output
    written = out.read_text(encoding="utf-8")
    assert written.count('[Annotator "pdn builtin 1, depth 4"]') == 2
    assert written.count("[%eval") > 40


def test_builtin_multipv_gives_that_many_lines_each_from_another_legal_move():
    from replay.engine.builtin import BuiltinEngine
    from replay.engine.limits import Limit
    from replay.record.board import Board
    from replay.rules.variants import get_variant

    board = Board(get_variant("russian"))
    with BuiltinEngine("russian") as engine:
        lines = engine.analyse(board, Limit(depth=4), multipv=3)
    assert isinstance(lines, list) and [info.multipv for info in lines] == [1, 2, 3]
    firsts = [info.pv[0] for info in lines]
    assert len(set(firsts)) == 3 and set(firsts) <= set(board.legal_moves())
    scores = [info.score.centi for info in lines]
    assert scores == sorted(scores, reverse=True), "best first"
