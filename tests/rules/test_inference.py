"""The variant of a game without a GameType tag: told by its FEN's kings, and for a record
that tells nothing, by its file's other games (docs/inference.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

import replay.run.runner
from pdn.reader import read_games
from replay.convert.games import Target
from replay.convert.sources import Job
from replay.convert.sources import convert_sources as convert_files
from replay.record.replayer import replay_game
from replay.rules.choice import RulesChoice
from replay.stats import execution as engine
from replay.stats import stats_tables
from replay.validate import reports as validate
from replay.validate.reports import report_games
from replay.validate.summary import summarise

runner = CliRunner()

# ---- a FEN's king marks are not file letters -------------------------------------------------


@pytest.mark.parametrize(("fen", "variant", "evidence"), [
    ("W:W6,10:B1,K13", "english", "FEN set-up with numeric squares up to 13"),
    ("W:Wk13:B1", "english", "numeric squares up to 13"),  # the mark in lowercase
    ("B:WK29,K30:BK1,K2", "english", "numeric squares up to 30"),  # kings on both sides
    ("W:WK1-5:B20", "english", "numeric squares up to 20"),  # a range of kings
    ("W:WK32:BK1", "english", "numeric squares up to 32"),
    ("W:WK46,31:BK5", "international", "numeric squares up to 46"),
    ("W:WK1-3,K50:B5", "international", "numeric squares up to 50"),
    ("W:WK70:B1", "canadian", "numeric squares up to 70"),
    ("W:WKc3,a1:BKh8", "russian", "FEN set-up with squares named a1-h8"),
    ("B:WKa1:BKj10", "international", "squares named up to file j"),
    ("W:WKk11:Ba1", "canadian", "squares named up to file l"),  # a king on file k
])
def test_a_fen_king_mark_is_not_read_as_a_file_letter(fen, variant, evidence):
    replayed = replay_game(next(read_games(f'[FEN "{fen}"]\n*\n')))
    assert (replayed.variant.name, replayed.status) == (variant, "valid"), replayed.errors
    assert evidence in replayed.notes[0].message
    assert replayed.notes[0].message.endswith(f": {variant}")


# ---- a game that tells nothing follows its file ----------------------------------------------

INTERNATIONAL = "1. 33-28 18-23 2. 39-33 12-18 *"
ENGLISH = "1. 11-15 23-19 2. 8-11 22-17 *"
EMPTY = '[Result "*"]\n*'


def _file(*games: str) -> str:
    return "".join(f'[Event "{n}"]\n{game}\n\n' for n, game in enumerate(games, 1))


def _variants(text: str) -> list[str]:
    return [report.variant for report in report_games(read_games(text))]


def test_empty_games_in_a_file_of_international_games_are_international():
    text = _file(INTERNATIONAL, EMPTY, INTERNATIONAL, EMPTY, EMPTY)
    reports = list(report_games(read_games(text)))
    assert [r.variant for r in reports] == ["international"] * 5
    note = reports[1].notes[0]
    assert note["code"] == "variant-inferred"
    assert note["message"] == ("no squares written, as the nearest game of its file that "
                               "tells its variant: international")
    assert reports[1].variant_source == "inferred"
    assert reports[1].final_fen.startswith("W:W31,32,")  # the International start position


def test_a_silent_game_follows_the_nearest_game_before_it():
    text = _file(INTERNATIONAL, EMPTY, ENGLISH, EMPTY)
    assert _variants(text) == ["international", "international", "english", "english"]


def test_silent_games_at_the_head_follow_the_first_game_that_tells():
    text = _file(EMPTY, "*", ENGLISH, INTERNATIONAL)
    assert _variants(text) == ["english", "english", "english", "international"]


def test_a_tagged_game_tells_the_silent_games_around_it():
    text = _file('[GameType "20"]\n1. 32-28 *', EMPTY)
    assert _variants(text) == ["international", "international"]


def test_a_file_of_silent_games_only_keeps_the_home_variant():
    reports = list(report_games(read_games(_file(EMPTY, "*"))))
    assert [r.variant for r in reports] == ["russian", "russian"]
    assert reports[0].notes[0]["message"] == "no squares written: russian"


def test_an_unreadable_game_follows_too_and_keeps_its_error():
    text = _file(INTERNATIONAL, '[Result "*"]\n{ never closed')
    reports = list(report_games(read_games(text)))
    assert [(r.variant, r.status) for r in reports] == [("international", "valid"),
                                                        ("international", "unreadable")]


def test_the_variant_option_still_decides_for_silent_games():
    from replay.rules.variants import get_variant

    reports = list(report_games(read_games(_file(INTERNATIONAL, EMPTY)),
                                get_variant("frisian")))
    assert [(r.variant, r.variant_source) for r in reports] == [("frisian", "option")] * 2


def _mixed_file(tmp_path: Path) -> tuple[Path, list[str]]:
    """International games then English ones, with silent games among both, each case
    of nearest game before it expected."""
    games, expected = [], []
    for number in range(240):
        told = INTERNATIONAL if number < 120 else ENGLISH
        if number % 7 in (0, 1):  # leading silent games too: the file starts with two
            games.append(EMPTY)
            expected.append("international" if number < 122 else "english")
        else:
            games.append(told)
            expected.append("international" if number < 120 else "english")
    path = tmp_path / "mixed.pdn"
    path.write_text(_file(*games))
    return path, expected


def _validated(path: Path, jobs: str) -> list[dict]:
    result = runner.invoke(app, ["validate", "--json", "--jobs", jobs, str(path)])
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_silent_games_follow_alike_in_one_process_and_in_workers(tmp_path, monkeypatch):
    path, expected = _mixed_file(tmp_path)
    monkeypatch.setattr(validate, "BLOCK", 600)  # many partitions: silent games at their heads
    one, two = _validated(path, "1"), _validated(path, "2")
    assert [r["variant"] for r in one] == expected
    assert one == two


def test_convert_writes_a_silent_game_in_its_file_variant(tmp_path, monkeypatch):
    path, expected = _mixed_file(tmp_path)
    monkeypatch.setattr(replay.run.runner, "PARTITION_CHARS", 600)
    items = list(convert_files([str(path)], Job(RulesChoice(), Target("pdn")), jobs=1))
    assert [item.text for item in items] == [
        item.text for item in convert_files([str(path)], Job(RulesChoice(), Target("pdn")), jobs=2)]
    gametypes = [item.text.split('[GameType "', 1)[1].split(",", 1)[0] for item in items]
    assert gametypes == [{"international": "20", "english": "21"}[v] for v in expected]


def test_stats_rows_of_silent_games_follow_alike_with_workers(tmp_path, monkeypatch):
    path, expected = _mixed_file(tmp_path)
    monkeypatch.setattr(engine, "BLOCK", 600)
    one = stats_tables([str(path)], None, jobs=1).games
    two = stats_tables([str(path)], None, jobs=2).games
    assert list(one["variant"]) == expected
    assert list(one["white_men"]) == [20 if v == "international" else 12 for v in expected]
    assert one.equals(two)


# ---- pdn info counts the variants pdn validate finds -----------------------------------------

def test_info_counts_silent_games_under_their_file_variant():
    summary = summarise(_file(INTERNATIONAL, EMPTY, ENGLISH, EMPTY, EMPTY))
    assert summary["inferred"] == {"english": 3, "international": 2}


def test_info_counts_what_a_replay_tells():
    # 32-28 fits no English start: validate replays it to International, and so does info.
    assert summarise("1. 32-28 19-23 2. 28x19 14x23 *")["inferred"] == {"international": 1}


@pytest.mark.parametrize("name", ["italian/ci98-fero.pdn", "italian/ci98-perani.pdn",
                                  "czech/MR_Ceska_Dama_Druzstev_2008.pdn"])
def test_info_and_validate_agree_on_the_italian_and_czech_archives(shared_data, name):
    path = shared_data / "games-checkers" / name
    validated = Counter(report.variant for report in report_games(read_games(path)))
    assert summarise(path)["inferred"] == dict(validated)
    if name.startswith("italian"):
        assert set(validated) == {"italian"}


def test_validate_into_a_dataset_follows_across_partitions_as_the_stream(tmp_path, monkeypatch):
    from replay.validate import dataset as validate_dataset

    path, expected = _mixed_file(tmp_path)
    monkeypatch.setattr(validate, "BLOCK", 600)
    monkeypatch.setattr(validate_dataset, "BLOCK", 600)
    validate_dataset.validate_to_dataset([str(path)], f"{tmp_path}/reports/", jobs=2)
    parts = sorted((tmp_path / "reports").glob("part-*.jsonl"))
    assert len(parts) > 10
    lines = [json.loads(line) for part in parts for line in part.read_text().splitlines()]
    assert [line["variant"] for line in lines] == expected
    assert lines == _validated(path, "1")


def test_a_stats_dataset_follows_across_partitions_as_the_table(tmp_path, monkeypatch):
    import pandas as pd

    from replay.stats import dataset

    path, expected = _mixed_file(tmp_path)
    monkeypatch.setattr(dataset, "BLOCK", 600)
    dataset.write_dataset([str(path)], None, f"{tmp_path}/parts/", "games", jobs=2)
    written = pd.read_parquet(tmp_path / "parts")
    assert list(written["variant"]) == expected
    assert list(written["white_men"]) == [20 if v == "international" else 12 for v in expected]


# ---- the move tokens tell what the plies tell ------------------------------------------------


def _guess_fields(guess) -> tuple:
    return ([v.name for v in guess.variants], [v.gametype for v in guess.variants],
            guess.evidence, guess.decided, guess.silent)


def _every_game_guessed_alike(path: Path, limit: int | None) -> int:
    """Each game's guess from its move tokens (no ply made) and from its plies; how many
    games read from tokens."""
    from replay.record.inference import candidates

    told = 0
    for count, game in enumerate(read_games(path)):
        if limit is not None and count >= limit:
            break
        tokens = game.main_line_tokens()
        from_tokens = candidates(game)
        assert game.main_line_tokens() == tokens  # no ply was made for the guess
        told += tokens is not None
        game.moves.plies  # noqa: B018 - made now: the guess reads them from here on
        assert game.main_line_tokens() is None
        assert _guess_fields(candidates(game)) == _guess_fields(from_tokens), (path, game.line)
    return told


def _data_files() -> list[Path]:
    from conftest import SHARED_DATA

    return sorted(SHARED_DATA.rglob("*.pdn")) if SHARED_DATA.is_dir() else []


@pytest.mark.parametrize("path", _data_files(), ids=lambda p: p.name)
def test_every_game_gets_the_same_guess_from_its_tokens_and_its_plies(path: Path):
    """Inference reads the first squares from the move tokens where the reader kept them;
    every game of ../shared/data (its first 25 without PDN_FULL_DATA) is guessed as from
    its plies: the same variants in order, evidence and flags."""
    import os

    full = os.environ.get("PDN_FULL_DATA", "") not in ("", "0")
    _every_game_guessed_alike(path, None if full else 25)


def test_tokens_tell_short_and_numbered_records_as_plies_do():
    """Numbers, glued marks and short records (the file letter reaches rank 1)."""
    text = "1. ed4! 1... fg5 2. gxh6?! *"
    assert _every_game_guessed_alike_text(text) == ["russian", "brazilian", "czech"]


def _every_game_guessed_alike_text(text: str) -> list[str]:
    from replay.record.inference import candidates

    game = next(read_games(text))
    assert game.main_line_tokens() is not None
    first = candidates(game)
    game.moves.plies  # noqa: B018
    assert _guess_fields(candidates(game)) == _guess_fields(first)
    return [v.name for v in first.variants][:3]
