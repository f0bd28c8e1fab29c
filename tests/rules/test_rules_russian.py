"""Russian draughts rules (docs/rules.md), each pinned by a position.

Positions T1-T4 are worked out by hand and confirmed with an independent move generator; the
others are the worked capture examples of a Russian rules article that can be set up from its moves.
"""

import pytest

from replay.record.board import Board
from replay.rules.variants import BRAZILIAN, INTERNATIONAL, RUSSIAN


def moves_of(fen: str, variant=RUSSIAN) -> set[str]:
    board = Board.from_fen(fen, variant)
    routes = board.capture_routes()
    names = set()
    for move in board.legal_moves():
        # Every route of the move, written with all landing squares.
        for route in routes or [move]:
            if route == move:
                names.add(":".join(board.name(s) for s in (route.origin, *route.path))
                          if route.captures else board.move_text(route))
    return names


def test_t1_promotion_mid_capture_continues_as_king():
    board = Board.from_fen("W:Wd6:Be7,g7")
    (move,) = board.legal_moves()
    assert board.move_text(move, full_path=True) == "d6:f8:h6"
    assert move.promotes
    board.push(move)
    assert board.piece_at(board.variant.geometry.square("h6")) == "W"


@pytest.mark.parametrize("variant", [BRAZILIAN])
def test_t1_contrast_brazilian_stays_a_man(variant):
    board = Board.from_fen("W:Wd6:Be7,g7", variant)
    (move,) = board.legal_moves()
    assert board.move_text(move, full_path=True) == "d6xf8xh6"
    assert not move.promotes


def test_t2_king_must_land_where_the_capture_continues():
    assert moves_of("W:WKa1:Bc3,f4") == {"a1:e5:g3", "a1:e5:h2"}


def test_t3_free_choice_and_the_chosen_capture_is_completed():
    assert moves_of("W:Wc3:Bb4,d4,d6") == {"c3:a5", "c3:e5:c7"}


def test_t3_contrast_brazilian_majority():
    assert moves_of("W:Wc3:Bb4,d4,d6", BRAZILIAN) == {"c3:e5:c7"}


def test_t4_turkish_strike_captured_pieces_block_until_the_move_ends():
    assert moves_of("W:WKa1:Bb2,b4,d2") == {"a1:c3:a5", "a1:c3:e1"}


def test_king_capturing_one_piece_may_stop_on_any_square_behind_it_seeds_000():
    # The article: "g1:d4 or g1:c5 or g1:b6" (a7 occupied, nothing to capture further).
    assert moves_of("W:WKg1:Be3,a7") == {"g1:d4", "g1:c5", "g1:b6"}


def test_man_crowned_by_a_quiet_move_ends_its_move_seeds_000():
    board = Board.from_fen("W:We7:Bd6,c5")
    move = board.parse("e7-f8")
    assert move.promotes and not move.captures
    board.push(move)
    assert board.turn == 1  # Black to move: the new king does not capture d6 now
    assert board.piece_at(board.variant.geometry.square("f8")) == "W"


def test_man_crowned_during_capture_continues_h4_d8_a5_c3_a1_seeds_000():
    # The article: after 1.g3-f4 e3:g5 White plays 2.h4:d8:a5:c3:a1 (a man that becomes a king
    # on d8 and goes on capturing as a king).
    board = Board.from_fen("W:Wh4:Bg5,e7,c7,b4,b2")
    (move,) = board.legal_moves()
    assert board.move_text(move, full_path=True) == "h4:f6:d8:a5:c3:a1"
    assert len(move.captures) == 5 and move.promotes


def test_black_man_crowned_mid_capture_two_routes_are_one_move_seeds_000():
    # The article: a5:c3:e1:g3:e5:c3 (or a5:c3:e5:g3:e1:c3) stops on c3.
    board = Board.from_fen("B:Wa1,b2,b4,d2,d4,f2,f4:Ba5")  # a1 taken: b2 survives
    (move,) = board.legal_moves()
    assert board.name(move.destination) == "c3" and move.promotes
    routes = {":".join(board.name(s) for s in (r.origin, *r.path)) for r in board.capture_routes()}
    assert routes == {"a5:c3:e1:g3:e5:c3", "a5:c3:e5:g3:e1:c3"}


def test_men_move_forward_only_and_capture_backward():
    assert moves_of("W:Wd4:Bh8") == {"d4-c5", "d4-e5"}
    assert moves_of("W:Wd4:Bc3") == {"d4:b2"}


def test_capture_is_compulsory():
    assert moves_of("W:Wa3,g3:Bb4") == {"a3:c5"}


def test_own_pieces_are_never_jumped():
    assert moves_of("W:WKa1,c3:Bh8") == {"a1-b2", "c3-b4", "c3-d4"}


def test_king_flies_along_free_diagonals():
    assert moves_of("W:WKd4:Bh8,a7") >= {"d4-a1", "d4-g7", "d4-h8"} - {"d4-h8"}
    assert "d4-h8" not in moves_of("W:WKd4:Bh8,a7")


def test_no_legal_move_when_blocked():
    board = Board.from_fen("W:Wa1:Bb2,c3")
    assert board.legal_moves() == []


def test_push_pop_and_position_key():
    board = Board()
    start = board.key()
    for text in ("c3-d4", "f6-g5", "g3-h4"):
        board.push(board.parse(text))
    assert board.key() != start
    for _ in range(3):
        board.pop()
    assert board.key() == start


def test_international_uses_the_same_engine_with_majority():
    board = Board.from_fen("W:W28:B22,23,12", INTERNATIONAL)
    assert {board.move_text(m, full_path=True) for m in board.legal_moves()} == {"28x17x8"}


def test_capture_search_leaves_no_reference_cycles():
    """Every capture search built two nested functions that held each other; a batch of
    games left tens of thousands of cycles for the garbage collector (a fifth of the time
    of the statistics). T1's man crowned mid-capture runs both searches."""
    import gc

    board = Board.from_fen("W:Wd6:Be7,g7", RUSSIAN)
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert board.capture_routes() and board.legal_moves()
        gc.collect()
        # only the rules core's own objects count: a thread another test left running (an
        # engine's reader, a cluster's event loop) may make garbage of its own meanwhile
        ours = [item for item in gc.garbage
                if str(getattr(item, "__module__", "")).startswith(("replay", "pdn"))
                or type(item).__module__.startswith(("replay", "pdn"))]
        assert ours == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
