"""A knockout ("Olympic") event: "an athlete (a team) who lost the meeting leaves the
competition" (the Russian code of 2002, ``docs/tournaments.md``). Each round's meetings are
micro-matches (``replay.tournament.micromatch``); a micro-match left tied is decided by its
continuation (further micro-matches, or single tie-break games), and the bracket names the
game that decided it.

>>> from pdn.reader import read_games
>>> from replay.tournament.event import read_event
>>> text = ('[White "Ann"][Black "Bob"][Round "1.1"][Result "1-1"] 1. 32-28 *'
...         '[White "Bob"][Black "Ann"][Round "1.2"][Result "1-1"] 1. 32-28 *'
...         '[White "Ann"][Black "Bob"][Round "1.3"][Result "2-0"] 1. 32-28 *')
>>> [(t.winner, t.decided_by) for r in bracket(read_event(read_games(text)), 2) for t in r.ties]
[('Ann', 3)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

from pdn.i18n import N_
from replay.tournament.event import Event
from replay.tournament.micromatch import MicroMatch, micro_matches


@dataclass
class Tie:
    """One knockout meeting: its micro-match, the continuations, who went through."""

    round: str | None
    first: str
    second: str
    parts: list[MicroMatch] = field(default_factory=list)
    winner: str | None = None
    decided_by: int | None = None  # the game that decided a tied micro-match

    @property
    def score(self) -> tuple[float, float]:
        """Game points of the whole meeting, ``first`` first."""
        a = sum(m.score[0] if m.first == self.first else m.score[1] for m in self.parts)
        b = sum(m.score[1] if m.first == self.first else m.score[0] for m in self.parts)
        return a, b

    def why(self) -> str:
        """How the winner went through, in words."""
        if self.winner is None:
            return N_("undecided")
        if self.decided_by is None:
            return N_("won the micro-match")
        return N_("tie-break: game {number}").format(number=self.decided_by)


@dataclass
class KnockoutRound:
    """The meetings of one round and what the next round shows of them."""

    name: str | None
    ties: list[Tie] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _decide(tie: Tie) -> None:
    """The winner: the first part with a winner decides; a tie-break part names its game
    (the first game after which the winner could no longer be caught, else its last)."""
    for part in tie.parts:
        if not part.finished:
            return
        if part.winner is None:
            continue
        tie.winner = part.winner
        if part.part > 1:
            tie.decided_by = _deciding_game(part)
        return


def _deciding_game(part: MicroMatch) -> int:
    win = part.scoring.win
    mine = theirs = 0.0
    for k, game in enumerate(part.games):
        white = game.white == part.winner
        mine += part.scoring.points(game.outcome, white) or 0
        theirs += part.scoring.points(game.outcome, not white) or 0
        left = (len(part.games) - k - 1) * win
        if mine > theirs + left:
            return game.number
    return part.games[-1].number


def bracket(event: Event, size: int | None = None) -> list[KnockoutRound]:
    """The rounds in order of play: each pair's micro-match and continuations, the winner,
    and the problems the next round shows (a winner missing from it, a loser in it)."""
    rounds: dict[str | None, KnockoutRound] = {}
    ties: dict[tuple[str | None, frozenset[str]], Tie] = {}
    for match in micro_matches(event, size):
        knockout_round = rounds.setdefault(match.round, KnockoutRound(match.round))
        key = (match.round, frozenset((match.first, match.second)))
        if key not in ties:
            ties[key] = Tie(match.round, match.first, match.second)
            knockout_round.ties.append(ties[key])
        ties[key].parts.append(match)
    for tie in ties.values():
        _decide(tie)
    order = list(rounds.values())
    for before, after in pairwise(order):
        playing = {p for t in after.ties for p in (t.first, t.second)}
        for tie in before.ties:
            if tie.winner is None:
                continue
            loser = tie.second if tie.winner == tie.first else tie.first
            if tie.winner not in playing:
                after.problems.append(N_("{name} won in round {before} but does not play "
                                         "round {after}").format(
                    name=tie.winner, before=before.name, after=after.name))
            if loser in playing:
                after.problems.append(N_("{name} lost in round {before} but plays round "
                                         "{after}").format(
                    name=loser, before=before.name, after=after.name))
    return order


__all__ = ["KnockoutRound", "Tie", "bracket"]
