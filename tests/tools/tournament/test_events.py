"""Micro-matches and their checks, knockout brackets, team events and time controls
(``replay.tournament``, ``pdn standings``; docs/tournaments.md).

The 1998 Russian world championship (``games-checkers/russian/World_Championship_1998.pdn``)
is a real micro-match event: 16 players, micro-matches of 4 games numbered ``Round "N.k"``;
its micro-match scores and ballots are checked against the file read as plain text here.
The knockout and the team event are small generated events whose tables were worked out by
hand (in the comments beside them).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.tournament import read_event
from replay.tournament.checks import check_micro_matches, opening_plies
from replay.tournament.knockout import bracket
from replay.tournament.micromatch import match_standings, micro_matches
from replay.tournament.pages import standings_html
from replay.tournament.report import event_report, has_micro_matches
from replay.tournament.report_pages import report_html, report_json
from replay.tournament.tables import standings
from replay.tournament.teams import (
    TeamError,
    read_teams,
    scheveningen,
    team_matches,
    team_standings,
    teams_from_tags,
)
from replay.tournament.timecontrol import (
    TimeControlError,
    flag_fall,
    parse_time_control,
)

runner = CliRunner()
RUSSIAN1998 = Path("games-checkers/russian/World_Championship_1998.pdn")
WK2024 = Path("international/brunogui/World Title Match Women 2024.pdn")
SAME = {"Goryunov": "Gorunov", "Skrabov": "Scrabov", "Mokrovich": "Mocrovich"}
POINTS = {"1/2:1/2": (1, 1), "1:0": (2, 0), "0:1": (0, 2)}


def plain_records(path: Path) -> list[dict[str, str]]:
    """Each game of the file as its tags and its first three moves, read as plain text."""
    records: list[dict[str, str]] = []
    for line in path.read_text(encoding="latin-1").splitlines():
        tag = re.match(r'\[(\w+) "([^"]*)"?\]', line.strip())  # '[Round "11.1]' too
        if tag:
            if tag[1] == "Event":
                records.append({})
            records[-1][tag[1]] = SAME.get(tag[2].strip(), tag[2].strip())
        elif line.strip() and "moves" not in records[-1]:
            tokens = [t for t in line.split() if not t.endswith(".")]
            records[-1]["moves"] = " ".join(tokens[:3])
    return records


@pytest.fixture(scope="module")
def wc1998(shared_data):
    games = list(read_games(shared_data / RUSSIAN1998))
    return games, read_event(games, same=SAME)


def test_the_1998_micro_matches_score_the_sum_of_their_games_read_independently(
        wc1998, shared_data):
    games, event = wc1998
    assert has_micro_matches(event)
    records = plain_records(shared_data / RUSSIAN1998)
    assert len(records) == len(games) == 460
    expected: dict[tuple[str, frozenset[str]], dict[str, int]] = defaultdict(
        lambda: defaultdict(int))
    for record in records:
        white_points, black_points = POINTS[record["Result"]]
        key = (record["Round"].split(".")[0], frozenset((record["White"], record["Black"])))
        expected[key][record["White"]] += white_points
        expected[key][record["Black"]] += black_points
    matches = micro_matches(event)
    assert len(matches) == len(expected) == 115
    assert {len(m.games) for m in matches} == {4}
    for match in matches:
        scores = expected[(match.round, frozenset((match.first, match.second)))]
        assert match.score == (scores[match.first], scores[match.second])
    # the standings by micro-matches from the same plain reading: 2 a won micro-match, 1 drawn
    match_points: dict[str, int] = defaultdict(int)
    game_points: dict[str, int] = defaultdict(int)
    for scores in expected.values():
        (a, x), (b, y) = scores.items()
        match_points[a] += 2 if x > y else 1 if x == y else 0
        match_points[b] += 2 if y > x else 1 if x == y else 0
        game_points[a] += x
        game_points[b] += y
    rows = match_standings(event, matches)
    assert {r.player: (r.match_points, r.game_points) for r in rows} == {
        p: (match_points[p], game_points[p]) for p in match_points}
    assert [r.player for r in rows[:2]] == ["Langin", "Amrilloev"]  # 22 and 21 points
    assert rows[1].place == rows[2].place == "2-3"  # Amrilloev, Mocrovich: 21, 63, 7 won


def test_the_1998_ballot_check_names_every_break_the_plain_text_shows(wc1998, shared_data):
    """Each micro-match's games 1-2 and 3-4 should start from one ballot with the colours
    swapped: a break is a pair whose first three moves differ in the file's own short
    notation (``ed4 dc5 fe3``)."""
    games, event = wc1998
    records = plain_records(shared_data / RUSSIAN1998)
    openings = {number: opening_plies(game) for number, game in enumerate(games, 1)}
    assert all(openings[n] for n in openings)  # every one of the 460 games replays its start
    matches = micro_matches(event)
    breaks = check_micro_matches(matches, openings, declared=4)
    broken = {b.games for b in breaks}
    expected = set()
    for match in matches:
        numbers = [g.number for g in match.games]
        for k in (0, 2):
            one, two = numbers[k], numbers[k + 1]
            if records[one - 1]["moves"] != records[two - 1]["moves"]:
                expected.add((one, two))
    assert broken == expected and len(broken) == 209  # of the 230 pairs of games
    assert all(b.what.startswith("not the same ballot") for b in breaks)
    first = breaks[0]
    assert str(first) == ("round 1, Yumshanov - Guba (games 1, 2): not the same ballot: "
                          "e3-d4 d6-c5 f2-e3 (not in the FMJD-64 table) against "
                          "c3-d4 f6-g5 b2-c3")


def test_the_1998_report_names_the_five_micro_matches_not_in_the_file(wc1998):
    games, event = wc1998
    report = event_report(event, games)
    assert report.declared == 4 and len(report.matches) == 115
    assert report.never_met == [
        ("Abdullaev", "Gorunov"), ("Abdullaev", "Smaidris"), ("Alshanetsky", "Guba"),
        ("Amrilloev", "Mocrovich"), ("Guba", "Maksimchuck")]
    document = report_json(report)["micro_matches"]
    assert document["breaks"] == [] and len(document["not_played"]) == 5
    assert document["ballots"]["checked"] is False  # not played on ballots: not checked
    declared = event_report(event, games, ballots=True)  # the arbiter says it was
    document = report_json(declared)["micro_matches"]
    assert len(document["breaks"]) == 209 and document["break_counts"] == {"ballot": 209}
    page = report_html(declared)
    assert page.count("<li>") == 209 and "Amrilloev - Mocrovich" in page


def test_the_checks_name_a_table_ballot_and_report_counts_colours_and_ballots():
    pdn = ('[GameType "25"][White "Ann"][Black "Bob"][Round "1.1"][Result "1-0"]'
           " 1. ab4 ba5 2. ba3 ab6 3. ab2 dc5 *\n"
           '[GameType "25"][White "Bob"][Black "Ann"][Round "1.2"][Result "1/2-1/2"]'
           " 1. ab4 ba5 2. ba3 ab6 3. ab2 dc5 *\n"
           '[GameType "25"][White "Bob"][Black "Ann"][Round "1.3"][Result "1/2-1/2"]'
           " 1. cd4 ba5 *\n")
    games = list(read_games(pdn))
    event = read_event(games)
    openings = {n: opening_plies(g) for n, g in enumerate(games, 1)}
    report = event_report(event, games, micro_match=4)
    assert report.ballots == {1: "1-I", 2: "1-I", 3: None}
    assert [str(b) for b in check_micro_matches(micro_matches(event), openings, 4)] == [
        "round 1, Ann - Bob (games 1, 2, 3): 3 game(s), 4 declared",
        "round 1, Ann - Bob (games 2, 3): the colours are not swapped"]
    # Ann won 2-0 and drew twice: 4 points to 2 (the 2-1-0 scoring of Russian draughts)
    assert micro_matches(event)[0].score == (4, 2)


def test_micro_matches_without_round_tags_are_the_runs_of_consecutive_games():
    def event(results):
        return read_event(read_games("".join(
            f'[White "{w}"][Black "{b}"][Result "{x}"] 1. 32-28 *\n' for w, b, x in results)))

    runs = event([("Ann", "Bob", "2-0"), ("Bob", "Ann", "1-1"),
                  ("Cas", "Dan", "0-2"), ("Dan", "Cas", "0-2")])
    assert has_micro_matches(runs)
    assert [(m.first, m.second, m.score) for m in micro_matches(runs)] == [
        ("Ann", "Bob", (3, 1)), ("Cas", "Dan", (2, 2))]
    # colours not swapped, or a lone pair (a match), or runs of one game: not micro-matches
    assert not has_micro_matches(event([("Ann", "Bob", "2-0"), ("Ann", "Bob", "1-1"),
                                        ("Cas", "Dan", "0-2"), ("Dan", "Cas", "0-2")]))
    assert not has_micro_matches(event([("Ann", "Bob", "2-0"), ("Bob", "Ann", "1-1")]))
    assert not has_micro_matches(event([("Ann", "Bob", "2-0"), ("Cas", "Dan", "1-1")]))


# A knockout of four players, micro-matches of 2 games; worked out by hand:
# round 1: Ann - Bob 2-0, 1-1 (Ann 3-1, through); Cas - Dan 1-1, 1-1 (2-2, tied), the
#   continuation 1.3 Cas - Dan 1-1, 1.4 Dan - Cas 0-2: Cas wins it 3-1 and goes through,
#   decided in game 6 (after 1.3 at 1-1 Dan could still draw level; after 1.4 not);
# round 2 (the final): Ann - Cas 1-1, Cas - Ann 2-0: Cas 3-1, wins the event.
KNOCKOUT = "".join(
    f'[White "{w}"][Black "{b}"][Round "{r}"][Result "{res}"] 1. 32-28 *\n' for w, b, r, res in (
        ("Ann", "Bob", "1.1", "2-0"), ("Bob", "Ann", "1.2", "1-1"),
        ("Cas", "Dan", "1.1", "1-1"), ("Dan", "Cas", "1.2", "1-1"),
        ("Cas", "Dan", "1.3", "1-1"), ("Dan", "Cas", "1.4", "0-2"),
        ("Ann", "Cas", "2.1", "1-1"), ("Cas", "Ann", "2.2", "2-0")))


def test_a_knockout_bracket_by_hand():
    event = read_event(read_games(KNOCKOUT))
    rounds = bracket(event, 2)
    assert [r.name for r in rounds] == ["1", "2"]
    shown = [(t.first, t.second, t.score, t.winner, t.why()) for r in rounds for t in r.ties]
    assert shown == [("Ann", "Bob", (3, 1), "Ann", "won the micro-match"),
                     ("Cas", "Dan", (5, 3), "Cas", "tie-break: game 6"),
                     ("Ann", "Cas", (1, 3), "Cas", "won the micro-match")]
    assert all(not r.problems for r in rounds)


def test_a_knockout_names_a_loser_who_plays_on_and_a_winner_who_does_not():
    text = KNOCKOUT.replace('[White "Ann"][Black "Cas"][Round "2.1"]',
                            '[White "Bob"][Black "Cas"][Round "2.1"]')
    rounds = bracket(read_event(read_games(text)), 2)
    assert "Bob lost in round 1 but plays round 2" in rounds[1].problems
    assert not any("Ann won" in p for p in rounds[1].problems)  # Ann still plays game 2.2


# A Scheveningen match of two teams of two, two rounds; by hand:
# round 1: Ann (North) - Cas (South) 2-0, Dan (South) - Bob (North) 1-1: North 3-1, wins;
# round 2: Ann - Dan 0-2, Cas - Bob 1-1: North 1-3, loses.
# North: 2 match points (won, lost), 4 board points; South: 2 and 4 too: places 1-2.
TEAMS = "".join(
    f'[White "{w}"][Black "{b}"][WhiteTeam "{wt}"][BlackTeam "{bt}"][Round "{r}"]'
    f'[Result "{res}"] 1. 32-28 *\n' for w, b, wt, bt, r, res in (
        ("Ann", "Cas", "North", "South", "1.1", "2-0"),
        ("Dan", "Bob", "South", "North", "1.2", "1-1"),
        ("Ann", "Dan", "North", "South", "2.1", "0-2"),
        ("Cas", "Bob", "South", "North", "2.2", "1-1")))


def test_a_team_event_by_hand():
    games = list(read_games(TEAMS))
    event = read_event(games)
    teams = teams_from_tags(event, games)
    assert teams == {"Ann": "North", "Bob": "North", "Cas": "South", "Dan": "South"}
    matches = team_matches(event, teams)
    assert [(m.round, m.teams, m.board_points) for m in matches] == [
        ("1", ("North", "South"), (3, 1)), ("2", ("North", "South"), (1, 3))]
    rows = team_standings(matches, teams)
    assert [(r.place, r.team, r.match_points, r.board_points, r.won, r.lost) for r in rows] == [
        ("1-2", "North", 2, 4, 1, 1), ("1-2", "South", 2, 4, 1, 1)]
    players, opponents, cells = scheveningen(event, teams, "North", "South")
    assert (players, opponents) == (["Ann", "Bob"], ["Cas", "Dan"])
    assert cells == [[[2], [0]], [[1], [1]]]


def test_a_team_file_gives_the_teams_and_a_bad_line_is_named(tmp_path):
    event = read_event(read_games(TEAMS.replace("Team", "Club")))
    path = tmp_path / "teams.txt"
    path.write_text("# the clubs\nAnn = North\nBob = North\nCas = South\nDan = South\n",
                    encoding="utf-8")
    assert read_teams(path, event) == {"Ann": "North", "Bob": "North", "Cas": "South",
                                       "Dan": "South"}
    path.write_text("Ann = North\nEve = South\n", encoding="utf-8")
    with pytest.raises(TeamError, match=r"teams.txt, line 2: 'Eve' names no player"):
        read_teams(path, event)


@pytest.mark.parametrize(("text", "read"), [
    ("40/7200:3600", "40 moves in 120 min, then 60 min to the end"),
    ("600+5", "10 min to the end + 5 s a move"),
    ("45/5400:30/1800", "45 moves in 90 min, then 30 moves in 30 min (repeated)"),
    ("50/7200:25/3600", "50 moves in 120 min, then 25 moves in 60 min (repeated)"),
    ("20/2700:900", "20 moves in 45 min, then 15 min to the end"),
    ("1800+30", "30 min to the end + 30 s a move"),
    ("*180", "sandglass 3 min"),
    ("?", "unknown"),
    ("-", "no time control"),
])
def test_time_controls_in_the_forms_real_files_and_the_regulations_use(text, read):
    assert str(parse_time_control(text)) == read


@pytest.mark.parametrize("text", ["40 moves in 2 hours", "600:40/7200", "3/+5", "*60+1"])
def test_a_time_control_in_another_form_is_an_error(text):
    with pytest.raises(TimeControlError, match="TimeControl"):
        parse_time_control(text)


def test_the_2024_title_match_shows_a_flag_fall_under_a_drawn_result(shared_data):
    """The lidraughts broadcast of the first game gives Black's clock as 0:00:00 after
    White's 67th move; the game is recorded drawn (1-1): flagged for the arbiter."""
    game = next(iter(read_games(shared_data / WK2024)))
    fall = flag_fall(game, 1, "draw")
    assert fall is not None and (fall.move, fall.white, fall.contradicted) == (67, False, True)
    assert str(fall) == ("game 1: Black's flag fell at move 67... (clock 0:00); the result 1-1 "
                         "is not Black's loss")
    games = list(read_games(shared_data / WK2024))
    report = event_report(read_event(games), games)
    assert [(f.game, f.move, f.contradicted) for f in report.flag_falls] == [
        (1, 67, True), (2, 61, True)]
    assert report_html(report).count("<li class=incomplete>game ") == 2  # red on the page


