"""Escape sequences in tags never drive the terminal: what a command shows on a terminal has
the control characters of its data escaped (``\\x1b``), one helper for all
(``cli.common.escape_controls``, through ``write_out`` and ``echo``), while the data written
to a file or a pipe stays as read. Each command runs as a process on a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

runner = CliRunner()

ESCAPES = "a\x1b]0;pwned\x07b\x1b[2Jc\x9b1m"  # OSC (a window title), CSI (clear), C1 CSI
RAW = (b"\x1b]0;pwned", b"\x1b[2J", "\x9b1m".encode())
SHOWN = "a\\x1b]0;pwned\\x07b\\x1b[2Jc\\x9b1m"
GAMES = (f'[Event "{ESCAPES}"]\n[White "W{ESCAPES}"]\n[Black "B\tx{ESCAPES}"]\n'
         '[Result "2-0"]\n[GameType "20"]\n1. 32-28 19-23 2. 33-29 2-0\n\n'
         f'[Event "{ESCAPES}"]\n[White "B\tx{ESCAPES}"]\n[Black "W{ESCAPES}"]\n'
         '[Result "0-2"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 0-2\n\n')

# one player written two ways (replay.tournament.spellings), reported below the tables
PAIRS = "".join(f'[White "{w}"]\n[Black "{b}"]\n[Round "{r}"]\n[Result "1-1"]\n'
                '[GameType "20"]\n1. 32-28 1-1\n\n'
                for w, b, r in [(f"Goryunov{ESCAPES}", "Ann", "1"), ("Bob", "Cas", "1"),
                                (f"Gorunov{ESCAPES}", "Bob", "2"), ("Ann", "Cas", "2"),
                                ("Cas", f"Gorunov{ESCAPES}", "3"), ("Ann", "Bob", "3")])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("escapes")
    (folder / "esc.pdn").write_text(GAMES, encoding="utf-8")
    (folder / "pairs.pdn").write_text(PAIRS, encoding="utf-8")
    result = runner.invoke(app, ["index", str(folder / "esc.pdn"), "-o", str(folder / "esc.db")])
    assert result.exit_code == 0, result.output
    return {"pdn": str(folder / "esc.pdn"), "db": str(folder / "esc.db"),
            "pairs": str(folder / "pairs.pdn")}


def on_terminal(arguments: list[str]) -> bytes:
    """What ``pdn arguments`` writes to a terminal (stdout and stderr)."""
    master, slave = pty.openpty()
    child = subprocess.Popen([sys.executable, "-c", "from pdn.cli.app import main; main()",
                              *arguments], stdin=subprocess.DEVNULL, stdout=slave,
                             stderr=slave, env={**os.environ, "COLUMNS": "250",
                                                "TERM": "xterm"})
    os.close(slave)
    shown = b""
    try:
        while select.select([master], [], [], 60)[0]:
            try:
                block = os.read(master, 1 << 16)
            except OSError:  # the child closed the terminal
                break
            if not block:
                break
            shown += block
    finally:
        os.close(master)
        child.wait(timeout=60)
    return shown


COMMANDS = {
    "validate": ["validate", "{pdn}", "-W"],
    "standings": ["standings", "{pdn}"],
    "show": ["show", "{pdn}"],
    "convert": ["convert", "{pdn}", "--to", "full"],
    "search": ["search", "{db}"],
    "search-table": ["search", "{db}", "-f", "table"],
    "explore": ["explore", "{db}"],
    "stats": ["stats", "{pdn}", "-t", "games"],
    "standings-name-pairs": ["standings", "{pairs}"],
    "standings-name-pairs-to-file": ["standings", "{pairs}", "-o", "{pairs}.csv"],
    "stats-name-pairs": ["stats", "{pairs}", "-t", "players"],
    "cat": ["cat", "{pdn}"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_terminal_sees_control_characters_escaped(inputs, name):
    shown = on_terminal([part.format_map(inputs) for part in COMMANDS[name]])
    assert not [raw for raw in RAW if raw in shown], shown[-400:]
    if name == "stats":  # a table's cells may be cut short with …
        assert b"Wa\\x1b" in shown, shown[-400:]
    elif name != "explore":  # explore shows moves and players of a position, no tag
        assert SHOWN.encode() in shown, shown[-400:]
    if "name-pairs" in name:
        assert f"Goryunov{SHOWN} (1 game) ~ Gorunov{SHOWN}".encode() in shown, shown[-400:]


@pytest.mark.parametrize("name", ["convert", "search", "cat"])
def test_a_pipe_gets_the_data_as_read(inputs, name):
    result = runner.invoke(app, [part.format_map(inputs) for part in COMMANDS[name]])
    assert result.exit_code in (0, 1), result.output
    assert f"W{ESCAPES}" in result.stdout


def test_a_tab_in_a_tag_makes_no_column_in_a_search_table(inputs):
    result = runner.invoke(app, ["search", inputs["db"], "-f", "table"])
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and len(lines) == 3, result.output
    assert {len(line.split("\t")) for line in lines} == {len(lines[0].split("\t"))}
    assert f"B x{ESCAPES}" in lines[1].split("\t")  # the tab a space, as in pdn stats' TSV
    assert Path(inputs["pdn"]).read_text(encoding="utf-8") == GAMES
