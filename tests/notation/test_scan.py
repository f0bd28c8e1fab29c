"""The reader's native scanner (``pdn/_scan.c``) against its Python twin, the reference:
the chunker's fast path (``_PLAIN_GAME`` and ``_ends_once``) and ``plain_game``'s reading
(``_HEAD``, the run of ``_RECORD`` moves, the result). On every file of the real archives
and of samples/, the same chunks (text, first line, restart line, notes) as the Python twin
and as the line scan, and for each chunk the same game (tags in order, result, lines,
notes, the main line's MOVE token with its line and column, its records and ply count); on
generated texts (tags broken or escaped, CRLF, a BOM, NUL, characters of every width, long
lines, games over the size limit); and the entry points fed random text of every Unicode
kind, at every offset."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdn.chunks as chunks
from pdn import compiled
from pdn.chunks import Chunk, newline_lines, split_chunks
from pdn.game import Game
from pdn.plain import _RECORDS, plain_game
from pdn.reader import open_text

ROOT = Path(__file__).resolve().parents[2]
scan = chunks.native_scanner()
pytestmark = pytest.mark.skipif(scan is None, reason="the native scanner is not built")


def _data_files() -> list[Path]:
    roots = [ROOT.parent / "shared" / "data", ROOT / "samples"]
    return sorted(path for root in roots if root.is_dir() for path in root.rglob("*")
                  if path.is_file() and path.suffix.lower() in (".pdn", ".txt", ".phn"))


def _by_lines(text: str) -> list[str]:
    """The lines of ``text`` as a stream's ``readline`` gives them (cut after each "\\n")."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _cut(text: str, native: bool, monkeypatch: pytest.MonkeyPatch) -> list[Chunk]:
    """The chunks of ``text`` read as a marked stream, by the native scanner or its twin."""
    with monkeypatch.context() as patch:
        if not native:
            patch.setattr(chunks, "_scanner", lambda: chunks._plain_games)
        return list(split_chunks(newline_lines(io.StringIO(text, newline="\n"))))


def _facts(game: Game | None) -> tuple | None:
    """What a reader of a game sees, the MOVE token's place included (plies unbuilt)."""
    if game is None:
        return None
    token = game.moves._pending().items[0]  # type: ignore[union-attr]
    return (list(game.tags.items()), game.result, game.line, game.source,
            game.diagnostics, token.value, token.start_pos, token.line, token.column,
            game.main_line_tokens(), game.moves.ply_count())


def _same_games(chunk: Chunk) -> bool:
    """The game ``plain_game`` builds from the scanner's reading is the one it reads itself
    (or the scanner declined); whether the scanner read it."""
    python = plain_game(dataclasses.replace(chunk, plain=None), "f.pdn")
    if chunk.plain is None:
        return False
    native = plain_game(chunk, "f.pdn")
    assert _facts(native) == _facts(python)
    return native is not None


def _same(text: str, monkeypatch: pytest.MonkeyPatch, line_scan: bool = True) -> list[Chunk]:
    """The native scanner, its Python twin and (``line_scan``) the line scan cut ``text``
    alike, and the scanner reads each game as ``plain_game`` does; the native chunks."""
    native = _cut(text, True, monkeypatch)
    python = _cut(text, False, monkeypatch)
    assert native == python
    if line_scan:
        assert native == list(split_chunks(_by_lines(text)))
    for chunk in native:
        _same_games(chunk)
    return native


def test_the_game_of_the_docstring() -> None:
    found, reached = scan.scan('\n[Event "x"]\n[Result "1-0"]\n\n1. 32-28 19-23 1-0\n\n[', 0,
                               1 << 24)
    assert found == [(49, 6, (('[Event "x"]', '[Result "1-0"]'), 2, 29, 43, 5, 1, "1-0"))]
    assert reached == 49


