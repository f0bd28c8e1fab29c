"""The work runner (replay.run.runner) and the partitions it runs over (replay.run.partitions): byte
ranges cut by the workers at game boundaries read exactly as the whole file; the local engine
keeps input order and starts worker processes only past its one threshold."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from pdn.chunks import block_chunks
from pdn.reader import open_text, parse_chunks, read_games
from replay.run.partitions import (
    Partition,
    count_lines,
    file_facts,
    file_partitions,
    file_url,
    plan_ranges,
    scan_range,
)
from replay.run.runner import LocalRunner, open_runner

# Real archives of every kind the planner must cut: LF and CRLF line ends, UTF-8 and
# Latin-1, tagged games and one game per line, comments before tags.
ARCHIVES = (
    "games-checkers/russian/World_Championship_1998.pdn",
    "games-checkers/italian/40champ-1996.pdn",
    "games-checkers/internt/Cannes_Open_Tournament_2002.pdn",
    "international/fmjd_wk2007_all_games.pdn",
    "international/mobydam_book/babasy1.pdn",
    "fen_ballots/11_man_english.pdn",  # one game per line, no sure end: one partition
    "english/tinsley.pdn",
    "lidraughts_sample/lidraughts_export_sample.pdn",  # {} on every line: one partition
)
ONE_PARTITION = ("11_man_english", "lidraughts_export")


def byte_ranges(path: Path, length: int) -> list[Partition]:
    """The partitions a cluster's workers would plan, planned here in one process."""
    url = file_url(str(path))
    facts = file_facts(url, None)
    cuts = [scan_range(url, start, length, facts) for start in range(0, facts.size, length)]
    return list(plan_ranges(str(path), url, facts, cuts))


def game_facts(games) -> list[tuple]:
    return [(game.line, tuple(game.tags.items()), len(game.moves.plies), game.result,
             tuple((d.code, d.message, d.line, d.column) for d in game.diagnostics))
            for game in games]


@pytest.mark.parametrize("name", ARCHIVES)
def test_byte_ranges_read_as_the_whole_file(shared_data, name):
    """Cut into ranges of 8 KB at the game ends split_blocks uses, a file's ranges hold its
    whole text in order, each starts on the line it has in the file, and their games are
    the file's games with the same lines, tags and diagnostics (messages name lines)."""
    path = shared_data / name
    partitions = byte_ranges(path, 1 << 13)
    with open_text(path) as (stream, _):
        whole = stream.read()
    assert (len(partitions) == 1) == any(n in name for n in ONE_PARTITION)
    assert "".join(p.chunk().text for p in partitions) == whole
    offset = 0
    for partition in partitions:
        assert partition.line == whole[:offset].count("\n") + 1
        offset += len(partition.chunk().text)
    games = [game for p in partitions for game in parse_chunks(block_chunks(p.chunk()))]
    expected = list(parse_chunks(block_chunks(next(iter(byte_ranges(path, 1 << 30))).chunk())))
    assert game_facts(games) == game_facts(expected)
    assert len(games) == len(list(read_games(path)))


@pytest.mark.parametrize("name", ARCHIVES)
def test_a_local_file_is_cut_in_byte_ranges_read_as_the_whole_file(shared_data, name):
    """The local runner's ranges (planned by this process in one read, read by the
    workers): the whole text in order, each on its line in the file, and the file's games
    with the same lines, tags and diagnostics as when it is read whole."""
    path = shared_data / name
    partitions = list(file_partitions(str(path), None, 1 << 13))
    with open_text(path) as (stream, _):
        whole = stream.read()
    assert "".join(p.chunk().text for p in partitions) == whole
    offset = 0
    for partition in partitions:
        assert partition.line == whole[:offset].count("\n") + 1
        offset += len(partition.chunk().text)
    games = [game for p in partitions for game in parse_chunks(block_chunks(p.chunk()), p.source)]
    assert game_facts(games) == game_facts(read_games(path))
    if not any(n in name for n in ONE_PARTITION):
        assert len(partitions) > 1 and all(p.text is None for p in partitions)


def test_a_local_file_without_game_ends_is_left_to_split_blocks_past_the_search(tmp_path):
    """A file with no sure game end within the search is cut as text by split_blocks, whose
    bound (block_limit) holds the pieces, from the last game end found on."""
    path = tmp_path / "line.pdn"
    head = '[Event "a"]\n1. 32-28 *\n\n' * 400
    path.write_text(head + "1. 32-28 19-23 2. 37-32 14-19 *\n" * 20000)
    partitions = list(file_partitions(str(path), None, 1 << 12))
    ranges = [p for p in partitions if p.text is None]
    assert ranges and partitions[len(ranges)].text is not None
    assert all(p.text is not None for p in partitions[len(ranges):])
    assert "".join(p.chunk().text for p in partitions) == path.read_text()
    offset, whole = 0, path.read_text()
    for partition in partitions:
        assert partition.line == whole[:offset].count("\n") + 1
        offset += len(partition.chunk().text)


