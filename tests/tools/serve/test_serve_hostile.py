"""What ``pdn serve`` withstands beyond a bad request: a document that would stop the pages,
a file changed on disk under the desk, a file in another encoding than UTF-8, inputs too
large to read or show, clients that leave or never finish, a disk that cannot be written.
After each, every other document is still served."""

from __future__ import annotations

import errno
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import require
from support.served import Served, served

from pdn.reader import read_games
from replay.serve.desk import MAX_BOARD_GAME, MAX_GAMES_PER_TEXT, MAX_GLUED, Desk


@pytest.fixture(autouse=True)
def serve_extra() -> None:
    """Starlette and uvicorn, the [serve] extra (``make test-deps``; required under CI)."""
    require(bool(find_spec("starlette") and find_spec("uvicorn")),
            "the [serve] extra (Starlette and uvicorn)")


GAME = '[Event "Round {n}"]\n[White "W{n}"]\n[Black "B{n}"]\n[Result "*"]\n\n1. 32-28 *\n\n'
LATIN = ('[Event "Coupe"]\n[Site "Liège"]\n[White "Bertè"]\n[Black "Núñez"]\n[Result "*"]\n\n'
         '1. 32-28 19-23 *\n\n[Event "Coupe"]\n[White "Dupré"]\n[Black "Ølund"]\n'
         '[Result "*"]\n\n1. 33-28 *\n').encode("latin-1")
PAGES = ("/", "/api/games", "/event", "/new", "/games/1", "/api/games/1", "/download/1")


def games_file(tmp_path: Path, count: int = 2, name: str = "round.pdn") -> Path:
    path = tmp_path / name
    path.write_text("".join(GAME.format(n=n) for n in range(1, count + 1)), encoding="utf-8")
    return path


def every_page_answers(server: Served) -> None:
    for page in PAGES:
        status, _, body = server.request(page)
        assert status == 200, (page, body[:300])


# -- one document cannot take the others down --------------------------------------------------


@pytest.mark.parametrize("path, body", [
    ("/api/upload", {"name": "x.pdn", "text": '[White "\udcfc"]\n\n1. 32-28 *\n'}),
    ("/api/upload", {"name": "\ud800.pdn", "text": "1. 32-28 *\n"}),
    ("/api/check", {"text": '[White "\udcfc"]\n\n1. 32-28 *\n'}),
    ("/api/games/1/tag", {"name": "White", "value": "M\udcfcller"}),
    ("/api/games/1/move", {"ply": 0, "text": "32-28\udcfc"}),
    ("/api/games/1/text", {"text": '{\udcfc}\n1. 32-28 *\n'}),
    ("/api/play", {"variant": "international", "moves": ["32-28"],
                   "tags": {"White": "\udcfc"}}),
], ids=["upload", "upload's name", "check", "tag", "move", "text", "typed game's tag"])
def test_a_lone_surrogate_is_refused_at_the_door_and_every_page_still_answers(
        tmp_path: Path, path: str, body: dict):
    with served(games_file(tmp_path)) as server:
        assert server.json("/api/games/2/tag", {"name": "Round", "value": "7"})[0] == 200
        status, answer = server.json(path, body)  # sent as JSON's \udcfc escape
        assert status == 400 and "lone surrogate" in answer["error"], answer
        every_page_answers(server)
        assert server.json("/api/games")[1]["games"][0]["white"] == "W1"
        _, _, downloaded = server.request("/download/1")
        assert b'[Round "7"]' in downloaded  # the edit not yet written is still there


def test_a_file_named_in_bytes_that_are_not_utf8_is_served_under_a_readable_name(
        tmp_path: Path):
    path = os.fsdecode(os.fsencode(tmp_path) + b"/Li\xe8ge.pdn")  # a Latin-1 file name
    Path(path).write_text(GAME.format(n=1), encoding="utf-8")
    with served(path, "--write") as server:
        every_page_answers(server)
        assert server.json("/api/games")[1]["games"][0]["file"].endswith("Li\ufffdge.pdn")
        assert server.json("/api/games/1/tag", {"name": "Round", "value": "1"})[0] == 200
        assert server.json("/api/documents/1/write", {})[0] == 200
    assert '[Round "1"]' in Path(path).read_text(encoding="utf-8")


