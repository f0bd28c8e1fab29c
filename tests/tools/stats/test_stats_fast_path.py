"""The games table's fast path against its reference, on every game of real archives.

Without the moves table a main line the native core replays whole is counted by the native
core in one call (``replay.stats.rows._counted``); with it, the line is walked with the
replay's positions. The two rows of every game must be the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.reader import read_games
from replay import native
from replay.replayer import replay_game
from replay.stats.rows import MoveColumns, _counted, _full_names, game_row

FILES = ("english/tinsley.pdn", "games-checkers/russian/World_Championship_1998.pdn",
         "games-checkers/russian/abatsiev.pdn", "international/fmjd_wk2007_all_games.pdn",
         "lidraughts_sample/lidraughts_export_sample.pdn", "games-checkers/italian/partite.pdn")


@pytest.mark.parametrize("name", FILES)
def test_rows_without_the_moves_table_are_the_walked_rows(shared_data: Path, name: str
                                                          ) -> None:
    path = shared_data / name
    named = 0
    for ordinal, (fast, walked) in enumerate(zip(read_games(path), read_games(path),
                                                 strict=True), 1):
        row = game_row(fast, ordinal, None, None, 6, None)
        assert row == game_row(walked, ordinal, None, None, 6, MoveColumns()), fast.line
        named += row["opening_name"] is not None or row["ballot"] is not None
    if "russian" in name or "english" in name:
        assert named, "no opening named: the comparison did not reach the openings"


def test_the_fast_path_is_taken_with_the_native_core(shared_data: Path) -> None:
    if not native.available():
        pytest.skip("the native core is not built here")
    game = next(iter(read_games(shared_data / "english" / "OCA_2.0.pdn")))
    counted = _counted(replay_game(game), 6)
    assert counted is not None and counted[0].opening(6) is not None


def test_bad_arguments_to_the_native_count_raise_errors_not_crashes() -> None:
    from replay.variants import get_variant

    rules = native.rules_for(get_variant("international")) if native.available() else None
    if rules is None:
        pytest.skip("the native core is not built here")
    start = rules.start
    position = (start.white, start.black, start.kings, start.turn)
    names, _ = _full_names(get_variant("international"))
    counted = rules.count_line(start, "1. 32-28 19-23 2. 28x19 14x23", 3, names, "x", 40)
    assert counted is not None and (counted.plies, counted.captures, counted.texts) == \
        (4, 2, ["32-28", "19-23", "28x19"])
    assert len(counted.positions) == 2  # 40 pieces until the first capture
    assert rules.count_line(start, "1. 32-26", 3, names, "x", None) is None  # no such move
    with pytest.raises(ValueError):  # one name per internal square
        rules._core.count(*position, "32-28", 3, names[:-1], "x", -1)
    with pytest.raises(ValueError):  # an ASCII separator
        rules._core.count(*position, "32-28", 3, names, "×", -1)
    with pytest.raises(TypeError):
        rules._core.count(*position, "32-28")
    assert rules._core.count(*position, "32-28", 3, (None,) * len(names), "x", -1) is None