def test_a_crlf_pair_cut_by_a_range_counts_one_line():
    assert count_lines(b"a\r\nb\rc\n") == 3
    assert count_lines(b"\nb", before=b"\r") == 0
    assert count_lines(b"\nb", before=b"a") == 1


def test_a_file_without_a_game_end_is_one_partition(tmp_path):
    path = tmp_path / "line.pdn"
    path.write_text("1. 32-28 19-23 2. 37-32 14-19\n" * 2000)
    partitions = byte_ranges(path, 1 << 12)
    assert [(p.start, p.end, p.line) for p in partitions] == [(0, path.stat().st_size, 1)]


def _square(partition: Partition, power: int) -> int:
    return int(partition.chunk().text) ** power


def test_local_runner_keeps_order_and_starts_workers_past_its_threshold():
    parts = [Partition("x", n + 1, text=str(n)) for n in range(40)]
    with LocalRunner(jobs=0, threshold=1 << 20) as small:
        assert list(small.map(_square, parts, 2)) == [n * n for n in range(40)]
        assert small.pool is None  # 70 characters: not worth a worker process
    with LocalRunner(jobs=2, threshold=1 << 20) as asked:
        assert list(asked.map(_square, parts, 3)) == [n ** 3 for n in range(40)]
        assert asked.pool is not None  # --jobs 2 asked for workers whatever the size


class _DiskFull(Exception):
    """What stops the run below, as a failed write stops a command."""


def _ignores_ctrl_c(partition: Partition) -> bool:
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN


def test_a_run_stopped_by_an_error_lets_its_workers_finish_and_exit():
    """Stopped early, the runner cancels the calls not started and lets each worker end its
    partition and exit: none is killed, since one killed in the middle of sending a result
    leaves half a message in the pool's pipe, on which the exit of the program would wait
    for ever. The workers ignore Ctrl-C (the terminal sends it to them too): the parent
    alone answers it."""
    parts = [Partition("x", n + 1, text=str(n)) for n in range(400)]
    runner = LocalRunner(jobs=2)
    with pytest.raises(_DiskFull), runner:
        assert set(runner.map(_ignores_ctrl_c, parts[:4])) == {True}
        for count, _ in enumerate(runner.map(_square, parts, 2)):
            if count == 3:
                pool = runner.pool
                assert pool is not None
                processes = list(pool._processes.values())
                manager = pool._executor_manager_thread
                raise _DiskFull
    assert runner.pool is None
    assert len(processes) == 2 and [p.exitcode for p in processes] == [0, 0]
    assert manager is not None and not manager.is_alive()


def test_standard_input_follows_the_same_rule(monkeypatch):
    import io
    import sys

    text = '[Event "a"]\n1. 32-28 19-23 *\n\n[Event "b"]\n1. 33-29 *\n'
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    with open_runner("local", jobs=0) as runner:
        partitions = list(runner.partitions("-"))
        chunks = list(runner.map(Partition.chunk, partitions))
        assert runner.pool is None  # a few bytes: read and worked through here
    assert "".join(c.text for c in chunks) == text
    assert [c.line for c in chunks] == [1, 4]
    assert {p.source for p in partitions} == {"<stdin>"}


def test_unknown_engine_and_a_scheduler_without_dask_are_usage_errors():
    with pytest.raises(ValueError, match="unknown runner"):
        open_runner("spark")
    with pytest.raises(ValueError, match="--runner dask"):
        open_runner("local", scheduler="tcp://127.0.0.1:8786")


def test_a_url_is_read_through_fsspec_as_the_path_is(shared_data):
    """Workers open what they are given through fsspec: a ``file://`` URL here, ``s3://``
    and others with their fsspec package."""
    pytest.importorskip("fsspec")  # a dependency of the dask extra
    path = shared_data / "games-checkers" / "russian" / "World_Championship_1998.pdn"
    url = f"file://{path}"
    facts = file_facts(url, None)
    cuts = [scan_range(url, start, 1 << 13, facts) for start in range(0, facts.size, 1 << 13)]
    ranges = list(plan_ranges(url, url, facts, cuts))
    assert [(p.start, p.end, p.line) for p in ranges] == \
        [(p.start, p.end, p.line) for p in byte_ranges(path, 1 << 13)]
    with LocalRunner(jobs=1) as local:
        read = [p.chunk().text for p in local.partitions(url)]
    assert "".join(read) == "".join(p.chunk().text for p in ranges)
