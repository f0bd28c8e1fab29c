"""Output datasets written by the workers (``replay.run.dataset``): on the local engine, a Parquet
dataset of a statistics table reads back as the single-file table and JSON-lines parts of
``pdn validate`` hold the lines ``--json`` prints; a failed run leaves the target as it
was, and a folder holding other files is refused."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import require
from pdn.cli.app import app
from typer.testing import CliRunner

import replay.validate.dataset
import replay.validate.reports
from replay.rules.variants import ENGLISH, RUSSIAN
from replay.run.dataset import SUCCESS, Dataset, DatasetError, is_dataset_target
from replay.stats import write_table
from replay.stats.dataset import write_dataset
from replay.validate.dataset import validate_to_dataset
from replay.validate.reports import validate_sources

pytest.importorskip("pyarrow")


def _sources(shared_data: Path) -> list[str]:
    """Russian games without GameType tags and International games with other tags."""
    return [*map(str, sorted((shared_data / "games-checkers" / "russian").glob("*.pdn"))[:4]),
            str(shared_data / "international" / "fmjd_wk2007_all_games.pdn")]


def _decided_english_games(path: Path, count: int, seed: int = 5) -> str:
    """Random English games (Black moves first) played until a side cannot move, with
    results written for the first mover in some games and for the colour in others, so
    that a file's reading is settled by its votes."""
    import random

    from replay.record.board import Board
    from replay.record.notation import full_text
    from replay.rules.movegen import WHITE

    rng = random.Random(seed)
    texts = []
    while len(texts) < count:
        board, tokens = Board(variant="english"), []
        for ply in range(300):
            moves = board.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            text = full_text(board, move)
            tokens.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
            board.push(move)
        if board.legal_moves():
            continue
        winner_is_white = board.turn != WHITE
        first_mover_won = not winner_is_white
        for_first_mover = rng.random() < 0.6
        won = first_mover_won if for_first_mover else winner_is_white
        result = "1-0" if won else "0-1"
        texts.append(f'[Event "random {len(texts)}"]\n[GameType "21"]\n[Result "{result}"]'
                     f'\n\n{" ".join(tokens)} {result}\n\n')
    path.write_text("".join(texts), encoding="utf-8")
    return str(path)


def _json_lines(folder: Path) -> list[str]:
    return [line for part in sorted(folder.glob("part-*.jsonl"))
            for line in part.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("table", ["games", "moves"])
def test_a_stats_dataset_reads_back_as_the_single_file_table(shared_data, tmp_path, table,
                                                             jobs):
    """One part per partition, written in this process (1) or by worker processes (2)."""
    sources = _sources(shared_data)
    write_table(sources, RUSSIAN, tmp_path / "one.parquet", table, jobs=1)
    rows = write_dataset(sources, RUSSIAN, f"{tmp_path}/parts/", table, jobs=jobs)
    single = pd.read_parquet(tmp_path / "one.parquet")
    parts = sorted(p.name for p in (tmp_path / "parts").iterdir())
    assert len(parts) > 5 and parts[0] == SUCCESS and parts[1] == "part-00000000.parquet"
    assert rows == len(single) > 500
    assert set(single["file"]) == {Path(s).as_posix() for s in sources}
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parts"), single)
    assert json.loads((tmp_path / "parts" / SUCCESS).read_text()) == {
        "parts": len(parts) - 1, "rows": rows}


def test_results_where_black_moves_first_read_per_file_as_in_the_single_file(shared_data,
                                                                           tmp_path):
    """English games: each file's reading of its results is voted across the parts."""
    sources = [str(shared_data / "english" / "tinsley.pdn"),
               _decided_english_games(tmp_path / "decided.pdn", 400)]
    write_table(sources, ENGLISH, tmp_path / "one.parquet", "games", jobs=1)
    write_dataset(sources, ENGLISH, f"{tmp_path}/games/", "games", jobs=2)
    single = pd.read_parquet(tmp_path / "one.parquet")
    assert single["result_reading"].notna().sum() > 100
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "games"), single)


def test_an_aggregate_table_is_one_part_and_an_empty_input_keeps_the_columns(shared_data,
                                                                          tmp_path):
    source = str(shared_data / "english" / "tinsley.pdn")
    write_table([source], ENGLISH, tmp_path / "players.parquet", "players", jobs=1)
    write_dataset([source], ENGLISH, f"{tmp_path}/players/", "players", jobs=1)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "players"),
                                  pd.read_parquet(tmp_path / "players.parquet"))
    empty = tmp_path / "empty.pdn"
    empty.write_text("", encoding="utf-8")
    write_table([str(empty)], ENGLISH, tmp_path / "none.parquet", "moves", jobs=1)
    assert write_dataset([str(empty)], ENGLISH, f"{tmp_path}/none/", "moves", jobs=1) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "none"),
                                  pd.read_parquet(tmp_path / "none.parquet"))


def test_a_dataset_on_an_fsspec_url_is_the_same(shared_data, tmp_path):
    """``memory://`` lives in one process: the run is kept in this one (jobs=1)."""
    require(importlib.util.find_spec("fsspec") is not None, "fsspec (the dask extra)")
    import fsspec

    sources = _sources(shared_data)[:3]
    write_table(sources, RUSSIAN, tmp_path / "one.parquet", "games", jobs=1)
    write_dataset(sources, RUSSIAN, "memory://pdn-test/games/", "games", jobs=1)
    memory = fsspec.filesystem("memory")
    names = sorted(p.rsplit("/", 1)[1] for p in memory.ls("/pdn-test/games", detail=False))
    try:
        assert names[0] == SUCCESS and all(n.startswith("part-") for n in names[1:])
        pd.testing.assert_frame_equal(
            pd.read_parquet("memory://pdn-test/games/"),
            pd.read_parquet(tmp_path / "one.parquet"))
    finally:
        memory.rm("/pdn-test", recursive=True)


