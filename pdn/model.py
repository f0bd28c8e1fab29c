"""Plain values a PDN reader produces: games, their movetext tree and diagnostics.

Nothing here knows the rules: a ``MoveRecord`` says what was written and where, and the
replayer decides which legal move it means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple, Protocol

from pdn.commands import Clock, Eval, clock_of, eval_of, move_time_of, without_commands
from pdn.gametype import GameType, GameTypeError, parse_gametype
from pdn.results import is_unknown_result


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


class PlySource(Protocol):
    """The move text of a line as the reader left it: the plies are made when first asked
    for (``pdn.movetext`` gives one; ``Line.lazy`` takes it)."""

    def build(self) -> list[Ply]:
        """The line's plies, made now."""

    def tokens(self) -> list[str] | None:
        """The move records of the line as written, or None (``Line.move_tokens``)."""

    def ply_count(self) -> int:
        """How many plies the line has, counted without making them."""

    def record_at(self, index: int) -> MoveRecord:
        """The ``index``-th ply's move record, placed in the file, the others not made (a
        line whose ``tokens`` are not None)."""

    def has_plies(self) -> bool:
        """Whether the line has a ply."""


class _Plies:
    """``Line.plies``: a list, made from the line's ``PlySource`` on first access, then kept."""

    def __get__(self, line: Line | None, owner: type | None = None) -> list[Ply]:
        if line is None:  # the dataclass's default: None, made an empty list by __set__
            return None  # type: ignore[return-value]
        state = line.__dict__
        source = state.get("_source")
        if source is not None:
            state["_plies"] = source.build()
            state["_source"] = None
        return state.setdefault("_plies", [])

    def __set__(self, line: Line, plies: list[Ply] | None) -> None:
        line.__dict__["_plies"] = [] if plies is None else plies
        line.__dict__["_source"] = None


@dataclass
class Line:
    """A sequence of plies: the main line or a variation.

    ``comments`` come before the first ply; ``setup`` is a ``/FEN "..."/`` found before it.
    The reader leaves each run of moves as text until ``plies`` is first read (``lazy``);
    ``move_tokens``, ``ply_count`` and ``has_plies`` answer without making the plies.

    >>> Line().plies, Line().move_tokens()
    ([], None)
    """

    plies: list[Ply] = _Plies()  # type: ignore[assignment]
    comments: list[str] = field(default_factory=list)
    setup: str | None = None

    @classmethod
    def lazy(cls, source: PlySource, comments: list[str], setup: str | None) -> Line:
        """A line whose plies ``source`` makes when they are first asked for."""
        line = cls(None, comments, setup)  # type: ignore[arg-type]
        line.__dict__["_source"] = source
        return line

    def _pending(self) -> PlySource | None:
        source: PlySource | None = self.__dict__.get("_source")
        return source

    def move_tokens(self) -> list[str] | None:
        """The line's moves as written, one string per ply, made without the plies; None
        where the line holds more than moves and comments, or was built another way.

        Each string is one ply's move record as the grammar's MOVE terminal matches it: an
        optional move number (``12.`` or ``12...``, perhaps followed by whitespace), the move
        (``32-28``, ``26x17x10x1``, ``c3-d4``, ``b:d6``), an optional glued strength mark or
        ``*``. A line whose plies were read (``plies``) or made by hand gives None: it may
        have changed since. None also where anything but moves, comments and ignored marks
        (``+``) stands in the line: a variation, a lost move (``...``, ``-``), a NAG or
        strength mark standing apart, a move number apart from its move, a ``/FEN "..."/``
        set-up after the first move (one before it is ``setup``, which ``Game.start_fen``
        gives). When it is not None, ``plies`` would hold one ply per string, in order, with
        no variation, no set-up, and no NAG but a glued ``*``'s.
        """
        source = self._pending()
        return None if source is None else source.tokens()

    def move_run(self) -> str | None:
        """The line's moves as one run of text, where the reader kept them so (a plain game,
        ``pdn.plain``): ``move_tokens`` are its records, split at blanks, tabs and newlines,
        a move number joined to its move (``(?:[0-9]+\\.+[ \\t\\n]*)?[^ \\t\\n]+``); None
        otherwise. The native replay reads it without a string per ply."""
        run = getattr(self._pending(), "run_text", None)
        return None if run is None else run()

    def move_record(self, index: int) -> MoveRecord | None:
        """``self.plies[index].record`` of a line whose ``move_tokens`` are not None, made
        without the plies (its line and column in the file too); None where the plies were
        made or the line is not plain. Raises IndexError past the last ply."""
        source = self._pending()
        if source is None:
            return None
        plain = getattr(source, "plain", None)  # the reader's line tells: no tokens listed
        if plain is None:
            plain = source.tokens() is not None
        return source.record_at(index) if plain else None

    def ply_count(self) -> int:
        """``len(self.plies)``, counted without making the plies."""
        source = self._pending()
        return len(self.plies) if source is None else source.ply_count()

    def has_plies(self) -> bool:
        """Whether the line has a ply (``bool(self.plies)``), told without making them."""
        source = self._pending()
        return bool(self.plies) if source is None else source.has_plies()


@dataclass
class GameRecord:
    """One game's values: tags in file order, the movetext tree, the result token and
    diagnostics (``pdn.game.Game``, what the reader gives, adds its PDN text)."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: Line = field(default_factory=Line)
    result: str | None = None  # the movetext's closing result token, as written
    diagnostics: list[Diagnostic] = field(default_factory=list)
    index: int = 0  # 1-based position in its source
    line: int = 0  # first line of the game in its source
    source: str | None = None
    # comments written before the game's tags where a file opens with them: the file's own
    # comment, not the game's (the writer puts them back before the tags)
    preamble: list[str] = field(default_factory=list)

    def main_line_tokens(self) -> list[str] | None:
        """The main line's moves as written, one string per ply, without making the game
        tree: ``Line.move_tokens`` of ``moves`` (None where the tree is needed: variations,
        lost moves, set-ups after the first move, annotations standing apart).

        >>> from pdn import read_games
        >>> next(read_games("1. 32-28 {good} 19-23 2. 37-32! *")).main_line_tokens()
        ['1. 32-28', '19-23', '2. 37-32!']
        """
        return self.moves.move_tokens()

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

        >>> GameRecord(tags={"FEN": "B:W18:B14"}, moves=Line(setup="W:W21:B1")).start_fen
        'B:W18:B14'
        >>> GameRecord(moves=Line(setup="W:W21:B1")).start_fen
        'W:W21:B1'
        """
        return self.tags.get("FEN") or self.moves.setup or None

    @property
    def headers_result(self) -> str | None:
        """The Result tag, the authoritative result (docs/notation.md); the movetext's result
        where the tag is missing or only says "unknown" (``*``, ``?``, ``-``, empty)."""
        tag = self.tags.get("Result")
        if is_unknown_result(tag) and not is_unknown_result(self.result):
            return self.result
        return tag or self.result

    def __repr__(self) -> str:
        """Which game this is: its place, its players, date and result, and its length.

        >>> GameRecord({"White": "Ivanov", "Black": "Petrov", "Result": "0-1"}, index=2, line=9,
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
