"""The arbiter's report of a validation run, as Markdown or self-contained HTML.

One section per game with its status, its errors and warnings, and a diagram of the position
before the first illegal move (SVG inline in HTML; a FEN in Markdown); with ``--suggest``, the
repair suggestions and a diagram of the position where the best one puts the slip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from html import escape

from replay.board import Board
from replay.diagram import board_svg
from replay.validate import GameReport
from replay.variants import get_variant


def _problem_line(problem: dict) -> str:
    where = f"line {problem['line']}" if problem.get("line") else ""
    if problem.get("column"):
        where += f", column {problem['column']}"
    move = ""
    if problem.get("move_number"):
        move = f"move {problem['move_number']} ({problem.get('side')})"
        if problem.get("token"):
            move += f" '{problem['token']}'"
    head = ", ".join(part for part in (where, move) if part)
    return f"{head}: {problem['message']}" if head else problem["message"]


def _heading(report: GameReport) -> str:
    event = f" — {report.event}" if report.event else ""
    return f"{report.file or '<stdin>'}, {report.title}{event}"


def _slip_fens(report: GameReport) -> list[str]:
    """The position before the best suggestion's slip, when it is not the error's own."""
    if not report.suggestions or not report.suggestions[0].get("fen"):
        return []
    fen = report.suggestions[0]["fen"]
    return [] if fen in report.error_fens else [fen]


def _figure(report: GameReport, fen: str, caption: str) -> str:
    board = Board.from_fen(fen, get_variant(report.variant))
    return (f'<figure>{board_svg(board, size=320)}<figcaption>{caption}: '
            f'<code>{escape(fen)}</code></figcaption></figure>')


def markdown_report(reports: Iterable[GameReport]) -> str:
    """The report as Markdown text."""
    reports = list(reports)
    statuses = Counter(r.status for r in reports)
    lines = ["# Validation report", "",
             f"{len(reports)} games: "
             + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())),
             ""]
    for report in reports:
        lines += [f"## {_heading(report)}", "",
                  f"- status: **{report.status}**, {report.plies} plies replayed "
                  f"({report.variant})",
                  f"- result: {report.result or '?'} — {report.result_check}"
                  + (f" ({report.result_note})" if report.result_note else "")]
        lines += [f"- error: {_problem_line(p)}" for p in report.errors]
        lines += [f"- warning: {_problem_line(p)}" for p in report.warnings]
        slip = report.suggestions[0].get("fen") if report.suggestions else None
        lines += [f"- position before the error{', where the slip happened' if fen == slip else ''}"
                  f": `{fen}`" for fen in report.error_fens]
        lines += [f"- suggestion: {s['description']}" for s in report.suggestions]
        lines += [f"- position where the slip happened: `{fen}`" for fen in _slip_fens(report)]
        lines.append("")
    return "\n".join(lines)


def html_report(reports: Iterable[GameReport]) -> str:
    """The report as one self-contained HTML page (no external files or scripts)."""
    reports = list(reports)
    statuses = Counter(r.status for r in reports)
    body = [f"<h1>Validation report</h1><p>{len(reports)} games: "
            + ", ".join(f"{n} {escape(s)}" for s, n in sorted(statuses.items())) + "</p>"]
    for report in reports:
        body.append(f'<section class="{escape(report.status)}"><h2>{escape(_heading(report))}</h2>')
        body.append(f"<p>Status: <b>{escape(report.status)}</b>, {report.plies} plies replayed "
                    f"({escape(report.variant)}). Result: {escape(report.result or '?')} — "
                    f"{escape(report.result_check)} {escape(report.result_note)}</p><ul>")
        body += [f'<li class="error">{escape(_problem_line(p))}</li>' for p in report.errors]
        body += [f'<li class="warning">{escape(_problem_line(p))}</li>' for p in report.warnings]
        body += [f'<li class="suggestion">Suggestion: {escape(s["description"])}</li>'
                 for s in report.suggestions]
        body.append("</ul>")
        slip = report.suggestions[0].get("fen") if report.suggestions else None
        for fen in report.error_fens:
            body.append(_figure(report, fen, "Before the error" + (
                ", where the slip happened" if fen == slip else "")))
        for fen in _slip_fens(report):
            body.append(_figure(report, fen, "Where the slip happened"))
        body.append("</section>")
    style = ("body{font-family:sans-serif;max-width:60em;margin:auto}"
             "section{border-top:1px solid #ccc}.invalid h2,.error{color:#b00}"
             ".warning{color:#850}.suggestion{color:#036}.valid h2{color:#070}")
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Validation report</title>"
            f"<style>{style}</style></head><body>{''.join(body)}</body></html>\n")
