"""Converting games with lost moves: incomplete is not invalid, so every game is kept, the
known moves converted and the lost ones written back as PDN's ``...``."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.convert.games import Target, convert_game, render
from replay.rules.variants import RUSSIAN
from replay.validate.reports import report_game

runner = CliRunner()

# Written for these tests (Russian draughts, full notation; every known move checked by hand
# on the start position: c3-d4, f6-g5, b2-c3 and g7-f6 are plain moves of men).
LOST = """\
[Event "lost in the middle"]
[Result "1-0"]
1. c3-d4 f6-g5 2. - - 3. b2-c3 g7-f6 1-0

[Event "lost in a variation"]
1. c3-d4 f6-g5 (1... ... 2. ... ...) 2. b2-c3 *

[Event "lost at the end"]
1. c3-d4 ... 2. ... ... *
"""


def statuses(source: str | Path) -> list[tuple[str, int]]:
    """(status, known plies) of every game of PDN text or a file, by ``pdn validate``'s
    library."""
    return [(r.status, r.plies) for r in (report_game(g, RUSSIAN) for g in read_games(source))]


def test_the_known_moves_are_converted_and_the_lost_ones_written_as_dots():
    games = list(read_games(LOST))
    texts = []
    for game in games:
        conversion = convert_game(game, RUSSIAN, Target("short"))
        assert conversion.game is not None and conversion.report.errors == []
        assert not conversion.complete  # a line of each stops at lost moves
        texts.append(" ".join(_main_line(conversion.game)))
    # by hand: short notation of the known moves; '-' and '...' both become '...'; the
    # moves after lost moves cannot be resolved, so they stay as written
    assert texts == ["cd4 fg5 ... ... b2-c3 g7-f6", "cd4 fg5 bc3", "cd4 ... ... ..."]
    variation = convert_game(games[1], RUSSIAN, Target("short")).game.moves.plies[1].variations
    assert [p.record.placeholder for p in variation[0].plies] == [True, True, True]


def _main_line(game) -> list[str]:
    return ["..." if p.record.placeholder else p.record.text for p in game.moves.plies]


def test_moves_kept_as_written_are_said():
    conversion = convert_game(next(read_games(LOST)), RUSSIAN, Target("short"))
    codes = [w["code"] for w in conversion.report.warnings]
    assert codes == ["lost-moves", "kept-as-written"]
    assert conversion.report.warnings[1]["message"].startswith("2 move(s) after the lost moves")


def test_the_command_keeps_every_game_and_exits_0(tmp_path: Path):
    source = tmp_path / "lost.pdn"
    source.write_text(LOST, encoding="utf-8")
    result = runner.invoke(app, ["convert", str(source), "--to", "short"])
    assert result.exit_code == 0, result.output
    assert "1 converted, 2 incomplete" in result.stderr
    assert statuses(result.stdout) == statuses(LOST) == [
        ("incomplete", 2), ("valid", 3), ("incomplete", 1)]


def test_an_illegal_game_still_fails_the_run(tmp_path: Path):
    source = tmp_path / "mixed.pdn"
    source.write_text(LOST + '\n[Event "illegal"]\n1. c3-d4 d4-e5 *\n', encoding="utf-8")
    result = runner.invoke(app, ["convert", str(source), "--to", "short"])
    assert result.exit_code == 1
    assert "1 converted, 2 incomplete, 1 not converted" in result.stderr


def test_inline_scoresheets_space_the_dots_of_lost_moves():
    conversion = convert_game(list(read_games(LOST))[1], RUSSIAN, Target("short"))
    assert "(1... ... 2. ... ...)" in render(conversion, "text", "inline")


ABATSIEV = Path("games-checkers") / "russian" / "abatsiev.pdn"


def test_the_archive_with_two_incomplete_games_converts_whole(shared_data: Path, tmp_path):
    source = shared_data / ABATSIEV
    before = statuses(source)
    assert Counter(status for status, _ in before) == {"valid": 196, "incomplete": 2}
    for to in ("full", "short", "numeric"):
        output = tmp_path / f"{to}.pdn"
        result = runner.invoke(app, ["convert", str(source), "--to", to, "-o", str(output)])
        assert result.exit_code == 0, (to, result.stderr[-500:])
        assert "196 converted, 2 incomplete" in result.stderr
        after = statuses(output)
        assert after == before, to  # as many games out as in, each as far as it was known


def test_clean_rewrites_the_incomplete_games_too(shared_data: Path, tmp_path):
    source = shared_data / ABATSIEV
    output, changes = tmp_path / "clean.pdn", tmp_path / "changes.txt"
    result = runner.invoke(app, ["clean", str(source), "--notation", "short", "-o",
                                 str(output), "--changes", str(changes)])
    assert result.exit_code == 0, result.stderr[-500:]
    cleaned = list(read_games(output.read_text(encoding="utf-8")))
    assert len(cleaned) == 198
    log = changes.read_text(encoding="utf-8")
    assert "kept as written" not in log
    assert log.count("rewritten in short notation as far as they are known") == 2
    assert statuses(output) == statuses(source)
