"""A file's opening comment (before its first game's tags) belongs to the file, not to game 1:
the reader keeps it as the game's ``preamble``, and ``pdn cat`` and ``pdn merge`` write it back
before the first game's tags, apart (``pdn convert``, which writes PDN 3.0, opens game 1's moves
with it), on real files of ../shared/data that open with one and on constructed ones."""

from __future__ import annotations

from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from pdn.writer import write_game
from replay.run.reading import read_games as read_in_workers

runner = CliRunner()
# files of ../shared/data that start with a comment, and the comment's text
OPENING = {
    Path("games-checkers") / "russian" / "test.pdn":
        "Three games with different results and format to test the replay ability.",
    Path("games-checkers") / "internt" / "wk2003.pdn":
        "World championship 2003, http://www.wkdammen2003.nl/",
}
MADE = ('{ a file of two games }\n{ and a second note }\n\n'
        '[Event "first"]\n[GameType "25"]\n\n{ the game\'s own comment } 1. c3-d4 f6-g5 *\n\n'
        '[Event "second"]\n[GameType "25"]\n\n1. e3-d4 *\n')


def test_the_reader_keeps_a_files_opening_comment_apart_from_game_1(tmp_path):
    path = tmp_path / "made.pdn"
    path.write_text(MADE, encoding="utf-8")
    first, second = read_games(path)
    assert first.preamble == ["a file of two games", "and a second note"]
    assert first.moves.comments == ["the game's own comment"]
    assert second.preamble == [] and second.moves.comments == []
    # read in worker processes, the same
    assert [game.preamble for game in read_in_workers(path, workers=2)] == [
        first.preamble, []]
    # a game without tags: a comment before its moves is its own, as before
    untagged = next(read_games("{ opening } 1. c3-d4 f6-g5 *"))
    assert untagged.preamble == [] and untagged.moves.comments == ["opening"]


@pytest.mark.parametrize("name", list(OPENING))
def test_pdn_cat_writes_a_real_files_opening_comment_before_game_1(shared_data, name,
                                                                   tmp_path):
    source = shared_data / name
    assert source.read_text(encoding="utf-8", errors="replace").lstrip().startswith("{")
    done = runner.invoke(app, ["cat", str(source)])
    assert done.exit_code in (0, 1), done.output
    text = done.stdout
    comment, rest = text.split("\n\n", 1)
    assert comment == "{" + OPENING[name] + "}"
    assert rest.startswith("[Event ")
    # game 1's movetext no longer holds it, and the output reads back the same
    first = next(read_games(source))
    assert OPENING[name] not in " ".join(first.moves.comments)
    out = tmp_path / "out.pdn"
    out.write_text(text, encoding="utf-8")
    again = list(read_games(out))
    assert again[0].preamble == [OPENING[name]]
    assert "".join(write_game(game) + "\n\n" for game in again) == text


def test_cat_of_two_files_writes_each_files_comment_before_its_own_first_game(tmp_path,
                                                                             shared_data):
    made = tmp_path / "made.pdn"
    made.write_text(MADE, encoding="utf-8")
    real = shared_data / "games-checkers" / "russian" / "test.pdn"
    done = runner.invoke(app, ["cat", str(made), str(real)])
    assert done.exit_code in (0, 1), done.output
    blocks = done.stdout.split("\n\n")
    assert blocks[0] == "{a file of two games}\n{and a second note}"
    assert blocks[1].startswith('[Event "first"]')
    assert blocks[2] == "{the game's own comment} 1. c3-d4 f6-g5 *"
    opening = blocks.index("{" + OPENING[Path("games-checkers") / "russian" / "test.pdn"]
                           + "}")
    assert blocks[opening - 1] == "1. e3-d4 *"  # the second game of the first file ends
    assert blocks[opening + 1].startswith('[Event "XXV pervenstvo SSSR"]')


def test_convert_writes_the_opening_comment_as_pdn_3_allows_and_merge_keeps_it(shared_data,
                                                                              tmp_path):
    source = shared_data / "games-checkers" / "russian" / "test.pdn"
    comment = "{" + OPENING[Path("games-checkers") / "russian" / "test.pdn"] + "}"
    converted = tmp_path / "short.pdn"
    done = runner.invoke(app, ["convert", str(source), "--to", "short", "-o", str(converted)])
    assert done.exit_code in (0, 1), done.output
    assert converted.read_text(encoding="utf-8").startswith("[Event ")  # the writing form
    first = next(read_games(converted))  # no text before the tags: game 1's opening comment
    assert first.preamble == [] and first.moves.comments[0] == comment[1:-1]
    merged = tmp_path / "merged.pdn"
    done = runner.invoke(app, ["merge", str(source), "-o", str(merged)])
    assert done.exit_code in (0, 1), done.output
    first = next(read_games(merged))  # merge copies each game's text: the comment stays first
    assert merged.read_text(encoding="utf-8").startswith("{ " + comment[1:-1] + " }")
    assert first.preamble == [comment[1:-1]] and first.moves.comments == []
