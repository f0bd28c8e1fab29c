"""Points per game in the variant's scoring, and results given by an arbiter.

FMJD scores a win 2 points, a draw 1 and a loss 0, in International draughts and in its
64-square section (Russian, Brazilian); the Russian draughts federation counts the same way.
English draughts (ACF, EDA) counts a win 1 and a draw ½ (``docs/tournaments.md``).

>>> from replay.rules.variants import ENGLISH, INTERNATIONAL
>>> scoring_for(INTERNATIONAL).win, scoring_for(ENGLISH).draw
(2, 0.5)
>>> parse_correction("Valneris - Georgiev=1-1")
Correction(white='Valneris', black='Georgiev', result='1-1', round=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from replay.record.replayer import (
    BLACK_WINS,
    DOUBLE_FORFEIT,
    DRAW,
    UNKNOWN,
    WHITE_WINS,
    normalise_result,
)
from replay.rules.variants import Variant

# GameType numbers whose events count 1 - ½ - 0 (English and American checkers and pool,
# Italian): the 8x8 games of the English-speaking and Italian federations.
ONE_POINT_GAMETYPES = frozenset({21, 22, 23})


@dataclass(frozen=True)
class Scoring:
    """The points of a win, a draw and a loss (a double forfeit scores a loss for both)."""

    name: str
    win: float
    draw: float
    loss: float = 0

    def points(self, outcome: str, white: bool) -> float | None:
        """The points one side took from a game (``outcome`` as ``normalise_result`` says
        it: white / black / draw / double_forfeit); None for a game without a result."""
        if outcome == DRAW:
            return self.draw
        if outcome in (WHITE_WINS, BLACK_WINS):
            return self.win if (outcome == WHITE_WINS) == white else self.loss
        if outcome == DOUBLE_FORFEIT:
            return self.loss
        return None

    def text(self, points: float) -> str:
        """Points as a table writes them (``2``, ``½``, ``10½``)."""
        whole, half = divmod(round(points * 2), 2)
        if not half:
            return str(whole)
        return ("" if whole == 0 else str(whole)) + "½"


FMJD = Scoring("2-1-0 (FMJD)", 2, 1)
ONE_POINT = Scoring("1-½-0", 1, 0.5)


def scoring_for(variant: Variant) -> Scoring:
    """The scoring a variant's federation uses."""
    return ONE_POINT if variant.gametype.number in ONE_POINT_GAMETYPES else FMJD


# ---- results given by the arbiter ------------------------------------------------------------


class CorrectionError(ValueError):
    """A correction that cannot be read, or that names no game or several."""


@dataclass(frozen=True)
class Correction:
    """A result the arbiter gives to a game: White and Black as named (matched like
    ``pdn filter --white``), the result in any PDN spelling, the round when needed."""

    white: str
    black: str
    result: str
    round: str | None = None

    def outcome(self, variant: Variant) -> str:
        outcome = normalise_result(self.result, variant)
        if outcome == UNKNOWN:
            raise CorrectionError(f"'{self.result}' is not a result (2-0, 1-1, 0-2, 1-0, "
                                  "1/2-1/2, 0-1 or 0-0)")
        return outcome

    def __str__(self) -> str:
        where = f"round {self.round}: " if self.round else ""
        return f"{where}{self.white} - {self.black}={self.result}"


_CORRECTION = re.compile(r"^\s*(?:(?:round|r)\s*(?P<round>[^:\s]+)\s*:\s*)?"
                         r"(?P<white>.+?)\s+[-–—]\s+(?P<black>.+?)\s*=\s*(?P<result>\S+)\s*$",
                         re.IGNORECASE)


def parse_correction(text: str) -> Correction:
    """``"White - Black=1-1"``, optionally after ``"round 7: "``."""
    match = _CORRECTION.match(text)
    if not match:
        raise CorrectionError(f"'{text.strip()}' is not 'White - Black=RESULT' (names parted by "
                              "' - ', e.g. 'Valneris - Georgiev=1-1')")
    return Correction(match["white"].strip(), match["black"].strip(), match["result"],
                      match["round"])


def read_corrections(path: str | Path) -> list[Correction]:
    """A corrections file: one ``White - Black=RESULT`` a line; ``#`` starts a comment."""
    found = []
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as error:  # the file is read whole: where it went wrong
        raise CorrectionError(f"{path}, byte {error.start + 1}: not UTF-8 text "
                              f"({error.reason})") from None
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            found.append(parse_correction(text))
        except CorrectionError as error:
            raise CorrectionError(f"{path}, line {number}: {error}") from None
    return found
