"""Every selection criterion is read and checked before the first game is: a criterion no
game can meet is a usage error (exit 2) that says what is wrong, and for moves which ones
are legal there, in the variant's notation (``replay.record.criteria``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from replay.archive.select import criteria_from_text
from replay.record.criteria import CriterionError, check_moves, check_position, game_variants
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN

runner = CliRunner()

GAMES = """\
[Event "Cup"]
[White "Ivanov, A."]
[Black "Petrov, B."]
[Date "1990.05.01"]
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-g5 2. g3-f4 g7-f6 1-0

[Event "Cup"]
[White "Petrov, B."]
[Black "Ivanov, A."]
[Date "1991.06.02"]
[Result "1/2-1/2"]
1. cd4 fg5 2. gf4 gf6 1/2-1/2
"""
RUSSIAN_LEGAL = "legal moves: a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4"  # square order


@pytest.fixture
def games(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(GAMES, encoding="utf-8")
    return path


def run(*args: str, code: int):
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result


# ---- pdn filter: each criterion ------------------------------------------------------------

WRONG_CRITERIA = [
    (["--moves", "1. cd5"], ["--moves '1. cd5'", "'cd5': square 'd5' is not a playing square",
                             RUSSIAN_LEGAL]),
    (["--moves", "1. cd4 xx9"], ["--moves '1. cd4 xx9' is not a sequence of moves",
                                 "unexpected 'xx9'"]),
    # numeric squares: 22-18 is White's first move in Russian, 9-15 no reply to it
    (["--moves", "1. 22-18 9-15"], ["move 1 (Black) '9-15'",
                                    "legal moves: b6-a5 b6-c5 d6-c5 d6-e5 f6-e5 f6-g5 h6-g5"]),
    (["--result", "3-0"], ["--result '3-0' is not a result", "1-0", "1/2-1/2", "2-0"]),
    (["--game-variant", "shogi"], ["unknown variant 'shogi'"]),
    (["--game-variant", "english", "--variant", "russian", "--ignore-gametype"],
     ["--game-variant english selects no game"]),
    (["--player", ","], ["--player ',' names no one"]),
    (["--white", " "], ["--white ' ' names no one"]),
    (["--date-from", "1995", "--date-to", "1990"], ["--date-from '1995' is after --date-to"]),
    (["--date-to", "June"], ["--date-to 'June' is not a date"]),
    (["--min-plies", "9", "--max-plies", "3"], ["--min-plies 9 is more than --max-plies 3"]),
    (["--status", "broken"], ["--status 'broken': use valid, invalid, incomplete"]),
    (["--position", "nonsense"], ["--position 'nonsense' is not a position of",
                                  "side to move must be W or B"]),
    (["--tag", "Event"], ["--tag 'Event' is not of the form NAME=VALUE"]),
    (["--material", "W:3Q"], ["--material 'W:3Q'"]),
]


@pytest.mark.parametrize(("criterion", "said"), WRONG_CRITERIA,
                         ids=[" ".join(args) for args, _ in WRONG_CRITERIA])
def test_filter_refuses_a_criterion_no_game_can_meet(games, tmp_path, criterion, said):
    out = tmp_path / "out.pdn"
    result = run("filter", str(games), "-o", str(out), *criterion, code=2)
    for words in said:
        assert words in result.output
    assert "games matched" not in result.output and not out.exists()


def test_criteria_are_checked_before_any_input_is_opened(tmp_path):
    # the input does not exist: the criterion is what the user hears about
    result = run("filter", str(tmp_path / "none.pdn"), "--result", "3-0", code=2)
    assert "--result '3-0'" in result.output and "no such file" not in result.output


def test_criteria_that_can_match_still_run(games, tmp_path):
    out = tmp_path / "out.pdn"
    for criterion, matched in ((["--moves", "1. cd4 fg5 2. gf4"], 2),
                               (["--moves", "1. 22-18"], 2),  # 22-18 is c3-d4 in numbers
                               (["--result", "1:0"], 1), (["--result", "*"], 0),
                               (["--player", "ivanov", "--date-from", "1991"], 1),
                               (["--min-plies", "4", "--max-plies", "4"], 2)):
        result = run("filter", str(games), "-o", str(out), *criterion, code=0)
        assert f"{matched} of 2 games matched" in result.output, criterion


def test_moves_of_another_variant_are_accepted_unless_the_variant_is_chosen(games, tmp_path):
    # 33-28 is International's (squares past 32): a tagged game of the folder might be one
    out = tmp_path / "out.pdn"
    assert "0 of 2 games matched" in run("filter", str(games), "-o", str(out), "--moves",
                                         "1. 33-28", code=0).output
    refused = run("filter", str(games), "-o", str(out), "--moves", "1. 33-28",
                  "--game-variant", "russian", code=2)
    assert "is not legal in russian" in refused.output and RUSSIAN_LEGAL in refused.output


def test_the_legal_moves_are_listed_in_the_chosen_variants_notation(games, tmp_path):
    refused = run("filter", str(games), "-o", str(tmp_path / "o.pdn"), "--moves", "1. 22-18",
                  "--game-variant", "english", code=2)
    # English: Black moves first, squares written as numbers
    assert "move 1 (Black) '22-18'" in refused.output
    assert "legal moves: 9-13 9-14 10-14 10-15 11-15 11-16 12-16" in refused.output


def test_the_issues_example_on_the_russian_archive(shared_data, tmp_path):
    out = tmp_path / "x.pdn"
    result = run("filter", str(shared_data / "games-checkers" / "russian"), "--moves", "1. cd5",
                 "-o", str(out), code=2)
    assert "--moves '1. cd5' is legal in no variant the games may be in" in result.output
    assert "in russian, brazilian, czech: move 1 (White) 'cd5'" in result.output
    assert RUSSIAN_LEGAL in result.output and not out.exists()


# ---- pdn search ----------------------------------------------------------------------------

@pytest.fixture
def database(games, tmp_path) -> Path:
    db = tmp_path / "games.db"
    run("index", str(games), "-o", str(db), code=0)
    return db


@pytest.mark.parametrize(("criterion", "said"), [
    (["--position", "nonsense"], "--position 'nonsense' is not a position of russian"),
    (["--moves", "1. cd5"], "--moves '1. cd5' is not legal in russian"),
    (["--moves", "1. cd4 xx9"], "is not a sequence of moves"),
    (["--player", ","], "--player ',' names no one"),
    (["--game-variant", "english", "--moves", "1. cd4"], "move 1 (Black) 'cd4'"),
])
def test_search_refuses_a_criterion_no_game_of_the_database_can_meet(database, criterion,
                                                                      said):
    result = run("search", str(database), *criterion, code=2)
    assert said in result.output and "games matched" not in result.output


def test_search_runs_the_criteria_that_fit(database):
    assert "2 games matched" in run("search", str(database), "--moves", "1. c3-d4 f6-g5",
                                    code=0).output
    start = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert "2 games matched" in run("search", str(database), "--position", start,
                                    code=0).output


# ---- the checks themselves -----------------------------------------------------------------

def test_moves_are_refused_only_when_no_variant_plays_them():
    check_moves("1. 32-28", game_variants())  # International
    check_moves("1. 11-15 23-19", game_variants())  # English
    with pytest.raises(CriterionError) as refused:
        check_moves("1. 11-15 23-19 2. 8-11 22-16", game_variants())
    message = str(refused.value)
    # where the moves go furthest: move 2 in English, named both ways its squares are written
    assert "in english, pool: move 2 (White) '22-16'" in message
    assert "legal moves: 19-16 21-17 22-17 22-18 24-20 26-23 27-23" in message


def test_the_variants_considered_follow_the_options():
    assert game_variants(RUSSIAN) == [RUSSIAN]
    assert game_variants(None, INTERNATIONAL) == [INTERNATIONAL]
    assert [v.name for v in game_variants(ENGLISH)] == ["english", "english"]  # both namings
    everyone = game_variants(None, None, RUSSIAN)
    assert everyone[0] == RUSSIAN and INTERNATIONAL in everyone and len(set(everyone)) == len(
        everyone)
    free = game_variants(RUSSIAN, rules={"forced-capture": "no"})
    assert [v.forced_capture for v in free] == [False]


def test_a_position_must_be_one_of_some_variant():
    check_position("W:W31,32:B1,2", [RUSSIAN])
    with pytest.raises(CriterionError, match="square 'z9' is not on"):
        check_position("W:Wa1:Bz9", [RUSSIAN, INTERNATIONAL])


@pytest.mark.parametrize("text", ["2002' OR 1=1 --", "1990.13", "1990.06.32", "90", "1990x"])
def test_a_date_criterion_is_read_strictly(text):
    """--date-from "2002' OR 1=1 --" was taken as the year 2002 (read as a Date tag is)."""
    with pytest.raises(CriterionError, match="is not a date"):
        criteria_from_text(date_from=text)
    assert criteria_from_text(date_to="1990.6.1").date_to == (1990, 6, 1)
