"""Frysk!, Antidraughts and Breakthrough: lidraughts' variants (docs/variants-lidraughts.md).

The rules come from lidraughts' own code (modules/draughts/src/main/variant/Frysk.scala,
Antidraughts.scala, Breakthrough.scala, Frisian.scala); the legal moves are checked against
both peers, py-draughts and pydraughts, on positions of random games of each variant.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, require
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn import read_games
from pdn.gametype import parse_gametype
from replay.archive.tags import clean_result
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.rules.endings import decide
from replay.rules.perft import perft
from replay.rules.variants import INTERNATIONAL, get_variant

FRYSK, ANTIDRAUGHTS, BREAKTHROUGH = (get_variant(name) for name in
                                     ("frysk", "antidraughts", "breakthrough"))


# ---- registration ----------------------------------------------------------------------------

@pytest.mark.parametrize(("names", "variant"), [
    (("frysk", "Frysk!", "97", "97,W,10,10,N2,0"), FRYSK),
    (("antidraughts", "98"), ANTIDRAUGHTS),
    (("breakthrough", "96"), BREAKTHROUGH),
])
def test_names_aliases_and_gametype_numbers(names, variant):
    # The numbers are lidraughts' gameType fields (Frysk.scala 97, Antidraughts.scala 98,
    # Breakthrough.scala 96), which its PdnDump writes as the bare GameType tag.
    for name in names:
        assert get_variant(name) is variant
    assert variant.gametype == parse_gametype(names[-1].split(",")[0])
    assert (variant.gametype.width, variant.gametype.height, variant.gametype.numeric) == (
        10, 10, True)


def test_frysk_starts_from_five_men_each_on_the_back_row():
    # Frysk.scala: initialFen = "W:W46,47,48,49,50:B1,2,3,4,5:H0:F1".
    assert Board(FRYSK).fen() == "W:W46,47,48,49,50:B1,2,3,4,5"


def test_antidraughts_and_breakthrough_start_and_move_as_international():
    # Both take Standard's pieces, directions and capture rules (their .scala files).
    for variant in (ANTIDRAUGHTS, BREAKTHROUGH):
        board = Board(variant)
        assert board.fen() == Board(INTERNATIONAL).fen()
        assert perft(board.generator, board.position, 4) == 4265


def test_results_are_written_as_lidraughts_writes_them():
    # PdnDump.scala writes 2-0 / 0-2 / 1-1 for every variant (draughtsResult = true).
    for variant in (FRYSK, ANTIDRAUGHTS, BREAKTHROUGH):
        assert [clean_result(token, variant) for token in ("1-0", "0-1", "1/2-1/2")] == [
            "2-0", "0-2", "1-1"]


def test_pdn_moves_and_perft_take_the_new_names():
    runner = CliRunner()
    moves = runner.invoke(app, ["moves", "--variant", "frysk!", "--json"])
    assert moves.exit_code == 0
    line = json.loads(moves.stdout)
    assert line["fen"] == "W:W46,47,48,49,50:B1,2,3,4,5"
    # 46-41, 47-41, 47-42, 48-42, 48-43, 49-43, 49-44, 50-44, 50-45: each man has two
    # forward squares except 46 on the edge.
    assert len(line["moves"]) == 9
    perft_run = runner.invoke(app, ["perft", "--variant", "frysk", "--depth", "3"])
    assert perft_run.exit_code == 0 and "657" in perft_run.stdout
    for name in ("antidraughts", "breakthrough", "96", "98"):
        result = runner.invoke(app, ["perft", "--variant", name, "--depth", "3"])
        assert result.exit_code == 0 and "658" in result.stdout


# ---- perft -----------------------------------------------------------------------------------

def test_antidraughts_and_breakthrough_perft_is_the_published_international_table():
    # International perft, drop duplicates: 9, 81, 658, 4265, 27117 (DCTL
    # test/src/algo/traversal/initial/board_10x10.cpp, from the FMJD forum "Perft" thread).
    # No promotion is possible this early, so Breakthrough's end cannot cut the tree.
    for variant in (ANTIDRAUGHTS, BREAKTHROUGH):
        board = Board(variant)
        counts = [perft(board.generator, board.position, depth) for depth in range(1, 6)]
        assert counts == [9, 81, 658, 4265, 27117]


def test_frysk_perft():
    # No published Frysk! table was found. These counts were cross-checked with py-draughts
    # 1.10.1 (depths 1-8, 20,147,712 at 8) and pydraughts 0.6.7 (depths 1-5) through
    # bench/peers.py's perft walk (docs/variants-lidraughts.md).
    board = Board(FRYSK)
    counts = [perft(board.generator, board.position, depth) for depth in range(1, 6)]
    assert counts == [9, 81, 657, 5329, 41829]


# ---- legal moves against both peers ----------------------------------------------------------

PEERS = ROOT / ".bench-venvs"
PY_DRAUGHTS_BOARDS = {"frysk": "FryskBoard", "antidraughts": "AntidraughtsBoard",
                      "breakthrough": "BreakthroughBoard"}
PYDRAUGHTS_NAMES = {"frysk": "frysk!", "antidraughts": "antidraughts",
                    "breakthrough": "breakthrough"}
# Where a peer reads Frysk! otherwise than lidraughts, our moves under its reading are what it
# must match. pydraughts weighs a king as 1.501 men (core/game.py), where lidraughts
# (Frisian.scala: 199 against 100), py-draughts and we weigh it just under two men.
# py-draughts does not enforce the three-moves-with-one-king rule (its FrisianBoard docstring:
# "tracked but not currently enforced"), which lidraughts' Actor.scala and pydraughts do.
PEER_READINGS = {("pydraughts", "frysk"): {"king_value": (1000, 1501)},
                 ("py-draughts", "frysk"): {"max_king_moves": 0}}

# Run inside a peer's venv: replay each game from the start, listing the legal moves before
# every move (and after the last) as [from, to, sorted captured squares], and say how the
# peer sees the end. A move the peer does not have stops that game (the lists show why).
PEER_WALK = r'''
import json, sys
args = json.loads(sys.stdin.read())
if args["peer"] == "py-draughts":
    import draughts
    cls = getattr(draughts, args["variant"])
    new = cls
    def legal(b):
        return [(m.square_list[0] + 1, m.square_list[-1] + 1,
                 sorted(c + 1 for c in m.captured_list), m) for m in b.legal_moves]
    def result(b):
        return b.result
else:
    from draughts import Board
    def new():
        return Board(args["variant"], "startpos")
    def legal(b):
        return [(m.steps_move[0], m.steps_move[-1], sorted(m.captures), m)
                for m in b.legal_moves()]
    def result(b):
        return {2: "1-0", 1: "0-1", 0: "1/2-1/2", None: "-"}[b.winner()]
out = []
for moves in args["games"]:
    board, lists = new(), []
    for step in moves + [None]:
        found = legal(board)
        lists.append(sorted({(f, t, tuple(c)) for f, t, c, _ in found}))
        chosen = [m for f, t, c, m in found if [f, t, c] == step]
        if step is None or not chosen:
            break
        board.push(chosen[0])
    out.append({"legal": lists, "result": result(board)})
print(json.dumps(out))
'''


def _peer_python(name: str) -> Path | None:
    """The interpreter of a peer venv made by bench/peers.py, or None when it is missing."""
    python = PEERS / name / "bin" / "python"
    return python if python.exists() and (PEERS / name / ".peer-installed").is_file() else None


def _run_peer(python: Path, peer: str, variant: str, games: list) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([str(python), "-I", "-c", PEER_WALK], check=True, env=env,
                          input=json.dumps({"peer": peer, "variant": variant, "games": games}),
                          capture_output=True, text=True, timeout=600)
    return json.loads(done.stdout)


def _number(board: Board, square: int) -> int:
    return int(board.name(square))


def _listed(board: Board) -> list[list]:
    """The legal moves as the peer walk lists them."""
    return sorted([_number(board, m.origin), _number(board, m.destination),
                   sorted(_number(board, s) for s in m.captures)] for m in board.legal_moves())


def _random_game(variant, seed: int, max_plies: int) -> list:
    """A random game until its end by the variant's rules (or ``max_plies``)."""
    rng, board, moves = random.Random(seed), Board(variant), []
    while len(moves) < max_plies and decide(board) is None:
        move = rng.choice(board.legal_moves())
        moves.append(move)
        board.push(move)
    return moves


