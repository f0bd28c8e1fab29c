"""The JSON rows of ``pdn validate --json``: ``GameReport.as_dict`` is a shallow dict, and
gives the very bytes ``dataclasses.asdict`` gave (the row's fields in order, less
``result_reading`` and what is kept for the file: the record, ``silent``, ``open_variant``,
``origin``)."""

import json
from dataclasses import asdict, replace
from itertools import islice
from pathlib import Path

from pdn.reader import read_games
from replay.rules.variants import RUSSIAN
from replay.validate.reports import GameReport, report_game, report_games

SAMPLES = Path(__file__).resolve().parents[3] / "samples"


def deep_row(report: GameReport) -> dict:
    """The row as ``dataclasses.asdict`` makes it (the former implementation)."""
    fields = asdict(replace(report, record=None, origin=None))
    for kept in ("result_reading", "record", "silent", "open_variant", "origin"):
        del fields[kept]
    return fields


def same_bytes(reports: list[GameReport]) -> int:
    for report in reports:
        row = report.as_dict()
        assert json.dumps(row, ensure_ascii=False) == json.dumps(deep_row(report),
                                                                 ensure_ascii=False)
        assert "record" not in row and "result_reading" not in row
    return len(reports)


def test_rows_of_the_samples_with_errors_warnings_and_suggestions_are_the_same_bytes():
    reports = [report_game(game, suggest=True)
               for path in sorted(SAMPLES.rglob("*.pdn")) for game in read_games(path)]
    # White writes 2. b2-c3 where d4:b6 is compulsory: a suggestion mends it
    reports.append(report_game(next(read_games("1. c3-d4 b6-c5 2. b2-c3 *")), RUSSIAN,
                               suggest=True))
    assert any(r.errors for r in reports) and any(r.suggestions for r in reports)
    assert same_bytes(reports) == len(reports)


def test_a_report_that_keeps_its_record_gives_the_row_without_it():
    game = next(read_games("1. 32-28 19-23 2. 37-32 *"))
    report = report_game(game)
    report.record = game  # kept while the file's other games may tell its variant
    assert same_bytes([report]) == 1


def test_rows_of_real_archives_are_the_same_bytes(shared_data):
    for path in (shared_data / "english" / "OCA_2.0.pdn",
                 *sorted((shared_data / "international").rglob("*.pdn"))[:3]):
        reports = list(islice(report_games(read_games(path)), 2000))
        assert same_bytes(reports) == len(reports) > 0
