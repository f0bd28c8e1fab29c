"""The replayer: every move resolved or pinned to its exact location with a reason."""

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.notation import full_text
from replay.record.replayer import replay_game
from replay.rules.variants import INTERNATIONAL, RUSSIAN, Variant

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def replay_text(text: str, variant: Variant = RUSSIAN):
    (game,) = list(read_games(text))
    return replay_game(game, variant)


def test_seed_example_game_replays_in_short_and_full_notation_seeds_000():
    short = replay_game(next(read_games(SAMPLES / "russian" / "ivanov_petrov_short.pdn")), RUSSIAN)
    full = replay_game(next(read_games(SAMPLES / "russian" / "ivanov_petrov_full.pdn")), RUSSIAN)
    assert short.status == full.status == "valid"
    assert short.plies == full.plies == 10
    assert short.moves == full.moves
    assert short.final == full.final


def test_compulsory_capture_is_reported_at_the_move_with_its_location():
    games = list(read_games(SAMPLES / "russian" / "scoresheet_with_errors.pdn"))
    replayed = replay_game(games[0], RUSSIAN)
    assert replayed.status == "invalid"
    (error,) = replayed.errors
    assert (error.code, error.line, error.column, error.move_number, error.side, error.token) == (
        "capture-required", 12, 19, 2, "White", "b2-c3")
    assert "d4:b6" in error.message


def test_lost_moves_make_the_game_incomplete_not_illegal():
    games = list(read_games(SAMPLES / "russian" / "scoresheet_with_errors.pdn"))
    replayed = replay_game(games[1], RUSSIAN)
    assert replayed.status == "incomplete"
    assert replayed.known_plies == 4
    assert not replayed.errors


def test_ambiguous_short_record_resolved_by_continuation():
    # White's king h8 and man h6 can both go to g7 (as in `30. hg7` of the 1998 world
    # championship, game 2); only the king's move lets 2. g7-h8 follow.
    text = '[FEN "W:Wh6,Kh8:Bc5"]\n1. hg7 cb4 2. g7-h8 *'
    replayed = replay_text(text)
    assert replayed.status == "valid"
    assert [w.code for w in replayed.warnings] == ["resolved-by-continuation"]
    assert "h8-g7" in replayed.warnings[0].message


def test_truly_ambiguous_short_record_is_reported_with_the_candidates():
    replayed = replay_text('[FEN "W:Wh6,Kh8:Bc5"]\n1. hg7 cb4 *')
    (error,) = replayed.errors
    assert error.code == "ambiguous-move"
    assert "h6-g7" in error.message and "h8-g7" in error.message


def test_capture_stopping_early_is_named():
    replayed = replay_text('[FEN "W:WKa1:Bc3,f4"]\n1. a1:e5 *')
    (error,) = replayed.errors
    assert error.code == "capture-incomplete"
    assert "must continue" in error.message


def test_moving_the_opponents_piece_and_empty_squares():
    assert replay_text("1. f6-g5 *").errors[0].code == "wrong-side"
    assert replay_text("1. d4-e5 *").errors[0].code == "no-piece"
    # d4-c3 steps a man back while d4:f6 is compulsory: a man never steps back, so the
    # record's mistake is the backward move (capture-required is for a man's legal step
    # written where a capture is due); the message still lists the capture.
    error = replay_text("1. c3-d4 f6-e5 2. d4-c3 *").errors[0]
    assert (error.code, error.message) == ("backward-move",
                                           "men do not move backward; legal moves: d4:f6")


def test_legal_moves_are_listed_in_the_variants_square_order():
    # a3-c5 is no move: Russian squares are listed as a1, c1, ..., h8, row by row
    message = replay_text("1. c3-d4 f6-g5 2. a3-c5 *").errors[0].message
    listed = message.split("legal moves: ")[1].split()
    origins = [RUSSIAN.geometry.square(move[:2]) for move in listed]
    assert origins == sorted(origins) and len(set(origins)) > 3, listed
    # International squares by number
    message = replay_text("1. 50-45 *", INTERNATIONAL).errors[0].message
    listed = [tuple(map(int, move.split("-")))
              for move in message.split("legal moves: ")[1].split()]
    assert listed == sorted(listed) and len(listed) == 9, listed