def _walk(variant, moves: list) -> list[tuple[Board, list]]:
    """Each position of a game (and the one after its last move) with its legal list."""
    board, walked = Board(variant), []
    for move in [*moves, None]:
        walked.append((board.copy(), _listed(board)))
        if move is not None:
            board.push(move)
    return walked


GAMES = {"frysk": (14, 120), "antidraughts": (4, 160), "breakthrough": (6, 160)}


@pytest.mark.parametrize("peer", ["py-draughts", "pydraughts"])
@pytest.mark.parametrize("name", ["frysk", "antidraughts", "breakthrough"])
def test_legal_moves_match_both_peers_on_random_games(name, peer):
    python = _peer_python(peer)
    require(python is not None, f"{peer} in .bench-venvs (python bench/peers.py installs it)")
    variant = get_variant(name)
    count, max_plies = GAMES[name]
    games = [_random_game(variant, 1000 * len(name) + seed, max_plies) for seed in range(count)]
    ours = variant.with_options(**PEER_READINGS.get((peer, name), {}))
    peer_variant = PY_DRAUGHTS_BOARDS[name] if peer == "py-draughts" else PYDRAUGHTS_NAMES[name]
    records = [[[_number(b, m.origin), _number(b, m.destination),
                 sorted(_number(b, s) for s in m.captures)] for b, m in
                zip((w[0] for w in _walk(variant, g)), g, strict=False)] for g in games]
    theirs = _run_peer(python, peer, peer_variant, records)

    positions = captures = with_kings = decided = 0
    for game, seen in zip(games, theirs, strict=True):
        walked = _walk(ours, game)
        assert len(seen["legal"]) == len(walked), "the peer stopped on a move it does not have"
        for ply, ((board, listed), peer_list) in enumerate(zip(walked, seen["legal"],
                                                               strict=True)):
            assert [list(m) for m in peer_list] == listed, (peer, name, ply, board.fen())
            positions += 1
            captures += any(m[2] for m in listed)
            with_kings += bool(board.position.kings)
        decision = decide(walked[-1][0])
        if decision is not None and seen["result"] != "1/2-1/2":
            assert seen["result"] == ("1-0" if decision.winner == 0 else "0-1"), (peer, name)
            decided += 1
    assert positions >= 300 and captures >= 30 and decided >= 2, (positions, captures, decided)
    if name != "breakthrough":  # a Breakthrough game ends at its first king
        assert with_kings >= 30, with_kings


