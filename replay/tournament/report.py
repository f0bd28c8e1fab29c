"""What the arbiter's event shows beside the standings: the micro-matches with their checks,
the knockout bracket, the team tables and the time controls with the flag falls, gathered
from an event and its games (``pdn standings`` prints it, ``replay.tournament.report_pages``
writes it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from pdn.game import Game
from pdn.i18n import N_
from replay.tournament.checks import (
    DEFAULT_BALLOT_PLIES,
    BallotEvidence,
    Break,
    ballot_evidence,
    ballots_used,
    check_micro_matches,
    opening_plies,
)
from replay.tournament.event import Event
from replay.tournament.knockout import KnockoutRound, bracket
from replay.tournament.micromatch import (
    MatchRow,
    MicroMatch,
    match_standings,
    micro_matches,
    round_and_game,
    usual_size,
)
from replay.tournament.teams import (
    TeamMatch,
    TeamRow,
    team_matches,
    team_standings,
    teams_from_tags,
)
from replay.tournament.timecontrol import (
    FlagFall,
    TimeControl,
    TimeControlError,
    flag_falls,
    parse_time_control,
)


@dataclass
class EventReport:
    """The event's micro-matches, knockout, teams and time controls (each empty when the
    event has none)."""

    event: Event
    declared: int | None = None  # games per micro-match, as declared or as most have
    matches: list[MicroMatch] = field(default_factory=list)
    match_rows: list[MatchRow] = field(default_factory=list)
    breaks: list[Break] = field(default_factory=list)
    ballots_checked: bool = False
    ballots_declared: bool | None = None  # True/False as the arbiter said, None: not said
    ballot_evidence: BallotEvidence | None = None
    ballots: dict[int, str | None] = field(default_factory=dict)
    never_met: list[tuple[str, str]] = field(default_factory=list)
    knockout: list[KnockoutRound] = field(default_factory=list)
    teams: dict[str, str] = field(default_factory=dict)
    team_matches: list[TeamMatch] = field(default_factory=list)
    team_rows: list[TeamRow] = field(default_factory=list)
    time_controls: dict[str, tuple[TimeControl | None, int]] = field(default_factory=dict)
    time_errors: list[str] = field(default_factory=list)
    flag_falls: list[FlagFall] = field(default_factory=list)


def has_micro_matches(event: Event) -> bool:
    """Whether the games are micro-matches: the Round tags number them (``"3.1"``,
    ``"3.2"``: every game has such a tag and some pair plays more than one game in a
    round), or, without them, the games come in runs of one pair with the colours swapped,
    every run as long, two games or more, and more than one run."""
    tagged = [round_and_game(p.round) for p in event.pairings]
    if tagged and all(game is not None for _, game in tagged):
        pairs = Counter((number, frozenset((p.white, p.black)))
                        for p, (number, _) in zip(event.pairings, tagged, strict=True))
        return any(times > 1 for times in pairs.values())
    runs = micro_matches(event)
    swapped = all((one.white, one.black) == (two.black, two.white)
                  for run in runs for one, two in pairwise(run.games))
    return len(runs) > 1 and swapped and len({len(run.games) for run in runs}) == 1 and len(
        runs[0].games) > 1


def _time_controls(games: Sequence[Game]) -> tuple[dict[str, tuple[TimeControl | None, int]],
                                                   list[str]]:
    found: dict[str, tuple[TimeControl | None, int]] = {}
    errors = []
    for number, game in enumerate(games, 1):
        text = (game.tags.get("TimeControl") or "").strip()
        if not text:
            continue
        if text in found:
            found[text] = (found[text][0], found[text][1] + 1)
            continue
        try:
            found[text] = (parse_time_control(text), 1)
        except TimeControlError as error:
            found[text] = (None, 1)
            errors.append(N_("game {number}: {reason}").format(number=number, reason=error))
    return found, errors


def event_report(event: Event, games: Sequence[Game], *, micro_match: int | None = None,
                 knockout: bool = False, teams: dict[str, str] | None = None,
                 ballot_plies: int = DEFAULT_BALLOT_PLIES, ballots: bool | None = None
                 ) -> EventReport:
    """The report of an event read from ``games`` (in the order of ``event.pairings``).
    ``micro_match``: the games a micro-match has (else told from the Round tags);
    ``knockout``: build the bracket; ``teams``: player → team (else the Team tags);
    ``ballots``: whether the event was played on drawn ballots (None: told from the games,
    ``BallotEvidence``), the ballot check running only where it was."""
    report = EventReport(event)
    if micro_match or knockout or has_micro_matches(event):
        report.matches = micro_matches(event, micro_match)
        report.declared = micro_match or usual_size(report.matches)
        report.match_rows = match_standings(event, report.matches)
        openings = {number: opening_plies(game)
                    for number, game in enumerate(games, 1)}
        report.ballot_evidence = ballot_evidence(report.matches, openings, ballot_plies)
        report.ballots_declared = ballots
        report.ballots_checked = (report.ballot_evidence.played_on_ballots if ballots is None
                                  else ballots)
        report.breaks = check_micro_matches(report.matches, openings, report.declared,
                                            ballot_plies, report.ballots_checked)
        report.ballots = ballots_used(report.matches, openings)
        report.never_met = event.missing_meetings()
    if knockout:
        report.knockout = bracket(event, micro_match)
    report.teams = teams if teams is not None else teams_from_tags(event, games)
    if report.teams:
        report.team_matches = team_matches(event, report.teams)
        report.team_rows = team_standings(report.team_matches, report.teams)
    report.time_controls, report.time_errors = _time_controls(games)
    report.flag_falls = flag_falls(games, [p.outcome for p in event.pairings])
    return report


def ballot_line(report: EventReport) -> str:
    """One line on the ballot check: run or not, and why."""
    evidence = report.ballot_evidence
    if report.ballots_declared is not None:
        if report.ballots_declared:
            said = (N_("Ballots checked: the event was declared played on drawn ballots "
                       "({evidence}).") if report.ballots_checked else
                    N_("Ballots not checked: the event was declared played on drawn ballots "
                       "({evidence})."))
        else:
            said = (N_("Ballots checked: the event was declared not played on drawn ballots "
                       "({evidence}).") if report.ballots_checked else
                    N_("Ballots not checked: the event was declared not played on drawn "
                       "ballots ({evidence})."))
        return said.format(evidence=evidence)
    if report.ballots_checked:
        return N_("Ballots checked: the games show drawn ballots ({evidence}).").format(
            evidence=evidence)
    return N_("Ballots not checked: the event was most likely not played on drawn ballots "
              "({evidence}); --ballots checks them all the same.").format(evidence=evidence)


__all__ = ["EventReport", "ballot_line", "event_report", "has_micro_matches"]
