"""Perft against published tables, dropping and keeping duplicate captures (DCTL's perft
tests, Aart Bik's checkers figures; docs/rules.md, Counting positions).

Depths that run in about a second each are tests; deeper ones are in bench/perft.py.
"""

import pytest

from replay.record.board import Board
from replay.rules.movegen import generator_for
from replay.rules.perft import perft, perft_divide
from replay.rules.position import start_position
from replay.rules.variants import get_variant

# Reference counts per variant: DCTL's perft tests and Aart Bik's figures (docs/rules.md).
DROP = {
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "international": [9, 81, 658, 4265, 27117, 167140],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146, 929896],
    "czech": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "spanish": [7, 49, 302, 1469, 7361, 36473, 177532, 828783],
    "thai": [7, 49, 392, 3136, 26592, 218695, 1820189],
    "canadian": [11, 121, 1222, 10053, 79049],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783],
    "frisian": [9, 81, 658, 3874, 21265, 102431, 540126],
}
# Keep-duplicates values where they differ from drop (first at depth 8 on 8x8).
KEEP_DEPTH_8 = {"russian": 929905, "brazilian": 907836, "pool": 929902}
# Frisian duplicates start at depth 4 (docs/rules.md, Counting positions).
FRISIAN_KEEP = [9, 81, 658, 3880, 21345, 103584]
# Turkish (docs/turkish.md): 8, 64, 708, 7538, 85090, 931312, 10782308 under every promotion
# reading but 'continue' (931828 at depth 6). The kish crate (1.1.7, a Rust Turkish engine)
# publishes the same to depth 6 and 10782382 at depth 7: it lists a king's straight capture of
# two pieces once per landing square between them, 74 extra leaves in 20 positions; with its
# identical actions merged, kish itself counts 10782308 (run locally). Those positions are
# tests/rules/test_rules_turkish.py; depth 7 takes ~30 s here, so it is in docs/turkish.md only.
TURKISH = [8, 64, 708, 7538, 85090, 931312]


@pytest.mark.parametrize(("name", "counts"), DROP.items())
def test_perft_drop_duplicates_matches_rules_5(name, counts):
    variant = get_variant(name)
    generator, position = generator_for(variant), start_position(variant)
    assert [perft(generator, position, depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("name", "count"), KEEP_DEPTH_8.items())
def test_perft_keep_duplicates_depth_8_matches_rules_5(name, count):
    variant = get_variant(name)
    assert perft(generator_for(variant), start_position(variant), 8, keep_duplicates=True) == count


def test_frisian_keep_duplicates_rules_5_4():
    variant = get_variant("frisian")
    generator, position = generator_for(variant), start_position(variant)
    assert [perft(generator, position, d, keep_duplicates=True)
            for d in range(1, len(FRISIAN_KEEP) + 1)] == FRISIAN_KEEP


@pytest.mark.parametrize("promotion", ["pass", "stop"])
def test_turkish_matches_the_kish_crate_to_depth_6(promotion):
    variant = get_variant("turkish").with_rules({"promotion": promotion})
    generator, position = generator_for(variant), start_position(variant)
    assert [perft(generator, position, d) for d in range(1, 7)] == TURKISH


def test_perft_divide_splits_the_count_by_first_move():
    # kish 1.1.7 divided at depth 3 (run locally): 78 for the edge men, 92 for the others.
    variant = get_variant("turkish")
    board = Board(variant)
    counts = {board.move_text(move): nodes
              for move, nodes in perft_divide(board.generator, board.position, 3)}
    assert counts == {"a3-a4": 78, "b3-b4": 92, "c3-c4": 92, "d3-d4": 92, "e3-e4": 92,
                      "f3-f4": 92, "g3-g4": 92, "h3-h4": 78}


def test_international_dctl_position_rules_5_2():
    fen = "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"
    board = Board.from_fen(fen, get_variant("international"))
    counts = [perft(board.generator, board.position, d) for d in range(1, 5)]
    assert counts == [14, 55, 1168, 5432]


def test_woldouby_position_rules_5_2():
    fen = "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"
    board = Board.from_fen(fen, get_variant("international"))
    counts = [perft(board.generator, board.position, d) for d in range(1, 9)]
    assert counts == [6, 12, 30, 73, 215, 590, 1944, 6269]
