"""Plain values a PDN reader produces: games, their movetext tree and diagnostics.

Nothing here knows the rules: a ``MoveRecord`` says what was written and where, and the
replayer decides which legal move it means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from pdn.commands import Clock, Eval, clock_of, eval_of, move_time_of, without_commands
from pdn.gametype import GameType, GameTypeError, parse_gametype

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a record, with its location (1-based line and column)."""

    code: str
    message: str
    line: int | None = None
    column: int | None = None
    severity: str = "error"  # "error" or "warning"


class MoveRecord(NamedTuple):
    """One move as written in a record (an immutable value; ``_replace`` makes a changed copy).

    ``squares``: the written squares in order, normalised (lowercase, no leading zeros):
    ``("c3", "d4")`` for ``c3-d4``, ``("26", "17", "10", "1")`` for ``26x17x10x1``, and for a
    short Russian record ``ed4`` just ``("d4",)`` with ``origin_file="e"``.
    ``separator``: ``"-"``, ``"x"`` or ``":"`` as written, ``""`` when the squares are run
    together (``c3d4``, short ``fb2``). ``placeholder`` marks a lost move (``-``, ``...``).
    A named tuple rather than a frozen dataclass: archives hold millions of records, and a
    tuple is built four times faster.
    """

    text: str
    squares: tuple[str, ...] = ()
    separator: str = ""
    origin_file: str | None = None
    strength: str | None = None
    line: int = 0
    column: int = 0
    placeholder: bool = False

    @property
    def is_short(self) -> bool:
        """Short Russian notation: origin file letter plus destination square."""
        return self.origin_file is not None

    @property
    def marked_capture(self) -> bool | None:
        """True for ``x``/``:``, False for ``-``, None when nothing says (``c3d4``, ``fb2``)."""
        if self.separator in ("x", ":"):
            return True
        if self.separator == "-":
            return False
        return None


@dataclass(slots=True)
class Ply:
    """A move in a line of play with what annotates it; ``variations`` are alternatives to it."""

    record: MoveRecord
    number: int | None = None
    black_number: bool = False  # written as "12..." (a Black, or second-player, move)
    nags: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    variations: list[Line] = field(default_factory=list)
    setup: str | None = None  # a /FEN "..."/ written after this move: the position from here on

    # Commands in the comments (pdn.commands), read when asked: reading stays as fast.
    @property
    def clock(self) -> Clock | None:
        """The clock times after this move (``[%clock ...]``, ``[%clk ...]``), or None.

        >>> Ply(MoveRecord("31-26"), comments=["[%clock w0:10:00 B0:09:58]"]).clock
        Clock(left=600.0, white=600.0, black=598.0)
        """
        return clock_of(self.comments) if self.comments else None

    @property
    def eval(self) -> Eval | None:
        """The evaluation after this move (``[%eval 0.35]``, ``[%eval #-3]``), or None."""
        return eval_of(self.comments) if self.comments else None

    @property
    def move_time(self) -> float | None:
        """The seconds this move took (``[%emt ...]``), or None."""
        return move_time_of(self.comments) if self.comments else None

    @property
    def remarks(self) -> list[str]:
        """The comments as a reader is shown them: commands left out, empty ones dropped."""
        return [text for text in map(without_commands, self.comments) if text]


@dataclass
class Line:
    """A sequence of plies: the main line or a variation.

    ``comments`` come before the first ply; ``setup`` is a ``/FEN "..."/`` found before it.
    """

    plies: list[Ply] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    setup: str | None = None


@dataclass
class Game:
    """One game: tags in file order, the movetext tree, the result token and diagnostics."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: Line = field(default_factory=Line)
    result: str | None = None  # the movetext's closing result token, as written
    diagnostics: list[Diagnostic] = field(default_factory=list)
    index: int = 0  # 1-based position in its source
    line: int = 0  # first line of the game in its source
    source: str | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @cached_property
    def gametype(self) -> GameType | None:
        """The game type its GameType tag states, or None without a (readable) tag."""
        text = self.tags.get("GameType")
        if not text:
            return None
        try:
            return parse_gametype(text)
        except GameTypeError:
            return None

    @property
    def start_fen(self) -> str | None:
        """The FEN the game starts from: its FEN tag, else a ``/FEN "..."/`` set-up written
        before the first move; None for the variant's initial position.

        >>> Game(tags={"FEN": "B:W18:B14"}, moves=Line(setup="W:W21:B1")).start_fen
        'B:W18:B14'
        >>> Game(moves=Line(setup="W:W21:B1")).start_fen
        'W:W21:B1'
        """
        return self.tags.get("FEN") or self.moves.setup or None

    @property
    def headers_result(self) -> str | None:
        """The Result tag, the authoritative result (docs/notation.md), else the movetext token."""
        return self.tags.get("Result") or self.result

    def __str__(self) -> str:
        """The game as PDN 3.0 text, as python-chess's ``str(game)`` gives its PGN.

        >>> c3_d4 = Ply(MoveRecord("c3-d4", ("c3", "d4"), "-"), 1)
        >>> print(Game({"White": "Ivanov"}, Line([c3_d4]), "*"))
        [Event "?"]
        [Site "?"]
        [Date "????.??.??"]
        [Round "?"]
        [White "Ivanov"]
        [Black "?"]
        [Result "*"]
        <BLANKLINE>
        1. c3-d4 *
        """
        from pdn.writer import write_game  # the writer imports this module

        return write_game(self)

    def __repr__(self) -> str:
        """Which game this is: its place, its players, date and result, and its length.

        >>> Game({"White": "Ivanov", "Black": "Petrov", "Result": "0-1"}, index=2, line=9,
        ...      source="games.pdn")
        <Game 2 at games.pdn:9: 'Ivanov' vs. 'Petrov', '????.??.??', 0-1, 0 plies>
        """
        place = f" {self.index}" if self.index else ""
        if self.source is not None:
            place += f" at {self.source}:{self.line}"
        errors = len(self.errors)
        problems = f", {errors} error{'' if errors == 1 else 's'}" if errors else ""
        return (f"<Game{place}: {self.tags.get('White', '?')!r} vs. "
                f"{self.tags.get('Black', '?')!r}, {self.tags.get('Date', '????.??.??')!r}, "
                f"{self.headers_result or '*'}, {len(self.moves.plies)} plies{problems}>")