@pytest.mark.parametrize("path", _data_files(), ids=lambda path: path.name)
def test_every_real_file_reads_alike(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_text(path) as (stream, _):
        text = stream.read()
    _same(text, monkeypatch)


def test_the_scanner_reads_most_games_of_a_plain_archive(shared_data: Path,
                                                         monkeypatch) -> None:
    """Not a vacuous agreement: on OCA 2.0 the scanner reads the games itself."""
    with open_text(shared_data / "english" / "OCA_2.0.pdn") as (stream, _):
        found = list(split_chunks(stream))
    read = sum(_same_games(chunk) for chunk in found)
    assert len(found) == 22_621
    assert read > 0.9 * len(found)


def test_plain_runs_split_alike(shared_data: Path) -> None:
    with open_text(shared_data / "english" / "OCA_2.0.pdn") as (stream, _):
        runs = [chunk.text[chunk.plain[2]:chunk.plain[3]] for chunk in split_chunks(stream)
                if chunk.plain is not None]
    assert len(runs) > 20_000
    for run in runs:
        assert scan.tokens(run) == _RECORDS.findall(run)


# ---- generated texts ---------------------------------------------------------------------

_WIDE = ["é", "с", "😀", "\x00", "\u2028", "\x85", "\ufeff"]  # every kind; line breaks
_TAGS = st.sampled_from([
    '[Event "a"]', '[Result "1-0"]', '[Result "0-1"]', '[Result "*"]', '[Result "1/2-1/2"]',
    '[PlyCount "4"]', '[PlyCount "3"]', '[Site "é"]', '[White "с"]', '[Black "😀"]',
    '[Round "1', '[Event "a \\"b\\""]', '[Event "x]', '[Event"x"]', '[Event  "x"]',
    '[Event "x"] ', '[[Event "d"]', '[Site "x [y"]', '[E_1 "v"]', '[1E "v"]', '[Event ""]',
    '[Event "x"][Site "y"]', '[Event "\x00"]', '[Event "a\r"]', ' [Event "e"]',
    '[Event "a"]\r'])
_SQUARE = st.sampled_from(["32", "28", "1", "06", "50", "100", "c3", "d4", "h8", "i9", "a0"])
_MOVE = st.one_of(
    st.builds(lambda a, mark, b: f"{a}{mark}{b}", _SQUARE, st.sampled_from(["-", "x", ":"]),
              _SQUARE),
    st.sampled_from(["26x17x10x1", "32-28!", "1-1", "1-11-20", "1-10-15", "1-1*", "1-11.",
                     "1-10-1", "1-1/2", "1-11/2-1", "1-12:0", "1-1a", "-", "--", "{c}",
                     "(1. 32-28)", "$1", "%x", "c3:e5:g7", "1234.", "é", "😀", "\x00",
                     "1.", "12...", "3.", "1..", "1....", "x", ""]))
_NUMBER = st.sampled_from(["", "1. ", "2.", "12... ", "3.\n", "1.  ", "01. ", "999. ",
                           "1000. ", "999999. ", "1000000. ", "1.\t"])
_RESULT = st.sampled_from(["1-0", "0-1", "1/2-1/2", "1/2:1/2", "*", "2-0", "0-2", "1-1",
                           "0-0", "1:0", "0:1", "1 - 0", "1-01.", "1-0x", "2:0", ""])
_GAP = st.sampled_from([" ", "  ", "\n", " \t", "\n\n", "\t\n ", "\r\n"])


@st.composite
def _games(draw) -> str:
    tags = draw(st.lists(_TAGS, max_size=5))
    moves = draw(st.lists(st.tuples(_NUMBER, _MOVE, _GAP), max_size=8))
    blank = draw(st.sampled_from(["", "\n", "\n\n", " \n", "\t\n"]))
    ending = draw(st.sampled_from(["\n", "\n\n", " \n", "", "\n \n"]))
    return ("\n".join(tags) + "\n" + blank + "".join(n + r + g for n, r, g in moves)
            + draw(_RESULT) + ending)


_SOUND_TAGS = st.sampled_from(['[Event "a"]', '[Result "1-0"]', '[Result "0-1"]', '[Site "é"]',
                               '[White "с"]', '[Black "😀"]', '[PlyCount "4"]', '[Date "?"]'])
_SOUND_MOVE = st.builds(lambda a, mark, b: f"{a}{mark}{b}",
                        st.sampled_from(["32", "28", "1", "9", "50", "c3", "d4"]),
                        st.sampled_from(["-", "x", "-", "x", ":"]),
                        st.sampled_from(["32", "28", "1", "9", "11", "c3", "d4", "e5"]))


@st.composite
def _plain_games(draw) -> str:
    """Games mostly of the plain shape, with a slip now and then."""
    slip = draw(st.integers(0, 5)) == 0
    tags = draw(st.lists(_TAGS if slip else _SOUND_TAGS, min_size=1, max_size=4))
    moves = draw(st.lists(st.tuples(st.sampled_from(["", "1. ", "12...", "3.\n", "7."]),
                                    _MOVE if slip else _SOUND_MOVE,
                                    st.sampled_from([" ", "\n", " \n\n", "\t"])),
                          min_size=1, max_size=6))
    result = draw(_RESULT if slip else st.sampled_from(["1-0", "0-1", "*", "1/2-1/2", "1-1"]))
    return ("\n".join(tags) + "\n" + draw(st.sampled_from(["", "\n"]))
            + "".join(n + r + g for n, r, g in moves) + result + "\n\n")


# Fewer under valgrind (the Makefile's valgrind-native sets PDN_SCAN_EXAMPLES): ~50x slower.
_SETTINGS = settings(max_examples=int(os.environ.get("PDN_SCAN_EXAMPLES", "300")), deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])


@_SETTINGS
@given(st.lists(st.one_of(_games(), _plain_games()), min_size=1, max_size=6), st.booleans(),
       st.booleans(),
       st.sampled_from(["", *_WIDE]))
