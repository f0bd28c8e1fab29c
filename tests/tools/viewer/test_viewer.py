"""The HTML game viewer, read as data: the page stores per ply only the move and what it
changes, and those moves, applied from the start as the page's script applies them (read here
by a second, independent reader of the format), give the replayer's position at every move of
the main line and of the variations; failed moves carry the replayer's messages; the page needs
nothing from the network. The browser test is ``test_viewer_browser.py``."""

import json
import re
from itertools import takewhile
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.plies import board_after
from replay.record.replayer import replay_game
from replay.rules.variants import INTERNATIONAL, RUSSIAN, get_variant
from replay.viewer.moves import game_view
from replay.viewer.page import GAME_FIELDS, viewer_html

SAMPLES = Path(__file__).resolve().parents[3] / "samples"
GAME = SAMPLES / "russian" / "ivanov_petrov_full.pdn"
ERRORS = SAMPLES / "russian" / "scoresheet_with_errors.pdn"
VARIATIONS = """[White "A"][Black "B"][GameType "25"]
{Before the first move.} 1. c3-d4 f6-g5 (1... b6-a5 {the wing} 2. d4-c5 (2. b2-c3 a5-b4)
2. g3-f4 ? $2) 2. b2-c3 {Solid.} g7-f6 *"""
runner = CliRunner()


def replayed_games(source) -> list:
    return [replay_game(game, RUSSIAN) for game in read_games(source)]


def embedded(page: str) -> dict:
    """The JSON data a viewer page embeds: ``games`` (each a dict of its fields), ``kinds``."""
    match = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert match, "no embedded data"
    data = json.loads(match.group(1))
    data["games"] = [dict(zip(GAME_FIELDS, entry, strict=False)) for entry in data["games"]]
    return data


def read_nodes(data: dict, game: dict) -> list[dict]:
    """The positions a page's game reaches, read from its moves as the page's script reads
    them (``replay/viewer/moves.py`` states the format): each node with its parent, the FEN
    after the moves applied, the text as written, comments and messages."""
    kind, rank = data["kinds"][game["kind"]], {c: i for i, c in enumerate(data["alphabet"])}
    texts = iter(game["texts"])
    _, white, start = game.get("start") or (1, kind["startWhite"], kind["start"])
    root = {"parent": None, "cells": {rank[start[k]]: start[k + 1]
                                      for k in range(0, len(start), 2)},
            "white": white, "comments": [], "error": None, "warning": None, "written": None}
    nodes, stack, parent, last = [root], [], 0, 0
    for token in game["moves"].split():
        if token == "(":
            stack.append((parent, last))
            parent = nodes[last]["parent"]
        elif token == ")":
            parent, last = stack.pop()
        elif token == "{":
            comment = next(texts)
            if not stack:
                root["comments"].append(comment)
        elif token == "^":
            nodes[-1]["unplayed"] = next(texts)
        else:
            before = nodes[parent]
            node = {"parent": parent, "cells": dict(before["cells"]), "white": before["white"],
                    "comments": [], "error": None, "warning": None, "written": None}
            if token[0] in "#~":
                node["written"] = next(texts)
                node["error" if token[0] == "#" else "warning"] = next(texts)
                flags = token[1:]
            else:
                squares = [rank[c] for c in takewhile(lambda c: c in rank, token)]
                flags = token[len(squares):]
                _apply(node, squares, "+" in flags)
            for flag in flags:
                if flag in "'!?%={":
                    key = {"'": "written", "!": "marks", "?": "warning", "%": "clock",
                           "=": "eval"}.get(flag)
                    text = next(texts)
                    if key:
                        node[key] = text
                    else:
                        node["comments"].append(text)
            nodes.append(node)
            parent = last = len(nodes) - 1
    for node in nodes:
        node["fen"] = _fen(kind, node["cells"], node["white"])
    return nodes


def _apply(node: dict, squares: list[int], crowned: bool) -> None:
    cells = node["cells"]
    origin, landings, taken = squares[0], squares[1::2], squares[2::2]
    piece = cells.pop(origin)
    for square in taken:
        del cells[square]
    cells[landings[-1]] = piece.upper() if crowned else piece
    node["white"] = not node["white"]


def _fen(kind: dict, cells: dict[int, str], white: bool) -> str:
    def side(man: str) -> str:
        return ",".join(("K" if cells[s] == man.upper() else "") + kind["fen"][s]
                        for s in sorted(cells) if cells[s].lower() == man)
    return f"{'W' if white else 'B'}:W{side('w')}:B{side('b')}"


def main_line(nodes: list[dict]) -> list[dict]:
    """The nodes from the start along every first child."""
    children: dict[int, list[int]] = {}
    for number, node in enumerate(nodes):
        if node["parent"] is not None:
            children.setdefault(node["parent"], []).append(number)
    line = [0]
    while line[-1] in children:
        line.append(children[line[-1]][0])
    return [nodes[number] for number in line]


