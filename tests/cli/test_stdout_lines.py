"""Lines written in blocks (``cli.common.StdoutLines``): the bytes and the order of one
``echo`` per line, and ``pdn validate``'s output unchanged by it."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from cli.app import app
from cli.common import StdoutLines

LINES = [f"line {n} — é \x1b[31mred\x1b[0m" for n in range(40)]


def run(command) -> tuple[str, str, str]:
    """stdout, stderr and both as they came, of ``command`` run as a one-command app."""
    one = typer.Typer()
    one.command()(command)
    done = CliRunner().invoke(one, [])
    assert done.exit_code == 0, done.output
    return done.stdout, done.stderr, done.output


def test_blocks_give_the_bytes_of_one_echo_per_line():
    def per_line() -> None:
        for line in LINES:
            typer.echo(line)

    def in_blocks() -> None:
        with StdoutLines(block=50) as out:  # a block every line or two: many flushes
            for line in LINES:
                out.echo(line)

    assert run(in_blocks) == run(per_line)


def test_a_line_for_stderr_comes_after_the_lines_before_it():
    def mixed() -> None:
        with StdoutLines() as out:
            out.echo("first")
            out.echo("trouble", err=True)
            out.echo("second")

    stdout, stderr, both = run(mixed)
    assert (stdout, stderr) == ("first\nsecond\n", "trouble\n")
    assert both == "first\ntrouble\nsecond\n"


def test_lines_kept_back_are_sent_when_the_run_stops():
    def stopped() -> None:
        try:
            with StdoutLines() as out:
                out.echo("kept")
                raise typer.Exit(1)
        except typer.Exit:
            pass

    assert run(stopped)[0] == "kept\n"


def test_validate_json_rows_are_json_dumps_of_each_report(shared_data):
    from replay.validate.reports import validate_sources

    path = str(shared_data / "international" / "wiersma_turbodambase_export.pdn")
    done = CliRunner().invoke(app, ["validate", "--jobs", "1", "--json", path])
    expected = "".join(json.dumps(report.as_dict(), ensure_ascii=False) + "\n"
                       for report in validate_sources([path], None, None, jobs=1))
    assert done.stdout == expected and expected.count("\n") > 10
