"""The event report (``replay.tournament.report``) as JSON-ready rows and as HTML sections
of the standings page (``replay.tournament.pages``: same style, each table in its own
section so that the page's other tables are left as they are)."""

from __future__ import annotations

from functools import partial
from html import escape
from typing import TYPE_CHECKING

from pdn.i18n import N_, catalog
from replay.tournament.checks import KIND_TITLES, break_counts
from replay.tournament.micromatch import MicroMatch
from replay.tournament.report import EventReport, ballot_line
from replay.tournament.teams import scheveningen
from replay.tournament.timecontrol import FlagFall

if TYPE_CHECKING:
    from pdn.i18n import Catalog

ENGLISH = catalog("en")


def _text(report: EventReport, points: float | None) -> str:
    return "*" if points is None else report.event.scoring.text(points)


def game_scores(report: EventReport, match: MicroMatch) -> list[str]:
    """Each game of a micro-match as ``first-second`` points (``2-0``, ``1-1``, ``*``)."""
    scoring = report.event.scoring
    found = []
    for game in match.games:
        white = game.white == match.first
        mine, theirs = scoring.points(game.outcome, white), scoring.points(game.outcome, not white)
        found.append("*" if mine is None else f"{scoring.text(mine)}-{scoring.text(theirs)}")
    return found


def flag_fall_said(report: EventReport, fall: FlagFall, words: Catalog = ENGLISH) -> str:
    """A flag fall with its game's players and round, in the language of ``words``
    (English by default)."""
    return (words.localize(report.event.pairings[fall.game - 1].title()) + ": "
            + words.localize(fall.what()))


def never_met_said(report: EventReport, words: Catalog) -> str:
    """The micro-matches of the schedule that the file has no game of, in a sentence."""
    missing = words.ngettext("{count} micro-match not in the file: {pairs}",
                             "{count} micro-match(es) not in the file: {pairs}",
                             len(report.never_met))
    return missing.format(count=len(report.never_met),
                          pairs="; ".join(f"{a} - {b}" for a, b in report.never_met))


def breaks_summary(report: EventReport, words: Catalog | None = None) -> str:
    """The breaks of the micro-match rules counted by kind (``3 break(s) of the micro-match
    rules: 2 colours not swapped, 1 not the declared number of games``), in the language of
    ``words`` (English without)."""
    say = words.gettext if words is not None else str
    counts = break_counts(report.breaks)
    checked = say(CHECKED_BALLOTS if report.ballots_checked else CHECKED)
    if not counts:
        return say(N_("no break of the micro-match rules ({checked})")).format(checked=checked)
    ngettext = words.ngettext if words is not None else _english_plural
    return (ngettext("{count} break of the micro-match rules ({checked}): {kinds}",
                   "{count} break(s) of the micro-match rules ({checked}): {kinds}",
                   len(report.breaks))
            .format(count=len(report.breaks), checked=checked,
                    kinds=", ".join(f"{n} {say(KIND_TITLES[kind])}"
                                    for kind, n in counts.items())))


CHECKED = N_("games as declared, colours swapped")
CHECKED_BALLOTS = N_("games as declared, colours swapped, each pair of games from one ballot")


def _english_plural(singular: str, plural: str, n: int) -> str:
    """The English text of a plural message: the way it has always read, ``break(s)``."""
    return plural


def match_rows(report: EventReport) -> list[dict[str, object]]:
    """One dict per micro-match: round, part, first, second, games, results, score,
    ballots."""
    rows = []
    for match in report.matches:
        a, b = match.score
        rows.append({"round": match.round, "part": match.part, "first": match.first,
                     "second": match.second, "games": [g.number for g in match.games],
                     "results": game_scores(report, match),
                     "score": [a, b], "winner": match.winner, "finished": match.finished,
                     "ballots": [report.ballots.get(g.number) for g in match.games]})
    return rows


