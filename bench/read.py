"""Reading speed: the OCA archive (11.5 MB, 22,621 English games), ours beside pydraughts.

    .venv/bin/python bench/read.py [--file PATH] [--peer-games 2000] [--no-peers] [--repeat N]

Timed for us: ``read_games`` over the whole file (decoding, chunking, parsing every game
into tags, a movetext tree and diagnostics), in one process and with 2 worker processes
(chunks of games parsed in parallel, yielded in file order), then over the first
``--peer-games`` games. pydraughts' ``PDNReader`` reads those same first games in its own
venv (``.bench-venvs/pydraughts``, made on first use by bench/peers.py, since pydraughts
and py-draughts both import as ``draughts``); its time grows quadratically with N.
``--repeat N`` times each of ours N times and keeps the best (on a shared machine the best
run is the one least disturbed by others).
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402

from replay.run.reading import read_games  # noqa: E402

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"


def time_ours(path: Path, workers: int, limit: int | None = None,
              repeat: int = 1) -> tuple[int, int, float]:
    """Games read, error diagnostics, seconds (the best of ``repeat`` runs)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        games = errors = 0
        for game in islice(read_games(path, workers=workers), limit):
            games += 1
            errors += len(game.errors)
        best = min(best, time.perf_counter() - start)
    return games, errors, best


def row(name: str, games: int, seconds: float, megabytes: float | None, note: str = "") -> str:
    rate = f"{megabytes / seconds:7.2f}" if megabytes is not None else "      -"
    return f"{name:<34} {games:>7,} {seconds:>8.2f} {rate} {games / seconds:>9,.0f}  {note}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=OCA)
    parser.add_argument("--peer-games", type=int, default=2000)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="best of N runs of ours")
    args = parser.parse_args()
    if not args.file.is_file():
        sys.exit(f"{args.file}: not found (the shared archives are not present)")
    megabytes = args.file.stat().st_size / 1e6
    print(f"{args.file.name}: {megabytes:.1f} MB")
    print(f"{'reader':<34} {'games':>7} {'seconds':>8} {'MB/s':>7} {'games/s':>9}")
    for workers in (1, 2):
        games, errors, seconds = time_ours(args.file, workers, repeat=args.repeat)
        print(row(f"pdn-toolkit, {workers} process{'es' if workers > 1 else ''}", games,
                  seconds, megabytes, f"{errors} error diagnostics"))
    games, _, seconds = time_ours(args.file, 1, args.peer_games, args.repeat)
    print(row(f"pdn-toolkit, first {args.peer_games:,} games", games, seconds, None))
    if args.no_peers:
        return
    peer = peers.pydraughts_read(args.file, max_games=args.peer_games)
    if peer.get("error") or not peer.get("seconds"):
        print(f"pydraughts: {peer.get('error') or 'no result'}")
        return
    print(row(f"pydraughts {peer['version']} PDNReader", peer["games_parsed"], peer["seconds"],
              None, f"first {peer['games_in']:,} games in one text"))


if __name__ == "__main__":
    main()
