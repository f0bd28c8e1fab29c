"""``pdn analyse`` starts its engine for each game's own variant, the one ``pdn validate``
reads it as (``replay.engine.readings``): English (OCA 2.0, no GameType tag) and Russian
(abatsiev, no GameType tag) archives are analysed without ``--variant``, an archive of mixed
variants game by game, and a Hub engine that plays a fixed set of variants refuses each game
of another variant on its own, never the whole run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from pdn.writer import write_game
from replay.engine.readings import game_readings
from replay.record.replayer import replay_game

runner = CliRunner()
OCA = Path("english") / "OCA_2.0.pdn"
ABATSIEV = Path("games-checkers") / "russian" / "abatsiev.pdn"
WK2007 = Path("international") / "fmjd_wk2007_all_games.pdn"
CZECH = Path("games-checkers") / "czech" / "MR_Ceska_Dama_Druzstev_2008.pdn"

pytestmark = pytest.mark.usefixtures("no_engine_outlives_a_test")


def _games_file(path: Path, games) -> str:
    path.write_text("".join(write_game(game) + "\n\n" for game in games), encoding="utf-8")
    return str(path)


@pytest.fixture
def mixed(tmp_path, shared_data, archive) -> str:
    """One file of an English game (OCA), a Russian one (abatsiev), both without a GameType
    tag, and an International one (WK 2007, GameType 20)."""
    games = [archive(shared_data / name)[0] for name in (OCA, ABATSIEV, WK2007)]
    return _games_file(tmp_path / "mixed.pdn", games)


def _validated_variants(path: str) -> list[str]:
    result = runner.invoke(app, ["validate", path, "--json"])
    return [json.loads(line)["variant"] for line in result.stdout.splitlines()
            if line.startswith("{")]


def test_each_game_is_read_as_pdn_validate_reads_it(mixed, shared_data):
    games = list(read_games(mixed))
    assert [r.variant.name for r in game_readings(games)] == _validated_variants(mixed) == [
        "english", "russian", "international"]
    # a whole file where the file's games decide (Czech games that Russian rules replay too)
    czech = str(shared_data / CZECH)
    readings = game_readings(list(read_games(czech)))
    assert [r.variant.name for r in readings] == _validated_variants(czech)


@pytest.mark.parametrize(("name", "variant"), [(OCA, "english"), (ABATSIEV, "russian")])
def test_an_archive_without_gametype_tags_is_analysed_in_its_own_variant(
        tmp_path, shared_data, archive, builtin_command, name, variant):
    games = archive(shared_data / name)[:3]
    source = _games_file(tmp_path / "three.pdn", games)
    out = tmp_path / "annotated.pdn"
    result = runner.invoke(app, ["analyse", source, "-o", str(out), "--depth", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert "was started for" not in result.output
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(rows) == sum(len(game.moves.plies) for game in games)
    for written in read_games(out):
        again = replay_game(written)
        assert again.variant.name == variant and str(again.status) == "valid"
        assert all(node.ply.eval is not None for node in again.mainline())


def test_an_archive_of_mixed_variants_is_analysed_game_by_game(tmp_path, mixed,
                                                                builtin_command):
    out = tmp_path / "annotated.pdn"
    result = runner.invoke(app, ["analyse", mixed, "-o", str(out), "--depth", "2"])
    assert result.exit_code == 0, result.output
    written = list(read_games(out))
    assert [replay_game(game).variant.name for game in written] == [
        "english", "russian", "international"]
    assert all(game.tags["Annotator"] == "pdn builtin 1, depth 2" for game in written)


def _two_variant_engine(folder: Path) -> list[str]:
    """A second-protocol Hub engine that plays International and Frisian draughts only (its
    ``variant`` parameter, as Scan 3.x declares it) and answers each search with the first
    legal move. Returns its command line."""
    script = folder / "two_variants.py"
    script.write_text("""import sys
from replay.record.board import Board
from replay.engine.hub import move_text, parse_pairs
from replay.engine.server import read_position

names = {"normal": "international", "frisian": "frisian"}
variant = "international"
board = Board(variant=variant)
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "quit":
        break
    if word == "hub":
        print("id name=two-variants", 'param name=variant value=normal type=enum '
              'values="normal frisian"', "wait", sep="\\n", flush=True)
    elif word == "set-param":
        variant = names[parse_pairs(rest)["value"]]
    elif word == "init":
        print("ready", flush=True)
    elif word == "pos":
        board = Board(variant=variant)
        board = Board(board.variant, read_position(board, parse_pairs(rest)["pos"]))
    elif word == "go":
        move = move_text(board, board.legal_moves()[0])
        print(f"info depth=1 score=0.00 pv={move}", f"done move={move}", sep="\\n", flush=True)
""", encoding="utf-8")
    return [sys.executable, str(script)]


def test_a_game_of_a_variant_the_hub_engine_does_not_play_is_refused_alone(tmp_path, mixed):
    command = " ".join(_two_variant_engine(tmp_path))
    out = tmp_path / "annotated.pdn"
    result = runner.invoke(app, ["analyse", mixed, "-o", str(out), "--engine-cmd", command,
                                 "--depth", "1"])
    assert result.exit_code == 1, result.output  # some games not analysed
    said = " ".join(result.output.split())
    for number, variant in ((1, "english"), (2, "russian")):
        assert (f"game {number}: not analysed: engine two-variants does not play {variant} "
                "(it plays normal, frisian)") in said
    (written,) = read_games(out)  # the International game, analysed
    assert written.tags["Annotator"] == "two-variants, depth 1"
    assert replay_game(written).variant.name == "international"


def test_a_hub_engine_that_plays_none_of_the_games_variants_refuses_each(tmp_path, shared_data,
                                                                          archive):
    source = _games_file(tmp_path / "russian.pdn", archive(shared_data / ABATSIEV)[:2])
    command = " ".join(_two_variant_engine(tmp_path))
    result = runner.invoke(app, ["analyse", source, "-o", str(tmp_path / "out.pdn"),
                                 "--engine-cmd", command, "--depth", "1"])
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert said.count("not analysed: engine two-variants does not play russian") == 2
    assert "Traceback" not in result.output
