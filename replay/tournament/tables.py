"""Standings with tie-breaks, and the crosstable of a round robin.

Every player's row counts points, games, wins, draws and losses from the finished games,
the average rating of the opponents met (from ``WhiteRating``/``BlackRating``, else
``WhiteElo``/``BlackElo``), and a performance rating where ratings are known: the
opponents' average plus the Elo difference the score fraction implies
(``-400·log10(1/p - 1)``, capped at ±800 for a score of 100 % or 0 %). Places are shared
(``3-5``) when every tie-break leaves players level.

The tie-breaks (``TIEBREAKS``; ``docs/tournaments.md`` cites the regulations using each):

- ``wins``: the number of games won.
- ``direct``: the points scored in the games among the players still level (direct encounter).
- ``classification``: the results against the other players in the order of the
  classification, compared from the top (FMJD: "the best results obtained in order of the
  classification").
- ``sonneborn-berger`` (Berger coefficient): the sum, over the games, of the share of the
  game's points won times the opponent's final points.
- ``koya``: the points scored against the players who scored 50 % or more.
- ``solkoff`` (Buchholz): the sum of the opponents' final points.
- ``truncated-solkoff``: the same without the weakest opponent's points.
- ``median-solkoff``: without the weakest's and the strongest's points.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from replay.tournament.event import Event, Pairing

TiebreakFunction = Callable[["Table", list[str]], dict[str, object]]


@dataclass
class Row:
    """One player's line of the standings."""

    player: str
    points: float = 0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    unfinished: int = 0
    rating: int | None = None
    opponents_rating: float | None = None
    performance: int | None = None
    tiebreaks: dict[str, object] = field(default_factory=dict)
    place: str = ""
    possible: float = 0  # the points of winning every finished game

    @property
    def score_fraction(self) -> float | None:
        """The share of the possible points scored (None before any finished game)."""
        return self.points / self.possible if self.possible else None


class Table:
    """The finished games of an event per player, what every tie-break reads."""

    def __init__(self, event: Event):
        self.event = event
        self.scoring = event.scoring
        self.played: dict[str, list[tuple[str, float]]] = {p: [] for p in event.players}
        self.rows: dict[str, Row] = {p: Row(p) for p in event.players}
        ratings: dict[str, list[int]] = {p: [] for p in event.players}
        opponent_ratings: dict[str, list[int]] = {p: [] for p in event.players}
        for pairing in event.pairings:
            for me, other, white, mine, theirs in (
                    (pairing.white, pairing.black, True, pairing.white_rating,
                     pairing.black_rating),
                    (pairing.black, pairing.white, False, pairing.black_rating,
                     pairing.white_rating)):
                row = self.rows[me]
                if mine:
                    ratings[me].append(mine)
                points = self.scoring.points(pairing.outcome, white)
                if points is None:
                    row.unfinished += 1
                    continue
                self.played[me].append((other, points))
                row.points += points
                row.games += 1
                row.possible += self.scoring.win
                if points == self.scoring.win:
                    row.wins += 1
                elif points == self.scoring.draw and pairing.outcome == "draw":
                    row.draws += 1
                else:
                    row.losses += 1
                if theirs:
                    opponent_ratings[me].append(theirs)
        for player, row in self.rows.items():
            if ratings[player]:
                row.rating = round(sum(ratings[player]) / len(ratings[player]))
            known = opponent_ratings[player]
            if known and row.games:
                row.opponents_rating = sum(known) / len(known)
                row.performance = round(row.opponents_rating
                                        + _elo_difference(row.score_fraction or 0))

    def points(self, player: str) -> float:
        return self.rows[player].points


def _elo_difference(fraction: float) -> float:
    if fraction <= 0:
        return -800
    if fraction >= 1:
        return 800
    return max(-800.0, min(800.0, -400 * math.log10(1 / fraction - 1)))


# ---- tie-breaks ----------------------------------------------------------------------------


def _wins(table: Table, group: list[str]) -> dict[str, object]:
    return {p: table.rows[p].wins for p in group}


