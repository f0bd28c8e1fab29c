"""``pdn standings`` and ``replay.tournament`` on the real tournaments of ``../shared/data``.

The 2007 World Championship (Hardenberg, a 20-player round robin, FMJD scoring 2-1-0) is
recorded in ``international/fmjd_wk2007_all_games.pdn`` with two games as ``*``
(Valneris-Georgiev, Misans-Schwarzman), both of the second round, and without round numbers
(the 19 playing days of the Date tags are the rounds; two first-round games were played
later). The published facts used:

- Alexander Schwarzman won the 2007 world title in the Hardenberg tournament
  (https://wereldtiteldammen.nl/alexander-schwarzman/?lang=en).
- Mark Podolski's account of the event (https://damkunst.nl/en/analysis/podolski-domchev,
  2024): Chizhov beat Valneris in round 1 and Schwarzman in round 4, Georgiev beat Chizhov
  in round 7; "after 16 rounds ... Chizhov, Schwarzman, and I were at the top of the
  leaderboard, each with a score of +4"; Podolski then won two of his last three games
  (Domchev, Otgonbayar, Valneris), which "wasn't enough, as Schwarzman managed to defeat
  both Van den Akker and Thijssen in consecutive rounds". Schwarzman at +4 after 16 rounds
  means Misans-Schwarzman was drawn (a win would make +5, a loss +3), and then Podolski's 25
  points equal Schwarzman's: FMJD's first tie-break, the largest number of wins (the 2015
  World Championship regulations, http://wcdraughts.com/?page_id=244, rule 4a), puts
  Schwarzman (7 wins against 6) first, as published.
- Valneris-Georgiev was drawn: "Valneris,G. - Georgiev,A. 1-1 (2007.05.13)", in the
  round-2 analysis at https://10x10.org/analysis/2007/World-Championship-Hardenberg-2007-round-2.html.
- Schwarzman and Podolski finished level: "Het 'verschil' tussen Schwarzman en Podolski
  bedroeg namelijk niet één of twee maar nul punten" (Ton Sijbrands, de Volkskrant,
  https://mobile.volkskrant.nl/sport/schlemieligste-nummer-2-uit-wk-historie~bf850932/).
- Van den Akker "eindigde vorige jaar op het WK als twaalfde" (DamWeb, 2008,
  http://www.damweb.nl/tho/2008/index.php?page=simultaan).

The whole published final table (every player's points and place) was not found in the
sources at hand, so the test checks these facts, not every row.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import require
from hypothesis import given, settings
from hypothesis import strategies as st
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.record.replayer import normalise_result
from replay.rules.variants import INTERNATIONAL
from replay.tournament import (
    CorrectionError,
    crosstable,
    parse_correction,
    read_event,
    standings,
)
from replay.tournament.pages import standings_html

WC2007 = Path("international/fmjd_wk2007_all_games.pdn")
NK2003 = Path("games-checkers/internt/nk2003-amsterdam.pdn")
WC2003 = Path("games-checkers/internt/wk2003.pdn")
RUSSIAN1998 = Path("games-checkers/russian/World_Championship_1998.pdn")
# Valneris-Georgiev as published (10x10.org); Misans-Schwarzman as Podolski's account implies.
AS_PUBLISHED = ["Valneris - Georgiev=1-1", "Misans - Schwarzman=1-1"]


def independent_points(path: Path, win: float = 2, draw: float = 1) -> Counter[str]:
    """Each written name's points straight from the Result tags, read as plain text."""
    points: Counter[str] = Counter()
    white = black = None
    for line in path.read_text(encoding="latin-1").splitlines():
        tag, _, rest = line.strip().partition(" ")
        value = rest.strip().removesuffix("]").strip('"')
        if tag == "[White":
            white = value.strip()
        elif tag == "[Black":
            black = value.strip()
        elif tag == "[Result":
            outcome = normalise_result(value, INTERNATIONAL)
            points[white] += {"white": win, "draw": draw}.get(outcome, 0)
            points[black] += {"black": win, "draw": draw}.get(outcome, 0)
    return points


def test_the_2007_world_championship_says_it_is_incomplete_naming_the_two_open_games(
        archive, shared_data):
    result = standings(read_event(archive(shared_data / WC2007)))
    assert not result.complete
    assert [(p.white, p.black) for p in result.unfinished] == [
        ("Valneris, G.", "Georgiev, A."), ("Misans, R.", "Schwarzman, A.")]


def rounds_of(games) -> list[int]:
    """Each game's round in the 2007 file: its playing day's place in order, from 1."""
    days = sorted({game.tags["Date"] for game in games})
    return [days.index(game.tags["Date"]) + 1 for game in games]