def board_from(moves: list[str]) -> Board:
    board = Board(RUSSIAN)
    for text in moves:
        board.push(board.parse(text))
    return board


def test_every_position_of_the_main_line_is_the_replayers():
    (replayed,) = replayed_games(GAME)
    data = embedded(viewer_html([replayed]))
    (game,) = data["games"]
    line = main_line(read_nodes(data, game))
    assert len(line) == 11
    for ply, node in enumerate(line):
        assert node["fen"] == board_after(replayed, ply).fen()
        assert node["white"] == (ply % 2 == 0)
    assert line[10]["comments"] == ["Black takes four men; White resigned."]
    assert game_view(replayed).nodes[10].label == "5... c7:e5:c3:e1:h4"


def test_a_ply_costs_its_squares_and_no_text_when_written_as_labelled():
    (replayed,) = replayed_games(GAME)
    (game,) = embedded(viewer_html([replayed]))["games"]
    tokens = game["moves"].split()
    assert len(tokens) == len(replayed.moves) == 10
    for token, move in zip(tokens, replayed.moves, strict=True):
        squares = token.rstrip("+{")  # crowned; a comment follows
        assert len(squares) == (1 + 2 * len(move.captures) if move.captures else 2)
    assert game["texts"] == ["Black takes four men; White resigned."]


def test_variations_branch_from_the_position_before_the_move_they_replace():
    (replayed,) = replayed_games(VARIATIONS)
    data = embedded(viewer_html([replayed]))
    nodes = read_nodes(data, data["games"][0])
    view = game_view(replayed).nodes
    labels = {node.label: number for number, node in enumerate(view)}
    after_first = view[labels["1. c3-d4"]]
    assert [view[child].label for child in after_first.children] == [
        "1... f6-g5", "1... b6-a5"]
    assert [nodes[child]["parent"] for child in after_first.children] == [labels["1. c3-d4"]] * 2
    assert nodes[labels["2. b2-c3"]]["fen"] == board_from(["c3-d4", "f6-g5", "b2-c3"]).fen()
    assert nodes[labels["2. d4-c5"]]["fen"] == board_from(["c3-d4", "b6-a5", "d4-c5"]).fen()
    nested = nodes[labels["2... a5-b4"]]
    assert nested["fen"] == board_from(["c3-d4", "b6-a5", "b2-c3", "a5-b4"]).fen()
    assert nodes[0]["comments"] == ["Before the first move."]
    assert nodes[labels["1... b6-a5"]]["comments"] == ["the wing"]
    assert nodes[labels["2... g3-f4"]]["marks"] == "??"  # '?' as written, then $2


def test_a_move_that_does_not_replay_is_marked_with_the_replayers_message():
    replayed = replayed_games(ERRORS)
    data = embedded(viewer_html(replayed))
    first, second = data["games"]
    failed = main_line(read_nodes(data, first))[-1]
    (error,) = replayed[0].errors
    assert failed["error"] == error.message and "d4:b6" in failed["error"]
    assert failed["written"] == "b2-c3"
    assert failed["fen"] == board_from(["c3-d4", "b6-c5"]).fen()  # the position before it
    # numbered as on a scoresheet, each number held to its move by a no-break space
    assert failed["unplayed"] == "2...\u00a0c5:e3 3.\u00a0d2:f4"
    assert first["status"] == "invalid" and first["errors"] == [error.message]
    lost = main_line(read_nodes(data, second))[-1]
    assert "lost moves" in lost["warning"] and lost["error"] is None


def test_a_failed_move_in_a_variation_is_marked_too():
    (replayed,) = replayed_games(VARIATIONS)
    data = embedded(viewer_html([replayed]))
    (failed,) = [node for node in read_nodes(data, data["games"][0]) if node["error"]]
    assert failed["written"] == "g3-f4"  # written "2. g3-f4" where Black is to move
    (warning,) = replayed.warnings
    assert warning.message == failed["error"]  # the message validate gives
    assert failed["fen"] == board_from(["c3-d4", "b6-a5", "d4-c5"]).fen()


CLOCKED = """[GameType "20"]
{[%clock w0:10:00 B0:10:00]} 1. 32-28 {[%clock w0:09:57 B0:10:00]} 19-23
{[%eval -0.25] [%clock W0:09:57 b0:09:41]} 2. 28x19 {Forced. [%clk 1:02:03]}
14x23 {[%eval #-3]} 2-0"""


