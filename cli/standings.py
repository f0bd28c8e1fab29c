"""``pdn standings``: the standings and crosstable of an event, with the federations'
tie-breaks (docs/tournaments.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_, SOURCE_LANGUAGE

from .common import ExitCode, escape_controls, fail
from .options import (
    EncodingOption,
    LangOption,
    PathsArgument,
    UntaggedVariantOption,
    words_for,
)
from .sources import SourceError, collect_sources, exit_if_no_sources, read_inputs

if TYPE_CHECKING:
    from pdn.i18n import Catalog

FORMATS = (".csv", ".json", ".html", ".htm", ".pdf")


KINDS = {None: N_("not a round robin"), 1: N_("round robin")}
CYCLES = N_("round robin ×{cycles}")
SHORT_HEADS = {"Pts": N_("Pts"), "G": N_("G")}  # the terminal's narrow columns


def _print_table(result, words: Catalog) -> None:
    """The standings as a table on the terminal, its headings and notes in the language of
    ``words``."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from replay.rules.variant_titles import variant_title
    from replay.tournament.pages import (
        TIEBREAK_TITLES,
        classification_note,
        incomplete_note,
        missing_note,
        name_pairs_note,
        standings_rows,
    )

    event = result.event
    console = Console(highlight=False)
    cycles = event.round_robin_cycles()
    say = words.gettext
    kind = say(KINDS[cycles]) if cycles in KINDS else say(CYCLES).format(cycles=cycles)
    variant = (event.variant.name if words.language == SOURCE_LANGUAGE
               else variant_title(event.variant.name, words))
    table = Table(title=f"{escape(escape_controls(event.name))} ({escape(kind)}, "
                  f"{escape(variant)}, {event.scoring.name})", title_justify="left")
    rows = standings_rows(result)
    rated = any(line["performance"] is not None for line in rows)
    keys = ["#", "Player", "Pts", "G", "W", "D", "L", *(("Perf.",) if rated else ()),
            *(TIEBREAK_TITLES.get(t, t) for t in result.tiebreaks)]
    heads = [key if key == "#" else say(SHORT_HEADS.get(key, key)) for key in keys]
    cells = [[str(line["place"]), line["player"], event.scoring.text(line["points"]),
              *(str(line[k]) for k in ("games", "wins", "draws", "losses")),
              *(("" if line["performance"] is None else str(line["performance"]),)
                if rated else ()),
              *(str(line[f"tb:{t}"]) for t in result.tiebreaks)] for line in rows]
    widths = [max([len(head), *(len(row[k]) for row in cells)]) for k, head in enumerate(heads)]
    for k, head in enumerate(heads):
        # every column whole but the classification: whole where it fits, cut with … where
        # the terminal is too narrow for it
        sequence = keys[k] == "Classification"
        room = console.width - 1 - sum(width + 3 for j, width in enumerate(widths) if j != k)
        table.add_column(escape(head), justify="left" if keys[k] == "Player" or sequence
                         else "right",
                         no_wrap=True, overflow="ellipsis",
                         max_width=max(6, room - 3) if sequence else None,
                         min_width=None if sequence else widths[k])
    for row in cells:
        table.add_row(*(escape(escape_controls(cell)) for cell in row))
    console.print(table)
    explained = classification_note(result, words)
    if explained:
        console.print(escape(explained))
    for line in name_pairs_note(result.event, words):
        console.print(f"[red]{escape(escape_controls(line))}[/red]", soft_wrap=True)
    for note in (incomplete_note(result, words), missing_note(result, words)):
        if note:
            console.print(f"[red]{escape(note)}[/red]")


