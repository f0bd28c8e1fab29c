"""CPU time of ``pdn.read_games`` over a file (the reader alone: decoding, chunking, parsing,
the main line's move tokens), best of ``--repeat`` runs, pinned by the caller (``taskset``).

    taskset -c 0 .venv/bin/python bench/reader_cpu.py ../shared/data/english/OCA_2.0.pdn
    taskset -c 0 .venv/bin/python bench/reader_cpu.py --international 5000

``--international N`` reads N random International games made by bench/validate.py's
generator (seed 2026). ``PDN_NO_FASTPATH=1`` sends every game through Lark.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pdn import read_games  # noqa: E402


def cpu_seconds(path: Path) -> tuple[int, float]:
    """Games read and the CPU seconds ``read_games`` took (asking each game's tokens)."""
    start = time.process_time()
    count = 0
    for game in read_games(path):
        game.main_line_tokens()
        count += 1
    return count, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path)
    parser.add_argument("--international", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = args.file
    if args.international:
        from validate import random_games

        with tempfile.NamedTemporaryFile("w", suffix=".pdn", delete=False) as handle:
            handle.write("\n".join(random_games("international", args.international)))
        path = Path(handle.name)
    runs = [cpu_seconds(path) for _ in range(args.repeat)]
    games = runs[0][0]
    print(f"{path.name}: {games:,} games, read_games {min(t for _, t in runs):.2f} s CPU "
          f"(best of {args.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