def report_json(report: EventReport) -> dict[str, object]:
    """The report as one JSON-ready dict (keys left out where the event has nothing)."""
    found: dict[str, object] = {}
    if report.matches:
        found["micro_matches"] = {
            "games_each": report.declared, "matches": match_rows(report),
            "standings": [dict(vars(row)) for row in report.match_rows],
            "not_played": [list(pair) for pair in report.never_met],
            "break_counts": break_counts(report.breaks),
            "ballots": _ballots_json(report),
            "breaks": [{"kind": b.kind, "round": b.round, "players": list(b.players),
                        "games": list(b.games), "what": b.what} for b in report.breaks]}
    if report.knockout:
        found["knockout"] = [{"round": r.name, "problems": r.problems, "ties": [
            {"first": t.first, "second": t.second, "score": list(t.score), "winner": t.winner,
             "why": t.why(), "games": [g.number for m in t.parts for g in m.games]}
            for t in r.ties]} for r in report.knockout]
    if report.teams:
        found["teams"] = {
            "players": report.teams,
            "standings": [dict(vars(row)) for row in report.team_rows],
            "matches": [{"round": m.round, "teams": list(m.teams),
                         "board_points": list(m.board_points),
                         "games": [g.number for g in m.games]} for m in report.team_matches]}
    if report.time_controls or report.flag_falls:
        found["time_controls"] = {
            "tags": [{"tag": text, "games": times, "read": str(control) if control else None}
                     for text, (control, times) in report.time_controls.items()],
            "errors": report.time_errors,
            "flag_falls": [{"game": f.game, "white": report.event.pairings[f.game - 1].white,
                            "black": report.event.pairings[f.game - 1].black, "move": f.move,
                            "side": "white" if f.white else "black", "result": f.result,
                            "contradicted": f.contradicted} for f in report.flag_falls]}
    return found


def _ballots_json(report: EventReport) -> dict[str, object]:
    evidence = report.ballot_evidence
    return {"checked": report.ballots_checked, "declared": report.ballots_declared,
            "why": ballot_line(report),
            **({"games": evidence.games, "from_table": evidence.in_table,
                "pairs": evidence.pairs, "pairs_same_start": evidence.same_start,
                "plies": evidence.plies} if evidence else {})}