def test_move_after_the_end_of_the_game():
    replayed = replay_text('[FEN "W:Wa1:Bb2,c3"]\n1. a1-b2 *')
    assert replayed.errors[0].code == "after-end"


def test_result_checked_against_the_final_position():
    win = replay_text('[FEN "W:Wc3:Bd4"]\n[Result "1-0"]\n1. c3:e5 1-0')
    assert (win.result, win.result_check, win.ending) == ("white", "consistent", "no-pieces")
    wrong = replay_text('[FEN "W:Wc3:Bd4"]\n[Result "0-1"]\n1. c3:e5 0-1')
    assert wrong.result_check == "inconsistent"
    assert "Black has no legal move" in wrong.result_note


def test_fifteen_king_only_moves_draw_rule_7_2_5():
    shuffle = " ".join(f"{n}. {'a1-b2' if n % 2 else 'b2-a1'} {'h6-g5' if n % 2 else 'g5-h6'}"
                       for n in range(1, 16))
    replayed = replay_text(f'[FEN "W:WKa1,c1:BKh6,a7"]\n[Result "1/2-1/2"]\n{shuffle} 1/2-1/2')
    assert replayed.status == "valid"
    assert [c.rule for c in replayed.draws] == ["repetition", "7.2.5"]
    assert replayed.draws[-1].ply == 30
    assert replayed.result_check == "consistent"


def test_variations_replay_from_their_branch_point():
    replayed = replay_text("1. c3-d4 f6-g5 (1... f6-e5 2. d4:f6) (1... h6-e3) 2. b2-c3 *")
    assert replayed.status == "valid"
    assert [w.code for w in replayed.warnings] == ["variation-illegal-move"]


def test_international_numeric_record():
    replayed = replay_text("1. 32-28 19-23 2. 28x19 14x23 *", INTERNATIONAL)
    assert replayed.status == "valid" and replayed.plies == 4


def random_game(seed: int, plies: int) -> list:
    rng = random.Random(seed)
    board = Board(RUSSIAN)
    texts = []
    for _ in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        texts.append((full_text(board, move, "all"), board.copy()))
        board.push(move)
    return texts


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(2, 60), data=st.data())
def test_one_illegal_move_is_caught_exactly_there(seed, plies, data):
    game = random_game(seed, plies)
    if len(game) < 2:
        return
    spoiled = data.draw(st.integers(0, len(game) - 1))
    board = game[spoiled][1]
    legal = {full_text(board, m, "all") for m in board.legal_moves()}
    names = [board.name(sq) for sq in board.variant.geometry.playable]
    bad = data.draw(st.sampled_from([f"{a}-{b}" for a in names for b in names
                                     if a != b and f"{a}-{b}" not in legal
                                     and not any(t.startswith(f"{a}:") and t.endswith(f":{b}")
                                                 for t in legal)]))
    tokens = [text for text, _ in game]
    tokens[spoiled] = bad
    movetext, column = "", 0
    for index, token in enumerate(tokens):
        movetext += f"{index // 2 + 1}. " if index % 2 == 0 else ""
        if index == spoiled:
            column = len(movetext) + 1
        movetext += token + " "
    replayed = replay_text(movetext + "*")
    assert replayed.plies == spoiled
    (error,) = replayed.errors
    assert (error.token, error.line, error.column) == (bad, 1, column)


def test_a_move_to_an_occupied_square_is_refused_as_occupied_not_as_unreachable():
    short = replay_game(next(read_games('[GameType "25"]\n1. cd4 ba5 2. cd4 *')))
    assert short.errors[0].message.startswith("d4 is occupied (a white man stands there); "
                                              "legal moves: b2-c3")
    full = replay_game(next(read_games("1. 32-28 19-23 2. 33-28 *")))
    assert full.errors[0].message == "28 is occupied (a white man stands there); legal moves: 28x19"