def test_a_text_of_too_many_games_is_refused_before_it_is_read(tmp_path: Path):
    one_move_games = "1. 32-28 *\n\n" * ((1 << 20) // 12 - 10)  # just under the 1 MiB cap
    with served(games_file(tmp_path)) as server:
        status, answer = server.json("/api/check", one_move_games.encode())
        assert status == 413 and f"more than {MAX_GAMES_PER_TEXT:,} games" in answer["error"]
        every_page_answers(server)


def test_games_glued_on_one_line_are_refused_before_they_are_read(tmp_path: Path):
    glued = " ".join(f'[Event "g{n}"] 1. 32-28 *' for n in range(3000)) + "\n"
    few = " ".join(f'[Event "g{n}"] 1. 32-28 *' for n in range(3)) + "\n"
    path = tmp_path / "glued.pdn"
    path.write_text(glued, encoding="utf-8")
    with served(games_file(tmp_path), path) as server:
        assert f"more than {MAX_GLUED} games begin on line 1" in server.messages()
        status, answer = server.json("/api/upload", {"name": "glued.pdn", "text": glued})
        assert status == 422 and f"more than {MAX_GLUED} games" in answer["error"]
        status, answer = server.json("/api/upload", {"name": "few.pdn", "text": few})
        assert status == 422 and "games 1 and 2 begin on the same line 1" in answer["error"]
        every_page_answers(server)
        assert len(server.json("/api/games")[1]["games"]) == 2


def test_a_game_too_long_for_the_board_keeps_its_row_and_the_others_their_pages(
        tmp_path: Path):
    # under the reader's ply limit, long by its comments: a thousand plies, each commented
    comment = "{" + "a long note " * (MAX_BOARD_GAME // 3_000) + "}"
    moves = " ".join(f"{n}. {('4-8 29-25', '8-4 25-29')[n % 2 == 0]} {comment}"
                     for n in range(1, 501))
    long_game = f'[GameType "21"]\n[FEN "B:WK29:BK4"]\n{moves} *\n'
    assert len(long_game) > MAX_BOARD_GAME
    with served(games_file(tmp_path)) as server:
        status, answer = server.json("/api/upload", {"name": "long.pdn", "text": long_game})
        assert status == 200
        number = answer["games"][0]
        status, row = server.json(f"/api/games/{number}")
        assert status == 200 and row["plies"] == 1_000
        for page in (f"/games/{number}", f"/api/games/{number}?suggest=1"):
            status, _, body = server.request(page)
            assert status == 413 and b"more than the board takes" in body
        status, answer = server.json(f"/api/games/{number}/move", {"ply": 0, "text": "4-8"})
        assert status == 413
        every_page_answers(server)


# -- writing back: never lose a game ---------------------------------------------------------


def test_a_file_changed_on_disk_is_not_overwritten_and_a_reload_keeps_every_game(
        tmp_path: Path):
    path = games_file(tmp_path)
    first = path.read_bytes()
    appended = GAME.format(n=3).encode()
    with served(path, "--write") as server:
        assert server.json("/api/games/1/tag", {"name": "Round", "value": "1"})[0] == 200
        assert server.json("/api/documents/1/write", {})[0] == 200
        with path.open("ab") as stream:  # another program adds a game
            stream.write(appended)
        assert server.json("/api/games/2/tag", {"name": "Round", "value": "2"})[0] == 200
        status, answer = server.json("/api/documents/1/write", {})
        assert status == 409 and "changed on disk since the desk read it" in answer["error"]
        assert path.read_bytes().endswith(appended)
        status, answer = server.json("/api/documents/1/reload", {})
        assert (status, answer["games"]) == (200, [1, 2, 3])
        assert server.json("/api/documents/1/write", {})[0] == 200
    assert path.with_name("round.pdn.orig").read_bytes() == first
    games = list(read_games(path))
    assert [game.tags.get("Round") for game in games] == ["1", "2", None]
    assert games[2].tags["White"] == "W3"


def test_two_servers_writing_one_file_lose_nothing(tmp_path: Path):
    path = games_file(tmp_path)
    with served(path, "--write") as one, served(path, "--write") as two:
        assert one.json("/api/games/1/tag", {"name": "White", "value": "Ann"})[0] == 200
        assert two.json("/api/games/2/tag", {"name": "White", "value": "Bob"})[0] == 200
        assert one.json("/api/documents/1/write", {})[0] == 200
        status, answer = two.json("/api/documents/1/write", {})
        assert status == 409 and "reload" in answer["error"]
        assert two.json("/api/documents/1/reload", {})[0] == 200  # Bob's edit carried over
        assert two.json("/api/documents/1/write", {})[0] == 200
        status, answer = one.json("/api/documents/1/write", {})
        assert status == 409
    assert [game.tags["White"] for game in read_games(path)] == ["Ann", "Bob"]


def test_a_reload_that_would_drop_an_edit_is_refused_unless_discarded(tmp_path: Path):
    path = games_file(tmp_path)
    with served(path, "--write") as server:
        assert server.json("/api/games/1/tag", {"name": "Round", "value": "1"})[0] == 200
        path.write_text(GAME.format(n=9), encoding="utf-8")  # game 1 rewritten elsewhere
        status, answer = server.json("/api/documents/1/reload", {})
        assert status == 409 and "game(s) 1 were edited here" in answer["error"]
        assert b'[Round "1"]' in server.request("/download/1")[2]
        status, answer = server.json("/api/documents/1/reload", {"discard": True})
        assert (status, answer["games"]) == (200, [1])
        assert server.json("/api/games/1")[1]["white"] == "W9"


# -- encodings: nothing changed in silence ---------------------------------------------------


def test_a_latin1_file_is_downloaded_and_written_back_in_latin1_byte_for_byte(tmp_path: Path):
    path = tmp_path / "coupe.pdn"
    path.write_bytes(LATIN)
    second = LATIN.index(b'[Event "Coupe"]', 10)
    with served(path, "--write") as server:
        assert server.request("/download/1")[2] == LATIN  # not re-encoded as UTF-8
        status, answer = server.json("/api/games/1/tag", {"name": "Site", "value": "Москва 王"})
        assert status == 422 and "cannot be written in latin-1" in answer["error"]
        status, _ = server.json("/api/games/2/tag", {"name": "Site", "value": "Genève"})
        assert status == 200
        assert server.json("/api/documents/1/write", {})[0] == 200
    written = path.read_bytes()
    assert written[:second] == LATIN[:second]  # game 1 byte for byte
    assert '[Site "Genève"]' in written[second:].decode("latin-1")
    assert [game.tags["Black"] for game in read_games(path)] == ["Núñez", "Ølund"]


def test_a_file_converted_to_utf8_on_request_takes_any_edit(tmp_path: Path):
    path = tmp_path / "coupe.pdn"
    path.write_bytes(LATIN)
    with served(path, "--write") as server:
        status, answer = server.json("/api/documents/1/encoding", {"encoding": "utf-8"})
        assert (status, answer["encoding"]) == (200, "utf-8")
        status, _ = server.json("/api/games/1/tag", {"name": "Site", "value": "Москва 王"})
        assert status == 200
        assert server.request("/download/1")[2] == path.read_bytes().decode("latin-1") \
            .replace("Liège", "Москва 王").encode("utf-8")
        assert server.json("/api/documents/1/write", {})[0] == 200
    assert path.read_text(encoding="utf-8").count("Москва 王") == 1
    assert path.with_name("coupe.pdn.orig").read_bytes() == LATIN


# -- clients that leave or never finish, a disk that cannot be written -----------------------


def test_a_client_that_leaves_mid_body_is_forgotten_without_a_traceback(tmp_path: Path):
    with served(games_file(tmp_path)) as server:
        host, port = server.url.split("//")[1].strip("/").split(":")
        for path, kind in (("/api/check", "text/plain"), ("/api/upload", "application/json")):
            with socket.create_connection((host, int(port)), timeout=30) as client:
                client.sendall(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: "
                               f"{kind}\r\nContent-Length: 100000\r\n\r\n{{\"text\": \"1. 3"
                               .encode())
        every_page_answers(server)  # served after the two left
        assert "Traceback" not in server.messages()
        assert "ClientDisconnect" not in server.messages()


@contextmanager
def in_process(desk: Desk, *, write: bool = False, header_seconds: float = 10.0
               ) -> Iterator[str]:
    """The desk's server on a loopback port in a thread of this process (so that a test
    can set its header timeout or make its disk fail); yields its address."""
    import uvicorn

    from replay.serve.app import Logged, Settings, create_app
    from replay.serve.security import Guard
    from replay.serve.server import bind, uvicorn_config

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = Logged(Guard(create_app(desk, Settings(write=write)), hosts={f"127.0.0.1:{port}"}))
    server = uvicorn.Server(uvicorn_config(app, header_seconds))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), "the server did not start"
            thread.join(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


def test_half_sent_request_headers_are_answered_408_and_closed_by_the_server(tmp_path: Path):
    desk = Desk()
    desk.add_file(str(games_file(tmp_path)))
    with in_process(desk, header_seconds=0.5) as url:
        server = Served(url, None)  # type: ignore[arg-type]
        port = int(url.rsplit(":", 1)[1].strip("/"))
        clients = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(8)]
        try:
            for number, client in enumerate(clients):
                if number % 2:  # half of them say nothing at all
                    client.sendall(f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                                   f"X-Slow: ".encode())
            for number, client in enumerate(clients):
                answer = b"".join(iter(lambda c=client: c.recv(4096), b""))  # until closed
                if number % 2:
                    assert answer.startswith(b"HTTP/1.1 408 "), answer
                else:  # closed without a word, as an idle connection
                    assert answer == b""
        finally:
            for client in clients:
                client.close()
        assert server.json("/api/games")[0] == 200  # a whole request is served as before


def test_a_body_that_stops_coming_is_answered_408(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch):
    from replay.serve import security

    monkeypatch.setattr(security, "BODY_IDLE_SECONDS", 0.5)
    desk = Desk()
    desk.add_file(str(games_file(tmp_path)))
    with in_process(desk) as url:
        port = int(url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port), timeout=60) as client:
            client.sendall(f"POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Content-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"
                           f"1. 32-28".encode())
            answer = b"".join(iter(lambda: client.recv(4096), b""))  # until closed
        assert answer.startswith(b"HTTP/1.1 408 ") and b"stopped coming" in answer
        assert Served(url, None).json("/api/games")[0] == 200  # type: ignore[arg-type]


