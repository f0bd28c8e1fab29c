"""FEN text <-> set-up (side to move and pieces), in any square notation.

``W:W21,22,K30:B1,2,3`` -- side to move, then each colour's squares; ``K`` marks a king;
ranges ``W31-50``; alphanumeric squares (``W:Wa1,Kd4:Bb8``); the lidraughts ``:H0:F1``
suffix (half-move clock, full-move number) is read and kept.

>>> from pdn.gametype import default_gametype
>>> notation = default_gametype(25).notation
>>> setup = parse_fen("W:Wa1,Kd4:Bb8", notation)
>>> setup.white_to_move, sorted((notation.name(square), piece)
...                              for square, piece in setup.pieces.items())
(True, [('a1', 'w'), ('b8', 'b'), ('d4', 'W')])
>>> format_fen(setup, notation)
'W:Wa1,Kd4:Bb8'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pdn.gametype import SquareNotation
from pdn.i18n import N_
from pdn.squares import SquareError

MAX_DIGITS = 9  # of a square number or a clock; int() of a huge string is refused

WHITE_MAN, WHITE_KING, BLACK_MAN, BLACK_KING = "w", "W", "b", "B"
_FULLMOVE = re.compile(r":F(\d{1,9})(?!\d)", re.IGNORECASE)


class FenError(ValueError):
    """A FEN that cannot be read; the message says what and where (column, 1-based)."""

    def __init__(self, fen: str, column: int, reason: str) -> None:
        super().__init__(N_("bad FEN '{fen}' at column {column}: {reason}").format(
            fen=fen, column=column, reason=reason))
        self.fen, self.column, self.reason = fen, column, reason


@dataclass(frozen=True)
class Setup:
    """A position as FEN states it: side to move and {internal square: piece code}."""

    white_to_move: bool
    pieces: dict[int, str] = field(hash=False)
    halfmove_clock: int | None = None
    fullmove_number: int | None = None


def parse_fen(fen: str, notation: SquareNotation) -> Setup:
    """Read a FEN in the given square notation; raises FenError naming the column."""
    text = fen.strip().strip('"').rstrip(".").strip()
    if not text:
        raise FenError(fen, 1, N_("empty FEN"))
    sections: list[tuple[int, str]] = []
    position = 0
    for part in text.split(":"):
        sections.append((position, part))
        position += len(part) + 1
    turn_col, turn = sections[0]
    turn = turn.strip().upper()
    if turn not in ("W", "B"):
        raise FenError(fen, turn_col + 1, N_("side to move must be W or B, not "
                                             "'{value}'").format(value=sections[0][1]))
    pieces: dict[int, str] = {}
    halfmove = fullmove = None
    listed: set[str] = set()
    for column, section in sections[1:]:
        body = section.strip()
        if not body:
            continue
        head = body[0].upper()
        if head in ("W", "B"):
            if head in listed:
                raise FenError(fen, column + 1, _listed_twice(head, sections))
            listed.add(head)
            _read_squares(fen, column + section.index(body[0]) + 1, body[1:], head == "W",
                          notation, pieces)
        elif head in ("H", "F") and body[1:].strip().isdigit() and len(body) <= MAX_DIGITS:
            value = int(body[1:])
            if head == "H":
                halfmove = value
            else:
                fullmove = value
        else:
            raise FenError(fen, column + 1,
                           N_("section '{value}' is neither W..., B..., H<n> nor "
                              "F<n>").format(value=body))
    return Setup(turn == "W", pieces, halfmove, fullmove)


def _listed_twice(head: str, sections: list[tuple[int, str]]) -> str:
    """``White's pieces are listed twice (W... and W...), Black's not at all``."""
    heads = [part.strip()[:1].upper() for _, part in sections[1:]]
    missing = ("B" if head == "W" else "W") not in heads
    return {("W", False): N_("White's pieces are listed twice (W... and W...)"),
            ("W", True): N_("White's pieces are listed twice (W... and W...), Black's not at "
                            "all"),
            ("B", False): N_("Black's pieces are listed twice (B... and B...)"),
            ("B", True): N_("Black's pieces are listed twice (B... and B...), White's not at "
                            "all")}[head, missing]


def _read_squares(fen: str, column: int, body: str, white: bool, notation: SquareNotation,
                  pieces: dict[int, str]) -> None:
    offset = column + 1
    for item in body.split(","):
        token = item.strip()
        if token:
            king = token[0].upper() == "K"
            name = token[1:].strip() if king else token
            man, king_piece = (WHITE_MAN, WHITE_KING) if white else (BLACK_MAN, BLACK_KING)
            for square in _expand(fen, offset, name, notation):
                if square in pieces:
                    raise FenError(fen, offset, N_("two pieces on square {square}: it is "
                                                   "given twice").format(
                        square=notation.name(square)))
                pieces[square] = king_piece if king else man
        offset += len(item) + 1


def _expand(fen: str, column: int, name: str, notation: SquareNotation) -> list[int]:
    try:
        if "-" in name:
            first, last = (part.strip() for part in name.split("-", 1))
            if not (first.isdigit() and last.isdigit()) or max(len(first), len(last)) > \
                    MAX_DIGITS or int(first) > int(last):
                raise FenError(fen, column, N_("'{value}' is not a range of square "
                                               "numbers").format(value=name))
            return [notation.square(str(n)) for n in range(int(first), int(last) + 1)]
        return [notation.square(name)]
    except SquareError as error:
        raise FenError(fen, column, str(error)) from None


def format_fen(setup: Setup, notation: SquareNotation, *, clocks: bool = False) -> str:
    """Write a FEN: white's pieces then black's, in square order, kings prefixed with K."""
    def key(square: int) -> int:
        return notation.numbering.by_square[square] if notation.numbering else square

    def section(color: str, man: str, king: str) -> str:
        squares = sorted((sq for sq, p in setup.pieces.items() if p in (man, king)), key=key)
        names = [("K" if setup.pieces[sq] == king else "") + notation.name(sq) for sq in squares]
        return color + ",".join(names)

    text = ":".join([
        "W" if setup.white_to_move else "B",
        section("W", WHITE_MAN, WHITE_KING),
        section("B", BLACK_MAN, BLACK_KING),
    ])
    if clocks and setup.halfmove_clock is not None:
        text += f":H{setup.halfmove_clock}:F{setup.fullmove_number or 1}"
    return text


def second_player_starts(fen: str | None, white_starts: bool) -> bool:
    """Whether a set-up has the second player to move (``B:`` where White starts, ``W:``
    where Black starts), so that the first ply is numbered ``1...``. Only the side field is
    read: a FEN that does not read otherwise still says who moves.

    >>> second_player_starts("B:W18:B14", white_starts=True)
    True
    >>> second_player_starts("W:W18:B14", white_starts=False), second_player_starts(None, True)
    (True, False)
    """
    side = (fen or "").strip().strip('"')[:1].upper()
    return side in ("W", "B") and (side == "W") != white_starts


def first_move_number(fen: str | None) -> int:
    """The number of the first move after a set-up: the FEN's ``F`` field, else 1.

    >>> first_move_number("W:W18:B14:H0:F12"), first_move_number("W:W18:B14")
    (12, 1)
    """
    match = _FULLMOVE.search(fen or "")
    return int(match.group(1)) if match else 1