def standings_command(
    paths: PathsArgument,
    event: Annotated[str | None, typer.Option(
        "--event", metavar="NAME", help="The games whose Event tag matches NAME (its words in "
        "any order and case, or a glob); default: every game read.")] = None,
    tiebreak: Annotated[list[str] | None, typer.Option(
        "--tiebreak", metavar="NAME[,NAME]", help="Tie-breaks in order (repeatable): wins, "
        "direct, classification, sonneborn-berger, koya, solkoff, truncated-solkoff, "
        "median-solkoff, or none; default: the variant's federation's.")] = None,
    result: Annotated[list[str] | None, typer.Option(
        "--result", metavar='"WHITE - BLACK=RESULT"', help="Give a game its result without "
        "editing the PDN (repeatable): the game of those players without a result, else "
        "their only game; 'round N: ' first when several fit.")] = None,
    corrections: Annotated[Path | None, typer.Option(
        "--corrections", metavar="FILE", help="A file of such results, one a line (# "
        "comments).")] = None,
    same: Annotated[list[str] | None, typer.Option(
        "--same", metavar='"NAME=PLAYER"', help="NAME, as written in the games, is another "
        "spelling of PLAYER (repeatable): a transliteration that matching names cannot "
        "know (Goryunov=Gorunov). Names probably of one player are reported with these "
        "options to paste, never merged unasked.")] = None,
    micro_match: Annotated[int | None, typer.Option(
        "--micro-match", metavar="N", min=1, help="Each meeting is a micro-match of N games "
        "(colours swapped): the micro-match table and standings, the arbiter's checks of "
        "each (N games, colours, the same ballot); default: told from Round tags '3.1', "
        "'3.2', ... when they number micro-matches.")] = None,
    ballots: Annotated[bool | None, typer.Option(
        "--ballots/--no-ballots", help="The event was (or was not) played on drawn ballots: "
        "check (or not) that games 1-2, 3-4, ... of each micro-match start from one ballot; "
        "default: checked where most games start from a ballot of the FMJD table or most "
        "pairs of games alike.", show_default=False)] = None,
    all_breaks: Annotated[bool, typer.Option(
        "--all-breaks", help="List every break of the micro-match rules on the terminal "
        "(default: counted by kind, the first five; -o FILE.html or .json has them all)."
    )] = False,
    knockout: Annotated[bool, typer.Option(
        "--knockout", help="A knockout event: the bracket by rounds, who went through and "
        "why (with --micro-match, the games after the first N are the tie-break).")] = False,
    team: Annotated[Path | None, typer.Option(
        "--team", metavar="FILE", help="The teams, one 'PLAYER = TEAM' a line (# comments): "
        "team standings, team matches, Scheveningen tables; default: the WhiteTeam/"
        "BlackTeam tags where the games have them.")] = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE", help="Write .csv (standings), .json (standings, "
        "crosstable, unfinished games), .html (a printable page) or .pdf (that page printed "
        "on A4 by Chromium), atomically; default: a table on the terminal.")] = None,
    variant: UntaggedVariantOption = None,
    encoding: EncodingOption = None,
    lang: LangOption = None,
) -> None:
    """Print an event's standings (and its crosstable in --output), with tie-breaks.

    Points in the variant's scoring (2-1-0 in FMJD draughts, 1-½-0 in English), games,
    wins, draws, losses, the performance rating where rating tags are known, and the
    tie-breaks of the variant's federation unless --tiebreak says others. Player names
    written differently (initials, word order) are matched as pdn dedupe matches them;
    names probably of one player otherwise (transliterations, one letter apart, never in
    one round) are reported with the --same options to paste.
    Games without a result (*) make the table incomplete and are named; --result or
    --corrections give them their results. Micro-matches (with the arbiter's checks,
    counted by kind), knockout rounds, teams and the
    TimeControl tags with the flag falls read from the clocks are shown where the event
    has them (docs/tournaments.md). Exit status: 0 a complete table, 1 games without a
    result, 2 a usage error."""
    words = words_for(lang)  # before any error, which is said in it
    from replay.run.output import OutputError, atomic_writer, refuse_overwriting_inputs
    from replay.tournament import (
        CorrectionError,
        TiebreakError,
        parse_correction,
        read_corrections,
        read_event,
        select_event,
        standings,
        tiebreak_names,
    )
    from replay.tournament.pages import standings_csv, standings_html, standings_json

    suffix = Path(output).suffix.lower() if output else None
    if output and suffix not in FORMATS:
        fail(N_("--output {output}: the file must end in .csv, .json, .html or .pdf").format(
            output=output))
    try:
        sources = collect_sources(paths)
        if output:
            refuse_overwriting_inputs(output, sources)
        chosen = None
        if tiebreak is not None:
            chosen = () if [t.strip().casefold() for t in tiebreak] == ["none"] else \
                tiebreak_names(tiebreak)
        given = [parse_correction(text) for text in result or []]
        spelled = {}
        for text in same or []:
            name, sign, player = text.partition("=")
            if not sign or not name.strip() or not player.strip():
                raise CorrectionError(N_("--same '{text}' is not NAME=PLAYER").format(
                    text=text))
            spelled[name.strip()] = player.strip()
        if corrections is not None:
            given += read_corrections(corrections)
    except (SourceError, OutputError, TiebreakError, CorrectionError) as error:
        fail(str(error))
    except OSError as error:
        fail(N_("{file}: cannot read: {reason}").format(file=corrections,
                                                        reason=error.strerror or error))
    exit_if_no_sources(sources, paths)  # an empty folder: 0 games, exit 0 (one rule)
    try:
        games = select_event(read_inputs(sources, encoding), event)
    except (OSError, LookupError, UnicodeError) as error:
        fail(N_("cannot read the input: {reason}").format(
            reason=getattr(error, "strerror", None) or error))
    if not games:
        fail(N_("no game of an event matching '{event}'").format(event=event) if event
             else N_("no game read"))
    try:
        built = read_event(games, name=None, default=variant, corrections=given,
                           sources=[g.source for g in games], same=spelled)
    except CorrectionError as error:
        fail(str(error))
    table = standings(built, chosen)
    _warn_contradicted(games, variant)
    from replay.tournament.report import event_report
    from replay.tournament.report_pages import report_html, report_json
    from replay.tournament.teams import TeamError, read_teams

    try:
        teams = read_teams(team, built) if team is not None else None
    except TeamError as error:
        fail(str(error))
    except UnicodeDecodeError as error:
        fail(N_("{file}: not UTF-8 text (byte {byte})").format(file=team, byte=error.start))
    except OSError as error:
        fail(N_("{file}: cannot read: {reason}").format(file=team,
                                                        reason=error.strerror or error))
    report = event_report(built, games, micro_match=micro_match, knockout=knockout,
                          teams=teams, ballots=ballots)
    if output is None:
        _print_table(table, words)
        from .standings_report import print_report

        print_report(report, words, all_breaks)
    elif suffix == ".pdf":
        from replay.validate.report_pdf import PdfError, write_pdf

        try:
            write_pdf(standings_html(table, report_html(report, words), words), output)
        except PdfError as error:
            fail(N_("-o {output}: printing the page to PDF needs Chromium (or Chrome): "
                    "{reason}").format(output=output, reason=error))
    else:
        if suffix == ".csv":
            text = standings_csv(table)
        elif suffix == ".json":
            text = standings_json(table, report_json(report))
        else:
            text = standings_html(table, report_html(report, words), words)
        with atomic_writer(output) as stream:
            stream.write(text)
        if not table.complete:
            from rich.markup import escape

            from replay.tournament.pages import incomplete_note

            from .common import stderr_console

            stderr_console().print(f"[red]{escape(incomplete_note(table, words) or '')}[/red]")
    if output is not None:
        _warn_name_pairs(built, words)
    if not table.complete:
        raise typer.Exit(ExitCode.SOME_GAMES)


