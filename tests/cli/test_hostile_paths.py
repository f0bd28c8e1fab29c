"""Hostile paths and damaged side inputs: a clear error naming its place and the exit-code
table's status (``cli.common.ExitCode``), never a traceback. Each command of ``pdn --help``
that reads files is run, with the arguments of ``test_exit_codes.CASES``, on a file name
that is not UTF-8, a name component of 300 bytes (ENAMETOOLONG), a folder holding a loop of
symbolic links, and an ``--encoding`` that cannot read the file; then a corrections file
that is not UTF-8, an engine command with a quote left open, and damaged databases."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest
import test_exit_codes
from pdn.cli.app import app
from pdn.cli.common import ExitCode
from test_exit_codes import CASES
from typer.testing import CliRunner

runner = CliRunner()


@pytest.fixture
def paths(tmp_path: Path) -> dict[str, str]:
    """The inputs of test_exit_codes (its fixture ``files``): good files, a database of
    them, an output's stem."""
    return test_exit_codes.files.__wrapped__(tmp_path)

# the commands that read PDN files named on their command line ({good}: two good games)
READERS = sorted(command for command, cases in CASES.items()
                 if cases[0] is not None and "{good}" in cases[0])
# and with --encoding (the rest read no text of their own but a database or positions)
ENCODED = sorted({*READERS, "analyse"} - {"serve"})


def invoke(command: str, arguments: str, paths: dict[str, str], **replaced: str):
    """Run ``pdn command`` with ``arguments`` (``{name}``: a path of ``paths`` or of
    ``replaced``); the result, after checking that nothing but SystemExit was raised."""
    argv = [command, *arguments.format_map({**paths, **replaced}).split()]
    result = runner.invoke(app, argv)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{argv}: {result.exception!r}"
    return result


@pytest.mark.parametrize("folder", [False, True], ids=["file", "folder"])
@pytest.mark.parametrize("command", READERS)
def test_a_file_name_not_in_utf8_is_read_and_shown_escaped(paths, tmp_path, command, folder):
    """Linux allows any bytes in a name: the file is read like any other (exit 0) and its
    name, where shown or stored, is written with the bytes escaped (``\\xff``)."""
    where = tmp_path / "odd"
    where.mkdir()
    name = os.fsdecode(bytes(where) + b"/\xff\xfe.pdn")
    shutil.copy(paths["good"], name)
    result = invoke(command, CASES[command][0], paths, good=str(where) if folder else name)
    assert result.exit_code == ExitCode.OK, result.output
    assert "\udcff" not in result.output


@pytest.mark.parametrize("command", READERS)
def test_a_missing_file_named_not_in_utf8_is_an_error_with_the_bytes_escaped(paths, tmp_path,
                                                                             command):
    name = os.fsdecode(bytes(tmp_path) + b"/\xff\xfe.pdn")
    result = invoke(command, CASES[command][0], paths, good=name)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "\\xff\\xfe.pdn" in result.output and "\udcff" not in result.output


