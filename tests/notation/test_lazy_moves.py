"""The reader leaves runs of moves as text until the plies are asked for (``Line.lazy``):
the tree made later is the one the reader always made, and ``Game.main_line_tokens``,
``Line.ply_count`` and ``Line.has_plies`` answer without making it."""

from __future__ import annotations

import pickle
import re

import pytest

from pdn import read_games
from pdn.model import Line, MoveRecord, Ply
from pdn.reader import PdnText

# One move record as main_line_tokens gives it: a number perhaps, then the move.
NUMBERED = re.compile(r"(?:([0-9]+)(\.\.\.|\.)\s*)?(.*)", re.S)


def _tokens_agree(tokens: list[str], plies: list[Ply]) -> None:
    """Each token is its ply's record as written: its number, its move, its glued mark."""
    assert len(tokens) == len(plies)
    for token, ply in zip(tokens, plies, strict=True):
        number, dots, move = NUMBERED.fullmatch(token).groups()
        assert (int(number) if number else None) == ply.number
        assert (dots == "...") == ply.black_number
        record = ply.record
        assert move == record.text + (record.strength or "") + ("*" if ply.nags == [7] else "")
        assert not ply.variations and ply.setup is None and not record.placeholder


def test_a_plain_main_line_gives_its_tokens_without_making_plies():
    game = next(read_games(PdnText('[Event "x"]\n1. 32-28 {good} 19-23\n2.\n37-32! 14-19* 1-0')))
    assert game.moves.ply_count() == 4 and game.moves.has_plies()
    assert game.main_line_tokens() == ["1. 32-28", "19-23", "2.\n37-32!", "14-19*"]
    _tokens_agree(game.main_line_tokens(), game.moves.plies)
    # Once read, the plies may be changed: the tokens are no longer offered.
    assert game.main_line_tokens() is None


@pytest.mark.parametrize("movetext", [
    "1. 32-28 (1. 33-28) 19-23 *",  # a variation
    "1. 32-28 ... 2. 37-32 *",  # a lost move
    "1. 32-28 $1 19-23 *",  # a NAG standing apart
    "1. 32-28 ! 19-23 *",  # a strength mark standing apart
    "1. {opening} 32-28 19-23 *",  # a move number apart from its move
    '1. 32-28 /FEN "B:W28:B19"/ 19-23 *',  # a set-up after a move
])
def test_a_main_line_with_more_than_moves_gives_no_tokens(movetext):
    game = next(read_games(PdnText(movetext)))
    assert game.main_line_tokens() is None
    assert game.moves.ply_count() == len(game.moves.plies)


def test_a_set_up_before_the_first_move_is_the_start_not_a_reason_to_refuse():
    game = next(read_games(PdnText('/FEN "W:W28:B19"/ 1. 28-23 19x28 *')))
    assert game.start_fen == "W:W28:B19"
    assert game.main_line_tokens() == ["1. 28-23", "19x28"]


def test_a_line_made_by_hand_is_as_before():
    ply = Ply(MoveRecord("c3-d4", ("c3", "d4"), "-"), 1)
    line = Line([ply])
    assert line.plies == [ply] and line.ply_count() == 1 and line.has_plies()
    assert line.move_tokens() is None
    assert Line() == Line([]) and Line().plies == [] and not Line().has_plies()
    line.plies = []
    assert line.ply_count() == 0


def test_an_unread_game_pickles_and_reads_the_same_later():
    text = PdnText('[Event "x"]\n1. 32-28 {a} 19-23 2. 37-32 (2. 33-29 $1 {b}) 14-19 *')
    game = next(read_games(text))
    again = pickle.loads(pickle.dumps(game))
    assert again == next(read_games(text))


def test_every_game_of_oca_gives_its_tokens_and_the_same_plies(shared_data):
    """On a whole real archive: the counts told without plies are the plies', and every
    plain main line's tokens are its plies as written."""
    plain = 0
    for game in read_games(shared_data / "english" / "OCA_2.0.pdn"):
        count, has, tokens = game.moves.ply_count(), game.moves.has_plies(), \
            game.main_line_tokens()
        plies = game.moves.plies
        assert count == len(plies) and has == bool(plies)
        if tokens is not None:
            plain += 1
            _tokens_agree(tokens, plies)
    assert plain > 22_000  # 22,621 games, none with variations or lost moves


def test_games_read_in_worker_processes_travel_as_text_and_read_the_same():
    from replay.run.reading import read_games as parallel_read_games

    text = PdnText("".join(f'[Event "{n}"]\n1. 32-28 19-23 2. 37-32 (2. 33-29) 14-19 *\n\n'
                           f'[Event "{n}b"]\n1. 32-28 {{c}} 19-23 2. 37-32! *\n\n'
                           for n in range(400)))
    games = list(parallel_read_games(text, workers=2))
    assert games[1].main_line_tokens() == ["1. 32-28", "19-23", "2. 37-32!"]
    assert games == list(read_games(text)) and len(games) == 800


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "Lark"])
@pytest.mark.parametrize("name", ["english/OCA_2.0.pdn", "international/fmjd_wk2007_all_games.pdn",
                                  "games-checkers/russian/abatsiev.pdn"])
def test_a_move_record_without_the_plies_is_the_plys_with_its_place(shared_data, name, fast,
                                                                    monkeypatch):
    """``Line.move_record(k)``, made without the plies, is ``plies[k].record``: the same
    text, squares, line and column, on moves over several lines too."""
    import pdn.reader

    monkeypatch.setattr(pdn.reader, "FAST_PATH", fast)
    path = shared_data / name
    compared, plain = 0, None
    for lazy, built in zip(read_games(path), read_games(path), strict=True):
        tokens = lazy.main_line_tokens()
        if not tokens or compared > 400:
            continue
        records = [lazy.moves.move_record(k) for k in range(len(tokens))]
        assert lazy.main_line_tokens() is not None  # still no ply made
        assert records == [ply.record for ply in built.moves.plies], (path, lazy.line)
        compared, plain = compared + 1, lazy
    assert compared > 50 and plain is not None
    with pytest.raises(IndexError):
        plain.moves.move_record(10_000)
