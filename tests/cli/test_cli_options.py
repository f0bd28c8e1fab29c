"""The options every command shares (cli/options.py): the house rules on every command that
replays (docs/rules.md, "Rule options and house rules"), one meaning per name, and a progress
bar on a terminal only."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import typer
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_game
from replay.convert.games import Target
from replay.convert.sources import Job, Unreadable, convert_sources, messages, verdict
from replay.rules.choice import RulesChoice
from replay.rules.variants import RUSSIAN, UnknownRuleError, parse_rules
from replay.validate.reports import report_game

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "russian"
runner = CliRunner()

# After 1. c3-d4 f6-e5 White must take d4:f6; 2. b2-c3 is legal only where capture is
# optional. The first game states Russian, the second is told Russian from its squares.
NO_CAPTURE = ("1. c3-d4 f6-e5 2. b2-c3 *")
RECORDS = (f'[Event "tagged"]\n[GameType "25"]\n{NO_CAPTURE}\n\n'
           f'[Event "untagged"]\n{NO_CAPTURE}\n')
FREE = ["--rule", "forced-capture=no"]


@pytest.fixture
def records(tmp_path: Path) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(RECORDS, encoding="utf-8")
    return path


def run(*args: str, code: int | None = 0, env: dict[str, str] | None = None):
    result = runner.invoke(app, list(args), env=env)
    if code is not None:
        assert result.exit_code == code, result.output
    return result


# ---- --rule on every command that replays --------------------------------------------------

@pytest.mark.parametrize("free", [FREE, ["--no-forced-capture"]])
def test_validate_takes_the_house_rule_on_tagged_and_inferred_games(records, free):
    strict = run("validate", str(records), "--json", code=1)
    assert [json.loads(line)["status"] for line in strict.stdout.splitlines()] == [
        "invalid", "invalid"]
    assert "capture-required" in strict.stdout
    lenient = run("validate", str(records), "--json", *free)
    reports = [json.loads(line) for line in lenient.stdout.splitlines()]
    assert [(r["status"], r["variant_source"], r["plies"]) for r in reports] == [
        ("valid", "tag", 3), ("valid", "inferred", 3)]


def test_convert_takes_the_house_rule(records):
    refused = run("convert", str(records), "--to", "full", code=1)
    assert "2 not converted" in refused.stderr and "b2-c3" not in refused.stdout
    converted = run("convert", str(records), "--to", "full", *FREE)
    assert converted.stdout.count("2. b2-c3") == 2 and "2 converted" in converted.stderr


def test_stats_takes_the_house_rule(records):
    def statuses(*rule: str) -> list[str]:
        result = run("stats", str(records), "-t", "games", "--json", *rule, code=None)
        return [json.loads(line)["status"] for line in result.stdout.splitlines()]

    assert statuses() == ["invalid", "invalid"]
    assert statuses(*FREE) == ["valid", "valid"]


def test_filter_takes_the_house_rule(records, tmp_path):
    out = tmp_path / "valid.pdn"
    assert "0 of 2 games matched" in run("filter", str(records), "-o", str(out), "--status",
                                         "valid").stderr
    assert "2 of 2 games matched" in run("filter", str(records), "-o", str(out), "--status",
                                         "valid", *FREE).stderr


def test_clean_rewrites_moves_under_the_house_rule(records, tmp_path):
    out = tmp_path / "clean.pdn"
    kept = run("clean", str(records), "-o", str(out), "--notation", "full").stderr
    assert "moves kept as written" in kept
    rewritten = run("clean", str(records), "-o", str(out), "--notation", "full", *FREE).stderr
    assert "moves kept as written" not in rewritten and "moves rewritten" in rewritten


def test_index_stores_every_ply_under_the_house_rule(records, tmp_path):
    def plies(*rule: str) -> int:
        db = tmp_path / f"games{len(rule)}.db"
        run("index", str(records), "-o", str(db), *rule)
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM game_positions").fetchone()[0]

    assert plies(*FREE) == plies() + 2  # the third ply of each game, and only then


def test_show_and_view_take_the_house_rule(records, tmp_path):
    assert "stops replaying" in run("show", str(records), "--ply", "2", code=1).stderr
    shown = run("show", str(records), "--ply", "3", *FREE)
    assert "stops replaying" not in shown.stderr and "ply 3 of 3" in shown.stdout
    page = tmp_path / "view.html"
    assert "games that do not replay: 2 invalid" in run("view", str(records), "-o",
                                                         str(page), code=1).stderr
    assert "do not replay" not in run("view", str(records), "-o", str(page), *FREE).stderr


def test_dedupe_and_split_accept_the_house_rule(records, tmp_path):
    # Both games play the same moves: duplicates whichever rule decides how far they replay.
    assert "1 group of duplicates" in run("dedupe", str(records), "-o", str(tmp_path / "u.pdn"),
                                           "--by", "moves", *FREE).stderr
    assert "into 2 files" in run("split", str(records), "-o", str(tmp_path / "parts"), *FREE
                                 ).stderr


def test_house_draw_rule_is_applied_when_validating(tmp_path):
    # Two lone kings shuffle for 40 moves each: under the house rule a draw may be claimed
    # after move 40; under Russian rules after 5 moves (FMJD-64 art. 7.2.8).
    moves = " ".join(f"{n}. {'a1-b2 h2-g1' if n % 2 else 'b2-a1 g1-h2'}" for n in range(1, 41))
    path = tmp_path / "kings.pdn"
    path.write_text(f'[GameType "25"]\n[FEN "W:WKa1:BKh2"]\n[Result "1/2-1/2"]\n{moves} '
                    "1/2-1/2\n", encoding="utf-8")

    def claims(*rule: str) -> list[tuple[str, int]]:
        report = json.loads(run("validate", str(path), "--json", *rule).stdout)
        return [(draw["rule"], draw["ply"]) for draw in report["draws"]]

    assert ("house-40", 80) in claims("--rule", "draws=house")
    assert not any(rule == "house-40" for rule, _ in claims())


@pytest.mark.parametrize("command", ["validate", "convert", "stats", "filter", "dedupe",
                                     "split", "clean", "index", "show", "view"])
def test_a_bad_rule_is_a_usage_error(records, tmp_path, command):
    extra = {"filter": ["-o", "-"], "dedupe": ["-o", "-"], "clean": ["-o", "-"],
             "split": ["-o", str(tmp_path / "parts")], "index": ["-o", str(tmp_path / "x.db")],
             "view": ["-o", str(tmp_path / "x.html")]}.get(command, [])
    result = run(command, str(records), *extra, "--rule", "forced-capture=maybe", code=2)
    assert "forced-capture" in result.output and "Traceback" not in result.output


# ---- one name, one meaning -------------------------------------------------------------------

REPLAYING = ("validate", "convert", "stats", "filter", "dedupe", "split", "clean", "index",
             "show", "view")
SHARED = ("--variant", "--rule", "--no-forced-capture", "--encoding")


def _options(command: str) -> dict[str, object]:
    group = typer.main.get_command(app)
    return {name: param for param in group.commands[command].params
            for name in getattr(param, "opts", [])}


@pytest.mark.parametrize("command", REPLAYING)
def test_shared_options_mean_the_same_on_every_command(command):
    options, reference = _options(command), _options("validate")
    for name in SHARED:
        assert name in options, f"pdn {command} lacks {name}"
        assert options[name].help == reference[name].help, f"{name} of pdn {command}"
    if command != "clean":  # clean reads each game's own GameType to normalise it
        assert options["--ignore-gametype"].help == reference["--ignore-gametype"].help


def test_filter_selects_by_game_variant_and_reads_untagged_games_with_variant(tmp_path):
    path = tmp_path / "mixed.pdn"
    path.write_text('[GameType "21"]\n1. 11-15 *\n\n1. 11-15 *\n\n[GameType "25"]\n'
                    "1. c3-d4 *\n", encoding="utf-8")
    out = tmp_path / "out.pdn"
    # Told from its squares, the untagged game is English; --variant says it is Pool.
    assert "2 of 3" in run("filter", str(path), "-o", str(out), "--game-variant",
                           "english").stderr
    assert "1 of 3" in run("filter", str(path), "-o", str(out), "--game-variant", "english",
                           "--variant", "pool").stderr
    assert "1 of 3" in run("filter", str(path), "-o", str(out), "--game-variant", "english",
                           "--default-variant", "pool").stderr  # the old spelling


def test_archive_tools_write_to_stdout_without_output(records):
    assert run("filter", str(records), "--status", "valid", *FREE).stdout.count("[Event") == 2


# ---- a progress bar on a terminal, none off it -----------------------------------------------

@pytest.mark.parametrize(("command", "label", "extra"), [
    ("validate", "validating", []), ("convert", "converting", []),
    ("stats", "tabulating", []), ("view", "replaying", ["-o", "{tmp}/v.html"]),
    ("index", "indexing", ["-o", "{tmp}/g.db"]), ("filter", "filtering", []),
    ("dedupe", "deduplicating", []), ("split", "splitting", ["-o", "{tmp}/parts"]),
    ("merge", "merging", []), ("clean", "cleaning", [])])
def test_progress_bar_on_a_terminal_only(records, tmp_path, command, label, extra):
    args = [command, str(records), *(a.format(tmp=tmp_path) for a in extra), *FREE]
    if command == "merge":
        args = args[:-2]
    shown = run(*args, env={"TTY_COMPATIBLE": "1", "TERM": "xterm"})
    assert label in shown.stderr and "100%" in shown.stderr
    hidden = run(*args, env={"TTY_COMPATIBLE": "0"})
    assert label not in hidden.stderr and "\x1b[" not in hidden.stderr
    if command != "stats":  # its table is drawn for the terminal; the rest is plain text
        assert shown.stdout == hidden.stdout  # what goes to stdout stays there


# ---- the library behind the commands ---------------------------------------------------------

def test_parse_rules_checks_names_and_values():
    assert parse_rules(["draws=house"]) == {"draws": "house"}
    for bad in (["draws"], ["flying-men=yes"], ["first=green"]):
        with pytest.raises(UnknownRuleError):
            parse_rules(bad)


def test_strict_reports_count_warnings_as_errors():
    game = read_game("1. c3-d4 f6-e5 2. d4-f6 *", 1)  # a capture written with '-'
    assert report_game(game, RUSSIAN).status == "valid"
    assert report_game(game, RUSSIAN).warnings
    assert report_game(game, RUSSIAN, strict=True).status == "invalid"


def test_conversion_verdicts_and_messages(tmp_path):
    text = f"{NO_CAPTURE}\n\n1. c3-d4 ... 2. b2-c3 *\n\n1. c3-d4 f6-g5 *\n"
    games = str(_write(tmp_path, text))
    job = Job(RulesChoice(RUSSIAN), Target("full"), partial=True)
    counted: list[int] = []
    items = list(convert_sources([games, str(tmp_path / "missing.pdn")], job,
                                 progress=counted.append))
    assert [verdict(i) for i in items[:3]] == ["partly converted", "incomplete", "converted"]
    assert any("converted up to the error (2 plies" in line for line in messages(items[0]))
    assert isinstance(items[3], Unreadable) and "cannot read" in items[3].message
    assert sum(counted) == len(text)  # every character of the file, told as it was done


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "games.pdn"
    path.write_text(text, encoding="utf-8")
    return path


def test_info_reads_directories_and_stdin_like_every_command(records):
    from_folder = run("info", str(records.parent), "--json").stdout
    assert json.loads(from_folder)["games"] == 2
    from_stdin = runner.invoke(app, ["info", "-", "--json"], input=RECORDS)
    assert json.loads(from_stdin.stdout) | {"file": None} == json.loads(from_folder) | {
        "file": None}
    assert json.loads(from_stdin.stdout)["file"] == "<stdin>"


def test_the_runner_option_keeps_its_old_name_engine_unlisted():
    """``--engine local|dask`` was renamed ``--runner`` (the word "engine" names search
    engines); the old name still works for one release and is not in the help."""
    old = CliRunner().invoke(app, ["validate", str(SAMPLES), "--engine", "local", "--json"])
    new = CliRunner().invoke(app, ["validate", str(SAMPLES), "--runner=local", "--json"])
    assert old.exit_code == new.exit_code and old.stdout == new.stdout and old.stdout
    help_text = CliRunner().invoke(app, ["validate", "--help"]).stdout
    assert "--runner" in help_text and "--engine" not in help_text
