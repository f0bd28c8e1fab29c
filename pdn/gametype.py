"""PDN GameType tags: board shape, starting side and square notation of a game type.

``GameType "Type[,Start,Width,Height,Notation[,Invert]]"`` (PDN 3.0, ``doc/gametype.rst``).
Only the board and the notation live here; the rules of each game type are in ``replay``.

>>> gt = parse_gametype("20")
>>> gt.number, gt.width, gt.notation.name(gt.notation.square("46"))
(20, 10, '46')
>>> parse_gametype("25").notation.name(0)
'a1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

from pdn.i18n import N_
from pdn.quoting import shown
from pdn.squares import Geometry, SquareError, SquareNumbering, geometry

GAMETYPE_PATTERN = re.compile(
    r"^\s*(\d+)\s*(?:,\s*([WB])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS])([0-3])\s*(?:,\s*([01]))?)?\s*$",
    re.IGNORECASE,
)

MAX_SQUARE_DIGITS = 4  # the largest board has 144 squares
# Digits of a type number or a board side read as a number; longer ones are out of range
# whatever they say (and Python refuses int() of a string of over 4,300 digits).
_MAX_NUMBER_DIGITS = 9
_QUOTED = 40  # the most characters of a tag value quoted in a message



class GameTypeError(ValueError):
    """A GameType tag that cannot be understood."""


@dataclass(frozen=True)
class SquareNotation:
    """Square names of one game type: alphanumeric (``c3``) or numeric (``22``).

    ``from_black``: alphanumeric names read from Black's side of the board (``a1`` in Black's
    near left corner), as a type where Black starts and the code is ``A0`` states them.
    """

    geometry: Geometry
    numeric: bool
    numbering: SquareNumbering | None
    from_black: bool = False

    def name(self, square: int) -> str:
        """The written name of an internal square."""
        return self.names[square]

    @cached_property
    def names(self) -> tuple[str, ...] | dict[int, str]:
        """Internal square -> its written name (numbers where the type has a numbering)."""
        if self.numbering is not None:
            return self.numbering.names
        if self.from_black:  # the board turned 180 degrees: square i is named as size-1-i
            return tuple(reversed(self.geometry.names))
        return self.geometry.names

    @cached_property
    def numbers(self) -> dict[int, str]:
        """Internal square -> its number as text: the game type's numbering, or for an
        alphanumeric type the international-style count from the top left."""
        numbering = self.numbering or self.geometry.numbering(corner=1, white_starts=False)
        return numbering.names

    @cached_property
    def known_squares(self) -> dict[str, int]:
        """Every normalised name and number of a playable square -> its internal square
        (the reader's and the replayer's fast path)."""
        numbering = self.numbering or self.geometry.numbering(corner=1, white_starts=False)
        names = self.geometry.names if self.numbering is not None else self.names
        table = {names[sq]: sq for sq in self.geometry.playable}
        table.update({str(n): sq for n, sq in enumerate(numbering.squares, 1)})
        return table

    def squares(self, names: tuple[str, ...]) -> list[int]:
        """The internal squares of normalised names (one look-up each); raises SquareError."""
        table = self.known_squares
        found = [table.get(name, -1) for name in names]
        return found if -1 not in found else [self.square(name) for name in names]

    def square(self, text: str) -> int:
        """The internal square a written name or number denotes; raises SquareError.

        Both forms are accepted whatever the preferred one: numbers need a numbering, which
        every game type has (alphanumeric ones use the international-style top-left count).
        """
        known = self.known_squares.get(text)
        if known is not None:
            return known
        text = text.strip()
        if text.isdigit():
            if len(text.lstrip("0")) > MAX_SQUARE_DIGITS:  # int() of a huge string is refused
                raise SquareError(N_("square {square}… is not on the board").format(
                    square=text[:12]))
            numbering = self.numbering or self.geometry.numbering(corner=1, white_starts=False)
            return numbering.square(int(text))
        square = self.geometry.square(text)
        return self.geometry.size - 1 - square if self.from_black else square


@dataclass(frozen=True)
class GameType:
    """A parsed GameType: number, starting side, board and preferred notation."""

    number: int
    white_starts: bool
    width: int
    height: int
    numeric: bool
    corner: int
    invert: bool
    all_squares: bool = False

    @cached_property
    def geometry(self) -> Geometry:
        return geometry(self.width, self.height, self.invert, self.all_squares)

    @cached_property
    def notation(self) -> SquareNotation:
        if self.numeric:
            numbering = self.geometry.numbering(self.corner, self.white_starts)
            return SquareNotation(self.geometry, True, numbering)
        return SquareNotation(self.geometry, False, None, from_black=self.names_from_black)

    @property
    def names_from_black(self) -> bool:
        """Alphanumeric squares named from Black's side: Black starts and the code is ``A0``
        (a1 in the starter's near left corner)."""
        return not self.numeric and not self.white_starts and self.corner == 0

    def alphanumeric(self) -> GameType:
        """The same type with squares named from White's side, a1 in White's near left
        corner (``A0`` where White starts; ``A3``, a1 in the starter's far right corner,
        where Black does)."""
        return replace(self, numeric=False, corner=0 if self.white_starts else 3)

    @property
    def capture_separator(self) -> str:
        """The capture mark PDN 3.0 prescribes for this game type (``:`` Russian, ``-`` Thai,
        ``x`` the others)."""
        return CAPTURE_SEPARATORS.get(self.number, "x")

    def tag(self) -> str:
        """The full GameType tag value."""
        text = (
            f"{self.number},{'W' if self.white_starts else 'B'},{self.width},{self.height},"
            f"{'N' if self.numeric else 'A'}{self.corner},{int(self.invert)}"
        )
        return _STANDARD_FORM.get(self.number, text) if self == _DEFAULTS.get(self.number) else text


def _gt(number: int, start: str, width: int, height: int, code: str, invert: int,
        **kw: bool) -> GameType:
    return GameType(number, start == "W", width, height, code[0] == "N", int(code[1]),
                    bool(invert), **kw)


# The defaults of every game type we play. Thai (31) follows PDN 3.0 and Thai practice: the dark
# side starts on squares 1-8 and square 1 is the top-left dark square seen from the light side,
# which is corner 1 seen from the starter in our reading of the codes; the standard's table
# writes "31,B,8,8,N2,0" for it, so that literal tag is read as this default (docs/rules.md).
_DEFAULTS: dict[int, GameType] = {
    20: _gt(20, "W", 10, 10, "N2", 0),
    21: _gt(21, "B", 8, 8, "N1", 0),
    22: _gt(22, "W", 8, 8, "N2", 1),
    23: _gt(23, "B", 8, 8, "N1", 0),
    24: _gt(24, "W", 8, 8, "N1", 1),
    25: _gt(25, "W", 8, 8, "A0", 0),
    26: _gt(26, "W", 8, 8, "A0", 0),
    27: _gt(27, "W", 12, 12, "N2", 0),
    28: _gt(28, "W", 8, 8, "N1", 1),
    29: _gt(29, "W", 8, 8, "A0", 0),
    30: _gt(30, "W", 8, 8, "A0", 0, all_squares=True),
    31: _gt(31, "B", 8, 8, "N1", 0),
    40: _gt(40, "W", 10, 10, "N2", 0),
    # lidraughts' own types, written as the bare number in its PDN export: Breakthrough,
    # Frysk! and Antidraughts on the International board (docs/variants-lidraughts.md).
    96: _gt(96, "W", 10, 10, "N2", 0),
    97: _gt(97, "W", 10, 10, "N2", 0),
    98: _gt(98, "W", 10, 10, "N2", 0),
}
_STANDARD_FORM = {31: "31,B,8,8,N2,0"}
# PDN 3.0 GameType table, column "Capture Separator".
CAPTURE_SEPARATORS = {25: ":", 31: "-"}


UNKNOWN_TYPE = N_("unknown game type {number}")
GAMETYPE_REASON = N_("GameType '{text}': {reason}")


def default_gametype(number: int) -> GameType:
    """The standard GameType of a type number; raises GameTypeError for unknown numbers."""
    try:
        return _DEFAULTS[number]
    except KeyError:
        raise GameTypeError(UNKNOWN_TYPE.format(number=number)) from None


def parse_gametype(text: str) -> GameType:
    """Parse a GameType tag value; raises GameTypeError with the reason."""
    match = GAMETYPE_PATTERN.match(text)
    if not match:
        raise GameTypeError(N_("GameType '{text}' is not of the form '{form}'").format(
            text=shown(text, _QUOTED), form="Type[,W|B,width,height,Nk[,invert]]"))
    number = _number(match.group(1))
    if number < 0:
        raise GameTypeError(UNKNOWN_TYPE.format(number=shown(match.group(1).lstrip("0"),
                                                             _QUOTED)))
    if match.group(2) is None:
        return default_gametype(number)
    start, width, height, kind, corner, invert = match.group(2, 3, 4, 5, 6, 7)
    base = _DEFAULTS.get(number)
    if base is not None and _STANDARD_FORM.get(number, "").upper() == _squash(text).upper():
        return base
    width_n, height_n = _number(width), _number(height)
    if not (4 <= width_n <= 26 and 4 <= height_n <= 26):
        raise GameTypeError(N_("GameType '{text}': board {width}x{height} is not "
                               "supported").format(text=shown(text, _QUOTED),
                                                   width=shown(width, 9),
                                                   height=shown(height, 9)))
    numeric = kind.upper() == "N"
    return GameType(
        number,
        start.upper() == "W",
        width_n,
        height_n,
        numeric,
        # PDN 3.0: the digit says where a1 (or square 1) lies seen from the side that starts.
        # Where White starts, every alphanumeric code is read as chess-like coordinates from
        # White's side (older tables wrote A1 for Russian); where Black starts, A0 puts a1 in
        # Black's near left corner, as online English checkers sites name squares, and the
        # other codes are read from White's side.
        int(corner) if numeric or start.upper() == "B" else 0,
        invert == "1",
        base.all_squares if base is not None else False,
    )


def gametype_problem(text: str | None) -> str | None:
    """Why a GameType tag's value cannot be read, or None (no tag, or a readable one): an
    unknown type number, a board out of 4-26 squares a side, a value of another form.

    >>> gametype_problem("99"), gametype_problem("20,W,1000000,10,N2,0"), gametype_problem("20")
    ("GameType '99': unknown game type 99", "GameType '20,W,1000000,10,N2,0': board 1000000x10 \
is not supported", None)
    """
    if not text:
        return None
    try:
        parse_gametype(text)
    except GameTypeError as error:
        reason = str(error)
        return (reason if reason.startswith("GameType")
                else GAMETYPE_REASON.format(text=shown(text, _QUOTED), reason=reason))
    return None


def _number(digits: str) -> int:
    """The value of a run of digits, or -1 past ``_MAX_NUMBER_DIGITS`` significant digits:
    no game type and no board side, a value every check refuses.

    >>> _number("0020"), _number("9" * 5000)
    (20, -1)
    """
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= _MAX_NUMBER_DIGITS else -1


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


__all__ = [
    "GameType",
    "GameTypeError",
    "SquareError",
    "SquareNotation",
    "default_gametype",
    "gametype_problem",
    "parse_gametype",
]