def test_a_write_back_onto_a_full_disk_or_a_read_only_folder_answers_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = games_file(tmp_path)
    before = path.read_bytes()
    desk = Desk()
    desk.add_file(str(path))
    desk.set_tag(1, "Round", "1")
    with in_process(desk, write=True) as url:
        server = Served(url, None)  # type: ignore[arg-type]
        for number, status in ((errno.ENOSPC, 507), (errno.EROFS, 403), (errno.EACCES, 403)):
            def failing(source, target, number=number):
                raise OSError(number, os.strerror(number))

            monkeypatch.setattr(os, "replace", failing)
            answer_status, answer = server.json("/api/documents/1/write", {})
            monkeypatch.undo()
            assert answer_status == status
            assert os.strerror(number) in answer["error"]
            assert "the file is as it was" in answer["error"]
            assert path.read_bytes() == before
            assert not list(tmp_path.glob(".*.part"))  # no half-written file left
        assert server.json("/api/documents/1/write", {})[0] == 200
        assert b'[Round "1"]' in path.read_bytes()


def test_the_server_listens_on_the_loopback_address_unless_told(tmp_path: Path):
    with served(games_file(tmp_path)) as server:
        assert server.url.startswith("http://127.0.0.1:")
        assert server.json("/api/games", headers={"Host": "example.com"})[0] == 403
