"""The words of repair suggestions and repairs: every text built by one grammar.

A text is one sentence made of the same parts for every kind of slip: whose move it is
(``who``), what went wrong (the slip: present tense in a suggestion, past tense in a repair
made), and the edit that mends it (a gerund in a suggestion, the passive in a repair made);
a suggestion ends with what the edit does to the record (``docs/repair.md``).

>>> missing = Slip("insert", whose("Black", 3), move="3... gh4")
>>> suggestion_text([missing], Outcome(10, 10))
"Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its end."
>>> repair_text([missing])
"Black's 3rd move was missing: 3... gh4 is put in."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# What went wrong, per kind of edit: (in a suggestion, in a repair made). The fields of a
# Slip fill the braces.
WENT_WRONG = {
    "insert": ("is missing", "was missing"),
    "delete": ("is one too many", "was one too many"),
    "replace": ("is a slip", "was a slip"),
    "landing": ("must land on {square}", "had to land on {square}"),
    "swap": ("are in the wrong order", "were in the wrong order"),
    "exchange": ("are in the wrong order", "were in the wrong order"),
    "only": ("is a slip", "was a slip"),
    "move": ("is written as {place}", "was written as {place}"),
}
# The edit that mends it: (gerund, in a suggestion; passive, in a repair made).
MENDED_BY = {
    "insert": ("putting in {move}", "{move} is put in"),
    "delete": ("taking out {written}", "{written} is taken out"),
    "replace": ("writing {move} for {written}", "{move} is written for {written}"),
    "landing": ("writing {move} for {written}", "{move} is written for {written}"),
    "swap": ("exchanging {written}", "{written} are exchanged"),
    "exchange": ("exchanging {written}", "{written} are exchanged"),
    "only": ("writing {move}, the only legal move, for {written}",
             "{move}, the only legal move, is written for {written}"),
    "move": ("moving {written} to its place", "{written} is moved to its place"),
}
NO_SUGGESTION = "No small edit near the error lets the record replay further."


@dataclass(frozen=True)
class Slip:
    """One slip in parts: its kind (an edit of ``WENT_WRONG``), whose move it is (``Black's
    3rd move``; two moves for a swap), the move the edit writes (``3... gh4``), the text the
    record has (``'d:g3'``; ``'gh4' and 'cb4'`` for a swap), the square a capture must land
    on, and, for a ply in the wrong column, where it is written."""

    kind: str
    who: str
    move: str = ""
    written: str = ""
    square: str = ""
    place: str = ""

    def went_wrong(self, made: bool) -> str:
        return f"{self.who} {WENT_WRONG[self.kind][made].format(**self._parts())}"

    def mended_by(self, made: bool) -> str:
        return MENDED_BY[self.kind][made].format(**self._parts())

    def _parts(self) -> dict[str, str]:
        return {"move": self.move, "written": self.written, "square": self.square,
                "place": self.place}


@dataclass(frozen=True)
class Outcome:
    """What the edits do to the record: ``reach`` of its ``length`` written plies replay;
    ``shorter`` plies fewer when the edits only cut it short (``docs/repair.md``)."""

    reach: int
    length: int
    shorter: int = 0

    def words(self) -> str:
        if self.reach < self.length:
            return f"replay further, to ply {self.reach} of {self.length}"
        if self.shorter:
            return f"replay to its end but shortens the game by {_plies(self.shorter)}"
        return "replay to its end"


def suggestion_text(slips: Sequence[Slip], outcome: Outcome) -> str:
    """``Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its
    end.`` (two slips: ``... is missing, and ... is a slip: putting in ... and then writing
    ... make the record ...``)."""
    went_wrong = ", and ".join(slip.went_wrong(made=False) for slip in slips)
    mended_by = " and then ".join(slip.mended_by(made=False) for slip in slips)
    verb = "makes" if len(slips) == 1 else "make"
    return _sentence(f"{went_wrong}: {mended_by} {verb} the record {outcome.words()}")


def repair_text(slips: Sequence[Slip]) -> str:
    """``Black's 3rd move was missing: 3... gh4 is put in.`` (two slips joined by ``;``)."""
    return _sentence("; ".join(f"{slip.went_wrong(made=True)}: {slip.mended_by(made=True)}"
                               for slip in slips))


def whose(side: str, number: int) -> str:
    """``Black's 3rd move``."""
    return f"{side}'s {ordinal(number)} move"


def quoted(*texts: str) -> str:
    """``'gh4'``, or ``'gh4' and 'cb4'``."""
    return " and ".join(f"'{text}'" for text in texts)


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th')}"


def _plies(count: int) -> str:
    return "one ply" if count == 1 else f"{count} plies"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


__all__ = ["NO_SUGGESTION", "Outcome", "Slip", "ordinal", "quoted", "repair_text",
           "suggestion_text", "whose"]