def _warn_name_pairs(event, words: Catalog) -> None:
    """The names probably of one player on stderr, when the table went to a file: the
    table is never split without a word (the file says it too, but for CSV)."""
    from rich.markup import escape

    from replay.tournament.pages import name_pairs_note

    from .common import stderr_console

    console = stderr_console()
    for line in name_pairs_note(event, words):
        console.print(f"[yellow]{escape(escape_controls(line))}[/yellow]", soft_wrap=True,
                      highlight=False)


def _warn_contradicted(games: list, variant) -> None:
    """A warning on stderr for each game whose recorded result its final position
    contradicts (counted as recorded: ``pdn clean --fix-results`` writes the result the
    rules decide). The games are replayed file by file, as ``pdn validate`` replays them."""
    from itertools import groupby

    from rich.markup import escape

    from replay.validate.reports import report_games

    from .common import stderr_console

    console = stderr_console()
    for _, group in groupby(games, key=lambda game: game.source):
        for report in report_games(group, variant):
            if report.status == "contradicted":
                where = f"{report.file or '<stdin>'}:{report.line}"
                console.print(f"[yellow]warning:[/yellow] {escape(where)}: "
                              f"{escape(report.title)}: result {escape(report.result or '?')} "
                              f"contradicted — {escape(report.result_note)}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("standings")(standings_command)
