"""The arbiter's report of a validation run, as Markdown or self-contained HTML.

First a summary table of the games with a problem (status, first problem, a link to the
game's section), a result the final position contradicts first, then the worst, then the
valid games whose movetext and Result tag name different outcomes; then a section per such
game with its errors, warnings and repair suggestions (``--suggest``) and a diagram of the
position before the first illegal move, the move written drawn in red and the move meant in
green (see ``replay.validate.report_diagram``; SVG inline in HTML, a FEN in Markdown); last
the valid games, a line each. The HTML prints on A4 pages, a page per problem game
(``replay.validate.report_pdf`` prints it to PDF).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from html import escape

from replay.validate.report_diagram import Diagram, report_diagrams
from replay.validate.reports import RESULT_WARNING, GameReport

# The order of the problem games: a result the final position contradicts first (the moves
# replay, so nothing else warns of it), then the worst (any other status after these).
STATUS_ORDER = ("contradicted", "unreadable", "invalid", "incomplete")
LEGEND = ("Red arrow: the move written. Green: the move meant (the suggestion's move, else "
          "the legal moves the written one could have been).")


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


def _result_line(report: GameReport) -> str:
    note = f" ({report.result_note})" if report.result_note else ""
    return f"{report.result or '?'} — {report.result_check}{note}"


def result_disagreement(report: GameReport) -> dict | None:
    """The warning about a game's result (the movetext's result names another outcome than
    the Result tag, ``pdn.results.results_disagree``; or the tag is no result), or None."""
    return next((p for p in report.warnings if p["code"] == RESULT_WARNING), None)


def first_problem(report: GameReport) -> str:
    """What a summary row says is wrong with a game: a result the final position
    contradicts, else its first error, else a result the movetext and the Result tag
    disagree on, else its first warning."""
    if report.status == "contradicted":
        return f"result {report.result or '?'} contradicted: {report.result_note}"
    problems = report.errors or [result_disagreement(report) or p for p in report.warnings]
    return _problem_line(problems[0]) if problems else report.status


def has_problem(report: GameReport) -> bool:
    """Whether a game is listed among the games with problems: not valid, or a valid game
    whose movetext and Result tag name different outcomes (never hidden among the valid)."""
    return report.status != "valid" or result_disagreement(report) is not None


def problem_games(reports: list[GameReport]) -> list[tuple[int, GameReport]]:
    """The games with a problem (``has_problem``), each with its number in the report (from
    1), the worst status first, in file order within a status."""
    order = {status: rank for rank, status in enumerate(STATUS_ORDER)}
    found = [(number, r) for number, r in enumerate(reports, 1) if has_problem(r)]
    return sorted(found, key=lambda item: order.get(item[1].status, len(order)))


def _counts(reports: list[GameReport]) -> str:
    statuses = Counter(r.status for r in reports)
    noun = "game" if len(reports) == 1 else "games"
    return f"{len(reports)} {noun}: " + ", ".join(
        f"{n} {s}" for s, n in sorted(statuses.items()))


# -- Markdown ----------------------------------------------------------------------------


_MARKDOWN_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_MARKDOWN_MARKS = "\\`*_[]|~"  # code spans, emphasis, links and images, tables


def markdown_text(text: str) -> str:
    """Text from a record (a tag, a file name, a token quoted in a message) as Markdown
    shows it literally: no HTML tag (``<img onerror=...>`` in an Event is text), no link,
    image, emphasis, code span or table cell of its own, on one line.

    >>> markdown_text('<img src=x onerror=alert(1)> [a](javascript:b) *c*')
    '&lt;img src=x onerror=alert(1)&gt; \\\\[a\\\\](javascript:b) \\\\*c\\\\*'
    """
    out = []
    for character in text.replace("\r", " ").replace("\n", " "):
        if character in _MARKDOWN_ENTITIES:
            out.append(_MARKDOWN_ENTITIES[character])
        elif character in _MARKDOWN_MARKS:
            out.append("\\" + character)
        else:
            out.append(character)
    return "".join(out)


def _cell(text: str) -> str:
    return markdown_text(text)


def markdown_report(reports: Iterable[GameReport]) -> str:
    """The report as Markdown text."""
    reports = list(reports)
    problems = problem_games(reports)
    lines = ["# Validation report", "", _counts(reports), ""]
    if problems:
        lines += ["## Games with problems", "", "| # | Game | Status | First problem |",
                  "|---|---|---|---|"]
        lines += [f"| [{number}](#game-{number}) | {_cell(_heading(r))} | {r.status} | "
                  f"{_cell(first_problem(r))} |" for number, r in problems]
        lines.append("")
    for number, report in problems:
        lines += _markdown_section(number, report)
    valid = [(number, r) for number, r in enumerate(reports, 1) if not has_problem(r)]
    if valid:
        lines += [f"## Valid games ({len(valid)})", "", "| # | Game | Plies | Result |",
                  "|---|---|---|---|"]
        lines += [f"| {number} | {_cell(_heading(r))} | {r.plies} | {_cell(_result_line(r))} |"
                  for number, r in valid]
        lines.append("")
    return "\n".join(lines)


def _markdown_section(number: int, report: GameReport) -> list[str]:
    md = markdown_text
    lines = [f'## <a id="game-{number}"></a>{number}. {md(_heading(report))}', "",
             f"- status: **{report.status}**, {report.plies} plies replayed "
             f"({md(str(report.variant))})",
             f"- result: {md(_result_line(report))}"]
    lines += [f"- error: {md(_problem_line(p))}" for p in report.errors]
    lines += [f"- warning: {md(_problem_line(p))}" for p in report.warnings]
    lines += [f"- suggestion: {md(s['description'])}" for s in report.suggestions]
    for diagram in report_diagrams(report):
        lines.append(f"- {md(diagram.caption.lower())}: `{diagram.fen.replace('`', '')}`")
        if diagram.written:
            lines.append(f"  - written: {md('-'.join(diagram.written))}")
        if diagram.meant:
            lines.append(f"  - meant: {md(' or '.join(diagram.meant_text))}")
        lines.append(f"  - legal moves: {md(' '.join(diagram.legal)) or 'none'}")
    lines.append("")
    return lines


# -- HTML --------------------------------------------------------------------------------

STYLE = """
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;max-width:62em;margin:0 auto;
 padding:0 1em 2em;color:#222;line-height:1.45}
