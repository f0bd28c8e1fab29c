"""``pdn serve``'s JSON API against the command line, and what the server must withstand:
each test starts the real server on the loopback address and an ephemeral port, talks HTTP
to it and stops it (``support.served``)."""

from __future__ import annotations

import http.client
import json
import signal
import subprocess
import time
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import require
from pdn.cli.app import app
from support.served import PDN, served
from typer.testing import CliRunner

from pdn.reader import PdnText, read_games
from replay.validate.repair import repair_game


@pytest.fixture(autouse=True)
def serve_extra() -> None:
    """Starlette and uvicorn, the [serve] extra (``make test-deps``; required under CI)."""
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")


SLIPPED = """[Event "Club championship"]
[White "Ann"]
[Black "Bob"]
[Result "0-1"]
[GameType "25"]

1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1

[Event "Club championship"]
[White "Cas"]
[Black "Dan"]
[Result "1-0"]
[GameType "25"]

1. c3-d4 f6-g5 2. d4-e5 1-0
"""
# Real archives: a Czech team championship with an unreadable game, Russian games of which
# one is incomplete (wiegerw/pdn's test files, in ../shared/data).
ARCHIVES = ["tests/wiegerw_pdn/fail/mrdrcd08.pdn", "tests/wiegerw_pdn/fail/abatsiev.pdn"]


def cli_rows(*arguments: str | Path, stdin: str | None = None) -> list[dict]:
    result = CliRunner().invoke(app, ["validate", "--json", "-j", "1", *map(str, arguments)],
                                input=stdin)
    return [json.loads(line) for line in result.stdout.splitlines()]


@pytest.fixture
def slipped(tmp_path: Path) -> Path:
    path = tmp_path / "round3.pdn"
    path.write_text(SLIPPED, encoding="utf-8")
    return path


def test_the_rows_equal_pdn_validate_json_on_every_game_of_real_archives(shared_data: Path):
    paths = [shared_data / name for name in ARCHIVES]
    expected = [row for path in paths for row in cli_rows(path)]
    assert len(expected) == 96
    assert {row["status"] for row in expected} >= {"valid", "unreadable", "incomplete"}
    with served(*paths) as server:
        status, listed = server.json("/api/games")
        assert status == 200
        assert [row["number"] for row in listed["games"]] == list(range(1, 97))
        assert [{k: v for k, v in row.items() if k != "number"} for row in listed["games"]] \
            == expected
        for number in (1, 40, 41, 96):
            assert server.json(f"/api/games/{number}") == (200, expected[number - 1])
        text = paths[1].read_text(encoding="utf-8", errors="replace")
        status, checked = server.json("/api/check", text.encode())
        assert status == 200
        assert checked["games"] == cli_rows("-", stdin=text)


def test_suggestions_are_those_of_validate_suggest_and_one_applied_repairs_the_game(
        slipped: Path):
    expected = CliRunner().invoke(app, ["validate", "--json", "--suggest", str(slipped)])
    suggested = [json.loads(line) for line in expected.stdout.splitlines()]
    with served(slipped) as server:
        assert server.json("/api/games/1?suggest=1") == (200, suggested[0])
        assert suggested[0]["suggestions"][0]["text"] == "3... gh4"
        status, row = server.json("/api/games/1/suggestion", {"index": 0})
        assert (status, row["status"], row["errors"]) == (200, "valid", [])
        status, _, body = server.request("/download/1")
    assert status == 200
    game = next(read_games(PdnText(SLIPPED)))
    assert repair_game(game).mend is not None
    downloaded = body.decode()
    # the move put in, every other byte as written: no re-wrapping, no tag no one typed
    assert downloaded == SLIPPED.replace("3. cb4 4. b:d6", "3. cb4 gh4 4. b:d6", 1)
    assert {row["status"] for row in cli_rows("-", stdin=downloaded)} == {"valid"}


