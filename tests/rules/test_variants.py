"""Every variant: the rule that sets each apart, pinned by a small position
(docs/rules.md: Thai checkers, The other variants), the named rule options, the draw rules
per variant, the ``pdn moves --json`` interface for each variant, and the real archives
(tests/fixtures).

Squares in the positions are alphanumeric (a1 = White's lower-left corner), which every
variant's FEN accepts; ``moves_of`` names moves the same way so that one position reads alike
on every board.
"""

import json
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.rules.draws import DrawTracker
from replay.rules.movegen import BLACK, WHITE
from replay.rules.position import start_position
from replay.rules.variants import (
    KING_VALUE_ONE_AND_A_HALF,
    UnknownRuleError,
    Variant,
    get_variant,
    variant_names,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def variant(name: str, **rules: str) -> Variant:
    return get_variant(name).with_rules({k.replace("_", "-"): v for k, v in rules.items()})


def moves_of(fen: str, rules: Variant) -> set[str]:
    """Every legal move, each route written with all its landing squares (a1 notation)."""
    board = Board.from_fen(fen, rules)
    name = rules.geometry.name
    routes = board.capture_routes()
    written = set()
    for move in board.legal_moves():
        for route in [r for r in routes if r == move] or [move]:
            separator = ":" if route.captures else "-"
            written.add(separator.join(name(s) for s in (route.origin, *route.path)))
    return written


# -- Thai (docs/rules.md, Thai checkers) ------------------------------------------------------

def test_thai_king_lands_right_behind_its_prey_rules_2():
    assert moves_of("W:WKa1:Bc3,h8", variant("thai")) == {"a1:d4"}


def test_thai_pieces_leave_at_once_so_the_king_takes_three_rules_1_6_t4():
    # With immediate removal d2 no longer blocks e1-a5: a1:c3:e1:a5 takes 3 (Russian: 2).
    assert moves_of("W:WKa1:Bb2,b4,d2", variant("thai")) == {"a1:c3:e1:a5", "a1:c3:a5:e1"}
    assert moves_of("W:WKa1:Bb2,b4,d2", variant("russian")) == {"a1:c3:a5", "a1:c3:e1"}


def test_thai_no_180_degree_turn_option_rules_2():
    thai = variant("thai", king_turns_back="no")
    assert moves_of("W:WKa1:Bb2,b4,d2", thai) == {"a1:c3:a5", "a1:c3:e1"}


def test_thai_men_capture_forward_only_rules_2():
    assert moves_of("W:Wd4:Bc3,h8", variant("thai")) == {"d4-c5", "d4-e5"}


def test_thai_dark_side_moves_first_and_white_first_is_an_option_rules_2():
    assert start_position(variant("thai")).turn == BLACK
    assert start_position(variant("thai", first="white")).turn == WHITE
    assert variant("thai", first="white").white_starts


# -- Italian (docs/rules.md) ------------------------------------------------------------------
# The Italian board is mirrored: a1 is light, so these positions use squares with odd
# rank + file (d3, e4, h3, ...) and a8 as a spare black man.

def test_italian_men_cannot_capture_kings_rules_3():
    assert moves_of("W:Wd3:BKe4,g8", variant("italian")) == {"d3-c4"}
    assert moves_of("W:Wd3:BKe4,g8", variant("spanish")) == {"d3:f5"}


def test_italian_kings_move_one_step_rules_3():
    assert moves_of("W:WKd3:Ba8", variant("italian")) == {"d3-c2", "d3-e2", "d3-c4", "d3-e4"}


def test_italian_precedence_1_most_pieces_rules_3():
    assert moves_of("W:Wd3,Kf1:Be4,e6,g2,a8", variant("italian")) == {"d3:f5:d7"}


def test_italian_precedence_2_with_a_king_rather_than_a_man_rules_3():
    assert moves_of("W:Wd3,Kh3:Be4,g4,a8", variant("italian")) == {"h3:f5"}


def test_italian_precedence_3_most_kings_rules_3():
    assert moves_of("W:WKd3:Be4,Kc4,a8", variant("italian")) == {"d3:b5"}


def test_italian_precedence_4_kings_met_earliest_rules_3():
    # Both take a man and a king; d3:b5:d7 meets the king (c4) first, d3:f5:h7 last.
    assert moves_of("W:WKd3:Be4,Kg6,Kc4,c6,a8", variant("italian")) == {"d3:b5:d7"}


# -- Spanish, Czech, English, Turkish (docs/rules.md) -----------------------------------------

def test_spanish_majority_then_most_kings_rules_3():
    assert moves_of("W:Wd3,Kh3:Be4,Kg4,a8", variant("spanish")) == {
        "h3:f5", "h3:e6", "h3:d7", "h3:c8"}
    assert moves_of("W:Wd3,Kh3:Be4,g4,a8", variant("spanish")) == {
        "d3:f5", "h3:f5", "h3:e6", "h3:d7", "h3:c8"}


def test_czech_a_king_must_capture_if_it_can_rules_3():
    fen = "W:Wc1,Kh6:Bd2,f4,g7"
    assert moves_of(fen, variant("czech")) == {"h6:f8", "h6:e3"}
    assert moves_of(fen, variant("russian")) == {"c1:e3:g5", "h6:f8", "h6:e3"}


def test_czech_capture_the_most_reading_of_document_000_rules_3():
    assert moves_of("W:Wc1,Kh6:Bd2,f4,g7", variant("czech", precedence="majority")) == {
        "c1:e3:g5"}


def test_english_men_do_not_capture_backward_rules_3():
    assert moves_of("W:Wd4:Bc3,h8", variant("english")) == {"d4-c5", "d4-e5"}


def test_english_crowning_ends_the_move_rules_3():
    board = Board.from_fen("W:Wb6:Bc7,e7", variant("english"))
    (move,) = board.legal_moves()
    assert board.move_text(move, full_path=True) == "9x2" and move.promotes
    assert moves_of("W:Wb6:Bc7,e7", variant("russian")) == {"b6:d8:f6", "b6:d8:g5", "b6:d8:h4"}


def test_english_kings_move_one_step_rules_3():
    assert moves_of("W:WKd4:Bh8", variant("english")) == {"d4-c3", "d4-e3", "d4-c5", "d4-e5"}


def test_turkish_men_move_forward_and_sideways_rules_3():
    assert moves_of("W:Wd4:Be8", variant("turkish")) == {"d4-c4", "d4-d5", "d4-e4"}


def test_turkish_no_180_degree_turn_between_jumps_rules_3():
    assert moves_of("W:WKd4:Bd6,d2", variant("turkish")) == {"d4:d1", "d4:d7", "d4:d8"}
    assert moves_of("W:WKd4:Bd6,d2", variant("turkish", king_turns_back="yes")) == {
        "d4:d1:d7", "d4:d1:d8", "d4:d7:d1", "d4:d8:d1"}


@pytest.mark.parametrize("reading", ["stop", "pass", "continue"])
def test_turkish_promotion_readings_are_options_rules_6_5(reading):
    # A man capturing onto the last row with a sideways capture waiting there: 'stop' ends
    # the move on d8, 'pass' goes on as a man (crowned where it ends, still the last row),
    # 'continue' goes on as a flying king. Every reading crowns the man.
    board = Board.from_fen("W:Wd6:Bd7,e8,g8", variant("turkish", promotion=reading))
    moves = board.legal_moves()
    assert {board.name(m.destination) for m in moves} == {
        "stop": {"d8"}, "pass": {"h8"}, "continue": {"h8"}}[reading]
    assert [m.promotes for m in moves] == [True]


# -- Frisian (docs/rules.md) ------------------------------------------------------------------

def test_frisian_men_capture_orthogonally_rules_3():
    assert moves_of("W:We5:Be7,a9", variant("frisian")) == {"e5:e9"}


def test_frisian_king_captures_orthogonally_at_any_distance_rules_3():
    assert moves_of("W:WKa1:Ba5,j10", variant("frisian")) == {"a1:a7", "a1:a9"}


def test_frisian_kings_move_diagonally_only_rules_3():
    # By hand: the long diagonal from a1 up to the black man on j10; nothing along a file.
    assert moves_of("W:WKa1:Bj10", variant("frisian")) == {
        f"a1-{square}" for square in ("b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9")}


def test_frisian_on_equal_value_a_king_must_capture_rules_3():
    assert moves_of("W:We5,Ka1:Be7,c3,j10", variant("frisian")) == {"a1:d4"}


def test_frisian_a_king_is_worth_more_than_a_man_rules_3():
    assert moves_of("W:We5:Be7,Kc5,j10", variant("frisian")) == {"e5:a5"}


def test_frisian_two_men_are_worth_more_than_a_king_rules_3():
    fen = "W:We5,Ka1:Be7,g9,Kc3,j10"
    assert moves_of(fen, variant("frisian")) == {"e5:e9:i9"}
    assert moves_of(fen, variant("frisian", king_value="1.5")) == {"e5:e9:i9"}


def test_frisian_king_value_option_rules_6_6():
    assert variant("frisian", king_value="1.5").king_value == KING_VALUE_ONE_AND_A_HALF


def _king_moves(board: Board) -> set[str]:
    return {board.move_text(m) for m in board.legal_moves()
            if (board.position.kings >> m.origin) & 1}


def test_frisian_same_king_at_most_three_quiet_moves_in_a_row_rules_3():
    board = Board.from_fen("W:WKa1,f2:BKb10", variant("frisian"))
    for white, black in (("a1-b2", "b10-a9"), ("b2-a1", "a9-b10"), ("a1-b2", "b10-a9")):
        board.push(board.parse(white))
        board.push(board.parse(black))
    assert _king_moves(board) == set()  # the king on b2 is held; the man may move
    assert board.legal_moves()
    board.push(board.parse("f2-e3"))  # a man move frees the king again
    board.push(board.parse("a9-b10"))
    assert _king_moves(board)


def test_frisian_king_limit_applies_only_while_the_side_has_men_rules_3():
    board = Board.from_fen("W:WKa1:BKb10", variant("frisian"))
    for white, black in (("a1-b2", "b10-a9"), ("b2-a1", "a9-b10"), ("a1-b2", "b10-a9")):
        board.push(board.parse(white))
        board.push(board.parse(black))
    assert _king_moves(board)


# -- no forced capture, a game site's house rule ----------------------------------------------

@pytest.mark.parametrize("name", ["russian", "english", "brazilian", "czech", "thai"])
def test_no_forced_capture_house_rule_of_document_002(name):
    forced = moves_of("W:Wc3,g3:Bd4,h8", variant(name))
    free = moves_of("W:Wc3,g3:Bd4,h8", variant(name, forced_capture="no"))
    assert forced == {"c3:e5"}
    assert free == {"c3:e5", "c3-b4", "g3-f4", "g3-h4"}


def test_unknown_rule_or_value_is_refused():
    with pytest.raises(UnknownRuleError):
        get_variant("thai").with_rules({"first": "green"})
    with pytest.raises(UnknownRuleError):
        get_variant("thai").with_rules({"flying-men": "yes"})


# -- draw rules (replay/rules/draws.py) -------------------------------------------------------

def _shuffle_kings(rules: Variant, fen: str, shuffles: list[tuple[str, str]], plies: int
                   ) -> list[tuple[str, int]]:
    board = Board.from_fen(fen, rules)
    tracker = DrawTracker(rules, board.position)
    for ply in range(plies):
        move = board.parse(shuffles[(ply // 2) % len(shuffles)][board.turn])
        before = board.position
        board.push(move)
        tracker.push(before, move, board.position)
    return [(claim.rule, claim.ply) for claim in tracker.claims]


def test_english_40_moves_of_kings_only_is_a_draw_rules_3():
    claims = _shuffle_kings(variant("english"), "W:WK32,K29:BK1,K4",
                            [("32-27", "1-6"), ("27-32", "6-1")], 80)
    assert ("kings-40", 80) in claims and ("repetition", 8) in claims


def test_frisian_25_moves_of_kings_only_is_a_draw_document_000():
    claims = _shuffle_kings(variant("frisian"), "W:WKa1:BKb10",
                            [("a1-b2", "b10-a9"), ("b2-a1", "a9-b10")], 50)
    assert ("kings-25", 50) in claims


def test_repetition_ignores_frisian_king_streaks():
    claims = _shuffle_kings(variant("frisian"), "W:WKa1:BKb10",
                            [("a1-b2", "b10-a9"), ("b2-a1", "a9-b10")], 8)
    assert ("repetition", 8) in claims


def test_house_draw_rule_40_moves_without_capture_or_promotion_document_002():
    claims = _shuffle_kings(variant("russian", draws="house"), "W:WKa1:BKh2",
                            [("a1-b2", "h2-g1"), ("b2-a1", "g1-h2")], 80)
    assert ("house-40", 80) in claims


# -- the command line, every variant ----------------------------------------------------------

runner = CliRunner()


@pytest.mark.parametrize("name", variant_names())
def test_pdn_moves_json_for_every_variant(name):
    result = runner.invoke(app, ["moves", "--variant", name, "--json"])
    assert result.exit_code == 0, result.output
    line = json.loads(result.stdout)
    assert line["moves"] and set(line["moves"][0]) == {"from", "to", "path", "captures",
                                                       "promotes"}
    assert len(line["moves"]) == len(Board(get_variant(name)).legal_moves())


def test_pdn_moves_no_forced_capture_option():
    result = runner.invoke(app, ["moves", "W:Wc3,g3:Bd4,h8", "--json", "--no-forced-capture"])
    assert len(json.loads(result.stdout)["moves"]) == 4


@pytest.mark.parametrize(("rules", "turn", "origins"), [
    ([], "B", {"5", "6", "7", "8"}), (["--rule", "first=white"], "W", {"25", "26", "27", "28"})])
def test_pdn_moves_rule_option_thai_white_first(rules, turn, origins):
    # Perft cannot tell who starts (the set-up is symmetric: 7, 49, … either way): the first
    # moves can. Thai numbering (PDN 3.0 code N2): Black's men on 1-8, White's on 25-32,
    # the front rows 5-8 and 25-28.
    result = runner.invoke(app, ["moves", "-v", "thai", "--json", *rules])
    listed = json.loads(result.stdout)
    assert listed["fen"].startswith(f"{turn}:")
    assert {move["from"] for move in listed["moves"]} == origins


def test_pdn_perft_bad_rule_is_a_usage_error():
    result = runner.invoke(app, ["perft", "--rule", "first"])
    assert result.exit_code == 2 and "NAME=VALUE" in result.stderr


# -- the real archives (verdicts in tests/fixtures) -------------------------------------------

def test_archives_replay_as_recorded_in_the_verdicts_fixture(shared_data, archive):
    verdicts = json.loads((FIXTURES / "archive_verdicts.json").read_text(encoding="utf-8"))
    for entry in verdicts["files"]:
        root = shared_data / entry["path"]
        paths = [root] if root.is_file() else sorted(root.rglob("*.pdn"))
        default = get_variant(entry["variant"])
        failures, loose, replayed = set(), set(), 0
        for path in paths:
            for game in archive(path):
                if (game.index - 1) % entry["every"]:
                    continue
                replayed += 1
                result = replay_game(game, default)
                where = path.relative_to(root).as_posix() if root.is_dir() else None
                if result.errors:
                    failures.add((where, game.index, result.errors[0].code))
                loose.update((where, game.index, "notation") for warning in result.warnings
                             if "leaves out turning squares" in warning.message)
        expected = {(f.get("file"), f["game"], f["code"]) for f in entry["failures"]}
        assert failures == expected, entry["path"]
        assert loose == {(f.get("file"), f["game"], f["code"])
                         for f in entry.get("warnings", [])}, entry["path"]
        if entry["every"] == 1:
            assert replayed == entry["games"]
            assert replayed - len(failures) == entry["replay_fully"]
