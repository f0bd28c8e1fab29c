"""A selection holds only the games that meet the criteria (docs/archive.md): a game the
reader gave up on cannot be told to meet them, so ``pdn filter`` names it and sends it to
``--rejects``, or leaves it out and exits 1. Real text: the Czech team championship of the
official PDN test set (mrdrcd08.pdn), whose game 31 is ``1. 1-0``, a move number with no
move after it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games

runner = CliRunner()
CZECH = "tests/wiegerw_pdn/fail/mrdrcd08.pdn"
UNREADABLE = "mrdrcd08.pdn:490: game 31: unreadable"


@pytest.fixture(scope="module")
def czech(shared_data: Path) -> Path:
    return shared_data / CZECH


def _players(path: Path) -> list[tuple[str | None, str | None]]:
    return [(game.tags.get("White"), game.tags.get("Black")) for game in read_games(path)]


@pytest.mark.parametrize("criteria", [["--moves", "1. g3-f4"], ["--moves", "1. g3-f4",
                                                                 "--invert"],
                                      ["--player", "Krista"]])
def test_an_unreadable_game_is_never_in_the_selection(czech, tmp_path, criteria):
    out = tmp_path / "selected.pdn"
    result = runner.invoke(app, ["filter", str(czech), *criteria, "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert (f"{UNREADABLE}, left out of the selection (--rejects FILE keeps it): move number "
            "'1.' at 499:1 is not followed by a move") in " ".join(result.output.split())
    assert "1 unreadable game left out of the selection" in result.output
    selected = list(read_games(out))
    assert selected and not any(game.errors for game in selected)
    assert ("Krista,V.", "Sofr,O.") not in _players(out)


def test_the_unreadable_game_goes_to_rejects_unchanged(czech, tmp_path):
    out, rejects = tmp_path / "selected.pdn", tmp_path / "rejects.pdn"
    result = runner.invoke(app, ["filter", str(czech), "--moves", "1. g3-f4", "-o", str(out),
                                 "--rejects", str(rejects)])
    assert result.exit_code == 1, result.output
    assert "4 of 40 games matched; 4 written" in result.output
    assert len(_players(out)) == 4
    assert _players(rejects) == [("Krista,V.", "Sofr,O.")]
    assert "\n1. 1-0\n" in rejects.read_text(encoding="utf-8")  # as it was written


def test_tags_that_rule_the_unreadable_game_out_say_nothing_of_it(czech, tmp_path):
    result = runner.invoke(app, ["filter", str(czech), "--white", "Sofr", "-o",
                                 str(tmp_path / "sofr.pdn")])
    assert result.exit_code == 0, result.output
    assert "unreadable" not in result.output
