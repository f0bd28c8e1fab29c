"""Turkish draughts: promotion during a capture and the positions where the kish crate's
perft differs from ours (docs/turkish.md).

Squares are written a1..h8 from White's side; Black's men move down the board.
"""

import pytest

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.rules.variants import get_variant

TURKISH = get_variant("turkish")


def routes_of(board: Board) -> list[str]:
    """Every capture route, with every landing square."""
    return ["x".join(board.name(s) for s in (route.origin, *route.path))
            for route in board.capture_routes()]


# -- promotion during a capture ------------------------------------------------------------------

# Black man c3 takes c2 and lands on c1, Black's last row, with a white man on d1 beside it
# and a white man on h5. Worked by hand:
#   pass (default): still a man on c1, it must go on sideways over d1 to e1 -> c3xc1xe1, and is
#     crowned there (the move ends on the last row);
#   stop: crowned on c1 and the move ends -> c3xc1;
#   continue: a flying king on c1 takes d1 (landing e1..h1), then from h1 only up the h-file
#     over h5 (h6, h7, h8): three pieces beat two, so c3xc1xh1xh6/h7/h8.
# pydraughts 0.6.7 gives the same single move for this position: 19x5 by the steps 19, 3, 5.
PROMOTION_FEN = "B:Wc2,d1,h5:Bc3,a8"


def test_a_man_reaching_the_last_row_mid_capture_goes_on_as_a_man_by_default():
    board = Board.from_fen(PROMOTION_FEN, TURKISH)
    assert routes_of(board) == ["c3xc1xe1"]
    assert [move.promotes for move in board.legal_moves()] == [True]


@pytest.mark.parametrize(("reading", "routes"), [
    ("pass", {"c3xc1xe1"}),
    ("stop", {"c3xc1"}),
    ("continue", {"c3xc1xh1xh6", "c3xc1xh1xh7", "c3xc1xh1xh8"}),
])
def test_the_other_promotion_readings_stay_options(reading, routes):
    board = Board.from_fen(PROMOTION_FEN, TURKISH.with_rules({"promotion": reading}))
    assert set(routes_of(board)) == routes


def test_the_validator_accepts_the_capture_that_goes_on_as_a_man():
    text = ('[GameType "30"]\n[FEN "B:Wc2,d1,h5:Bc3,a8"]\n[Result "*"]\n\n'
            "1... c3xc1xe1 *\n")
    stopped = ('[GameType "30"]\n[FEN "B:Wc2,d1,h5:Bc3,a8"]\n[Result "*"]\n\n'
               "1... c3xc1 *\n")
    assert replay_game(next(read_games(text)), TURKISH).errors == []
    # Stopping on c1 leaves a capture unfinished under the default reading.
    assert [e.code for e in replay_game(next(read_games(stopped)), TURKISH).errors] == [
        "capture-incomplete"]


# -- the perft difference with the kish crate ----------------------------------------------------

# Every position at ply 6 (White to move) where kish 1.1.7 lists more moves than we do: a new
# white king on the fifth row takes two black men on that row in one straight run, and may land
# on any empty square between them. kish (and pydraughts) list one action per landing square in
# between; the pieces taken, the order they are taken in, the destination and the position
# after the move are the same, so it is one move (docs/turkish.md). Found by dividing both
# perfts down to these 20 positions; "kish" is the number of actions kish lists here (run
# locally), "ours" our number of moves. Checked by hand for h5 over g5 and c5: it lands on f5,
# e5 or d5 and then takes c5 landing on b5 or a5 -- 6 routes, 2 moves.
ROUTE_POSITIONS = [
    ("Ka5:Bb5,e5,c6,d6,f6,g6,h6", "a3", 3, 6),
    ("Ka5:Bb5,f5,c6,d6,e6,g6,h6", "a3", 2, 6),
    ("Ka5:Bb5,g5,c6,d6,e6,f6,h6", "a3", 1, 4),
    ("Ka5:Bc5,f5,b6,d6,e6,g6,h6", "a3", 2, 4),
    ("Ka5:Bc5,g5,b6,d6,e6,f6,h6", "a3", 1, 3),
    ("Ka5:Bd5,g5,b6,c6,e6,f6,h6", "a3", 1, 2),
    ("Kb5:Bd5,g5,a6,c6,e6,f6,h6", "b3", 1, 2),
    ("Kb5:Bc5,f5,a6,d6,e6,g6,h6", "b3", 2, 4),
    ("Kb5:Bc5,g5,a6,d6,e6,f6,h6", "b3", 1, 3),
    ("Kc5:Bd5,g5,a6,b6,e6,f6,h6", "c3", 1, 2),
    ("Kf5:Bb5,e5,a6,c6,d6,g6,h6", "f3", 1, 2),
    ("Kg5:Bb5,e5,a6,c6,d6,f6,h6", "g3", 1, 2),
    ("Kg5:Bb5,f5,a6,c6,d6,e6,h6", "g3", 1, 3),
    ("Kg5:Bc5,f5,a6,b6,d6,e6,h6", "g3", 2, 4),
    ("Kh5:Bb5,e5,a6,c6,d6,f6,g6", "h3", 1, 2),
    ("Kh5:Bb5,f5,a6,c6,d6,e6,g6", "h3", 1, 3),
    ("Kh5:Bb5,g5,a6,c6,d6,e6,f6", "h3", 1, 4),
    ("Kh5:Bc5,f5,a6,b6,d6,e6,g6", "h3", 2, 4),
    ("Kh5:Bc5,g5,a6,b6,d6,e6,f6", "h3", 2, 6),
    ("Kh5:Bd5,g5,a6,b6,c6,e6,f6", "h3", 3, 6),
]


def route_position(pieces: str, missing: str) -> str:
    """The ply-6 FEN: White's men on ranks 2 and 3 but ``missing`` (the man that was crowned),
    the king and black men of ``pieces``, and Black's seventh rank but the file of the man
    White took on its way to the last row."""
    king, black = pieces.split(":B")
    white = [f"{f}{r}" for r in (2, 3) for f in "abcdefgh" if f"{f}{r}" != missing]
    taken = missing[0]
    black_seventh = [f"{f}7" for f in "abcdefgh" if f != taken]
    return f"W:W{','.join(white)},{king}:B{black},{','.join(black_seventh)}"


@pytest.mark.parametrize(("pieces", "missing", "ours", "kish"), ROUTE_POSITIONS)
def test_a_straight_double_capture_is_one_move_whatever_square_is_landed_on_between(
        pieces, missing, ours, kish):
    board = Board.from_fen(route_position(pieces, missing), TURKISH)
    moves = board.legal_moves()
    routes = board.capture_routes()
    assert len(moves) == ours
    assert len(routes) == kish
    for route in routes:
        (move,) = [m for m in moves if m == route]
        # Same pieces in the same order: the routes differ only in the square between them,
        # so any of them, written in full, is read as that one move.
        assert route.captures == move.captures
        written = "x".join(board.name(s) for s in (route.origin, *route.path))
        assert board.parse(written) == move