h1{margin:.6em 0 .2em}h2{font-size:1.2em;margin:1.2em 0 .4em}
table{border-collapse:collapse;width:100%;font-size:.92em}
th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f2efe8}tr.invalid td:nth-child(3),tr.unreadable td:nth-child(3),
tr.contradicted td:nth-child(3){color:#b00}
tr.incomplete td:nth-child(3){color:#850}td small{color:#666}
section.game{border-top:2px solid #ccc;margin-top:1.5em}
.invalid h2,.contradicted h2,.error{color:#b00}.incomplete h2,.warning{color:#850}
.suggestion{color:#036}
.figures{display:flex;flex-wrap:wrap;gap:1.5em}
figure{margin:.5em 0;max-width:340px}figcaption{font-size:.85em;color:#444}
figcaption code{word-break:break-all;font-size:.9em}
.legend{font-size:.85em;color:#444}.legal{font-size:.85em}
#valid table{font-size:.8em}#valid td{padding:.1em .5em}
h2,td{overflow-wrap:anywhere}#summary td:nth-child(3){white-space:nowrap}
td:first-child{overflow-wrap:normal;white-space:nowrap}
@media (max-width:600px){
 table thead{display:none}table tr{display:block;border-bottom:1px solid #ddd;padding:.3em 0}
 table td{display:block;border:none;padding:.05em .3em}
 h1{font-size:1.6em}h2{font-size:1.05em}
}
@page{size:A4;margin:14mm 13mm}
@media print{
 body{max-width:none;padding:0;font-size:10pt}
 a{color:inherit;text-decoration:none}
 section.game{break-before:page;border-top:none;margin-top:0}
 #valid{break-before:page}
 figure,tr,li{break-inside:avoid}thead{display:table-header-group}
 .figures{gap:8mm}figure{max-width:82mm}figure svg{width:82mm;height:auto}
}
"""


def html_report(reports: Iterable[GameReport]) -> str:
    """The report as one self-contained HTML page (no external files or scripts)."""
    reports = list(reports)
    problems = problem_games(reports)
    body = ["<h1>Validation report</h1>", f"<p>{escape(_counts(reports))}</p>"]
    if problems:
        body.append('<h2>Games with problems</h2><table id="summary"><thead><tr><th>#</th>'
                    "<th>Game</th><th>Status</th><th>First problem</th></tr></thead><tbody>")
        body += [f'<tr class="{escape(r.status)}" data-game="{number}">'
                 f'<td><a href="#game-{number}">{number}</a></td>'
                 f'<td><a href="#game-{number}">{escape(r.file or "<stdin>")}, '
                 f"{escape(r.title)}</a>"
                 + (f"<br><small>{escape(r.event)}</small>" if r.event else "")
                 + f"</td><td>{escape(r.status)}</td><td>{escape(first_problem(r))}</td></tr>"
                 for number, r in problems]
        body.append("</tbody></table>")
    else:
        body.append("<p>Every game replays on the rules.</p>")
    body += [_html_section(number, report) for number, report in problems]
    valid = [(number, r) for number, r in enumerate(reports, 1) if not has_problem(r)]
    if valid:
        body.append(f'<section id="valid"><h2>Valid games ({len(valid)})</h2><table><thead>'
                    "<tr><th>#</th><th>Game</th><th>Plies</th><th>Result</th></tr></thead>"
                    "<tbody>")
        body += [f"<tr><td>{number}</td><td>{escape(_heading(r))}</td><td>{r.plies}</td>"
                 f"<td>{escape(_result_line(r))}</td></tr>" for number, r in valid]
        body.append("</tbody></table></section>")
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>Validation report</title><style>{STYLE}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def _html_section(number: int, report: GameReport) -> str:
    parts = [f'<section class="game {escape(report.status)}" id="game-{number}">'
             f"<h2>{number}. {escape(_heading(report))}</h2>",
             f"<p>Status: <b>{escape(report.status)}</b>, {report.plies} plies replayed "
             f"({escape(report.variant)}). Result: {escape(_result_line(report))}</p><ul>"]
    parts += [f'<li class="error">{escape(_problem_line(p))}</li>' for p in report.errors]
    parts += [f'<li class="warning">{escape(_problem_line(p))}</li>' for p in report.warnings]
    parts += [f'<li class="suggestion">Suggestion: {escape(s["description"])}</li>'
              for s in report.suggestions]
    parts.append("</ul>")
    diagrams = report_diagrams(report)
    if diagrams:
        parts.append('<div class="figures">' + "".join(map(_figure, diagrams)) + "</div>")
        parts.append(f'<p class="legend">{escape(LEGEND)}</p>')
    parts.append("</section>")
    return "".join(parts)


def _figure(diagram: Diagram) -> str:
    legal = " ".join(diagram.legal) or "none"
    return (f"<figure>{diagram.svg()}<figcaption>{escape(diagram.caption)}: "
            f'<code>{escape(diagram.fen)}</code><br><span class="legal">Legal moves: '
            f"{escape(legal)}</span></figcaption></figure>")