def test_the_2007_file_agrees_with_podolskis_published_account(archive, shared_data):
    games = archive(shared_data / WC2007)
    rounds = rounds_of(games)
    decided = {(r, g.tags["White"], g.tags["Black"]): g.tags["Result"]
               for r, g in zip(rounds, games, strict=True)}
    assert decided[(1, "Tsjizjow,A.", "Valneris,G.")] == "1-0"
    assert decided[(4, "Schwarzman,A.", "Tsjizjow,A.")] == "0-1"
    assert decided[(7, "Tsjizjow,A.", "Georgiev,A.")] == "0-1"
    assert decided[(17, "Akker,van den,J.", "Schwarzman,A.")] == "0-1"
    assert decided[(18, "Schwarzman,A.", "Thijssen,K.")] == "1-0"
    podolski = [decided[key] for key in decided if key[0] >= 17 and "Podolski,M." in key]
    assert sorted(podolski) == ["0-1", "1-0", "1/2-1/2"]  # two wins (one with Black), a draw
    first_16 = [g for r, g in zip(rounds, games, strict=True) if r <= 16]
    after = standings(read_event(first_16, corrections=[parse_correction(AS_PUBLISHED[1])]))
    plus = {row.player: row.wins - row.losses for row in after.rows}
    leaders = sorted(player for player, score in plus.items() if score == max(plus.values()))
    assert leaders == ["Podolski, M.", "Schwarzman, A.", "Tsjizjow, A."] and max(
        plus.values()) == 4


def test_the_2007_world_championship_with_the_open_games_given_as_published(archive, shared_data):
    event = read_event(archive(shared_data / WC2007),
                       corrections=[parse_correction(c) for c in AS_PUBLISHED])
    result = standings(event)
    assert result.complete and event.round_robin_cycles() == 1 and len(event.players) == 20
    assert result.tiebreaks == ("wins", "direct", "classification")
    rows = {row.player: row for row in result.rows}
    assert result.rows[0].player == "Schwarzman, A." and result.rows[0].place == "1"
    assert (rows["Schwarzman, A."].points, rows["Schwarzman, A."].wins) == (25, 7)
    assert (rows["Podolski, M."].points, rows["Podolski, M."].wins) == (25, 6)
    assert rows["Akker, van den, J."].place == "12"
    assert all(row.games == 19 for row in result.rows)
    assert sum(row.points for row in result.rows) == 190 * 2


@pytest.mark.parametrize("path", [WC2007, NK2003, WC2003, RUSSIAN1998])
def test_each_players_points_equal_the_sum_of_their_results_read_independently(
        archive, shared_data, path):
    event = read_event(archive(shared_data / path))
    result = standings(event)
    written = independent_points(shared_data / path)
    names = {name: key for key, names in event.spellings.items() for name in names}
    expected: Counter[str] = Counter()
    for name, points in written.items():
        expected[names.get(name, name)] += points
    shown = {row.player: row.points for row in result.rows}
    cells = crosstable(result)
    for i, row in enumerate(result.rows):
        crossed = sum(c.points or 0 for j in range(len(result.rows)) for c in cells[i][j])
        assert crossed == row.points
    # the names as cleaned match the written ones one to one, except the merged spellings
    assert sorted(shown.values()) == sorted(expected.values())
    assert sum(shown.values()) == sum(written.values())


def test_the_dutch_championship_2003_is_a_whole_round_robin_of_14(archive, shared_data):
    event = read_event(archive(shared_data / NK2003))
    assert event.round_robin_cycles() == 1 and len(event.players) == 14
    assert event.spellings == {"Gerard Jansen": ["Gerard Jansen", "Gérard Jansen"]}
    assert standings(event).rows[0].player == "Kees Thijssen"


def test_the_russian_world_championship_1998_lacks_five_micro_matches(archive, shared_data):
    """16 players in micro-matches of 4 games (rounds written 1.1 to 1.4); the file holds 460
    of the 480 games, and three players are also written another way (Goryunov, Skrabov,
    Mokrovich), which matching names as pdn dedupe does cannot know."""
    as_read = read_event(archive(shared_data / RUSSIAN1998))
    assert as_read.variant.name == "russian" and len(as_read.players) == 19
    event = read_event(archive(shared_data / RUSSIAN1998), same={
        "Goryunov": "Gorunov", "Skrabov": "Scrabov", "Mokrovich": "Mocrovich"})
    assert len(event.pairings) == 460 and len(event.players) == 16
    assert event.round_robin_cycles() is None
    assert {len(games) for games in event.meetings().values()} == {4}
    assert event.missing_meetings() == [
        ("Abdullaev", "Gorunov"), ("Abdullaev", "Smaidris"), ("Alshanetsky", "Guba"),
        ("Amrilloev", "Mocrovich"), ("Guba", "Maksimchuck")]


