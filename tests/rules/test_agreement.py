"""One event, one variant: a game that several variants replay takes its file's variant, and
leaves it only on evidence that excludes it (docs/inference.md, ``replay.record.agreement``)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.record.agreement import agree_file, file_variant
from replay.validate.dataset import validate_to_dataset
from replay.validate.reports import GameReport, report_games, validate_sources

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

# Real files, each one event (or one set of problems) of one variant.
ONE_VARIANT = [
    ("games-checkers/czech/MR_Ceska_Dama_Druzstev_2008.pdn", "czech", 40),
    ("tests/wiegerw_pdn/succeed/mrcd2007.pdn", "czech", 102),
    ("tests/wiegerw_pdn/fail/mrdrcd07.pdn", "czech", 72),
    ("tests/wiegerw_pdn/succeed/Tricks traps and shots.pdn", "english", 91),
    ("tests/wiegerw_pdn/succeed/ussr1947.pdn", "russian", 153),
]


def _reports(path: Path) -> list[GameReport]:
    return [r for r in validate_sources([str(path)], jobs=1) if isinstance(r, GameReport)]


@pytest.mark.parametrize(("name", "variant", "games"), ONE_VARIANT)
def test_the_named_files_read_as_one_variant_each(shared_data, name, variant, games):
    reports = _reports(shared_data / name)
    assert len(reports) == games
    assert Counter(r.variant for r in reports) == {variant: games}


def test_a_game_russian_would_replay_takes_its_czech_file_and_says_so(shared_data):
    reports = _reports(shared_data / ONE_VARIANT[0][0])
    moved = {r.game: r.notes[0]["message"] for r in reports
             if "as its file's games show" in r.notes[0]["message"]}
    # games 5, 7, 20 and 28 replay as Russian too (no man captures backwards in them)
    assert sorted(moved) == [5, 7, 20, 28]
    assert moved[5] == "squares named a1-h8, first move c3-d4: czech, as its file's games show"
    assert all(r.status == "valid" for r in reports if r.game in moved)


def test_the_same_verdict_when_the_workers_write_the_reports(shared_data, tmp_path):
    path = shared_data / ONE_VARIANT[1][0]
    validate_to_dataset([str(path)], str(tmp_path / "out") + "/", jobs=1)
    lines = [json.loads(line) for part in sorted((tmp_path / "out").glob("part-*.jsonl"))
             for line in part.read_text(encoding="utf-8").splitlines()]
    assert [line["variant"] for line in lines] == [r.variant for r in _reports(path)]
    assert {line["variant"] for line in lines} == {"czech"}


def test_a_game_leaves_its_file_only_on_evidence_that_excludes_it(shared_data):
    """fen.pdn: English problems, and one International set-up (squares up to 50)."""
    reports = _reports(shared_data / "tests/wiegerw_pdn/succeed/fen.pdn")
    leaving = [r for r in reports if r.variant != "english"]
    assert [(r.game, r.variant) for r in leaving] == [(3, "international")]
    assert leaving[0].notes[0]["message"].endswith(
        "not its file's english: the squares written are not on its board")


def test_a_game_the_files_variant_does_not_replay_keeps_its_own_with_the_error():
    text = ("[Event \"a\"]\n1. c3-d4 f6-g5 2. g3-h4 *\n\n[Event \"a\"]\n1. c3-d4 f6-e5 *\n\n"
            "[Event \"a\"]\n[FEN \"B:Wc5,h2:Bb4\"]\n1... b4xd6 *\n")
    # the third game: a man captures backwards, which Russian allows and Czech does not.
    # Tagged Czech (GameType 29), the first two make the file Czech, and the third leaves it
    # on the capture Czech does not allow.
    tagged = text.replace('[Event "a"]\n1.', '[Event "a"]\n[GameType "29"]\n1.')
    reports = list(report_games(read_games(tagged)))
    assert [r.variant for r in reports] == ["czech", "czech", "russian"]
    note = reports[2].notes[0]["message"]
    assert "russian; not its file's czech: move 1 (Black) 'b4xd6'" in note, note


def test_a_setup_with_its_side_to_move_written_is_not_read_as_russian():
    """The issue's record: White to move from 24 in an English problem."""
    result = runner.invoke(app, ["validate", "-", "--json"],
                           input='[FEN "W:W25,24:B15,9"]\n1. 24-20 15-18 2. 20-16 18-23 '
                                 "3. 25-22 *\n")
    report = json.loads(result.stdout.splitlines()[0])
    assert report["variant"] == "english" and report["status"] == "valid"


def test_a_tie_leaves_every_game_its_own_variant():
    items = [("russian", True), ("czech", True)]
    assert list(agree_file(items, lambda item: item[0], lambda item: item[1],
                           lambda item, key: (key, False))) == items
    assert file_variant(Counter()) is None


def test_the_script_lists_the_games_that_leave_their_files_variant(shared_data):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from file_variants import leaving
    finally:
        sys.path.remove(str(ROOT / "bench"))
    games, shown, found = leaving(shared_data / "tests/wiegerw_pdn/succeed/fen.pdn")
    assert games == len(_reports(shared_data / "tests/wiegerw_pdn/succeed/fen.pdn"))
    assert shown == "english" and [(item.game, item.variant) for item in found] == [
        (3, "international")]
    assert leaving(shared_data / ONE_VARIANT[0][0])[2] == []


def test_split_stats_and_info_read_the_czech_event_as_one_variant(shared_data, tmp_path):
    path = shared_data / ONE_VARIANT[0][0]
    split = runner.invoke(app, ["split", str(path), "--by", "variant", "-o", str(tmp_path)])
    assert split.exit_code in (0, 1), split.output
    assert sorted(p.name for p in tmp_path.glob("*.pdn")) == ["czech.pdn"]
    assert len(list(read_games(tmp_path / "czech.pdn"))) == 40  # its unreadable game too
    stats = runner.invoke(app, ["stats", str(path), "-t", "games", "--json"])
    rows = [json.loads(line) for line in stats.stdout.splitlines() if line.startswith("{")]
    assert Counter(row["variant"] for row in rows) == {"czech": 40}
    info = runner.invoke(app, ["info", str(path), "--json"])
    assert json.loads(info.stdout.splitlines()[0])["inferred"] == {"czech": 40}


def test_the_stats_dataset_the_workers_write_agrees_too(shared_data, tmp_path):
    pytest.importorskip("pyarrow")
    import pandas as pd

    from replay.stats.dataset import write_dataset

    path = shared_data / ONE_VARIANT[0][0]
    write_dataset([str(path)], None, str(tmp_path / "games") + "/", "games", jobs=1)
    games = pd.read_parquet(tmp_path / "games")
    assert Counter(games["variant"].astype(str)) == {"czech": 40}
