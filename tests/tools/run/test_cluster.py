"""The dask engine on a real cluster: a ``distributed.LocalCluster`` of two worker
processes that plan and read their own partitions of real archives; reports, tables and
archive output identical to the local engine's, games numbered and located alike."""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import require

import replay.run.runner as runner
from replay.archive.duplicates import dedupe_games
from replay.archive.run import Settings
from replay.rules.choice import RulesChoice
from replay.rules.variants import RUSSIAN
from replay.stats import stats_tables
from replay.validate.reports import validate_sources

PARTITION_BYTES = 1 << 15  # small, so that every file is cut into several byte ranges


@pytest.fixture(scope="module")
def cluster():
    require(importlib.util.find_spec("distributed") is not None,
            "dask.distributed (the dask extra)")
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=40) as local:
        yield local.scheduler_address


@pytest.fixture(autouse=True)
def small_partitions(monkeypatch):
    monkeypatch.setattr(runner, "CLUSTER_PARTITION_BYTES", PARTITION_BYTES)


def _sources(shared_data: Path) -> list[str]:
    """Russian games (LF, several games per range), an International file with CRLF line
    ends and Latin-1 Italian records, with errors whose messages name lines."""
    russian = sorted((shared_data / "games-checkers" / "russian").glob("*.pdn"))
    return [*map(str, russian), str(shared_data / "international" / "fmjd_wk2007_all_games.pdn"),
            str(shared_data / "games-checkers" / "italian" / "40champ-1996.pdn"),
            str(shared_data / "tests" / "bas080_dammen" / "invalid.pdn")]


def test_the_client_plans_byte_ranges_and_reads_no_game(shared_data, cluster):
    source = _sources(shared_data)[4]
    with runner.open_runner("dask", scheduler=cluster) as dask:
        partitions = list(dask.partitions(source))
    assert len(partitions) > 4 and all(p.text is None for p in partitions)
    assert [p.start for p in partitions[1:]] == [p.end for p in partitions[:-1]]
    assert partitions[-1].end == Path(source).stat().st_size


def test_validate_on_a_cluster_reports_as_the_local_engine(shared_data, cluster):
    sources = _sources(shared_data)
    assert max(Path(s).stat().st_size for s in sources) > 4 * PARTITION_BYTES
    local = [r if isinstance(r, str) else r.as_dict()
             for r in validate_sources(sources, jobs=1)]
    remote = [r if isinstance(r, str) else r.as_dict()
              for r in validate_sources(sources, engine="dask", scheduler=cluster)]
    assert len(local) > 1000 and any(r["errors"] or r["warnings"] for r in local)
    assert remote == local


def test_stats_on_a_local_cluster_of_jobs_processes_gives_the_same_tables(shared_data):
    """Without a scheduler address the engine starts its own cluster of --jobs workers."""
    require(importlib.util.find_spec("distributed") is not None,
            "dask.distributed (the dask extra)")
    sources = _sources(shared_data)
    local = stats_tables(sources, RUSSIAN, jobs=1)
    remote = stats_tables(sources, RUSSIAN, jobs=2, engine="dask")
    for name in ("games", "moves", "summary"):
        pd.testing.assert_frame_equal(local.table(name), remote.table(name))


def test_dedupe_on_a_cluster_keeps_the_copies_the_local_engine_keeps(shared_data, cluster,
                                                                   tmp_path):
    sources = _sources(shared_data)[:4] * 2  # every game twice
    outputs = []
    for engine, scheduler in (("local", None), ("dask", cluster)):
        out, report = io.StringIO(), tmp_path / f"{engine}.csv"
        summary = dedupe_games(sources, out, Settings(RulesChoice(RUSSIAN), jobs=1, engine=engine,
                                                      scheduler=scheduler),
                               report=report, note=lambda _: None)
        outputs.append((out.getvalue(), report.read_text(), summary.removed))
    assert outputs[0][2] > 600
    assert outputs[1] == outputs[0]