def test_english_games_score_one_point_and_read_their_results_for_the_first_mover(
        archive, shared_data):
    """tinsley.pdn has no GameType tags: the variant is told from the records (English),
    a win counts 1, and ``1-0`` is Black's win as English archives write it
    (docs/notation.md), so Marion Tinsley, who lost a handful of games in his career, has
    far more wins than losses here."""
    event = read_event(archive(shared_data / "english/tinsley.pdn"))
    assert event.variant.name == "english" and event.scoring.win == 1
    top = standings(event).rows[0]
    assert top.player == "MF Tinsley" and top.wins > 10 * top.losses


def test_a_correction_that_fits_no_game_is_an_error(archive, shared_data):
    with pytest.raises(CorrectionError, match="fits no game"):
        read_event(archive(shared_data / WC2007),
                   corrections=[parse_correction("Nobody - Georgiev=1-1")])


def test_a_result_for_players_who_met_twice_with_the_same_colours_names_its_round():
    text = "".join(f'[White "{w}"][Black "{b}"][Round "{r}"][Result "*"] *\n'
                   for w, b, r in [("Ann", "Bob", "1.1"), ("Bob", "Ann", "1.2"),
                                   ("Ann", "Bob", "1.3")])
    with pytest.raises(CorrectionError, match=r"2 games .*round N"):
        read_event(read_games(text), corrections=[parse_correction("Ann - Bob=2-0")])
    event = read_event(read_games(text), corrections=[
        parse_correction("round 1.3: Ann - Bob=2-0"), parse_correction("Bob - Ann=1-1")])
    assert [p.outcome for p in event.pairings] == ["unknown", "draw", "white"]
    assert [p.number for p in event.unfinished] == [1]


def test_a_double_round_robin_keeps_both_games_with_their_colours():
    text = "".join(f'[White "{w}"][Black "{b}"][Result "{r}"] 1. 32-28 *\n'
                   for w, b, r in [("Ann", "Bob", "2-0"), ("Bob", "Ann", "1-1"),
                                   ("Ann", "Cas", "0-2"), ("Cas", "Ann", "1-1"),
                                   ("Bob", "Cas", "1-1"), ("Cas", "Bob", "0-2")])
    event = read_event(read_games(text))
    assert event.round_robin_cycles() == 2
    result = standings(event)
    ann = [row.player for row in result.rows].index("Ann")
    bob = [row.player for row in result.rows].index("Bob")
    assert [(c.points, c.white) for c in crosstable(result)[ann][bob]] == [(2, True), (1, False)]


def test_the_performance_rating_is_the_opponents_average_plus_the_elo_difference():
    text = ('[White "Ann"][Black "Bob"][WhiteRating "2000"][BlackRating "2200"]'
            '[Result "2-0"] *\n[White "Bob"][Black "Ann"][WhiteElo "2200"][BlackElo "2000"]'
            '[Result "2-0"] *\n[White "Ann"][Black "Cas"][WhiteRating "2000"]'
            '[Result "1-1"] *\n')
    rows = {row.player: row for row in standings(read_event(read_games(text))).rows}
    assert rows["Ann"].score_fraction == 0.5 and rows["Ann"].rating == 2000
    assert rows["Ann"].performance == 2200  # 50 % against 2200 (Cas has no rating)
    assert rows["Bob"].performance == 2000 and rows["Cas"].performance == 2000


def test_event_selects_by_the_event_tag_and_names_the_pairs_left_out(shared_data):
    """The ten games of the 2007 file's second round have the Event tag "?" (the two open
    games among them): without them the round robin lacks ten pairings, which the table
    names, and a result given to one of them fits no game."""
    source = str(shared_data / WC2007)
    run = CliRunner().invoke(app, ["standings", source, "--event", "wk 2007"])
    assert run.exit_code == 0, run.output
    assert "10 pair(s) of players never met" in " ".join(run.output.split())
    run = CliRunner().invoke(app, ["standings", source, "--event", "wk 2007", "--result",
                                   AS_PUBLISHED[0]])
    assert run.exit_code == 2 and "fits no game" in run.output


def test_the_command_writes_csv_json_and_html_and_exits_1_while_incomplete(
        shared_data, tmp_path):
    source = str(shared_data / WC2007)
    runner = CliRunner()
    open_run = runner.invoke(app, ["standings", source, "-o", str(tmp_path / "t.json")])
    assert open_run.exit_code == 1 and "Misans" in open_run.output
    args = [a for c in AS_PUBLISHED for a in ("--result", c)]
    corrections = tmp_path / "results.txt"
    corrections.write_text("# as published\n" + "\n".join(AS_PUBLISHED) + "\n", encoding="utf-8")
    for name, extra in (("t.csv", args), ("t.html", ["--corrections", str(corrections)])):
        run = runner.invoke(app, ["standings", source, *extra, "-o", str(tmp_path / name)])
        assert run.exit_code == 0, run.output
    assert (tmp_path / "t.csv").read_text(encoding="utf-8").splitlines()[1].startswith(
        "1,\"Schwarzman, A.\",25")
    assert 'id="crosstable"' in (tmp_path / "t.html").read_text(encoding="utf-8")
    bad = runner.invoke(app, ["standings", source, "--tiebreak", "coin"])
    assert bad.exit_code == 2 and "unknown tie-break" in bad.output


