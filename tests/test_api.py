"""The public API as the README's "Using the library" shows it, run on a real annotated game
(the Dutch championship 2009, round 1, from the PDN 3.0 test set: comments, NAGs and
variations), with each value checked against the record or an independent replay."""

from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

import pytest

import pdn
import replay
from pdn.writer import format_move, write_game
from replay.convert.games import scoresheet
from replay.record.tree import walk
from replay.viewer.page import game_view

ANNOTATED = Path("tests") / "wiegerw_pdn" / "succeed" / "nk ronde 01.pdn"
RUSSIAN_START = ("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:"
                 "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")  # twelve men each, ranks 1-3


@pytest.fixture
def games_pdn(shared_data: Path) -> str:
    """The real annotated archive, read where it lies: the snippet's ``games.pdn``."""
    return str(shared_data / ANNOTATED)


def test_the_snippet_reads_and_replays_a_real_game_into_a_tree(games_pdn: str):
    game = next(pdn.read_games(games_pdn))               # pdn.Game
    tree = replay.replay_game(game)                      # variant: GameType tag, else inferred
    assert isinstance(game, pdn.Game) and game.tags["White"] == "Derkx,B."
    assert tree.variant.name == "international"  # [GameType "20"]
    assert tree.status is replay.Status.VALID and str(tree.status) == "valid"
    nodes = list(tree.mainline())
    assert [node.ply for node in nodes] == game.moves.plies  # every ply of the record
    independent = replay.Board(variant="international")
    for index, node in enumerate(nodes):
        ply = game.moves.plies[index]
        node.move_number, node.side, node.comments, node.nags, node.problem  # noqa: B018
        assert node.side == ("White", "Black")[index % 2]
        assert node.move_number == index // 2 + 1
        if ply.number is not None:
            assert node.move_number == ply.number  # as the scoresheet numbers it
        assert node.comments is ply.comments and node.nags is ply.nags
        assert node.problem is None
        written = independent.push_text(ply.record.text)
        assert written == node.move
        assert node.board.fen() == independent.fen()
        assert node.text("pdn") == format_move(ply.record)  # minimal numeric, as written
        for style in ("full", "short", "numeric", "pdn"):
            assert node.board_before().parse(node.text(style)) == node.move, style
    annotated = [node for node in nodes if node.comments or node.nags or node.variations]
    assert any(node.nags for node in annotated) and any(node.comments for node in annotated)
    assert sum(len(node.variations) for node in nodes) == sum(len(p.variations)
                                                              for p in game.moves.plies)


def test_variations_start_with_the_alternative_from_the_same_position(games_pdn: str):
    tree = replay.replay_game(next(pdn.read_games(games_pdn)))
    branched = [node for node in tree.mainline() if node.variations]
    assert branched
    for node in branched:
        for variation, line in zip(node.variations, node.ply.variations, strict=True):
            assert variation.line is line and variation.stop is None
            first = variation[0]
            assert isinstance(first, replay.GameNode) and first.ply is line.plies[0]
            assert first.before == node.before and first.move != node.move
            assert first.move_number == node.move_number and first.side == node.side
            assert [n.ply for n in variation] == line.plies
    assert tree.mainline() is tree.mainline()  # built once


def test_the_snippet_board_lines(games_pdn: str):
    board = replay.Board(variant="russian")             # start position
    assert board.fen() == RUSSIAN_START
    board = replay.Board("W:Wa1:Bc3,f4", variant="russian")
    assert repr(board) == "Board('W:Wa1:Bc3,f4', variant='russian')"
    assert [str(move) for move in board.legal_moves()] == ["a1-b2"]
    # the moves of the snippet on the start position (cd4 is no move on the set-up above)
    board = replay.Board(variant="russian")
    move = board.parse("cd4")                            # any notation: c3-d4, cd4, 22-18, paths
    assert str(move) == "c3-d4"
    assert all(board.parse(text) == move for text in ("c3-d4", "C3D4", "22-18", "c3d4"))
    assert board.text(move, "numeric") == "22-18"
    board.push(move); board.push_text("dc5"); popped = board.pop()  # noqa: E702
    assert str(popped) == "d6-c5" and board.move_stack == [move]
    assert len(board.legal_moves()) == 7
    assert board.fen() == ("B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:"
                           "Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8")  # c3 went to d4
    assert board.outcome() is None and not board.is_game_over()


