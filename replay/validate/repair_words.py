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

from pdn.i18n import N_

# What went wrong, per kind of edit: (in a suggestion, in a repair made). The fields of a
# Slip fill the braces; each text is a catalog entry (pdn.i18n).
WENT_WRONG = {
    "insert": (N_("{who} is missing"), N_("{who} was missing")),
    "delete": (N_("{who} is one too many"), N_("{who} was one too many")),
    "replace": (N_("{who} is a slip"), N_("{who} was a slip")),
    "landing": (N_("{who} must land on {square}"), N_("{who} had to land on {square}")),
    "swap": (N_("{who} are in the wrong order"), N_("{who} were in the wrong order")),
    "exchange": (N_("{who} are in the wrong order"), N_("{who} were in the wrong order")),
    "only": (N_("{who} is a slip"), N_("{who} was a slip")),
    "move": (N_("{who} is written as {place}"), N_("{who} was written as {place}")),
}
# The edit that mends it: (gerund, in a suggestion; passive, in a repair made).
MENDED_BY = {
    "insert": (N_("putting in {move}"), N_("{move} is put in")),
    "delete": (N_("taking out {written}"), N_("{written} is taken out")),
    "replace": (N_("writing {move} for {written}"), N_("{move} is written for {written}")),
    "landing": (N_("writing {move} for {written}"), N_("{move} is written for {written}")),
    "swap": (N_("exchanging {written}"), N_("{written} are exchanged")),
    "exchange": (N_("exchanging {written}"), N_("{written} are exchanged")),
    "only": (N_("writing {move}, the only legal move, for {written}"),
             N_("{move}, the only legal move, is written for {written}")),
    "move": (N_("moving {written} to its place"), N_("{written} is moved to its place")),
}
# The joins of several slips, edits and moves (each a catalog entry, not a word in code).
SLIPS_JOINED = N_("{first}, and {second}")
EDITS_JOINED = N_("{first} and then {second}")
REPAIR = N_("{went_wrong}: {mended_by}")
REPAIRS_JOINED = N_("{first}; {second}")
BOTH = N_("{first} and {second}")
# Whose move (an entry per side: a side is a word its sentence declines).
WHOSE = {"White": N_("White's {nth} move"), "Black": N_("Black's {nth} move")}
NO_SUGGESTION = N_("No small edit near the error lets the record replay further.")
ORDINALS = {1: N_("{n}st"), 2: N_("{n}nd"), 3: N_("{n}rd")}
OTHER_ORDINAL = N_("{n}th")


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
        return WENT_WRONG[self.kind][made].format(who=self.who, **self._parts())

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
            return N_("replay further, to ply {reach} of {length}").format(
                reach=self.reach, length=self.length)
        if self.shorter:
            return N_("replay to its end but shortens the game by {plies}").format(
                plies=_plies(self.shorter))
        return N_("replay to its end")


def suggestion_text(slips: Sequence[Slip], outcome: Outcome) -> str:
    """``Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its
    end.`` (two slips: ``... is missing, and ... is a slip: putting in ... and then writing
    ... make the record ...``)."""
    went_wrong = _joined(SLIPS_JOINED, [slip.went_wrong(made=False) for slip in slips])
    mended_by = _joined(EDITS_JOINED, [slip.mended_by(made=False) for slip in slips])
    sentence = (N_("{went_wrong}: {mended_by} makes the record {outcome}") if len(slips) == 1
                else N_("{went_wrong}: {mended_by} make the record {outcome}"))
    return _sentence(sentence.format(went_wrong=went_wrong, mended_by=mended_by,
                                     outcome=outcome.words()))


def repair_text(slips: Sequence[Slip]) -> str:
    """``Black's 3rd move was missing: 3... gh4 is put in.`` (two slips joined by ``;``)."""
    return _sentence(_joined(REPAIRS_JOINED, [
        REPAIR.format(went_wrong=slip.went_wrong(made=True), mended_by=slip.mended_by(made=True))
        for slip in slips]))


def whose(side: str, number: int) -> str:
    """``Black's 3rd move``."""
    return WHOSE[side].format(nth=ordinal(number))


def quoted(*texts: str) -> str:
    """``'gh4'``, or ``'gh4' and 'cb4'``."""
    return both(*(f"'{text}'" for text in texts))


def both(first: str, *others: str) -> str:
    """``A and B`` (``A`` alone, ``A and B and C``)."""
    return _joined(BOTH, [first, *others])


def _joined(template: str, parts: Sequence[str]) -> str:
    """The parts joined two by two with ``template`` (``{first}`` the first part,
    ``{second}`` the others joined): one catalog entry puts each join into a language."""
    if len(parts) == 1:
        return parts[0]
    return template.format(first=parts[0], second=_joined(template, parts[1:]))


def ordinal(number: int) -> str:
    template = (OTHER_ORDINAL if 10 <= number % 100 <= 20
                else ORDINALS.get(number % 10, OTHER_ORDINAL))
    return template.format(n=number)


def _plies(count: int) -> str:
    return N_("one ply") if count == 1 else N_("{count} plies").format(count=count)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


__all__ = ["NO_SUGGESTION", "Outcome", "Slip", "both", "ordinal", "quoted", "repair_text",
           "suggestion_text", "whose"]
