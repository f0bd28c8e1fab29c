"""Micro-matches: two or more games between the same pair, played in succession with the
colours swapped, won on the sum of their games (the Russian draughts code of 2002, as
digested in ``docs/tournaments.md``), and the standings by micro-match and game points.

A micro-match is found from the ``Round`` tags (``"3.1"``, ``"3.2"``: round 3, its first
and second game), else from consecutive games of the same pair; ``size`` (the games the
regulations declare) cuts a longer run into micro-matches of that many games, the ones
after the first being the continuation of a tied micro-match.

>>> from pdn.reader import read_games
>>> from replay.tournament.event import read_event
>>> text = ('[White "Ann"][Black "Bob"][Round "1.1"][Result "2-0"] 1. 32-28 *'
...         '[White "Bob"][Black "Ann"][Round "1.2"][Result "1-1"] 1. 32-28 *')
>>> [(m.first, m.second, m.score) for m in micro_matches(read_event(read_games(text)))]
[('Ann', 'Bob', (3, 1))]
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from replay.tournament.event import Event, Pairing
from replay.tournament.scoring import FMJD, Scoring
from replay.tournament.tables import shared_places

_ROUND_GAME = re.compile(r"^\s*(\d+)\s*[.:/]\s*(\d+)\s*$")
# micro-match points: a won micro-match 2, a drawn 1, a lost 0 (unchecked, docs/tournaments.md)
MATCH_WIN, MATCH_DRAW = 2, 1


def round_and_game(round_tag: str | None) -> tuple[str | None, int | None]:
    """``"3.2"`` → ``("3", 2)``; another Round tag → ``(tag, None)``."""
    match = _ROUND_GAME.match(round_tag or "")
    if match:
        return match[1], int(match[2])
    return round_tag, None


@dataclass
class MicroMatch:
    """The games of one pair in one round; ``first`` had White in the first game."""

    round: str | None
    first: str
    second: str
    games: list[Pairing] = field(default_factory=list)
    part: int = 1  # 2, 3, ...: the continuation of a tied micro-match
    scoring: Scoring = FMJD

    @property
    def score(self) -> tuple[float, float]:
        """Each player's game points (finished games only), ``first`` first."""
        return self._points(self.first), self._points(self.second)

    def _points(self, player: str) -> float:
        total = sum(self.scoring.points(g.outcome, g.white == player) or 0 for g in self.games)
        return int(total) if total == int(total) else total

    @property
    def finished(self) -> bool:
        return all(game.finished for game in self.games)

    @property
    def winner(self) -> str | None:
        """The player with more game points; None when level or unfinished."""
        a, b = self.score
        if not self.finished or a == b:
            return None
        return self.first if a > b else self.second


def micro_matches(event: Event, size: int | None = None) -> list[MicroMatch]:
    """The event's micro-matches in the order their first games were played."""
    tagged = [round_and_game(p.round) for p in event.pairings]
    by_round = all(game is not None for _, game in tagged) and bool(tagged)
    runs: list[tuple[str | None, list[Pairing]]] = []
    if by_round:
        index: dict[tuple[str | None, frozenset[str]], int] = {}
        for pairing, (number, _) in zip(event.pairings, tagged, strict=True):
            key = (number, frozenset((pairing.white, pairing.black)))
            if key not in index:
                index[key] = len(runs)
                runs.append((number, []))
            runs[index[key]][1].append(pairing)
    else:
        for pairing in event.pairings:
            pair = frozenset((pairing.white, pairing.black))
            last = runs[-1][1] if runs else None
            if last and frozenset((last[0].white, last[0].black)) == pair:
                last.append(pairing)
            else:
                runs.append((pairing.round, [pairing]))
    found = []
    for number, games in runs:
        games.sort(key=lambda p: (round_and_game(p.round)[1] or 0, p.number))
        chunks = [games] if not size else [games[i:i + size]
                                           for i in range(0, len(games), size)]
        for part, chunk in enumerate(chunks, 1):
            found.append(MicroMatch(number, chunk[0].white, chunk[0].black, chunk, part,
                                    event.scoring))
    return found


def usual_size(matches: list[MicroMatch]) -> int | None:
    """The number of games most micro-matches have (None without micro-matches)."""
    sizes = Counter(len(m.games) for m in matches if m.part == 1)
    return sizes.most_common(1)[0][0] if sizes else None


@dataclass
class MatchRow:
    """One player's line of the standings by micro-matches."""

    player: str
    match_points: float = 0
    game_points: float = 0
    matches: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    place: str = ""


def match_standings(event: Event, matches: list[MicroMatch]) -> list[MatchRow]:
    """Players by micro-match points, then game points, then micro-matches won; players
    level on all three share a place. Unfinished micro-matches count their games' points
    but no micro-match points."""
    rows = {p: MatchRow(p) for p in event.players}
    for match in matches:
        a, b = match.score
        for player, mine, theirs in ((match.first, a, b), (match.second, b, a)):
            row = rows[player]
            row.game_points += mine
            if not match.finished:
                continue
            count_match(row, mine, theirs)
    key = {p: (r.match_points, r.game_points, r.won) for p, r in rows.items()}
    ordered = sorted(rows.values(), key=lambda r: (tuple(-v for v in key[r.player]), r.player))
    for row, place in zip(ordered, shared_places([key[r.player] for r in ordered]),
                          strict=True):
        row.place = place
    return ordered


class MatchTally(Protocol):
    """A line of standings that counts finished matches: a player's (``MatchRow``) or a
    team's (``replay.tournament.teams.TeamRow``)."""

    match_points: float
    matches: int
    won: int
    drawn: int
    lost: int


def count_match(row: MatchTally, mine: float, theirs: float) -> None:
    """A finished match in ``row`` (a player's or a team's): played, and won, drawn or lost
    with its match points."""
    row.matches += 1
    if mine > theirs:
        row.won, row.match_points = row.won + 1, row.match_points + MATCH_WIN
    elif mine == theirs:
        row.drawn, row.match_points = row.drawn + 1, row.match_points + MATCH_DRAW
    else:
        row.lost += 1


__all__ = ["MATCH_DRAW", "MATCH_WIN", "MatchRow", "MatchTally", "MicroMatch", "count_match",
           "match_standings", "micro_matches", "round_and_game", "usual_size"]