def test_a_captured_man_shows_in_text_in_every_notation():
    board = replay.Board("W:Wc3:Bd4", variant="russian")
    (move,) = board.legal_moves()
    assert str(move) == "c3:e5"
    assert [board.text(move, style) for style in ("full", "short", "numeric", "pdn")] == [
        "c3:e5", "c:e5", "22:15", "c3:e5"]  # numbers as in English checkers (docs/notation.md)
    twice = replay.Board("W:Wc3:Bd4,f6", variant="russian")
    (move,) = twice.legal_moves()
    assert str(move) == "c3:g7" and move.captures == tuple(twice.parse("c3:e5:g7").captures)


def test_a_position_without_moves_has_an_outcome():
    board = replay.Board("W:Wa1:Bb2,c3", variant="russian")  # a1 is blocked, no capture
    assert board.legal_moves() == []
    assert board.outcome() == replay.Outcome("Black", "White has no legal move")
    assert board.is_game_over()


@pytest.mark.parametrize(("text", "error"), [
    ("c3-e5", replay.IllegalMoveError),
    ("hg5", replay.IllegalMoveError),
    ("c9-d4", replay.InvalidMoveError),
    ("c3-b5", replay.InvalidMoveError),  # b5 is a light square
    ("hello", replay.InvalidMoveError),
])
def test_a_bad_move_raises_a_value_error_naming_it(text, error):
    board = replay.Board(variant="russian")
    with pytest.raises(error) as raised:
        board.parse(text)
    assert isinstance(raised.value, ValueError) and f"'{text}'" in str(raised.value)
    if error is replay.IllegalMoveError:  # and the moves that are legal
        assert all(str(move) in str(raised.value) for move in board.legal_moves())


def test_an_ambiguous_move_lists_the_moves_it_can_be():
    # the king h8 and the man h6 can both go to g7 (as "30. hg7" in game 2 of the 1998
    # world championship)
    board = replay.Board("W:Wh6,Kh8:Bc5", variant="russian")
    with pytest.raises(replay.AmbiguousMoveError) as raised:
        board.parse("hg7")
    assert isinstance(raised.value, ValueError)
    assert all(name in str(raised.value) for name in ("'hg7'", "h6-g7", "h8-g7"))


def test_the_public_names_are_listed_and_the_packages_are_typed():
    assert "Game" in pdn.__all__ and pdn.Game is pdn.game.Game
    for name in replay.__all__:
        assert getattr(replay, name) is not None
    assert {"Board", "GameNode", "IllegalMoveError", "AmbiguousMoveError", "Outcome", "Status",
            "replay_game"} <= set(replay.__all__)
    for package in ("pdn", "replay"):
        assert files(package).joinpath("py.typed").is_file()
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["pdn"] and "py.typed" in data["replay"]


def test_a_moves_text_survives_pickling_with_its_variant():
    import pickle

    move = replay.Board(variant="english").parse("11-15")
    again = pickle.loads(pickle.dumps(move))
    assert again == move and str(again) == "11-15" == str(move)


# ---- who starts after a set-up: the FEN tag, else a /FEN/ before the first move -------------

SET_UP = "B:Wc3,e3:Bd6,f8"


@pytest.mark.parametrize("record", [
    f'[FEN "{SET_UP}"]\n1... d6-c5 2. c3-b4 *',
    f'/FEN "{SET_UP}"/ 1... d6-c5 2. c3-b4 *',
], ids=["FEN tag", "FEN set-up in the movetext"])
def test_a_set_up_with_black_to_move_numbers_the_first_ply_1_dots(record):
    game = next(pdn.read_games(record))
    tree = replay.replay_game(game, "russian")
    assert game.start_fen == SET_UP and str(tree.status) == "valid"
    assert [(n.label, n.side) for n in tree.mainline()] == [("1...", "Black"), ("2.", "White")]
    assert tree.warnings == []  # the written numbers agree with the replayer's
    assert "1... d6-c5 2. c3-b4" in write_game(game)
    assert scoresheet(game, tree.variant).endswith("1. ...     d6-c5\n2. c3-b4")


def test_the_fen_tag_wins_over_a_set_up_for_every_reader():
    game = next(pdn.read_games(f'[FEN "{SET_UP}"]\n/FEN "W:Wc3,e3:Bd6,f8"/ 1... d6-c5 *'))
    tree = replay.replay_game(game, "russian")
    assert tree.mainline()[0].label == "1..."
    assert "1... d6-c5" in write_game(game)  # the writer reads the same start


