"""The HTML game viewer (issue 9), read as data: the positions embedded for every move of the
main line and of the variations match the replayer's, failed moves carry its messages, and the
page needs nothing from the network. The browser test is ``test_viewer_browser.py``."""

import json
import re
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.board import Board
from replay.diagram import board_after
from replay.replayer import replay_game
from replay.variants import INTERNATIONAL, RUSSIAN
from replay.viewer import game_view, viewer_html

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
GAME = SAMPLES / "russian" / "ivanov_petrov_full.pdn"
ERRORS = SAMPLES / "russian" / "scoresheet_with_errors.pdn"
VARIATIONS = """[White "A"][Black "B"][GameType "25"]
{Before the first move.} 1. c3-d4 f6-g5 (1... b6-a5 {the wing} 2. d4-c5 (2. b2-c3 a5-b4)
2. g3-f4 ? $2) 2. b2-c3 {Solid.} g7-f6 *"""
runner = CliRunner()


def replayed_games(source) -> list:
    return [replay_game(game, RUSSIAN) for game in read_games(source)]


def embedded(page: str) -> list[dict]:
    """The JSON data a viewer page embeds, one dict per game."""
    match = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "no embedded data"
    return json.loads(match.group(1))


def main_line(nodes: list[dict]) -> list[dict]:
    """The nodes from the start along every first child."""
    line = [nodes[0]]
    while line[-1]["children"]:
        line.append(nodes[line[-1]["children"][0]])
    return line


def board_from(moves: list[str]) -> Board:
    board = Board(RUSSIAN)
    for text in moves:
        board.push(board.parse(text))
    return board


def test_every_position_of_the_main_line_is_the_replayers():
    (replayed,) = replayed_games(GAME)
    (game,) = embedded(viewer_html([replayed]))
    line = main_line(game["nodes"])
    assert len(line) == 11
    for ply, node in enumerate(line):
        board = board_after(replayed, ply)
        assert node["fen"] == board.fen() and node["ply"] == ply
        assert {int(square): piece for square, piece in node["pieces"]} == board.setup().pieces
        assert node["white"] == (ply % 2 == 0)
    assert line[10]["label"] == "5... c7:e5:c3:e1:h4"
    assert line[10]["comments"] == ["Black takes four men; White resigned."]
    assert line[10]["under"].count('class="captured"') == 4 and "last-move" in line[10]["arrow"]


def test_variations_branch_from_the_position_before_the_move_they_replace():
    (replayed,) = replayed_games(VARIATIONS)
    nodes = game_view(replayed).nodes
    labels = {node["label"]: number for number, node in enumerate(nodes)}
    after_first = nodes[labels["1. c3-d4"]]
    assert [nodes[child]["label"] for child in after_first["children"]] == [
        "1... f6-g5", "1... b6-a5"]
    assert nodes[labels["2. b2-c3"]]["fen"] == board_from(["c3-d4", "f6-g5", "b2-c3"]).fen()
    assert nodes[labels["2. d4-c5"]]["fen"] == board_from(["c3-d4", "b6-a5", "d4-c5"]).fen()
    nested = nodes[labels["2... a5-b4"]]
    assert nested["fen"] == board_from(["c3-d4", "b6-a5", "b2-c3", "a5-b4"]).fen()
    assert nodes[0]["comments"] == ["Before the first move."]
    assert nodes[labels["1... b6-a5"]]["comments"] == ["the wing"]


def test_a_move_that_does_not_replay_is_marked_with_the_replayers_message():
    replayed = replayed_games(ERRORS)
    page = viewer_html(replayed)
    first, second = embedded(page)
    failed = main_line(first["nodes"])[-1]
    (error,) = replayed[0].errors
    assert failed["error"] == error.message and "d4:b6" in failed["error"]
    assert failed["fen"] == board_from(["c3-d4", "b6-c5"]).fen()  # the position before it
    assert first["status"] == "invalid" and first["errors"] == [error.message]
    assert re.search(r'<span class="move error" data-node="\d+" tabindex="-1" '
                     r'title="capture is compulsory[^"]*">b2-c3</span>', page)
    assert '<span class="unplayed" title="not replayed">c5:e3 d2:f4</span>' in page
    lost = main_line(second["nodes"])[-1]
    assert "lost moves" in lost["warning"] and lost["error"] is None


def test_a_failed_move_in_a_variation_is_marked_too():
    (replayed,) = replayed_games(VARIATIONS)
    nodes = game_view(replayed).nodes
    (failed,) = [node for node in nodes if node["error"]]
    assert failed["label"] == "2... g3-f4"  # written "2. g3-f4" where Black is to move
    (warning,) = replayed.warnings
    assert warning.message == f"in a variation: {failed['error']}"
    assert failed["fen"] == board_from(["c3-d4", "b6-a5", "d4-c5"]).fen()


def test_several_games_get_a_game_list_and_one_game_none():
    several = viewer_html(replayed_games(ERRORS))
    assert '<nav id="games">' in several
    assert several.count('<li data-game="') == 2
    assert 'class="invalid">Smirnov, Ivan – Kuznetsova, Anna' in several
    assert '<nav id="games" hidden>' in viewer_html(replayed_games(GAME))


def test_the_page_is_self_contained():
    page = viewer_html(replayed_games(ERRORS) + replayed_games(GAME))
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert set(re.findall(r"https?://[^\s\"'\\]+", page)) == {"http://www.w3.org/2000/svg"}


def test_text_from_the_record_cannot_break_out_of_the_page():
    (replayed,) = replayed_games('[White "<b>x</b>"]\n1. c3-d4 {</script><i>} *')
    page = viewer_html([replayed])
    assert "<b>x" not in page and "</script><i>" not in page
    (game,) = embedded(page)
    assert game["title"].startswith("<b>x</b>")
    assert game["nodes"][1]["comments"] == ["</script><i>"]


def test_numeric_boards_are_embedded_with_every_square_centre():
    (game,) = read_games('[GameType "20"]\n1. 32-28 19-23 *')
    data = game_view(replay_game(game, INTERNATIONAL)).data
    assert len(data["centres"]) == 50 and data["variant"] == "international"
    assert data["svg"].count('class="coordinate number"') == 50


def test_view_writes_one_page_for_every_game_of_a_file(tmp_path: Path):
    out = tmp_path / "games.html"
    result = runner.invoke(app, ["view", str(ERRORS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(embedded(out.read_text(encoding="utf-8"))) == 2
    result = runner.invoke(app, ["view", str(ERRORS), "--game", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    (game,) = embedded(out.read_text(encoding="utf-8"))
    assert game["title"] == "Popov, Pyotr – Volkov, Oleg"


@pytest.mark.parametrize(("arguments", "message"), [
    ([str(GAME), "--game", "3"], "has 1 game"),
    (["missing.pdn"], "No such file"),
    ([str(GAME), "-o", str(GAME)], "it is also an input"),
])
def test_view_rejects_bad_input_with_exit_2(tmp_path: Path, arguments: list[str], message: str):
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "out.html")]
    result = runner.invoke(app, ["view", *arguments])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out.html").exists()
