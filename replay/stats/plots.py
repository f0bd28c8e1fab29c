"""One figure of an archive: game lengths, first kings, results by group, top openings.

The results panel compares groups, stacked bars of who won: the variants of a mixed
archive, else the years (decades when there are many) of one; an archive with one group
and no dates has none. Openings are labelled with the name the openings table gives
(``replay.reference.openings``) where one exists, then their moves. Count axes have whole-number
ticks.

matplotlib (the ``plots`` extra) is imported here only, with the Agg backend, so nothing
needs a display.
"""

from __future__ import annotations

import os

import pandas as pd

RESULT_COLOURS = {"white": "#e8e2d0", "black": "#3b3b3b", "draw": "#8fa8c8",
                  "double_forfeit": "#c0504d", "unknown": "#bbbbbb"}
TOP_OPENINGS = 10
MOST_YEARS = 12  # more distinct years than this are grouped by decade


def plot_tables(games: pd.DataFrame, openings: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write the figure to ``path`` (``.png`` or ``.svg``, chosen by the extension)."""
    import matplotlib.pyplot as plt

    from replay.run.output import atomic_writer

    figure = archive_figure(games, openings)
    try:
        with atomic_writer(path, binary=True) as stream:  # never half a picture
            figure.savefig(stream, format=os.fspath(path).rsplit(".", 1)[-1].lower())
    finally:
        plt.close(figure)


def archive_figure(games: pd.DataFrame, openings: pd.DataFrame):
    """The figure (a matplotlib ``Figure``): lengths and first kings side by side, the
    results by group under them when there are groups to compare, the openings last."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = result_groups(games)
    heights = [1.0, *([0.3 + 0.08 * groups.nunique()] if groups is not None else []), 0.9]
    figure = plt.figure(figsize=(12, 3.6 * sum(heights)), layout="constrained")
    figure.suptitle(f"{len(games):,} games", fontsize=14)
    # each row a figure of its own, so that the long opening labels do not push the panels
    # above them aside
    rows = figure.subfigures(len(heights), 1, height_ratios=heights)
    lengths, kings = rows[0].subplots(1, 2)
    _lengths(lengths, games)
    _first_kings(kings, games)
    if groups is not None:
        _results(rows[1].subplots(), games, groups)
    _openings(rows[-1].subplots(), openings, games)
    return figure


def result_groups(games: pd.DataFrame) -> pd.Series | None:
    """What the results panel compares, a label per game: its variant when the archive
    mixes variants, else its year or decade when two or more are known; None otherwise."""
    if games["variant"].nunique() > 1:
        return games["variant"].astype(str)
    years = pd.to_numeric(games["year"], errors="coerce") if "year" in games else None
    if years is None or years.nunique() < 2:
        return None
    if years.nunique() > MOST_YEARS:
        return years.map(lambda year: f"{int(year) // 10 * 10}s", na_action="ignore")
    return years.map(lambda year: str(int(year)), na_action="ignore")


def _integer_ticks(axis) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _results(ax, games: pd.DataFrame, groups: pd.Series) -> None:
    known = groups.notna()
    counts = pd.crosstab(groups[known], games.loc[known, "result"])
    shares = counts.div(counts.sum(axis=1), axis=0) * 100
    shares = shares.sort_index(ascending=False)  # the first group at the top
    labels = [f"{name} ({counts.loc[name].sum():,})" for name in shares.index]
    left = pd.Series(0.0, index=shares.index)
    for result, colour in RESULT_COLOURS.items():
        if result not in shares or not shares[result].any():
            continue
        bars = ax.barh(labels, shares[result], left=left, color=colour,
                       edgecolor="#555555", height=0.6, label=result.replace("_", " "))
        ax.bar_label(bars, labels=[f"{v:.0f}%" if v >= 6 else "" for v in shares[result]],
                     label_type="center", fontsize=8,
                     color="white" if result in ("black", "double_forfeit") else "black")
        left += shares[result]
    ax.set_xlim(0, 100)
    # games without a group (no year) are left out of the bars: said, never silently
    left_out = int((~known).sum())
    ax.set_xlabel("% of the group's games" + (
        f"; {left_out:,} undated {'game' if left_out == 1 else 'games'} not shown"
        if left_out else ""))
    ax.set_title("Results (winner by colour)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)


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
    _integer_ticks(ax.yaxis)


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
    _integer_ticks(ax.yaxis)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def opening_names(games: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(variant, opening moves) -> the name the openings table gives the games that open
    so (the most frequent, where transpositions give several)."""
    if "opening_name" not in games:
        return {}
    named = games.dropna(subset=["opening", "opening_name"])
    return {(str(variant), str(opening)): names.mode().iloc[0]
            for (variant, opening), names in
            named.groupby(["variant", "opening"], observed=True)["opening_name"]}


def opening_labels(openings: pd.DataFrame, games: pd.DataFrame) -> list[str]:
    """A label per row of the openings table: its name (and ballot) where known, then the
    moves."""
    names = opening_names(games)
    labels = []
    for row in openings.itertuples():
        name = names.get((str(row.variant), str(row.opening)), "")
        ballot = f"[{row.ballot}]" if isinstance(row.ballot, str) else ""
        title = " ".join(part for part in (name, ballot) if part)
        labels.append(f"{title}  ·  {row.opening}" if title else str(row.opening))
    return labels


def _openings(ax, openings: pd.DataFrame, games: pd.DataFrame) -> None:
    top = openings.head(TOP_OPENINGS).iloc[::-1]
    ax.barh(range(len(top)), top["games"], color="#5b7fa6")
    draws = (top["draw"] / top["games"] * 100).fillna(0)
    for y, (count, draw) in enumerate(zip(top["games"], draws, strict=True)):
        ax.text(count, y, f" {draw:.0f}% drawn", va="center", fontsize=8)
    ax.set_yticks(range(len(top)), opening_labels(top, games), fontsize=9)
    ax.set_xlabel("games")
    ax.set_title(f"Top openings (first {int(top['plies'].max()) if len(top) else 0} plies)")
    _integer_ticks(ax.xaxis)
    ax.margins(x=0.12)