@pytest.mark.parametrize("command", ["analyse", "match"])
def test_an_engine_named_not_in_utf8_is_an_error_with_the_bytes_escaped(paths, tmp_path,
                                                                        command):
    engine = os.fsdecode(bytes(tmp_path) + b"/\xffengine")
    arguments = {"analyse": ["{good_intl}", "--engine-cmd", engine, "-o", "{out}.pdn"],
                 "match": [f"hub:{engine}", "random:1", "-o", "{out}.pdn"]}[command]
    result = runner.invoke(app, [command, *(part.format_map(paths) for part in arguments)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code != ExitCode.OK
    assert "\\xffengine" in result.output and "\udcff" not in result.output, result.output


@pytest.mark.parametrize("command", sorted({*READERS, "analyse", "search", "explore"}))
def test_a_name_component_too_long_is_an_error_naming_it(paths, tmp_path, command):
    arguments = CASES[command][0]
    key = next(key for key in ("good_intl", "good_db", "good") if f"{{{key}}}" in arguments)
    long = str(tmp_path / ("x" * 300 + Path(paths[key]).suffix))
    result = invoke(command, arguments, paths, **{key: long})
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "x" * 300 in result.output and "too long" in result.output


@pytest.mark.parametrize("command", READERS)
def test_a_folder_with_a_loop_of_links_is_read_once(paths, tmp_path, command):
    """``self -> ..`` and ``a -> b -> a`` in the folder: its one file is read, the loops
    neither followed forever nor a traceback."""
    folder = tmp_path / "looped"
    folder.mkdir()
    shutil.copy(paths["good"], folder / "games.pdn")
    (folder / "self").symlink_to("..")
    (folder / "a").symlink_to("b")
    (folder / "b").symlink_to("a")
    result = invoke(command, CASES[command][0], paths, good=str(folder))
    assert result.exit_code == ExitCode.OK, result.output


@pytest.mark.parametrize("encoding", ["utf-16", "punycode", "undefined"])
@pytest.mark.parametrize("command", ENCODED)
def test_an_encoding_that_cannot_read_the_file_says_so(paths, command, encoding):
    """UTF-16 without a BOM, an encoding of domain names, one that decodes nothing."""
    result = invoke(command, CASES[command][0] + f" --encoding {encoding}", paths)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "--encoding" in result.output or encoding in result.output, result.output


def test_a_corrections_file_not_in_utf8_is_an_error_naming_its_byte(paths, tmp_path):
    corrections = tmp_path / "corrections.txt"
    corrections.write_bytes(b"Ivanov - Petrov=1-0\n\xff\xfe\n")
    result = invoke("standings", "{good} --corrections {corrections}", paths,
                    corrections=str(corrections))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{corrections}, byte 21: not UTF-8 text" in " ".join(result.output.split())


@pytest.mark.parametrize("command", ["analyse", "match"])
def test_an_engine_command_with_a_quote_left_open_is_an_error(paths, command):
    arguments = {"analyse": ["{good_intl}", "--engine-cmd", "dame 'hub", "-o", "{out}.pdn"],
                 "match": ["hub:dame 'hub", "random:1", "-o", "{out}.pdn"]}[command]
    result = runner.invoke(app, [command, *(part.format_map(paths) for part in arguments)])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception,
                                                                      SystemExit)
    assert result.exit_code in (ExitCode.SOME_GAMES, ExitCode.USAGE), result.output
    assert "the engine command \"dame 'hub\" cannot be read: No closing quotation" in \
        " ".join(result.output.split())


def _damaged(paths: dict[str, str], tmp_path: Path, statement: str) -> str:
    damaged = tmp_path / "damaged.db"
    shutil.copy(paths["good_db"], damaged)
    with sqlite3.connect(damaged) as connection:
        connection.execute(statement)
    connection.close()
    return str(damaged)


@pytest.mark.parametrize(("command", "arguments"), [
    ("view", "{good} -o {out}.html --database {db}"),
    ("search", "{db} --player ivanov"),
    ("explore", "{db} --moves c3-d4"),
])
@pytest.mark.parametrize("damage", ["DROP TABLE games",
                                    "UPDATE games SET variant = 'nonsense'"],
                         ids=["no games table", "unknown variant"])
def test_a_damaged_database_is_an_error_naming_it(paths, tmp_path, command, arguments, damage):
    database = _damaged(paths, tmp_path, damage)
    result = invoke(command, arguments, paths, db=database)
    if command == "view" and "variant" in damage:  # the page's explorer reads no variant
        assert result.exit_code == ExitCode.OK, result.output
        return
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{database}: cannot read the database:" in " ".join(result.output.split())
    assert not Path(paths["out"] + ".html").exists()


# ---- silent acceptance -----------------------------------------------------------------------

GAMETYPES = [("99", "GameType '99': unknown game type 99; the tag is ignored"),
             ("20,W,1000000,10,N2,0", "GameType '20,W,1000000,10,N2,0': board 1000000x10 is "
              "not supported; the tag is ignored"),
             ("99,W,10,10,N2,0", "GameType '99,W,10,10,N2,0': type 99 is no variant known "
              "here; the tag is ignored"),
             # Python's int() refuses over 4,300 digits: the same warning at any length
             *((digits, f"GameType '{'9' * 40}…': unknown game type {'9' * 40}…; the tag is "
                "ignored") for digits in ("9" * 4_300, "9" * 4_301, "9" * 100_000)),
             ("20,W," + "1" * 5_000 + ",10,N2,0", f"GameType '20,W,{'1' * 35}…': board "
              f"{'1' * 9}…x10 is not supported; the tag is ignored")]


@pytest.mark.parametrize(("value", "said"), GAMETYPES)
def test_a_gametype_that_cannot_be_used_is_a_warning_naming_it(tmp_path, value, said):
    """The tag is ignored, as before, but said so (line of the game, the tag, the reason);
    the game is still replayed, its variant told from the record."""
    from pdn.reader import read_games
    from replay.record.replayer import replay_game

    source = tmp_path / "typed.pdn"
    source.write_text(f'[Event "x"]\n[GameType "{value}"]\n1. 32-28 19-23 *\n\n',
                      encoding="utf-8")
    replayed = replay_game(next(iter(read_games(source))))
    assert [(w.code, w.message, w.line) for w in replayed.warnings] == \
        [("gametype-ignored", said, 1)]
    assert replayed.variant.name == "international" and not replayed.errors
    result = runner.invoke(app, ["validate", str(source), "-W"])
    assert result.exit_code == ExitCode.OK, result.output
    assert f"{source}:1: warning: game 1: gametype-ignored — {said}" in result.output
    quiet = runner.invoke(app, ["validate", str(source)]).output
    assert "gametype-ignored —" not in quiet  # printed with -W only; the summary counts it
    assert "1 warning: 1 gametype-ignored (-W shows them)" in quiet


def test_a_readable_gametype_is_no_warning(tmp_path):
    from pdn.reader import read_games
    from replay.record.replayer import replay_game

    source = tmp_path / "typed.pdn"
    source.write_text('[GameType "20"]\n1. 32-28 19-23 *\n\n[GameType "25,W,8,8,N2,0"]\n'
                      '1. 22-18 *\n\n', encoding="utf-8")
    assert [w.code for game in read_games(source) for w in replay_game(game).warnings] == []


@pytest.mark.parametrize("command", ["search", "filter"])
def test_a_date_bound_that_is_no_date_is_refused(paths, command):
    where = {"search": "{good_db}", "filter": "{good} -o {out}.pdn"}[command]
    result = runner.invoke(app, [command, *where.format_map(paths).split(), "--date-from",
                                 "2002' OR 1=1 --"])
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "--date-from '2002' OR 1=1 --' is not a date" in result.output


# An empty folder: one rule, nothing to do (exit 0, as for a folder of good files), view and
# standings included (they exited 2); only show, asked for a game (the first by default),
# says that game is missing (exit 2), as cat --game N does.
NEED_A_GAME = {"show"}


@pytest.mark.parametrize("command", sorted({*READERS, "analyse"}))
def test_an_empty_folder_follows_one_rule(paths, tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    arguments = CASES[command][0].replace("{good_intl}", "{good}")
    result = invoke(command, arguments, paths, good=str(empty))
    expected = ExitCode.USAGE if command in NEED_A_GAME else ExitCode.OK
    assert result.exit_code == expected, result.output
    if expected == ExitCode.OK:
        assert "no record files (*.pdn, *.txt) found: 0 games" in result.output, result.output
