"""Geometry and numbering, checked against PDN 3.0's numbering examples (docs/notation.md)."""

import pytest

from pdn.gametype import default_gametype, parse_gametype
from pdn.squares import SquareError, geometry


def number_of(gametype: int, name: str) -> str:
    gt = default_gametype(gametype)
    return gt.notation.name(gt.geometry.square(name))


@pytest.mark.parametrize(
    ("name", "number"), [("b8", "1"), ("h8", "4"), ("a7", "5"), ("a1", "29"), ("g1", "32")]
)
def test_english_numbering_pdn_md(name, number):
    assert number_of(21, name) == number


@pytest.mark.parametrize(("name", "number"), [("b10", "1"), ("a1", "46"), ("i1", "50")])
def test_international_numbering_pdn_md(name, number):
    assert number_of(20, name) == number


def test_italian_square_one_is_a8():
    assert number_of(22, "a8") == "1"
    assert geometry(8, 8, invert=True).at(0, 0) is None  # a1 is light in Italian


def test_thai_numbering_follows_source_document_001():
    # 1 = top-left dark square (seen from the light side), left to right, 32 bottom right.
    assert [number_of(31, n) for n in ("b8", "h8", "a7", "g1")] == ["1", "4", "5", "32"]


def test_russian_numeric_formula_rules_4_4():
    # docs/notation.md: row r = (n-1) div 4 from rank 8, file = 2c + (1 if rank even else 0).
    notation = default_gametype(25).notation
    for n in range(1, 33):
        r, c = divmod(n - 1, 4)
        rank = 8 - r
        file = 2 * c + (1 if rank % 2 == 0 else 0)
        assert notation.square(str(n)) == geometry(8, 8).at(rank - 1, file)


def test_alphanumeric_names_round_trip_and_uppercase():
    g = geometry(8, 8)
    for sq in g.playable:
        assert g.square(g.name(sq)) == sq
        assert g.square(g.name(sq).upper()) == sq


@pytest.mark.parametrize("bad", ["i1", "a9", "a2", "zz", "", "3"])
def test_bad_square_names_are_rejected(bad):
    with pytest.raises(SquareError):
        geometry(8, 8).square(bad)


def test_canadian_board_has_72_squares_and_file_l():
    gt = default_gametype(27)
    assert len(gt.geometry.playable) == 72
    assert gt.notation.name(gt.geometry.square("a1")) == "67"


def test_gametype_full_form_and_short_form_agree():
    assert parse_gametype("20,W,10,10,N2,0") == parse_gametype("20")
    assert parse_gametype("25,W,8,8,A1,0").notation.name(0) == "a1"  # older A1 accepted
    assert parse_gametype("31,B,8,8,N2,0") == default_gametype(31)
    assert parse_gametype("31").tag() == "31,B,8,8,N2,0"
