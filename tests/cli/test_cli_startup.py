"""``pdn --help`` stays fast: importing the command line, and printing its help, import none
of the heavy modules (checked by the modules loaded in a fresh interpreter, not by a time).
A command imports what it needs when it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# pandas, Lark and the compiled grammar, the rules core, pydantic (typer's adapters coerce a
# command's values with it), rich's help formatter (markdown-it, pygments) and its console.
HEAVY = ("pandas", "numpy", "lark", "pdn.parser", "pdn.reader", "replay.rules.position",
         "replay.rules.movegen", "replay.record.replayer", "pydantic", "typer._adapters",
         "typer.rich_utils", "rich", "markdown_it", "pygments")

PROBE = """
import contextlib, io, json, sys
from pdn.cli.app import main
sys.argv = ["pdn", *{args!r}]
if sys.argv[1:]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main()
print(json.dumps(sorted(sys.modules)))
"""


def loaded(*args: str) -> set[str]:
    """The modules a fresh interpreter holds after importing the CLI and running ``args``."""
    found = subprocess.run([sys.executable, "-c", PROBE.format(args=list(args))],
                           capture_output=True, text=True, check=True)
    return set(json.loads(found.stdout.splitlines()[-1]))


@pytest.mark.parametrize("args", [(), ("--help",)])
def test_the_command_line_and_its_help_import_no_heavy_module(args):
    modules = loaded(*args)
    assert "pdn.cli.app" in modules  # the probe did import the command line
    # its help lists every command: their modules; the entry point alone imports none
    assert ("pdn.cli.validate" in modules) == bool(args)
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


def test_a_command_s_help_imports_no_heavy_module():
    # typer checks a command's values with pydantic; our plain values skip it (cli.values).
    modules = loaded("validate", "--help")
    assert "pdn.cli.values" in modules
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


# What a short validate needs: the grammar and the rules core; not pydantic, rich, pandas.
NOT_FOR_VALIDATE = ("pandas", "numpy", "pyarrow", "pydantic", "typer._adapters", "rich",
                    "markdown_it", "pygments", "replay.archive")


@pytest.mark.parametrize("options", [("--jobs", "1"), (), ("--json",),
                                     ("--jobs", "1", "-v", "english", "-r", "forced-capture=no")])
def test_a_command_that_runs_imports_what_it_needs(tmp_path, options):
    game = tmp_path / "game.pdn"
    game.write_text("1. 11-15 23-19 *\n", encoding="utf-8")
    modules = loaded("validate", *options, str(game))
    assert {"pdn.parser", "replay.record.replayer"} <= modules  # the probe above can see them
    assert not modules & set(NOT_FOR_VALIDATE), sorted(modules & set(NOT_FOR_VALIDATE))
    # pdn NAME imports its command's module alone (cli.app.COMMAND_MODULES)
    assert not modules & {"pdn.cli.stats", "pdn.cli.archive", "pdn.cli.analyse"}


# What convert and the archive tools that write records need on this machine's runner: no
# table library (the cluster's dedupe loads Dask and pandas on a cluster only).
NOT_FOR_RECORDS = ("pandas", "numpy", "pyarrow", "dask")


@pytest.mark.parametrize("command", [("convert", "--to", "full"), ("merge",),
                                     ("filter", "--result", "1-0")])
def test_convert_and_the_archive_tools_load_no_table_library(tmp_path, command):
    game = tmp_path / "game.pdn"
    game.write_text('[Result "1-0"]\n1. 11-15 23-19 1-0\n', encoding="utf-8")
    modules = loaded(*command, str(game), "-o", str(tmp_path / "out.pdn"))
    assert "replay.archive.stream" in modules  # the probe above can see them
    assert not modules & set(NOT_FOR_RECORDS), sorted(modules & set(NOT_FOR_RECORDS))


def test_a_value_the_plain_check_does_not_take_gets_typer_s_message():
    # --jobs -1 and --jobs x go to typer's own check (pydantic): its words, exit 2.
    for value, words in (("-1", "greater than or equal to 0"), ("x", "valid integer")):
        done = subprocess.run([sys.executable, "-c", "from pdn.cli.app import main; main()",
                               "validate", "--jobs", value, "-"],
                              capture_output=True, text=True, input="")
        assert done.returncode == 2 and words in done.stderr, done.stderr


def test_a_command_alone_answers_as_in_the_whole_app(tmp_path):
    # pdn NAME ... builds only that command (cli.app.command_app): its help, its usage
    # errors and its run are those of the whole app.
    from typer.main import get_command
    from typer.testing import CliRunner

    from cli.app import app, command_app

    runner = CliRunner()
    game = tmp_path / "game.pdn"
    game.write_text("1. 11-15 23-19 *\n", encoding="utf-8")
    names = sorted(get_command(app).commands)
    assert "validate" in names and "filter" in names
    for name in names:
        alone = command_app([name])
        assert (alone is app) == (name == "engine"), name  # a group: the whole app
        for args in ([name, "--help"], [name, "--no-such-option"]):
            whole, one = runner.invoke(app, args), runner.invoke(alone, args)
            assert (one.exit_code, one.output) == (whole.exit_code, whole.output), args
    args = ["validate", "--jobs", "1", "--json", str(game)]
    whole, one = runner.invoke(app, args), runner.invoke(command_app(args), args)
    assert (one.exit_code, one.output) == (whole.exit_code, whole.output)
    assert one.exit_code == 0 and json.loads(one.output)["status"] == "valid"
    assert command_app(["--help"]) is app and command_app([]) is app
    assert command_app(["validat"]) is app  # no such command: typer's own answer


def test_a_second_run_reads_the_compiled_grammar_from_the_cache(tmp_path):
    # the first run keeps the parser and the terminals (pdn.grammar); the second loads them
    # (Lark marks a parser it loaded) and answers the same
    import os

    game = tmp_path / "game.pdn"
    game.write_text("1. 11-15 23-19 2. 8-11 22-17 *\n", encoding="utf-8")
    cache = tmp_path / "cache"
    probe = ("import sys; from pdn.cli.app import main; from pdn.parser import load_parser\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(load_parser()[0].lark.source_path, file=sys.stderr)")
    runs = [subprocess.run([sys.executable, "-c", probe, "validate", "--json", str(game)],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, "PDN_CACHE_DIR": str(cache)})
            for _ in range(2)]
    assert sorted(path.name.split("-")[0] for path in cache.iterdir()) == ["parser",
                                                                          "terminals"]
    assert runs[0].stderr.split()[-1] != "<deserialized>"
    assert runs[1].stderr.split()[-1] == "<deserialized>"
    assert runs[0].stdout == runs[1].stdout and '"status": "valid"' in runs[0].stdout


def test_the_plain_check_gives_what_typer_s_own_gives():
    # every parameter of every command, on values of each kind: where cli.values takes a
    # value, typer's pydantic check takes it too and gives the same
    from typer._click import Context
    from typer._coercion import build_runtime_param
    from typer.main import get_command

    from cli.app import app
    from cli.values import _NOT_PLAIN, plain_value

    values = ["12", "0", "-1", "007", "x", "", "russian", "20", ("a", "b"), ()]
    taken = 0
    group = get_command(app)
    commands = [*group.commands.values(), *group.commands["engine"].commands.values()]
    for command in commands:
        context = Context(command)
        for param in command.params:
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is None or descriptor.file_annotation is not None:
                continue
            own = build_runtime_param(descriptor)
            for value in values:
                try:
                    plain = plain_value(descriptor.annotation, descriptor.parameter_info, value)
                except Exception:  # the plain check hands such a value to typer's
                    continue
                if plain is _NOT_PLAIN:
                    continue
                taken += 1
                assert own._coerce_value(value, param=param, ctx=context) == plain, (
                    command.name, param.name, value)
    assert taken > 100


def test_every_command_is_registered_by_the_module_its_name_imports():
    """``pdn NAME`` imports the module ``COMMAND_MODULES`` names for it: that module must
    register the command, and every command of the whole app must be named there (a group
    such as ``engine`` is built with the whole app)."""
    from pdn.cli import app as cli_app
    from typer.main import get_command_name

    def names(built) -> set[str]:
        return {info.name or get_command_name(info.callback.__name__)
                for info in built.registered_commands}

    assert names(cli_app.whole_app()) == set(cli_app.COMMAND_MODULES)
    for command, module in cli_app.COMMAND_MODULES.items():
        assert command in names(cli_app.build_app((module,))), (command, module)
        assert [info.name or get_command_name(info.callback.__name__) for info in
                cli_app.command_app([command]).registered_commands] == [command]
