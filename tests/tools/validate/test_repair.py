"""Repair suggestions and sure repairs (``replay.validate.repair``; ``pdn validate --suggest``,
``pdn clean --repair``, ``pdn convert --repair``).

The small records are slips made by hand of the line 1.ed4 dc5 2.fe3 fg5 3.cb4 gh4 4.b:d6 h:f2
5.e:g3 c:h4, the short-notation example of the Russian notation texts (a legal line: 4.b4:d6
takes c5, 4...h4:f2 takes g3); the expected repair is always that original line. The real
games get slips from ``tests/support/slips.py`` and must come back as the game that was read.
"""

import json
import random

import pytest
from pdn.cli.app import app
from support.slips import KINDS, archive_games, make_slip
from typer.testing import CliRunner

from pdn.reader import read_games
from pdn.writer import write_game
from replay.record.board import Board
from replay.record.replayer import INVALID, VALID, replay_game
from replay.rules.variants import INTERNATIONAL, RUSSIAN
from replay.validate.repair import Repair, repair_game, suggest, sure_repair
from replay.validate.report import html_report
from replay.validate.reports import report_game

runner = CliRunner()
LINE = "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4"
ORIGINAL = tuple(replay_game(next(read_games(LINE + " 0-1")), RUSSIAN).moves)
MISSING = "1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1"
MENDED = "Black's 3rd move was missing: 3... gh4 is put in."  # the repair of MISSING


def game_of(text):
    return next(read_games(text))


def test_the_original_line_replays():
    assert len(ORIGINAL) == 10


def test_a_missing_move_is_named_in_a_players_words():
    (best, *others) = suggest(game_of(MISSING), RUSSIAN)
    assert best.description == ("Black's 3rd move is missing: putting in 3... gh4 makes the "
                                "record replay to its end.")
    assert best.moves == ORIGINAL and not others
    assert best.as_dict() | {"fen": ""} == {
        "edit": "insert", "move_number": 3, "side": "Black", "text": "3... gh4",
        "description": best.description, "replays_to_end": True, "fen": "",
        "line": 1, "column": 33}


@pytest.mark.parametrize(("record", "kind", "words"), [
    ("1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1", "delete",
     "White's 4th move is one too many: taking out 'gh4' makes"),
    ("1. ed4 dc5 2. fe3 fg5 3. gh4 cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1", "swap",
     "White's 3rd move and Black's 3rd move are in the wrong order: exchanging 'gh4' and 'cb4'"),
    ("1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. d:g3 c:h4 0-1", "replace",
     "White's 5th move is a slip: writing 5. e:g3 for 'd:g3'"),  # the wrong file of a short move
    # h4 takes g3, e1 is White's
    ("1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:e1 5. e:g3 c:h4 0-1", "landing",
     "Black's 4th move must land on f2: writing 4... h:f2 for 'h:e1'"),
    # cb4 written three plies late, in Black's column of the next move
    ("1. ed4 dc5 2. fe3 fg5 3. gh4 b:d6 4. h:f2 cb4 5. e:g3 c:h4 0-1", "move",
     "White's 3rd move is written as Black's 4th move: moving 'cb4' to its place"),
])
def test_each_kind_of_slip_is_found_and_mended_to_the_original(record, kind, words):
    game = game_of(record)
    best = sure_repair(suggest(game, RUSSIAN))
    assert best is not None and best.moves == ORIGINAL
    assert best.as_dict()["edit"] == kind and best.description.startswith(words)
    assert repair_game(game, RUSSIAN).mend is not None
    assert tuple(replay_game(game, RUSSIAN).moves) == ORIGINAL


def test_a_slip_in_the_last_move_is_suggested_but_not_sure():
    # h5 is no playing square: 5...c:h4 mends it, but so does taking the move out (the
    # record then ends after 5.e:g3), and the result 0-1 decides neither
    game = game_of("1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h5 0-1")
    first, second = suggest(game, RUSSIAN)[:2]
    assert first.description.startswith("Black's 5th move is a slip: writing 5... c:h4 for 'c:h5'")
    assert first.moves == ORIGINAL
    assert second.as_dict()["edit"] == "delete"
    assert sure_repair([first, second]) is None


