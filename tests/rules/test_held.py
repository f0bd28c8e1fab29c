"""A file's games that wait for its verdict (variant, silent games, result reading) are held
in a bounded window of memory: the rest wait pickled on disk (``replay.record.held``)."""

from __future__ import annotations

import pickle

import pytest

from replay.record import held as held_module
from replay.record.agreement import agree_file
from replay.record.held import Held
from replay.record.silent import follow_file


class Counted:
    """An item that counts how many of its kind are alive (held in memory anywhere)."""

    alive = 0
    most = 0

    def __init__(self, key: str | None, open_: bool) -> None:
        self.key, self.open_ = key, open_
        Counted.alive += 1
        Counted.most = max(Counted.most, Counted.alive)

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        Counted.alive += 1
        Counted.most = max(Counted.most, Counted.alive)

    def __del__(self) -> None:
        Counted.alive -= 1


@pytest.fixture(autouse=True)
def counted():
    Counted.alive = Counted.most = 0
    yield


def open_games(count: int):
    """``count`` games that several variants replay, most telling Czech: every one waits."""
    for n in range(count):
        yield Counted("russian" if n % 10 == 0 else "czech", True)


def test_the_games_waiting_for_their_files_variant_are_held_a_batch_at_a_time(monkeypatch):
    monkeypatch.setattr(held_module, "BATCH", 50)
    keys = [item.key for item in agree_file(open_games(2_000), lambda item: item.key,
                                            lambda item: item.open_,
                                            lambda item, key: Counted(key, False))]
    assert keys == ["czech"] * 2_000  # every game waited for the file's variant
    assert Counted.most <= 2 * 50 + 5  # not 2,000: the others waited on disk


def test_games_before_the_first_open_one_are_given_at_once():
    given = []
    items = [Counted("czech", False), Counted("czech", False), Counted("russian", True)]

    def produce():
        for item in items:
            given.append(item.key)
            yield item

    stream = agree_file(produce(), lambda item: item.key, lambda item: item.open_,
                        lambda item, key: Counted(key, False))
    assert next(stream).key == "czech" and given == ["czech"]  # not read to the file's end
    assert [item.key for item in stream] == ["czech", "czech"]  # the open one takes Czech


def test_leading_silent_games_are_held_a_batch_at_a_time(monkeypatch):
    monkeypatch.setattr(held_module, "BATCH", 40)
    def stream():
        yield from (Counted(None, False) for _ in range(1_000))
        yield Counted("english", False)

    keys = [item.key for item in follow_file(stream(), lambda item: item.key is None,
                                             lambda item: item.key,
                                             lambda item, key: Counted(key, False))]
    assert keys == ["english"] * 1_001  # the leading games followed the first that tells
    assert Counted.most <= 2 * 40 + 5


def test_held_items_come_back_in_order_and_the_queue_empties():
    held = Held(batch=3)
    for n in range(10):
        held.append(n)
    assert len(held) == 10 and held.file is not None
    assert list(held.drain()) == list(range(10))
    assert len(held) == 0 and list(held.drain()) == []
    held.append("again")
    assert list(held.drain()) == ["again"]


def test_a_short_file_touches_no_disk():
    held = Held(batch=100)
    for n in range(99):
        held.append(n)
    assert held.file is None and list(held.drain()) == list(range(99))


def test_the_toolkits_reports_pickle_with_their_records(shared_data):
    """What ``Held`` spills must pickle: a validation report keeping its game record."""
    from pdn import read_games
    from replay.validate.reports import report_game

    game = next(read_games(shared_data / "international" / "fmjd_wk2007_all_games.pdn"))
    report = report_game(game)
    report.record = game
    again = pickle.loads(pickle.dumps(report))
    assert again.as_dict() == report.as_dict()
    assert again.record.moves.ply_count() == game.moves.ply_count()