def test_the_1998_standings_say_in_one_line_why_the_ballots_were_not_checked(shared_data):
    """The event was most likely not played on drawn ballots (docs/tournaments.md): 21 of
    its 230 pairs of games start with the same three moves in the file's own notation, read
    as plain text here; the ballot check does not run, and one line says why."""
    records = plain_records(shared_data / RUSSIAN1998)
    pairs = [(records[k], records[k + 1]) for k in range(0, len(records), 2)]
    alike = sum(one["moves"] == two["moves"] for one, two in pairs)
    assert (len(pairs), alike) == (230, 21)
    path = str(shared_data / RUSSIAN1998)
    same = [x for k, v in SAME.items() for x in ("--same", f"{k}={v}")]
    shown = runner.invoke(app, ["standings", path, *same], env={"COLUMNS": "400"})
    assert shown.exit_code == 0 and "not the same ballot" not in shown.output
    lines = shown.output.splitlines()
    assert ("Arbiter's checks: no break of the micro-match rules (games as declared, colours "
            "swapped)") in lines
    assert ("Ballots not checked: the event was most likely not played on drawn ballots (2 of "
            "460 games start from a ballot of the FMJD Drawing Table 64; 21 of 230 pairs of "
            "games start with the same 3 moves); --ballots checks them all the same.") in lines
    declared = runner.invoke(app, ["standings", path, *same, "--ballots"], env={"COLUMNS": "400"})
    lines = declared.output.splitlines()
    assert ("Arbiter's checks: 209 break(s) of the micro-match rules (games as declared, "
            "colours swapped, each pair of games from one ballot): 209 not the same ballot"
            ) in lines
    assert sum("not the same ballot:" in line for line in lines) == 5
    assert any(line.startswith("  ... 204 more: --all-breaks") for line in lines)
    every = runner.invoke(app, ["standings", path, *same, "--ballots", "--all-breaks"],
                          env={"COLUMNS": "400"})
    assert sum("not the same ballot:" in line for line in every.output.splitlines()) == 209