END = "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 "  # LINE but its last move
WORLD_CHAMPIONSHIP_1998 = "games-checkers/russian/World_Championship_1998.pdn"


@pytest.fixture(scope="module")
def swapped_and_lost(shared_data, archive) -> str:
    """Game 2 of the World Championship 1998 archive up to its 11th move, with 10. hg3 ed6
    11. gf4 written 10. gf4 hg3 (the first two exchanged, ed6 lost). gf4 needs the man hg3
    brings to g3, so the record fails at 10. gf4; taking it out lets hg3 replay, as White's
    move, and the game ends a ply shorter than written (two plies shorter than it was
    played). Read from the archive, not copied."""
    plies = [ply.record.text for ply in archive(shared_data / WORLD_CHAMPIONSHIP_1998)[1]
             .moves.plies[:21]]
    assert plies[18:] == ["hg3", "ed6", "gf4"]
    written = [*plies[:18], "gf4", "hg3"]
    return " ".join(f"{n // 2 + 1}. {written[n]} {written[n + 1]}"
                    for n in range(0, len(written), 2)) + " *"


@pytest.mark.parametrize(("record", "sure", "found"), [
    # a missing move at the last ply leaves a legal record: nothing to see
    (END + "5. e:g3 0-1", None, []),
    # a missing move before the last: put in, and the last ply confirms it; writing the
    # only legal move over the last ply is shown, but drops the written move as a cut does
    (END + "5. c:h4 0-1", "insert", [("insert", False), ("only", False), ("delete", True)]),
    # one too many at the last ply, and at the one before: taking it out restores the line
    # in the second case, but only by making the record shorter, so it is not made
    (END + "5. e:g3 c:h4 c:h4 0-1", None, [("delete", True)]),
    (END + "5. e:g3 e:g3 c:h4 0-1", None, [("delete", True)]),
    # and two plies before the last: the two after it replay either way, too few to confirm
    (END + "h:f2 5. e:g3 c:h4 0-1", None, [("delete", True)]),
    # the last two exchanged: exchanging them keeps the record's length
    (END + "5. c:h4 e:g3 0-1", "swap", [("swap", False), ("delete", True)]),
    # a letter off at the last ply (h5 is no playing square): nothing after it confirms the
    # correction; at the ply before, the last ply does
    (END + "5. e:g3 c:h5 0-1", None, [("replace", False), ("delete", True)]),
    (END + "5. d:g3 c:h4 0-1", "replace", [("replace", False)]),
])
def test_slips_at_the_last_plies_are_never_repaired_by_shortening_the_game(record, sure, found):
    check_never_shortened(record, sure, found)


def test_the_swapped_and_lost_pair_at_the_end_is_never_repaired_by_shortening_the_game(
        swapped_and_lost):
    check_never_shortened(swapped_and_lost, None, [("delete", True)])


def check_never_shortened(record: str, sure: str | None, found: list[tuple[str, bool]]):
    """The suggestions that replay ``record`` to its end are ``found`` (edit, cut), the sure
    repair is ``sure``, and no repair leaves the game shorter than written."""
    game = game_of(record)
    suggestions = suggest(game, RUSSIAN)
    assert [(s.as_dict()["edit"], s.cut) for s in suggestions if s.replays_to_end] == found
    for suggestion in suggestions:  # at the end, every ply taken out only cuts the record
        assert suggestion.cut == (len(suggestion.steps) < suggestion.length)
    chosen = sure_repair(suggestions)
    assert (chosen and chosen.as_dict()["edit"]) == sure
    written = len(game.moves.plies)
    mend = repair_game(game, RUSSIAN).mend
    assert (mend is None) == (sure is None)
    assert len(game.moves.plies) >= written
    if sure is not None:
        assert tuple(replay_game(game, RUSSIAN).moves) == ORIGINAL


