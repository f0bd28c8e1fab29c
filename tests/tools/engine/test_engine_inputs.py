"""Hostile inputs of the commands that start engines (``pdn match``, ``pdn analyse``): two
engines of one name, a file name that is not UTF-8, an empty engine command, and an output
that is a named pipe no program reads (refused at once, by the rule every command's outputs
follow: ``replay.run.output.open_in_place``), each a clear message and never a hang or a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games

runner = CliRunner()
PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]
SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "russian" / "ivanov_petrov_short.pdn"

pytestmark = pytest.mark.usefixtures("no_engine_outlives_a_test")


def test_two_engines_of_one_name_are_two_players(tmp_path, builtin_command):
    out = tmp_path / "match.pdn"
    result = runner.invoke(app, ["match", "builtin", "builtin", "--depth", "1", "--pairs", "2",
                                 "--max-moves", "60", "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = list(read_games(out))
    first, second = "pdn builtin (1)", "pdn builtin (2)"
    assert [(g.tags["White"], g.tags["Black"]) for g in games] == [
        (first, second), (second, first), (first, second), (second, first)]
    final = result.output.strip().splitlines()[-1]
    assert final.startswith(f"final score after 4 games: {first} ") and f" {second} (" in final
    assert " ?" not in final  # not "pdn builtin 4 - 0 ?"
    # the score is the games': each of the pair's players counts its own
    points = {first: 0.0, second: 0.0}
    for game in games:
        result_tag = game.tags["Result"]
        if result_tag in ("2-0", "0-2", "1-1"):
            white, black = {"2-0": (2, 0), "0-2": (0, 2), "1-1": (1, 1)}[result_tag]
            points[game.tags["White"]] += white
            points[game.tags["Black"]] += black
    assert final.split(": ", 1)[1].startswith(
        f"{first} {points[first]:g} - {points[second]:g} {second}")


def test_a_file_named_not_in_utf8_is_analysed_and_shown_escaped(tmp_path, builtin_command):
    name = os.fsdecode(bytes(tmp_path) + b"/\xff\xfe.pdn")
    Path(name).write_text(SAMPLE.read_text(encoding="utf-8")
                          + '\n\n[Event "broken"]\n1. ed4 dc5 2. xx9 *\n', encoding="utf-8")
    result = runner.invoke(app, ["analyse", name, "--depth", "1", "--json",
                                 "-o", str(tmp_path / "out.pdn")])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code == 1, result.output  # the broken game is not analysed
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert rows and {row["source"] for row in rows} == {
        os.fsencode(name).decode("utf-8", "backslashreplace")}
    said = " ".join(result.stderr.split())
    assert "\\xff\\xfe.pdn: game 2: cannot be read, not analysed" in said
    assert "\udcff" not in result.output


def test_an_empty_engine_command_is_a_usage_error_not_the_builtin_engine(tmp_path):
    result = runner.invoke(app, ["analyse", str(SAMPLE), "--engine-cmd", "",
                                 "-o", str(tmp_path / "out.pdn")])
    assert result.exit_code == 2, result.output
    assert "--engine-cmd is empty" in " ".join(result.output.split())
    assert not (tmp_path / "out.pdn").exists()


def test_an_empty_engine_command_is_refused_by_the_desk_too():
    """``pdn serve --engine-cmd ""`` turned the desk's engine off without a word; it is the
    same usage error as analyse's, said before any server starts."""
    result = runner.invoke(app, ["serve", str(SAMPLE), "--engine-cmd", " "])
    assert result.exit_code == 2, result.output
    assert "--engine-cmd is empty" in " ".join(result.output.split())


@pytest.mark.parametrize("command", [
    ["match", "random:1", "random:2", "--max-moves", "3"],
    ["analyse", str(SAMPLE), "--depth", "1"],
    ["convert", str(SAMPLE), "--to", "full"],
], ids=["match", "analyse", "convert"])
def test_a_named_pipe_no_program_reads_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)
    try:
        done = subprocess.run([*PDN, *command, "-o", str(fifo)], capture_output=True,
                              text=True, timeout=120, cwd=tmp_path)
    except subprocess.TimeoutExpired:  # opening it for writing waited for a reader
        pytest.fail(f"pdn {command[0]} -o FIFO waited for a reader")
    assert done.returncode == 2, done.stderr
    assert f"{fifo}: cannot write: a named pipe that no program reads" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [
    ["match", "random:1", "random:2", "--max-moves", "3", "--pairs", "2"],
    ["analyse", str(SAMPLE), "--depth", "1"],
], ids=["match", "analyse"])
def test_a_named_pipe_with_a_reader_gets_every_game(tmp_path, command, builtin_command):
    """Opened once for the whole run: a reader that reads to the end of the stream (``cat``)
    gets every game, not the first one only."""
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    done = subprocess.run([*PDN, *command, "-o", str(fifo)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    games = 4 if command[0] == "match" else 1
    assert received and received[0].count(b"[Event ") == games
