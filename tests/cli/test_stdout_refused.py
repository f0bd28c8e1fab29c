"""A standard output that refuses a write (``> /dev/full``, a full disk) is an error naming
standard output, exit status 2, as an output given with ``-o`` that cannot be written is:
never a traceback, never blamed on the input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pdn.chunks import split_chunks

MAIN = "from pdn.cli.app import main; main()"  # the console script's entry
FULL = "error: standard output: cannot write: No space left on device"

pytestmark = pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")


@pytest.fixture(scope="module")
def games(shared_data: Path, tmp_path_factory) -> Path:
    """The first 40 games of a public archive, and a database of them (for search)."""
    with open(shared_data / "international" / "fmjd_wk2007_all_games.pdn",
              encoding="utf-8") as handle:
        text = "".join([chunk.text for chunk in split_chunks(handle)][:40])
    folder = tmp_path_factory.mktemp("stdout")
    (folder / "g.pdn").write_text(text, encoding="utf-8")
    _pdn(["index", str(folder / "g.pdn"), "-o", str(folder / "g.db")], subprocess.DEVNULL)
    return folder


def _pdn(args: list[str], stdout) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", MAIN, *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=300, check=False)


COMMANDS = {
    "info": ["info", "{g}"], "validate --json": ["validate", "--json", "{g}"],
    "cat": ["cat", "{g}"], "show": ["show", "{g}"], "moves": ["moves"],
    "moves --json": ["moves", "--json"], "perft": ["perft", "--depth", "2"],
    "search": ["search", "{db}"], "stats": ["stats", "{g}"],
    "stats -t games": ["stats", "-t", "games", "{g}"], "standings": ["standings", "{g}"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_full_stdout_is_an_error_naming_standard_output(games: Path, command: str):
    args = [arg.format(g=games / "g.pdn", db=games / "g.db") for arg in COMMANDS[command]]
    with open("/dev/full", "w") as full:
        done = _pdn(args, full)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stderr.rstrip().endswith(FULL), done.stderr
    assert "cannot read" not in done.stderr  # cat blamed the input
    assert done.returncode == 2


def test_the_same_commands_write_to_a_stdout_that_takes_them(games: Path):
    """The guard changes nothing where stdout takes the output."""
    for command in ("info", "cat", "moves --json", "search"):
        args = [arg.format(g=games / "g.pdn", db=games / "g.db") for arg in COMMANDS[command]]
        done = _pdn(args, subprocess.PIPE)
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout and not done.stderr.startswith("error"), command
