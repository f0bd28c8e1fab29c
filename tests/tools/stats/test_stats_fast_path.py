"""The statistics' native paths against their reference, on every game of real archives.

A main line the native core replays whole is counted by the native core in one call
(``replay.stats.rows._counted``), and the moves table's rows of a plain run are made there
too (``_rows_added``); the reference walks the line with the replay's positions. The games
row and the moves rows of every game must be the same.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pandas as pd
import pytest
from conftest import SHARED_DATA

from pdn.reader import read_games
from replay.record.replayer import replay_game
from replay.rules import native
from replay.stats import rows
from replay.stats.rows import MoveColumns, _counted, _full_names, _row_tables, game_row
from replay.stats.schema import typed_moves

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


@pytest.mark.parametrize("name", FILES)
def test_rows_not_walked_differ_only_in_what_a_walk_counts_and_add_the_same_moves(
        shared_data: Path, name: str) -> None:
    """``walked=False`` (the summary's and a moves run's rows): no second pass along the
    main line, so the ``WALK_COLUMNS`` are missing; every other column, and the moves
    table's rows, are those of the walked row."""
    path = shared_data / name
    walked_moves, plain_moves = MoveColumns(), MoveColumns()
    games = zip(read_games(path), read_games(path), strict=True)
    counted = 0
    for ordinal, (first, second) in enumerate(games, 1):
        walked = game_row(first, ordinal, None, None, 6, walked_moves)
        plain = game_row(second, ordinal, None, None, 6, plain_moves, walked=False)
        assert all(plain[column] is None for column in rows.WALK_COLUMNS), second.line
        assert {k: v for k, v in plain.items() if k not in rows.WALK_COLUMNS} == \
            {k: v for k, v in walked.items() if k not in rows.WALK_COLUMNS}, second.line
        counted += walked["captures"] is not None
    assert counted
    pd.testing.assert_frame_equal(typed_moves(plain_moves.columns),
                                  typed_moves(walked_moves.columns))


