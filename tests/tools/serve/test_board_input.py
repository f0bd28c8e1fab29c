"""The routes the desk's board matches its clicks against (``replay.serve.board_input``),
checked along real games (lidraughts' International games with ambiguous captures, Russian
games of wiegerw/pdn's test files, in ../shared/data): every legal move is there, and each
route's text means that very move to the project's own move reader."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

import pytest

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import replay_game
from replay.record.resolve import parse_text
from replay.serve.board_input import legal_routes, square_centres

DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
ARCHIVES = ["lidraughts_sample/lidraughts_ambiguous_capture_sample.pdn",
            "tests/wiegerw_pdn/fail/abatsiev.pdn"]


@pytest.mark.parametrize("archive", ARCHIVES)
def test_every_legal_move_is_a_route_whose_text_reads_back_as_that_move(archive: str):
    path = DATA / archive
    if not path.exists():
        pytest.skip(f"{archive} is not in ../shared/data")
    positions = captures = twins = 0
    for game in islice(read_games(path), 12):
        replayed = replay_game(game)
        board = Board(replayed.variant, replayed.start)
        name = board.variant.geometry.name
        for move in [None, *replayed.moves]:
            if move is not None:
                board.push(move)
            routes = legal_routes(board)
            legal = {(name(m.origin), name(m.destination), tuple(sorted(map(name, m.captures))))
                     for m in board.legal_moves()}
            listed = {(r["squares"][0], r["squares"][-1], tuple(r["taken"])) for r in routes}
            assert listed == legal
            for route in routes:
                read = parse_text(board, route["text"])
                assert (name(read.origin), name(read.destination),
                        sorted(map(name, read.captures))) == \
                    (route["squares"][0], route["squares"][-1], route["taken"])
            positions += 1
            captures += sum(bool(r["taken"]) for r in routes)
            twins += len(routes) - len(legal)
    assert positions > 100 and captures > 10
    print(f"{archive}: {positions} positions, {captures} capture routes, {twins} extra routes")


def test_every_playing_square_has_a_centre_and_its_notation_name():
    from replay.rules.variants import INTERNATIONAL, RUSSIAN

    for variant, first in ((RUSSIAN, "a1"), (INTERNATIONAL, "46")):
        drawn = square_centres(Board(variant))
        assert len(drawn["centres"]) == len(variant.geometry.playable)
        assert drawn["labels"]["a1"] == first
        assert drawn["size"] > 0


def test_the_editor_api_names_what_makes_a_position_impossible_or_unreadable():
    from importlib.util import find_spec

    from conftest import require
    from support.served import served

    require(bool(find_spec("starlette") and find_spec("uvicorn")), "the [serve] extra")
    with served() as server:
        status, edited = server.json("/api/position", {
            "variant": "international", "fen": "B:W" + ",".join(map(str, range(1, 22)))
            + ":B30"})
        assert status == 200 and edited["fen"].startswith("B:W1,2,")
        assert edited["problems"] == [
            "White has 21 pieces, more than the 20 a side starts with in international",
            *(f"a white man on {n}, the row where White is crowned, would be a king"
              for n in range(1, 6))]
        status, refused = server.json("/api/position", {"variant": "russian",
                                                        "fen": "W:Wa1,a1:Bh8"})
        assert status == 400 and refused["error"].startswith("not a position: bad FEN")
        status, start = server.json("/api/position", {"variant": "russian"})
        assert start["problems"] == [] and start["legal"] == 7
        status, routes = server.json("/api/routes", {"variant": "russian", "fen": start["fen"]})
        assert status == 200 and len(routes["routes"]) == 7