def test_validate_parts_hold_the_lines_of_validate_json_in_order(shared_data, tmp_path):
    sources = [*_sources(shared_data), str(tmp_path / "missing.pdn")]
    expected = [json.dumps(r.as_dict(), ensure_ascii=False)
                for r in validate_sources(sources, jobs=1) if not isinstance(r, str)]
    written = validate_to_dataset(sources, f"{tmp_path}/reports/", jobs=2)
    assert _json_lines(tmp_path / "reports") == expected
    assert written.tally.rows == len(expected) > 500
    assert written.unreadable == [f"{tmp_path / 'missing.pdn'}: cannot read: No such file "
                                  "or directory"]
    assert sum(written.tally.statuses.values()) == len(expected)


def test_result_readings_settle_over_the_same_games_as_the_stream(shared_data, tmp_path,
                                                                  monkeypatch):
    """The stream settles a file's reading from a bounded window of its games
    (``HELD_REPORTS``); the parts use the same window, across partitions."""
    for module in (replay.validate.reports, replay.validate.dataset):
        monkeypatch.setattr(module, "HELD_REPORTS", 7)
    sources = [str(shared_data / "english" / "tinsley.pdn"),
               _decided_english_games(tmp_path / "decided.pdn", 40)]
    expected = [json.dumps(r.as_dict(), ensure_ascii=False)
                for r in validate_sources(sources, jobs=1)]
    validate_to_dataset(sources, f"{tmp_path}/reports/", jobs=1)
    checks = {json.loads(line)["result_check"] for line in expected}
    assert {"consistent", "inconsistent"} <= checks
    assert _json_lines(tmp_path / "reports") == expected


def test_a_failed_run_leaves_the_earlier_dataset_whole(shared_data, tmp_path):
    source = str(shared_data / "english" / "tinsley.pdn")
    target = tmp_path / "games"
    write_dataset([source], ENGLISH, f"{target}/", "games", jobs=1)
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    with pytest.raises(OSError):
        write_dataset([source, str(tmp_path / "missing.pdn")], ENGLISH, f"{target}/",
                      "games", jobs=1)
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before  # no hidden folder


def test_a_new_run_replaces_the_parts_of_the_earlier_one(shared_data, tmp_path):
    sources = _sources(shared_data)
    target = tmp_path / "games"
    write_dataset(sources, RUSSIAN, f"{target}/", "games", jobs=1)
    write_dataset(sources[:1], RUSSIAN, str(target), "games", jobs=1)
    write_table(sources[:1], RUSSIAN, tmp_path / "one.parquet", "games", jobs=1)
    pd.testing.assert_frame_equal(pd.read_parquet(target),
                                  pd.read_parquet(tmp_path / "one.parquet"))


def test_a_folder_holding_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"notes\.txt"):
        Dataset.plan(str(tmp_path), ".parquet")
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_which_outputs_name_a_dataset_folder(tmp_path):
    assert is_dataset_target("out/") and is_dataset_target(str(tmp_path))
    assert is_dataset_target("s3://bucket/prefix/") and is_dataset_target("memory://x/games")
    assert not is_dataset_target("games.parquet")
    assert not is_dataset_target("s3://bucket/games.parquet")


def test_cli_writes_datasets_and_explains_wrong_uses(shared_data, tmp_path):
    source = str(shared_data / "english" / "tinsley.pdn")
    runner = CliRunner()
    done = runner.invoke(app, ["stats", source, "-t", "moves", "-o", f"{tmp_path}/moves/",
                               "-j", "1"])
    assert done.exit_code == 1, done.output  # written; one game invalid, two unreadable
    assert "written to the dataset" in done.output
    assert "games that do not replay: 1 invalid, 2 unreadable" in done.output
    assert len(pd.read_parquet(tmp_path / "moves")) > 10_000
    reports = runner.invoke(app, ["validate", source, "--json", "-o", f"{tmp_path}/reports/",
                                  "-j", "1"])
    printed = runner.invoke(app, ["validate", source, "--json", "-j", "1"])
    assert reports.exit_code == printed.exit_code == 1  # two games the reader gives up on
    assert _json_lines(tmp_path / "reports") == printed.stdout.splitlines()
    for args, message in (
            (["validate", source, "-o", f"{tmp_path}/r/"], "add --json"),
            (["validate", source, "--json", "-o", f"{tmp_path}/r.jsonl"], "give a folder"),
            (["stats", source, "-o", f"{tmp_path}/moves/", "--plot", "p.png"], "--plot"),
            (["stats", source, "-o", "memory://x/games.parquet"], "end it with /")):
        wrong = runner.invoke(app, args)
        assert wrong.exit_code == 2 and message in wrong.output, wrong.output
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "keep.csv").write_text("x", encoding="utf-8")
    refused = runner.invoke(app, ["stats", source, "-o", str(tmp_path / "other"), "-j", "1"])
    assert refused.exit_code == 2 and "keep.csv" in refused.output
