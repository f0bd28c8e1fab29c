"""Perft speed: pdn-toolkit beside py-draughts and pydraughts, in one run.

    .venv/bin/python bench/perft.py [--depth 8] [--variants russian,international,...]

Every engine counts the last ply in bulk (the length of the move list), so nodes/s compare
like with like; py-draughts and pydraughts run in their own venvs (bench/peers.py). Deeper
published counts (DCTL's perft tests, Aart Bik's figures) are checked here too, since they
take too long for tests.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from replay.record.board import Board
from replay.rules.perft import perft
from replay.rules.variants import get_variant

# (variant, depth, published drop-duplicates count, or None) for the side-by-side table.
DEFAULT_RUNS = {
    "russian": (9, 4_570_586),
    "international": (7, 1_049_442),
    "brazilian": (8, 907_830),
    "english": (9, 3_963_680),
    "thai": (7, 1_820_189),
    "czech": (8, 845_931),
    "spanish": (8, 828_783),
    "pool": (8, 929_896),
    "canadian": (6, 584_100),
    "italian": (9, 3_860_875),
    "frisian": (8, 2_825_779),
    # The kish crate's table with its duplicate routes merged (docs/turkish.md).
    "turkish": (7, 10_782_308),
    "portuguese": (8, None),  # no published count; speed only
}
# Extra positions with published counts (drop duplicates).
EXTRA = [
    ("international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38", 11,
     377_436, "Woldouby"),
    ("international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", 6,
     629_010, "DCTL king position"),
]
PEER_NAMES = {"russian": "russian", "international": "international", "brazilian": "brazilian",
              "english": "english", "italian": "italian", "frisian": "frisian",
              "turkish": "turkish"}


def ours(variant_name: str, depth: int, fen: str | None = None) -> tuple[int, float]:
    variant = get_variant(variant_name)
    board = Board.from_fen(fen, variant) if fen else Board(variant)
    start = time.perf_counter()
    nodes = perft(board.generator, board.position, depth)
    return nodes, time.perf_counter() - start


def rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds / 1e3:,.0f}k/s" if seconds > 0 else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default=",".join(DEFAULT_RUNS))
    parser.add_argument("--depth", type=int, help="override every variant's depth")
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args()
    print(f"{'variant':<14}{'depth':>6}{'nodes':>14}{'ok':>4}{'ours':>12}"
          f"{'py-draughts':>14}{'pydraughts':>14}")
    for name in args.variants.split(","):
        depth, expected = DEFAULT_RUNS[name]
        depth = args.depth or depth
        nodes, seconds = ours(name, depth)
        ok = "" if args.depth or expected is None else ("yes" if nodes == expected else "NO")
        cells = [rate(nodes, seconds)]
        if not args.no_peers and name in PEER_NAMES:
            py = peers.py_draughts_perft(PEER_NAMES[name], depth)
            slow = peers.pydraughts_perft(PEER_NAMES[name], min(depth, 4))
            for result in (py, slow):
                cells.append(rate(result["nodes"], result["seconds"])
                             if result.get("available") and "nodes" in result else "n/a")
        else:
            cells += ["n/a", "n/a"]
        print(f"{name:<14}{depth:>6}{nodes:>14,}{ok:>4}{cells[0]:>12}{cells[1]:>14}"
              f"{cells[2]:>14}")
    for name, fen, depth, expected, label in EXTRA:
        nodes, seconds = ours(name, depth, fen)
        print(f"{label:<24} depth {depth}: {nodes:,} ({'ok' if nodes == expected else 'NO'}), "
              f"{rate(nodes, seconds)}")
    print("pydraughts runs at depth <= 4 (it makes ~1k nodes/s).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
