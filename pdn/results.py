"""One reading of a result token: who won, seen from the side that moves first.

Every command reads a result through ``read_result`` (``replay.record.replayer.normalise_result``
turns its answer into White or Black for the game's variant), so that a result written two
ways is one result: PDN 3.0's default set ``1-0 0-1 1/2-1/2 0-0``, its international-type set
in points ``2-0 0-2 1-1 0-0`` (as FMJD and Russian tournaments score a game: two points a
win, one each a draw), and the colon forms of Russian archives (``1:0``, ``1/2:1/2``).
``0-0`` is both sides lost (a double forfeit or an arbiter's decision), a result no
position on the board decides. ``*`` and the tag values that only say "unknown" (``?``,
``-``, nothing) read as no result.

>>> read_result("1-1") == read_result("1/2:1/2") == "draw"
True
>>> read_result("2-0"), read_result(" 0 - 1 "), read_result("*")
('first', 'second', None)
>>> results_disagree("1/2:1/2", "1-1"), results_disagree("1-0", "0-1")
(False, True)
>>> forfeit_reason("1-0", {"Termination": "time forfeit"})
'a forfeit (Termination "time forfeit"), which no position decides'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pdn.i18n import N_

FIRST, SECOND, DRAW, DOUBLE_FORFEIT = "first", "second", "draw", "double_forfeit"

# Result tokens by outcome, from the first mover's point of view (docs/notation.md: OCA and
# other English archives write results for the side that starts; where White starts, White's).
_OUTCOMES = {
    "1-0": FIRST, "2-0": FIRST, "1:0": FIRST, "2:0": FIRST,
    "0-1": SECOND, "0-2": SECOND, "0:1": SECOND, "0:2": SECOND,
    "1/2-1/2": DRAW, "1-1": DRAW, "1/2:1/2": DRAW, "1:1": DRAW, "=": DRAW,
    "0-0": DOUBLE_FORFEIT, "0:0": DOUBLE_FORFEIT,
}
RESULT_TEXTS = tuple(_OUTCOMES)  # every result token read (``*``, no result, aside)
# Result tag values that only say "unknown": accepted without a word, and no result
# written in the movetext disagrees with them (nor with ``*``).
UNKNOWN_RESULTS = frozenset({"", "?", "-"})
_NO_RESULT = UNKNOWN_RESULTS | {"*"}


def read_result(token: str | None) -> str | None:
    """Who won by ``token``: ``first`` (the side that moves first), ``second``, ``draw``,
    ``double_forfeit`` (both lost), or None where it is no result (``*``, unknown, or not a
    result at all). Spaces inside are not read (``1 - 0`` is ``1-0``)."""
    if not token:
        return None
    return _OUTCOMES.get("".join(token.split()))


def is_unknown_result(token: str | None) -> bool:
    """Whether ``token`` says only that the result is unknown (``*``, ``?``, ``-``, nothing)."""
    return token is None or token.strip() in _NO_RESULT


def results_disagree(written: str, tag: str) -> bool:
    """Whether the result ``written`` in the movetext names another outcome than the Result
    tag ``tag``: the same outcome written two ways (``1-1`` and ``1/2:1/2``) agrees, and
    neither ``*`` nor an unknown tag disagrees with anything."""
    if is_unknown_result(written) or is_unknown_result(tag):
        return False
    return read_result(written) != read_result(tag)


# A Termination tag (PDN 3.0 takes it from PGN) that says the game was lost by forfeit, in
# English or French (FMJD's "forfait"): PGN's "time forfeit", "forfeit", "forfait".
_FORFEIT = re.compile(r"forfeit|forfait", re.IGNORECASE)


def forfeit_reason(token: str | None, tags: Mapping[str, str]) -> str | None:
    """Why no position can contradict the result ``token`` of a game with ``tags``: ``0-0``
    (both sides lost: a double forfeit or an arbiter's decision) or a forfeit its
    Termination tag states; None for a result the board may decide."""
    if read_result(token) == DOUBLE_FORFEIT:
        return N_("{result}: both sides lost (a double forfeit or an arbiter's decision), "
                  "which no position decides").format(result="".join((token or "").split()))
    termination = (tags.get("Termination") or "").strip()
    if _FORFEIT.search(termination):
        return N_("a forfeit (Termination \"{termination}\"), which no position "
                  "decides").format(termination=termination)
    return None
