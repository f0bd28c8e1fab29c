"""Records written by other programs, read without being told their variant.

The files in ``fixtures/other_programs`` are our own random legal games written the way other
programs write them (``generate.py`` there says how each was made): English checkers engine
matches, a hand-typed scoresheet and an old program's set-up game (no GameType tag), a 10x10
export without GameType, and an online site's American/English exports (squares named from
the first mover's side, players as P1 and P2, multi-jumps split into one ply per jump).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.convert.games import Target, convert_game
from replay.record.inference import ENGLISH_FIRST_MOVER_BOTTOM
from replay.record.replayer import replay_game
from replay.rules.variants import get_variant
from replay.validate.reports import report_games

FILES = Path(__file__).resolve().parents[2] / "fixtures" / "other_programs"
runner = CliRunner()


def validate_json(*arguments: str) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["validate", "--json", *arguments])
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize(("name", "variant", "games"), [
    ("english_engine_match.pdn", "english", 3),
    ("english_scoresheet.txt", "english", 1),
    ("english_old_program.pdn", "english", 1),
    ("international_dos.pdn", "international", 1),
    ("english_site.pdn", "english", 2),
])
def test_each_kind_validates_as_its_own_variant_without_being_told(name, variant, games):
    code, reports = validate_json(str(FILES / name))
    assert code == 0
    assert len(reports) == games
    for report in reports:
        assert (report["status"], report["variant"], report["variant_source"]) == (
            "valid", variant, "inferred"), report["errors"]
        assert report["result_check"] != "inconsistent"
        assert report["notes"][0]["code"] == "variant-inferred"


def test_read_as_russian_they_fail_as_users_met_them():
    """What the inference saves a user from: told Russian, the English files stop at once."""
    code, reports = validate_json(str(FILES / "english_engine_match.pdn"), "--variant", "russian")
    assert code == 1
    assert {report["errors"][0]["code"] for report in reports} == {"wrong-side"}
    assert {report["variant_source"] for report in reports} == {"option"}


def test_the_evidence_is_said_in_words():
    game = next(read_games(FILES / "international_dos.pdn"))
    note = replay_game(game).notes[0]
    assert note.code == "variant-inferred"
    assert note.message.startswith("numeric squares up to ")
    assert note.message.endswith(": international")


def test_a_fen_with_leading_zeros_and_a_trailing_dot_tells_an_english_board():
    game = next(read_games(FILES / "english_old_program.pdn"))
    assert game.tags["FEN"].endswith(".") and ":B01," in game.tags["FEN"]
    replayed = replay_game(game)
    assert (replayed.status, replayed.variant.name) == ("valid", "english")
    assert replayed.notes[0].message.startswith("FEN set-up with numeric squares up to 32")


def test_a_gametype_tag_or_the_option_decides_before_any_inference():
    tagged = next(read_games('[GameType "25"]\n1. c3-d4 f6-g5 *'))
    assert (replay_game(tagged).variant_source, replay_game(tagged).notes) == ("tag", [])
    untagged = next(read_games("1. 11-15 23-19 *"))
    told = replay_game(untagged, get_variant("russian"))
    assert (told.variant.name, told.variant_source, told.status) == ("russian", "option",
                                                                      "invalid")


def test_a_variant_tag_names_the_game():
    # Both moves are as legal in Russian: only the tag says Brazilian.
    game = next(read_games('[Variant "Brazilian"]\n1. c3-d4 f6-g5 *'))
    replayed = replay_game(game)
    assert (replayed.variant.name, replayed.variant_source) == ("brazilian", "inferred")
    assert "Variant tag 'Brazilian'" in replayed.notes[0].message


def test_a_record_that_fits_the_usual_variant_badly_is_tried_on_the_others():
    # In English checkers 32 holds a White man and Black moves first; on 50 squares 32-28 is
    # one of White's first moves.
    game = next(read_games("1. 32-28 19-23 2. 28x19 14x23 *"))
    replayed = replay_game(game)
    assert (replayed.variant.name, replayed.status) == ("international", "valid")
    assert "it does not replay as english" in replayed.notes[0].message


# ---- results: which side 1-0 favours, told by the file ---------------------------------------

def _decided_games(text: str) -> list[dict]:
    return [report.as_dict() for report in report_games(read_games(text))]


def test_results_by_colour_are_consistent_when_the_file_tells_that_reading():
    reports = _decided_games((FILES / "english_engine_match.pdn").read_text())
    assert [r["result_check"] for r in reports] == ["consistent"] * 3
    assert all("side named" not in r["result_note"] for r in reports)


def test_results_for_the_first_mover_are_consistent_too_when_the_file_reads_so():
    text = (FILES / "english_engine_match.pdn").read_text()
    flipped = text.replace('"1-0"', '"x"').replace('"0-1"', '"1-0"').replace('"x"', '"0-1"')
    flipped = flipped.replace(" 1-0\n", " x\n").replace(" 0-1\n", " 1-0\n").replace(" x\n",
                                                                                   " 0-1\n")
    assert [r["result_check"] for r in _decided_games(flipped)] == ["consistent"] * 3


def test_a_file_that_does_not_tell_leaves_results_undetermined_never_inconsistent():
    games = (FILES / "english_engine_match.pdn").read_text().split("\n\n[Event")
    first, second = games[0], "[Event" + games[1]
    # The second game's result turned round: one game of each reading, the file cannot tell.
    turned = second.replace('"1-0"', '"x"').replace('"0-1"', '"1-0"').replace('"x"', '"0-1"')
    reports = _decided_games(first + "\n\n" + turned.rsplit(" ", 1)[0] + " *\n")
    assert [r["result_check"] for r in reports] == ["undetermined", "undetermined"]
    assert "do not tell" in reports[0]["result_note"]


def test_one_game_against_the_file_reading_is_inconsistent():
    text = (FILES / "english_engine_match.pdn").read_text()
    head, rest = text.split('[Result "', 1)
    token = rest[:3]
    other = "0-1" if token == "1-0" else "1-0"
    reports = _decided_games(head + '[Result "' + other + rest[3:])
    assert [r["result_check"] for r in reports] == ["inconsistent", "consistent", "consistent"]


# ---- an online site's American/English exports -------------------------------------------------

def test_site_exports_are_english_with_the_first_mover_called_white():
    for game in read_games(FILES / "english_site.pdn"):
        replayed = replay_game(game)
        assert replayed.variant is ENGLISH_FIRST_MOVER_BOTTOM
        assert replayed.status == "valid", replayed.errors
        assert "first-mover-bottom" in [note.code for note in replayed.notes]


def test_split_captures_are_joined_with_a_warning():
    game = next(read_games(FILES / "english_site.pdn"))
    replayed = replay_game(game)
    splits = [w for w in replayed.warnings if w.code == "capture-split"]
    assert splits, "the first site game has multi-jumps"
    # Every joined ply is one the record wrote as two or more.
    assert len(replayed.game.moves.plies) < len(game.moves.plies)
    assert len(replayed.moves) == len(replayed.game.moves.plies)
    assert "8. a1xc3 f6xd4 9. d4xb2" in (FILES / "english_site.pdn").read_text()
    assert any("(f6xd4 d4xb2), read as" in w.message for w in splits)


def test_a_capture_that_stops_early_and_is_not_continued_is_still_an_error():
    # Russian: c3:e5 must go on over d6 to c7; Black's d6-c5 does not continue it.
    game = next(read_games('[GameType "25"]\n[FEN "W:Wc3:Bd4,d6"]\n1. c3:e5 d6-c5 *'))
    replayed = replay_game(game)
    assert [e.code for e in replayed.errors] == ["capture-incomplete"]
    assert not [w for w in replayed.warnings if w.code == "capture-split"]


def test_site_exports_are_written_back_in_english_checkers_standard_form():
    original = next(read_games(FILES / "english_site.pdn"))
    conversion = convert_game(original, target=Target("pdn"))
    written = conversion.game
    assert written is not None
    assert written.tags["GameType"] == "21,B,8,8,N1,0"
    assert (written.tags["Black"], written.tags["White"]) == ("alice", "bob")
    assert "P1" not in written.tags
    again = replay_game(written)
    assert again.variant.name == "english" and again.variant_source == "tag"
    assert again.final == replay_game(original).final
    assert again.status == "valid" and not again.warnings


def test_stats_read_each_file_results_its_own_way():
    from replay.stats import stats_tables

    games = stats_tables([str(FILES / "english_engine_match.pdn")], None, jobs=1).games
    assert list(games["variant_source"]) == ["inferred"] * 3
    assert list(games["result_check"]) == ["consistent"] * 3
    # The file writes results by colour (its decided games say so): 1-0 is a White win.
    by_colour = {"1-0": "white", "0-1": "black"}
    assert list(games["result"]) == [by_colour[token] for token in games["Result"]]


def test_lidraughts_scores_on_an_8x8_board_read_as_results():
    # Russian: after e5-d4 White's only man (a1) is blocked by b2 and c3, so Black won;
    # lidraughts writes it 0-2.
    text = '[GameType "25"]\n[Result "0-2"]\n[FEN "B:Wa1:Bb2,c3,e5"]\n1... e5-d4 0-2'
    replayed = replay_game(next(read_games(text)))
    assert (replayed.result, replayed.result_check) == ("black", "consistent")