def test_clocks_and_evaluations_are_shown_as_times_and_numbers_not_as_comments():
    page = viewer_html(replayed_games(CLOCKED))
    data = embedded(page)
    game = data["games"][0]
    assert "[%" not in page
    nodes = main_line(read_nodes(data, game))
    assert [n.get("clock") for n in nodes[1:]] == ["9:57", "9:41", "1:02:03", None]
    assert [n.get("eval") for n in nodes[1:]] == [None, "-0.25", None, "#-3"]
    assert [n["comments"] for n in nodes] == [[], [], [], ["Forced."], []]


def test_a_view_node_keeps_the_clock_and_the_comment_without_commands():
    view = game_view(replay_game(next(read_games(CLOCKED)), INTERNATIONAL))
    assert [(n.clock, n.evaluation, n.comments) for n in view.nodes] == [
        (None, None, []), ("9:57", None, []), ("9:41", "-0.25", []),
        ("1:02:03", None, ["Forced."]), (None, "#-3", [])]


def test_a_lidraughts_game_shows_its_clock_beside_every_move(shared_data: Path):
    source = shared_data / "lidraughts_sample" / "lidraughts_export_sample.pdn"
    page = viewer_html([replay_game(game, INTERNATIONAL) for game in read_games(source)])
    data = embedded(page)
    nodes = main_line(read_nodes(data, data["games"][0]))[1:]
    assert "[%clock" not in page and len(nodes) == 301
    assert all(re.fullmatch(r"\d{1,2}:\d\d", n["clock"]) for n in nodes)
    assert [n["clock"] for n in nodes[:4]] == ["10:00", "10:00", "9:57", "9:58"]
    assert nodes[-1]["comments"] == ["Black resigns."]


def test_several_games_are_listed_with_what_the_list_shows_and_searches():
    games = embedded(viewer_html(replayed_games(ERRORS)))["games"]
    assert [(g["white"], g["black"], g["status"]) for g in games] == [
        ("Smirnov, Ivan", "Kuznetsova, Anna", "invalid"),
        ("Popov, Pyotr", "Volkov, Oleg", "incomplete")]


def test_a_game_from_a_set_up_position_carries_its_start():
    (game,) = read_games('[GameType "25"][FEN "B:WKe1,c3:Bb6,h8:F12"]\n12... b6-a5 *')
    data = embedded(viewer_html([replay_game(game)]))
    (entry,) = data["games"]
    nodes = read_nodes(data, entry)
    assert entry["start"][:2] == [12, False]
    board = Board.from_fen("B:WKe1,c3:Bb6,h8", RUSSIAN)
    assert nodes[0]["fen"] == board.fen()
    board.push(board.parse("b6-a5"))
    assert nodes[1]["fen"] == board.fen()


@pytest.mark.parametrize("name", ["russian", "english", "turkish", "international",
                                  "canadian", "thai", "frisian"])
@pytest.mark.parametrize("flipped", [False, True])
def test_every_board_size_is_described_once_with_every_square(name: str, flipped: bool):
    variant = get_variant(name)
    board = Board(variant)
    moves = []
    for _ in range(6):
        move = board.legal_moves()[0]
        moves.append(board.move_text(move))
        board.push(move)
    text = f'[GameType "{variant.gametype.number}"]\n' + " ".join(moves) + " *"
    replayed = [replay_game(game) for game in read_games(text + "\n\n" + text)]
    data = embedded(viewer_html(replayed, flipped=flipped))
    (kind,) = data["kinds"].values()
    playable = variant.geometry.playable
    assert len(kind["centres"]) == len(set(map(tuple, kind["centres"]))) == len(playable)
    assert kind["svg"].count('class="square playable"') == len(playable)
    assert main_line(read_nodes(data, data["games"][1]))[-1]["fen"] == board.fen()


def test_the_page_is_self_contained():
    page = viewer_html(replayed_games(ERRORS) + replayed_games(GAME))
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert set(re.findall(r"https?://[^\s\"'\\]+", page)) == {"http://www.w3.org/2000/svg"}


def test_text_from_the_record_cannot_break_out_of_the_page():
    (replayed,) = replayed_games('[White "<b>x</b>"]\n1. c3-d4 {</script><i>} *')
    page = viewer_html([replayed])
    assert "<b>x" not in page and "</script><i>" not in page
    data = embedded(page)
    (game,) = data["games"]
    assert game["white"] == "<b>x</b>"
    assert read_nodes(data, game)[1]["comments"] == ["</script><i>"]


def test_numeric_boards_are_embedded_with_every_square_number():
    (game,) = read_games('[GameType "20"]\n1. 32-28 19-23 *')
    (kind,) = embedded(viewer_html([replay_game(game, INTERNATIONAL)]))["kinds"].values()
    assert len(kind["centres"]) == 50 and kind["variant"] == "international"
    # the numbers are drawn by the page on the squares a piece leaves empty, not under them
    assert 'class="coordinate number"' not in kind["svg"]
    assert 'class="coordinate number"' in kind["number"][0]
    assert kind["names"] == kind["fen"] == [str(n) for n in range(1, 51)]


