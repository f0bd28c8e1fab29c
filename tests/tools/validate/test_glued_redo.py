"""Games of an untagged file that are held for the file's variant and then read again must
be read again as themselves, even where several games start on one line (glued games)."""

from __future__ import annotations

import json

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

runner = CliRunner()
ENGLISH = '[Event "e"] 1. 11-15 23-19 2. 8-11 22-17 * '
RUSSIAN = '[Event "r"] 1. c3-d4 f6-e5 2. d4xf6 g7xe5 * '
GAMES = [ENGLISH] * 30 + [RUSSIAN] * 3  # the file's variant: English; three Russian games


def _run(*args: str) -> str:
    result = runner.invoke(app, [*args, "--jobs", "1"])
    assert result.exit_code == 0, result.output
    return result.output


def _rows(path) -> list[dict]:
    rows = [json.loads(line) for line in _run("validate", "--json", str(path)).splitlines()]
    keys = ("variant", "status", "event", "plies", "final_fen")
    return [{key: row[key] for key in keys} for row in rows]


@pytest.fixture
def files(tmp_path):
    glued, apart = tmp_path / "glued.pdn", tmp_path / "apart.pdn"
    glued.write_text("".join(GAMES) + "\n", encoding="utf-8")
    apart.write_text("\n".join(GAMES) + "\n", encoding="utf-8")
    return glued, apart


def test_validate_reads_a_glued_game_again_as_itself(files):
    glued, apart = files
    rows = _rows(glued)
    assert [row["variant"] for row in rows[-3:]] == ["russian"] * 3
    assert rows == _rows(apart)


def test_convert_writes_a_glued_game_redone_as_itself(files, tmp_path):
    outputs = []
    for source in files:
        out = tmp_path / f"{source.stem}.out.pdn"
        _run("convert", "--to", "full", "-o", str(out), str(source))
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0].count("1. c3-d4 f6-e5 2. d4:f6 g7:e5 *") == 3
    assert outputs[0] == outputs[1]
