"""One meaning of a result in every command (docs/archive.md, "One reading of results";
docs/validate.md): a result written two ways (``1-1`` and ``1/2:1/2``) is one result, only a
different outcome is a disagreement, a disagreement is shown without ``-W``, and ``0-0`` or a
forfeit stated in the tags is no result a board contradicts. Real texts: the 1998 Russian
world championship (its Result tags given in points), 40Camp of the official PDN test set,
the Nemesis export of games-checkers/british, Boland's Bridges and a Montpellier open."""

from __future__ import annotations

import json
import re
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import require
from pdn.cli.app import app
from support.served import served
from typer.testing import CliRunner

from pdn.reader import PdnText, read_games
from pdn.results import read_result, results_disagree
from replay.record.replayer import normalise_result, replay_game
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN
from replay.tournament import read_event
from replay.validate.report import has_problem, html_report, markdown_report
from replay.validate.reports import GameReport, validate_sources

runner = CliRunner()
WC1998 = "games-checkers/russian/World_Championship_1998.pdn"
CAMP = "tests/wiegerw_pdn/fail/40Camp.DamaInternazionaleAssoluto.pdn"
NEMESIS = "games-checkers/british/British_Computer_Championship_2002.pdn"
BRIDGES = "tests/wiegerw_pdn/succeed/bridges.pdn"


def _games(text: str) -> list[str]:
    """The games of a file's text, each from its first tag."""
    starts = [found.start() for found in re.finditer(r"^\[Event ", text, re.MULTILINE)]
    return [text[start:end] for start, end in zip(starts, [*starts[1:], len(text)],
                                                  strict=True)]


def _retagged(game: str, result: str) -> str:
    return re.sub(r'\[Result "[^"]*"\]', f'[Result "{result}"]', game, count=1)


@pytest.fixture(scope="module")
def in_points(shared_data: Path, tmp_path_factory) -> Path:
    """The first four games of the 1998 world championship (movetext results ``1/2:1/2``,
    ``0:1``, ``1/2:1/2``, ``1/2:1/2``) with their Result tags written in points, as Russian
    and International tournaments write them: ``1-1``, ``0-2``, ``1-1``, ``1-1``."""
    text = (shared_data / WC1998).read_text(encoding="utf-8", errors="replace")
    games = _games(text)[:4]
    points = [_retagged(game, tag)
              for game, tag in zip(games, ("1-1", "0-2", "1-1", "1-1"), strict=True)]
    path = tmp_path_factory.mktemp("points") / "wc1998_points.pdn"
    path.write_text("".join(points), encoding="utf-8")
    return path


def _json_rows(*arguments: str | Path) -> tuple[list[dict], str, int]:
    result = runner.invoke(app, ["validate", "--json", "-j", "1", *map(str, arguments)])
    return [json.loads(line) for line in result.stdout.splitlines()], result.output, \
        result.exit_code


def test_every_written_form_of_an_outcome_reads_as_that_outcome():
    assert {read_result(token) for token in ("1-1", "1/2-1/2", "1/2:1/2", "1:1")} == {"draw"}
    assert {read_result(token) for token in ("1-0", "2-0", "1:0", "2:0")} == {"first"}
    assert {read_result(token) for token in ("0-1", "0-2", "0:1", "0:2")} == {"second"}
    assert read_result("0-0") == read_result("0:0") == "double_forfeit"
    assert {read_result(token) for token in ("*", "?", "-", "", None, "4-6")} == {None}
    assert normalise_result("0-2", RUSSIAN) == normalise_result("0:1", INTERNATIONAL) == "black"
    assert normalise_result("2-0", ENGLISH) == "black"  # the first mover's win in English


def test_only_a_different_outcome_is_a_disagreement():
    assert not results_disagree("1/2:1/2", "1-1")
    assert not results_disagree("0:1", "0-2")
    assert not results_disagree("1-0", "*") and not results_disagree("*", "1-0")
    assert results_disagree("1-0", "0-1") and results_disagree("0-2", "1-1")
    assert results_disagree("1-0", "White wins")  # a tag that is no result names none


