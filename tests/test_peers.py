"""Interoperability with the peers py-draughts and pydraughts: PDN written by our converter is
read back by each peer's own reader and replayed by its own rules, and the peer's position
after every move of the main line must be ours.

The peers live in their own venvs (``bench/peers.py``; ``make test-deps`` installs them);
where one is missing its tests skip, and under ``CI=true`` fail. No network: nothing is
installed here. Where a peer cannot read a notation the case says so and is left out:
py-draughts has no English checkers (its "American" board lets White start from 21-32 and
makes captures optional), so it is asked about Russian and International only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import require

from pdn.fen import parse_fen
from pdn.game import Game
from pdn.reader import read_games
from replay.convert.games import Target, convert_game, render
from replay.rules.variants import get_variant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import peers

# Each script reads [[variant, text], …] and prints, per game, the peer's FEN after every
# move of the main line, or the error that stopped it.
PY_DRAUGHTS = """
import json, sys, draughts
out = []
for board, text in json.load(sys.stdin):
    try:
        b = getattr(draughts, board).from_pdn(text)
    except Exception as exc:
        out.append(f"{type(exc).__name__}: {exc}")
        continue
    fens = []
    while b._moves_stack:
        fens.append(str(b.fen).removeprefix('[FEN "').removesuffix('"]'))
        b.pop()
    out.append(fens[::-1])
print(json.dumps(out))
"""
PYDRAUGHTS = """
import json, sys
from draughts import Board, Move
from draughts.PDN import PDNReader
out = []
for variant, text in json.load(sys.stdin):
    try:
        moves = PDNReader(pdn_text=text).games[0].moves
        b, fens = Board(variant, "startpos"), []
        for m in moves:
            b.push(Move(b, pdn_move=m))
            fens.append(b.fen)
        out.append(fens)
    except Exception as exc:
        out.append(f"{type(exc).__name__}: {exc!r}")
print(json.dumps(out))
"""


@dataclass(frozen=True)
class Case:
    """Games of an archive written in ``target`` for a peer that knows the variant as
    ``peer_variant`` and writes its FEN in the squares of ``fen_target``."""

    peer: peers.Peer
    variant: str
    archive: str
    games: int
    target: Target
    peer_variant: str
    fen_target: Target

    @property
    def id(self) -> str:
        return f"{self.peer.name}-{self.variant}"


CASES = [
    Case(peers.PY_DRAUGHTS, "russian", "games-checkers/russian/World_Championship_1998.pdn", 25,
         Target("full"), "RussianBoard", Target("numeric")),
    Case(peers.PY_DRAUGHTS, "international", "international/fmjd_wk2007_all_games.pdn", 25,
         Target("pdn"), "StandardBoard", Target("numeric")),
    # pydraughts: a Russian capture only with 'x' (PDN 3.0's ':' raises KeyError), and a
    # result written '1/2:1/2' (as the WC 1998 records do) is read as a move, so its Russian
    # games come from abatsiev.pdn ('1-0' results); its Russian FEN is alphanumeric. About
    # 300 moves/s: a few games each.
    Case(peers.PYDRAUGHTS, "russian", "games-checkers/russian/abatsiev.pdn", 4,
         Target("full", capture_separator="x"), "russian", Target("full")),
    Case(peers.PYDRAUGHTS, "international", "international/fmjd_wk2007_all_games.pdn", 3,
         Target("pdn"), "standard", Target("numeric")),
    Case(peers.PYDRAUGHTS, "english", "english/OCA_2.0.pdn", 6, Target("pdn"), "english",
         Target("numeric")),
]


def sample(root: Path, case: Case) -> list[Game]:
    """The first ``case.games`` games of the archive that start from the initial position
    and that we replay without error (what the peers are asked to agree with)."""
    variant = get_variant(case.variant)
    chosen = []
    for game in read_games(root / case.archive):
        if "FEN" not in game.tags and game.moves.plies and convert_game(game, variant).complete:
            chosen.append(game)
        if len(chosen) == case.games:
            break
    return chosen


def run_peer(peer: peers.Peer, script: str, cases: list) -> list:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run([str(peer.python), "-I", "-c", script], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=600, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def pieces(fen: str, target: Target, variant) -> tuple[str, dict]:
    setup = parse_fen(fen, target.gametype(variant).notation)
    return fen.strip()[0], setup.pieces


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.id)
def test_a_peer_reads_our_pdn_and_reaches_our_position_after_every_move(shared_data: Path,
                                                                        case: Case):
    require(peers.installed(case.peer), f"the peer {case.peer.name} (make test-deps)")
    variant = get_variant(case.variant)
    games = sample(shared_data, case)
    assert len(games) == case.games
    texts = [render(convert_game(game, variant, case.target)) for game in games]
    script = PY_DRAUGHTS if case.peer is peers.PY_DRAUGHTS else PYDRAUGHTS
    answers = run_peer(case.peer, script, [[case.peer_variant, text] for text in texts])
    for game, text, answer in zip(games, texts, answers, strict=True):
        ours = [step.fen for step in convert_game(game, variant, case.fen_target).tree.steps]
        assert isinstance(answer, list), (game.index, answer, text)
        assert len(answer) == len(ours), (game.index, text)
        for ply, (theirs, mine) in enumerate(zip(answer, ours, strict=True), 1):
            assert pieces(theirs, case.fen_target, variant) == pieces(
                mine, case.fen_target, variant), (game.index, ply, theirs, mine)
