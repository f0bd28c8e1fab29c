"""``pdn validate``: messages, the JSON interface, reports and exit codes."""

import json
from pathlib import Path

from pdn.cli.app import app
from typer.testing import CliRunner

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
# The sample states its own faults in its opening comment: in game 1 White writes 2. b2-c3
# (line 12, column 19) where d4:b6 is compulsory; game 2 has lost its last moves ('3. - -').
ERRORS = SAMPLES / "russian" / "scoresheet_with_errors.pdn"


def test_error_line_in_the_editor_form_and_exit_status_1():
    result = runner.invoke(app, ["validate", str(ERRORS)])
    assert result.exit_code == 1
    (line,) = [text for text in result.stdout.splitlines() if ": error: " in text]
    assert line.startswith(f"{ERRORS}:12:19: error: game 1 (Smirnov, Ivan – Kuznetsova, Anna), "
                           "move 2 (White) 'b2-c3': capture-required")
    assert "2 games: 1 invalid, 1 incomplete" in result.stderr


def test_valid_files_exit_0():
    result = runner.invoke(app, ["validate", str(SAMPLES / "russian" / "ivanov_petrov_short.pdn")])
    assert result.exit_code == 0
    assert "1 game: 1 valid" in result.stderr


def test_json_lines_carry_the_stable_fields():
    result = runner.invoke(app, ["validate", str(ERRORS), "--json"])
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    for key in ("file", "game", "line", "white", "black", "variant", "plies", "status", "errors",
                "warnings", "result", "result_check", "final_fen"):
        assert key in first
    assert (first["game"], first["status"], first["plies"]) == (1, "invalid", 2)
    assert first["errors"][0] == {"code": "capture-required",
                                  "message": "capture is compulsory: d4:b6", "line": 12,
                                  "column": 19, "move_number": 2, "side": "White",
                                  "token": "b2-c3"}
    assert first["final_fen"].startswith("W:")
    assert second["status"] == "incomplete"


def test_directories_are_searched_and_jobs_do_not_change_the_reports():
    one = runner.invoke(app, ["validate", str(SAMPLES), "--json", "--jobs", "1"])
    two = runner.invoke(app, ["validate", str(SAMPLES), "--json", "--jobs", "2"])
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) == 7  # the games of samples/, counted by hand


def test_stdin_and_gametype_override():
    text = "1. 32-28 19-23 2. 28x19 14x23 *"
    assert runner.invoke(app, ["validate", "-", "--variant", "international"],
                         input=text).exit_code == 0
    russian = runner.invoke(app, ["validate", "-", "--variant", "russian"], input=text)
    assert russian.exit_code == 1  # read as Russian numbers, 32-28 is no legal move
    told = runner.invoke(app, ["validate", "-", "--json"], input=text)
    report = json.loads(told.stdout.splitlines()[0])
    # Without --variant the squares tell: 32-28 is no move on 32 squares, White's first
    # move on 50 (International numbering, 31-50 White's men).
    assert (told.exit_code, report["variant"], report["variant_source"]) == (
        0, "international", "inferred")


def test_report_html_has_a_diagram_and_md_lists_the_error(tmp_path):
    html = tmp_path / "report.html"
    assert runner.invoke(app, ["validate", str(ERRORS), "--report", str(html)]).exit_code == 1
    page = html.read_text(encoding="utf-8")
    assert "<svg" in page and "capture is compulsory" in page
    markdown = tmp_path / "report.md"
    runner.invoke(app, ["validate", str(ERRORS), "--report", str(markdown)])
    assert "- error: line 12, column 19, move 2 (White) 'b2-c3'" in markdown.read_text()


def test_strict_counts_warnings_and_usage_errors_exit_2(tmp_path):
    assert runner.invoke(app, ["validate", str(ERRORS), "--strict"]).exit_code == 1
    assert runner.invoke(app, ["validate", str(tmp_path / "missing.pdn")]).exit_code == 2
    assert runner.invoke(app, ["validate", str(ERRORS), "--report", "x.txt"]).exit_code == 2