def test_a_draw_in_points_agrees_with_the_draw_written_with_colons(in_points: Path):
    rows, output, code = _json_rows(in_points)
    assert code == 0, output
    assert [row["result"] for row in rows] == ["1-1", "0-2", "1-1", "1-1"]
    assert [w for row in rows for w in row["warnings"] if w["code"] == "result"] == []
    text = runner.invoke(app, ["validate", str(in_points)])
    assert text.stdout == ""  # nothing to show
    assert re.search(r"warnings?: .*\d result\b", text.output) is None, text.output


def test_a_different_outcome_in_points_is_shown_without_w(in_points: Path, tmp_path: Path):
    games = _games(in_points.read_text(encoding="utf-8"))
    games[1] = _retagged(games[1], "2-0")  # the movetext says 0:1: Black won
    path = tmp_path / "wc1998_wrong.pdn"
    path.write_text("".join(games), encoding="utf-8")
    shown = runner.invoke(app, ["validate", str(path)])
    assert shown.exit_code == 0
    assert re.search(r"wc1998_wrong\.pdn:\d+:\d+: warning: game 2 \(Guba – Yumshanov\): "
                     r"result — result '0:1' at \d+:\d+ disagrees with the Result tag \"2-0\"",
                     shown.stdout), shown.stdout
    assert re.search(r"; \d+ warnings?: 1 result\b.*\(-W shows them\)", shown.output)


def test_every_command_reads_results_in_points_alike(in_points: Path, tmp_path: Path):
    """validate's result, stats' result column, the standings and the desk's event (the
    same read_event) score 1-1 as a draw and 0-2 as Black's win; 0-0 as a loss for both."""
    games = _games(in_points.read_text(encoding="utf-8"))
    games[3] = _retagged(games[3], "0-0").replace(" 1/2:1/2\n", " 0-0\n")
    path = tmp_path / "wc1998_forfeit.pdn"
    path.write_text("".join(games), encoding="utf-8")
    winners = ["draw", "black", "draw", "double_forfeit"]

    stats = runner.invoke(app, ["stats", str(path), "-t", "games", "--json"])
    assert stats.exit_code == 0, stats.output
    assert [json.loads(line)["result"] for line in stats.stdout.splitlines()] == winners

    event = read_event(read_games(path))
    assert [pairing.outcome for pairing in event.pairings] == winners

    out = tmp_path / "standings.json"
    standings = runner.invoke(app, ["standings", str(path), "-o", str(out)])
    assert standings.exit_code == 0, standings.output
    points = {row["player"]: row["points"] for row in json.loads(out.read_text())["standings"]}
    # FMJD's 2-1-0: Yumshanov drew games 1 and 3 and won game 2; game 4 (0-0) gives nothing
    assert points == {"Yumshanov": 4, "Guba": 2}

    rows, _, _ = _json_rows(path)
    assert [row["result_check"] for row in rows][3] == "forfeit"
    assert [w for row in rows for w in row["warnings"] if w["code"] == "result"] == []


def test_the_desks_event_page_scores_points_results_as_the_standings_do(in_points: Path):
    """The desk (pdn serve) reads the games it holds into its event page through the same
    reading: 1-1 a draw, 0-2 Black's win (FMJD's 2-1-0)."""
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")
    with served(in_points) as server:
        status, _, page = server.request("/event")
    assert status == 200
    table = page.decode().split('<table id="standings">')[1].split("</table>")[0]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in table.split("<tr")[2:]]
    assert [(row[1], row[2], row[4:7]) for row in rows] == [
        ("Yumshanov", "5", ["1", "3", "0"]), ("Guba", "3", ["0", "3", "1"])]


def test_the_40camp_conflict_is_shown_without_w(shared_data: Path):
    path = shared_data / CAMP
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == (
        f"{path}:21:49: warning: game 1 (Borghetti Michele – Raimondi Walter): result — "
        "result '1-0' at 21:49 disagrees with the Result tag \"0-1\" (the tag is taken)")
    summary = result.output.splitlines()[-1]
    assert summary.startswith("45 games: 45 valid;")
    assert re.search(r"; \d+ warnings: 1 result, .*\(-W shows them\)", summary), summary
    with_w = runner.invoke(app, ["validate", "-W", str(path)])
    assert "-W shows them" not in with_w.output and "warnings: 1 result" in with_w.output


