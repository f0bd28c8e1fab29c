"""A game of more plies than ``PLY_LIMIT`` is refused where it stands, not read into memory
(each ply read and replayed takes about a kilobyte); the games around it are read."""

from __future__ import annotations

import pytest

from pdn import PdnText, read_games
from pdn import reader as reader_module
from pdn.errors import unreadable_reason


def shuffling(plies: int) -> str:
    """One English game of ``plies`` plies on one line: two kings shuffling."""
    pairs = ("4-8 29-25", "8-4 25-29")
    moves = " ".join(f"{n}. {pairs[n % 2 == 0]}" for n in range(1, plies // 2 + 1))
    return f'[GameType "21"]\n[FEN "B:WK29:BK4"]\n{moves} *\n\n'


AROUND = '[Event "before"]\n1. 11-15 23-19 *\n\n{}[Event "after"]\n1. 9-13 22-18 *\n'


@pytest.mark.parametrize("fast", ["0", "1"])
def test_a_game_over_the_ply_limit_is_refused_at_its_line_and_the_others_read(
        monkeypatch, fast):
    monkeypatch.setattr(reader_module, "PLY_LIMIT", 500)
    monkeypatch.setattr(reader_module, "FAST_PATH", fast == "1")
    games = list(read_games(PdnText(AROUND.format(shuffling(1_000)))))
    assert [game.tags.get("Event") for game in games] == ["before", None, "after"]
    before, refused, after = games
    assert before.moves.ply_count() == 2 and after.moves.ply_count() == 2
    assert refused.line == 4 and refused.tags["GameType"] == "21"
    reason = unreadable_reason(refused)
    assert reason == ("the game at 4:1 holds 1,000 plies, more than the 500 a game may "
                      "hold: it is not read; the games around it are")
    assert refused.moves.ply_count() == 0


def test_a_game_at_the_ply_limit_is_read(monkeypatch):
    monkeypatch.setattr(reader_module, "PLY_LIMIT", 500)
    (game,) = read_games(PdnText(shuffling(500)))
    assert game.moves.ply_count() == 500 and unreadable_reason(game) is None


def test_the_limit_leaves_the_longest_games_of_the_archives_read(shared_data):
    """The real archives' longest games are far below the limit."""
    longest = max(game.moves.ply_count()
                  for game in read_games(shared_data / "english" / "OCA_2.0.pdn"))
    assert 0 < longest * 10 < reader_module.PLY_LIMIT


def test_validate_reports_the_refused_game_as_unreadable(monkeypatch, tmp_path):
    from replay.validate.reports import validate_sources

    monkeypatch.setattr(reader_module, "PLY_LIMIT", 500)
    path = tmp_path / "long.pdn"
    path.write_text(AROUND.format(shuffling(1_000)))
    reports = list(validate_sources([str(path)], jobs=1))
    assert [report.status for report in reports] == ["valid", "unreadable", "valid"]
    assert "more than the 500 a game may hold" in reports[1].errors[0]["message"]