ON_BALLOTS = "".join(
    f'[GameType "25"][White "{w}"][Black "{b}"][Round "{r}"][Result "1/2-1/2"] {moves} *\n'
    for w, b, r, moves in [
        ("Ann", "Bob", "1.1", "1. ab4 ba5 2. ba3 ab6"), ("Bob", "Ann", "1.2", "1. ab4 ba5 2. ba3"),
        ("Cas", "Dan", "1.1", "1. ab4 ba5 2. ba3 ab6"), ("Dan", "Cas", "1.2", "1. ab4 ba5 2. ba3"),
        ("Ann", "Cas", "2.1", "1. ab4 ba5 2. ba3 ab6"), ("Cas", "Ann", "2.2", "1. cd4 ba5")])


def test_an_event_whose_games_show_ballots_is_checked_for_them():
    """Two of its three pairs of games start alike: the games show drawn ballots, so the
    check runs and names the third pair; the arbiter's --no-ballots turns it off."""
    games = list(read_games(ON_BALLOTS))
    report = event_report(read_event(games), games)
    assert report.ballots_checked and str(report.ballot_evidence).endswith(
        "2 of 3 pairs of games start with the same 3 moves")
    assert [(b.kind, b.games) for b in report.breaks] == [("ballot", (5, 6))]
    assert report_json(report)["micro_matches"]["break_counts"] == {"ballot": 1}
    off = event_report(read_event(games), games, ballots=False)
    assert off.breaks == [] and not off.ballots_checked
    assert report_json(off)["micro_matches"]["ballots"]["why"].startswith(
        "Ballots not checked: the event was declared not played on drawn ballots")


