"""``pdn standings`` on the terminal: the event report's tables after the standings
(micro-matches and their checks, knockout, teams, time controls; docs/tournaments.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pdn.i18n import N_

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.tournament.report import EventReport

NUMERIC = frozenset({"MP", "GP", "M", "W", "D", "L", "BP", "Pts", "Score", "Games"})
# the headings of the report's tables (those of the standings table: cli/standings.py)
HEADS = {"MP": N_("MP"), "GP": N_("GP"), "M": N_("M"), "BP": N_("BP"), "Round": N_("Round"),
         "First": N_("First"), "Second": N_("Second"), "Results": N_("Results"),
         "Ballots": N_("Ballots"), "Opponent": N_("Opponent"), "Through": N_("Through"),
         "Why": N_("Why"), "Team": N_("Team"), "Read as": N_("Read as")}
FIRST_BREAKS = 5  # the breaks listed on the terminal without --all-breaks


def print_report(report: EventReport, words: Catalog, all_breaks: bool = False) -> None:
    """Print each part of the report the event has (the first breaks of the micro-match
    rules, or every one with ``all_breaks``), its prose in the language of ``words``."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from replay.tournament.report_pages import flag_fall_said, game_scores, never_met_said
    from replay.tournament.teams import scheveningen

    console = Console(highlight=False)
    text = report.event.scoring.text
    say, localize = words.gettext, words.localize

    def table(title: str, heads: list[str], rows: list[list[object]]) -> None:
        shown = Table(title=escape(title), title_justify="left")
        for head in heads:
            shown.add_column(escape(say(HEADS.get(head, head))),
                             justify="right" if head in NUMERIC else "left")
        for row in rows:
            shown.add_row(*(escape("" if v is None else str(v)) for v in row))
        console.print(shown)

    if report.matches:
        table(words.ngettext("Standings by micro-matches ({count} game each; won 2, drawn 1)",
                             "Standings by micro-matches ({count} games each; won 2, drawn 1)",
                             report.declared or 0).format(count=report.declared),
              ["#", "Player", "MP", "GP", "M", "W", "D", "L"],
              [[r.place, r.player, text(r.match_points), text(r.game_points), r.matches,
                r.won, r.drawn, r.lost] for r in report.match_rows])
        table(say(N_("Micro-matches")), ["Round", "First", "Second", "Results", "Score", "Ballots"],
              [[m.round if m.part == 1 else say(N_("{round} (cont. {part})")).format(
                    round=m.round, part=m.part - 1), m.first,
                m.second, " ".join(game_scores(report, m)),
                f"{text(m.score[0])}-{text(m.score[1])}",
                " ".join(report.ballots.get(g.number) or "-" for g in m.games)]
               for m in report.matches])
        if report.never_met:
            console.print("[red]" + escape(never_met_said(report, words)) + "[/red]")
        _print_checks(console, report, words, all_breaks)
    if report.knockout:
        table(say(N_("Knockout")), ["Round", "Player", "Opponent", "Score", "Through", "Why"],
              [[r.name, t.first, t.second, f"{text(t.score[0])}-{text(t.score[1])}",
                t.winner or "", localize(t.why())] for r in report.knockout for t in r.ties])
        for problem in (p for r in report.knockout for p in r.problems):
            console.print(f"[red]{escape(localize(problem))}[/red]")
    if report.teams:
        table(say(N_("Teams")), ["#", "Team", "MP", "BP", "M", "W", "D", "L"],
              [[r.place, r.team, text(r.match_points), text(r.board_points), r.matches,
                r.won, r.drawn, r.lost] for r in report.team_rows])
        for first, second in sorted({m.teams for m in report.team_matches}):
            rows, columns, cells = scheveningen(report.event, report.teams, first, second)
            table(say(N_("Scheveningen: {first} against {second}")).format(
                first=first, second=second), ["Player", *columns, "Pts"],
                  [[player, *(" ".join("*" if p is None else text(p) for p in cell)
                              for cell in line),
                    text(sum(p or 0 for cell in line for p in cell))]
                   for player, line in zip(rows, cells, strict=True)])
    if report.time_controls:
        table(say(N_("Time controls")), ["TimeControl", "Read as", "Games"],
              [[tag, control.said(say) if control else say(N_("not read")), times]
               for tag, (control, times) in report.time_controls.items()])
    for error in report.time_errors:
        console.print(f"[red]{escape(localize(error))}[/red]")
    for fall in report.flag_falls:
        colour = "red" if fall.contradicted else "default"
        said = flag_fall_said(report, fall, words)
        console.print(f"[{colour}]{escape(said)}[/{colour}]")


def _print_checks(console, report: EventReport, words: Catalog, all_breaks: bool) -> None:
    """The arbiter's checks: the breaks counted by kind, the first few (or all), and the
    line on the ballot check."""
    from rich.markup import escape

    from replay.tournament.report import ballot_line
    from replay.tournament.report_pages import breaks_summary

    console.print(escape(words.gettext(N_("Arbiter's checks: {summary}")).format(
        summary=breaks_summary(report, words))))
    shown = report.breaks if all_breaks else report.breaks[:FIRST_BREAKS]
    for item in shown:
        console.print(f"  {escape(words.localize(str(item)))}")
    if len(shown) < len(report.breaks):
        more = len(report.breaks) - len(shown)
        console.print("  ... " + escape(words.ngettext(
            "{count} more: --all-breaks lists them here, -o FILE.html or -o FILE.json in full",
            "{count} more: --all-breaks lists them here, -o FILE.html or -o FILE.json in full",
            more).format(count=more)))
    console.print(escape(words.localize(ballot_line(report))))
