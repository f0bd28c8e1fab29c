"""One exit-code table for every command (``cli.common.ExitCode``, in ``pdn --help`` and the
README): 0 all well, 1 some games invalid or unreadable, 2 a usage error or an input that
cannot be opened or decoded. Each command of ``pdn --help`` is run on a good input, on an
input with an invalid or unreadable game, and with a usage error."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from conftest import require
from pdn.cli.app import app
from pdn.cli.common import ExitCode
from support.engines import find_dame
from typer.testing import CliRunner

from pdn.reader import read_games

runner = CliRunner()

GOOD = """\
[Event "good"]
[White "Ivanov"]
[Black "Petrov"]
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-g5 2. g3-f4 g7-f6 1-0

"""
INVALID = """\
[Event "invalid"]
[GameType "25"]
1. c3-d4 f6-e5 2. b2-c3 *

"""  # 2. b2-c3 leaves the capture d4:f6 that the rules require
UNREADABLE = '[Event "unreadable"]\n1. c3-d4 f6-g5 (2. b2-c3 {never closed\n\n'
START = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
# International games for pdn analyse (its engines play 10x10): after 19-23 the capture
# 28x19 is forced, so 33-29 is illegal
GOOD_INTERNATIONAL = '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n'
INVALID_INTERNATIONAL = '[GameType "20"]\n1. 32-28 19-23 2. 33-29 *\n\n'


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """good (two good games), broken (a good, an invalid and an unreadable game), FEN files
    good_fen and broken_fen (a line that is no position), a database of good, and out."""
    paths = {}
    for name, text in (("good.pdn", GOOD * 2), ("broken.pdn", GOOD + INVALID + UNREADABLE),
                       ("good.fen", f"{START}\n"), ("broken.fen", f"{START}\nX:nonsense\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths[name.replace(".pdn", "").replace(".", "_")] = str(tmp_path / name)
    for name, text in (("good_intl.pdn", GOOD_INTERNATIONAL * 2),
                       ("broken_intl.pdn", GOOD_INTERNATIONAL + INVALID_INTERNATIONAL)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths[name.replace(".pdn", "")] = str(tmp_path / name)
    dame = find_dame()  # a wrapper, so that the engine's command is one word
    (tmp_path / "dame-hub").write_text(f"#!/bin/sh\nexec {dame} hub\n", encoding="utf-8")
    (tmp_path / "dame-hub").chmod(0o755)
    paths["dame_hub"] = str(tmp_path / "dame-hub")
    paths["out"] = str(tmp_path / "out")
    paths["good_db"] = str(tmp_path / "good.db")
    runner.invoke(app, ["index", paths["good"], "-o", paths["good_db"]])
    return paths


# command: (good arguments, arguments with an invalid or unreadable game (None: the command
# reads no games), arguments with a usage error); {name} is a path of ``files``.
CASES = {
    "validate": ("{good}", "{broken}", "{good} --report {out}.txt"),
    "convert": ("{good} --to full", "{broken} --to full", "{good} --to nonsense"),
    "stats": ("{good} -t games --json", "{broken} -t games --json",
              "{good} -t nonsense"),
    "info": ("{good}", "{broken}", "{good} --encoding"),
    "cat": ("{good}", "{broken}", "{good} --game 0"),
    "show": ("{good}", "{broken} --game 2", "{good} --ply 1 --move 1b"),
    "view": ("{good} -o {out}.html", "{broken} -o {out}.html",
             "{good} -o {out}.html --game 0"),
    "moves": ("--fen-file {good_fen}", "--fen-file {broken_fen}", "X:nonsense"),
    "perft": ("--depth 2", None, "--depth 2 --fen X:nonsense"),
    "filter": ("{good} --tag Event=* -o {out}.pdn", "{broken} --tag Event=* -o {out}.pdn",
               "{good} --result 3-0 -o {out}.pdn"),
    "dedupe": ("{good} -o {out}.pdn", "{broken} -o {out}.pdn",
               "{good} --by nonsense -o {out}.pdn"),
    "split": ("{good} -o {out}", "{broken} -o {out}", "{good} --by nonsense -o {out}"),
    "merge": ("{good} -o {out}.pdn", "{broken} -o {out}.pdn",
              "{good} -o {good}"),
    "clean": ("{good} -o {out}.pdn", "{broken} -o {out}.pdn",
              "{good} --strip nonsense -o {out}.pdn"),
    "index": ("{good} -o {out}.db", "{broken} -o {out}.db", "- -o {out}.db"),
    # the unreadable games of a database were reported (exit 1) when it was indexed
    "search": ("{good_db} --player ivanov", None, "{good_db} --position nonsense"),
    # games without a result make the table incomplete (the broken file's invalid game is *)
    "standings": ("{good}", "{broken}", "{good} --tiebreak nonsense"),
    # match reads no games: 1 is an engine that fails (here: none listens on port 1)
    "match": ("random:1 random:2 --max-moves 5 -o {out}.pdn",
              "random:1 dxp:127.0.0.1:1 --timeout 1 -o {out}.pdn", "random:1 nonsense"),
    "analyse": ("{good_intl} --engine-cmd {dame_hub} --depth 2 -o {out}.pdn",
                "{broken_intl} --engine-cmd {dame_hub} --depth 2 -o {out}.pdn",
                "{good_intl} --engine-cmd {dame_hub} --depth 2 --movetime 1"),
    "explore": ("{good_db} --moves c3-d4", None, "{good_db} --position nonsense"),
    # a server runs until stopped: tests/tools/serve starts it; here its usage errors only
    "serve": (None, None, "{good} --port nonsense"),
    # the built-in engine's Hub server reads no games: stdin ends at once, the talk with it
    "engine": ("hub", None, "hub --variant nonsense"),
}
RUNS = [(command, kind, code) for command, cases in CASES.items()
        for kind, code in zip(("good", "some games", "usage"),
                              (ExitCode.OK, ExitCode.SOME_GAMES, ExitCode.USAGE), strict=True)
        if cases[("good", "some games", "usage").index(kind)] is not None]


def test_every_command_of_pdn_help_has_its_cases():
    commands = typer.main.get_command(app).commands
    assert sorted(commands) == sorted(CASES)


@pytest.mark.parametrize(("command", "kind", "code"), RUNS,
                         ids=[f"{command}-{kind}" for command, kind, _ in RUNS])
def test_exit_code(files, command, kind, code):
    if command == "analyse":
        require(find_dame() is not None, "dame-rs (pip install dame-rs; make test-deps)")
    if command == "engine" and kind == "good":
        from replay.rules.native import available

        require(available(), "the native rules core (the built-in engine runs on it)")
    arguments = CASES[command][("good", "some games", "usage").index(kind)]
    result = runner.invoke(app, [command, *arguments.format_map(files).split()])
    assert result.exit_code == code, result.output


# pdn analyse reads International games: tests/tools/engine/test_analyse.py has its
# unreadable input
@pytest.mark.parametrize("command", sorted(set(CASES) - {"moves", "perft", "search", "match",
                                                         "analyse", "explore", "engine"}))
def test_an_input_that_cannot_be_read_is_exit_2(files, tmp_path, command):
    good = (CASES[command][0] or "{good}").format_map(files).split()
    missing = [str(tmp_path / "none.pdn") if part == files["good"] else part
               for part in good]
    result = runner.invoke(app, [command, *missing])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "none.pdn" in result.output


def test_the_table_is_in_pdn_help():
    shown = " ".join(runner.invoke(app, ["--help"]).output.split())
    assert ("Exit status, for every command: 0 all well; 1 some games invalid or unreadable "
            "(the others done); 2 a usage error, or an input that cannot be opened or "
            "decoded.") in shown


def test_filter_says_what_it_matched_wrote_and_left_out(files, tmp_path):
    # before: "1 of 3 games matched; 2 written; 1 unreadable passed through", exit 2; then
    # the unreadable game was written into the selection: a selection holds only matches
    out = tmp_path / "invalid.pdn"
    result = runner.invoke(app, ["filter", files["broken"], "--status", "invalid",
                                 "-o", str(out)])
    assert result.exit_code == ExitCode.SOME_GAMES, result.output
    assert ("1 of 3 games matched; 1 written; 1 unreadable game left out of the selection "
            "(each named above; --rejects FILE keeps them)") in " ".join(result.output.split())
    written = list(read_games(out))
    assert [game.tags.get("Event") for game in written] == ["invalid"]
    rejects = tmp_path / "rejects.pdn"
    result = runner.invoke(app, ["filter", files["broken"], "--status", "invalid",
                                 "-o", str(out), "--rejects", str(rejects)])
    assert f"1 written; 1 unreadable game passed through unchanged to --rejects {rejects}" in \
        " ".join(result.output.split())
    assert [game.tags.get("Event") for game in read_games(out)] == ["invalid"]


# ---- an input with no game at all ----------------------------------------------------------

ELF_HEADER = b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x03\x00>\x00\x01\x00\x00\x00" + bytes(64)


@pytest.mark.parametrize(("content", "why"), [
    (b"", "the file is empty"),
    (b"  \n\n\t\n", "the file holds only blank space"),
    (ELF_HEADER * 20, "the file is binary data, not text"),
])
@pytest.mark.parametrize("command", ["validate", "info", "stats", "cat", "convert", "view"])
def test_a_file_without_games_says_so_and_exits_2(tmp_path: Path, content: bytes, why: str,
                                                  command: str):
    """An empty file, or an executable, is said to hold no games (never "0 games: none" with
    exit 0, nor a binary read as a Russian game), with the table's 2: nothing to decode."""
    path = tmp_path / "nothing.pdn"
    path.write_bytes(content)
    extra = {"convert": ["--to", "full"], "view": ["-o", str(tmp_path / "v.html")]}
    result = runner.invoke(app, [command, str(path), *extra.get(command, [])])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert result.stderr.startswith(f"error: {path}: no games: {why}"), result.stderr
    assert "russian" not in result.output


def test_text_in_utf16_and_stray_nuls_are_not_taken_for_binary(tmp_path: Path):
    """UTF-16 without a BOM has NULs at one parity only; a few NULs in a text are damage to
    report game by game, the good games around them kept."""
    utf16 = tmp_path / "utf16.pdn"
    utf16.write_bytes(GOOD.encode("utf-16-le"))
    damaged = tmp_path / "damaged.pdn"
    damaged.write_bytes((GOOD + '[Event "a\0b"]\n1. c3\0-d4 *\n\0\0\n\n' + GOOD).encode())
    assert runner.invoke(app, ["validate", str(utf16), "--encoding", "utf-16-le"]
                         ).exit_code == ExitCode.OK
    result = runner.invoke(app, ["validate", str(damaged)])
    assert result.exit_code == ExitCode.SOME_GAMES and "2 valid" in result.stderr, result.stderr
