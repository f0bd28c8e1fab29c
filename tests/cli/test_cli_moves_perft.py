"""``pdn moves`` and ``pdn perft``: the stable JSON interface and the perft table."""

import json

from pdn.cli.app import app
from typer.testing import CliRunner

runner = CliRunner()


def test_moves_json_interface_for_a_capture():
    result = runner.invoke(app, ["moves", "W:Wc3:Bd4,e7", "--variant", "russian", "--json"])
    assert result.exit_code == 0
    line = json.loads(result.stdout)
    assert line == {"fen": "W:Wc3:Bd4,e7", "moves": [
        {"from": "c3", "to": "e5", "path": ["c3", "e5"], "captures": ["d4"], "promotes": False}]}


def test_moves_of_the_start_position_by_gametype_number():
    result = runner.invoke(app, ["moves", "--variant", "25", "--json"])
    moves = json.loads(result.stdout)["moves"]
    assert sorted(m["from"] + "-" + m["to"] for m in moves) == [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_moves_fen_file_one_line_per_position_and_bad_fen_reported(tmp_path):
    fens = tmp_path / "fens.txt"
    fens.write_text("W:WKa1:Bc3,f4\nX:bad\nB:W32:B1\n")
    result = runner.invoke(app, ["moves", "--fen-file", str(fens), "--json"])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [len(line["moves"]) for line in lines] == [2, 2]
    assert {m["to"] for m in lines[0]["moves"]} == {"g3", "h2"}
    assert result.exit_code == 1  # one line is no position; the others are listed
    assert "fens.txt:2" in result.stderr


def test_moves_numeric_squares_for_international():
    result = runner.invoke(app, ["moves", "--variant", "international", "--json"])
    moves = json.loads(result.stdout)["moves"]
    assert len(moves) == 9 and {m["from"] for m in moves} == {"31", "32", "33", "34", "35"}


def test_perft_prints_rules_5_1_counts():
    result = runner.invoke(app, ["perft", "--variant", "russian", "--depth", "5"])
    assert result.exit_code == 0
    counts = [int(line.split()[1].replace(",", "")) for line in result.stdout.splitlines()[1:]]
    assert counts == [7, 49, 302, 1469, 7482]


def test_perft_keep_duplicates_from_a_fen():
    # The king a1 with c3/f4 has two routes; keep and drop agree here.
    result = runner.invoke(app, ["perft", "--fen", "W:WKa1:Bc3,f4", "--depth", "1",
                                 "--keep-duplicates"])
    assert result.stdout.splitlines()[1].split()[1] == "2"


def test_perft_divide_prints_a_count_per_first_move_adding_up_to_rules_5_1():
    result = runner.invoke(app, ["perft", "--variant", "russian", "--depth", "3", "--divide"])
    assert result.exit_code == 0
    *lines, total = result.stdout.splitlines()
    assert len(lines) == 7 and total == "total 302"
    assert sum(int(line.split()[1]) for line in lines) == 302


def test_unknown_variant_and_bad_fen_are_usage_errors():
    assert runner.invoke(app, ["perft", "--variant", "chess"]).exit_code == 2
    result = runner.invoke(app, ["perft", "--fen", "W:W99:B1"])
    assert result.exit_code == 2
    assert "not on the board" in result.stderr