def test_convert_on_a_cluster_writes_what_the_local_engine_writes(shared_data, cluster):
    """Text, reports (numbered and located in their files) and repairs alike."""
    from replay.convert.games import Target
    from replay.convert.sources import Job, convert_sources

    sources = _sources(shared_data)
    job = Job(RulesChoice(), Target("full"), repair=True)
    local = list(convert_sources(sources, job, jobs=1))
    remote = list(convert_sources(sources, job, engine="dask", scheduler=cluster))
    assert len(local) > 1000 and any(c.report.warnings for c in local)
    assert remote == local


def _dies_once(partition, marker: str):
    """Validate a partition, but kill the worker process the first time a partition after
    the first is reached (the marker file remembers it across processes)."""
    import os

    from replay.validate.reports import ValidationWork, validate_partition

    if partition.start > 0 and not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)  # the worker dies mid-run, its task unfinished
    return validate_partition(partition, ValidationWork(RulesChoice(), False, False))


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(shared_data, cluster,
                                                                     tmp_path):
    """The scheduler gives a dead worker's task to another; partitions are pure work, so
    the results are those of a run where nothing failed."""
    require(importlib.util.find_spec("cloudpickle") is not None,
            "cloudpickle (with dask.distributed, the dask extra)")
    import cloudpickle

    from replay.validate.reports import ValidationWork, validate_partition

    source = _sources(shared_data)[4]
    marker = tmp_path / "died"
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with runner.open_runner("dask", scheduler=cluster) as dask:
            remote = [r.as_dict() for _, part in dask.map(_dies_once, dask.partitions(source),
                                                           str(marker)) for r in part]
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    with runner.open_runner("local", jobs=1) as local:
        expected = [r.as_dict() for _, part in local.map(
                        validate_partition, local.partitions(source),
                        ValidationWork(RulesChoice(), False, False)) for r in part]
    assert marker.exists()  # a worker did die
    assert [(r["line"], r["status"], r["plies"]) for r in remote] == \
        [(r["line"], r["status"], r["plies"]) for r in expected]


def test_a_missing_file_or_wrong_encoding_is_reported_as_on_one_machine(cluster, tmp_path):
    russian = tmp_path / "ru.pdn"
    russian.write_bytes('[White "Ренжин"]\n1. c3-d4 *\n'.encode())
    sources = [str(tmp_path / "missing.pdn"), str(russian)]
    for encoding in ("ascii", "no-such-codec"):
        local = list(validate_sources(sources, jobs=1, encoding=encoding))
        remote = list(validate_sources(sources, engine="dask", scheduler=cluster,
                                       encoding=encoding))
        assert len(local) == 2 and all(isinstance(item, str) for item in local)
        assert remote == local


@pytest.mark.parametrize("table", ["games", "moves"])
def test_workers_write_a_stats_dataset_that_reads_back_as_the_single_file(shared_data,
                                                                          cluster, tmp_path,
                                                                          table):
    """Each worker writes the parts of the byte ranges it read; the client gets counts."""
    pytest.importorskip("pyarrow")
    from replay.stats import write_table
    from replay.stats.dataset import write_dataset

    sources = _sources(shared_data)
    write_table(sources, RUSSIAN, tmp_path / "one.parquet", table, jobs=1)
    rows = write_dataset(sources, RUSSIAN, f"{tmp_path}/parts/", table, engine="dask",
                         scheduler=cluster)
    single = pd.read_parquet(tmp_path / "one.parquet")
    assert rows == len(single) > 1000
    assert len(list((tmp_path / "parts").glob("part-*.parquet"))) > len(sources)
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "parts"), single)