def test_view_writes_one_page_for_every_game_of_a_file(tmp_path: Path):
    out = tmp_path / "games.html"
    result = runner.invoke(app, ["view", str(ERRORS), "-o", str(out)])
    assert result.exit_code == 1, result.output  # written; one game does not replay
    assert len(embedded(out.read_text(encoding="utf-8"))["games"]) == 2
    result = runner.invoke(app, ["view", str(ERRORS), "--game", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    (game,) = embedded(out.read_text(encoding="utf-8"))["games"]
    assert (game["white"], game["black"]) == ("Popov, Pyotr", "Volkov, Oleg")


def test_view_in_worker_processes_writes_the_same_page(tmp_path: Path):
    pages = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}.html"
        result = runner.invoke(app, ["view", str(ERRORS), "-o", str(out), "--jobs", jobs])
        assert result.exit_code == 1, result.output  # one game does not replay
        pages.append(out.read_text(encoding="utf-8"))
    assert pages[0] == pages[1] and len(embedded(pages[0])["games"]) == 2


@pytest.mark.parametrize(("arguments", "message"), [
    ([str(GAME), "--game", "3"], "has 1 game"),
    (["missing.pdn"], "no such file"),
    ([str(GAME), "-o", str(GAME)], "it is also an input"),
])
def test_view_rejects_bad_input_with_exit_2(tmp_path: Path, arguments: list[str], message: str):
    if "-o" not in arguments:
        arguments = [*arguments, "-o", str(tmp_path / "out.html")]
    result = runner.invoke(app, ["view", *arguments])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out.html").exists()


def test_the_event_line_leaves_out_tags_that_say_nothing():
    (game,) = read_games('[Event "Cup"][Site "?"][Date "????.??.??"][Round "-"]\n1. c3-d4 *')
    (shown,) = embedded(viewer_html([replay_game(game, RUSSIAN)]))["games"]
    assert shown["event"] == "Cup"
    (game,) = read_games('[Event "Cup"][Site "Kazan"][Date "2001.05.??"][Round "3"]\n1. c3-d4 *')
    (shown,) = embedded(viewer_html([replay_game(game, RUSSIAN)]))["games"]
    assert shown["event"] == "Cup · Kazan · 2001.05.?? · 3"


# A letter off at White's 3rd move (b for d: 3. bc3 where 3. dc3 was played), and a game with
# lost moves, where there is nothing to suggest.
SLIPPED = ('[Event "x"]\n[GameType "25"]\n'
           "1. cd4 fe5 2. dxf6 gxe5 3. bc3 ba5 4. ab4 cb6 5. ba3 hg7 *\n\n"
           '[Event "y"]\n[GameType "25"]\n1. cd4 - 2. - - *\n')


def test_view_suggest_places_each_repair_at_the_ply_it_edits(tmp_path: Path):
    out, errors = tmp_path / "games.html", tmp_path / "slipped.pdn"
    errors.write_text(SLIPPED, encoding="utf-8")
    # exit 1: the games do not replay to their end (the exit-code table)
    assert CliRunner().invoke(app, ["view", str(errors), "--suggest", "-o", str(out)]
                              ).exit_code == 1
    first, second = embedded(out.read_text(encoding="utf-8"))["games"]
    # the suggestion edits the fifth ply written (3. bc3, read as 3. dc3)
    ((ply, description),) = first["suggestions"]
    assert ply == 4 and description.startswith("White's 3rd move is a slip: writing 3. dc3")
    assert second.get("suggestions") is None  # lost moves: nothing to suggest
    plain = tmp_path / "plain.html"
    CliRunner().invoke(app, ["view", str(errors), "-o", str(plain)])
    assert all(game.get("suggestions") is None for game in embedded(plain.read_text())["games"])


@pytest.mark.parametrize("game", [[], ["--game", "2"]])
def test_a_game_that_cannot_be_read_says_why_and_exits_1(tmp_path, game):
    """The page showed an unreadable game as "? – ?" with no reason, and view exited 0."""
    source = tmp_path / "broken.pdn"
    source.write_text('[Event "a"]\n1. 32-28 *\n\n[White "X"]\n1. 32-28 } 19-23 *\n\n',
                      encoding="utf-8")
    out = tmp_path / "v.html"
    result = CliRunner().invoke(app, ["view", str(source), "-o", str(out), *game])
    assert result.exit_code == 1, result.output
    assert "games that do not replay: 1 unreadable" in result.output
    page = out.read_text(encoding="utf-8")
    assert "this game could not be read: unexpected '}' at 5:10" in page