@pytest.mark.parametrize(("result", "outcome", "contradicted"), [
    ("0-2", "black", False), ("2-0", "white", True), ("1-1", "draw", True)])
def test_a_flag_fall_of_white_against_each_result(result, outcome, contradicted):
    game = next(iter(read_games(
        f'[TimeControl "60+0"][Result "{result}"] 1. 32-28 {{[%clk 0:00:10]}} '
        f"19-23 {{[%clk 0:00:20]}} 2. 28x19 {{[%clk 0:00:00]}} 14x23 {result}")))
    fall = flag_fall(game, 1, outcome)
    assert (fall.move, fall.white, fall.contradicted) == (2, True, contradicted)


def test_the_standings_command_writes_the_new_tables(shared_data, tmp_path):
    page, document = tmp_path / "wc.html", tmp_path / "wc.json"
    arguments = ["standings", str(shared_data / RUSSIAN1998),
                 *(x for k, v in SAME.items() for x in ("--same", f"{k}={v}"))]
    assert runner.invoke(app, [*arguments, "-o", str(page)]).exit_code == 0
    html = page.read_text(encoding="utf-8")
    for section in ("micro-match-standings", "micro-match-table", "not-played", "ballot-check"):
        assert f'id="{section}"' in html
    assert runner.invoke(app, [*arguments, "-o", str(document)]).exit_code == 0
    data = json.loads(document.read_text(encoding="utf-8"))
    assert data["micro_matches"]["games_each"] == 4
    assert len(data["micro_matches"]["matches"]) == 115


