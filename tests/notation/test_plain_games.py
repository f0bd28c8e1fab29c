"""The reader's fast path (``pdn.plain``) against the grammar, the reference: for every
game it takes, the same ``Game`` as the Lark parser reads (tags in order, result, first
line, source, notes with their places, the main line's move tokens and ply count, the
plies once built, the written PDN). On a sample of every file of the real archives and of
samples/ (every game with ``PDN_FULL_DATA=1``), and on generated games."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn.chunks import Chunk, split_chunks
from pdn.game import Game
from pdn.parser import load_parser
from pdn.plain import plain_game
from pdn.reader import _parse_chunk, open_text, read_games

ROOT = Path(__file__).resolve().parents[2]
FULL = os.environ.get("PDN_FULL_DATA") == "1"
SAMPLE = 150  # chunks of each file in the normal suite


def _data_files() -> list[Path]:
    roots = [ROOT.parent / "shared" / "data", ROOT / "samples"]
    return sorted(path for root in roots if root.is_dir() for path in root.rglob("*")
                  if path.is_file() and path.suffix.lower() in (".pdn", ".txt", ".phn"))


def _facts(game: Game) -> tuple:
    """What a reader of a game sees, the plies left unbuilt."""
    return (list(game.tags.items()), game.result, game.line, game.source, game.index,
            game.diagnostics, game.main_line_tokens(), game.moves.ply_count(),
            game.moves.has_plies(), game.moves.comments, game.moves.setup)


def _agree(chunk: Chunk, source: str | None) -> bool:
    """Whether the fast path takes ``chunk``; where it does, that it reads it as Lark does."""
    if plain_game(chunk, source) is None:
        return False
    parser, transformer = load_parser()
    fast = _parse_chunk(chunk, parser, transformer, source, fast=True)
    lark = _parse_chunk(chunk, parser, transformer, source, fast=False)
    assert [_facts(game) for game in fast] == [_facts(game) for game in lark]
    assert [str(game) for game in fast] == [str(game) for game in lark]
    assert fast == lark  # the plies, built now, and all the rest
    return True


def _chunks(path: Path) -> list[Chunk]:
    with open_text(path) as (stream, _):
        chunks = list(split_chunks(stream))
    if FULL or len(chunks) <= SAMPLE:
        return chunks
    step = len(chunks) / SAMPLE
    return [chunks[int(k * step)] for k in range(SAMPLE)]


@pytest.mark.parametrize("path", _data_files(), ids=lambda path: path.name)
def test_the_fast_path_reads_every_game_it_takes_as_the_grammar_does(path: Path) -> None:
    for chunk in _chunks(path):
        _agree(chunk, str(path))


def test_the_fast_path_takes_the_games_of_a_plain_archive(shared_data: Path) -> None:
    """Not a vacuous agreement: most games of OCA 2.0 are plain, and taken."""
    path = shared_data / "english" / "OCA_2.0.pdn"
    chunks = _chunks(path)
    taken = sum(plain_game(chunk, None) is not None for chunk in chunks)
    assert taken > 0.8 * len(chunks)


def test_read_games_is_the_same_with_and_without_the_fast_path(monkeypatch) -> None:
    text = ('[Event "a"]\n[Result "1-0"]\n[PlyCount "4"]\n\n1. 32-28 19-23 2. 37-32 1-0\n\n'
            '[Event "b"]\n1. 32-28 {c} 19-23 *\n\n[Event "c"]\n[Result "0-1"]\n1. 32-28 1-0\n')
    import pdn.reader as reader

    fast = list(read_games(text))
    monkeypatch.setattr(reader, "FAST_PATH", False)
    lark = list(read_games(text))
    assert fast == lark
    assert [d.code for d in fast[0].diagnostics] == ["plycount"]
    taken = [plain_game(chunk, None) is not None for chunk in split_chunks(text.splitlines(True))]
    assert taken == [True, False, False]  # a comment; a result that disagrees: Lark
    assert [d.code for d in fast[2].diagnostics] == ["result"]


_SQUARE = st.sampled_from(["32", "28", "19", "23", "1", "06", "50", "c3", "d4", "E3", "h8",
                           "100", "10", "0", "c10", "i9"])
_RECORD = st.one_of(
    st.builds(lambda a, mark, b: f"{a}{mark}{b}", _SQUARE,
              st.sampled_from(["-", "x", ":", "X", "- ", "×"]), _SQUARE),
    st.sampled_from(["ed4", "b:d6", "26x17x10x1", "32-28!", "32-28*", "19-23?!", "...", "-",
                     "$1", "+", "{c}", "(1. 32-28)", "1-1", "1-11-20", "1-10-15", "h8-a1",
                     "c3:e5:g7", "с3-d4", "1234567890.", "0-1"]))
_NUMBER = st.sampled_from(["", "1. ", "2.", "12... ", "3.\n", "1.  ", "01. ", "12.. ", "1."])
_RESULT = st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "2-0", "1 - 0", "0:1", "1-01.", ""])
_GAP = st.sampled_from([" ", "  ", "\n", " \t", "\n\n"])
_TAG = st.sampled_from(['[Event "e"]', '[Result "1-0"]', '[Result "0-1"]', '[Result "*"]',
                        '[PlyCount "2"]', '[Site "é"]', '[Round "1"]', '[Event "e"] ',
                        '[White "a\\"b"]', '[Black ""]', '[Date "?"]', "[Empty]"])


@pytest.mark.parametrize("moves", ["1. 1-11-20 5-9", "1. 5-9 1-1", "1. 5-9 1-11-20", "1. 5-9 1-10",
                                   "1. c3-d4 f6:d4", "1.\n32-28\n\n19-23", "1. 32-28 19-23!"])
def test_records_near_a_result_read_alike(moves: str) -> None:
    _agree(Chunk(f'[Event "x"]\n{moves} *\n', 3), None)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_TAG, min_size=1, max_size=5), st.lists(st.tuples(_NUMBER, _RECORD, _GAP),
                                                       max_size=8),
       _RESULT, st.sampled_from(["", "\n", "\n\n"]), st.integers(1, 50))
def test_generated_games_read_alike_where_the_fast_path_takes_them(tags, moves, result,
                                                                  blank, first):
    text = ("\n".join(tags) + "\n" + blank + "".join(n + r + g for n, r, g in moves)
            + result + "\n")
    _agree(Chunk(text, first), "generated.pdn")
