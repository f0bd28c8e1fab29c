"""CPU time of validation (read + replay, one process) and of building the game tree on top.

    .venv/bin/python bench/tree.py [--repeat 7] [FILE ...]

Default files: real archives of ../shared/data (Russian, International, English). CPU time
of this process (``time.process_time``), best of ``--repeat`` runs, so that other work on a
shared machine disturbs it less than wall time. Validation never builds the tree; the second
figure is what ``mainline()`` adds for every game, variations included (the API, conversion
and the viewer pay it, once per game). To compare two checkouts, run this script in each.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pdn.reader import read_games  # noqa: E402
from replay.record.replayer import replay_game  # noqa: E402
from replay.validate.reports import validate_sources  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
FILES = [DATA / "games-checkers" / "russian" / "World_Championship_1998.pdn",
         DATA / "international" / "fmjd_wk2007_all_games.pdn",
         DATA / "english" / "tinsley.pdn",
         DATA / "tests" / "wiegerw_pdn" / "succeed" / "nk ronde 01.pdn"]


def best_cpu(run, repeat: int) -> float:
    """The least CPU time of ``repeat`` calls of ``run``."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=FILES)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    names = [str(path) for path in args.files]
    games = [game for name in names for game in read_games(name)]
    replayed = [replay_game(game) for game in games]
    plies = sum(len(r.moves) for r in replayed)
    validate = best_cpu(lambda: list(validate_sources(names, jobs=1)), args.repeat)
    print(f"{len(games)} games, {plies} main-line plies, {ROOT}")
    print(f"  validate (read + replay)    {validate:8.3f} s CPU  {plies / validate:9,.0f} plies/s")

    def replays() -> None:
        for game in games:
            replay_game(game)

    def trees() -> None:
        for game in games:
            replay_game(game).mainline()

    replay_only = best_cpu(replays, args.repeat)
    with_tree = best_cpu(trees, args.repeat)
    print(f"  replay                      {replay_only:8.3f} s CPU")
    print(f"  replay + mainline()         {with_tree:8.3f} s CPU  "
          f"(+{100 * (with_tree - replay_only) / replay_only:.0f}% for the tree)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