def test_the_swapped_and_lost_pair_is_not_repaired_by_clean_or_convert(tmp_path,
                                                                       swapped_and_lost):
    source = write(tmp_path, f'[Event "swapped and lost"]\n[Result "*"]\n{swapped_and_lost}\n')
    out = tmp_path / "out.pdn"
    cleaned = runner.invoke(app, ["clean", source, "-o", str(out), "--repair"])
    assert "game 1: moves kept as written: no sure repair" in cleaned.stderr
    (game,) = read_games(out)
    assert [ply.record.text for ply in game.moves.plies][-2:] == ["gf4", "hg3"]
    converted = runner.invoke(app, ["convert", source, "--to", "full", "--repair"])
    assert "repaired" not in converted.stderr and "1 not converted" in converted.stderr
    assert validate_suggestion(source).endswith(
        "White's 10th move is one too many: taking out 'gf4' makes the record replay to its end "
        "but shortens the game by one ply.")


def validate_suggestion(source):
    result = runner.invoke(app, ["validate", source, "--suggest"])
    return next(line for line in result.stdout.splitlines() if ": suggestion: " in line)


def _written(plies: list[str]) -> str:
    return " ".join(f"{n // 2 + 1}. {' '.join(plies[n:n + 2])}"
                    for n in range(0, len(plies), 2)) + " *"


def test_two_moves_of_one_side_exchanged_are_put_back(shared_data, archive):
    # game 2 of the World Championship 1998 archive, 10. hg3 ed6 11. gf4 written 10. gf4 ed6
    # 11. hg3: gf4 needs the man hg3 brings to g3. Without the exchange of one side's two
    # moves the best suggestion was a wrong partial mend (writing 10. ef4 for 'gf4', the
    # record replaying to ply 22 of 68)
    game = archive(shared_data / WORLD_CHAMPIONSHIP_1998)[1]
    plies = [ply.record.text for ply in game.moves.plies]
    assert plies[18:21] == ["hg3", "ed6", "gf4"]
    plies[18], plies[20] = plies[20], plies[18]
    slipped = game_of(_written(plies))
    (best, *_) = suggest(slipped, RUSSIAN)
    assert best.description == (
        "White's 10th move and White's 11th move are in the wrong order: exchanging 'gf4' and "
        "'hg3' makes the record replay to its end.")
    assert best.as_dict()["edit"] == "exchange" and sure_repair(suggest(slipped, RUSSIAN))
    assert repair_game(slipped, RUSSIAN).mend == (
        "White's 10th move and White's 11th move were in the wrong order: 'gf4' and 'hg3' "
        "are exchanged.")
    assert tuple(replay_game(slipped, RUSSIAN).moves) == tuple(replay_game(game).moves)


def test_where_one_move_was_legal_it_is_written_for_the_slip(shared_data, archive):
    # game 3 of the World Championship 1998 archive: after 4...df4 White's only legal move is
    # the capture g3:g7 (5. gg7); written as White's move before it, 'de5', no edit one
    # character away mends it, and the finder said "No small edit ..."
    game = archive(shared_data / WORLD_CHAMPIONSHIP_1998)[2]
    replayed = replay_game(game)
    plies = [ply.record.text for ply in game.moves.plies]
    assert plies[6:9] == ["de5", "df4", "gg7"]
    (only,) = Board(replayed.variant, replayed.positions[8]).legal_moves()
    assert Board(replayed.variant, replayed.positions[8]).text(only) == "g3:g7"
    plies[8] = "de5"
    slipped = game_of(_written(plies))
    (best, *_) = suggest(slipped, RUSSIAN)
    assert best.description == ("White's 5th move is a slip: writing 5. g:g7, the only legal "
                                "move, for 'de5' makes the record replay to its end.")
    assert repair_game(slipped, RUSSIAN).mend == (
        "White's 5th move was a slip: 5. g:g7, the only legal move, is written for 'de5'.")
    assert tuple(replay_game(slipped, RUSSIAN).moves) == tuple(replayed.moves)


