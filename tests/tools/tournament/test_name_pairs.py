"""Names probably of one player (``replay.tournament.spellings``): reported by default with
the ``--same`` options to paste, never merged unasked (docs/tournaments.md).

The 1998 Russian world championship (``games-checkers/russian/World_Championship_1998.pdn``)
writes three of its 16 players two ways: ``Goryunov``/``Gorunov``, ``Mokrovich``/
``Mocrovich``, ``Skrabov``/``Scrabov``. The rounds each name played are read here from the
file as plain text, apart from the toolkit's reader. In the 2007 world championship and the
2003 Dutch championship every player's 19 or 13 games are under one name once accents,
initials and word order are matched: no pair may be reported there. The 2003 world championship
(``games-checkers/internt/wk2003.pdn``) writes four players in two transliterations
(Dutch ``Boezjinski``, ``Milsjin`` beside English ``Buzhinski``, ``Milshin``...): reported,
and left apart in the table until the arbiter says so.
"""

from __future__ import annotations

import json
import re
import shlex
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.tournament import read_event, standings
from replay.tournament.pages import name_pairs_note, standings_html
from replay.tournament.spellings import (
    DOUBLED,
    INITIALS,
    ONE_LETTER,
    TRANSLITERATED,
    Seat,
    game_rounds,
    paste_line,
    probable_pairs,
    skeleton,
)

runner = CliRunner()
RUSSIAN1998 = Path("games-checkers/russian/World_Championship_1998.pdn")
WC2007 = Path("international/fmjd_wk2007_all_games.pdn")
NK2003 = Path("games-checkers/internt/nk2003-amsterdam.pdn")
WC2003 = Path("games-checkers/internt/wk2003.pdn")
PAIRS_1998 = [("Goryunov", "Gorunov"), ("Mokrovich", "Mocrovich"), ("Skrabov", "Scrabov")]
OPTIONS_1998 = "--same Goryunov=Gorunov --same Mokrovich=Mocrovich --same Skrabov=Scrabov"


def plain_rounds(path: Path) -> tuple[dict[str, set[int]], set[frozenset[str]]]:
    """Each written name's rounds (the N of ``Round "N.k"``) and the pairs that met, read
    from the file as plain text."""
    rounds: dict[str, set[int]] = defaultdict(set)
    met, names = set(), {}
    for line in path.read_text(encoding="latin-1").splitlines():
        tag = re.match(r'\[(\w+) "([^"]*)"?\]', line.strip())  # '[Round "11.1]' too
        if tag and tag[1] in ("White", "Black"):
            names[tag[1]] = tag[2].strip()
        elif tag and tag[1] == "Round":
            number = int(tag[2].split(".")[0])
            rounds[names["White"]].add(number)
            rounds[names["Black"]].add(number)
            met.add(frozenset(names.values()))
    return rounds, met


def test_the_1998_event_reports_its_three_name_pairs_from_the_plain_text(archive, shared_data):
    event = read_event(archive(shared_data / RUSSIAN1998))
    assert len(event.players) == 19  # reported, not merged
    rounds, met = plain_rounds(shared_data / RUSSIAN1998)
    assert [(p.name, p.player) for p in event.name_pairs] == PAIRS_1998
    for pair in event.name_pairs:
        assert frozenset((pair.name, pair.player)) not in met
        assert not rounds[pair.name] & rounds[pair.player]
        assert pair.rounds == tuple(tuple(str(r) for r in sorted(rounds[name]))
                                    for name in (pair.name, pair.player))
    assert [p.kind for p in event.name_pairs] == [TRANSLITERATED, ONE_LETTER, ONE_LETTER]
    assert [p.difference for p in event.name_pairs] == ["yu/u", "k/c", "k/c"]
    assert paste_line(event.name_pairs) == OPTIONS_1998


