"""Games edited from Python (``replay.record.editing``), as python-chess's ``chess.pgn`` edits them:
a game started from the initial position, a FEN or a board; moves added (each checked on the
rules), promoted, demoted and removed; comments, NAGs and tags; written as PDN that reads
back to the same tree, on real games and on random trees (hypothesis)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdn
from pdn.reader import read_games
from replay import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError
from replay.record.editing import EditableGame, EditNode, MoveNode, written
from replay.record.replayer import replay_game
from replay.rules.move import Move


def shape(node: EditNode) -> list:
    """The tree under a node as plain values: each child's move (its text and its key), its
    comments, NAGs and starting comments, and the tree under it, in order."""
    return [(child.text("full"), child.move.key, child.comments, child.nags,
             child.starting_comments if index else [], shape(child))
            for index, child in enumerate(node.variations)]


def read_back(game: EditableGame) -> EditableGame:
    return EditableGame.from_game(pdn.read_game(str(game)))


# ---- building -------------------------------------------------------------------------------


def test_a_game_from_the_initial_position_writes_its_variant_and_its_moves():
    game = EditableGame(variant="russian", headers={"White": "Ivanov", "Black": "Petrov"})
    game.add_line(["cd4", "f6-g5", "23-19"])  # any notation: 23-19 is e3-f4
    text = str(game)
    assert '[GameType "25,W,8,8,A0,0"]' in text and '[White "Ivanov"]' in text
    assert "FEN" not in text
    assert game.movetext() == "1. c3-d4 f6-g5 2. e3-f4 *"
    assert [node.ply() for node in game.mainline()] == [1, 2, 3]


def test_a_game_from_a_fen_with_the_second_player_to_move_is_numbered_from_1_dots():
    game = EditableGame("B:W31,32:B19,20", variant="international")
    game.add_line(["19-23", "32-28"])
    assert game.headers["FEN"] == "B:W31,32:B19,20"
    assert game.movetext() == "1... 19-23 2. 32-28 *"
    assert read_back(game).headers["FEN"] == "B:W31,32:B19,20"
    english = EditableGame("B:W30,31:B1,2", variant="english")  # Black is the first player
    english.add_line(["1-6", "31-27"])
    assert english.movetext() == "1. 1-6 31-27 *"


def test_a_game_from_a_board_starts_where_the_board_started_with_its_moves():
    board = Board(variant="international")
    for text in ("32-28", "19-23", "28x19"):
        board.push_text(text)
    game = EditableGame.from_board(board, headers={"Event": "club"})
    assert game.mainline_moves() == board.move_stack
    assert game.movetext() == "1. 32-28 19-23 2. 28x19 *"
    assert game.end().board().fen() == board.fen()
    assert game.headers["Event"] == "club" and "FEN" not in game.headers


# ---- every move checked on the rules as it is added ------------------------------------------


def test_an_illegal_move_is_refused_with_the_legal_moves_and_the_tree_unchanged():
    game = EditableGame(variant="russian")
    with pytest.raises(IllegalMoveError, match="legal moves: a3-b4"):
        game.add_variation("c3-b2")
    stranger = Board("W:Wa1:Bb2", variant="russian").legal_moves()[0]  # from another position
    with pytest.raises(IllegalMoveError, match="legal moves"):
        game.add_variation(stranger)
    with pytest.raises(InvalidMoveError):
        game.add_variation("c3-d5")  # d5 is no playing square
    assert game.variations == []


def test_a_capture_must_be_played_and_continued_as_the_russian_rules_say():
    """Russian rules (RULES.md): capturing is compulsory and a capture goes on to its end."""
    game = EditableGame("W:Wc3:Bd4,f6", variant="russian")
    with pytest.raises(IllegalMoveError, match="must continue to g7"):
        game.add_variation("c3:e5")
    node = game.add_variation("c3:e5:g7")
    assert node.text("full") == "c3:g7" and node.board().fen() == "B:Wg7:B"
    with pytest.raises(IllegalMoveError):
        node.add_variation("g7-h8")  # Black has no piece left: nothing is legal


def test_an_ambiguous_move_is_refused_and_a_whole_one_taken():
    """The king h8 and the man h6 can both go to g7 (``30. hg7`` in game 2 of the 1998 world
    championship): the short record is refused, the full one written so that it reads back."""
    game = EditableGame("W:Wh6,Kh8:Bc5", variant="russian")
    with pytest.raises(AmbiguousMoveError, match="h6-g7"):
        game.add_variation("hg7")
    node = game.add_variation("h8-g7")
    assert read_back(game).next().move == node.move and node.text("full") == "h8-g7"


def test_a_move_value_is_taken_with_the_route_given():
    game = EditableGame(variant="russian")
    move = game.board().parse("cd4")
    assert game.add_variation(move).move is not move  # the board's own, same key and route
    assert game.next().move == move and game.next().move.path == move.path


# ---- editing the tree -----------------------------------------------------------------------


@pytest.fixture
def branched() -> EditableGame:
    """1. c3-d4 with 1. a3-b4 and 1. g3-h4 as alternatives, in that order."""
    game = EditableGame(variant="russian")
    for text in ("cd4", "ab4", "gh4"):
        game.add_variation(text)
    return game


def firsts(node: EditNode) -> list[str]:
    return [child.text("full") for child in node.variations]


def test_add_main_variation_puts_the_move_first(branched: EditableGame):
    branched.add_main_variation("ef4")
    assert firsts(branched) == ["e3-f4", "c3-d4", "a3-b4", "g3-h4"]
    assert branched.movetext() == "1. e3-f4 (1. c3-d4) (1. a3-b4) (1. g3-h4) *"


def test_promote_demote_promote_to_main_and_remove(branched: EditableGame):
    branched.promote("gh4")
    assert firsts(branched) == ["c3-d4", "g3-h4", "a3-b4"]
    branched.demote(0)
    assert firsts(branched) == ["g3-h4", "c3-d4", "a3-b4"]
    branched.promote_to_main(branched.variation("a3-b4"))
    assert firsts(branched) == ["a3-b4", "g3-h4", "c3-d4"]
    branched.promote(0)  # the first stays first
    branched.demote(2)  # the last stays last
    assert firsts(branched) == ["a3-b4", "g3-h4", "c3-d4"]
    branched.remove_variation("g3-h4")
    assert firsts(branched) == ["a3-b4", "c3-d4"]
    with pytest.raises(KeyError):
        branched.variation("gh4")
    assert not branched.has_variation("gh4") and branched.has_variation("cd4")


def test_a_variation_deep_in_the_tree_is_written_after_the_move_it_replaces():
    game = EditableGame(variant="russian")
    reply = game.add_variation("cd4").add_variation("fg5")
    reply.parent.add_variation("ba5", comments=["sharper"], nags=[3],
                               starting_comments=["or"])
    reply.add_variation("dc5")
    assert game.movetext() == "1. c3-d4 f6-g5 ({or} 1... b6-a5 $3 {sharper}) 2. d4-c5 *"
    sub = reply.parent.variation("ba5")
    assert not sub.is_mainline() and reply.is_mainline() and sub.game() is game


def test_comments_nags_and_tags_are_written_and_read_back():
    game = EditableGame(variant="international", headers={"Event": 'The "Open"'})
    game.comments = ["before the first move"]
    game.headers["Result"] = "1-1"
    node = game.add_variation("32-28", comments=["[%eval 0.25]", "a  classic\nstart"],
                              nags=[1, 146])
    with pytest.raises(ValueError, match="0 to 255"):
        node.add_variation("19-23", nags=[256])
    back = read_back(game)
    assert back.comments == ["before the first move"]
    assert back.headers["Event"] == 'The "Open"' and back.headers["Result"] == "1-1"
    assert back.next().comments == ["[%eval 0.25]", "a classic start"]
    assert back.next().nags == [1, 146]
    assert str(game).endswith("1-1")


def test_written_comments_are_as_the_reader_gives_them_back():
    assert written(["  a\n\tb  ", "x}y"]) == ["a b", "x}y"]
    game = EditableGame(variant="russian")
    game.add_variation("cd4", comments=["x}y"])  # no brace comment can hold }: a ; comment
    assert read_back(game).next().comments == ["x}y"]


# ---- reading games back ---------------------------------------------------------------------

NK = SHARED_DATA / "tests" / "wiegerw_pdn" / "succeed" / "nk ronde 01.pdn"


@pytest.mark.skipif(not NK.exists(), reason="../shared/data is not present")
def test_real_annotated_games_read_into_the_tree_and_write_back_to_the_same_tree():
    """Five games of the Dutch championship with variations and comments: the tree holds
    every move of the replayed game's main line and variations, and its PDN reads back to
    the same tree."""
    checked = 0
    for record in read_games(Path(NK)):
        tree = replay_game(record)
        if str(tree.status) != "valid":
            continue
        game = EditableGame.from_game(record)
        assert [node.move for node in game.mainline()] == tree.moves
        alternatives = sum(len(node.variations) - 1 for node in [game, *game.mainline()]
                           if node.variations)  # each a variation written on the main line
        assert alternatives == sum(len(ply.variations) for ply in record.moves.plies)
        assert shape(read_back(game)) == shape(game)
        assert str(read_back(game)) == str(game)
        checked += 1
    assert checked >= 5


def test_a_game_that_stops_keeps_the_moves_that_replay_and_says_why():
    record = pdn.read_game('[GameType "25"]\n1. cd4 fe5 2. b2-c3 *')  # d4:f6 is compulsory
    game = EditableGame.from_game(record)
    assert [node.text() for node in game.mainline()] == ["c3-d4", "f6-e5"]
    assert game.errors and game.errors[0].code


# ---- random trees (hypothesis) ----------------------------------------------------------------

VARIANTS = ["russian", "international", "english", "brazilian", "thai", "frisian"]
WORDS = st.text(st.sampled_from("abc xyz}{;$%[]().é\n"), max_size=12)


@st.composite
def trees(draw) -> EditableGame:
    """A game of a variant, from its start or from a position a few random moves in (as a
    FEN), with up to 40 moves in nested variations, each with comments and NAGs."""
    variant = draw(st.sampled_from(VARIANTS))
    board = Board(variant=variant)
    for _ in range(draw(st.integers(0, 6))):
        legal = board.legal_moves()
        if not legal:
            break
        board.push(draw(st.sampled_from(legal)))
    fen = board.fen() if draw(st.booleans()) else None
    game = EditableGame(fen, variant=variant) if fen else EditableGame.from_board(board)
    game.comments = draw(st.lists(WORDS, max_size=1))
    budget = [40]

    def grow(node: EditNode, depth: int) -> None:
        legal = node.board().legal_moves()
        if not legal or depth > 8 or budget[0] <= 0:
            return
        for move in draw(st.lists(st.sampled_from(legal), max_size=min(3, budget[0]),
                                  unique_by=lambda m: m.key)):
            budget[0] -= 1
            child = node.add_variation(
                move, comments=draw(st.lists(WORDS, max_size=2)),
                nags=draw(st.lists(st.integers(0, 255), max_size=2)),
                starting_comments=draw(st.lists(WORDS, max_size=1)) if node.variations else ())
            grow(child, depth + 1)

    grow(game.end(), 0)
    if draw(st.booleans()) and game.variations:
        game.promote_to_main(len(game.variations) - 1)
    return game


def normalised(tree: list) -> list:
    return [(text, key, written(comments), nags, written(starting), normalised(sub))
            for text, key, comments, nags, starting, sub in tree]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees())
def test_any_tree_written_as_pdn_reads_back_to_the_same_tree(game: EditableGame):
    back = read_back(game)
    assert back.errors == []
    assert back.variant is game.variant and back.headers == game.headers
    assert written(back.comments) == written(game.comments)
    assert shape(back) == normalised(shape(game))
    assert str(back) == str(game)


def test_move_nodes_say_where_they_are():
    game = EditableGame(variant="russian")
    node = game.add_line(["cd4", "fg5"])
    assert isinstance(node, MoveNode) and node.ply() == 2 and node.parent.ply() == 1
    assert node.board_before().fen() == node.parent.board().fen()
    assert repr(node) == "<MoveNode 2: f6-g5>"
    assert isinstance(node.move, Move) and game.end() is node and node.next() is None
