"""The arbiter's checks of micro-matches: the number of games as declared, the colours
swapped from one game to the next, and, where the event was played on drawn ballots, each
pair of games (1-2, 3-4, ...) started from the same ballot, the ballot named from the FMJD
Drawing Table 64 (``replay.reference.ballots``) or said to be outside it. Every break is reported
with its kind, round and players; ``break_counts`` sums them up by kind.

>>> from replay.tournament.micromatch import MicroMatch
>>> from replay.tournament.event import Pairing
>>> games = [Pairing(1, "Ann", "Bob", "draw", "1.1"), Pairing(2, "Bob", "Ann", "draw", "1.2")]
>>> openings = {1: ["c3-d4", "f6-g5", "b2-c3"], 2: ["c3-d4", "f6-g5", "b2-c3"]}
>>> check_micro_matches([MicroMatch("1", "Ann", "Bob", games)], openings, 2, 3)
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from pdn.game import Game
from pdn.i18n import N_
from replay.reference.ballots import BALLOT_PLIES, ballot_of, fmjd_ballots
from replay.tournament.micromatch import MicroMatch

# The first moves a ballot fixes when it is not one of the table's: "the first two or three
# moves" (the Russian code of 2002, docs/tournaments.md), three plies: White, Black, White.
DEFAULT_BALLOT_PLIES = 3


# The kinds of break, as the summary names them
GAMES, COLOURS, UNREAD, BALLOT = "games", "colours", "opening", "ballot"
KIND_TITLES = {GAMES: N_("not the declared number of games"), COLOURS: N_("colours not swapped"),
               UNREAD: N_("opening not read"), BALLOT: N_("not the same ballot")}


@dataclass(frozen=True)
class Break:
    """One rule of the micro-match broken: where, who, which games, what (of which kind)."""

    round: str | None
    players: tuple[str, str]
    games: tuple[int, ...]
    what: str
    kind: str  # GAMES, COLOURS, UNREAD or BALLOT

    def __str__(self) -> str:
        several = len(self.games) > 1
        if self.round:
            written = (N_("round {round}, {one} - {two} (games {numbers}): {reason}") if several
                       else N_("round {round}, {one} - {two} (game {numbers}): {reason}"))
        else:
            written = (N_("{one} - {two} (games {numbers}): {reason}") if several
                       else N_("{one} - {two} (game {numbers}): {reason}"))
        return written.format(round=self.round, one=self.players[0], two=self.players[1],
                              numbers=", ".join(map(str, self.games)), reason=self.what)


def opening_plies(game: Game, plies: int = BALLOT_PLIES) -> list[str] | None:
    """The game's first plies in full notation (``c3-d4``), None when it starts from a
    set-up position or its first moves do not replay."""
    from replay.record.board import Board
    from replay.record.notation import full_text
    from replay.record.replayer import replay_game

    if game.tags.get("FEN"):
        return None
    replayed = replay_game(game)
    board = Board(replayed.variant, replayed.start)
    texts = []
    for move in replayed.moves[:plies]:
        texts.append(full_text(board, move))
        board.push(move)
    return texts if texts else None


def ballot_name(opening: Sequence[str] | None) -> str | None:
    """The FMJD-64 code of the ballot an opening starts with, if the table has one."""
    return ballot_of(list(opening)) if opening else None


def _ballot_length(opening: Sequence[str], fixed: int) -> int:
    code = ballot_name(opening)
    if code is None:
        return fixed
    return next(len(moves) for moves, name in fmjd_ballots().items() if name == code)


def check_micro_matches(matches: Sequence[MicroMatch], openings: Mapping[int, list[str] | None],
                        declared: int | None, ballot_plies: int = DEFAULT_BALLOT_PLIES,
                        ballots: bool = True) -> list[Break]:
    """The breaks of every micro-match (continuations are checked for colours and ballots,
    not for their number of games). ``openings``: each game's first plies by game number;
    ``ballots``: check that each pair of games starts from one ballot."""
    breaks: list[Break] = []
    for match in matches:
        players = (match.first, match.second)
        numbers = tuple(g.number for g in match.games)
        if declared and match.part == 1 and len(match.games) != declared:
            breaks.append(Break(match.round, players, numbers,
                                N_("{count} game(s), {declared} declared").format(
                                    count=len(match.games), declared=declared), GAMES))
        for before, after in pairwise(match.games):
            if (before.white, before.black) != (after.black, after.white):
                breaks.append(Break(match.round, players, (before.number, after.number),
                                    N_("the colours are not swapped"), COLOURS))
        if ballots:
            breaks += _ballot_breaks(match, openings, ballot_plies)
    return breaks


def _ballot_breaks(match: MicroMatch, openings: Mapping[int, list[str] | None],
                   ballot_plies: int) -> list[Break]:
    """Games 1-2, 3-4, ... of a micro-match that do not start from one ballot."""
    breaks = []
    players = (match.first, match.second)
    for one, two in zip(match.games[::2], match.games[1::2], strict=False):
        first, second = openings.get(one.number), openings.get(two.number)
        pair = (one.number, two.number)
        if not first or not second:
            breaks.append(Break(match.round, players, pair,
                                N_("the opening cannot be read (no moves, or a set-up "
                                   "position)"),
                                UNREAD))
            continue
        length = _ballot_length(first, ballot_plies)
        name = ballot_name(first)
        if list(first[:length]) != list(second[:length]):
            written = N_("not the same ballot: {moves} (ballot {ballot}) against {other}") if name \
                else N_("not the same ballot: {moves} (not in the FMJD-64 table) against {other}")
            breaks.append(Break(match.round, players, pair, written.format(
                moves=" ".join(first[:length]), ballot=name, other=" ".join(second[:length])),
                BALLOT))
    return breaks


def break_counts(breaks: Sequence[Break]) -> dict[str, int]:
    """How many breaks of each kind, in the order of ``KIND_TITLES``."""
    counted = Counter(b.kind for b in breaks)
    return {kind: counted[kind] for kind in KIND_TITLES if counted[kind]}


@dataclass(frozen=True)
class BallotEvidence:
    """What the games show of ballots: how many start from a ballot of the FMJD table, how
    many pairs of games (1-2, 3-4, ... of a micro-match) start with the same moves."""

    games: int
    in_table: int
    pairs: int
    same_start: int
    plies: int

    @property
    def played_on_ballots(self) -> bool:
        """Most games start from a table ballot, or most pairs of games alike."""
        return self.in_table * 2 > self.games or self.same_start * 2 > self.pairs

    def __str__(self) -> str:
        return N_("{in_table} of {games} games start from a ballot of the FMJD Drawing Table "
                  "64; {same} of {pairs} pairs of games start with the same {length} moves"
                  ).format(in_table=self.in_table, games=self.games, same=self.same_start,
                           pairs=self.pairs, length=self.plies)


def ballot_evidence(matches: Sequence[MicroMatch], openings: Mapping[int, list[str] | None],
                    ballot_plies: int = DEFAULT_BALLOT_PLIES) -> BallotEvidence:
    """Whether the games look played on drawn ballots (``BallotEvidence``)."""
    numbers = [g.number for m in matches for g in m.games]
    in_table = sum(ballot_name(openings.get(n)) is not None for n in numbers)
    pairs = same = 0
    for match in matches:
        for one, two in zip(match.games[::2], match.games[1::2], strict=False):
            first, second = openings.get(one.number), openings.get(two.number)
            pairs += 1
            same += bool(first and second and first[:ballot_plies] == second[:ballot_plies])
    return BallotEvidence(len(numbers), in_table, pairs, same, ballot_plies)


def ballots_used(matches: Sequence[MicroMatch], openings: Mapping[int, list[str] | None]
                 ) -> dict[int, str | None]:
    """Each game's FMJD-64 ballot code (None: not in the table)."""
    return {g.number: ballot_name(openings.get(g.number)) for m in matches for g in m.games}


__all__ = ["BALLOT", "COLOURS", "DEFAULT_BALLOT_PLIES", "GAMES", "KIND_TITLES", "UNREAD",
           "BallotEvidence", "Break", "ballot_evidence", "ballot_name", "ballots_used",
           "break_counts", "check_micro_matches", "opening_plies"]
