"""A match's score and the Elo difference it shows, with a 95% interval: ``elo.py PLAYER
FILE.pdn ...`` reads the games ``pdn match`` wrote and scores them for PLAYER (a win 1, a
draw 1/2, a game without a result, ``*``, left out and counted apart).

The interval: the mean score ``p`` of ``n`` games, its standard error ``s / sqrt(n)`` from the
games' own spread ``s``, ``p ± 1.96`` of that, each end turned into Elo by
``-400 log10(1/p - 1)``; a score of 0 or 1 (or an end past them) has no finite Elo on that side.
Where every game scored the same (no spread: all won, or all lost) the inner end is the exact
binomial one instead (Clopper-Pearson, 2.5% a side): ``0.025 ** (1/n)`` for ``n`` wins.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

TAG = re.compile(r'^\[(White|Black|Result) "([^"]*)"\]', re.M)
POINTS = {"1-0": (1.0, 0.0), "2-0": (1.0, 0.0), "0-1": (0.0, 1.0), "0-2": (0.0, 1.0),
          "1/2-1/2": (0.5, 0.5), "1-1": (0.5, 0.5)}


def scores(player: str, texts: list[str]) -> tuple[list[float], int]:
    """The player's score in each finished game, and how many games had no result."""
    found, unfinished = [], 0
    for text in texts:
        for game in re.split(r"\n\s*\n(?=\[)", text):
            tags = dict(TAG.findall(game))
            if player not in (tags.get("White"), tags.get("Black")):
                continue
            if tags.get("Result") not in POINTS:
                unfinished += 1
                continue
            white, black = POINTS[tags["Result"]]
            found.append(white if tags["White"] == player else black)
    return found, unfinished


def elo(p: float) -> float:
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400 * math.log10(1 / p - 1)


def summary(points: list[float]) -> str:
    n = len(points)
    if n == 0:
        return "no finished game"
    p = sum(points) / n
    spread = math.sqrt(sum((x - p) ** 2 for x in points) / n)
    half = 1.96 * spread / math.sqrt(n)
    wins, draws = points.count(1.0), points.count(0.5)
    low, high = elo(p - half), elo(p + half)
    if p == 1:
        low = elo(0.025 ** (1 / n))
    elif p == 0:
        high = elo(1 - 0.025 ** (1 / n))
    return (f"{n} games: +{wins} ={draws} -{n - wins - draws}, score {sum(points):g}/{n} "
            f"= {100 * p:.1f}%, Elo {elo(p):+.0f} (95%: {low:+.0f} to {high:+.0f})")


def main() -> None:
    player, *files = sys.argv[1:]
    points, unfinished = scores(player, [Path(f).read_text(encoding="utf-8") for f in files])
    print(summary(points) + (f"; {unfinished} without a result (move cap)" if unfinished
                             else ""))


if __name__ == "__main__":
    main()