def test_the_only_legal_move_at_the_last_ply_is_suggested_but_not_sure():
    # 5.e:g3 is White's only move (h4 has just taken on f2); written 'cb4' as the last ply,
    # nothing after it confirms the correction, and taking it out replays as well
    game = game_of(END + "5. cb4 0-1")
    suggestions = suggest(game, RUSSIAN)
    assert suggestions[0].as_dict()["edit"] == "only"
    assert sure_repair(suggestions) is None and repair_game(game, RUSSIAN).mend is None


def test_a_ply_taken_out_in_the_middle_is_a_sure_repair():
    # gh4 written twice: the rest of the record (four plies, both sides) replays without it
    (only,) = suggest(game_of(
        "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1"), RUSSIAN)
    assert only.shorter == 1 and not only.cut and sure_repair([only]) is only


def test_a_missing_move_that_several_moves_fit_is_not_repaired():
    # Black's 2nd move left out: 2...fg5 and 2...hg5 both let the rest replay (checked by
    # hand: either man reaches g5 and goes on to h4 with 3...gh4)
    game = game_of("1. ed4 dc5 2. fe3 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1")
    suggestions = suggest(game, RUSSIAN)
    assert len([s for s in suggestions if s.replays_to_end]) >= 2
    assert sure_repair(suggestions) is None
    text = write_game(game)
    assert repair_game(game, RUSSIAN) == Repair(broken=True, mend=None)
    assert write_game(game) == text  # written as it was read


def test_a_game_with_many_slips_gets_no_sure_repair():
    game = game_of("1. ed4 2. fe3 3. cb4 4. b:d6 5. e:g3 c:h4 0-1")
    repair = repair_game(game, RUSSIAN)
    assert repair.broken and repair.mend is None
    assert not any(s.replays_to_end for s in suggest(game, RUSSIAN))


def test_a_search_out_of_budget_repairs_nothing():
    assert repair_game(game_of(MISSING), RUSSIAN, budget=30).mend is None
    assert repair_game(game_of(MISSING), RUSSIAN, budget=300).mend is not None


def test_a_ply_moved_before_its_place_that_still_fails_is_no_progress():
    # every 'ed4' after the first is illegal: moving one three plies back stops the replay at
    # the same place, which is not "further"
    assert suggest(game_of("1. ed4 dc5 2. ed4 ed4 3. ed4 ed4 4. ed4 ed4 0-1"), RUSSIAN) == []


def test_a_valid_game_has_no_suggestions_and_is_left_alone():
    game = game_of(LINE + " 0-1")
    assert suggest(game, RUSSIAN) == []
    assert repair_game(game, RUSSIAN).broken is False


def test_the_repair_is_written_into_the_game_as_a_comment():
    game = game_of(MISSING.replace("4. b:d6", "4. b:d6 {a good capture}"))
    repair = repair_game(game, RUSSIAN)
    assert repair.mend == MENDED
    written = " ".join(write_game(game).split())
    assert f"3. cb4 gh4 {{repaired: {MENDED}}} 4. b:d6" in written
    assert "{a good capture}" in written
    assert replay_game(game_of(written), RUSSIAN).status == VALID


def test_a_ply_taken_out_keeps_its_comment():
    game = game_of("1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 gh4 {twice} 4. b:d6 h:f2 5. e:g3 c:h4 0-1")
    assert repair_game(game, RUSSIAN).mend is not None
    assert "{twice}" in write_game(game)


def test_the_record_of_the_dammen_archive_lacks_move_32(shared_data):
    # its README: "deliberately illegal game (move 32 missing)"
    game = next(read_games(shared_data / "tests" / "bas080_dammen" / "invalid.pdn"))
    (best, *_) = suggest(game, INTERNATIONAL)
    assert best.description == ("White's 32nd move is missing: putting in 32. 39x28 makes the "
                                "record replay to its end.")
    assert repair_game(game, INTERNATIONAL).mend == ("White's 32nd move was missing: "
                                                     "32. 39x28 is put in.")


