"""The chunker's fast path (a plain game taken whole, ``pdn.chunks._PLAIN_GAME``) cuts
exactly as the line scan does: the same chunks, first lines, restart lines and notes, on
every file of the real archives and of samples/, and on generated texts full of what the
fast path must leave to the scan (comments over lines, "[" in comments, tags broken over
lines, blank lines, CRLF, a BOM, results glued or repeated)."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest
from conftest import require
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn.chunks import split_chunks
from pdn.reader import open_text

ROOT = Path(__file__).resolve().parents[2]


def _by_lines(text: str) -> list[str]:
    """The lines of ``text`` as a stream's ``readline`` gives them (cut after each "\\n")."""
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def _same_cut(text: str) -> None:
    """The line scan (a list of lines) and the fast path (a stream) cut ``text`` alike."""
    scanned = list(split_chunks(_by_lines(text)))
    fast = list(split_chunks(io.StringIO(text, newline="\n")))
    assert fast == scanned


def _data_files() -> list[Path]:
    roots = [ROOT.parent / "shared" / "data", ROOT / "samples"]
    return sorted(path for root in roots if root.is_dir() for path in root.rglob("*")
                  if path.is_file() and path.suffix.lower() in (".pdn", ".txt", ".phn"))


@pytest.mark.parametrize("path", _data_files(), ids=lambda path: path.name)
def test_every_real_file_is_cut_as_the_line_scan_cuts_it(path: Path) -> None:
    with open_text(path) as (stream, _):
        text = stream.read()
    _same_cut(text)


def test_the_fast_path_takes_most_games_of_a_plain_archive(shared_data: Path,
                                                           monkeypatch) -> None:
    """Not a vacuous difference: on OCA 2.0 the fast path does take the games whole (the
    Python twin of the native scanner here, which takes the same ones: test_scan.py)."""
    import pdn.chunks as chunks

    taken = 0
    original = chunks._ends_once

    def counting(moves: str) -> bool:
        nonlocal taken
        plain = original(moves)
        taken += plain
        return plain

    monkeypatch.setattr(chunks, "_ends_once", counting)
    monkeypatch.setattr(chunks, "_scanner", lambda: chunks._plain_games)
    with open_text(shared_data / "english" / "OCA_2.0.pdn") as (stream, _):
        count = sum(1 for _ in split_chunks(stream))
    assert count == 22_621
    assert taken > 0.9 * count


_TAGS = st.sampled_from(['[Event "a"]', '[Event "b {c"]', '[Site "x [y"]', '[[Event "d"]',
                         '[Round "1', '[FEN "W:W31', ' B1,2"]', '[Result "1-0"]\\r',
                         '[White "é"]', '[Black "B"] [Date "?"]', '  [Event "e"]'])
_MOVES = st.sampled_from(["1. 32-28 19-23", "2. 37-32", "11- 16", "1-0", "0-1", "1/2-1/2",
                          "1 - 0", "*", "{a comment", "over lines}", "{ [Event \"x\" }",
                          "(2. 33-29", ")", "$1", "%escape", "; line comment", "1. 11-15",
                          "0-1[Event \"g\"]", "1-01-0", "12... 18x27", "- -", "26x17x10x1"])
_LINE = st.one_of(_TAGS, _MOVES, st.just(""), st.just("   "), st.just("\t"),
                  st.lists(_MOVES, min_size=1, max_size=4).map(" ".join))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_LINE, max_size=40), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_generated_texts_are_cut_as_the_line_scan_cuts_them(lines: list[str], newline: str,
                                                             bom: bool) -> None:
    text = ("\ufeff" if bom else "") + newline.join(lines) + newline
    _same_cut(text)
    _same_cut(text.replace("\r\n", "\n"))


def test_the_native_scanner_is_there_where_it_was_built() -> None:
    """tests/notation/test_scan.py skips without the scanner: a build that should have it
    must have it (under CI, its absence fails)."""
    import pdn.chunks as chunks
    from pdn import compiled

    if compiled.wants_pure() or os.environ.get("PDN_NO_FASTPATH", "") not in ("", "0"):
        assert chunks.native_scanner() is None
        return
    require(chunks.native_scanner() is not None,
            "the reader's native scanner (pip install -e . with a C compiler)")
