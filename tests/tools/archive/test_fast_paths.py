"""dedupe's and filter's fast paths against their reference, on every game of real archives.

A game whose plies were made has no move tokens (``Line.move_tokens``), so it takes the
reference path (plies, the Python replayer); the same game read afresh takes the fast one
(move texts, the native core where it was built). Both must say the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.reader import read_games
from replay.archive.dedupe import fingerprint, written_key
from replay.archive.walk import line_end, walk_main_line
from replay.rules import native
from replay.rules.variants import ENGLISH

FILES = ("english/tinsley.pdn", "games-checkers/russian/World_Championship_1998.pdn",
         "international/fmjd_wk2007_all_games.pdn",
         "lidraughts_sample/lidraughts_export_sample.pdn",
         "games-checkers/italian/partite.pdn")


def _pairs(path: Path) -> list[tuple]:
    """Each game twice, read afresh: the second with its plies made (the reference path)."""
    fast, reference = list(read_games(path)), list(read_games(path))
    for game in reference:
        _ = game.moves.plies
    return list(zip(fast, reference, strict=True))


@pytest.mark.parametrize("name", FILES)
def test_written_key_and_fingerprint_as_from_the_plies(shared_data: Path, name: str) -> None:
    pairs = _pairs(shared_data / name)
    plain = 0
    for fast, reference in pairs:
        plain += fast.main_line_tokens() is not None
        assert written_key(fast, ENGLISH) == written_key(reference, ENGLISH), fast.line
    assert plain, "no game of the file kept its move texts: the fast path was not tried"
    for fast, reference in _pairs(shared_data / name):
        assert fingerprint(fast, ENGLISH) == fingerprint(reference, ENGLISH), fast.line


@pytest.mark.parametrize("name", FILES)
def test_line_end_is_the_walks_end(shared_data: Path, name: str) -> None:
    pairs = _pairs(shared_data / name)
    for fast, reference in pairs:
        end = line_end(fast, ENGLISH)
        walked = walk_main_line(reference, ENGLISH)
        assert (end.variant, end.status, end.final) == (walked.variant, walked.status,
                                                        walked.final), fast.line
        assert fast.moves.ply_count() == len(reference.moves.plies)


def test_fast_paths_are_taken_with_the_native_core(shared_data: Path) -> None:
    """Where the native core is built, a plain game's key and end leave its plies unmade."""
    if not native.available():
        pytest.skip("the native core is not built here")
    game = next(iter(read_games(shared_data / "english" / "OCA_2.0.pdn")))  # a plain game
    assert game.main_line_tokens() is not None
    written_key(game, ENGLISH)
    assert line_end(game, ENGLISH).status == "valid"
    assert game.main_line_tokens() is not None  # still plain: no ply was made


@pytest.mark.parametrize("name", FILES)
def test_the_walk_takes_the_replayers_route_of_every_move(shared_data: Path, name: str,
                                                          monkeypatch) -> None:
    """A king's capture that several routes make (``5x46``: landing on 28, 32 or 37 between
    its two captures) is one move; the Python walk (what ``pdn index`` writes without the
    native core) takes the route the replayer and the native core take (it took another)."""
    from replay.record.replayer import replay_game

    replayed = [[(move.origin, move.path) for move in replay_game(game, ENGLISH).moves]
                for game in read_games(shared_data / name)]
    monkeypatch.setattr(native, "rules_for", lambda variant: None)  # the Python walk
    for game, moves in zip(read_games(shared_data / name), replayed, strict=True):
        walked = walk_main_line(game, ENGLISH)
        assert [(move.origin, move.path) for move in walked.moves] == moves, game.line
