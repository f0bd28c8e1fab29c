"""``pdn match`` ends with the final score: each player's points in the variant's scoring
(FMJD 2-1-0 for Russian and International, 1-½-0 for English), counted here again from the
results of the games it wrote (in English the first figure is the first mover's, Black's,
as pdn standings reads them); and ``pdn analyse`` that analysed no move says so instead of
printing two empty tables."""

from __future__ import annotations

from collections import Counter

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games


@pytest.mark.parametrize(("variant", "win", "draw"), [("russian", 2, 1), ("english", 1, 0.5)])
def test_the_match_ends_with_its_final_score(tmp_path, variant, win, draw):
    out = tmp_path / "match.pdn"
    done = CliRunner().invoke(app, ["match", "random:1", "random:2", "--pairs", "3",
                                    "--variant", variant, "-o", str(out)])
    assert done.exit_code == 0, done.output
    points: Counter[str] = Counter()
    games = list(read_games(out))
    for game in games:
        white, black, result = game.tags["White"], game.tags["Black"], game.tags["Result"]
        first = result.split("-")[0]
        if result in ("1/2-1/2", "1-1"):
            points[white] += draw
            points[black] += draw
        else:  # the first figure is the first mover's: Black's in English (PDN 3.0)
            first_mover, second_mover = (black, white) if variant == "english" else (white,
                                                                                     black)
            winner = first_mover if first in ("1", "2") else second_mover
            points[winner] += win
            points[black if winner == white else white] += 0
    last = done.stderr.strip().splitlines()[-1]
    one, two = "random (seed 1)", "random (seed 2)"
    shown = {value: f"{value:g}".replace(".5", "½") for value in points.values()}
    assert last.startswith(f"final score after {len(games)} games: {one} {shown[points[one]]}"
                           f" - {shown[points[two]]} {two} ("), last
    assert len(games) == 6


def test_analyse_prints_no_empty_tables_when_no_move_was_analysed(capsys):
    """Every game refused (a variant the engine lacks) or failed: a sentence, not a games
    table and a players table with no rows."""
    from pdn.cli.analyse import _report

    from pdn.i18n import catalog

    _report([], json_rows=False, stdout_free=True, words=catalog("en"))
    captured = capsys.readouterr()
    assert captured.out == "" and "no move analysed" in captured.err
    assert "games" not in captured.err.replace("no games or players table", "")