# ---- endings in the replayer -----------------------------------------------------------------

def _replayed(text: str):
    return replay_game(next(read_games(text)), INTERNATIONAL)


# A won Antidraughts game, written for this test and checked by hand on the board:
# White 33 and 43, Black 18 and 24. 1. 33-29 24x33 (forced) 2. 43-38 33x42 (forced): White
# has no piece left and so wins (Antidraughts.scala: winner = the side that cannot move).
ANTIDRAUGHTS_WIN = """[GameType "98"]
[FEN "W:W33,43:B18,24"]
[Result "2-0"]

1. 33-29 24x33 2. 43-38 33x42 2-0
"""


def test_antidraughts_the_side_left_without_a_move_wins():
    replayed = _replayed(ANTIDRAUGHTS_WIN)
    assert replayed.variant is ANTIDRAUGHTS
    assert (replayed.status, replayed.result, replayed.result_check, replayed.ending) == (
        "valid", "white", "consistent", "no-pieces")


def test_antidraughts_result_for_the_other_side_is_inconsistent():
    replayed = _replayed(ANTIDRAUGHTS_WIN.replace("2-0", "0-2"))
    assert replayed.result_check == "inconsistent"
    assert "White has no legal move, which wins in antidraughts" in replayed.result_note


# A won Breakthrough game, written for this test and checked by hand: White 12 and 45,
# Black 19 and 36. 1. 12-8 (a man one step from the far row) 19-23 2. 8-2 crowns on 2 and
# wins at once (Breakthrough.scala: specialEnd as soon as a side has a king).
BREAKTHROUGH_WIN = """[GameType "96"]
[FEN "W:W12,45:B19,36"]
[Result "2-0"]

1. 12-8 19-23 2. 8-2 2-0
"""


def test_breakthrough_the_first_king_wins():
    replayed = _replayed(BREAKTHROUGH_WIN)
    assert replayed.variant is BREAKTHROUGH
    assert (replayed.status, replayed.result, replayed.result_check, replayed.ending) == (
        "valid", "white", "consistent", "promotion")


def test_breakthrough_a_move_after_the_king_is_after_end():
    replayed = _replayed(BREAKTHROUGH_WIN.replace("8-2 2-0", "8-2 36-41 2-0"))
    assert replayed.status == "invalid"
    (error,) = replayed.errors
    assert (error.code, error.move_number, error.side, error.token) == (
        "after-end", 2, "Black", "36-41")
    assert error.message == "move after the end of the game: White made a king and won"
    assert replayed.plies == 3


def test_the_same_record_in_international_goes_on():
    # Without the Breakthrough rule the king is just a king and the game goes on.
    text = BREAKTHROUGH_WIN.replace('"96"', '"20"').replace("8-2 2-0", "8-2 36-41 2-0")
    replayed = _replayed(text)
    assert (replayed.status, replayed.ending) == ("valid", "undecided")


def test_frysk_draws_two_kings_against_one_after_seven_moves_each():
    # Frisian.scala maxDrawingMoves: 3 pieces, all kings -> 14 plies; and no threefold
    # repetition in the Frisian variants (DraughtsHistory.threefoldRepetition), though the
    # start position comes back twice here. White kings 47 and 50, Black king 1; checked by
    # hand that no king ever stands on a line with an enemy that has a free square behind it.
    moves = " ".join(f"{n}. {a} {b}" for n, (a, b) in enumerate(
        [("47-42", "1-6"), ("42-47", "6-1")] * 3 + [("47-42", "1-6")], 1))
    replayed = _replayed(f'[GameType "97"]\n[FEN "W:WK47,K50:BK1"]\n\n{moves} *\n')
    assert replayed.status == "valid"
    assert [(claim.rule, claim.ply) for claim in replayed.draws] == [("kings-3-7", 14)]


def test_stats_games_table_names_each_ending(tmp_path):
    from replay.stats import stats_tables

    path = tmp_path / "lidraughts.pdn"
    path.write_text(BREAKTHROUGH_WIN + "\n" + ANTIDRAUGHTS_WIN)
    games = stats_tables([str(path)], INTERNATIONAL, with_moves=False).games
    assert games["variant"].tolist() == ["breakthrough", "antidraughts"]
    assert games["ending"].tolist() == ["promotion", "no_pieces"]
    assert games["result"].tolist() == ["white", "white"]
