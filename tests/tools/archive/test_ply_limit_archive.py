"""A game refused for holding more plies than ``pdn.reader.PLY_LIMIT`` is unreadable to the
archive tools as to ``pdn validate``: each counts and names it, passes its text through
unchanged (to ``--rejects`` when given), never writes it emptier, and exits 1."""

from __future__ import annotations

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn import reader as reader_module
from pdn.reader import PdnText, read_games

runner = CliRunner()
BEFORE = '[Event "before"]\n1. 11-15 23-19 *\n\n'
AFTER = '[Event "after"]\n1. 9-13 22-18 *\n\n'


def shuffling(plies: int) -> str:
    """One English game of ``plies`` plies on one line: two kings shuffling."""
    pairs = ("4-8 29-25", "8-4 25-29")
    moves = " ".join(f"{n}. {pairs[n % 2 == 0]}" for n in range(1, plies // 2 + 1))
    return f'[Event "long"]\n[GameType "21"]\n[FEN "B:WK29:BK4"]\n{moves} *\n\n'


COMMANDS = {
    "merge": ["merge", "-o", "{out}"],
    "merge --rejects": ["merge", "-o", "{out}", "--rejects", "{rej}"],
    "filter --invert --rejects": ["filter", "--player", "x", "--invert", "-o", "{out}",
                                  "--rejects", "{rej}"],
    "clean": ["clean", "-o", "{out}"],
    "split": ["split", "--by", "event", "-o", "{dir}"],
    "split --by variant": ["split", "--by", "variant", "-o", "{dir}"],
    "split --rejects": ["split", "--by", "count:10", "-o", "{dir}", "--rejects", "{rej}"],
    "dedupe": ["dedupe", "-o", "{out}"],
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_game_over_the_ply_limit_is_passed_through_unchanged_and_counted_unreadable(
        monkeypatch, tmp_path, command):
    """Before, the refused game (its tags only, its moves not read) went through as a good
    game: counted written, exit 0, and ``pdn clean`` wrote it as its bare tags."""
    monkeypatch.setattr(reader_module, "PLY_LIMIT", 500)
    long = shuffling(1_000)
    source = tmp_path / "in.pdn"
    source.write_text(BEFORE + long + AFTER, encoding="utf-8")
    places = {"out": tmp_path / "o.pdn", "dir": tmp_path / "split", "rej": tmp_path / "r.pdn"}
    args = [part.format(**places) for part in command]
    result = runner.invoke(app, [*args, "--jobs", "1", str(source)])
    assert result.exit_code == 1, result.output
    place = "--rejects" if "--rejects" in args else "the output"
    assert (f"in.pdn:4: game 2: unreadable, passed to {place} unchanged: the game at 4:1 "
            "holds 1,000 plies, more than the 500 a game may hold") in result.output
    assert "1 unreadable game passed through unchanged to" in result.output
    written = {path: path.read_text(encoding="utf-8") for path in
               [places["out"], *sorted(places["dir"].glob("*.pdn"))] if path.exists()}
    rejected = places["rej"].read_text(encoding="utf-8") if "--rejects" in args else ""
    everything = "".join(written.values()) + rejected
    assert everything.count(long) == 1  # whole, as read, once
    assert sorted(game.tags.get("Event") for game in read_games(PdnText(everything))) == [
        "after", "before", "long"]
    if rejected:
        assert rejected == long


def test_dedupe_never_takes_two_refused_games_for_one(monkeypatch, tmp_path):
    """Two copies of a refused game are two unreadable records, both passed through: their
    moves were never read, so nothing says they are one game."""
    monkeypatch.setattr(reader_module, "PLY_LIMIT", 500)
    source = tmp_path / "in.pdn"
    source.write_text(shuffling(1_000) * 2, encoding="utf-8")
    out = tmp_path / "o.pdn"
    result = runner.invoke(app, ["dedupe", "--jobs", "1", "-o", str(out), str(source)])
    assert result.exit_code == 1, result.output
    assert result.output.count("unreadable, passed to the output unchanged") == 2
    assert "0 written; 2 unreadable games passed through unchanged" in result.output
    assert out.read_text(encoding="utf-8") == shuffling(1_000) * 2
