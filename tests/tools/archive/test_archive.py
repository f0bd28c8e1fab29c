"""Archive tools: filter, dedupe, split, merge and clean, on records written for
them and on the public archives."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.fen import format_fen
from pdn.reader import read_games
from replay.archive.select import Criteria, MaterialTest, TagTest
from replay.archive.tags import clean_date, clean_name, clean_result, name_matches
from replay.record.lines import position_key
from replay.record.replayer import replay_game
from replay.rules.position import setup_from_position
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN

runner = CliRunner()


def write(tmp_path: Path, text: str, name: str = "games.pdn") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run(*args: str, code: int = 0) -> str:
    """The command's output; it must exit with ``code`` (1: some games were unreadable)."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    return result.output


def positions(game, variant) -> list:
    """Brute force: every position of the main line, by the replayer."""
    replayed = replay_game(game, variant)
    found = [replayed.start]
    for move in replayed.moves:
        found.append(found[-1].play(move))
    return found


# ---- tags --------------------------------------------------------------------------------


def test_names_dates_and_results_are_cleaned_to_pdn_forms():
    assert clean_name("  ivanov ,  andrei ") == "Ivanov, Andrei"
    assert clean_name("A. Ivanov") == clean_name("IVANOV A.") == "Ivanov, A."
    assert clean_name("van der Wal, Anton") == "van der Wal, Anton"
    assert clean_name("ADC") == "ADC"  # a program's acronym keeps its capitals
    assert clean_date("13-01-1996") == "1996.01.13"
    assert clean_date("1995.11.1") == "1995.11.01"
    assert clean_date("1841-??-??") == "1841.??.??"
    assert clean_date("spring") == "spring"  # not understood: kept
    assert clean_result("1/2:1/2", RUSSIAN) == "1/2-1/2"
    assert clean_result("1-0", INTERNATIONAL) == "2-0"  # PDN 3.0: international result set
    assert clean_result("?", RUSSIAN) == "*"


def test_player_names_match_ignoring_case_order_and_punctuation():
    assert name_matches("sijbrands", "T. Sijbrands")
    assert name_matches("Ton Sijbrands", "Sijbrands, Ton")
    assert name_matches("sijb*", "Sijbrands, T.")
    assert not name_matches("Sijbrands", "?")


def test_tag_globs_regexes_and_material():
    tags = {"Event": "WC 1998, Grozny"}
    assert TagTest.parse("Event=wc*").matches(tags)
    assert TagTest.parse("Event=/Gro[sz]ny/").matches(tags)
    assert not TagTest.parse("Event=/^Grozny/").matches(tags)
    assert MaterialTest.parse("W:3K1M B:1K") == MaterialTest((1, 3), (0, 1))


# ---- filter ------------------------------------------------------------------------------

RUSSIAN_GAMES = """\
[Event "Cup 1990"]
[Date "1990.??.??"]
[White "Ivanov, A."]
[Black "Petrov, B."]
[Result "1-0"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 1-0

[Event "Cup 1995"]
[Date "1995.06.12"]
[White "Sidorov"]
[Black "A. Ivanov"]
[Result "0-1"]
1. c3-b4 f6-e5 2. g3-f4 e5:g3 3. h2:f4 0-1

[Event "Broken"]
[White "X"]
1. c3-d4 {never closed

[Event "Cup 2001"]
[Date "2001.05.03"]
[White "Kuznetsov"]
[Black "Petrov, B."]
[Result "1/2:1/2"]
1. e3-d4 b6-a5 1/2:1/2
"""


