"""A folder with no record file: ``validate``, ``info``, ``stats`` and ``cat`` say there were
no games (as ``analyse`` does, ``cli.sources.exit_if_no_sources``) instead of an empty summary
("0 games: none; … results: "), with exit 0 from the table: nothing to do is no error."""

from __future__ import annotations

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner


@pytest.mark.parametrize("command", [["validate"], ["info"], ["stats"], ["cat"]])
def test_an_empty_folder_says_it_holds_no_games(tmp_path, command):
    folder = tmp_path / "nothing"
    folder.mkdir()
    (folder / "notes.md").write_text("not a record file\n", encoding="utf-8")
    done = CliRunner().invoke(app, [*command, str(folder)])
    assert done.exit_code == 0, done.output
    assert done.stdout == ""
    assert done.stderr.strip() == f"{folder}: no record files (*.pdn, *.txt) found: 0 games"


def test_cat_of_a_game_in_an_empty_folder_is_still_a_missing_game(tmp_path):
    done = CliRunner().invoke(app, ["cat", str(tmp_path), "--game", "2"])
    assert done.exit_code == 2 and "Traceback" not in done.output
