"""``pdn stats -o`` streams: every table is written part by part as partitions finish, and
the file holds what writing the whole in-memory table gives (pandas' own writers)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

import replay.stats.execution as engine
import replay.stats.stream as stream
import replay.stats.writer as writer
from replay.rules.variants import ENGLISH
from replay.stats import TABLES, stats_tables, write_table


def _archive(shared_data: Path) -> list[str]:
    """Real archives of two files' readings: English (Black first, results for the first
    mover) and Russian, with tags seen in some games only."""
    russian = sorted((shared_data / "games-checkers" / "russian").glob("*.pdn"))
    return [str(shared_data / "english" / "tinsley.pdn"), *map(str, russian[:2])]


def _whole(frame: pd.DataFrame, path: Path) -> None:
    """The table written whole, as pdn stats wrote it before it streamed."""
    if path.suffix == ".parquet":
        frame.to_parquet(path, index=False)
    elif path.suffix == ".csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_json(path, orient="records", lines=True, date_format="iso",
                      force_ascii=False)


@pytest.fixture(scope="module")
def tables(shared_data):
    return stats_tables(_archive(shared_data), ENGLISH, jobs=1)


CASES = [(table, ".parquet") for table in TABLES] + [
    (table, suffix) for table in ("games", "moves") for suffix in (".csv", ".jsonl")]


@pytest.mark.parametrize(("table", "suffix"), CASES)
def test_streamed_table_is_the_whole_table(shared_data, tables, tmp_path, monkeypatch,
                                           table, suffix):
    """Small partitions and row groups, so that the file is made of many parts."""
    monkeypatch.setattr(engine, "BLOCK", 1 << 14)
    monkeypatch.setattr(writer, "ROW_GROUP_BYTES", 1 << 17)
    streamed, whole = tmp_path / f"streamed{suffix}", tmp_path / f"whole{suffix}"
    rows, _ = write_table(_archive(shared_data), ENGLISH, streamed, table, jobs=1)
    _whole(tables.table(table), whole)
    assert rows == len(tables.table(table)) > 0
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        if table in ("games", "moves"):
            assert pq.ParquetFile(streamed).num_row_groups > 1
        pd.testing.assert_frame_equal(pd.read_parquet(streamed), pd.read_parquet(whole))
    else:
        assert streamed.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize("suffix", [".csv", ".parquet", ".jsonl"])
def test_games_finished_in_several_batches_are_the_whole_table(shared_data, tables, tmp_path,
                                                               monkeypatch, suffix):
    """The spooled parts finished a few hundred games at a time, batches spanning files of
    both readings: the same table, and in Parquet the same row groups as part by part."""
    monkeypatch.setattr(engine, "BLOCK", 1 << 14)
    monkeypatch.setattr(writer, "ROW_GROUP_BYTES", 1 << 17)
    batched, alone = tmp_path / f"batched{suffix}", tmp_path / f"alone{suffix}"
    monkeypatch.setattr(stream, "FINISHED_GAMES", 300)
    write_table(_archive(shared_data), ENGLISH, batched, "games", jobs=1)
    monkeypatch.setattr(stream, "FINISHED_GAMES", 1)  # each part finished alone
    write_table(_archive(shared_data), ENGLISH, alone, "games", jobs=1)
    whole = tmp_path / f"whole{suffix}"
    _whole(tables.games, whole)
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        groups = pq.ParquetFile(batched).num_row_groups
        assert groups > 1 and groups == pq.ParquetFile(alone).num_row_groups
        pd.testing.assert_frame_equal(pd.read_parquet(batched), pd.read_parquet(whole))
    else:
        assert batched.read_bytes() == whole.read_bytes()
    assert batched.read_bytes() == alone.read_bytes()


@pytest.mark.parametrize("table", ["games", "moves"])
def test_parts_waiting_on_disk_for_their_files_variant_give_the_same_table(
        shared_data, tmp_path, monkeypatch, table):
    """The parts of a file wait for its variant (a Czech team championship, whose games
    Russian replays too) one in memory and the others in a temporary file: the same bytes
    as with every part in memory."""
    czech = shared_data / "games-checkers" / "czech" / "MR_Ceska_Dama_Druzstev_2008.pdn"
    sources = [str(czech), *_archive(shared_data)]
    monkeypatch.setattr(engine, "BLOCK", 1 << 14)
    spilled: list[int] = []

    class Counted(engine.Held):
        def drain(self):
            spilled.append(self.spilled)
            return super().drain()

    monkeypatch.setattr(engine, "Held", Counted)
    monkeypatch.setattr(engine, "HELD_PARTS", 1)
    on_disk = tmp_path / "on_disk.csv"
    write_table(sources, None, on_disk, table, jobs=1)
    assert sum(spilled) > 0
    monkeypatch.setattr(engine, "HELD_PARTS", 1 << 20)
    spilled.clear()
    in_memory = tmp_path / "in_memory.csv"
    write_table(sources, None, in_memory, table, jobs=1)
    assert sum(spilled) == 0
    assert on_disk.read_bytes() == in_memory.read_bytes()


def test_silent_head_waiting_on_disk_for_a_game_that_tells_gives_the_same_table(
        shared_data, tmp_path, monkeypatch):
    """Empty games at the head of a real Czech file wait, over several parts, for its first
    game that tells a variant, one part in memory and the others in a temporary file: they
    take Czech, and the table has the same bytes as with every part in memory."""
    czech = shared_data / "games-checkers" / "czech" / "MR_Ceska_Dama_Druzstev_2008.pdn"
    source = tmp_path / "headed.pdn"
    source.write_text('[Result "*"]\n*\n\n' * 600 + czech.read_text(encoding="utf-8"),
                      encoding="utf-8")
    monkeypatch.setattr(engine, "BLOCK", 1 << 12)
    monkeypatch.setattr(engine, "HELD_PARTS", 1)
    on_disk = tmp_path / "on_disk.csv"
    write_table([str(source)], None, on_disk, "games", jobs=1)
    monkeypatch.setattr(engine, "HELD_PARTS", 1 << 20)
    in_memory = tmp_path / "in_memory.csv"
    write_table([str(source)], None, in_memory, "games", jobs=1)
    assert on_disk.read_bytes() == in_memory.read_bytes()
    assert set(pd.read_csv(on_disk)["variant"].head(600)) == {"czech"}


def test_an_empty_archive_writes_an_empty_table_with_its_columns(tmp_path):
    empty = tmp_path / "empty.pdn"
    empty.write_text("")
    for table in ("games", "moves"):
        out = tmp_path / f"{table}.csv"
        rows, _ = write_table([str(empty)], ENGLISH, out, table)
        expected = tmp_path / f"expected-{table}.csv"
        _whole(stats_tables([str(empty)], ENGLISH).table(table), expected)
        assert rows == 0 and out.read_bytes() == expected.read_bytes()


def test_an_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    """The table goes to a temporary file renamed at the end: a failure midway leaves
    neither a half table nor the temporary file."""
    source = tmp_path / "games.pdn"
    source.write_text('[Event "a"]\n1. 32-28 19-23 *\n\n[Event "b"]\n1. 33-29 *\n')

    def broken(*args, **kwargs):
        yield from ()
        raise OSError(5, "disk gone")

    monkeypatch.setattr("replay.stats.stream.iter_parts", broken)
    with pytest.raises(OSError):
        write_table([str(source)], ENGLISH, tmp_path / "out.csv", "games")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.pdn"]


def test_cli_streams_the_moves_table_and_plots(shared_data, tmp_path):
    sources = _archive(shared_data)[1:]
    out, plot = tmp_path / "moves.csv", tmp_path / "p.svg"
    result = CliRunner().invoke(app, ["stats", *sources, "-t", "moves", "-o", str(out),
                                      "--plot", str(plot), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert pd.read_csv(out)["game"].max() > 1 and plot.read_text().startswith("<?xml")


def _wide(tmp_path: Path, count: int) -> Path:
    """A game of ``count`` distinct tags ``T0``... (and Event), then a game with one of them,
    an Event that a spreadsheet would run, and a tag seen nowhere before, with a quote."""
    source = tmp_path / "wide.pdn"
    source.write_text('[Event "wide"]\n' + "".join(f'[T{n} "v{n}"]\n' for n in range(count))
                      + '1. 32-28 19-23 *\n\n[Event "=narrow"]\n[T5 "five"]\n'
                      + '[Late "say \\"hi\\""]\n1. 32-28 *\n\n')
    return source


def test_many_distinct_tags_are_each_a_column_in_order(tmp_path):
    """A game with hundreds of distinct tag names (the tags travel as one block of texts
    until the table is finished): each is a column, in the order read, and a game without
    one has it empty; the columns before and after them keep their dtypes."""
    names = [f"T{n}" for n in range(900)]
    rows, games = write_table([str(_wide(tmp_path, 900))], ENGLISH, tmp_path / "g.csv",
                              "games", keep_games=True)
    written = pd.read_csv(tmp_path / "g.csv", dtype=str, keep_default_na=False)
    assert rows == 2 and list(written.columns[3:3 + 7]) == ["Event", "Site", "Date", "Round",
                                                            "White", "Black", "Result"]
    assert [c for c in written.columns if c[0] in "TL"] == [*names, "Late"]
    assert written[names].iloc[0].tolist() == [f"v{n}" for n in range(900)]
    assert written["T5"].tolist() == ["v5", "five"] and written["T6"].tolist() == ["v6", ""]
    assert written["Event"].tolist() == ["wide", "'=narrow"]  # still safe in a spreadsheet
    assert "other_tags" not in written
    assert all(str(games[n].dtype) == "string" for n in names[::100])
    assert games["T7"].isna().tolist() == [False, True]
    assert str(games["plies"].dtype) == "Int64" and str(games["variant"].dtype) == "category"


def test_tags_past_the_column_limit_go_into_other_tags(tmp_path, monkeypatch):
    """A games table has ``TAG_COLUMN_LIMIT`` tag columns at most (a typed column each
    cost ~2 KB: one game of 200,000 tags took 1.2 GB): the first tags seen keep theirs, and
    each game's values of the others are written as PDN tag pairs in ``other_tags``, the
    same whether the games come in one part or many, with one warning naming the first
    such game."""
    from replay.stats.schema import TAG_COLUMN_LIMIT

    source = _wide(tmp_path, 1200)
    kept = [f"T{n}" for n in range(TAG_COLUMN_LIMIT - 7)]  # after the seven tags
    warnings: list[str] = []
    monkeypatch.setattr(engine, "BLOCK", 1 << 12)  # each game in a part of its own
    rows, games = write_table([str(source)], ENGLISH, tmp_path / "g.csv", "games",
                              keep_games=True, warn=warnings.append)
    written = pd.read_csv(tmp_path / "g.csv", dtype=str, keep_default_na=False)
    tags = list(written.columns[3:written.columns.get_loc("other_tags")])
    assert rows == 2 and len(tags) == TAG_COLUMN_LIMIT and tags[7:] == kept
    assert written["other_tags"].tolist() == [
        " ".join(f'[T{n} "v{n}"]' for n in range(len(kept), 1200)), '[Late "say \\"hi\\""]']
    assert written["T5"].tolist() == ["v5", "five"] and str(games["other_tags"].dtype) == "string"
    assert warnings == [f"{source}:1: warning: game 1: the games table has more than "
                        f"{TAG_COLUMN_LIMIT:,} distinct tags; this game's tags past them, and "
                        f"any later game's, are in its other_tags column"]
    with writer.TableWriter(tmp_path / "w.csv") as whole:  # the in-memory table, at once
        whole.write(stats_tables([str(source)], ENGLISH, with_moves=False).games)
    assert (tmp_path / "g.csv").read_bytes() == (tmp_path / "w.csv").read_bytes()


def test_a_batch_keeps_its_tags_in_one_block():
    """The tags of a batch travel as one block of texts (two frames of the same batch: the
    seven tags first, then the others as read, None where a game lacks one)."""
    from replay.stats.schema import REPLAY_COLUMNS, typed_games

    row = {name: None for name in REPLAY_COLUMNS}
    rows = [{**row, "tags": {f"T{n}": str(n) for n in range(500)}},
            {**row, "tags": {"Event": "e", "T3": "x"}}]
    games = typed_games(rows)
    tags = games.iloc[:, :507]
    assert list(tags.columns[:8]) == ["Event", "Site", "Date", "Round", "White", "Black",
                                      "Result", "T0"]
    assert tags._mgr.nblocks == 1 and tags.loc[1, "T3"] == "x" and tags.loc[1, "T4"] is None
