"""Team events: players grouped into teams by the ``WhiteTeam``/``BlackTeam`` tags or by a
team file, the team matches of each round with their board points (the sum of the players'
game points) and match points (a won match 2, drawn 1, lost 0), the team standings, and the
Scheveningen table of two teams (each player of one against each of the other).

>>> from pdn.reader import read_games
>>> from replay.tournament.event import read_event
>>> games = list(read_games(
...     '[White "Ann"][Black "Cas"][WhiteTeam "North"][BlackTeam "South"][Result "2-0"] *'
...     '[White "Dan"][Black "Bob"][WhiteTeam "South"][BlackTeam "North"][Result "1-1"] *'))
>>> event = read_event(games)
>>> [(m.teams, m.board_points) for m in team_matches(event, teams_from_tags(event, games))]
[(('North', 'South'), (3, 1))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pdn.game import Game
from replay.archive.tags import name_matches
from replay.tournament.event import Event, Pairing
from replay.tournament.micromatch import count_match, round_and_game
from replay.tournament.tables import shared_places


class TeamError(ValueError):
    """A team file that cannot be read, or a player in two teams."""


def teams_from_tags(event: Event, games: Sequence[Game]) -> dict[str, str]:
    """Each player's team from the WhiteTeam/BlackTeam tags (the most written one)."""
    counts: dict[str, dict[str, int]] = {}
    for game, pairing in zip(games, event.pairings, strict=True):
        for player, tag in ((pairing.white, "WhiteTeam"), (pairing.black, "BlackTeam")):
            team = (game.tags.get(tag) or "").strip()
            if team and team not in ("?", "-"):
                seen = counts.setdefault(player, {})
                seen[team] = seen.get(team, 0) + 1
    return {player: max(seen, key=seen.get) for player, seen in counts.items()}


def read_teams(path: str | Path, event: Event) -> dict[str, str]:
    """A team file: one ``PLAYER = TEAM`` a line (``#`` starts a comment), the player named
    as ``pdn filter --white`` matches names."""
    found: dict[str, str] = {}
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        name, sign, team = text.partition("=")
        if not sign or not name.strip() or not team.strip():
            raise TeamError(f"{path}, line {number}: '{text}' is not PLAYER = TEAM")
        players = [p for p in event.players if name_matches(name.strip(), p)]
        if len(players) != 1:
            what = "no player" if not players else "players " + ", ".join(players)
            raise TeamError(f"{path}, line {number}: '{name.strip()}' names {what} of the event")
        if found.get(players[0], team.strip()) != team.strip():
            raise TeamError(f"{path}, line {number}: {players[0]} is already in "
                            f"{found[players[0]]}")
        found[players[0]] = team.strip()
    return found


@dataclass
class TeamMatch:
    """One round's games between two teams."""

    round: str | None
    teams: tuple[str, str]
    games: list[Pairing] = field(default_factory=list)
    board_points: tuple[float, float] = (0, 0)

    @property
    def finished(self) -> bool:
        return all(g.finished for g in self.games)


def team_matches(event: Event, teams: dict[str, str]) -> list[TeamMatch]:
    """The team matches, by round (the number before the dot of ``Round "3.2"``) and pair
    of teams; games inside a team or of a player without a team are left out."""
    found: dict[tuple[str | None, frozenset[str]], TeamMatch] = {}
    for pairing in event.pairings:
        white, black = teams.get(pairing.white), teams.get(pairing.black)
        if not white or not black or white == black:
            continue
        number = round_and_game(pairing.round)[0]
        key = (number, frozenset((white, black)))
        match = found.setdefault(key, TeamMatch(number, tuple(sorted((white, black)))))
        match.games.append(pairing)
        a = event.scoring.points(pairing.outcome, white == match.teams[0]) or 0
        b = event.scoring.points(pairing.outcome, white != match.teams[0]) or 0
        match.board_points = (_whole(match.board_points[0] + a),
                              _whole(match.board_points[1] + b))
    return list(found.values())


def _whole(value: float) -> float:
    return int(value) if value == int(value) else value


@dataclass
class TeamRow:
    """One team's line of the team standings."""

    team: str
    match_points: float = 0
    board_points: float = 0
    matches: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    place: str = ""
    players: list[str] = field(default_factory=list)


def team_standings(matches: Sequence[TeamMatch], teams: dict[str, str]) -> list[TeamRow]:
    """Teams by match points, then board points; level on both, they share a place."""
    rows = {team: TeamRow(team) for team in sorted(set(teams.values()))}
    for player, team in sorted(teams.items()):
        rows[team].players.append(player)
    for match in matches:
        for k, team in enumerate(match.teams):
            mine, theirs = match.board_points[k], match.board_points[1 - k]
            row = rows[team]
            row.board_points = _whole(row.board_points + mine)
            if not match.finished:
                continue
            count_match(row, mine, theirs)
    ordered = sorted(rows.values(), key=lambda r: (-r.match_points, -r.board_points, r.team))
    places = shared_places([(r.match_points, r.board_points) for r in ordered])
    for row, place in zip(ordered, places, strict=True):
        row.place = place
    return ordered


def scheveningen(event: Event, teams: dict[str, str], first: str, second: str
                 ) -> tuple[list[str], list[str], list[list[list[float | None]]]]:
    """The players of ``first`` (rows) and of ``second`` (columns), and in each cell the row
    player's points in each game against the column player (None: no result)."""
    rows = sorted(p for p, t in teams.items() if t == first)
    columns = sorted(p for p, t in teams.items() if t == second)
    cells: list[list[list[float | None]]] = [[[] for _ in columns] for _ in rows]
    where = {p: i for i, p in enumerate(rows)}
    across = {p: j for j, p in enumerate(columns)}
    for pairing in event.pairings:
        for me, other, white in ((pairing.white, pairing.black, True),
                                 (pairing.black, pairing.white, False)):
            if me in where and other in across:
                cells[where[me]][across[other]].append(
                    event.scoring.points(pairing.outcome, white))
    return rows, columns, cells


__all__ = ["TeamError", "TeamMatch", "TeamRow", "read_teams", "scheveningen", "team_matches",
           "team_standings", "teams_from_tags"]