def test_the_reports_list_the_40camp_conflict_among_the_problems(shared_data: Path):
    reports = [r for r in validate_sources([str(shared_data / CAMP)], jobs=1)
               if isinstance(r, GameReport)]
    assert [r.game for r in reports if has_problem(r)] == [1]
    html, markdown = html_report(reports), markdown_report(reports)
    assert "Games with problems" in html and "disagrees with the Result tag" in html
    assert re.search(r"\| \[1\]\(#game-1\) \| .* \| valid \| line 21, column 49: result "
                     r"'1-0' at 21:49 disagrees", markdown), markdown
    assert "## Valid games (44)" in markdown


def test_info_and_validate_read_the_nemesis_export_alike(shared_data: Path):
    """The games run into each other without a result: pdn info lists the reading problem,
    pdn validate counts the games valid (their moves replay) with it as a warning."""
    path = shared_data / NEMESIS
    info = runner.invoke(app, ["info", "--json", str(path)])
    problems = json.loads(info.stdout)["errors"]
    assert len(problems) == 15 and {p["code"] for p in problems} == {"syntax"}
    rows, output, code = _json_rows(path)
    assert code == 0 and {row["status"] for row in rows} == {"valid"}, output
    warned = [{"game": row["game"], "line": w["line"], "column": w["column"],
               "code": w["code"], "message": w["message"]}
              for row in rows for w in row["warnings"] if w["code"] == "syntax"]
    assert warned == problems
    summary = runner.invoke(app, ["validate", str(path)]).output.splitlines()[-1]
    assert "16 games: 16 valid" in summary and "15 syntax" in summary
    text = runner.invoke(app, ["info", str(path)]).stdout
    assert ("counts one whose moves all replay valid, with its reading problem as a "
            "warning") in text


def test_the_40camp_missing_separator_is_read_alike(shared_data: Path):
    path = shared_data / CAMP
    problems = json.loads(runner.invoke(app, ["info", "--json", str(path)]).stdout)["errors"]
    rows, _, _ = _json_rows(path)
    assert [(p["game"], p["line"], p["column"]) for p in problems] == [
        (row["game"], w["line"], w["column"]) for row in rows for w in row["warnings"]
        if w["code"] == "syntax"] == [(11, 226, 15)]


@pytest.fixture(scope="module")
def bridges_14(shared_data: Path) -> str:
    """Bridges #14: recorded a draw, and White has nothing left (Black won on the board)."""
    text = (shared_data / BRIDGES).read_text(encoding="utf-8", errors="replace")
    game = _games(text)[13]
    assert game.startswith("[Event \"Boland's Bridges #14\"]")
    return game


def test_0_0_is_a_forfeit_not_a_contradiction(bridges_14: str):
    assert "1/2-1/2" in bridges_14
    drawn = replay_game(next(read_games(PdnText(bridges_14))))
    assert drawn.result_check == "inconsistent"  # the record as it is: contradicted
    both_lost = bridges_14.replace("1/2-1/2", "0-0")
    replayed = replay_game(next(read_games(PdnText(both_lost))))
    assert (replayed.result, replayed.result_check) == ("double_forfeit", "forfeit")
    assert replayed.result_note == ("0-0: both sides lost (a double forfeit or an arbiter's "
                                    "decision), which no position decides")
    assert replayed.ending == "no-pieces"  # the board's ending is still told


def test_a_forfeit_in_the_termination_tag_is_no_contradiction(bridges_14: str, tmp_path: Path):
    white_wins = bridges_14.replace("1/2-1/2", "1-0")
    assert replay_game(next(read_games(PdnText(white_wins)))).result_check == "inconsistent"
    forfeit = white_wins.replace('[Result "1-0"]', '[Result "1-0"]\n[Termination "time forfeit"]')
    path = tmp_path / "forfeit.pdn"
    path.write_text(forfeit, encoding="utf-8")
    rows, output, code = _json_rows(path)
    assert code == 0 and [row["status"] for row in rows] == ["valid"], output
    assert rows[0]["result_check"] == "forfeit"
    assert rows[0]["result_note"] == ('a forfeit (Termination "time forfeit"), which no '
                                      "position decides")
    assert "contradicted" not in runner.invoke(app, ["validate", str(path)]).output
