"""The JSON rows of ``pdn validate --json``: ``GameReport.as_dict`` is a shallow dict, and
gives the very bytes ``dataclasses.asdict`` gave (the row's fields in order, less
``result_reading`` and what is kept for the file: the record, ``silent``, ``open_variant``,
``origin``); the rows written from parts (``json_line``, ``EncodedReport``) are the bytes
``json.dumps`` writes of that dict."""

import json
from dataclasses import asdict, replace
from itertools import islice
from pathlib import Path

from pdn.reader import read_games
from replay.rules.variants import RUSSIAN
from replay.validate.reports import GameReport, encoded, report_game, report_games

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


# ---- rows written without the encoder: json_line, and encoded where the game is replayed ----


def same_lines(reports: list[GameReport]) -> int:
    """Each report's ``json_line``, and its encoded form's, are ``json.dumps``'s bytes."""
    for report in reports:
        expected = json.dumps(report.as_dict(), ensure_ascii=False)
        assert report.json_line() == expected
        assert encoded(report).json_line() == expected
    return len(reports)


def test_json_lines_of_the_samples_and_real_archives_are_json_s_bytes(shared_data):
    reports = [report_game(game, suggest=True)
               for path in sorted(SAMPLES.rglob("*.pdn")) for game in read_games(path)]
    reports.append(report_game(next(read_games("1. c3-d4 b6-c5 2. b2-c3 *")), RUSSIAN,
                               suggest=True))
    for path in (shared_data / "english" / "OCA_2.0.pdn",
                 *sorted((shared_data / "international").rglob("*.pdn"))[:3],
                 *sorted((shared_data / "tests").rglob("*.pdn"))[:20]):
        reports += islice(report_games(read_games(path)), 2000)
    assert any(r.errors for r in reports) and any(r.suggestions for r in reports)
    assert any(r.warnings for r in reports) and any(r.draws for r in reports)
    assert any(r.error_fens for r in reports) and any(r.white is None for r in reports)
    assert same_lines(reports) == len(reports)


def test_json_lines_escape_as_json_does():
    # quotes, backslashes, control characters, non-ASCII, a surrogate-free emoji, no names
    game = next(read_games('[White "O\'Brien \\"Jr\\" \\\\ é"]\n[Event "tab\there ♛ 😀"]\n'
                           '1. 11-15 23-19 *'))
    report = report_game(game)
    nameless = replace(report, white=None, black=None, file=None, event=None, date=None,
                       result=None, result_note='say "why"\n\x01', status="invalid")
    assert same_lines([report, nameless]) == 2


def test_an_encoded_report_settles_as_the_report_does():
    # what settling changes (number, status, result check and note) is written as it is then
    report = report_game(next(read_games("1. 11-15 23-19 2. 8-11 22-17 *")))
    kept = encoded(report)
    for settled in (report, kept):
        settled.game, settled.status = 12, "contradicted"
        settled.result_check, settled.result_note = "inconsistent", 'a "note"'
    assert kept.json_line() == json.dumps(report.as_dict(), ensure_ascii=False)
    assert '"game": 12' in kept.json_line()
