"""Validation speed: read + replay of random legal games, ours beside py-draughts and pydraughts.

    .venv/bin/python bench/validate.py [--games 2000] [--variants russian,international]

The games are random legal playouts made by our engine with a fixed seed, written in full
notation (numeric for International) with minimal capture paths, so that every peer can read
them. Timed for us: reading the PDN file and replaying every move (``validate_sources``), in
one process and in worker processes. The peers' timed regions are described in bench/peers.py.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402

from replay.board import Board  # noqa: E402
from replay.notation import full_text  # noqa: E402
from replay.validate import validate_sources  # noqa: E402
from replay.variants import get_variant  # noqa: E402

OUT = ROOT / "bench" / "out"


def random_games(variant_name: str, count: int, seed: int = 2026, max_plies: int = 120
                 ) -> list[str]:
    """PDN texts of random legal games."""
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    texts = []
    for number in range(1, count + 1):
        board = Board(variant)
        tokens = []
        for ply in range(rng.randint(20, max_plies)):
            moves = board.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            text = full_text(board, move)
            tokens.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
            board.push(move)
        tags = (f'[Event "random {number}"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n'
                f'[GameType "{variant.gametype.number}"]\n\n')
        texts.append(tags + " ".join(tokens) + " *\n")
    return texts


def ours(path: Path, variant_name: str, jobs: int) -> tuple[int, int, float]:
    variant = get_variant(variant_name)
    start = time.perf_counter()
    games = moves = 0
    for report in validate_sources([str(path)], variant, jobs=jobs):
        assert not isinstance(report, str), report
        games += report.status == "valid"
        moves += report.plies
    return games, moves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variants", default="russian,international")
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.variants.split(","):
        texts = random_games(name, args.games)
        path = OUT / f"random_{name}.pdn"
        path.write_text("\n".join(texts), encoding="utf-8")
        print(f"== {name}: {len(texts)} random games ({path.stat().st_size / 1e6:.1f} MB)")
        rows = []
        for jobs in (1, 2):
            valid, moves, seconds = ours(path, name, jobs)
            rows.append((f"pdn-toolkit, {jobs} process{'es' if jobs > 1 else ''}",
                         moves / seconds, f"{valid}/{len(texts)} valid"))
        if not args.no_peers:
            fast = peers.py_draughts_replay(variant=name, texts=texts)
            if fast.get("available") and "moves_per_s" in fast:
                rows.append(("py-draughts from_pdn", fast["moves_per_s"],
                             f"{fast['games_accepted']}/{len(texts)} accepted"))
            slow = peers.pydraughts_replay(variant=name, texts=texts[:100], max_games=100)
            if slow.get("available") and "moves_per_s" in slow:
                rows.append(("pydraughts (100 games)", slow["moves_per_s"],
                             f"{slow['games_accepted']}/100 accepted"))
        reference = next((rate for label, rate, _ in rows if label.startswith("py-draughts")),
                         None)
        for label, rate, note in rows:
            ratio = f"{rate / reference:5.2f}x" if reference else ""
            print(f"  {label:<28}{rate:>12,.0f} moves/s  {ratio:>7}  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
