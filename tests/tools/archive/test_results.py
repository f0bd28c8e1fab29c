"""One reading of results everywhere: filter, search and stats agree on who won the games
of the Open Checkers Archive, where `1-0` is the first mover's (Black's) win
(docs/archive.md, "One reading of results")."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from replay.archive.select import CriterionError, criteria_from_text, wanted_outcome
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN

runner = CliRunner()
SLICE = 240  # games of OCA 2.0 read: enough for every result, quick to index


@pytest.fixture(scope="module")
def oca_slice(shared_data, tmp_path_factory):
    """The first games of OCA 2.0, as written, in a file of their own."""
    text = (shared_data / "english/OCA_2.0.pdn").read_text(encoding="utf-8", errors="replace")
    starts = [found.start() for found in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    path = tmp_path_factory.mktemp("oca") / "oca_slice.pdn"
    path.write_text(text[:starts[SLICE]], encoding="utf-8")
    return path


def _filtered(path, *options) -> list[str]:
    result = runner.invoke(app, ["filter", str(path), *options])
    assert result.exit_code == 0, result.output
    return re.findall(r'^\[Result "([^"]*)"\]', result.stdout, re.MULTILINE)


def test_filter_search_and_stats_agree_on_who_won(oca_slice, tmp_path):
    stats = runner.invoke(app, ["stats", str(oca_slice), "-t", "games", "--json"])
    assert stats.exit_code in (0, 1), stats.output
    rows = [json.loads(line) for line in stats.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == SLICE
    won = Counter(row["result"] for row in rows)
    assert won["black"] and won["white"] and won["draw"]
    # OCA writes results for the first mover: its 1-0 games are the ones Black won
    assert {row["Result"] for row in rows if row["result"] == "black"} == {"1-0"}

    database = tmp_path / "oca.sqlite"
    indexed = runner.invoke(app, ["index", str(oca_slice), "-o", str(database)])
    assert indexed.exit_code == 0, indexed.output
    for who in ("black", "white", "draw"):
        kept = _filtered(oca_slice, "--result", who)
        found = runner.invoke(app, ["search", str(database), "--result", who, "-f", "json"])
        assert found.exit_code == 0, found.output
        searched = [json.loads(line) for line in found.stdout.splitlines()
                    if line.startswith("{")]
        assert len(kept) == len(searched) == won[who], who
    assert _filtered(oca_slice, "--result", "1-0") == _filtered(oca_slice, "--result", "black")


def test_a_written_result_is_read_in_each_games_variant():
    assert wanted_outcome("1-0", ENGLISH) == "black"
    assert wanted_outcome("1-0", RUSSIAN) == "white"
    assert wanted_outcome("2-0", INTERNATIONAL) == "white"
    assert wanted_outcome("Draw", ENGLISH) == wanted_outcome("1/2-1/2", ENGLISH) == "draw"
    criteria = criteria_from_text(results=["white"])
    assert criteria.result_matches("0-1", ENGLISH) and criteria.result_matches("1:0", RUSSIAN)
    assert not criteria.result_matches("*", RUSSIAN)
    with pytest.raises(CriterionError, match="white, black, draw"):
        criteria_from_text(results=["whites"])