def test_slips_in_real_games_are_restored_and_never_into_another_game(shared_data):
    rng = random.Random(11)
    outcomes = {kind: [] for kind in KINDS}
    for _, variant, game, replayed in archive_games(shared_data, 4, rng, first=40):
        original = tuple(replayed.moves)
        for kind in KINDS:
            slipped = make_slip(game, replayed, kind, rng)
            if slipped is None or replay_game(slipped, variant).status != INVALID:
                continue
            mend = repair_game(slipped, variant).mend
            moves = tuple(replay_game(slipped, variant).moves)
            outcomes[kind].append("left" if mend is None else
                                  "restored" if moves == original else "other")
    every = [outcome for kind in KINDS for outcome in outcomes[kind]]
    assert "other" not in every
    assert every.count("restored") >= 0.85 * len(every)
    assert all(outcomes[kind] for kind in ("missing", "extra", "swap", "column", "typo"))


# ---- the commands ------------------------------------------------------------------------

def write(tmp_path, text):
    path = tmp_path / "games.pdn"
    path.write_text(text, encoding="utf-8")
    return str(path)


TWO_GAMES = f'[Event "slip"]\n[Result "0-1"]\n{MISSING}\n\n[Event "good"]\n[Result "0-1"]\n' \
            f'{LINE} 0-1\n'