def test_generated_texts_read_alike(monkeypatch, games: list[str], crlf: bool, bom: bool,
                                    wide: str) -> None:
    text = ("\ufeff" if bom else "") + "".join(games) + '[Event "next"]\n1. 32-28 *\n' + wide
    if crlf:
        text = text.replace("\n", "\r\n")
    _same(text, monkeypatch)


def test_plain_games_of_every_kind_are_read(monkeypatch) -> None:
    """Not vacuous: games with tag values of each width are read by the scanner."""
    for wide in ("é", "с", "😀"):
        text = f'[Event "{wide}"]\n[Result "1-0"]\n\n1. 32-28 19-23 1-0\n\n[Event "b"]\n'
        first = _same(text, monkeypatch)[0]
        assert first.plain is not None and plain_game(first, None).tags["Event"] == wide


@_SETTINGS
@given(st.lists(st.one_of(_games(), _plain_games()), min_size=1, max_size=4),
       st.integers(20, 400))
def test_games_over_the_size_limit_read_alike(monkeypatch, games: list[str],
                                              limit: int) -> None:
    """The size limit (``GAME_LIMIT``, 16 Mi) made small: a plain game longer than it is a
    ``too-large`` chunk, as the line scan makes it, and long lines come cut short."""
    monkeypatch.setattr(chunks, "GAME_LIMIT", limit)
    text = "".join(games) + '[Event "next"]\n1. 32-28 *\n'
    _same(text, monkeypatch, line_scan=max(map(len, _by_lines(text))) <= limit)


def test_a_game_over_the_limit_is_too_large(monkeypatch) -> None:
    monkeypatch.setattr(chunks, "GAME_LIMIT", 60)
    game = '[Event "a"]\n1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41 *\n'
    found = _same(game + '[Event "b"]\n1. 32-28 *\n', monkeypatch)
    assert [chunk.too_large for chunk in found] == [len(game), 0]


# ---- the entry points fed anything --------------------------------------------------------

_ALPHABET = st.sampled_from(list('[]"\\ \t\n\r-:x.*/0123456789abchEvent{}();%$!é😀с\x00'))
_TEXTS = st.one_of(st.text(_ALPHABET, max_size=300), st.text(max_size=200),
                   st.binary(max_size=200).map(lambda raw: raw.decode("latin-1")),
                   st.lists(st.one_of(_games(), _plain_games()), max_size=3).map("".join))


@_SETTINGS
@given(_TEXTS, st.integers(0, 400), st.integers(0, 1 << 24))
def test_scan_agrees_with_its_twin_on_any_text(text: str, start: int, limit: int) -> None:
    start = min(start, len(text))
    found, reached = scan.scan(text, start, limit)
    python, python_reached = chunks._plain_games(text, start, limit)
    assert [game[:2] for game in found] == [game[:2] for game in python]
    assert reached == python_reached
    for end, _, plain in found:
        assert start < end <= len(text)
        _same_games(Chunk(text[start:end], 7, plain=plain))
        start = end


@_SETTINGS
@given(_TEXTS)
def test_tokens_split_any_text_as_the_pattern_does(text: str) -> None:
    assert scan.tokens(text) == _RECORDS.findall(text)


@pytest.mark.parametrize("args", [("x", -1, 0), ("x", 2, 0), ("x", 0, -1), (b"x", 0, 0),
                                  ("x", 0), ("x", "0", 0), ("x", 1 << 70, 0)])
def test_scan_refuses_bad_arguments(args: tuple) -> None:
    with pytest.raises((ValueError, TypeError, OverflowError)):
        scan.scan(*args)


@pytest.mark.parametrize("arg", [b"1. 32-28", None, 5])
def test_tokens_refuses_what_is_not_text(arg) -> None:
    with pytest.raises(TypeError):
        scan.tokens(arg)


# ---- the build ----------------------------------------------------------------------------

def test_an_edited_scanner_source_is_stale(tmp_path: Path) -> None:
    source = tmp_path / compiled.SCAN_SOURCE
    source.parent.mkdir(parents=True)
    source.write_text("/* the scanner */\n", encoding="utf-8")
    (tmp_path / "pdn" / compiled.MANIFEST).write_text(
        json.dumps({"scan": compiled.digest(source)}))
    assert not compiled.scan_is_stale(tmp_path)
    source.write_text("/* the scanner, edited */\n", encoding="utf-8")
    assert compiled.scan_is_stale(tmp_path)


@pytest.mark.parametrize("variable", ["PDN_NO_FASTPATH", "PDN_PURE_PYTHON"])
def test_the_fast_path_switch_and_the_pure_build_turn_the_scanner_off(monkeypatch,
                                                                      variable: str) -> None:
    monkeypatch.setenv(variable, "1")
    chunks.native_scanner.cache_clear()
    try:
        assert chunks.native_scanner() is None
    finally:
        monkeypatch.delenv(variable)
        chunks.native_scanner.cache_clear()
    assert chunks.native_scanner() is not None
