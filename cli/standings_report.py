"""``pdn standings`` on the terminal: the event report's tables after the standings
(micro-matches and their checks, knockout, teams, time controls; docs/tournaments.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from replay.tournament.report import EventReport

NUMERIC = frozenset({"MP", "GP", "M", "W", "D", "L", "BP", "Pts", "Score", "Games"})
FIRST_BREAKS = 5  # the breaks listed on the terminal without --all-breaks


def print_report(report: EventReport, all_breaks: bool = False) -> None:
    """Print each part of the report the event has (the first breaks of the micro-match
    rules, or every one with ``all_breaks``)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from replay.tournament.report_pages import flag_fall_text, game_scores
    from replay.tournament.teams import scheveningen

    console = Console(highlight=False)
    text = report.event.scoring.text

    def table(title: str, heads: list[str], rows: list[list[object]]) -> None:
        shown = Table(title=title, title_justify="left")
        for head in heads:
            shown.add_column(head, justify="right" if head in NUMERIC else "left")
        for row in rows:
            shown.add_row(*(escape("" if v is None else str(v)) for v in row))
        console.print(shown)

    if report.matches:
        table(f"Standings by micro-matches ({report.declared} games each; won 2, drawn 1)",
              ["#", "Player", "MP", "GP", "M", "W", "D", "L"],
              [[r.place, r.player, text(r.match_points), text(r.game_points), r.matches,
                r.won, r.drawn, r.lost] for r in report.match_rows])
        table("Micro-matches", ["Round", "First", "Second", "Results", "Score", "Ballots"],
              [[m.round if m.part == 1 else f"{m.round} (cont. {m.part - 1})", m.first,
                m.second, " ".join(game_scores(report, m)),
                f"{text(m.score[0])}-{text(m.score[1])}",
                " ".join(report.ballots.get(g.number) or "-" for g in m.games)]
               for m in report.matches])
        if report.never_met:
            console.print(f"[red]{len(report.never_met)} micro-match(es) not in the file: "
                          + escape("; ".join(f"{a} - {b}" for a, b in report.never_met))
                          + "[/red]")
        _print_checks(console, report, all_breaks)
    if report.knockout:
        table("Knockout", ["Round", "Player", "Opponent", "Score", "Through", "Why"],
              [[r.name, t.first, t.second, f"{text(t.score[0])}-{text(t.score[1])}",
                t.winner or "", t.why()] for r in report.knockout for t in r.ties])
        for problem in (p for r in report.knockout for p in r.problems):
            console.print(f"[red]{escape(problem)}[/red]")
    if report.teams:
        table("Teams", ["#", "Team", "MP", "BP", "M", "W", "D", "L"],
              [[r.place, r.team, text(r.match_points), text(r.board_points), r.matches,
                r.won, r.drawn, r.lost] for r in report.team_rows])
        for first, second in sorted({m.teams for m in report.team_matches}):
            rows, columns, cells = scheveningen(report.event, report.teams, first, second)
            table(f"Scheveningen: {first} against {second}", ["Player", *columns, "Pts"],
                  [[player, *(" ".join("*" if p is None else text(p) for p in cell)
                              for cell in line),
                    text(sum(p or 0 for cell in line for p in cell))]
                   for player, line in zip(rows, cells, strict=True)])
    if report.time_controls:
        table("Time controls", ["TimeControl", "Read as", "Games"],
              [[tag, str(control) if control else "not read", times]
               for tag, (control, times) in report.time_controls.items()])
    for error in report.time_errors:
        console.print(f"[red]{escape(error)}[/red]")
    for fall in report.flag_falls:
        colour = "red" if fall.contradicted else "default"
        console.print(f"[{colour}]{escape(flag_fall_text(report, fall))}[/{colour}]")


def _print_checks(console, report: EventReport, all_breaks: bool) -> None:
    """The arbiter's checks: the breaks counted by kind, the first few (or all), and the
    line on the ballot check."""
    from rich.markup import escape

    from replay.tournament.report import ballot_line
    from replay.tournament.report_pages import breaks_summary

    console.print(f"Arbiter's checks: {escape(breaks_summary(report))}")
    shown = report.breaks if all_breaks else report.breaks[:FIRST_BREAKS]
    for item in shown:
        console.print(f"  {escape(str(item))}")
    if len(shown) < len(report.breaks):
        console.print(f"  ... {len(report.breaks) - len(shown)} more: --all-breaks lists them "
                      "here, -o FILE.html or -o FILE.json in full")
    console.print(escape(ballot_line(report)))
