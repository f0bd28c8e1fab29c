"""The compiled grammar kept in the user's cache folder (``pdn.grammar``): a parser loaded
from it reads as one compiled, a broken or stale file is compiled again, and none is kept
when ``PDN_CACHE_DIR`` is empty."""

from __future__ import annotations

import os

import pytest
from lark import Lark

from pdn import grammar
from pdn.grammar import cache_file, grammar_text
from pdn.movetext import GameTransformer
from pdn.parser import PdnParser
from pdn.writer import write_game


def games_of(parser: PdnParser, transformer: GameTransformer, text: str) -> list[str]:
    """Every game of ``text`` as PDN written back, with its errors."""
    transformer.start_chunk(1)
    return [write_game(game) + repr(game.errors) for game in parser.parse(text)]


@pytest.fixture
def records(shared_data) -> str:
    text = (shared_data / "international" / "fmjd_wk2007_all_games.pdn").read_text(
        encoding="utf-8", errors="replace")
    return text + (shared_data / "english" / "tinsley.pdn").read_text(
        encoding="utf-8", errors="replace")[:100_000]


def test_a_parser_loaded_from_its_cache_reads_as_one_compiled(tmp_path, records):
    path = tmp_path / "parser"
    first = PdnParser(grammar_text(), GameTransformer(), path)
    assert path.is_file() and list(tmp_path.iterdir()) == [path]  # moved, nothing left over
    assert first.lark.source_path != "<deserialized>"  # compiled, then kept
    transformer = GameTransformer()
    loaded = PdnParser(grammar_text(), transformer, path)
    assert loaded.lark.source_path == "<deserialized>"  # Lark's mark of a parser it loaded
    plain = GameTransformer()
    compiled = PdnParser(grammar_text(), plain)
    expected = games_of(compiled, plain, records)
    assert len(expected) > 300
    assert games_of(loaded, transformer, records) == expected
    assert [(t.type, str(t)) for t in loaded.lex(records[:5000])] == \
        [(t.type, str(t)) for t in compiled.lex(records[:5000])]


def test_a_broken_cache_file_is_compiled_again(tmp_path):
    path = tmp_path / "parser"
    path.write_bytes(b"not a cache\n\x80\x04garbage")
    transformer = GameTransformer()
    parser = PdnParser(grammar_text(), transformer, path)
    assert parser.lark.source_path != "<deserialized>"
    assert games_of(parser, transformer, "1. 32-28 19-23 *") == games_of(
        PdnParser(grammar_text(), GameTransformer()), transformer, "1. 32-28 19-23 *")


def test_the_terminals_are_kept_and_read_back_as_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("PDN_CACHE_DIR", str(tmp_path))
    compute = grammar._all_terminals.__wrapped__
    first = compute()
    (kept,) = tmp_path.glob("terminals-*")
    lexer_only = Lark(grammar_text(), parser=None, lexer="basic")
    assert first == {t.name: t.pattern.to_regexp() for t in lexer_only.terminals}
    assert compute() == first
    kept.write_text("{broken", encoding="utf-8")  # a broken file: compiled again
    assert compute() == first


def test_each_cache_file_is_named_by_what_made_it(tmp_path, monkeypatch):
    folder = tmp_path / "new"
    monkeypatch.setenv("PDN_CACHE_DIR", str(folder))
    one, other = cache_file("parser", "a"), cache_file("parser", "b")
    assert one is not None and other is not None
    assert one.parent == folder and one != other and one == cache_file("parser", "a")
    assert os.stat(folder).st_mode & 0o077 == 0  # made for this user alone


def test_an_empty_cache_folder_setting_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("PDN_CACHE_DIR", "")
    assert cache_file("parser") is None
    transformer = GameTransformer()
    parser = PdnParser(grammar_text(), transformer, cache_file("parser"))
    assert games_of(parser, transformer, "1. 32-28 *")
