"""The database's rows from its native part (``index`` and ``Tally`` of
replay.database._positions, replay/database/_positions.c) against the Python walk and coder
they replace: every game of real archives, generated positions and games of every variant
the core takes, and any input refused without a crash. The same database is built with and
without the native core."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from itertools import islice, pairwise
from pathlib import Path

import pytest
from conftest import SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.positions import positions

from pdn.reader import read_games
from replay.archive import Settings
from replay.archive.walk import walk_main_line
from replay.database import build, played, positions_table, rows
from replay.database.build import index_sources
from replay.database.keys import coder, position_hash
from replay.database.native import MODULE, PythonKeySet, index_line, key_set, tally
from replay.database.played import GameFacts, MovesPlayed, NativeMovesPlayed
from replay.record.board import Board
from replay.record.notation import full_text
from replay.record.replayer import BLACK_WINS, DRAW, UNKNOWN, VALID, WHITE_WINS
from replay.record.resolve import plain_mover, record_of_text, resolve
from replay.rules import native
from replay.rules.choice import RulesChoice
from replay.rules.position import Position, start_position
from replay.rules.variants import VARIANTS, Variant, get_variant

if native.extension(MODULE) is None:
    pytest.skip("the database's native part is not built here", allow_module_level=True)

NATIVE = [v for v in VARIANTS if native.rules_for(v) is not None and native.rules_for(v).replays
          and coder(v).layout is not None]
CASES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ARCHIVES = ["english/tinsley.pdn", "english/OCA_2.0.pdn", "international/fmjd_wk2007_all_games.pdn",
            "lidraughts_sample/lidraughts_export_sample.pdn",
            "lidraughts_sample/lidraughts_ambiguous_capture_sample.pdn",
            "games-checkers/russian/World_Championship_1998.pdn",
            "games-checkers/russian/abatsiev.pdn",
            "games-checkers/italian/40champ-1996.pdn"]
# those whose games the native core replays (the others: variations, notes on moves)
NATIVE_ARCHIVES = {"english/tinsley.pdn", "english/OCA_2.0.pdn",
                   "games-checkers/russian/abatsiev.pdn", "international/fmjd_wk2007_all_games.pdn"}


def test_the_core_takes_the_variants_it_replays():
    assert {v.name for v in NATIVE} >= {"english", "international", "russian", "italian"}


def python_line(game, choice: RulesChoice, seen: set[int]) -> rows.LineRows:
    return rows.python_rows(walk_main_line(game, choice.default, choice.override,
                                           rules=choice.rules), seen)


@pytest.mark.parametrize("name", ARCHIVES)
def test_rows_of_every_game_are_the_python_walks(name: str):
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(f"{path} is not present")
    choice = RulesChoice()
    fast_seen: set[int] = set()
    slow_seen: set[int] = set()
    native_games = 0
    for game in islice(read_games(path), 1500):
        fast = rows.line_rows(game, choice, fast_seen)
        native_games += rows._native_rows(game, choice, set()) is not None
        assert fast == python_line(game, choice, slow_seen)
        assert fast_seen == slow_seen
    if name in NATIVE_ARCHIVES:
        assert native_games  # the native path was taken, not only the Python one


def index(variant: Variant, position: Position, texts: list[str], seen: set[int] | None):
    rules = native.rules_for(variant)
    assert rules is not None
    return index_line(rules, position, texts, coder(variant).layout, seen)


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@CASES
@given(data=st.data())
def test_a_positions_key_and_row_are_the_python_coders(variant: Variant, data: st.DataObject):
    position = data.draw(positions(variant))
    plies, final, keys, found, moves = index(variant, position, [], None)
    key = position_hash(position, variant)
    assert (plies, final, keys, moves) == (0, position, [key], "")
    assert found == [coder(variant).position_row(key, position)]
    assert index(variant, position, [], {key})[3] == []  # a key seen has no row


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@CASES
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 80))
def test_a_random_games_rows_are_the_python_ones(variant: Variant, seed: int, plies: int):
    rng = random.Random(seed)
    board = Board(variant)
    texts, line = [], [board.position]
    moves = []
    for _ in range(plies):
        legal = board.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        texts.append(full_text(board, move))
        board.push(move)
        moves.append(move)
        line.append(board.position)
    done = index(variant, line[0], texts, set())
    assert done is not None
    count, final, keys, found, text = done
    # a text the reference would resolve with a note is left to it: the core stops there
    line, moves = line[:count + 1], moves[:count]
    assert final == line[-1]
    assert keys == [position_hash(p, variant) for p in line]
    distinct = list(dict.fromkeys(keys))
    by_key = dict(zip(keys, line, strict=True))
    assert found == [coder(variant).position_row(k, by_key[k]) for k in distinct]
    # where routes of one move differ the text says which the reference takes
    board = Board(variant, line[0])
    resolved = []
    for written in texts[:count]:
        record = record_of_text(written)  # the replayer's: its fast path, else resolve
        resolved.append(plain_mover(board)(record) or resolve(board, record).move)
        board.push(resolved[-1])
    assert [m.captured_mask for m in resolved] == [m.captured_mask for m in moves]
    assert text == rows.moves_text(resolved, variant)


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), texts=st.lists(st.text(max_size=10), max_size=6))
def test_any_texts_stop_the_replay_cleanly(variant: Variant, data: st.DataObject,
                                           texts: list[str]):
    position = data.draw(positions(variant))
    done = index(variant, position, texts, set())
    assert done is not None
    assert 0 <= done[0] <= len(texts) and len(done[2]) == done[0] + 1


def test_bad_layouts_and_arguments_raise_errors_not_crashes():
    variant = get_variant("english")
    rules = native.rules_for(variant)
    positions_module, start = native.extension(MODULE), start_position(variant)
    args = (rules.core, start.white, start.black, start.kings, start.turn, ["11-15"])
    layout = coder(variant).layout
    broken = [None, (), layout[:4], (1, *layout[1:]), (*layout[:2], b"", *layout[3:]),
              (*layout[:2], bytes([255]) * len(layout[2]), *layout[3:]),
              (*layout[:2], bytes([0]) * len(layout[2]), *layout[3:]),
              (*layout[:3], layout[3][:-1], layout[4]), (*layout[:3], layout[3], ("x",) * 3),
              (*layout[:3], ("123456789",) * len(layout[3]), layout[4]),
              (layout[0], b"x" * 300, *layout[2:])]
    for bad in broken:
        with pytest.raises((ValueError, TypeError)):
            positions_module.index(*args, bad, None)
    with pytest.raises(TypeError):
        positions_module.index(*args, layout, [])
    with pytest.raises(TypeError):
        positions_module.index(*args, layout)
    with pytest.raises(ValueError):
        positions_module.index(rules.core, start.white, start.white, 0, 0, [], layout, None)
    with pytest.raises(TypeError):
        tally().add([1, 2], b"11-15", 0, 0, 0, 0, 1)
    with pytest.raises(OverflowError):
        tally().add([1, 1 << 70], "11-15", 0, 0, 0, 0, 1)
    assert index_line(rules, start, [3, None, "11-15"], layout, set())[0] == 0


def test_index_takes_only_the_rules_cores_rules_and_refuses_anything_else():
    """The database's extension reads its first argument as the rules core's ``Rules``: any
    other object (the Python face, a tally, a number, none at all) is a TypeError, never read
    as rules."""
    variant = get_variant("english")
    rules, start = native.rules_for(variant), start_position(variant)
    positions_module = native.extension(MODULE)
    rest = (start.white, start.black, start.kings, start.turn, ["11-15"],
            coder(variant).layout, None)
    assert positions_module.index(rules.core, *rest)[0] == 1
    for wrong in (None, rules, tally(), 0, object(), "rules"):
        with pytest.raises(TypeError, match=r"replay\.rules\._native\.Rules"):
            positions_module.index(wrong, *rest)
    with pytest.raises(TypeError):
        positions_module.index()
    assert type(tally()).__name__ == "Tally"
    assert type(tally()).__module__ == "replay.database._positions"


@settings(max_examples=80, deadline=None)
@given(games=st.lists(st.tuples(
    st.lists(st.integers(-3, 3), min_size=0, max_size=12),
    st.sampled_from([WHITE_WINS, DRAW, BLACK_WINS, UNKNOWN]),
    st.lists(st.integers(1, 2900), max_size=2), st.integers(0, 3)), max_size=12))
def test_the_native_tally_adds_up_as_moves_played(games):
    slow, fast = MovesPlayed(None), NativeMovesPlayed(None, tally())
    for game_id, (keys, outcome, ratings, day) in enumerate(games, 1):
        facts = GameFacts(game_id, outcome, tuple(ratings), day)
        words = " ".join(f"{a}-{b}" for a, b in pairwise(keys))  # one per step
        slow.add_text(facts, keys, words + " 99-1" * (game_id % 2))  # a word more: unused
        fast.add_text(facts, keys, words + " 99-1" * (game_id % 2))
    expected = [(*step, *slow.rows[step]) for step in sorted(slow.rows)]
    read = []
    while rows := fast.tally.rows(3):  # a slice at a time, as flush reads them
        if len(read) + len(rows) < len(expected):
            with pytest.raises(RuntimeError):  # no step added while it is being read
                fast.tally.add([1, 2], "1-2", 0, 0, 0, 0, 99)
        read += rows
    assert read == expected
    assert len(fast.tally) == 0 and fast.tally.rows() == []
    with pytest.raises(ValueError):
        fast.tally.rows(0)


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["add", "discard", "fresh"]),
                                st.integers(0, 1500)), max_size=3000),
       spread=st.sampled_from([1, 2**52 + 1, -(2**61) - 7]))
def test_the_native_key_set_holds_what_a_python_set_holds(steps, spread):
    """Adds, discards (linear probing's moves back) and ``fresh`` rows, on keys that fill
    the table past its first growth, 0 and the extremes of 64 bits among them."""
    fast, slow = key_set(), PythonKeySet()
    assert type(fast).__name__ == "KeySet"
    pool = [max(-(2**63), min(2**63 - 1, (number - 700) * spread)) for number in range(1501)]
    for action, number in steps:
        key = pool[number]
        if action == "add":
            fast.add(key)
            slow.add(key)
        elif action == "discard":
            fast.discard(key)
            slow.discard(key)
        else:
            rows = [(key, "a"), (pool[number - 1], "b"), (key, "c")]
            assert fast.fresh(rows) == slow.fresh(rows)
        assert len(fast) == len(slow)
    assert [key in fast for key in pool] == [key in slow for key in pool]
    fast.difference_update(list(slow))
    assert len(fast) == 0


def test_the_native_key_set_refuses_what_is_no_key():
    keys = key_set()
    assert "1" not in keys and 2**64 not in keys and 1.0 not in keys
    for wrong in ("1", 2**64, None):
        with pytest.raises(TypeError):
            keys.add(wrong)
    with pytest.raises(TypeError):
        keys.fresh([("1", "row")])
    with pytest.raises(TypeError):
        keys.fresh([[1, "row"]])
    with pytest.raises(TypeError):
        type(keys)(5)
    assert len(keys) == 0


def table_digests(path: Path) -> dict[str, str]:
    connection = sqlite3.connect(path)
    found = {}
    for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        columns = [row[1] for row in connection.execute(f"PRAGMA table_info({name})")
                   if row[1] != "indexed_at"]
        listed = ", ".join(columns)
        digest = hashlib.sha256()
        for row in connection.execute(f"SELECT {listed} FROM {name} ORDER BY {listed}"):
            digest.update(repr(row).encode())
        found[name] = digest.hexdigest()
    connection.close()
    return found


def test_the_database_is_the_same_without_the_native_core(tmp_path: Path, monkeypatch):
    sources = [str(SHARED_DATA / name) for name in ARCHIVES[:3]]
    if not all(Path(source).is_file() for source in sources):
        pytest.skip("../shared/data is not present")
    settings_ = Settings(RulesChoice(), jobs=1)
    fast_db = tmp_path / "fast.db"
    index_sources(fast_db, sources, settings_, note=lambda _: None)
    monkeypatch.setattr(rows, "_native_rows", lambda *_: None)
    monkeypatch.setattr(played, "moves_played", lambda c: MovesPlayed(c))
    monkeypatch.setattr(build, "moves_played", lambda c: MovesPlayed(c))
    monkeypatch.setattr(build, "key_set", PythonKeySet)  # Python's sets of keys
    monkeypatch.setattr(positions_table, "key_set", PythonKeySet)
    monkeypatch.setattr(positions_table, "planes", lambda: None)  # planes read back by SQL
    build._SEEN.clear()
    slow_db = tmp_path / "slow.db"
    index_sources(slow_db, sources, settings_, note=lambda _: None)
    assert table_digests(fast_db) == table_digests(slow_db)


def test_a_plain_game_of_an_inferred_variant_is_described_without_the_replayer(monkeypatch):
    """OCA 2.0's games carry no GameType tag: the variant is inferred (English first), and
    where every move replays there the native core describes the game with no replay first,
    with the rows the replayer's walk gives."""
    path = SHARED_DATA / "english/OCA_2.0.pdn"
    choice = RulesChoice()
    expected = [python_line(game, choice, set()) for game in islice(read_games(path), 40)]
    games = list(islice(read_games(path), 40))  # unwalked: their move tokens unread
    assert {line.variant.name for line in expected} == {"english"}

    def no_replay(*args, **kwargs):
        raise AssertionError("the replayer was asked")

    monkeypatch.setattr(rows, "replay_game", no_replay)
    described = 0
    for game, line in zip(games, expected, strict=True):
        if line.status != VALID or len(game.main_line_tokens() or []) != len(line.keys) - 1:
            continue  # a line the core stops on goes to the replayer (not asked here)
        assert rows.line_rows(game, choice, set()) == line
        described += 1
    assert described >= 30
