"""Tournament tables for arbiters: the standings of any event with the federations'
tie-breaks, and the crosstable of a round robin (``docs/tournaments.md``).

>>> from pdn.reader import read_games
>>> text = ('[White "Ann"][Black "Bob"][Result "2-0"] 1. 32-28 *'
...         '[White "Bob"][Black "Cas"][Result "1-1"] 1. 32-28 *'
...         '[White "Cas"][Black "Ann"][Result "*"] 1. 32-28 *')
>>> event = read_event(read_games(text), corrections=[parse_correction("Cas - Ann=0-2")])
>>> [(row.place, row.player, row.points) for row in standings(event).rows]
[('1', 'Ann', 4), ('2-3', 'Bob', 1), ('2-3', 'Cas', 1)]
"""

from replay.tournament.event import (
    Event,
    Pairing,
    apply_correction,
    event_names,
    read_event,
    select_event,
)
from replay.tournament.scoring import (
    Correction,
    CorrectionError,
    Scoring,
    parse_correction,
    read_corrections,
    scoring_for,
)
from replay.tournament.tables import (
    TIEBREAKS,
    Cell,
    Row,
    Standings,
    TiebreakError,
    crosstable,
    default_tiebreaks,
    standings,
    tiebreak_names,
)

__all__ = ["TIEBREAKS", "Cell", "Correction", "CorrectionError", "Event", "Pairing", "Row",
           "Scoring", "Standings", "TiebreakError", "apply_correction", "crosstable",
           "default_tiebreaks", "event_names", "parse_correction", "read_corrections",
           "read_event", "scoring_for", "select_event", "standings", "tiebreak_names"]