def test_the_standings_command_knockout_and_team_file(tmp_path):
    games = tmp_path / "ko.pdn"
    games.write_text(KNOCKOUT, encoding="utf-8")
    shown = runner.invoke(app, ["standings", str(games), "--knockout", "--micro-match", "2"])
    assert shown.exit_code == 0 and "tie-break: game 6" in shown.output
    teams = tmp_path / "teams.txt"
    teams.write_text("Ann = North\nZed = South\n", encoding="utf-8")
    bad = runner.invoke(app, ["standings", str(games), "--team", str(teams)])
    assert bad.exit_code == 2 and "line 2: 'Zed' names no player" in bad.output
    teams.write_bytes("Ann = Nörth\n".encode("latin-1"))
    bad = runner.invoke(app, ["standings", str(games), "--team", str(teams)])
    assert bad.exit_code == 2 and "not UTF-8 text (byte 7)" in bad.output
    missing = runner.invoke(app, ["standings", str(games), "--team", str(tmp_path / "no")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_an_event_without_micro_matches_teams_or_clocks_keeps_its_page(archive, shared_data):
    games = archive(shared_data / Path("international/fmjd_wk2007_all_games.pdn"))
    event = read_event(games)
    report = event_report(event, games)
    assert not (report.matches or report.teams or report.knockout or report.time_controls
                or report.flag_falls)
    assert report_html(report) == "" and report_json(report) == {}


SHOWN = """
const table = (id) => document.getElementById(id);
const visible = (id) => { const box = table(id).getBoundingClientRect();
  return box.width > 0 && box.height > 0; };
return {page: [document.documentElement.scrollWidth, window.innerWidth],
        ids: arguments[0].filter(visible),
        rows: Object.fromEntries(arguments[0].map((id) => [id,
          table(id).querySelectorAll('tbody tr, li').length]))};
"""


@pytest.mark.parametrize("width", [1280, 400])
def test_the_pages_show_the_new_tables_in_chromium(browser, wc1998, tmp_path, width):
    """At a desktop's width and a phone's, the 1998 page shows the micro-match tables (115
    micro-matches, 16 players, 209 breaks of the ballot check it is declared played on) and
    the generated events their bracket and team tables, the page never wider than the
    window (wide tables scroll in their own box)."""
    games, event = wc1998
    cup, olympiad = list(read_games(KNOCKOUT)), list(read_games(TEAMS))
    pages = {
        "wc1998": (standings_html(standings(event), report_html(event_report(
            event, games, ballots=True))),
                   {"micro-match-standings": 16, "micro-match-table": 115, "breaks": 209}),
        "cup": (standings_html(standings(read_event(cup)), report_html(event_report(
            read_event(cup), cup, micro_match=2, knockout=True))), {"bracket": 3}),
        "olympiad": (standings_html(standings(read_event(olympiad)), report_html(event_report(
            read_event(olympiad), olympiad))), {"team-standings": 2, "team-matches": 2}),
    }
    browser.resize(width, 900)
    for name, (html, rows) in pages.items():
        page = tmp_path / f"{name}.html"
        page.write_text(html, encoding="utf-8")
        browser.open(page.resolve().as_uri())
        shown = browser.run(SHOWN.replace("arguments[0]", json.dumps(list(rows))))
        assert shown["ids"] == list(rows) and shown["rows"] == rows
        assert shown["page"][0] <= shown["page"][1]
