r"""Criteria on the board checked before any game is read: ``--moves`` and ``--position`` must fit
at least one variant the games may be in, or no game can match them.

A criterion is matched in each game's own variant (``Criteria.matches``), so it is refused
only when it fits none of the variants considered; the refusal names the variants where the
moves went furthest and the legal moves there, in each variant's notation.

>>> from replay.rules.variants import RUSSIAN
>>> try:
...     check_moves("1. cd4 dc5 2. cd5", [RUSSIAN])
... except CriterionError as error:
...     print(*str(error).replace(": ", ":\n", 1).split("; "), sep="\n")
--moves '1. cd4 dc5 2. cd5' is not legal in russian:
move 2 (White) 'cd5': square 'd5' is not a playing square
legal moves: b2-c3 d2-c3 a3-b4 e3-f4 g3-f4 g3-h4 d4-e5
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pdn.fen import FenError, parse_fen
from pdn.game import Game
from pdn.i18n import N_
from replay.record.inference import ENGLISH_FIRST_MOVER_BOTTOM, candidates, is_first_mover_bottom
from replay.rules.position import position_from_setup
from replay.rules.variants import Rules, Variant, get_variant, variant_names, with_rules

if TYPE_CHECKING:
    from replay.record.lines import OpeningStop

SHOWN_GROUPS = 3  # variants whose legal moves differ, named in a refusal
# The refusal of moves no variant plays, catalog entries (``pdn.i18n``): the exception says
# it in English, a display puts it into the reader's language.
LEGAL_IN_NONE = N_("--moves '{text}' is legal in no variant the games may be in; {listing}")
LEGAL_IN_NONE_SOONER = N_("--moves '{text}' is legal in no variant the games may be in; "
                          "{listing} ({count} other variants refuse them sooner)")
IN_VARIANTS = N_("in {variants}: move {number} ({side}) '{move}': {reason}")


class CriterionError(ValueError):
    """A criterion that cannot be understood (a bad FEN, moves that are not legal...)."""


def game_variants(selected: Variant | None = None, override: Variant | None = None,
                  default: Variant | None = None, rules: Rules | None = None
                  ) -> list[Variant]:
    """The variants the games read may be in: the one ``--game-variant`` selects, else the
    one ``--ignore-gametype`` imposes, else every variant (``--variant``'s first, since
    a game's GameType tag may name any); English in both of its square namings."""
    if selected is not None:
        chosen = [selected]
    elif override is not None:
        chosen = [override]
    else:
        chosen = ([default] if default is not None else []) + [
            get_variant(name) for name in variant_names()]
    forms: list[Variant] = []
    for variant in chosen:
        forms.append(variant)
        if variant.name == "english" and not is_first_mover_bottom(variant):
            forms.append(ENGLISH_FIRST_MOVER_BOTTOM)
    return _distinct([with_rules(variant, rules) for variant in forms])


def check_moves(text: str, variants: Sequence[Variant]) -> None:
    """Raise CriterionError unless the moves are legal from the start in one of the
    variants (tried in the order the moves' squares make likely)."""
    from pdn.reader import PdnText, read_games  # the reader (lark) only where moves are read
    from replay.record.lines import (
        JOINED,
        NOT_LEGAL_IN,
        MoveLineError,
        OpeningStop,
        opening_line,
        opening_records,
    )

    try:
        records = opening_records(text)
    except MoveLineError as error:
        raise CriterionError(str(error)) from None
    stops: list[OpeningStop] = []
    for variant in _likely_first(variants, next(read_games(PdnText(text.strip() + " *")))):
        line = opening_line(records, variant)
        if not isinstance(line, OpeningStop):
            return
        stops.append(line)
    if len(stops) == 1:
        raise CriterionError(NOT_LEGAL_IN.format(text=text, variant=label(stops[0].variant),
                                                 reason=stops[0].sentence()))
    furthest = max(stop.ply for stop in stops)
    groups: dict[tuple[int, str], list[OpeningStop]] = {}
    for stop in stops:
        if stop.ply == furthest:
            groups.setdefault((stop.ply, stop.legal), []).append(stop)
    shown = list(groups.values())[:SHOWN_GROUPS]
    parts = [IN_VARIANTS.format(variants=", ".join(label(stop.variant) for stop in group),
                                **group[0].fields()) for group in shown]
    listing = functools.reduce(lambda first, second: JOINED.format(first=first,
                                                                   second=second), parts)
    others = len(stops) - sum(len(group) for group in shown)
    said = LEGAL_IN_NONE_SOONER if others else LEGAL_IN_NONE
    raise CriterionError(said.format(text=text, listing=listing, count=others))


def check_position(fen: str, variants: Sequence[Variant]) -> None:
    """Raise CriterionError unless the FEN is a position of one of the variants."""
    problems = []
    for variant in _likely_first(variants, Game(tags={"FEN": fen})):
        try:
            position_from_setup(parse_fen(fen, variant.gametype.notation))
            return
        except (FenError, ValueError) as error:
            problems.append((variant, str(error)))
    names = ", ".join(label(variant) for variant, _ in problems[:SHOWN_GROUPS])
    more = f" (nor {len(problems) - SHOWN_GROUPS} other variants)" \
        if len(problems) > SHOWN_GROUPS else ""
    raise CriterionError(f"--position '{fen}' is not a position of {names}{more}: "
                         f"{problems[0][1]}")


def label(variant: Variant) -> str:
    """A variant's name, and English's site form told apart."""
    if is_first_mover_bottom(variant):
        return "english (squares named from the first mover's side)"
    return variant.name


def _likely_first(variants: Sequence[Variant], game: Game) -> list[Variant]:
    """The variants, those a record's squares make likely first (``replay.record.inference``)."""
    likely = [(variant.name, variant.gametype) for variant in candidates(game).variants]
    rank = {key: place for place, key in reversed(list(enumerate(likely)))}
    return sorted(variants, key=lambda v: rank.get((v.name, v.gametype), len(rank)))


def _distinct(variants: list[Variant]) -> list[Variant]:
    return list(dict.fromkeys(variants))