def _direct(table: Table, group: list[str]) -> dict[str, object]:
    level = set(group)
    return {p: sum(points for other, points in table.played[p] if other in level)
            for p in group}


def _classification(table: Table, group: list[str]) -> dict[str, object]:
    level = set(group)
    order = sorted((p for p in table.rows if p not in level),
                   key=lambda p: (-table.points(p), p))
    result = {}
    for player in group:
        against: dict[str, float] = {}
        for other, points in table.played[player]:
            against[other] = against.get(other, 0) + points
        result[player] = tuple(against.get(other, -1) for other in order)
    return result


def _sonneborn_berger(table: Table, group: list[str]) -> dict[str, object]:
    win = table.scoring.win
    return {p: sum(points / win * table.points(other) for other, points in table.played[p])
            for p in group}


def _koya(table: Table, group: list[str]) -> dict[str, object]:
    def strong(player: str) -> bool:
        fraction = table.rows[player].score_fraction
        return fraction is not None and fraction >= 0.5

    return {p: sum(points for other, points in table.played[p] if strong(other)) for p in group}


def _opponent_points(table: Table, player: str) -> list[float]:
    return sorted(table.points(other) for other, _ in table.played[player])


def _solkoff(cut_low: int, cut_high: int) -> TiebreakFunction:
    def solkoff(table: Table, group: list[str]) -> dict[str, object]:
        found = {}
        for player in group:
            points = _opponent_points(table, player)
            kept = points[cut_low:len(points) - cut_high] if len(points) > cut_low + cut_high \
                else []
            found[player] = sum(kept)
        return found
    return solkoff


TIEBREAKS: dict[str, TiebreakFunction] = {
    "wins": _wins,
    "direct": _direct,
    "classification": _classification,
    "sonneborn-berger": _sonneborn_berger,
    "koya": _koya,
    "solkoff": _solkoff(0, 0),
    "truncated-solkoff": _solkoff(1, 0),
    "median-solkoff": _solkoff(1, 1),
}
GROUP_TIEBREAKS = frozenset({"direct", "classification"})  # computed among the level players
TIEBREAK_ALIASES = {"sb": "sonneborn-berger", "berger": "sonneborn-berger",
                    "buchholz": "solkoff", "mutual": "direct", "head-to-head": "direct"}

# The default tie-breaks per variant family and kind of event (docs/tournaments.md).
FMJD_ROUND_ROBIN = ("wins", "direct", "classification")
FMJD_SWISS = ("truncated-solkoff", "solkoff", "wins")
RUSSIAN_ROUND_ROBIN = ("wins", "direct", "sonneborn-berger")
RUSSIAN_SWISS = ("solkoff", "wins", "direct")
ENGLISH = ("direct", "wins", "sonneborn-berger")
ENGLISH_SWISS = ("solkoff", "direct", "wins")
RUSSIAN_FAMILY = frozenset({25, 26, 29})  # Russian, Brazilian, Czech: 64-square, FMJD-64
ENGLISH_FAMILY = frozenset({21, 22, 23})


class TiebreakError(ValueError):
    """A tie-break name that is not known."""


def tiebreak_names(names: Sequence[str]) -> tuple[str, ...]:
    """Checked tie-break names (aliases allowed: sb, berger, buchholz, mutual)."""
    found = []
    for name in names:
        for part in name.split(","):
            key = part.strip().casefold()
            key = TIEBREAK_ALIASES.get(key, key)
            if not key:
                continue
            if key not in TIEBREAKS:
                raise TiebreakError(f"unknown tie-break '{part.strip()}' (known: "
                                    f"{', '.join(TIEBREAKS)})")
            found.append(key)
    return tuple(found)


def default_tiebreaks(event: Event) -> tuple[str, ...]:
    """The tie-breaks of the variant's federation for this kind of event."""
    number = event.variant.gametype.number
    robin = event.round_robin_cycles() is not None
    if number in ENGLISH_FAMILY:
        return ENGLISH if robin else ENGLISH_SWISS
    if number in RUSSIAN_FAMILY:
        return RUSSIAN_ROUND_ROBIN if robin else RUSSIAN_SWISS
    return FMJD_ROUND_ROBIN if robin else FMJD_SWISS