def test_a_black_first_variant_counts_from_black():
    game = next(pdn.read_games('[GameType "21"]\n1. 11-15 23-19 2. 8-11 *'))
    tree = replay.replay_game(game)
    assert [(n.label, n.side) for n in tree.mainline()] == [
        ("1.", "Black"), ("1...", "White"), ("2.", "Black")]


def test_the_viewer_reads_the_tree_and_resolves_nothing(games_pdn: str,
                                                        monkeypatch: pytest.MonkeyPatch):
    tree = replay.replay_game(next(pdn.read_games(games_pdn)))
    tree.mainline()

    calls: list[tuple] = []
    real = replay.record.resolve.resolve

    def counting(*args, **kwargs):  # delegates, so a module that imports it meanwhile still works
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr("replay.record.resolve.resolve", counting)
    monkeypatch.setattr("replay.record.replayer.resolve", counting)
    view = game_view(tree)
    assert calls == []
    moves = sum(1 for variation in [tree.mainline()] for _ in walk(variation))
    assert len(view.nodes) == moves + 1  # the start and a node per move of the tree


# ---- the names the README's library examples use (python-chess's way) ---------------------

SAMPLES = Path(__file__).parents[1] / "samples"
FULL = SAMPLES / "russian" / "ivanov_petrov_full.pdn"
SHORT = SAMPLES / "russian" / "ivanov_petrov_short.pdn"


@pytest.fixture
def two_games(tmp_path: Path) -> Path:
    """Two sample games in one file (one game in two notations), the second below the first."""
    path = tmp_path / "two.pdn"
    path.write_text("\n\n".join(p.read_text(encoding="utf-8") for p in (FULL, SHORT)),
                    encoding="utf-8")
    return path


def test_read_game_gives_the_first_game_of_a_path_or_a_text(two_games: Path):
    first = next(pdn.read_games(two_games))
    for source in (two_games, str(two_games), two_games.read_text(encoding="utf-8")):
        game = pdn.read_game(source)
        assert isinstance(game, pdn.Game)
        assert game.moves == first.moves and game.index == 1
    assert pdn.read_game("") is None  # no game at all, as python-chess says at the end
    assert pdn.read_game(two_games, 2).moves == list(pdn.read_games(two_games))[1].moves


@pytest.mark.parametrize("mode", ["r", "rb"], ids=["text file", "binary file"])
def test_read_game_reads_an_open_file_game_by_game(two_games: Path, mode: str):
    expected = list(pdn.read_games(two_games))
    assert len(expected) == 2 and expected[0].moves != expected[1].moves
    with open(two_games, mode) as handle:
        games = []
        while (game := pdn.read_game(handle)) is not None:  # python-chess's loop
            games.append(game)
        assert pdn.read_game(handle) is None  # and it stays at the end
    assert [(g.index, g.line, g.tags, g.moves) for g in games] == [
        (g.index, g.line, g.tags, g.moves) for g in expected]


def test_str_of_a_game_is_its_pdn_text_and_repr_says_which_game():
    game = pdn.read_game(FULL)
    text = str(game)
    assert text == write_game(game) and text.startswith('[Event "Example game, Russian')
    again = pdn.read_game(text)
    assert again.tags == game.tags and [p.record.text for p in again.moves.plies] == [
        p.record.text for p in game.moves.plies]
    shown = repr(game)
    assert "\n" not in shown and len(shown) < 80 + len(str(FULL))  # one short line
    assert "Ivanov" in shown and "Petrov" in shown
    assert f"{FULL}:1" in shown and f"{len(game.moves.plies)} plies" in shown
    assert shown != text and "Line(" not in shown


def test_the_stats_tables_are_public_in_replay():
    from replay import stats_tables, write_table
    from replay.stats import stats_tables as home
    from replay.stats import write_table as write_home

    assert stats_tables is home and write_table is write_home
    assert {"stats_tables", "write_table"} <= set(replay.__all__)
    told = stats_tables([str(FULL)])  # without a variant: told from each record
    tagged = stats_tables([str(FULL)], replay.get_variant("russian"))
    assert told.games["plies"].tolist() == tagged.games["plies"].tolist() == [
        len(pdn.read_game(FULL).moves.plies)]


def test_the_viewer_takes_games_as_read_and_replays_them():
    from replay.viewer.page import viewer_html

    game = pdn.read_game(FULL)
    page = viewer_html([game])
    assert page == viewer_html([replay.replay_game(game)])
    assert page.startswith("<!DOCTYPE html>") and "Ivanov" in page
