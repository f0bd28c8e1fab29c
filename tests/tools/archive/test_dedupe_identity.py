"""pdn dedupe's rule of identity: a duplicate is the same game recorded twice, not two games
of the same moves (docs/archive.md, "Which records are one game"), on the real archives."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from pdn.writer import format_move
from replay.archive import identity
from replay.archive.dedupe import Grouper, fingerprint
from replay.archive.identity import (
    BY_FIELDS,
    Facts,
    dates_compatible,
    facts_of,
    identify,
    names_compatible,
)
from replay.rules.variants import ENGLISH

runner = CliRunner()
OCA = Path("english") / "OCA_2.0.pdn"
ALIKE = "same moves, different games"


def dedupe(*args: str) -> str:
    result = runner.invoke(app, ["dedupe", *args])
    assert result.exit_code in (0, 1), result.output  # 1: a game the reader gave up on
    return result.output


def report(path: Path) -> dict[str, dict[str, list[dict[str, str]]]]:
    """The report's rows by section and group."""
    sections: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    with open(path, newline="", encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            sections[row["section"]][row["group"]].append(row)
    return sections


def moves_written(game) -> str:
    tokens = game.main_line_tokens()
    return " ".join(tokens if tokens is not None else
                    [format_move(ply.record) for ply in game.moves.plies])


def surname(name: str | None) -> str:
    return re.split(r"[\s,]", (name or "").strip())[0].casefold()


_GAME = re.compile(r"game\s*(\d+)\s*$", re.IGNORECASE)


def different_games(tags: list[dict[str, str]]) -> bool:
    """By the raw tags: some two records name different rounds, different game numbers at
    the end of the event's name, or different years."""
    def stated(values):
        known = [v for v in values if v]
        return len(set(known)) > 1

    years = [re.search(r"\d{4}", t.get("Date") or t.get("Event") or "") for t in tags]
    return (stated([(t.get("Round") or "").strip() for t in tags])
            or stated([m.group(1) if (m := _GAME.search(t.get("Event") or "")) else ""
                       for t in tags])
            or stated([y.group(0) if y else "" for y in years]))


def test_oca_different_games_of_one_match_are_kept_and_its_real_copies_removed(
        shared_data, tmp_path):
    """The 80 lines of moves that two or more OCA 2.0 records of the same players play
    (found here from the move texts, as the old rule of the same moves and players grouped
    them: 204 records): 41 are different games of one match or of different years
    (``Newcastle 1858, game 3``, ``game 17``, ``game 25``, ``game 35``: Way - Coltherd, the
    same 40 plies), all kept and listed; 39 are one game recorded twice (the 1891 Reed -
    Barker match as ``Chicago 1891`` and ``US Ch Match 1891, game N``; the 1937 Ryan - Banks
    games as ``Elizabeth 1937, game N`` and ``2nd Blindfold match 1937, game N``; six US
    National games entered with and without their game number), and their second copy
    removed."""
    games = list(read_games(shared_data / OCA))
    lines: dict[tuple, list[int]] = defaultdict(list)
    for number, game in enumerate(games, 1):
        lines[(moves_written(game), surname(game.tags.get("White")),
               surname(game.tags.get("Black")))].append(number)
    shared = [numbers for numbers in lines.values() if len(numbers) > 1]
    assert (len(shared), sum(map(len, shared))) == (80, 204)
    apart = [n for n in shared if different_games([games[i - 1].tags for i in n])]
    same = [n for n in shared if n not in apart]
    assert (len(apart), len(same)) == (41, 39)

    out, copies = tmp_path / "unique.pdn", tmp_path / "copies.csv"
    summary = dedupe(str(shared_data / OCA), "-o", str(out), "--report", str(copies))
    assert "39 groups of duplicates, 39 copies removed, 22,582 written" in summary
    found = report(copies)
    groups = [sorted(int(row["game"]) for row in rows) for rows in found["copies"].values()]
    assert sorted(groups) == sorted(same)
    listed = {int(row["game"]): group for group, rows in found[ALIKE].items() for row in rows}
    for numbers in apart:  # every game written, and listed with the others of its line
        assert len({listed[number] for number in numbers}) == 1, numbers
    written = {(g.tags.get("Event"), g.tags.get("White"), g.line) for g in read_games(out)}
    assert len(written) == 22582
    newcastle = found[ALIKE][str(listed[98])]
    assert [(row["event"], row["round"], row["kept"]) for row in newcastle] == [
        ("Newcastle 1858, game 3", "3", "yes"), ("Newcastle 1858, game 17", "17", "yes"),
        ("Newcastle 1858, game 25", "25", "yes"), ("Newcastle 1858, game 35", "35", "yes")]
    assert {row["differs"] for row in newcastle} == {"round game"}


def test_a_record_that_leaves_facts_out_is_a_copy_of_the_game_that_states_them(
        shared_data, tmp_path):
    """Cannes Open 2002 (games-checkers) records one game twice: once with its players,
    round, site and result, once with ``?`` for all of them and ``*``. Built from a real
    OCA game: the record without its Round, its event's game number and its Site, written
    on other lines without move numbers, is a copy; with another Round, another game."""
    cannes = shared_data / "games-checkers" / "internt" / "Cannes_Open_Tournament_2002.pdn"
    copies = tmp_path / "copies.csv"
    dedupe(str(cannes), "-o", str(tmp_path / "c.pdn"), "--report", str(copies),
           "--variant", "international")
    pairs = [[(row["white"], row["round"], row["result"]) for row in rows]
             for rows in report(copies)["copies"].values()]
    assert [("?", "?", "*"), ("Berçot", "1", "1-0")] in pairs

    game = list(read_games(shared_data / OCA))[97]  # Newcastle 1858, game 3
    assert game.tags["Round"] == "3"
    head = "".join(f'[{name} "{value}"]\n' for name, value in game.tags.items()
                   if name not in ("Round", "Site", "Event"))
    bare = head + '[Event "Newcastle 1858"]\n' + "\n".join(
        format_move(ply.record) for ply in game.moves.plies) + "\n*\n\n"
    other = bare.replace('[Event "Newcastle 1858"]', '[Event "Newcastle 1858"]\n[Round "4"]')
    original = (shared_data / OCA).read_text().split("\n\n")
    text = next(part for part in original if '"Newcastle 1858, game 3"' in part) + "\n\n"
    source = tmp_path / "three.pdn"
    source.write_text(text + bare + other, encoding="utf-8")
    dedupe(str(source), "-o", str(tmp_path / "u.pdn"), "--report", str(copies))
    found = report(copies)
    assert [[(r["game"], r["kept"]) for r in rows] for rows in found["copies"].values()] == [
        [("1", "yes"), ("2", "no")]]  # the original: a real result, more tags
    assert [[r["game"] for r in rows] for rows in found[ALIKE].values()] == [["1", "3"]]


def agree(a: Facts, b: Facts, by: str) -> bool:
    """The rule stated pair by pair, independently of ``identity.Profile``."""
    def rounds(x: str, y: str) -> bool:
        return all(p == q for p, q in zip(x.split("."), y.split("."), strict=False))

    checks = {"white": lambda: names_compatible(a.white, b.white),
              "black": lambda: names_compatible(a.black, b.black),
              "date": lambda: dates_compatible(a.date, b.date),
              "round": lambda: a.round is None or b.round is None or rounds(a.round, b.round)}
    for name in BY_FIELDS[by]:
        if name in checks:
            if not checks[name]():
                return False
        elif None not in (getattr(a, name), getattr(b, name)) and getattr(a, name) != getattr(
                b, name):
            return False
    return True


def pairwise(records: list[tuple[int, Facts]], by: str) -> list[list[int]]:
    """The reference: each record joins the first game every record of which it agrees
    with (what dedupe did, comparing each record with every copy of a game)."""
    games: list[list[tuple[int, Facts]]] = []
    for ordinal, facts in records:
        home = next((g for g in games if all(agree(facts, f, by) for _, f in g)), None)
        if home is None:
            games.append(home := [])
        home.append((ordinal, facts))
    return [[ordinal for ordinal, _ in game] for game in games]


@pytest.fixture(scope="module")
def shared_lines(shared_data) -> list[list[tuple[int, Facts]]]:
    """Every line of moves two or more records of OCA 2.0, tinsley.pdn and the official
    test set share, as (ordinal, facts) in reading order."""
    grouper = Grouper()
    ordinal = 0
    for name in (OCA, Path("english") / "tinsley.pdn", Path("tests") / "wiegerw_pdn"):
        paths = [shared_data / name] if name.suffix else sorted((shared_data / name).rglob(
            "*.pdn"))
        for path in paths:
            for game in read_games(path):
                if not game.errors:
                    grouper.add(ordinal, fingerprint(game, ENGLISH, scored=False))
                ordinal += 1
    return [[(o, found.facts) for o, found in line] for line in grouper.shared()]


@pytest.mark.parametrize("by", sorted(BY_FIELDS))
def test_one_profile_per_game_groups_as_comparing_every_copy(shared_lines, by):
    """``identify`` compares a record with one profile per game; on every line of moves
    two or more records of three archives share, it makes the games comparing the record
    with each copy makes."""
    assert len(shared_lines) > 300
    several = 0
    for records in shared_lines:
        made = identify(records, by)
        assert made == pairwise(records, by)
        several += len(made) > 1
    assert several > 50


def test_grouping_does_constant_work_per_game_whatever_the_size_of_its_group(monkeypatch):
    """Filing a game is one dictionary lookup (``Grouper.add``); telling a line's records
    apart compares a record's facts with games only when no record before it stated the
    same facts, and then only with the games that may agree (the same surname, year, round,
    game number, result or site, or none stated). So n copies of each of three games cost
    the same comparisons for n = 10 and n = 10,000 (each copy was compared with every copy
    before it), and 5,000 different games of one line, by different players, cost no
    comparison at all (each was compared with every game before it)."""
    calls = {"accepts": 0, "compared": 0}
    accepts, compared = identity.Profile.accepts, identity.compared

    def counting_accepts(self, other):
        calls["accepts"] += 1
        return accepts(self, other)

    def counting_compared(facts, by):
        calls["compared"] += 1
        return compared(facts, by)

    monkeypatch.setattr(identity.Profile, "accepts", counting_accepts)
    monkeypatch.setattr(identity, "compared", counting_compared)
    three = [facts_of({"Event": f"Match 1900, game {n}", "White": "Way, J."}) for n in (1, 2, 3)]
    spent = []
    for copies in (10, 10_000):
        calls.update(accepts=0, compared=0)
        records = [(i, three[i % 3]) for i in range(3 * copies)]
        games = identify(records, "game")
        assert [len(g) for g in games] == [copies] * 3
        assert calls["compared"] == 3 * copies  # one key per record
        spent.append(calls["accepts"])
    assert spent[0] == spent[1] <= 3

    calls.update(accepts=0)
    players = [(n, facts_of({"White": f"Player{n}, A.", "Black": f"Other{n}, B."}))
               for n in range(5000)]
    assert len(identify(players, "game")) == 5000
    assert calls["accepts"] == 0


def test_unknown_facts_agree_and_stated_ones_must(tmp_path):
    """The rule of ``replay.archive.identity`` fact by fact."""
    def same(a: dict, b: dict, by: str = "game") -> bool:
        return len(identify([(0, facts_of(a, ENGLISH)), (1, facts_of(b, ENGLISH))], by)) == 1

    assert same({"White": "Sijbrands, T."}, {"White": "T. Sijbrands", "Round": "5"})
    assert not same({"White": "Sijbrands, T."}, {"White": "Sijbrands, J."})
    assert same({"Round": "10"}, {"Round": "10.1"}) and not same({"Round": "10.1"},
                                                                 {"Round": "10.3"})
    assert same({"Round": "Ronde 07"}, {"Round": "7"}) and not same({"Round": "1"},
                                                                     {"Round": "10"})
    assert not same({"Event": "US National 1974"}, {"Event": "US National 1976, game 3"})
    assert same({"Event": "Chicago 1891"}, {"Event": "US Ch Match 1891, game 1"})
    assert not same({"Result": "1-0"}, {"Result": "0-1"}) and same({"Result": "1-0"},
                                                                   {"Result": "*"})
    assert not same({"Site": "Glasgow"}, {"Site": "Edinburgh"})
    assert same({"Site": "Glasgow"}, {"Site": "Edinburgh"}, "moves+players+date")
    assert not same({"Round": "3"}, {"Round": "17"}, "moves")
    assert same({"White": "Way"}, {"White": "Wyllie"}, "moves")
