"""``pdn cat`` and ``pdn info``: output, the --json interface, and errors without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from pdn.cli import cat, info
from typer.testing import CliRunner

TWO_GAMES = ('[Event "a"]\n[GameType "25"]\n[Result "1-0"]\n1. c3-d4 f6-g5 1-0\n\n'
             '[Event "b"]\n[Result "0-1"]\n1. 32-28 19-23) 2. 37-32 0-1\n')


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()
    cat.register(app)
    info.register(app)
    return app


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdn"
    path.write_text(TWO_GAMES, encoding="utf-8")
    return path


def test_cat_prints_canonical_pdn(runner, app, two_games):
    result = runner.invoke(app, ["cat", str(two_games), "--game", "1"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == ['[Event "a"]', '[Site "?"]']
    assert "1. c3-d4 f6-g5 1-0" in result.stdout


def test_cat_reports_syntax_errors_with_file_line_and_column(runner, app, two_games):
    result = runner.invoke(app, ["cat", str(two_games)])
    assert result.exit_code == 1
    assert (f"{two_games}:8:15: game 2: unexpected ')' at 8:15: variation closed but none "
            "is open") in result.stderr
    assert result.stdout.count("[Event ") == 2


def test_cat_missing_game_and_missing_file_exit_2(runner, app, two_games, tmp_path):
    result = runner.invoke(app, ["cat", str(two_games), "--game", "3"])
    assert result.exit_code == 2 and "has 2 games, so there is no game 3" in result.stderr
    result = runner.invoke(app, ["cat", str(tmp_path / "none.pdn")])
    assert result.exit_code == 2 and "none.pdn: no such file or directory" in result.stderr
    assert "Traceback" not in result.output


def test_info_json_is_one_line_per_file(runner, app, two_games):
    result = runner.invoke(app, ["info", "--json", str(two_games), str(two_games)])
    assert result.exit_code == 1, result.output  # game 2 has a reading error
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert json.loads(lines[0]) == {
        "file": str(two_games), "games": 2,
        "errors": [{"game": 2, "line": 8, "column": 15, "code": "syntax",
                    "message": "unexpected ')' at 8:15: variation closed but none is open"}],
        "variants": {"25": 1, "none": 1},
        # game 2 does not read, so no square tells its board: the default, Russian
        "inferred": {"russian": 1},
        "results": {"1-0": 1, "0-1": 1}}


def test_info_text(runner, app, two_games):
    result = runner.invoke(app, ["info", str(two_games)])
    assert result.stdout.splitlines()[:4] == [
        f"{two_games}: 2 games", "  variants: russian (25) ×1, none ×1",
        "  told from the records (no GameType): russian ×1",
        "  results:  1-0 ×1, 0-1 ×1"]


def test_info_unreadable_file_exits_2_after_the_others(runner, app, two_games, tmp_path):
    folder = tmp_path / "folder"  # a directory is searched; its dangling link cannot be read
    folder.mkdir()
    (folder / "gone.pdn").symlink_to(tmp_path / "missing.pdn")
    result = runner.invoke(app, ["info", "--json", str(folder), str(two_games)])
    assert result.exit_code == 2
    assert "cannot read" in result.stderr and "Traceback" not in result.output
    assert json.loads(result.stdout)["games"] == 2


def test_info_on_an_archive(runner, app, shared_data: Path):
    path = shared_data / "games-checkers" / "russian" / "World_Championship_1998.pdn"
    summary = json.loads(runner.invoke(app, ["info", "--json", str(path)]).stdout)
    assert summary["games"] == 460 and summary["variants"] == {"25": 460}
    assert summary["errors"] == []  # [Round "11.1] lost its quote: read, with a warning


ESCAPES = 'a\x1b]0;pwned\x07b\x1b[2Jc\x9b1m'


def test_cat_keeps_the_data_and_escapes_control_characters_for_a_terminal_only(tmp_path, app,
                                                                             runner):
    """cat stripped CSI (changing the data) but kept OSC (still driving the terminal)."""
    import io

    from pdn.cli.common import write_out

    source = tmp_path / "esc.pdn"
    source.write_text(f'[Event "{ESCAPES}"]\n1. 32-28 *\n', encoding="utf-8")
    result = runner.invoke(app, ["cat", str(source)])
    assert result.exit_code == 0, result.output
    assert f'[Event "{ESCAPES}"]' in result.stdout  # piped: the data as it is

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown = Terminal()
    write_out(f"{ESCAPES}\t\n", shown)
    assert shown.getvalue() == "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x9b1m\t\n"