def test_the_page_prints_to_pdf_on_a4(shared_data, tmp_path):
    from replay.validate.report_pdf import find_browser

    require(find_browser() is not None, "Chromium, which prints the page")
    pdf = tmp_path / "t.pdf"
    run = CliRunner().invoke(app, ["standings", str(shared_data / WC2007), "-o", str(pdf),
                                   *[a for c in AS_PUBLISHED for a in ("--result", c)]])
    assert run.exit_code == 0, run.output
    printed = pdf.read_bytes()
    assert printed.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", printed)
    # A4 (595 x 842 points): the standings on one page, the crosstable on the next
    assert len(boxes) == 2 and all(round(float(w)) == 595 and round(float(h)) == 842
                                   for w, h in boxes)


def test_the_html_page_in_chromium_shows_the_table_and_crosstable(archive, shared_data,
                                                                  tmp_path):
    from support.webdriver import Browser, chromium_session

    event = read_event(archive(shared_data / WC2007),
                       corrections=[parse_correction(c) for c in AS_PUBLISHED[:1]])
    page = tmp_path / "standings.html"
    page.write_text(standings_html(standings(event)), encoding="utf-8")
    with chromium_session(tmp_path / "profile") as browser:
        require(isinstance(browser, Browser), str(browser))
        browser.resize(1280, 900)
        browser.open(page.as_uri())
        shown = browser.run("""return {
            rows: document.querySelectorAll('#standings tbody tr').length,
            cross: document.querySelectorAll('#crosstable tbody tr').length,
            cells: document.querySelectorAll('#crosstable tbody tr:first-child td').length,
            open: document.querySelectorAll('#crosstable .open').length,
            note: document.getElementById('incomplete').textContent,
            width: document.documentElement.scrollWidth};""")
        browser.screenshot(tmp_path / "standings.png")
        browser.resize(400, 900)  # a phone: the tables scroll inside the page, not the page
        browser.open(page.as_uri())
        phone = browser.run("""return {page: document.documentElement.scrollWidth,
            width: window.innerWidth,
            cross: document.querySelector('#crosstable').getBoundingClientRect().width,
            cell: getComputedStyle(document.querySelector('#crosstable td')).display};""")
    assert phone["page"] <= phone["width"] < phone["cross"]
    assert phone["cell"] == "table-cell"
    assert shown["rows"] == 20 and shown["cross"] == 20 and shown["cells"] == 20 + 3
    assert shown["open"] == 2  # Misans-Schwarzman, seen from both rows
    assert "Misans" in shown["note"] and "Valneris" not in shown["note"]
    assert shown["width"] <= 1280


@given(st.integers(min_value=2, max_value=7), st.integers(min_value=1, max_value=2),
       st.data())
@settings(max_examples=40, deadline=None)
def test_any_round_robin_crosstable_is_the_mirror_of_itself_and_sums_to_the_points(
        players, cycles, data):
    names = [f"Player {chr(65 + i)}" for i in range(players)]
    results = ("2-0", "1-1", "0-2", "*")
    text = "".join(
        f'[White "{w}"][Black "{b}"][Result "{data.draw(st.sampled_from(results))}"] *\n'
        for cycle in range(cycles) for i, a in enumerate(names) for b_ in names[i + 1:]
        for w, b in [(a, b_) if cycle % 2 == 0 else (b_, a)])
    event = read_event(read_games(text))
    assert event.round_robin_cycles() == cycles
    result = standings(event)
    cells = crosstable(result)
    for i, row in enumerate(result.rows):
        assert sum(c.points or 0 for line in cells[i] for c in line) == row.points
        assert row.wins + row.draws + row.losses == row.games
        for j in range(len(result.rows)):
            mine, theirs = cells[i][j], cells[j][i]
            assert [c.game for c in mine] == [c.game for c in theirs]
            assert all(a.white != b.white for a, b in zip(mine, theirs, strict=True))
            assert all((a.points is None and b.points is None) or a.points + b.points == 2
                       for a, b in zip(mine, theirs, strict=True))
    assert len(result.unfinished) == sum(r.unfinished for r in result.rows) // 2
    places = [row.place for row in result.rows]
    assert places[0].startswith("1")
