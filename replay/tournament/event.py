"""An event's games as a tournament: who played whom with which colour, and the results.

``read_event(games)`` takes games as ``pdn.reader`` gives them (the Result tag decides, the
movetext's result where the tag says nothing), matches the players' names
(``replay.tournament.players``), applies the arbiter's corrections and keeps the games still
without a result apart, so that a table can say it is incomplete and name them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from pdn.game import Game
from pdn.i18n import N_
from replay.archive.tags import name_matches
from replay.record.replayer import UNKNOWN, game_variant, normalise_result
from replay.rules.variants import INTERNATIONAL, Variant
from replay.tournament.players import UNKNOWN_PLAYER, Players
from replay.tournament.scoring import Correction, CorrectionError, Scoring, scoring_for
from replay.tournament.spellings import NamePair, Seat, game_rounds, probable_pairs


@dataclass(frozen=True)
class Pairing:
    """One game of the event: its players (as matched), colours, outcome and origin."""

    number: int  # the game's place in the input, from 1
    white: str
    black: str
    outcome: str  # white / black / draw / double_forfeit / unknown
    round: str | None = None
    date: str | None = None
    white_rating: int | None = None
    black_rating: int | None = None
    source: str | None = None
    written: tuple[str, str] = ("", "")  # the names as the game writes them
    corrected: str | None = None  # the correction that gave the result, if any

    @property
    def finished(self) -> bool:
        return self.outcome != UNKNOWN

    def title(self) -> str:
        written = (N_("game {number}, round {round}: {white} - {black}") if self.round
                   else N_("game {number}: {white} - {black}"))
        return written.format(number=self.number, round=self.round, white=self.white,
                              black=self.black)


@dataclass
class Event:
    """The games of one event with its scoring (``standings`` and ``crosstable`` read it)."""

    name: str
    variant: Variant
    scoring: Scoring
    pairings: list[Pairing] = field(default_factory=list)
    spellings: dict[str, list[str]] = field(default_factory=dict)
    name_pairs: list[NamePair] = field(default_factory=list)  # probably one player

    @property
    def players(self) -> list[str]:
        names = {p.white for p in self.pairings} | {p.black for p in self.pairings}
        return sorted(names)

    @property
    def unfinished(self) -> list[Pairing]:
        """The games without a result (after the corrections)."""
        return [p for p in self.pairings if not p.finished]

    @property
    def complete(self) -> bool:
        return not self.unfinished

    def meetings(self) -> dict[frozenset[str], list[Pairing]]:
        """Each pair of players with their games, in the order played."""
        found: dict[frozenset[str], list[Pairing]] = {}
        for pairing in self.pairings:
            found.setdefault(frozenset((pairing.white, pairing.black)), []).append(pairing)
        return found

    def missing_meetings(self) -> list[tuple[str, str]]:
        """The pairs of players who never met, when most pairs did (an all-play-all with
        games missing, or a name written two ways); empty for a round robin or a Swiss."""
        players, meetings = self.players, self.meetings()
        pairs = len(players) * (len(players) - 1) // 2
        if not pairs or len(meetings) * 4 < pairs * 3:
            return []
        return [(a, b) for i, a in enumerate(players) for b in players[i + 1:]
                if frozenset((a, b)) not in meetings]

    def round_robin_cycles(self) -> int | None:
        """How many times everyone met everyone (1 single, 2 double round robin), or None
        when the event is not a round robin."""
        players, meetings = self.players, self.meetings()
        if len(players) < 2 or any(len(pair) != 2 for pair in meetings):
            return None
        times = {len(games) for games in meetings.values()}
        pairs = len(players) * (len(players) - 1) // 2
        if len(meetings) != pairs or len(times) != 1:
            return None
        return times.pop()


def _known(value: str | None) -> str | None:
    text = (value or "").strip()
    return None if text in ("", "?", "-") else text


_RATING = re.compile(r"^\s*(\d{1,5})(?!\d)")


def _rating(game: Game, side: str) -> int | None:
    """A side's rating: the first number of ``WhiteRating``, else of lidraughts'
    ``WhiteElo`` (as ``replay.stats`` reads them); None when unknown or 0."""
    for tag in (f"{side}Rating", f"{side}Elo"):
        match = _RATING.match(game.tags.get(tag) or "")
        if match and int(match[1]) > 0:
            return int(match[1])
    return None


def event_names(games: Iterable[Game]) -> dict[str, int]:
    """The Event tags of the games with how many games carry each."""
    found: dict[str, int] = {}
    for game in games:
        name = (game.tags.get("Event") or "?").strip() or "?"
        found[name] = found.get(name, 0) + 1
    return found


def select_event(games: Iterable[Game], name: str | None) -> list[Game]:
    """The games of an event: every game when ``name`` is None, else the games whose Event
    tag matches it (every word of ``name`` in it, any case, or a glob)."""
    games = list(games)
    if name is None:
        return games
    return [g for g in games if name_matches(name, g.tags.get("Event"))]


def _event_variant(games: list[Game], default: Variant | None) -> Variant:
    """The variant of most of the first games (an event is played in one)."""
    found: dict[str, tuple[int, Variant]] = {}
    for game in games[:25]:
        variant = game_variant(game, default)
        times, _ = found.get(variant.name, (0, variant))
        found[variant.name] = (times + 1, variant)
    if not found:
        return default or INTERNATIONAL
    return max(found.values(), key=lambda item: item[0])[1]


def read_event(games: Iterable[Game], *, name: str | None = None,
               variant: Variant | None = None, scoring: Scoring | None = None,
               corrections: Iterable[Correction] = (), sources: Iterable[str | None] = (),
               same: dict[str, str] | None = None, default: Variant | None = None) -> Event:
    """The event the games make. ``variant``: the one to read every result in (else the
    variant most games have: GameType, else ``default``, else told from the records);
    ``sources``: each game's file, for the notes; ``same``: names the arbiter says are
    another spelling of a player (``{"Goryunov": "Gorunov"}``)."""
    games = list(games)
    origins = list(sources) or [None] * len(games)
    if variant is None:
        variant = _event_variant(games, default)
    same = {key.strip(): value.strip() for key, value in (same or {}).items()}

    def written(game: Game, side: str) -> str | None:
        name = game.tags.get(side)
        return same.get(name.strip(), name) if name else name

    players = Players(n for g in games for n in (written(g, "White"), written(g, "Black")))
    pairings = []
    for number, (game, source) in enumerate(zip(games, origins, strict=True), 1):
        white, black = written(game, "White"), written(game, "Black")
        pairings.append(Pairing(
            number, players.key(white), players.key(black),
            normalise_result(game.headers_result, variant),
            _known(game.tags.get("Round")),
            (game.tags.get("Date") or "").strip() or None,
            _rating(game, "White"), _rating(game, "Black"), source,
            ((white or "?").strip(), (black or "?").strip())))
    if name is None:
        counted = event_names(games)
        known = {k: v for k, v in counted.items() if k != "?"}
        name = max(known, key=known.get) if known else "?"
    event = Event(name, variant, scoring or scoring_for(variant), pairings, players.spellings(),
                  _name_pairs(pairings))
    for correction in corrections:
        apply_correction(event, correction)
    return event


def _name_pairs(pairings: list[Pairing]) -> list[NamePair]:
    """The players probably written two ways (``replay.tournament.spellings``), with the
    names as written for ``--same``; the rounds as ``game_rounds`` reads them."""
    written: dict[str, Counter[str]] = {}
    for pairing in pairings:
        for player, name in zip((pairing.white, pairing.black), pairing.written, strict=True):
            written.setdefault(player, Counter())[name] += 1
    rounds = game_rounds([p.round for p in pairings], [p.date for p in pairings])
    seats = [Seat(p.white, p.black, "", number) for p, number in zip(pairings, rounds,
                                                                      strict=True)
             if UNKNOWN_PLAYER not in (p.white, p.black)]
    found = []
    for pair in probable_pairs(seats):
        player = written[pair.player].most_common(1)[0][0]
        found.append(replace(pair, same=tuple((name, player) for name in written[pair.name])))
    return found


def name_pairs(games: Iterable[tuple[str | None, str | None, str | None, str | None]]
               ) -> list[NamePair]:
    """The names probably of one player among the games of one event, given as their
    (White, Black, Round, Date) tags: what ``read_event`` reports in ``Event.name_pairs``,
    for callers without the games (``pdn stats``)."""
    tags = list(games)
    players = Players(name for white, black, _, _ in tags for name in (white, black))
    return _name_pairs([
        Pairing(number, players.key(white), players.key(black), UNKNOWN, _known(round_tag),
                _known(date), written=((white or "?").strip(), (black or "?").strip()))
        for number, (white, black, round_tag, date) in enumerate(tags, 1)])


def _fits(written: str, player: str, pairing_name: str) -> bool:
    return name_matches(written, player) or name_matches(written, pairing_name)


def apply_correction(event: Event, correction: Correction) -> Pairing:
    """Give a game its result; the game is the one of those players (that colour) and round
    without a result, else the only game of them. Raises CorrectionError when none or
    several fit."""
    outcome = correction.outcome(event.variant)
    fits = [(i, p) for i, p in enumerate(event.pairings)
            if _fits(correction.white, p.white, p.written[0])
            and _fits(correction.black, p.black, p.written[1])
            and (correction.round is None or p.round == correction.round)]
    open_games = [(i, p) for i, p in fits if not p.finished]
    chosen = open_games if open_games else fits
    if len(chosen) != 1:
        what = "no game" if not chosen else f"{len(chosen)} games (" + "; ".join(
            p.title() for _, p in chosen) + "): add 'round N: '"
        raise CorrectionError(f"the result '{correction}' fits {what}")
    index, pairing = chosen[0]
    fixed = replace(pairing, outcome=outcome, corrected=str(correction))
    event.pairings[index] = fixed
    return fixed


__all__ = ["UNKNOWN_PLAYER", "CorrectionError", "Event", "Pairing", "apply_correction",
           "event_names", "name_pairs", "read_event", "select_event"]
