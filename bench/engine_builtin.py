"""The built-in engine's speed: nodes per second and time to depth on a fixed position set per
variant, beside py-draughts' ``SimpleEngine`` on the same positions (its venv from
bench/peers.py) where py-draughts has the variant with the same square numbering.

The positions: each variant's start, and the positions after 8, 16 and 24 plies of a seeded
random game (seed = the ply count; every move legal by our Python core). Each engine searches
each position from scratch to the depth given (py-draughts: ``SimpleEngine(depth_limit=D)``,
its iterative deepening to D; ours: ``Limit(depth=D)``, the fastest of three runs); the table
gives the total seconds and nodes over the set (each engine counts its own nodes: py-draughts
the nodes of its negamax and quiescence, ours every position entered). Run on one core:
``taskset -c 0 .venv/bin/python bench/engine_builtin.py`` (``--depth``, ``--peer-depth``,
``--variants``, ``--peer-python``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.engine.builtin import BuiltinEngine  # noqa: E402
from replay.engine.hub import position_text  # noqa: E402
from replay.engine.limits import Limit  # noqa: E402
from replay.record.board import Board  # noqa: E402

PEER_BOARDS = {"international": "StandardBoard", "russian": "RussianBoard"}
VARIANTS = ("international", "russian", "english", "brazilian", "italian", "czech", "thai",
            "turkish", "pool", "spanish", "portuguese", "frisian", "frysk", "antidraughts",
            "breakthrough")
PLIES = (0, 8, 16, 24)

PEER_SCRIPT = r"""
import json, sys, time
import numpy as np
import draughts
from draughts.engines import SimpleEngine
from draughts.models import Color
args = json.loads(sys.argv[1])
pieces = {"w": -1, "W": -2, "b": 1, "B": 2, "e": 0}
cls = getattr(draughts, args["board"])
seconds = nodes = 0
for text in args["positions"]:
    board = cls(starting_position=np.array([pieces[c] for c in text[1:]], dtype=np.int8),
                turn=Color.WHITE if text[0] == "W" else Color.BLACK)
    engine = SimpleEngine(depth_limit=args["depth"])
    began = time.perf_counter()
    engine.get_best_move(board)
    seconds += time.perf_counter() - began
    nodes += engine.nodes
print(json.dumps({"seconds": seconds, "nodes": nodes}))
"""


def positions(variant: str) -> list[Board]:
    """The variant's fixed position set (see the module's docstring)."""
    boards = []
    for plies in PLIES:
        board = Board(variant=variant)
        rng = random.Random(plies)
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.legal_moves():
            boards.append(Board(board.variant, board.position))
    return boards


def ours(variant: str, boards: list[Board], depth: int, repeat: int = 3) -> dict:
    """The set searched ``repeat`` times: the fastest time of each position (a loaded,
    shared machine only ever adds time), its nodes (the same every time)."""
    engine = BuiltinEngine(variant)
    seconds = nodes = 0.0
    for board in boards:
        infos = [engine.analyse(board, Limit(depth=depth)) for _ in range(repeat)]
        seconds += min(info.time or 0.0 for info in infos)
        nodes += infos[0].nodes or 0
    return {"seconds": seconds, "nodes": int(nodes)}


def peer_python(given: str | None) -> Path | None:
    """py-draughts' Python: the one given, else bench/peers.py's venv (made on first use)."""
    if given:
        return Path(given)
    sys.path.insert(0, str(ROOT / "bench"))
    from peers import PY_DRAUGHTS, ensure_peer

    return None if ensure_peer(PY_DRAUGHTS) else PY_DRAUGHTS.python


def peer(python: Path | None, variant: str, boards: list[Board], depth: int) -> dict | None:
    if variant not in PEER_BOARDS or python is None:
        return None
    args = {"board": PEER_BOARDS[variant], "depth": depth,
            "positions": [position_text(b, 2) for b in boards]}
    done = subprocess.run([str(python), "-c", PEER_SCRIPT, json.dumps(args)],
                          capture_output=True, text=True, timeout=3600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(name: str, depth: int, figures: dict | None) -> str:
    if figures is None:
        return ""
    rate = figures["nodes"] / figures["seconds"] if figures["seconds"] else 0
    return (f"| {name} | {depth} | {figures['seconds']:.3f} | {figures['nodes']:,} | "
            f"{rate:,.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=10, help="our depth (default 10)")
    parser.add_argument("--peer-depth", type=int, default=5,
                        help="both engines at this depth, beside each other (default 5)")
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--peer-python", metavar="PATH",
                        help="py-draughts' venv Python (default: bench/peers.py's)")
    options = parser.parse_args()
    python = peer_python(options.peer_python)
    print(f"started {time.strftime('%H:%M:%S')}; {len(PLIES)} positions a variant "
          f"(start, after {', '.join(map(str, PLIES[1:]))} random plies)")
    print("| variant, engine | depth | seconds (set) | nodes | nodes/s |")
    print("|---|---|---|---|---|")
    for variant in options.variants:
        boards = positions(variant)
        print(row(f"{variant}, builtin", options.depth, ours(variant, boards, options.depth)),
              flush=True)
        if variant in PEER_BOARDS:
            print(row(f"{variant}, builtin", options.peer_depth,
                      ours(variant, boards, options.peer_depth)), flush=True)
            print(row(f"{variant}, py-draughts SimpleEngine", options.peer_depth,
                      peer(python, variant, boards, options.peer_depth)), flush=True)


if __name__ == "__main__":
    main()