def test_filter_player_date_result_and_invert(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    out = tmp_path / "out.pdn"
    run("filter", source, "-o", str(out), "--player", "ivanov", "--date-from", "1991")
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 1995"]  # Broken: White X
    run("filter", source, "-o", str(out), "--result", "1/2-1/2", "--rejects",
        str(tmp_path / "rejects.pdn"), code=1)
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 2001"]
    assert "never closed" in (tmp_path / "rejects.pdn").read_text()  # passed through unchanged
    run("filter", source, "-o", str(out), "--white", "ivanov", "--invert", code=1)
    # Broken is unreadable: named and left out, as a selection holds only games that match
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 1995", "Cup 2001"]


def test_filter_moves_in_short_notation_match_games_written_in_full(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    out = tmp_path / "out.pdn"
    output = run("filter", source, "-o", str(out), "--moves", "cd4 fg5 dc5", code=1)
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 1990"]  # Broken left out
    assert "1 of 4 games matched" in output
    assert "game 3: unreadable, left out of the selection" in output


def test_filter_material_and_status(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    out = tmp_path / "out.pdn"
    run("filter", source, "-o", str(out), "--material", "W:11M B:11M", "--rejects",
        str(tmp_path / "r.pdn"), code=1)
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 1995"]
    run("filter", source, "-o", str(out), "--material", "W:12M", "--material-any-ply",
        "--status", "valid", "--rejects", str(tmp_path / "r.pdn"), code=1)
    assert [g.tags["Event"] for g in read_games(out)] == ["Cup 1990", "Cup 1995", "Cup 2001"]


def test_filter_refuses_to_overwrite_its_input_and_reads_stdin(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    result = runner.invoke(app, ["filter", source, "-o", source])
    assert result.exit_code == 2 and "also an input" in result.output
    result = runner.invoke(app, ["filter", "-", "-o", "-", "--black", "petrov"],
                           input=RUSSIAN_GAMES)
    assert result.exit_code == 0
    assert result.stdout.count("[Event ") == 2


def test_position_search_finds_every_game_a_brute_force_replay_finds(shared_data):
    """--position on the Russian world championship: the games it keeps are exactly those
    whose replayed main line passes through the position (checked ply by ply)."""
    path = shared_data / "games-checkers/russian/World_Championship_1998.pdn"
    games = [g for g in read_games(path) if not g.errors]
    after_four = Counter(position_key(line[4]) for line in (positions(g, RUSSIAN) for g in games)
                         if len(line) > 4)
    common = after_four.most_common(1)[0][0]  # the most played position after two moves
    target = next(p for g in games for p in positions(g, RUSSIAN) if position_key(p) == common)
    fen = format_fen(setup_from_position(target), RUSSIAN.gametype.notation)
    expected = [g.index for g in games
                if any(position_key(p) == position_key(target) for p in positions(g, RUSSIAN))]
    criteria = Criteria(position=fen)
    assert [g.index for g in games if criteria.matches(g, RUSSIAN)] == expected
    assert len(expected) > 1


def test_moves_in_short_notation_match_the_archive_written_in_full(shared_data):
    path = shared_data / "games-checkers/russian/abatsiev.pdn"
    games = [g for g in read_games(path) if not g.errors]
    criteria = Criteria(moves="1.cd4 fg5 2.bc3")
    found = [g.index for g in games if criteria.matches(g, RUSSIAN)]
    written = [g.index for g in games
               if [p.record.text.lower() for p in g.moves.plies[:3]]
               == ["c3-d4", "f6-g5", "b2-c3"]]
    assert found == written and len(found) > 30


# ---- dedupe ------------------------------------------------------------------------------

DUPLICATES = """\
[Event "Open"]
[White "Ivanov, Andrei"]
[Black "Petrov, B."]
[Date "1990.05.??"]
[Result "1-0"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 {a good capture} 1-0

[White "A. Ivanov"]
[Black "PETROV B."]
[GameType "25"]
1. cd4 fg5 2. dc5 b:d4 3. e:c5 d:b4 4. a:c5 *

[White "Ivanov"]
[Black "Petrov"]
[Date "1990.05.17"]
[GameType "25"]
1. 22-18 11-16 2. 18-14 9x18 3. 23x14 10x17 4. 21x14 1-0

[White "Sidorov, C."]
[Black "Petrov, B."]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 1-0

[White "Ivanov, A."]
[Black "Petrov, B."]
[Date "1991.01.01"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 3. e3:c5 d6:b4 4. a3:c5 1-0
"""

INTERNATIONAL_DUPLICATES = """\
[GameType "20"]
[White "Sijbrands, T."]
1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 2-0

[GameType "20"]
[White "T. Sijbrands"]
{the same game with full capture paths}
1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 1-0
"""


def report_groups(path: Path, section: str = "copies") -> list[list[tuple[str, str, str]]]:
    """The groups of one section of dedupe's report: (game, kept, folder/file) per row."""
    groups: dict[str, list] = {}
    with open(path, newline="", encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            if row["section"] != section:
                continue
            file = Path(row["file"])
            groups.setdefault(row["group"], []).append((row["game"], row["kept"],
                                                        f"{file.parent.name}/{file.name}"))
    return list(groups.values())


def test_dedupe_groups_copies_in_other_notations_and_spellings(tmp_path):
    """Alphanumeric, short and numeric records of one Russian game are one game; another
    White is another game, and so is the 1991 game (by default the dates are compared:
    --by game), which --by moves+players takes for a copy."""
    source = write(tmp_path, DUPLICATES)
    other = write(tmp_path, INTERNATIONAL_DUPLICATES, "intl.pdn")
    out, report = tmp_path / "out.pdn", tmp_path / "report.csv"
    games = f"{tmp_path.name}/games.pdn"
    output = run("dedupe", source, other, "-o", str(out), "--report", str(report))
    assert report_groups(report) == [
        [("1", "yes", games), ("2", "no", games), ("3", "no", games)],
        [("1", "no", f"{tmp_path.name}/intl.pdn"), ("2", "yes", f"{tmp_path.name}/intl.pdn")]]
    # the line of moves three different games played: each game's kept copy, listed
    assert report_groups(report, "same moves, different games") == [
        [("1", "yes", games), ("4", "yes", games), ("5", "yes", games)]]
    assert "1 line of moves played by different games, all kept" in output
    kept = list(read_games(out))
    assert [g.tags.get("White") for g in kept] == ["Ivanov, Andrei", "Sidorov, C.",
                                                    "Ivanov, A.", "T. Sijbrands"]
    # By hand from DUPLICATES: all five games play the same moves; games 1-3 are Ivanov v
    # Petrov with dates 1990.05.??, none and 1990.05.17 (which fit together), game 4 has
    # another White, game 5 is dated 1991.
    run("dedupe", source, "-o", str(out), "--report", str(report), "--by", "moves+players")
    assert report_groups(report) == [[("1", "yes", games), ("2", "no", games),
                                      ("3", "no", games), ("5", "no", games)]]
    run("dedupe", source, "-o", str(out), "--report", str(report), "--by",
        "moves+players+date")
    assert report_groups(report) == [[("1", "yes", games), ("2", "no", games),
                                      ("3", "no", games)]]
    run("dedupe", source, "-o", str(out), "--report", str(report), "--by", "moves")
    assert [[game for game, _, _ in group] for group in report_groups(report)] == [
        ["1", "2", "3", "4", "5"]]


def test_dedupe_finds_the_copies_of_the_official_corpus_in_games_checkers(shared_data,
                                                                          tmp_path):
    """README of the data: tests/wiegerw_pdn/succeed repeats games of games-checkers/internt
    (candidate95, DUTCH96H, PROF2, wk2003, nk2003-amsterdam)."""
    report = tmp_path / "report.csv"
    run("dedupe", str(shared_data / "tests/wiegerw_pdn/succeed"),
        str(shared_data / "games-checkers/internt"), "-o", str(tmp_path / "out.pdn"),
        "--report", str(report), "--variant", "international", code=1)
    across: Counter[str] = Counter()  # copies in groups that span both archives, per file
    for group in report_groups(report):
        if len({name.split("/")[0] for _, _, name in group}) > 1:
            across.update(name.lower() for _, _, name in group)
    # Checked by hand: `grep -c '^\[White'` counts 8, 13, 16, 23 and 33 games in the succeed
    # files, each also in internt (same movetext, compared with a regex over the moves),
    # except the 4th of PROF2, whose internt copy writes "9n 32x41" (unreadable, so no copy),
    # and the 33rd of nk2003-amsterdam, which is cut off after its tags (no moves to match).
    for name, games in (("candidate95", 8), ("dutch96h", 13), ("prof2", 15), ("wk2003", 23),
                        ("nk2003-amsterdam", 32)):
        assert across[f"succeed/{name}.pdn"] == games, name
        assert across[f"internt/{name}.pdn"] == games, name


# ---- split and merge ---------------------------------------------------------------------


def test_split_by_event_and_count_then_merge_back(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    parts = tmp_path / "parts"
    run("split", source, "-o", str(parts), "--by", "event", code=1)
    names = sorted(p.name for p in parts.iterdir())
    assert names == ["Broken.pdn", "Cup_1990.pdn", "Cup_1995.pdn", "Cup_2001.pdn"]
    run("split", source, "-o", str(tmp_path / "slices"), "--by", "count:3", code=1)
    assert sorted(p.name for p in (tmp_path / "slices").iterdir()) == ["0001.pdn", "0002.pdn"]
    merged = tmp_path / "merged.pdn"
    run("merge", str(tmp_path / "slices"), "-o", str(merged), code=1)
    assert [g.tags.get("Event") for g in read_games(merged)] == [
        "Cup 1990", "Cup 1995", "Broken", "Cup 2001"]


def test_split_by_player_puts_a_game_in_both_players_files(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    run("split", source, "-o", str(tmp_path / "p"), "--by", "player", code=1)
    petrov = (tmp_path / "p" / "Petrov_B.pdn").read_text()
    assert petrov.count("[Event ") == 2


# ---- clean -------------------------------------------------------------------------------


def test_clean_reports_every_change_and_strips_what_is_asked(tmp_path):
    source = write(tmp_path, "{a file header, not a game}\n" + DUPLICATES.replace(
        "{a good capture}", "{a good capture} $1"))
    out, changes = tmp_path / "out.pdn", tmp_path / "changes.txt"
    run("clean", source, "-o", str(out), "--strip", "comments,nags", "--changes", str(changes))
    games = list(read_games(out))
    assert games[0].tags["Date"] == "1990.05.??" and games[1].tags["White"] == "Ivanov, A."
    assert games[0].tags["GameType"] == "25,W,8,8,A0,0" and games[0].result == "1-0"
    assert not any(p.comments or p.nags for g in games for p in g.moves.plies)
    log = changes.read_text()
    assert "removed text between games: {a file header, not a game}" in log
    assert "Black 'PETROV B.' → 'Petrov, B.'" in log


def test_clean_rewrites_moves_through_the_convert_engine(tmp_path):
    source = write(tmp_path, DUPLICATES)
    out = tmp_path / "out.pdn"
    run("clean", source, "-o", str(out), "--notation", "short")
    texts = [p.record.text for p in next(read_games(out)).moves.plies]
    assert texts[:4] == ["cd4", "fg5", "dc5", "b:d4"]


def test_clean_russian_archives_read_without_warnings_and_replay_alike(shared_data, tmp_path):
    """Acceptance: the cleaned Russian archives read without a single diagnostic and every
    game replays to the final position of its original."""
    source = shared_data / "games-checkers/russian"
    out, rejects = tmp_path / "clean.pdn", tmp_path / "rejects.pdn"
    run("clean", str(source), "-o", str(out), "--rejects", str(rejects), "--changes",
        str(tmp_path / "changes.txt"))
    cleaned = list(read_games(out))
    assert not [d for g in cleaned for d in g.diagnostics]
    originals = [g for path in sorted(source.glob("*.pdn")) for g in read_games(path)]
    assert len(originals) == len(cleaned) and len(cleaned) > 600
    for original, game in zip(originals, cleaned, strict=True):
        assert replay_game(game, RUSSIAN).final == replay_game(original, RUSSIAN).final
    # Every Russian game reads (its only reading errors are 110 lost moves written '-'), so
    # clean has nothing to set aside as unreadable.
    assert {d.code for g in originals for d in g.errors} == {"lost-move"}
    assert rejects.read_text() == ""


@pytest.mark.parametrize("variant", [ENGLISH])
def test_material_at_the_end_matches_the_final_position(variant):
    game = next(read_games("1. 11-15 23-19 2. 8-11 22-17 *"))
    assert Criteria(material=MaterialTest.parse("W:12M B:12M")).matches(game, variant)
    assert not Criteria(material=MaterialTest.parse("W:11M")).matches(game, variant)


@pytest.mark.parametrize(("text", "parts"), [
    ("", (None, None, None)), ("?", (None, None, None)), ("0000.00.00", (None, None, None)),
    ("1999.13.40", (1999, None, None)), ("2001.02.31", (2001, 2, 31)),
    ("\u0662\u0660\u0660\u0661.01.01", (None, 1, 1)),  # a year in Arabic-Indic digits
    ("1990.\u0661\u0662.05", (1990, None, None)), ("Sept 3, 1905", (1905, None, None)),
    ("3 Foo 1905", (1905, None, None)), ("abc 1850 x", (1850, None, None)),
    (" 1990 . 5 . 6 ", (1990, 5, 6)), ("1990.5", (1990, 5, None)),
    ("June 1995", (1995, 6, None)), ("??.??.1980", (1980, None, None)),
    ("1980.??.12", (1980, None, None)), ("1600-1700", (1600, None, None)),
    ("1-2 June 2002", (2002, 6, 1)), ("13-01-1996", (1996, 1, 13)),
])
def test_a_date_is_read_alike_by_archive_tools_and_the_games_table(text, parts):
    """One reader of Date tags: ``date_parts_plain`` (dedupe's, which loads no pandas) and
    the games table's ``date_parts`` give the same parts, digits other than ASCII's unread."""
    import pandas as pd

    from replay.archive.tags import date_parts_many, date_parts_plain
    from replay.stats.tables import date_parts

    assert date_parts_plain(text) == parts
    assert date_parts_many([text, None]) == [parts, (None, None, None)]
    frame = date_parts(pd.Series([text], dtype="string"))
    read = tuple(None if value is pd.NA else value
                 for value in frame[["year", "month", "day"]].astype(object).iloc[0])
    assert read == parts
