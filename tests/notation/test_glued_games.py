"""Games glued one after another on one line (``... * [Event ...``): each piece of the line
is cut once and fed without recursion, so a line of any number of games reads in linear
time and memory, and every place on it keeps the column of the file."""

from __future__ import annotations

import inspect
import sys

from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.chunks import split_chunks
from pdn.reader import read_games

runner = CliRunner()

GAME = '[Event "g"] 1. 32-28 19-23 * '


def _low_recursion_limit() -> int:
    """A recursion limit 150 frames above the caller's depth: a reader that recursed once
    per glued game would hit it within the first 150 games."""
    return len(inspect.stack(0)) + 150


def test_fifty_thousand_games_on_one_line_read_under_a_low_recursion_limit():
    text = GAME * 50_000 + "\n"
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(_low_recursion_limit())
    try:
        chunks = list(split_chunks(text.splitlines(keepends=True)))
        games = list(read_games(text))
    finally:
        sys.setrecursionlimit(limit)
    assert len(chunks) == len(games) == 50_000
    assert {game.tags["Event"] for game in games} == {"g"}
    assert all(len(game.moves.plies) == 2 for game in games[::997])


def test_each_glued_game_is_held_as_its_own_text_not_padded_to_its_column():
    chunks = list(split_chunks([GAME * 1_000 + "\n"]))
    # each piece from the blank before its tag on
    assert [chunk.column for chunk in chunks] == [0, *(len(GAME) * n - 1 for n in range(1, 1_000))]
    assert max(len(chunk.text) for chunk in chunks) <= len(GAME) + 2  # with a line break


# Glued games each with something to say at a place on the line: a replay error, an
# unexpected character, a variation left open, a lost move number, a look-alike digit, a
# repeated tag, a number too long.
FAULTS = ['[Event "b"] 1. 32-28 99-23 * ', '[Event "d"] [Site "s"] 1. 32-28 ) *  ',
          '[Event "e"] 1. 32-28 (19-23 *  ', '[Event "f"] 1. 32-28 19-23 2. 28x19 14x23 3. 1-0  ',
          '[Event "g"] 1. ３２-28 *  ', '[Event "i"] [Event "j"] 1. 32-28 *   ',
          '[Event "k"] 1. 32-28 19-23 2. -- *   ',
          '[Event "l"] 1. 32-28 99999999999999999999999999. 19-23 * ',
          '[Event "o"] 1. 33-28 *']


def _places(game) -> list[tuple[str, int | None, int | None, str]]:
    return [(d.code, d.line, d.column, d.message) for d in game.diagnostics
            if d.code != "glued-game"]


def test_a_glued_game_says_the_same_places_as_the_game_alone_at_that_column():
    """The reference: each game alone on its line, after as many spaces as come before it
    on the glued line (what the reader held before it cut pieces)."""
    line = "".join(FAULTS)
    glued = list(read_games(line + "\n"))
    assert len(glued) == len(FAULTS)
    column = 0
    for game, text in zip(glued, FAULTS, strict=True):
        alone = list(read_games(" " * column + text + "\n"))
        assert len(alone) == 1
        assert _places(game) == _places(alone[0]), text
        column += len(text)
    assert any(_places(game) for game in glued)
    notes = [d for game in glued for d in game.diagnostics if d.code == "glued-game"]
    # at the blank before the tag
    assert [note.column for note in notes] == [
        len("".join(FAULTS[:n]).rstrip()) + 1 for n in range(1, len(FAULTS))]


def test_info_reads_two_thousand_games_on_one_line_without_a_traceback(tmp_path):
    """From about 900 games on one line every command ended in a RecursionError."""
    path = tmp_path / "ol.pdn"
    path.write_text(GAME * 2_000 + "\n")
    result = runner.invoke(app, ["info", str(path)])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert "×2,000" in result.output