def test_workers_write_the_validate_json_lines_in_order(shared_data, cluster, tmp_path):
    import json

    from replay.validate.dataset import validate_to_dataset

    sources = _sources(shared_data)
    expected = [json.dumps(r.as_dict(), ensure_ascii=False)
                for r in validate_sources(sources, jobs=1) if not isinstance(r, str)]
    written = validate_to_dataset(sources, f"{tmp_path}/reports/", engine="dask",
                                  scheduler=cluster)
    lines = [line for part in sorted((tmp_path / "reports").glob("part-*.jsonl"))
             for line in part.read_text(encoding="utf-8").splitlines()]
    assert written.tally.rows == len(lines) > 1000
    assert lines == expected


@pytest.mark.parametrize("by", ["game", "moves", "moves+players+date"])
def test_workers_group_shuffled_fingerprints_into_the_local_engines_groups(shared_data,
                                                                           cluster, tmp_path,
                                                                           monkeypatch, by):
    """Small partitions put the copies of a game in many partitions, so the shuffles move
    them between workers; the groups, the copy kept of each and the report are those the
    client's grouping gives. The client parses no game: the workers read them all."""
    import replay.archive.shuffle as shuffle
    import replay.archive.stream as stream

    def client_reads(*_args):
        raise AssertionError("the client parsed games")

    sources = [*_sources(shared_data)[:4], str(shared_data / "english" / "tinsley.pdn")]
    sources = [sources[-1], *sources[:3], *sources]  # copies near and far apart
    outputs = []
    for engine, scheduler in (("local", None), ("dask", cluster)):
        if engine == "dask":  # the workers are other processes: this one must not parse
            for module in (stream, shuffle):
                monkeypatch.setattr(module, "read_records", client_reads)
        out, report = io.StringIO(), tmp_path / f"{engine}.csv"
        summary = dedupe_games(sources, out, Settings(RulesChoice(RUSSIAN), jobs=1, engine=engine,
                                                      scheduler=scheduler),
                               by=by, report=report, note=lambda _: None)
        outputs.append((out.getvalue(), report.read_text(), summary.groups, summary.removed))
    assert outputs[0][3] > 1000 and outputs[0][2] > 500
    assert outputs[1] == outputs[0]


def test_dedupe_of_standard_input_on_a_cluster_is_the_local_engines(shared_data, cluster,
                                                                    monkeypatch):
    """Only the client can read its standard input, so it groups those games itself."""
    text = Path(_sources(shared_data)[0]).read_bytes() * 2
    outputs = []
    for engine, scheduler in (("local", None), ("dask", cluster)):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
        out = io.StringIO()
        summary = dedupe_games(["-"], out, Settings(RulesChoice(RUSSIAN), jobs=1, engine=engine,
                                                    scheduler=scheduler), note=lambda _: None)
        outputs.append((out.getvalue(), summary.removed))
    assert outputs[0][1] > 5
    assert outputs[1] == outputs[0]


def test_a_watcher_is_told_the_dashboard_and_the_tasks_done(shared_data, cluster):
    """What the command line's progress bar and dashboard line are drawn from."""
    opened, counts = [], []
    watch = runner.ClusterWatch(opened.append, lambda submitted, done:
                                counts.append((submitted, done)))
    source = _sources(shared_data)[4]
    with runner.watch_clusters(watch):
        reports = list(validate_sources([source], engine="dask", scheduler=cluster))
    assert len(opened) == 1 and opened[0].startswith("http")
    submitted, done = counts[-1]
    ranges = -(-Path(source).stat().st_size // PARTITION_BYTES)
    assert reports and submitted == done >= 1 + ranges + 1  # planned, scanned, validated
    assert [d for _, d in counts] == sorted(d for _, d in counts)


def test_the_command_line_prints_the_dashboard_address_on_stderr(shared_data, cluster):
    from pdn.cli.app import app
    from typer.testing import CliRunner

    source = _sources(shared_data)[4]
    result = CliRunner().invoke(app, ["validate", source, "--runner", "dask",
                                      "--scheduler", cluster])
    assert result.exit_code in (0, 1), result.output
    assert "dask dashboard: http" in result.stderr
