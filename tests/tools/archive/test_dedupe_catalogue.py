"""What the local ``pdn dedupe`` holds of each game (``replay.archive.duplicates.Catalogue``,
docs/archive.md "What dedupe holds in memory"): a game's place, keys and text go to the spool
and come back from it as filed, the games of a written key are chained in reading order, and
copies of an archive add columns' entries, no dictionary entry and no object a game; on the
real archives."""

from __future__ import annotations

import csv
import io
import tempfile
from collections import defaultdict
from contextlib import ExitStack
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from replay.archive.dedupe import GameKeys
from replay.archive.duplicates import Catalogue, Column, KeyTask
from replay.archive.run import Settings, portable, run_over
from replay.rules.choice import RulesChoice
from replay.rules.variants import INTERNATIONAL

# The 2003 world championship twice: the official corpus and a copy of its games.
WK2003 = (Path("games-checkers") / "internt" / "wk2003.pdn",
          Path("tests") / "wiegerw_pdn" / "succeed" / "wk2003.pdn")
TINSLEY = Path("english") / "tinsley.pdn"


@pytest.fixture
def spool():
    """A maker of spool files, closed after the test."""
    with ExitStack() as stack:
        yield lambda: stack.enter_context(tempfile.TemporaryFile(buffering=0))


def filed(spool, sources: list[str], default=None) -> tuple[Catalogue, list]:
    """The catalogue of the sources' games, and what the task gave for each of them."""
    settings = Settings(RulesChoice(default), jobs=1)
    catalogue = Catalogue(spool())
    items = []
    for item in run_over(sources, KeyTask(portable(settings)), settings):
        catalogue.add(item)
        items.append(item)
    return catalogue, items


def test_each_game_comes_back_from_the_spool_with_its_place_keys_and_text(shared_data, spool):
    catalogue, items = filed(spool, [str(shared_data / path) for path in WK2003], INTERNATIONAL)
    assert len(catalogue) == len(items) > 100
    for ordinal, item in enumerate(items):
        head, text = catalogue.read(ordinal)
        assert catalogue.source_names[head.source] == item.source
        assert (head.index, head.line) == (item.index, item.result.line)
        assert text.decode("utf-8") == item.result.text == catalogue.text(ordinal)
        keys = item.result.value
        if isinstance(keys, GameKeys):
            assert head.line_key == keys.line.ljust(16, b"\0")
            assert catalogue.variant_table[head.variant] is keys.variant


def test_the_games_of_each_shared_written_key_are_chained_in_reading_order(shared_data, spool):
    catalogue, items = filed(spool, [str(shared_data / path) for path in WK2003], INTERNATIONAL)
    by_key: dict[bytes, list[int]] = defaultdict(list)
    for ordinal, item in enumerate(items):
        keys = item.result.value
        if isinstance(keys, GameKeys) and keys.written is not None:
            by_key[keys.written].append(ordinal)
    expected = sorted((games for games in by_key.values() if len(games) > 1),
                      key=lambda games: games[0])
    assert len(expected) >= 20  # the corpus's games, each in both files
    assert list(catalogue.shared()) == expected


def test_copies_of_an_archive_add_17_bytes_a_game_and_no_key(shared_data, spool):
    once, _ = filed(spool, [str(shared_data / TINSLEY)])
    four, _ = filed(spool, [str(shared_data / TINSLEY)] * 4)
    games = len(once)
    assert len(four) == 4 * games
    assert len(four.last) == len(once.last) > 0  # one entry per distinct written key
    assert four.source_names == once.source_names
    assert len(list(four.shared())) == len(once.last)  # every key now shared, each once
    held = sum(len(block) * block.itemsize for column in (four.offsets, four.following)
               for block in column.blocks) + len(four.flags)
    assert held <= 17 * 4 * games + 2 * 8 * Column.BLOCK  # a block each at most unfilled


def test_a_column_spans_its_blocks_and_refuses_a_place_past_its_end():
    column = Column("q")
    for value in range(2 * Column.BLOCK + 3):
        column.append(-value)
    assert len(column) == 2 * Column.BLOCK + 3 and len(column.blocks) == 3
    column[Column.BLOCK] = 7
    assert (column[0], column[Column.BLOCK], column[2 * Column.BLOCK + 2]) == (
        0, 7, -2 * Column.BLOCK - 2)
    for place in (-1, 2 * Column.BLOCK + 3):
        with pytest.raises(IndexError):
            column[place]


def test_dedupe_of_standard_input_writes_what_it_writes_of_the_file(shared_data, tmp_path):
    """Standard input goes to the spool as a file's games do: the same games kept, and the
    same report but for the file's name."""
    both = tmp_path / "wk2003.pdn"
    both.write_bytes(b"".join((shared_data / path).read_bytes() for path in WK2003))
    runner = CliRunner()
    reports = tmp_path / "file.csv", tmp_path / "stdin.csv"
    from_file = runner.invoke(app, ["dedupe", "--jobs", "1", "--variant", "international",
                                    str(both), "--report", str(reports[0])])
    from_stdin = runner.invoke(app, ["dedupe", "--jobs", "1", "--variant", "international",
                                     "-", "--report", str(reports[1])],
                               input=both.read_text(encoding="utf-8"))
    assert from_file.exit_code == from_stdin.exit_code
    assert from_file.stdout == from_stdin.stdout and "[Event" in from_file.stdout
    rows = [list(csv.DictReader(io.StringIO(report.read_text(encoding="utf-8"))))
            for report in reports]
    assert len(rows[0]) >= 40  # each game of the corpus and its copy
    assert [{**row, "file": ""} for row in rows[0]] == [{**row, "file": ""} for row in rows[1]]
