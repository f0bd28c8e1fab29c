"""One figure of an archive: result split, game lengths, first kings, top openings.

matplotlib (the ``plots`` extra) is imported here only, with the Agg backend, so nothing
needs a display.
"""

from __future__ import annotations

import os

import pandas as pd

RESULT_COLOURS = {"white": "#e8e2d0", "black": "#3b3b3b", "draw": "#8fa8c8",
                  "double_forfeit": "#c0504d", "unknown": "#bbbbbb"}
TOP_OPENINGS = 10


def plot_tables(games: pd.DataFrame, openings: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write the figure to ``path`` (``.png`` or ``.svg``, chosen by the extension)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(2, 2, figsize=(13, 9), layout="constrained")
    figure.suptitle(f"{len(games):,} games", fontsize=14)
    _results(axes[0, 0], games)
    _lengths(axes[0, 1], games)
    _first_kings(axes[1, 0], games)
    _openings(axes[1, 1], openings)
    figure.savefig(path)
    plt.close(figure)


def _results(ax, games: pd.DataFrame) -> None:
    shares = pd.crosstab(games["variant"], games["result"], normalize="index",
                         dropna=False) * 100
    shares = shares.loc[shares.index.isin(games["variant"].unique())]
    left = pd.Series(0.0, index=shares.index)
    for result, colour in RESULT_COLOURS.items():
        if result not in shares or not shares[result].any():
            continue
        bars = ax.barh(shares.index.astype(str), shares[result], left=left, color=colour,
                       edgecolor="#555555", height=0.5, label=result.replace("_", " "))
        ax.bar_label(bars, labels=[f"{v:.0f}%" if v >= 5 else "" for v in shares[result]],
                     label_type="center", fontsize=8,
                     color="white" if result in ("black", "double_forfeit") else "black")
        left += shares[result]
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of games")
    ax.set_title("Results (winner by colour)")
    ax.legend(loc="lower right", fontsize=8, framealpha=0.9)


def _lengths(ax, games: pd.DataFrame) -> None:
    plies = games["plies"].dropna().astype(int)
    top = int(plies.max()) if len(plies) else 0
    ax.hist(plies, bins=range(0, top + 5, 4), color="#5b7fa6")
    if len(plies):
        ax.axvline(plies.median(), color="#c0504d", linestyle="--",
                   label=f"median {plies.median():.0f} plies")
        ax.legend(fontsize=8)
    ax.set_xlabel("plies")
    ax.set_ylabel("games")
    ax.set_title("Game length")


def _first_kings(ax, games: pd.DataFrame) -> None:
    for column, colour, label in (("first_king_white", "#d08c2c", "White"),
                                  ("first_king_black", "#2b2b2b", "Black")):
        plies = games[column].dropna().astype(int)
        share = len(plies) / len(games) * 100 if len(games) else 0
        if len(plies):
            ax.hist(plies, bins=range(0, int(plies.max()) + 5, 4), color=colour,
                    histtype="step", linewidth=2, label=f"{label}: {share:.0f}% of games crown")
    ax.set_xlabel("ply of the side's first king")
    ax.set_ylabel("games")
    ax.set_title("First king")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def _openings(ax, openings: pd.DataFrame) -> None:
    top = openings.head(TOP_OPENINGS).iloc[::-1]
    labels = [f"{row.opening}" + (f"  [{row.ballot}]" if isinstance(row.ballot, str) else "")
              for row in top.itertuples()]
    ax.barh(range(len(top)), top["games"], color="#5b7fa6")
    draws = (top["draw"] / top["games"] * 100).fillna(0)
    for y, (games, draw) in enumerate(zip(top["games"], draws, strict=True)):
        ax.text(games, y, f" {draw:.0f}% drawn", va="center", fontsize=7)
    ax.set_yticks(range(len(top)), labels, fontsize=7, family="monospace")
    ax.set_xlabel("games")
    ax.set_title(f"Top openings (first {int(top['plies'].max()) if len(top) else 0} plies)")
    ax.margins(x=0.2)