def test_validate_suggest_prints_the_suggestion_under_the_error(tmp_path):
    source = write(tmp_path, TWO_GAMES)
    result = runner.invoke(app, ["validate", source, "--suggest"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert ": error: game 1, move 3 (Black) 'b:d6': illegal-move" in lines[0]
    # placed where the slip is written: before 'b:d6', line 3 column 33 of the file
    assert lines[1] == (f"{source}:3:33: suggestion: game 1: Black's 3rd move is missing: "
                        "putting in 3... gh4 makes the record replay to its end.")
    assert len(lines) == 2


def test_validate_json_carries_suggestions_only_with_suggest(tmp_path):
    source = write(tmp_path, TWO_GAMES)
    plain = [json.loads(line) for line in runner.invoke(app, ["validate", source, "--json"]
                                                        ).stdout.splitlines()]
    assert [r["suggestions"] for r in plain] == [[], []]
    asked = [json.loads(line) for line in runner.invoke(
        app, ["validate", source, "--json", "--suggest"]).stdout.splitlines()]
    (suggestion,) = asked[0]["suggestions"]
    assert {k: suggestion[k] for k in ("edit", "move_number", "side", "text", "replays_to_end",
                                       "line", "column")
            } == {"edit": "insert", "move_number": 3, "side": "Black", "text": "3... gh4",
                  "replays_to_end": True, "line": 3, "column": 33}
    assert asked[1]["suggestions"] == []


def test_the_report_shows_the_suggestion_on_the_board(tmp_path):
    source = write(tmp_path, TWO_GAMES)
    html, markdown = tmp_path / "report.html", tmp_path / "report.md"
    runner.invoke(app, ["validate", source, "--suggest", "--report", str(html)])
    runner.invoke(app, ["validate", source, "--suggest", "--report", str(markdown)])
    page = html.read_text()
    assert "Suggestion: Black&#x27;s 3rd move is missing: putting in 3... gh4" in page
    assert "Before the error, where the slip happened" in page and "<svg" in page
    assert "- suggestion: Black's 3rd move is missing" in markdown.read_text()


def test_the_report_draws_a_slip_made_before_the_error(tmp_path):
    # 3.cb4 left out: gh4 is then White's legal g3-h4, and the record breaks a ply later
    report = report_game(game_of("1. ed4 dc5 2. fe3 fg5 3. gh4 b:d6 4. h:f2 e:g3 5. c:h4 0-1"),
                         RUSSIAN, suggest=True)
    assert report.suggestions[0]["description"].startswith(
        "White's 3rd move is missing: putting in 3. cb4")
    assert report.suggestions[0]["fen"] not in report.error_fens
    assert "Where the slip happened" in html_report([report])


def test_clean_repair_mends_sure_games_and_says_so(tmp_path):
    source = write(tmp_path, TWO_GAMES + '\n[Event "unsure"]\n[Result "0-1"]\n'
                   "1. ed4 dc5 2. fe3 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1\n")
    out = tmp_path / "out.pdn"
    result = runner.invoke(app, ["clean", source, "-o", str(out), "--repair"])
    assert result.exit_code == 0
    games = list(read_games(out))
    assert [replay_game(g, RUSSIAN).status for g in games] == [VALID, VALID, INVALID]
    assert games[0].moves.plies[5].comments == [f"repaired: {MENDED}"]
    assert f"game 1: repaired: {MENDED}" in result.stderr
    assert "game 3: moves kept as written: no sure repair" in result.stderr
    assert [p.record.text for p in games[2].moves.plies][:3] == ["ed4", "dc5", "fe3"]


def test_clean_without_repair_keeps_the_broken_game(tmp_path):
    out = tmp_path / "out.pdn"
    runner.invoke(app, ["clean", write(tmp_path, TWO_GAMES), "-o", str(out)])
    assert replay_game(next(read_games(out)), RUSSIAN).status == INVALID


def test_convert_repair_converts_the_mended_game(tmp_path):
    source = write(tmp_path, TWO_GAMES)
    result = runner.invoke(app, ["convert", source, "--to", "full", "--repair"])
    assert result.exit_code == 0
    assert f"3. c3-b4 g5-h4 {{repaired: {MENDED}}}" in " ".join(result.stdout.split())
    assert f"game 1: repaired: {MENDED}" in result.stderr
    assert "2 converted" in result.stderr


@pytest.mark.parametrize("record", [
    '[GameType "20"]\n1. 51-60 *',  # the only move names no square of the board
    "1. a9-k12 99-100 *",
    "1. - - 2. cd4 *",  # lost moves first
    "1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 " + "a1-b2 h8-g7 " * 5000 + "*",
])
def test_hostile_records_get_no_repair_and_no_crash(record, tmp_path):
    game = game_of(record)
    text = write_game(game)
    assert repair_game(game, RUSSIAN).mend is None
    assert write_game(game) == text
    source = write(tmp_path, record + "\n")
    for args in (["validate", source, "--suggest"], ["validate", source, "--suggest", "--json"],
                 ["clean", source, "-o", str(tmp_path / "out.pdn"), "--repair"],
                 ["convert", source, "-o", str(tmp_path / "c.pdn"), "--repair"]):
        result = runner.invoke(app, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
        assert result.exit_code in (0, 1), result.output


def test_a_last_move_mended_only_by_taking_it_out_is_not_repaired():
    # 51-60 names no square of the International board: taking the move out leaves an empty
    # record, which confirms nothing
    (only,) = suggest(game_of('[GameType "20"]\n1. 51-60 *'), INTERNATIONAL)
    assert only.as_dict()["edit"] == "delete" and only.replays_to_end
    assert sure_repair([only]) is None


def test_the_result_decides_between_two_missing_moves():
    # White men b6, e7; Black men b8, f8; White to move, and White's move is missing before
    # 1...f8:d6. Worked out by hand: after 1.b6-a7 f8:d6 White's a7 is blocked by b8 and White
    # cannot move (0-1, as recorded); after 1.b6-c7 f8:d6 White still has c7-d8; after
    # 1.e7-d8 there is nothing on e7 for f8:d6 to take.
    game = game_of('[FEN "W:Wb6,e7:Bb8,f8"]\n[Result "0-1"]\n1. f8:d6 0-1')
    inserts = [s for s in suggest(game, RUSSIAN) if s.as_dict()["edit"] == "insert"]
    assert [(s.as_dict()["text"], s.result_check) for s in inserts] == [
        ("1. b6-a7", "consistent"), ("1. b6-c7", "undetermined")]
    assert repair_game(game, RUSSIAN).mend == "White's 1st move was missing: 1. b6-a7 is put in."
