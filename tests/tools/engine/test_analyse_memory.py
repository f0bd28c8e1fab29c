"""``pdn analyse`` holds no more games than the engines work on: the input is read once to
learn each game's variant, what is unreadable and how many positions there are, then read
again as the engines take the games, a few ahead of them (200,000 one-line games, 11 MB,
peaked at over a gigabyte held as games before the first was analysed)."""

from __future__ import annotations

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import PdnText, read_games
from replay.engine.annotate import annotate_games
from replay.engine.hub import popen_hub
from replay.engine.limits import Limit
from replay.engine.readings import game_readings
from replay.engine.server import builtin_command

runner = CliRunner()
GAMES = "".join(f'[Event "g{n}"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' for n in range(12))


@pytest.mark.parametrize("jobs", [1, 2])
def test_annotate_games_takes_the_games_a_few_ahead_of_the_engines(jobs):
    pytest.importorskip("replay.engine._search")
    drawn = 0

    def games():
        nonlocal drawn
        for game in read_games(PdnText(GAMES)):
            drawn += 1
            yield game

    ahead = []
    readings = game_readings(list(read_games(PdnText(GAMES))))  # as pdn analyse's survey
    outcomes = annotate_games(games(), lambda variant: popen_hub(builtin_command(),
                                                                 variant=variant),
                              Limit(depth=1), jobs=jobs, readings=readings)
    for outcome in outcomes:
        assert outcome.analysis is not None, outcome.error
        ahead.append(drawn - outcome.index - 1)
    assert len(ahead) == 12 and max(ahead) <= 2 * jobs
    assert ahead[0] > 0  # the engines are kept busy: the next games wait in the queue


def test_pdn_analyse_reads_standard_input_as_it_reads_a_file(tmp_path):
    """Read twice, standard input is copied to a temporary file first."""
    pytest.importorskip("replay.engine._search")
    source = tmp_path / "games.pdn"
    source.write_text(GAMES[: GAMES.index('[Event "g3"]')], encoding="utf-8")
    written = {}
    for name, arguments, given in (("file", [str(source)], None), ("stdin", ["-"],
                                                                    source.read_bytes())):
        out = tmp_path / f"{name}.pdn"
        result = runner.invoke(app, ["analyse", *arguments, "-o", str(out), "--depth", "2"],
                               input=given)
        assert result.exit_code == 0, result.output
        written[name] = out.read_text(encoding="utf-8")
    assert written["file"] == written["stdin"]
    assert [game.tags["Event"] for game in read_games(PdnText(written["stdin"]))] == [
        "g0", "g1", "g2"]
