"""The move notations of grammar.lark as named terminals, composed into MOVE, and the reading
of a move record with those same terminals (PDN 3.0 move syntax; the reading forms of real
archives noted in the grammar)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Token

from pdn.grammar import terminal
from pdn.moves import read_moves
from pdn.parser import load_parser
from pdn.tags import RESULTS


def matches(name: str, text: str) -> bool:
    return re.fullmatch(terminal(name), text) is not None


@pytest.mark.parametrize(("name", "written", "not_written"), [
    ("NUMERIC_SQUARE", ["1", "32", "06", "144", "999"], ["0", "00", "1000", "a1"]),
    ("SQUARE_NAME", ["a1", "E3", "l12", "h8"], ["a0", "a13", "m1", "11"]),
    ("SHORT_SQUARE", ["d4", "b2"], ["D4", "a13"]),
    ("NUMERIC_MOVE", ["11-15", "22x15", "06-11", "1- 7", "32:23", "47×38"],
     ["11-15-19", "11 -15", "0-1", "11-"]),
    ("FULL_MOVE", ["c3-d4", "c3:e5", "E3-D4", "c3d4", "c3xe5"], ["c3", "c3-d4-e5", "ed4"]),
    ("NUMERIC_PATH", ["x10x1", "x24x13x36", "- 7"], ["x", "10", "x10x"]),
    ("SQUARE_PATH", [":a5:e1", "xe7", "d4"], [":", "a5:", "x10"]),
    ("WRITTEN_MOVE", ["11-15", "c3d4", "ed4", "26x17x10x1", "47x38x24x13x36", "h2:c7:a5:e1",
                      "a3xc5xe7", "b:d6:f8"], ["26x17x", "c3-15", "11-c3", "ed4-e5"]),
    ("SHORT_MOVE", ["ed4", "b:d6", "bxd6", "fb2", "c:e5:g7"], ["Ed4", "e-d4", "c3d4"]),
    ("MOVE_SUFFIX", ["!", "?!", "(?)", "(!?!!!)", "*"], ["+", "()", "**"]),
    ("MOVENUMBER", ["1.", "12...", "012."], ["1..", "1", ".1"]),
])
def test_each_notation_terminal_reads_its_examples_and_nothing_near(name, written, not_written):
    assert [text for text in written if not matches(name, text)] == []
    assert [text for text in not_written if matches(name, text)] == []


@pytest.mark.parametrize("notation", ["NUMERIC_MOVE", "FULL_MOVE", "SHORT_MOVE", "NUMERIC_PATH",
                                      "SQUARE_PATH", "MOVE_SUFFIX", "MOVENUMBER"])
def test_move_is_composed_of_the_notation_terminals(notation):
    assert terminal(notation) in terminal("MOVE")


def test_only_move_is_a_token_the_notations_are_written_out_inside_it():
    parser, _ = load_parser()
    kinds = {t.name for t in parser.lark.terminals}
    assert "MOVE" in kinds
    assert not kinds & {"WRITTEN_MOVE", "NUMERIC_MOVE", "FULL_MOVE", "SHORT_MOVE", "NUMERIC_PATH",
                        "SQUARE_PATH", "RANK"}
    assert parser.lark.get_terminal("MOVE").pattern.to_regexp() == terminal("MOVE")


@pytest.mark.parametrize("result", sorted(RESULTS - {"1-1"}))
def test_a_result_never_lexes_as_a_move(result):
    # a square is never 0; 1-1 does read as a move and is told apart by RESULT's priority
    # (test_grammar.py: a closing 1-1 stays the result)
    assert re.match(terminal("MOVE"), result) is None


def test_a_letter_or_digit_glued_after_a_move_makes_it_no_move():
    assert re.match(terminal("MOVE"), "32-28x") is None
    assert re.match(terminal("MOVE"), "c3-d4e") is None


numeric_squares = st.integers(1, 999)
names = st.tuples(st.sampled_from("abcdefghijkl"), st.integers(1, 12))


@st.composite
def records(draw):
    """A move record in one notation, with the squares, mark and file it must be read as."""
    number = draw(st.none() | st.tuples(st.integers(1, 200), st.booleans()))
    kind = draw(st.sampled_from(["numeric", "full", "short"]))
    steps = draw(st.integers(1, 4))
    mark = draw(st.sampled_from(["-", "x", "X", ":", "×"] if kind != "short" else ["x", ":"]))
    if kind == "numeric":
        squares = [str(draw(numeric_squares)) for _ in range(steps + 1)]
        zeros = draw(st.booleans())
        written = mark.join(("0" + s if zeros and len(s) == 1 else s) for s in squares)
        origin = None
    elif kind == "full":
        squares = [f"{file}{rank}" for file, rank in (draw(names) for _ in range(steps + 1))]
        upper = draw(st.booleans())
        written = mark.join(s.upper() if upper else s for s in squares)
        origin = None
    else:
        squares = [f"{file}{rank}" for file, rank in (draw(names) for _ in range(steps))]
        origin = draw(st.sampled_from("abcdefghijkl"))
        first = draw(st.sampled_from(["", mark]))  # fb2: a capture written without a mark
        written = origin + first + mark.join(squares)
        mark = mark if first or steps > 1 else ""
    suffix = draw(st.sampled_from(["", "!", "?!", "(?)"]))
    prefix = "" if number is None else f"{number[0]}{'...' if number[1] else '.'} "
    separator = "x" if mark in ("X", "×") else mark
    return prefix + written + suffix, (number, written, tuple(squares), separator, origin,
                                      suffix or None)


@given(st.lists(records(), min_size=1, max_size=5))
def test_a_run_of_records_is_read_part_by_part(run):
    text = " ".join(written for written, _ in run)
    plies = read_moves(Token("MOVE", text, 0, 1, 1), 0)
    read = [((p.number, p.black_number) if p.number is not None else None, p.record.text,
             p.record.squares, p.record.separator, p.record.origin_file, p.record.strength)
            for p in plies]
    assert read == [expected for _, expected in run]
    assert all(re.fullmatch(terminal("MOVE"), written) for written, _ in run)
