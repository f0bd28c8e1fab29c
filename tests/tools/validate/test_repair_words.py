"""The texts of repair suggestions and repairs are sentences of one grammar
(``replay.validate.repair_words``), for every kind of slip, as a suggestion and as a repair made.

The records are slips made by hand of the short Russian line of
``tests/tools/validate/test_repair.py`` (1.ed4 dc5 2.fe3 fg5 3.cb4 gh4 4.b:d6 h:f2 5.e:g3 c:h4).
"""

import re

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.rules.variants import RUSSIAN
from replay.validate.repair import repair_game, suggest, sure_repair
from replay.validate.repair_words import NO_SUGGESTION, Outcome, Slip, repair_text, suggestion_text

runner = CliRunner()
# Finite verbs the grammar uses; a clause (the text between ':', ';', ', and ', ' but ') has
# exactly one, so that two clauses run together ("X is one too many makes the record ...")
# show as two verbs in one clause.
VERBS = {"is", "are", "was", "were", "must", "should", "had", "makes", "make", "shortens", "lets"}
CLAUSE_BREAK = re.compile(r": |; |, and | but ")


def sentence_faults(text: str) -> list[str]:
    """What keeps a text from being one proper sentence (empty: none)."""
    faults = []
    if not text[:1].isupper():
        faults.append("no capital letter")
    if not text.endswith(".") or text.endswith(".."):
        faults.append("no full stop")
    for clause in CLAUSE_BREAK.split(text.rstrip(".")):
        verbs = [word for word in re.findall(r"[a-z]+", clause) if word in VERBS]
        if len(verbs) != 1:
            faults.append(f"clause {clause!r} has verbs {verbs}")
    return faults


@pytest.mark.parametrize("text", [
    # the texts of before: run-on clauses, no full stop
    "White's 10th move 'gf4' is one too many makes the record replay to its end",
    "Black's 4th move 'ed5' should be 10... ed6 makes the record replay to its end.",
    "Black's 3rd move 3... gh4 was missing",
    "black's 3rd move is missing: putting in 3... gh4 makes the record replay to its end.",
])
def test_the_sentence_check_finds_what_is_wrong(text):
    assert sentence_faults(text)


H = "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 "
# kind of the best suggestion: a record with that slip (and, for two kinds, two slips)
SLIPS = {
    "insert": "1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1",
    "delete": "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1",
    "swap": "1. ed4 dc5 2. fe3 fg5 3. gh4 cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1",
    "replace": H + "5. d:g3 c:h4 0-1",
    "landing": "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:e1 5. e:g3 c:h4 0-1",
    "move": "1. ed4 dc5 2. fe3 fg5 3. gh4 b:d6 4. h:f2 cb4 5. e:g3 c:h4 0-1",
    "insert+replace": "1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. d:g3 c:h4 0-1",
    "swap+replace": "1. ed4 dc5 2. fe3 fg5 3. gh4 cb4 4. b:d6 h:f2 5. d:g3 c:h4 0-1",
}


@pytest.mark.parametrize("kind", list(SLIPS))
def test_each_kind_reads_as_a_sentence_as_suggestion_and_as_repair(kind):
    game = next(read_games(SLIPS[kind]))
    suggestions = suggest(game, RUSSIAN)
    assert suggestions[0].as_dict()["edit"] == kind
    for suggestion in suggestions:
        assert sentence_faults(suggestion.description) == [], suggestion.description
    sure = sure_repair(suggestions)
    assert sure is not None and sure.as_dict()["edit"] == kind
    mend = repair_game(game, RUSSIAN).mend
    assert mend == sure.mend and sentence_faults(mend) == [], mend
    assert game.moves.plies[min(e.index for e in sure.edits)].comments == [f"repaired: {mend}"]


def test_the_words_name_the_slip_and_the_fix():
    descriptions = {kind: suggest(next(read_games(record)), RUSSIAN)[0].description
                    for kind, record in SLIPS.items()}
    assert descriptions["delete"] == ("White's 4th move is one too many: taking out 'gh4' makes "
                                      "the record replay to its end.")
    assert descriptions["swap+replace"] == (
        "White's 3rd move and Black's 3rd move are in the wrong order, and White's 5th move is a "
        "slip: exchanging 'gh4' and 'cb4' and then writing 5. e:g3 for 'd:g3' make the record "
        "replay to its end.")
    mend = repair_game(next(read_games(SLIPS["move"])), RUSSIAN).mend
    assert mend == "White's 3rd move was written as Black's 4th move: 'cb4' is moved to its place."


@pytest.mark.parametrize(("record", "ending"), [
    # one too many at the last ply: only a cut mends it
    (H + "5. e:g3 c:h4 c:h4 0-1", "replay to its end but shortens the game by one ply."),
    # the slips before a hopeless tail: the record gets further, not to its end
    ("1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 6. a1-h8 h8-a1 7. a1-h8 h8-a1 0-1",
     "replay further, to ply 9 of 13."),
])
def test_a_suggestion_that_cuts_or_gets_further_says_so_in_a_sentence(record, ending):
    (first, *_) = suggest(next(read_games(record)), RUSSIAN)
    assert first.description.endswith(ending)
    assert sentence_faults(first.description) == []


def test_the_grammar_agrees_with_one_slip_or_two():
    missing = Slip("insert", "Black's 3rd move", move="3... gh4")
    extra = Slip("delete", "White's 6th move", written="'c:h4'")
    assert suggestion_text([missing], Outcome(10, 10)) == (
        "Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its end.")
    assert suggestion_text([missing, extra], Outcome(7, 11)) == (
        "Black's 3rd move is missing, and White's 6th move is one too many: putting in 3... gh4 "
        "and then taking out 'c:h4' make the record replay further, to ply 7 of 11.")
    assert suggestion_text([extra], Outcome(11, 11, shorter=2)).endswith(
        "but shortens the game by 2 plies.")
    assert repair_text([missing, extra]) == ("Black's 3rd move was missing: 3... gh4 is put in; "
                                             "White's 6th move was one too many: 'c:h4' is taken "
                                             "out.")


def test_validate_says_in_a_sentence_that_nothing_mends_a_game(tmp_path):
    source = tmp_path / "games.pdn"
    source.write_text("1. ed4 dc5 2. ed4 ed4 3. ed4 ed4 4. ed4 ed4 0-1\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(source), "--suggest"])
    (line,) = [line for line in result.stdout.splitlines() if ": suggestion: " in line]
    assert line.endswith(f": suggestion: game 1: {NO_SUGGESTION}")
    assert sentence_faults(NO_SUGGESTION) == []
