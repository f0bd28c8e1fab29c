"""The ``pdn stats --plot`` figure: whole-number ticks on count axes, a results panel only
where there are groups to compare, openings labelled with their names."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.stats import openings_table, stats_tables
from replay.stats.plots import archive_figure  # imports matplotlib only when it draws

pytest.importorskip("matplotlib")


def game(moves: str, result: str, date: str = "????.??.??", gametype: str = "25") -> str:
    return f'[GameType "{gametype}"][Date "{date}"][Result "{result}"]\n{moves} {result}\n\n'


# Кол opens 1. c3-d4 b6-a5 (replay/reference/openings.tsv); the others have no name
KOL = "1. c3-d4 b6-a5 2. b2-c3 a7-b6 3. g3-h4 f6-g5"
OTHER = "1. e3-f4 f6-g5 2. f2-e3 g7-f6 3. g3-h4 b6-a5"


def figure_of(tmp_path: Path, text: str):
    path = tmp_path / "games.pdn"
    path.write_text(text, encoding="utf-8")
    games = stats_tables([str(path)], jobs=1).games
    figure = archive_figure(games, openings_table(games))
    figure.canvas.draw()
    return {ax.get_title(): ax for ax in figure.axes}


def test_count_axes_have_whole_number_ticks_even_for_a_few_games(tmp_path: Path):
    panels = figure_of(tmp_path, game(KOL, "1-0") + game(OTHER, "0-1") + game(KOL, "1-0"))
    for title in ("Game length", "First king"):
        ticks = panels[title].get_yticks()
        assert len(ticks) > 1 and all(float(tick).is_integer() for tick in ticks), title
    counts = [tick for tick in panels["Top openings (first 6 plies)"].get_xticks()]
    assert all(float(tick).is_integer() for tick in counts)


def test_one_variant_without_dates_has_no_results_panel(tmp_path: Path):
    panels = figure_of(tmp_path, game(KOL, "1-0") + game(OTHER, "1/2-1/2"))
    assert "Results (winner by colour)" not in panels
    assert len(panels) == 3


def test_results_compare_the_years_of_one_variant_and_the_variants_of_a_mix(tmp_path: Path):
    years = figure_of(tmp_path, game(KOL, "1-0", "1998.01.01") + game(OTHER, "0-1", "2001.02.03")
                      + game(KOL, "1/2-1/2", "2001.05.06"))
    labels = [t.get_text() for t in years["Results (winner by colour)"].get_yticklabels()]
    assert labels == ["2001 (2)", "1998 (1)"]
    mixed = figure_of(tmp_path, game(KOL, "1-0") + game("1. 32-28 19-23 2. 28x19 14x23",
                                                      "2-0", gametype="20"))
    labels = [t.get_text() for t in mixed["Results (winner by colour)"].get_yticklabels()]
    assert labels == ["russian (1)", "international (1)"]


def test_openings_are_labelled_with_the_names_the_table_knows(tmp_path: Path):
    panels = figure_of(tmp_path, game(KOL, "1-0") * 2 + game(OTHER, "0-1"))
    labels = [t.get_text() for t in panels["Top openings (first 6 plies)"].get_yticklabels()]
    assert labels[-1] == "Кол  ·  c3-d4 b6-a5 b2-c3 a7-b6 g3-h4 f6-g5"  # the most played on top
    assert labels[0] == "e3-f4 f6-g5 f2-e3 g7-f6 g3-h4 b6-a5"  # no name: the moves alone


def test_the_results_by_year_say_how_many_undated_games_they_leave_out(tmp_path: Path):
    panels = figure_of(tmp_path, game(KOL, "1-0", "1998.01.01") + game(OTHER, "0-1", "2001.02.03")
                       + game(KOL, "1/2-1/2") + game(OTHER, "1-0", "????.??.??"))
    results = panels["Results (winner by colour)"]
    labels = [t.get_text() for t in results.get_yticklabels()]
    assert labels == ["2001 (1)", "1998 (1)"]
    assert results.get_xlabel() == "% of the group's games; 2 undated games not shown"
    dated = figure_of(tmp_path, game(KOL, "1-0", "1998.01.01") + game(OTHER, "0-1", "2001.02.03"))
    assert dated["Results (winner by colour)"].get_xlabel() == "% of the group's games"
