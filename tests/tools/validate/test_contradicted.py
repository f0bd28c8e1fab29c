"""A result the final position contradicts is a problem of its own kind: listed first in every
report, exit 1 under --strict, a warning in standings and stats; ``pdn clean --fix-results``
writes the result the rules decide (docs/validate.md, docs/archive.md). Real games only:
Boland's Bridges #14 (recorded a draw, White has nothing left), and games whose moves end
the game but whose record says '*'."""

from __future__ import annotations

import json
import re

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.archive.clean import fix_result
from replay.record.replayer import game_variant, replay_game
from replay.validate.report import html_report, markdown_report
from replay.validate.reports import GameReport, validate_sources

runner = CliRunner()
BRIDGES = "tests/wiegerw_pdn/succeed/bridges.pdn"
NOTE = "recorded 1/2-1/2, but White has no legal move: black wins"


@pytest.fixture(scope="module")
def bridges(shared_data) -> str:
    return str(shared_data / BRIDGES)


@pytest.fixture(scope="module")
def reports(bridges) -> list[GameReport]:
    return [r for r in validate_sources([bridges], jobs=1) if isinstance(r, GameReport)]


def test_the_game_is_contradicted_not_valid(reports):
    found = [r for r in reports if r.status == "contradicted"]
    assert [(r.game, r.line, r.result, r.result_check, r.result_note) for r in found] == [
        (14, 118, "1/2-1/2", "inconsistent", NOTE)]
    assert json.loads(json.dumps(found[0].as_dict()))["status"] == "contradicted"


def test_strict_exits_1_and_the_default_0(bridges):
    default = runner.invoke(app, ["validate", bridges])
    assert default.exit_code == 0
    lines = default.stdout.splitlines()
    assert lines[0] == f"{bridges}:118: result: game 14: result-contradicted — {NOTE}"
    assert "1 contradicted, 266 valid" in default.output
    assert runner.invoke(app, ["validate", bridges, "--strict"]).exit_code == 1
    as_json = runner.invoke(app, ["validate", bridges, "--json"])
    statuses = [json.loads(line)["status"] for line in as_json.stdout.splitlines()]
    assert statuses.count("contradicted") == 1 and as_json.exit_code == 0


def test_the_reports_list_it_first(reports):
    invalid = GameReport("x.pdn", 1, 1, "A", "B", "russian", 0, "invalid",
                         errors=[{"code": "illegal-move", "message": "no such move"}])
    listed = [invalid, *reports]
    page = html_report(listed)
    assert "Every game replays on the rules" not in page
    rows = re.findall(r'<tr class="(\w+)" data-game="(\d+)">', page)
    assert rows[:2] == [("contradicted", "15"), ("invalid", "1")]
    assert f"result 1/2-1/2 contradicted: {NOTE}" in page
    markdown = markdown_report(listed)
    table = markdown.split("## Games with problems")[1].splitlines()
    assert "| contradicted |" in table[4] and "| invalid |" in table[5]
    assert "Valid games (266)" in markdown


def test_standings_and_stats_warn_with_the_game(bridges):
    standings = runner.invoke(app, ["standings", bridges])
    assert f"{bridges}:118: game 14: result 1/2-1/2 contradicted — {NOTE}" in \
        " ".join(standings.output.split())
    stats = runner.invoke(app, ["stats", bridges])
    assert (f"{bridges}:118: warning: game 14 (? – ?): result 1/2-1/2 contradicted by the "
            "final position (no_pieces)") in stats.output


@pytest.mark.parametrize(("name", "game", "change"), [
    (BRIDGES, 14, "result '1/2-1/2' → '0-1': White has no legal move, Black wins"),
    ("international/brunogui/Partie_avec_FEN1.pdn", 1,
     "result '*' → '2-0': Black has no legal move, White wins"),
    ("international/mobydam_book/babasy2.pdn", 22,
     "result '*' → '0-2': White has no legal move, Black wins"),
])
def test_fix_results_writes_what_the_rules_decide(shared_data, name, game, change):
    record = next(g for g in read_games(shared_data / name) if g.index == game)
    variant = game_variant(record)
    assert fix_result(record, variant) == [f"{change} (Result tag and movetext)"]
    token = change.split("'")[3]
    assert record.tags["Result"] == record.result == token
    replayed = replay_game(record)
    assert replayed.result_check == "consistent"
    assert fix_result(record, variant) == []  # nothing left to mend


def test_clean_fix_results_reports_each_change_and_leaves_the_others(shared_data, tmp_path):
    path = shared_data / "international/brunogui/Partie_avec_FEN1.pdn"
    changes = tmp_path / "changes.txt"
    result = runner.invoke(app, ["clean", str(path), "--fix-results", "-o",
                                 str(tmp_path / "out.pdn"), "--changes", str(changes)])
    assert result.exit_code == 0, result.output
    fixed = [line for line in changes.read_text(encoding="utf-8").splitlines()
             if "Result tag and movetext" in line]
    assert [line.split(": ", 1)[0] for line in fixed] == [f"{path}:2", f"{path}:35"]
    games = list(read_games(tmp_path / "out.pdn"))
    assert [g.tags.get("Result") for g in games][:3] == ["2-0", "*", "2-0"]
    assert games[0].result == "2-0"
    plain = runner.invoke(app, ["clean", str(path), "-o", str(tmp_path / "plain.pdn")])
    assert plain.exit_code == 0
    assert next(read_games(tmp_path / "plain.pdn")).tags.get("Result") == "*"