@pytest.mark.parametrize("name", FILES + ("english/OCA_2.0.pdn",))
def test_the_moves_rows_made_natively_are_the_walked_rows(shared_data: Path, name: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    path = shared_data / name
    made = 0
    native_rows, walked_rows = MoveColumns(), MoveColumns()
    games = zip(read_games(path), read_games(path), strict=True)
    for ordinal, (fast, walked) in enumerate(itertools.islice(games, 3000), 1):
        before = native_rows.plies
        row = game_row(fast, ordinal, None, None, 6, native_rows)
        made += native_rows.plies > before and fast.moves.move_run() is not None
        with monkeypatch.context() as patch:
            patch.setattr(rows, "_rows_added", lambda *args: False)
            assert row == game_row(walked, ordinal, None, None, 6, walked_rows), fast.line
        assert native_rows.games == walked_rows.games, fast.line
        assert native_rows.parts[-1:] == walked_rows.parts[-1:], fast.line
    assert native_rows.plies == walked_rows.plies > 0
    pd.testing.assert_frame_equal(typed_moves(native_rows.columns),
                                  typed_moves(walked_rows.columns))
    if native.available() and "OCA" in name:
        assert made > 2500  # nearly every game of OCA 2.0 is a plain run


def data_files() -> list[Path]:
    return sorted(SHARED_DATA.rglob("*.pdn")) if SHARED_DATA.is_dir() else []


FULL = os.environ.get("PDN_FULL_DATA", "") not in ("", "0")
SAMPLE = 300  # games per file in the normal run; every game with PDN_FULL_DATA=1


@pytest.mark.parametrize("path", data_files(), ids=lambda p: str(p.relative_to(SHARED_DATA)))
def test_the_counts_taken_from_the_native_replay_are_the_walked_counts(path: Path) -> None:
    """A main line the replay checked on the native core gives its counts there
    (``ReplayedGame.line_counts``), and only its first plies are replayed again for the
    opening's texts and positions: what ``_counted`` finds so is what the whole native
    count finds and what the walk along the replay's moves, in Python, counts."""
    taken = 0
    for ordinal, game in enumerate(itertools.islice(read_games(path), None if FULL else SAMPLE),
                                   1):
        replayed = replay_game(game)
        counted = _counted(replayed, 6)
        if replayed.line_counts is None or counted is None:
            continue
        taken += 1
        walk, name = counted
        whole = replay_game(game)
        whole.line_counts = None  # counted along the whole line in one native call
        assert _counted(whole, 6) == counted, game.line
        assert walk == rows._walk(replayed, ordinal, 6, None), game.line
        assert name == rows._opening_name(replayed), game.line
    if native.available() and path.relative_to(SHARED_DATA) == Path("english/OCA_2.0.pdn"):
        assert taken > SAMPLE // 2  # nearly every game of OCA 2.0 replays natively


def test_the_fast_path_is_taken_with_the_native_core(shared_data: Path) -> None:
    if not native.available():
        pytest.skip("the native core is not built here")
    game = next(iter(read_games(shared_data / "english" / "OCA_2.0.pdn")))
    counted = _counted(replay_game(game), 6)
    assert counted is not None and counted[0].opening(6) is not None


def test_bad_arguments_to_the_native_count_raise_errors_not_crashes() -> None:
    rules, names = _international_counter()
    start = rules.start
    position = (start.white, start.black, start.kings, start.turn)
    counted = rules.count_line(start, "1. 32-28 19-23 2. 28x19 14x23", 3, names, "x", 40)
    assert counted is not None and (counted.plies, counted.captures, counted.texts) == \
        (4, 2, ["32-28", "19-23", "28x19"])
    assert len(counted.keys) == 2  # 40 pieces until the first capture
    assert rules.count_line(start, "1. 32-26", 3, names, "x", None) is None  # no such move
    with pytest.raises(ValueError):  # one name per internal square
        rules._core.count(*position, "32-28", 3, names[:-1], "x", -1)
    with pytest.raises(ValueError):  # an ASCII separator
        rules._core.count(*position, "32-28", 3, names, "×", -1)
    with pytest.raises(TypeError):
        rules._core.count(*position, "32-28")
    assert rules._core.count(*position, "32-28", 3, (None,) * len(names), "x", -1) is None


def test_the_head_of_a_native_count_stops_after_its_texts_and_positions() -> None:
    """``head``: the count replays only the plies that give a text (the first ``kept``) or
    a position (while ``floor`` pieces stand), and gives their texts and positions as the
    whole count does; the counts are of those plies alone."""
    rules, names = _international_counter()
    start = rules.start
    position = (start.white, start.black, start.kings, start.turn)
    line = "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 10-14 5. 31-26 5-10"
    whole = rules.count_line(start, line, 3, names, "x", 40)
    assert whole is not None and (whole.plies, whole.captures) == (10, 4)
    head = rules.count_line(start, line, 3, names, "x", 40, head=True)
    assert head is not None and (head.plies, head.captures) == (3, 1)  # 40 pieces: 2 plies
    assert (head.texts, head.keys) == (whole.texts, whole.keys)
    deeper = rules.count_line(start, line, 3, names, "x", 38, head=True)
    assert deeper is not None and (deeper.plies, deeper.captures, len(deeper.keys)) == (6, 3, 5)
    assert deeper.keys == rules.count_line(start, line, 3, names, "x", 38).keys
    assert rules.count_line(start, line, 0, names, "x", None, head=True).plies == 0
    with pytest.raises(ValueError):  # head is 0 or 1
        rules._core.count(*position, "32-28", 3, names, "x", -1, 2)
    with pytest.raises(TypeError):
        rules._core.count(*position, "32-28", 3, names, "x", -1, 1, 0)


def test_bad_arguments_to_the_native_rows_raise_errors_not_crashes() -> None:
    from replay.rules.variants import get_variant

    variant = get_variant("russian")
    rules = native.rules_for(variant) if native.available() else None
    if rules is None:
        pytest.skip("the native core is not built here")
    start, tables = rules.start, _row_tables(variant)
    position = (start.white, start.black, start.kings, start.turn)
    made = rules.move_rows(start, "1. e3-d4 d6-c5 2. f2-e3 f6-g5 3. c3-b4 g5-h4 4. b4:d6",
                           tables)
    assert made is not None
    moves = MoveColumns()
    moves.add((1, 7, 1, 0, 0), made)
    columns = typed_moves(moves.columns)
    assert columns[["move", "short", "numeric"]].tail(3).to_numpy().tolist() == [
        ["c3-b4", "cb4", "22-17"], ["g5-h4", "gh4", "16-20"], ["b4:d6", "b:d6", "17:10"]]
    assert columns.iloc[-1, 7:16].tolist() == ["man", 1, False, "b4", "d6", 12, 0, 11, 0]
    assert rules.move_rows(start, "1. c3-b5", tables) is None  # no such move
    with pytest.raises(ValueError):  # one name per internal square
        rules._core.rows(*position, "c3-d4", tables[0][:-1], *tables[1:])
    with pytest.raises(TypeError):
        rules._core.rows(*position, "c3-d4")
    assert rules._core.rows(*position, "c3-d4", (None,) * len(tables[0]), *tables[1:]) is None


def test_the_moves_texts_as_python_str_are_the_texts_arrow_reads(
        shared_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = MoveColumns()
    for ordinal, game in enumerate(itertools.islice(
            read_games(shared_data / "english" / "tinsley.pdn"), 200), 1):
        game_row(game, ordinal, None, None, 6, moves)
    arrow = typed_moves(moves.columns)
    monkeypatch.setattr(rows, "STRING", pd.StringDtype("python"))
    columns = moves.columns
    assert isinstance(columns["move"], list) and len(columns["move"]) == moves.plies > 0
    for name in ("move", "short", "numeric", "from_square", "to_square"):
        assert columns[name] == arrow[name].tolist(), name


def _international_counter():
    """The native core's International rules and the full names of its squares; the test
    is skipped where the native core is not built."""
    from replay.rules.variants import get_variant

    rules = native.rules_for(get_variant("international")) if native.available() else None
    if rules is None:
        pytest.skip("the native core is not built here")
    return rules, _full_names(get_variant("international"))[0]
