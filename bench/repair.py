"""How well ``pdn clean --repair`` mends slips made on purpose in real games.

    .venv/bin/python bench/repair.py [--games 40] [--seed 2026] [--at-end] [--kinds KIND ...]

Games of the public archives in ``../shared/data`` (short and full Russian, numeric English,
International; ``tests/slips.ARCHIVES``) that replay cleanly get ONE slip of each kind
(``tests/slips.KINDS``: a ply left out, a ply written twice, two neighbouring plies
exchanged, two moves of one side exchanged, a letter or digit off by one, a short move with
its neighbour's file, where one move was legal the mover's move before it written again, a
ply three plies late in the other colour's column, a capture with a wrong landing square).
Each slipped game goes through ``replay.validate.repair.repair_game``; per kind the bench
counts the games restored to the original, "repaired" into a different game (or cut short:
fewer plies than the original), and left alone (no sure repair, or a slip that leaves a
legal record the search cannot see), and times the search of each broken game.
Goals: at least 85% restored over all kinds, at most 2% repaired into another game.
With ``--at-end`` the slip is made at one of the game's last plies instead, where nothing
written after it confirms a repair (``docs/repair.md``): there the goal is no repair into
another game, a shortened one least of all. The archives are read from ``PDN_SHARED_DATA``
when it is set.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.slips import KINDS, SWAP_LOST, archive_games, make_slip  # noqa: E402

from replay.record.replayer import INVALID, replay_game  # noqa: E402
from replay.validate.repair import repair_game  # noqa: E402

DATA = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))
OUTCOMES = ("restored", "other game", "cut short", "left alone", "still legal")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per archive")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--show", action="store_true", help="print each wrong repair")
    parser.add_argument("--infer", action="store_true",
                        help="give no variant: each slipped game's variant is told from its "
                        "record (the archives but International carry no GameType tag)")
    parser.add_argument("--at-end", action="store_true",
                        help="make each slip at one of the game's last plies")
    parser.add_argument("--kinds", nargs="+", choices=(*KINDS, SWAP_LOST), default=KINDS,
                        metavar="KIND", help=f"the slips made (default: all of {', '.join(KINDS)}"
                        f"; also {SWAP_LOST}: a ply written before the one it follows, the "
                        "ply between them lost)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    counts: dict[str, Counter[str]] = {kind: Counter() for kind in args.kinds}
    by_archive: dict[str, Counter[str]] = {}
    times: list[float] = []
    for label, variant, game, replayed in archive_games(DATA, args.games, rng):
        original = tuple(replayed.moves)
        for kind in args.kinds:
            slipped = make_slip(game, replayed, kind, rng, at_end=args.at_end)
            if slipped is None:
                continue
            told = None if args.infer else variant
            if replay_game(slipped, told).status != INVALID:
                outcome = "still legal"
            else:
                started = time.perf_counter()
                mend = repair_game(slipped, told).mend
                times.append(time.perf_counter() - started)
                if mend is None:
                    outcome = "left alone"
                elif (moves := tuple(replay_game(slipped, told).moves)) == original:
                    outcome = "restored"
                else:
                    outcome = "cut short" if len(moves) < len(original) else "other game"
                    if args.show:
                        print(f"{label} game {game.index} {kind} ({outcome}): {mend}")
            counts[kind][outcome] += 1
            by_archive.setdefault(label, Counter())[outcome] += 1
    _print_table("slip", counts)
    _print_table("archive", by_archive)
    total = sum((c for c in counts.values()), Counter())
    slips = sum(total.values())
    restored = total["restored"] / slips
    wrong = (total["other game"] + total["cut short"]) / slips
    print(f"\nall kinds: {restored:.1%} restored (goal >= 85%), {wrong:.1%} repaired into "
          f"another game (goal <= 2%)")
    if times:
        print(f"search per broken game: median {statistics.median(times) * 1000:.0f} ms, "
              f"worst {max(times) * 1000:.0f} ms over {len(times)} games")
    return 0 if restored >= 0.85 and wrong <= 0.02 else 1


def _print_table(title: str, counts: dict[str, Counter[str]]) -> None:
    print(f"\n{title:<16}" + "".join(f"{name:>12}" for name in OUTCOMES) + f"{'total':>8}")
    for key, counter in counts.items():
        total = sum(counter.values()) or 1
        cells = "".join(f"{counter[name]:>6} {counter[name] / total:>4.0%}" for name in OUTCOMES)
        print(f"{key:<16}{cells}{sum(counter.values()):>8}")


if __name__ == "__main__":
    sys.exit(main())
