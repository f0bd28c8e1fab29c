"""``--pattern``: some squares fixed, the rest free, as SQL over the position bitboards.

A pattern is terms separated by spaces or ``;``, all of which must hold:

- ``SQUARES=KINDS``: every square listed holds one of the kinds;
- ``any(SQUARES)=KINDS``: at least one of the squares does;
- ``turn=white`` or ``turn=black``: the side to move.

SQUARES are names or numbers in the variant's own notation, separated by commas, with
ranges of numbers ``1-4``. KINDS are ``wm`` (white man), ``wk`` (white king), ``bm``, ``bk``,
``w`` (a white man or king), ``b``, ``empty``, joined by ``|``: ``d4=wm|wk`` is ``d4=w``.

>>> from replay.rules.variants import RUSSIAN
>>> pattern = Pattern.parse("c3,e3=wm any(a7,c7)=bk f4=empty turn=black")
>>> [term.kinds for term in pattern.terms]
[frozenset({'wm'}), frozenset({'bk'}), frozenset({'empty'})]
>>> sql, parameters = pattern.sql(RUSSIAN)
>>> sql.count("?"), pattern.turn
(5, 'B')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pdn.i18n import N_
from replay.database.keys import dense_squares, signed
from replay.rules.variants import Variant

PIECES = ("wm", "wk", "bm", "bk")
KINDS = {"wm": {"wm"}, "wk": {"wk"}, "bm": {"bm"}, "bk": {"bk"}, "w": {"wm", "wk"},
         "b": {"bm", "bk"}, "empty": {"empty"}}
COLUMNS = {"wm": "white_men", "wk": "white_kings", "bm": "black_men", "bk": "black_kings"}
_TERM = re.compile(r"^(?:any\((?P<any>[^)]*)\)|(?P<all>[^=()]+))=(?P<kinds>[\w|]+)$",
                   re.IGNORECASE)
_RANGE = re.compile(r"^(\d+)-(\d+)$")


class PatternError(ValueError):
    """A pattern that cannot be read, or whose squares are not on a variant's board."""


@dataclass(frozen=True)
class Term:
    """Squares (as written) and the kinds of piece, or emptiness, they hold."""

    squares: tuple[str, ...]
    kinds: frozenset[str]
    every: bool  # every square (True) or at least one (False)


@dataclass(frozen=True)
class Pattern:
    """A parsed ``--pattern``: its terms and, if given, the side to move ('W'/'B')."""

    text: str
    terms: tuple[Term, ...]
    turn: str | None = None

    @classmethod
    def parse(cls, text: str) -> Pattern:
        terms, turn = [], None
        for part in re.split(r"[\s;]+", text.strip()):
            if not part:
                continue
            name, _, value = part.partition("=")
            if name.lower() == "turn":
                if value.lower() not in ("white", "black", "w", "b"):
                    raise PatternError(N_("--pattern '{part}': write turn=white or turn=black")
                                       .format(part=part))
                turn = value[0].upper()
                continue
            terms.append(_term(part))
        if not terms and turn is None:
            raise PatternError(N_("--pattern is empty; e.g. --pattern 'c3=wm f6=empty'"))
        return cls(text, tuple(terms), turn)

    def sql(self, variant: Variant) -> tuple[str, list[int]]:
        """A condition on the ``positions`` table's bitboards and its parameters, for SQL
        users (``pdn search`` reads the pattern index, ``planes``, instead of scanning);
        raises PatternError when a square is not on the variant's board (or it has no
        bitboards)."""
        clauses, parameters = [], []
        for squares, term in zip(self.square_bits(variant), self.terms, strict=True):
            mask = signed(sum(1 << bit for bit in squares[0]))
            inside = term.kinds if "empty" not in term.kinds else set(PIECES) - term.kinds
            union = " | ".join(COLUMNS[kind] for kind in sorted(inside)) or "0"
            if "empty" not in term.kinds:  # the squares hold one of these pieces
                clauses.append(f"(({union}) & ?) {'= ?' if term.every else '!= 0'}")
            else:  # the squares hold none of the other pieces
                clauses.append(f"(({union}) & ?) {'= 0' if term.every else '!= ?'}")
            parameters += [mask, mask] if clauses[-1].endswith("?") else [mask]
        if self.turn is not None:
            clauses.append("turn = ?")
            parameters.append(self.turn)
        return " AND ".join(clauses) or "1", parameters

    def square_bits(self, variant: Variant) -> list[tuple[list[int], frozenset[str], bool]]:
        """Each term's dense square bits, kinds and whether every square must hold (else
        any one); raises PatternError as ``sql`` does."""
        if dense_squares(variant) is None:
            raise PatternError(N_("--pattern: {variant} positions have no bitboards (more "
                                  "than 64 playing squares)").format(variant=variant.name))
        return [(_bits(term.squares, variant), term.kinds, term.every) for term in self.terms]


def _term(part: str) -> Term:
    match = _TERM.match(part)
    if not match:
        raise PatternError(N_("--pattern '{part}': write SQUARES=KINDS, any(SQUARES)=KINDS "
                              "or turn=white|black").format(part=part))
    kinds: set[str] = set()
    for word in match.group("kinds").lower().split("|"):
        if word not in KINDS:
            raise PatternError(N_("--pattern '{part}': '{word}' is not one of {choices}")
                               .format(part=part, word=word, choices=", ".join(KINDS)))
        kinds |= KINDS[word]
    written = match.group("any") if match.group("any") is not None else match.group("all")
    squares = tuple(s.strip() for s in written.split(",") if s.strip())
    if not squares:
        raise PatternError(N_("--pattern '{part}': no squares").format(part=part))
    return Term(squares, frozenset(kinds), match.group("any") is None)


def _bits(squares: tuple[str, ...], variant: Variant) -> list[int]:
    """The dense bits of squares written in the variant's notation, each once (a square
    written twice must not add its bit twice to a mask)."""
    known = variant.gametype.notation.known_squares
    bit_of = {square: bit for bit, square in enumerate(dense_squares(variant) or ())}
    names: list[str] = []
    for square in squares:
        span = _RANGE.match(square)
        if span and int(span.group(1)) <= int(span.group(2)):
            names += [str(n) for n in range(int(span.group(1)), int(span.group(2)) + 1)]
        else:
            names.append(square.lower().lstrip("0") if square.isdigit() else square.lower())
    bits = []
    for name in names:
        if name not in known:
            raise PatternError(N_("--pattern: '{name}' is not a playing square of {variant}")
                               .format(name=name, variant=variant.name))
        bits.append(bit_of[known[name]])
    return list(dict.fromkeys(bits))


__all__ = ["Pattern", "PatternError", "Term"]