def test_a_move_and_a_tag_edited_are_checked_again_and_written_back_with_the_original_kept(
        slipped: Path):
    with served(slipped, "--write") as server:
        status, row = server.json("/api/games/2/move", {"ply": 2, "text": "d4-c5"})
        assert (status, row["status"]) == (200, "valid")
        status, row = server.json("/api/games/2/move", {"ply": 1, "text": "a1-b2"})
        assert (status, row["status"], row["errors"][0]["token"]) == (200, "invalid", "a1-b2")
        assert "legal moves:" in row["errors"][0]["message"]
        server.json("/api/games/2/move", {"ply": 1, "text": "f6-g5"})
        status, row = server.json("/api/games/2/tag", {"name": "Round", "value": "3"})
        assert status == 200
        assert server.json("/api/documents/1/write", {})[0] == 200
    assert slipped.with_name("round3.pdn.orig").read_text(encoding="utf-8") == SLIPPED
    written = slipped.read_text(encoding="utf-8")
    assert written.startswith(SLIPPED[:SLIPPED.index("[Event", 10)])  # game 1 untouched
    assert '[Round "3"]' in written and "2. d4-c5 1-0" in written


def test_writing_back_needs_write(slipped: Path):
    with served(slipped) as server:
        status, answer = server.json("/api/documents/1/write", {})
    assert status == 403 and "--write" in answer["error"]
    assert slipped.read_text(encoding="utf-8") == SLIPPED


def test_a_typed_game_refuses_its_illegal_move_and_offers_the_legal_ones():
    with served() as server:
        status, typed = server.json("/api/play", {"variant": "russian",
                                                  "moves": ["c3-d4", "f6-g5", "d4-e6"]})
    assert status == 200
    assert typed["accepted"] == ["c3-d4", "f6-g5"]
    assert typed["error"].startswith("d4-e6:")
    assert "d4-e5" in typed["legal"] and "d4-e6" not in typed["legal"]


def test_hostile_requests_get_clear_errors_and_the_server_keeps_serving(tmp_path: Path):
    with served() as server:
        status, answer = server.json("/api/upload", {"name": "x.pdn", "text": "\x00\x01" * 50})
        assert status == 400 and "NUL" in answer["error"]
        deep = "1. c3-d4 " + "(" * 5000 + "f6-g5" + ")" * 5000 + " *"
        # damaged texts are put on the desk as unreadable games, with the reason
        for text, reason in ((deep, "nested more than 100 deep"),
                             ('[White "' + "x" * 100_000, "tag not closed"),
                             ("\ufffd" * 10_000, "not a move"),
                             ("]]]][[[{{{", "tag closed but none is open")):
            status, answer = server.json("/api/upload", {"name": "bad.pdn", "text": text})
            assert status == 200
            number = answer["games"][0]
            status, row = server.json(f"/api/games/{number}")
            assert row["status"] == "unreadable" and reason in row["errors"][0]["message"]
            assert server.request(f"/games/{number}")[0] == 200
        assert server.request("/event")[0] == 200
        assert server.json("/api/upload", b"not json")[0] == 400
        assert server.json("/api/games/1/move", {"ply": "one", "text": 3})[0] in (400,)
        assert server.json("/api/games/999")[0] == 400
        assert _announced_length(server.url, "/api/check", 2 << 20) == 413
        assert _announced_length(server.url, "/api/upload", 9 << 20) == 413
        assert _chunked(server.url, "/api/check", (1 << 20) + 66_000) == 413
        assert server.request("/static/..%2Fdesk.py")[0] == 404
        assert server.request("/static/desk.js")[0] == 200
        # the server still answers
        assert server.json("/api/games")[0] == 200