# ---- standings -----------------------------------------------------------------------------


@dataclass
class Standings:
    """The standings of an event: rows in order, the tie-breaks used, what is missing."""

    event: Event
    rows: list[Row]
    tiebreaks: tuple[str, ...]

    @property
    def complete(self) -> bool:
        return self.event.complete

    @property
    def unfinished(self) -> list[Pairing]:
        return self.event.unfinished


def _order(table: Table, group: list[str], tiebreaks: Sequence[str]) -> list[list[str]]:
    """The group in order, as runs of players still level after every tie-break."""
    if len(group) < 2 or not tiebreaks:
        return [sorted(group)]
    name, rest = tiebreaks[0], tiebreaks[1:]
    values = TIEBREAKS[name](table, group)
    for player in group:
        table.rows[player].tiebreaks.setdefault(name, values[player])
    runs: dict[object, list[str]] = {}
    for player in group:
        runs.setdefault(values[player], []).append(player)
    ordered = []
    for value in sorted(runs, key=_sort_key, reverse=True):
        ordered += _order(table, runs[value], rest)
    return ordered


def _sort_key(value: object):
    return value if isinstance(value, tuple) else (value,)


def standings(event: Event, tiebreaks: Sequence[str] | None = None) -> Standings:
    """The event's standings: points first, then the tie-breaks in order (the variant's
    federation's when None)."""
    chosen = tuple(tiebreaks) if tiebreaks is not None else default_tiebreaks(event)
    table = Table(event)
    by_points: dict[float, list[str]] = {}
    for player, row in table.rows.items():
        by_points.setdefault(row.points, []).append(player)
    runs = []
    for points in sorted(by_points, reverse=True):
        runs += _order(table, by_points[points], chosen)
    for name in chosen:  # every row shows the tie-breaks that do not depend on the group
        values = {} if name in GROUP_TIEBREAKS else TIEBREAKS[name](table, list(table.rows))
        for player, row in table.rows.items():
            row.tiebreaks.setdefault(name, values.get(player, ""))
    rows = [table.rows[player] for run in runs for player in run]
    places = shared_places([k for k, run in enumerate(runs) for _ in run])
    for row, place in zip(rows, places, strict=True):
        row.place = place
    return Standings(event, rows, chosen)


def shared_places(keys: Sequence[object]) -> list[str]:
    """The places of rows in order, told by their ``keys``: rows level on their key share a
    place, written ``first-last``.

    >>> shared_places([(3, 1), (2, 5), (2, 5), (1, 0)])
    ['1', '2-3', '2-3', '4']
    """
    places: list[str] = []
    first = 0
    while first < len(keys):
        last = first
        while last + 1 < len(keys) and keys[last + 1] == keys[first]:
            last += 1
        places += [str(first + 1) if last == first else f"{first + 1}-{last + 1}"] * (
            last - first + 1)
        first = last + 1
    return places


# ---- crosstable ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One game in a crosstable cell: the row player's points (None: no result yet), the
    row player's colour, and the game's number."""

    points: float | None
    white: bool
    game: int


def crosstable(result: Standings) -> list[list[list[Cell]]]:
    """``cells[i][j]``: the games of the i-th player of the standings against the j-th, in
    the order played (a double round robin keeps both), from the i-th player's side."""
    order = [row.player for row in result.rows]
    index = {player: i for i, player in enumerate(order)}
    cells: list[list[list[Cell]]] = [[[] for _ in order] for _ in order]
    scoring = result.event.scoring
    for pairing in result.event.pairings:
        w, b = index[pairing.white], index[pairing.black]
        cells[w][b].append(Cell(scoring.points(pairing.outcome, True), True, pairing.number))
        cells[b][w].append(Cell(scoring.points(pairing.outcome, False), False, pairing.number))
    return cells


__all__ = ["TIEBREAKS", "Cell", "Row", "Standings", "Table", "TiebreakError", "crosstable",
           "default_tiebreaks", "shared_places", "standings", "tiebreak_names"]
