"""The game-selection options shared by the archive and database commands, as criteria."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .common import fail

if TYPE_CHECKING:
    from replay.rules.variants import Variant


def game_criteria(tag, player, white, black, date_from, date_to, variant, result, min_plies,
                  max_plies, status, moves, position, material, material_any_ply):
    """The selection options of ``filter``, ``search`` and the other archive commands as one
    criteria value; a usage error (exit 2) when one is malformed."""
    from replay.archive.select import CriterionError, criteria_from_text

    try:
        return criteria_from_text(
            tags=tag or [], players=player or [], white=white or [], black=black or [],
            date_from=date_from, date_to=date_to, variant=variant, results=result or [],
            min_plies=min_plies, max_plies=max_plies, statuses=status or [], moves=moves,
            position=position, material=material, material_any_ply=material_any_ply)
    except CriterionError as error:
        fail(str(error))


def check_board_criteria(criteria, variants: list[Variant]) -> None:
    """A usage error (exit 2) for --moves or --position that fit none of the variants the
    games may be in."""
    from replay.record.criteria import CriterionError, check_moves, check_position

    try:
        if criteria.moves is not None:
            check_moves(criteria.moves, variants)
        if criteria.position is not None:
            check_position(criteria.position, variants)
    except CriterionError as error:
        fail(str(error))