def test_origin_host_and_escaping():
    hostile = '[White "<script>alert(1)</script>"]\n[Black "O\'Neil & <b>"]\n{<img src=x>}\n' \
              '1. c3-d4 f6-g5 *\n'
    with served() as server:
        status, answer = server.json("/api/upload", {"name": "<b>x</b>.pdn", "text": hostile},
                                     headers={"Origin": "http://evil.example"})
        assert status == 403
        assert server.json("/api/games", headers={"Host": "evil.example"})[0] == 403
        port = server.url.rsplit(":", 1)[1].strip("/")
        status, answer = server.json("/api/upload", {"name": "<b>x</b>.pdn", "text": hostile},
                                     headers={"Origin": f"http://127.0.0.1:{port}"})
        assert status == 200
        number = answer["games"][0]
        for path in ("/", f"/games/{number}"):
            status, headers, body = server.request(path)
            page = body.decode()
            assert status == 200
            assert "script-src 'self'" in headers["content-security-policy"]
            assert "<script>alert" not in page and "<img src=x>" not in page
            assert "<b>x</b>" not in page and "<b>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in server.request("/")[2].decode()


def test_another_host_asks_for_the_token_in_the_address():
    process = subprocess.Popen([*PDN, "serve", "--host", "0.0.0.0", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        assert "?token=" in url
        address, token = url.split("?token=")
        from support.served import Served

        server = Served(address.replace("0.0.0.0", "127.0.0.1"), process)
        assert server.request("/api/games")[0] == 403
        assert server.request("/api/games?token=wrong")[0] == 403
        status, headers, _ = server.request(f"/api/games?token={token}")
        assert status == 200 and "HttpOnly" in headers["set-cookie"]
        cookie = headers["set-cookie"].split(";")[0]
        assert server.request("/api/games", headers={"Cookie": cookie})[0] == 200
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_signal_stops_the_server_and_the_engines_it_started(stop: signal.Signals):
    from support.engines import find_dame

    dame = find_dame()
    if dame is None:
        pytest.skip("dame-rs (make test-deps) is not installed")
    with served("--engine-cmd", f"{dame} hub") as server:
        status, found = server.json("/api/engine", {
            "variant": "international",
            "fen": "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:"
                   "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"})
        assert status == 200, found
        assert found["pv"] and found["score"] is not None
        engines = _children(server.process.pid)
        assert engines
        server.process.send_signal(stop)
        assert server.process.wait(timeout=20) == 0
    deadline = time.monotonic() + 60  # a guard against a hang, not a measure of speed
    while any(Path(f"/proc/{pid}").exists() and _state(pid) != "Z" for pid in engines):
        assert time.monotonic() < deadline, f"engines left running: {engines}"
        time.sleep(0.1)


def _announced_length(url: str, path: str, length: int) -> int:
    """The status answered to a POST that announces a body of ``length`` bytes (the server
    must answer before reading it)."""
    host, port = url.split("//")[1].strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", "text/plain")
        connection.putheader("Content-Length", str(length))
        connection.endheaders()
        return connection.getresponse().status
    finally:
        connection.close()


def _chunked(url: str, path: str, size: int) -> int:
    """The status answered to a POST of ``size`` bytes sent in chunks, without a length."""
    host, port = url.split("//")[1].strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    chunks = (b"1. c3-d4 *\n" * 6000 for _ in range(size // 66_000 + 1))
    try:
        connection.request("POST", path, chunks, {"Content-Type": "text/plain"},
                           encode_chunked=True)
        return connection.getresponse().status
    finally:
        connection.close()


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, from any of its threads."""
    return [int(child) for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()]


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_the_analysis_board_explorer_and_diagrams(slipped: Path, tmp_path: Path,
                                                   shared_data: Path):
    from replay.record.board import Board
    from replay.record.diagram import board_svg
    from replay.rules.variants import RUSSIAN

    archive = shared_data / "games-checkers/russian/World_Championship_1998.pdn"
    database = tmp_path / "games.db"
    indexed = CliRunner().invoke(app, ["index", str(archive), "-o", str(database)])
    assert indexed.exit_code == 0, indexed.output
    fen = Board(RUSSIAN).fen()
    with served(slipped, "--database", database, "--engine", "none") as server:
        status, _, page = server.request("/games/2")
        assert status == 200
        data = page.decode().split('<script id="data" type="application/json">')[1]
        explorer = json.loads(data.split("</script>")[0])["explorer"]
        from replay.database.explore import explore
        from replay.database.schema import open_readonly

        connection = open_readonly(database)
        try:
            expected = explore(connection, Board(RUSSIAN).key(), RUSSIAN).rows
        finally:
            connection.close()
        assert [row[:2] for row in explorer[fen]] == [[r.move, r.games] for r in expected]
        assert expected and expected[0].games > 1
        status, headers, svg = server.request(f"/api/diagram.svg?variant=russian&fen={fen}")
        assert (status, headers["content-type"]) == (200, "image/svg+xml")
        assert svg.decode() == board_svg(Board(RUSSIAN))
        status, headers, png = server.request(f"/api/diagram.png?variant=russian&fen={fen}")
        if status == 200:
            assert png.startswith(b"\x89PNG")
        else:
            assert json.loads(png)["error"].startswith("PNG needs cairosvg")
        assert server.request("/api/diagram.svg?variant=russian&fen=W:Wz99")[0] == 400
        status, answer = server.json("/api/engine", {"variant": "russian", "fen": fen})
        assert status == 404 and "--engine none" in answer["error"]


def test_the_event_page_and_the_arbiters_report(slipped: Path):
    from replay.tournament import read_event, standings
    from replay.tournament.pages import standings_html

    with served(slipped) as server:
        status, _, page = server.request("/event")
        assert status == 200
        expected = standings_html(standings(read_event(read_games(slipped),
                                                       sources=[str(slipped)] * 2)))
        assert page.decode().replace(page.decode().split("<body>")[1].split("</p>")[0]
                                     + "</p>", "", 1) == expected
        from replay.validate.report_pdf import find_browser

        require(find_browser() is not None, "Chromium, which prints the report")
        status, headers, pdf = server.request("/event/report.pdf")
        assert status == 200 and headers["content-type"] == "application/pdf"
        assert pdf.startswith(b"%PDF")


def test_the_event_page_speaks_the_browsers_language_with_a_switch_to_the_others(slipped):
    from pdn.i18n import catalog
    from replay.tournament.pages import STANDINGS

    with served(slipped) as server:
        _, _, thai = server.request("/event", headers={"Accept-Language": "th-TH,en;q=0.5"})
        _, _, russian = server.request("/event?lang=ru",
                                       headers={"Accept-Language": "th-TH,en;q=0.5"})
        _, _, english = server.request("/event", headers={"Accept-Language": "de-DE"})
    thai_page, russian_page = thai.decode(), russian.decode()
    assert '<html lang="th">' in thai_page
    assert f"<h2>{catalog('th').gettext(STANDINGS)}</h2>" in thai_page
    assert '<a href="/event?lang=ru" hreflang="ru" lang="ru">Русский</a>' in thai_page
    assert '<a href="/event/report.pdf?lang=th">' in thai_page
    assert '<html lang="ru">' in russian_page
    assert f"<h2>{catalog('ru').gettext(STANDINGS)}</h2>" in russian_page
    assert '<html lang="en">' in english.decode()


def test_the_desk_evaluates_with_the_builtin_engine_unless_told_otherwise(slipped: Path):
    from replay.record.board import Board
    from replay.rules.variants import RUSSIAN, get_variant

    with served(slipped) as server:
        assert server.process.stdout.readline().strip() == "engine: built-in (pdn)"
        status, found = server.json("/api/engine", {"variant": "russian",
                                                    "fen": Board(RUSSIAN).fen()})
        assert status == 200, found
        assert found["source"] == "built-in (pdn)" and found["pv"] and found["score"]
        assert len(found["lines"]) == 3 and found["lines"][0]["pv"] == found["pv"]
        status, answer = server.json("/api/engine", {"variant": "canadian",
                                                     "fen": Board(get_variant(
                                                         "canadian")).fen()})
        assert status == 502 and answer["error"].startswith("no engine for canadian")
        assert server.json("/api/engine/stop", {}) == (200, {"stopped": True})