def test_the_1998_standings_show_the_pairs_and_their_options_by_default(shared_data, tmp_path):
    """The terminal, the JSON and the HTML page name the three pairs with the options to
    paste; pasting them gives 16 players, Scrabov tied 3rd-4th (with Magomadov, 64
    points) where the split table had him 6th."""
    path = str(shared_data / RUSSIAN1998)
    shown = runner.invoke(app, ["standings", path], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    lines = shown.output.splitlines()
    assert ("  Goryunov (8 games) ~ Gorunov (48 games): yu/u, the same name transliterated two "
            "ways; never met, never in one round (rounds 1-2 / 3-10, 12-15)") in lines
    assert ("  Skrabov (4 games) ~ Scrabov (56 games): k/c, one letter apart; never met, never "
            "in one round (rounds 1 / 2-15)") in lines
    assert f"To count each as one player, add: {OPTIONS_1998}" in lines
    assert re.search(r"│\s+6 │ Scrabov\s+│\s+60 │", shown.output)  # the split table
    table = tmp_path / "wc.csv"
    written = runner.invoke(app, ["standings", path, "-o", str(table)])
    assert written.exit_code == 0  # the CSV has rows only: stderr names the pairs
    assert f"To count each as one player, add: {OPTIONS_1998}" in written.stderr.splitlines()
    document = tmp_path / "wc.json"
    assert runner.invoke(app, ["standings", path, "-o", str(document)]).exit_code == 0
    data = json.loads(document.read_text(encoding="utf-8"))
    assert [(p["name"], p["player"], p["games"]) for p in data["name_pairs"]] == [
        ("Goryunov", "Gorunov", [8, 48]), ("Mokrovich", "Mocrovich", [4, 52]),
        ("Skrabov", "Scrabov", [4, 56])]
    assert data["same_options"] == OPTIONS_1998
    page = tmp_path / "wc.html"
    assert runner.invoke(app, ["standings", path, "-o", str(page)]).exit_code == 0
    html = page.read_text(encoding="utf-8")
    section = html[html.index('id="name-pairs"'):html.index("</div>", html.index(
        'id="name-pairs"'))]
    assert section.count("<li>") == 3 and "Mokrovich (4 games) ~ Mocrovich" in section
    assert f"<p>To count each as one player, add: <code>{OPTIONS_1998}</code></p>" in section
    merged = runner.invoke(app, ["standings", path, *shlex.split(OPTIONS_1998)],
                           env={"COLUMNS": "200"})
    assert "Probably one player" not in merged.output
    assert re.search(r"│ 3-4 │ Scrabov\s+│\s+64 │", merged.output)
    assert re.search(r"│ 3-4 │ Magomadov\s+│\s+64 │", merged.output)


def test_pdn_stats_players_names_the_1998_pairs_with_the_standings_options(shared_data):
    result = runner.invoke(app, ["stats", str(shared_data / RUSSIAN1998), "-t", "players"])
    assert result.exit_code == 0
    hint = result.stderr.splitlines()
    assert any(line.startswith("  Mokrovich (4 games) ~ Mocrovich (52 games): k/c")
               for line in hint)
    assert f"  pdn standings counts each as one with: {OPTIONS_1998}" in hint
    rows = [line.split("\t")[0] for line in result.stdout.splitlines()[1:]]
    assert {"Goryunov", "Gorunov", "Skrabov", "Scrabov"} <= set(rows)  # the table as before


@pytest.mark.parametrize("path", [WC2007, NK2003])
def test_events_that_write_each_player_one_way_report_no_pair(archive, shared_data, path):
    event = read_event(archive(shared_data / path))
    games = Counter(name for p in event.pairings for name in (p.white, p.black))
    assert len(set(games.values())) == 1  # every player has the whole schedule
    assert event.name_pairs == []


def test_the_2003_world_championship_reports_four_transliterations_left_apart(
        archive, shared_data):
    event = read_event(archive(shared_data / WC2003))
    pairs = {(p.name, p.player): p for p in event.name_pairs}
    assert list(pairs) == [("Boezjinski, E.", "Buzhinski, E"), ("Koyfman, Y", "Koifman, I."),
                           ("Milshin, V", "Milsjin, W."), ("Weitsman, V.", "Veytsman, V")]
    assert {p.kind for p in pairs.values()} == {TRANSLITERATED}
    assert all(name in event.players for pair in pairs for name in pair)  # not merged
    assert all(not set(p.rounds[0]) & set(p.rounds[1]) for p in pairs.values())
    # together each pair plays the 19 rounds at most once a round
    assert all(len(p.rounds[0]) + len(p.rounds[1]) <= 19 for p in pairs.values())


def _seats(*games: tuple[str, str, str]) -> list[Seat]:
    return [Seat(white, black, "e", number) for white, black, number in games]


def test_names_alike_are_two_players_when_they_met_or_shared_a_round():
    one_seat = _seats(("Gorunov", "Ann", "1"), ("Bob", "Goryunov", "2"), ("Gorunov", "Cas", "3"))
    assert [(p.name, p.player) for p in probable_pairs(one_seat)] == [("Goryunov", "Gorunov")]
    met = _seats(("Gorunov", "Ann", "1"), ("Goryunov", "Gorunov", "2"))
    assert probable_pairs(met) == []
    same_round = _seats(("Gorunov", "Ann", "1"), ("Bob", "Goryunov", "1"))
    assert probable_pairs(same_round) == []


@pytest.mark.parametrize(("a", "b"), [
    ("Ivanov", "Ivanova"),  # a feminine form: two people
    ("Gorskiy", "Gorskaya"),
    ("Smith, J.", "Smith, T."),  # other initials
    ("Jansen, Gerard", "Jansen, Gert"),
    ("Tan", "Tam"),  # too short to be told one letter apart
])
def test_names_of_two_people_are_never_a_pair(a, b):
    assert probable_pairs(_seats((a, "Ann", "1"), ("Bob", b, "2"))) == []


@pytest.mark.parametrize(("a", "b", "kind"), [
    ("Tsjizjow, A.", "Chizhov, A.", TRANSLITERATED),  # Dutch and English
    ("Boezjinski", "Buzhinski", TRANSLITERATED),
    ("Weitsman", "Veytsman", TRANSLITERATED),
    ("KALFON Gillbert", "KALFON Gilbert", DOUBLED),
    ("Skrabov", "Scrabov", ONE_LETTER),
    ("Bailey, G.L.", "Bailey, G.", INITIALS),
])
def test_names_alike_in_one_seat_are_a_pair_of_their_kind(a, b, kind):
    [pair] = probable_pairs(_seats((a, "Ann", "1"), ("Bob", b, "2"), ("Bob", b, "3")))
    assert (pair.name, pair.player, pair.kind) == (a, b, kind)


def test_a_name_that_fits_two_players_is_left_for_the_arbiter_to_choose():
    seats = _seats(("Jansen, G.", "Ann", "1"), ("Jansen, Gerard", "Bob", "2"),
                   ("Jansen, Gert", "Cas", "3"), ("Jansen, Gerard", "Dan", "4"),
                   ("Jansen, Gert", "Dan", "5"))
    pairs = probable_pairs(seats)
    assert [(p.name, p.player) for p in pairs] == [("Jansen, G.", "Jansen, Gerard"),
                                                   ("Jansen, G.", "Jansen, Gert")]
    assert paste_line(pairs) == ""  # no option written for the arbiter
    assert pairs[0].options() == ["--same 'Jansen, G.=Jansen, Gerard'"]


def test_the_skeleton_writes_each_russian_letter_one_way():
    assert skeleton("Goryunov") == skeleton("Gorunov") == "gorunov"  # ю: BGN yu, ISO 9 û
    assert skeleton("Tsjizjow") == skeleton("Chizhov") == skeleton("Čižov")
    assert skeleton("Shchukin") == skeleton("Schtschukin") == skeleton("Ŝukin")


def test_dates_are_rounds_only_within_one_tournaments_weeks():
    assert game_rounds(["3.1", "3.2", "?"], [None] * 3) == ["3", "3", None]
    assert game_rounds([None, None], ["2007.05.12", "2007.05.13"]) == ["2007-05-12",
                                                                       "2007-05-13"]
    assert game_rounds([None, None], ["1952.01.01", "1968.01.01"]) == [None, None]
    assert game_rounds([None, None], ["1952.??.??", "1952.01.01"]) == [None, None]


def test_read_games_keeps_the_pairs_of_games_read_from_text():
    text = ('[White "Goryunov"][Black "Ann"][Round "1.1"][Result "1-1"] 1. 32-28 *'
            '[White "Bob"][Black "Gorunov"][Round "2.1"][Result "1-1"] 1. 32-28 *')
    event = read_event(read_games(text), same={"Goryunov": "Gorunov"})
    assert event.name_pairs == [] and "Goryunov" not in event.players


def test_the_standings_note_writes_the_options_with_the_names_as_the_games_write_them():
    """The table shows ``Gerard Janssen`` for ``Janssen, Gerard``; ``--same`` reads the
    names as written, so the options name them so; a name that fits two players gets one
    option for each, for the arbiter to choose (``Mocrovich`` and ``Mokrovic`` played in
    one round: two people)."""
    text = "".join(f'[White "{w}"][Black "{b}"][Round "{r}"][Result "1-1"] 1. 32-28 *\n'
                   for w, b, r in [
                       ("Janssen, Gerard", "Ann", "1"), ("Bob", "Jansen, Gerard", "2"),
                       ("Jansen, Gerard", "Cas", "3"), ("Mokrovich", "Ann", "1"),
                       ("Mocrovich", "Bob", "2"), ("Mocrovich", "Cas", "3"),
                       ("Mokrovic", "Dan", "2"), ("Mokrovic", "Eve", "4")])
    event = read_event(read_games(text))
    assert [(p.name, p.player, p.options()) for p in event.name_pairs] == [
        ("Gerard Janssen", "Gerard Jansen", ["--same 'Janssen, Gerard=Jansen, Gerard'"]),
        ("Mokrovich", "Mocrovich", ["--same Mokrovich=Mocrovich"]),
        ("Mokrovich", "Mokrovic", ["--same Mokrovich=Mokrovic"])]
    note = name_pairs_note(event)
    assert note[-2:] == [
        "To count each as one player, add: --same 'Janssen, Gerard=Jansen, Gerard'",
        "Mokrovich fits 2 players: add one of --same Mokrovich=Mocrovich / "
        "--same Mokrovich=Mokrovic"]
    page = standings_html(standings(event))
    assert "<code>--same Mokrovich=Mokrovic</code></p></div>" in page