def _table(table_id: str, heads: list[str], rows: list[list[object]], numeric: set[int]) -> str:
    head = "".join(f'<th{" class=num" if k in numeric else ""}>{escape(h)}</th>'
                   for k, h in enumerate(heads))
    body = "".join("<tr>" + "".join(
        f'<td{" class=num" if k in numeric else ""}>{escape("" if v is None else str(v))}</td>'
        for k, v in enumerate(row)) + "</tr>" for row in rows)
    return (f'<div class="scroll"><table id="{table_id}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table></div>")


def _list(items: list[str], css: str = "note") -> str:
    return f'<ul class="{css}">' + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


# The words of the report's sections (the standings page's: replay.tournament.pages)
MICRO_MATCHES, KNOCKOUT, TEAMS = N_("Micro-matches"), N_("Knockout"), N_("Teams")
TIME_CONTROLS = N_("Time controls")
MATCHES_PLAYED = N_("{matches} of {games} · a won micro-match 2 points, drawn 1, lost 0")
BY_MICRO_MATCHES, MATCH_TABLE = N_("Standings by micro-matches"), N_("Table of micro-matches")
FIRST_NOTE = N_("First: the player with White in the micro-match's first game; each game's "
                "result from the first player's side.")
CHECKS, BALLOT_NAMES = N_("Arbiter's checks"), N_(
    "Ballots are named from the FMJD Drawing Table 64, '-' when not in it.")
TEAM_MATCHES, SCHEVENINGEN = N_("Team matches"), N_("Scheveningen: {first} against {second}")
NO_TIME_CONTROL, FLAG_FALLS = N_("No TimeControl tag in the games."), N_("Flag falls")
CONTINUED, NOT_READ = N_("{round} (cont. {part})"), N_("not read")
HEADS = {"Player": N_("Player"), "Match pts": N_("Match pts"), "Game pts": N_("Game pts"),
         "Matches": N_("Matches"), "W": N_("W"), "D": N_("D"), "L": N_("L"),
         "Round": N_("Round"), "First": N_("First"), "Second": N_("Second"),
         "Games": N_("Games"), "Results": N_("Results"), "Score": N_("Score"),
         "Ballots": N_("Ballots"), "Opponent": N_("Opponent"), "Through": N_("Through"),
         "Why": N_("Why"), "Team": N_("Team"), "Board pts": N_("Board pts"),
         "Players": N_("Players"), "Board points": N_("Board points"), "Points": N_("Points"),
         "Read as": N_("Read as")}  # "#" and "TimeControl" (a tag's name) stay as they are


def _heads(words: Catalog, heads: list[str]) -> list[str]:
    return [words.gettext(HEADS[head]) if head in HEADS else head for head in heads]


def _micro_match_html(report: EventReport, words: Catalog) -> str:
    text, say = partial(_text, report), words.gettext
    played = say(MATCHES_PLAYED).format(
        matches=words.ngettext("{count} micro-match", "{count} micro-matches",
                               len(report.matches)).format(count=len(report.matches)),
        games=words.ngettext("{count} game", "{count} games", report.declared or 0).format(
            count=report.declared))
    parts = [f'<section class="event" id="micro-matches"><h2>{escape(say(MICRO_MATCHES))}'
             f"</h2><p>{escape(played)}</p>",
             f"<h3>{escape(say(BY_MICRO_MATCHES))}</h3>",
             _table("micro-match-standings", _heads(words, [
                 "#", "Player", "Match pts", "Game pts", "Matches", "W", "D", "L"]),
                    [[r.place, r.player, text(r.match_points), text(r.game_points), r.matches,
                      r.won, r.drawn, r.lost] for r in report.match_rows],
                    {2, 3, 4, 5, 6, 7})]
    if report.never_met:
        parts.append('<p class="incomplete" id="not-played">'
                     + escape(never_met_said(report, words)) + "</p>")
    parts.append(f"<h3>{escape(say(MATCH_TABLE))}</h3>")
    parts.append(f"<p class=note>{escape(say(FIRST_NOTE))}</p>")
    parts.append(_table("micro-match-table", _heads(words, [
        "Round", "First", "Second", "Games", "Results", "Score", "Ballots"]),
                        [[m.round if m.part == 1 else say(CONTINUED).format(
                            round=m.round, part=m.part - 1),
                          m.first, m.second, " ".join(str(g.number) for g in m.games),
                          " ".join(game_scores(report, m)),
                          f"{text(m.score[0])}-{text(m.score[1])}",
                          " ".join(report.ballots.get(g.number) or "-" for g in m.games)]
                         for m in report.matches], {5}))
    parts.append(f'<h3>{escape(say(CHECKS))}</h3><p id="breaks-count">'
                 f"{escape(breaks_summary(report, words))}</p>"
                 f'<p id="ballot-check">{escape(words.localize(ballot_line(report)))} '
                 f"{escape(say(BALLOT_NAMES))}</p>")
    if report.breaks:
        parts.append('<div id="breaks">' + _list([words.localize(str(b))
                                                  for b in report.breaks]) + "</div>")
    parts.append("</section>")
    return "".join(parts)


def _knockout_html(report: EventReport, words: Catalog) -> str:
    text = partial(_text, report)
    parts = [f'<section class="event" id="knockout"><h2>{escape(words.gettext(KNOCKOUT))}'
             "</h2>"]
    rows = []
    for knockout_round in report.knockout:
        for tie in knockout_round.ties:
            a, b = tie.score
            rows.append([knockout_round.name, tie.first, tie.second, f"{text(a)}-{text(b)}",
                         tie.winner or "", words.localize(tie.why())])
    parts.append(_table("bracket", _heads(words, ["Round", "Player", "Opponent", "Score",
                                                  "Through", "Why"]), rows, {3}))
    problems = [words.localize(p) for r in report.knockout for p in r.problems]
    if problems:
        parts.append(f'<div class="incomplete">{_list(problems, "incomplete")}</div>')
    parts.append("</section>")
    return "".join(parts)


def _teams_html(report: EventReport, words: Catalog) -> str:
    text, say = partial(_text, report), words.gettext
    parts = [f'<section class="event" id="teams"><h2>{escape(say(TEAMS))}</h2>',
             _table("team-standings", _heads(words, [
                 "#", "Team", "Match pts", "Board pts", "Matches", "W", "D", "L", "Players"]),
                    [[r.place, r.team, text(r.match_points), text(r.board_points), r.matches,
                      r.won, r.drawn, r.lost, ", ".join(r.players)] for r in report.team_rows],
                    {2, 3, 4, 5, 6, 7}),
             f"<h3>{escape(say(TEAM_MATCHES))}</h3>",
             _table("team-matches", _heads(words, ["Round", "Team", "Team", "Board points",
                                                   "Games"]),
                    [[m.round, m.teams[0], m.teams[1],
                      f"{text(m.board_points[0])}-{text(m.board_points[1])}",
                      " ".join(str(g.number) for g in m.games)] for m in report.team_matches],
                    set())]
    met = sorted({m.teams for m in report.team_matches})
    for first, second in met:
        rows, columns, cells = scheveningen(report.event, report.teams, first, second)
        body = [[player, *(" ".join(text(p) for p in cell) for cell in line),
                 text(sum(p or 0 for cell in line for p in cell))]
                for player, line in zip(rows, cells, strict=True)]
        parts.append(f"<h3>{escape(say(SCHEVENINGEN).format(first=first, second=second))}"
                     "</h3>")
        parts.append(_table(f"scheveningen-{len(parts)}", [first, *columns, say(
            HEADS["Points"])], body, set(range(1, len(columns) + 2))))
    parts.append("</section>")
    return "".join(parts)


def _time_html(report: EventReport, words: Catalog) -> str:
    say = words.gettext
    parts = [f'<section class="event" id="time-controls"><h2>{escape(say(TIME_CONTROLS))}'
             "</h2>"]
    if report.time_controls:
        parts.append(_table("time-control-table", _heads(words, ["TimeControl", "Read as",
                                                                 "Games"]),
                            [[text, control.said(say) if control else say(NOT_READ), times]
                             for text, (control, times) in report.time_controls.items()],
                            {2}))
    else:
        parts.append(f"<p>{escape(say(NO_TIME_CONTROL))}</p>")
    if report.time_errors:
        parts.append(_list([words.localize(error) for error in report.time_errors],
                           "incomplete"))
    if report.flag_falls:
        parts.append(f'<h3>{escape(say(FLAG_FALLS))}</h3><ul id="flag-falls">' + "".join(
            f'<li{" class=incomplete" if f.contradicted else ""}>'
            f"{escape(flag_fall_said(report, f, words))}</li>" for f in report.flag_falls)
            + "</ul>")
    parts.append("</section>")
    return "".join(parts)


# The report's tables fit their columns (the page's style spreads a table over the width).
SECTION_STYLE = ("<style>section.event table{width:auto;min-width:40%}"
                 "section.event .num{text-align:right}"
                 "section.event ul{padding-left:1.2em}"
                 "section.event .incomplete{color:#b00;font-weight:600}</style>")


def report_html(report: EventReport, words: Catalog = ENGLISH) -> str:
    """The report's sections of the standings page ('' when the event has none), in the
    language of ``words`` (English by default)."""
    parts = [SECTION_STYLE]
    if report.matches:
        parts.append(_micro_match_html(report, words))
    if report.knockout:
        parts.append(_knockout_html(report, words))
    if report.teams:
        parts.append(_teams_html(report, words))
    if report.time_controls or report.flag_falls:
        parts.append(_time_html(report, words))
    return "".join(parts) if len(parts) > 1 else ""


__all__ = ["breaks_summary", "flag_fall_said", "game_scores", "match_rows", "report_html",
           "report_json"]
