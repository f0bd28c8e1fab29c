"""A file's reports wait for its verdicts (its variant, its silent games' neighbours, the
reading of its results) in one window (``settle_source``), and come out as the three
settled in turn would give them: on real files, on files that make a report be read again,
and past the window's bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.record import agreement
from replay.record import held as held_module
from replay.rules.choice import RulesChoice
from replay.run.partitions import Partition
from replay.run.runner import open_runner
from replay.validate import reports as reports_module
from replay.validate.reports import (
    BLOCK,
    ValidationWork,
    agree_reports,
    follow_reports,
    settle_results,
    settle_source,
    validate_partition,
)

WORK = ValidationWork(RulesChoice(None, None, None), suggest=False, strict=False)
# reports encoded by the workers (EncodedReport), a game to read again found by its
# partition, read again from the file (the local runner's)
ENCODED = ValidationWork(RulesChoice(None, None, None), suggest=False, strict=False,
                         as_json=True, reread=True)
EMPTY = '[Result "*"]\n*'
ENGLISH = "1. 11-15 23-19 2. 8-11 22-17 *"
FILES = [
    "english/tinsley.pdn",  # Black first: results wait for the file's reading
    "games-checkers/czech/MR_Ceska_Dama_Druzstev_2008.pdn",  # games read again as Czech
    "games-checkers/russian/World_Championship_1998.pdn",
    "tests/wiegerw_pdn/succeed/bridges.pdn",
]


def _raw_reports(source: str, work: ValidationWork = WORK) -> list:
    """The reports of a source as the workers give them, numbered in their file."""
    with open_runner("local", jobs=1) as runner:
        batches = runner.map(validate_partition, runner.partitions(source, None, BLOCK), work)
        return list(reports_module._renumbered(batches))


def _rows(reports) -> list[str]:
    return [report.json_line() for report in reports]


def _in_turn(source: str) -> list[str]:
    return _rows(settle_results(follow_reports(agree_reports(_raw_reports(source), WORK),
                                               WORK)))


def _mixed(tmp_path: Path) -> str:
    """Silent games at the head and among English games that several variants replay."""
    games = [EMPTY, EMPTY, *[ENGLISH if n % 5 else EMPTY for n in range(30)]]
    path = tmp_path / "mixed.pdn"
    path.write_text("".join(f'[Event "{n}"]\n{game}\n\n' for n, game in enumerate(games, 1)),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", FILES)
def test_one_window_gives_the_reports_the_three_in_turn_give(shared_data, name):
    source = str(shared_data / name)
    assert _rows(settle_source(_raw_reports(source), WORK)) == _in_turn(source)


@pytest.mark.parametrize(("games", "reports"), [(7, 50_000), (50_000, 5), (3, 4)])
def test_past_the_bounds_the_reports_are_the_same_too(shared_data, tmp_path, monkeypatch,
                                                      games, reports):
    monkeypatch.setattr(reports_module, "HELD_GAMES", games)
    monkeypatch.setattr(reports_module, "HELD_REPORTS", reports)
    for source in [*(str(shared_data / name) for name in FILES), _mixed(tmp_path)]:
        expected = _in_turn(source)
        assert _rows(settle_source(_raw_reports(source), WORK)) == expected
        assert _rows(settle_source(_raw_reports(source, ENCODED), ENCODED)) == expected


@pytest.mark.parametrize("name", FILES)
def test_reports_encoded_by_the_workers_settle_to_the_same_rows(shared_data, tmp_path, name):
    for source in (str(shared_data / name), _mixed(tmp_path), _oca_head(shared_data, tmp_path)):
        encoded = _raw_reports(source, ENCODED)
        assert {type(report).__name__ for report in encoded} == {"EncodedReport"}
        assert all(isinstance(report.origin[0], Partition) for report in encoded
                   if report.origin is not None)
        assert _rows(settle_source(encoded, ENCODED)) == _in_turn(source)


def test_silent_games_among_open_ones_follow_their_neighbours(tmp_path):
    source = _mixed(tmp_path)
    rows = [json.loads(row) for row in _rows(settle_source(_raw_reports(source), WORK))]
    assert {row["variant"] for row in rows} == {"english"}
    assert rows == [json.loads(row) for row in _in_turn(source)]


def _oca_head(shared_data: Path, tmp_path: Path, count: int = 400) -> str:
    """The first ``count`` games of OCA 2.0: English without GameType tags (several variants
    replay each), two of them decided on the board, so that results wait for the reading."""
    text = (shared_data / "english" / "OCA_2.0.pdn").read_text(encoding="utf-8")
    starts = [place for place in range(len(text)) if text.startswith("[Event ", place)
              and (place == 0 or text[place - 1] == "\n")][: count + 1]
    path = tmp_path / "oca_head.pdn"
    path.write_text(text[: starts[-1]], encoding="utf-8")
    return str(path)


def test_a_file_of_one_variant_holds_each_report_once(shared_data, tmp_path, monkeypatch):
    appended = []

    class Counting(held_module.Held):
        def append(self, item) -> None:
            appended.append(item.game)
            super().append(item)

    monkeypatch.setattr(reports_module, "Held", Counting)
    monkeypatch.setattr(agreement, "Held", Counting)
    source = _oca_head(shared_data, tmp_path)
    rows = _rows(settle_source(_raw_reports(source), WORK))
    assert len(rows) == 400 and appended == list(range(1, 401))  # every report, once
    assert any(json.loads(row)["result_check"] == "consistent" for row in rows)
    appended.clear()
    assert _in_turn(source) == rows
    assert len(appended) > 500  # in turn, those from the first decided one on twice
