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

import base64
from collections import Counter
from collections.abc import Iterable
from html import escape
from pathlib import Path

from pdn.i18n import N_, Catalog, catalog
from replay.rules.variant_titles import variant_title
from replay.validate.report_diagram import Diagram, report_diagrams
from replay.validate.reports import RESULT_WARNING, GameReport

# The order of the problem games: a result the final position contradicts first (the moves
# replay, so nothing else warns of it), then the worst (any other status after these).
STATUS_ORDER = ("contradicted", "unreadable", "invalid", "incomplete")
LEGEND = N_("Red arrow: the move written. Green: the move meant (the suggestion's move, "
            "else the legal moves the written one could have been).")
ENGLISH = catalog("en")
TITLE, PROBLEMS, GAME, STATUS = (N_("Validation report"), N_("Games with problems"), N_("Game"),
                                 N_("Status"))
FIRST_PROBLEM, PLIES, RESULT = N_("First problem"), N_("Plies"), N_("Result")
VALID_GAMES = N_("Valid games ({count})")
RESULT_WORD = N_("result")
ERROR = N_("error")
WARNING = N_("warning")
SUGGESTION = N_("suggestion")
WRITTEN = N_("written")
MEANT = N_("meant")
LEGAL = N_("legal moves")
NONE = N_("none")
ALL_VALID = N_("Every game replays on the rules.")
LEGAL_MOVES = N_("Legal moves")
SUGGESTION_HEAD = N_("Suggestion")


def _problem_line(problem: dict, w: Catalog = ENGLISH) -> str:
    where = w.gettext(N_("line {number}")).format(number=problem["line"]) \
        if problem.get("line") else ""
    if problem.get("column"):
        where += w.gettext(N_(", column {number}")).format(number=problem["column"])
    move = ""
    if problem.get("move_number"):
        move = w.gettext(N_("move {number} ({side})")).format(
            number=problem["move_number"], side=w.localize(str(problem.get("side"))))
        if problem.get("token"):
            move += f" '{problem['token']}'"
    head = ", ".join(part for part in (where, move) if part)
    message = w.localize(problem["message"])
    return f"{head}: {message}" if head else message


def _heading(report: GameReport, w: Catalog = ENGLISH) -> str:
    event = f" — {report.event}" if report.event else ""
    return f"{report.file or '<stdin>'}, {w.localize(report.title)}{event}"


def _result_line(report: GameReport, w: Catalog = ENGLISH) -> str:
    note = f" ({w.localize(report.result_note)})" if report.result_note else ""
    return f"{report.result or '?'} — {w.gettext(report.result_check)}{note}"


def result_disagreement(report: GameReport) -> dict | None:
    """The warning about a game's result (the movetext's result names another outcome than
    the Result tag, ``pdn.results.results_disagree``; or the tag is no result), or None."""
    return next((p for p in report.warnings if p["code"] == RESULT_WARNING), None)


def first_problem(report: GameReport, w: Catalog = ENGLISH) -> str:
    """What a summary row says is wrong with a game: a result the final position
    contradicts, else its first error, else a result the movetext and the Result tag
    disagree on, else its first warning."""
    if report.status == "contradicted":
        return w.gettext(N_("result {result} contradicted: {note}")).format(
            result=report.result or "?", note=w.localize(report.result_note))
    problems = report.errors or [result_disagreement(report) or p for p in report.warnings]
    return _problem_line(problems[0], w) if problems else w.gettext(report.status)


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


def _counts(reports: list[GameReport], w: Catalog = ENGLISH) -> str:
    statuses = Counter(r.status for r in reports)
    return w.ngettext("{count} game", "{count} games", len(reports)).format(
        count=len(reports)) + ": " + ", ".join(
        f"{n} {w.gettext(s)}" for s, n in sorted(statuses.items()))


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


def markdown_report(reports: Iterable[GameReport], words: Catalog = ENGLISH) -> str:
    """The report as Markdown text, in the language of ``words`` (English by default)."""
    w, say = words, words.gettext
    reports = list(reports)
    problems = problem_games(reports)
    lines = [f"# {say(TITLE)}", "", _counts(reports, w), ""]
    if problems:
        lines += [f"## {say(PROBLEMS)}", "",
                  f"| # | {say(GAME)} | {say(STATUS)} | {say(FIRST_PROBLEM)} |",
                  "|---|---|---|---|"]
        lines += [f"| [{number}](#game-{number}) | {_cell(_heading(r, w))} | "
                  f"{say(r.status)} | {_cell(first_problem(r, w))} |" for number, r in problems]
        lines.append("")
    for number, report in problems:
        lines += _markdown_section(number, report, w)
    valid = [(number, r) for number, r in enumerate(reports, 1) if not has_problem(r)]
    if valid:
        lines += [f"## {say(VALID_GAMES).format(count=len(valid))}", "",
                  f"| # | {say(GAME)} | {say(PLIES)} | {say(RESULT)} |", "|---|---|---|---|"]
        lines += [f"| {number} | {_cell(_heading(r, w))} | {r.plies} | "
                  f"{_cell(_result_line(r, w))} |" for number, r in valid]
        lines.append("")
    return "\n".join(lines)


def _markdown_section(number: int, report: GameReport, w: Catalog = ENGLISH) -> list[str]:
    md, say = markdown_text, w.gettext
    lines = [f'## <a id="game-{number}"></a>{number}. {md(_heading(report, w))}', "",
             "- " + say(N_("status: **{status}**, {plies} plies replayed ({variant})")).format(
                 status=say(report.status), plies=report.plies,
                 variant=md(variant_title(str(report.variant), w))),
             f"- {say(RESULT_WORD)}: {md(_result_line(report, w))}"]
    lines += [f"- {say(ERROR)}: {md(_problem_line(p, w))}" for p in report.errors]
    lines += [f"- {say(WARNING)}: {md(_problem_line(p, w))}" for p in report.warnings]
    lines += [f"- {say(SUGGESTION)}: {md(w.localize(s['description']))}"
              for s in report.suggestions]
    for diagram in report_diagrams(report):
        caption = say(diagram.caption)
        caption = caption.lower() if w.language == "en" else caption
        lines.append(f"- {md(caption)}: `{diagram.fen.replace('`', '')}`")
        if diagram.written:
            lines.append(f"  - {say(WRITTEN)}: {md('-'.join(diagram.written))}")
        if diagram.meant:
            lines.append(f"  - {say(MEANT)}: {md(w.localize(_either(diagram.meant_text)))}")
        lines.append(f"  - {say(LEGAL)}: "
                     f"{md(' '.join(diagram.legal)) or say(NONE)}")
    lines.append("")
    return lines


def _either(moves: list[str]) -> str:
    """``a or b or c`` (each ``or`` a catalog entry)."""
    joined = moves[-1] if moves else ""
    for move in reversed(moves[:-1]):
        joined = N_("{move} or {moves}").format(move=move, moves=joined)
    return joined


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


FONTS = Path(__file__).with_name("fonts")
# The Thai glyphs of the shipped font (fonts/README.md); other scripts keep the body's fonts.
THAI_RANGE = "U+0E01-0E5B,U+200C-200D,U+25CC"


def font_faces(language: str) -> str:
    """The CSS that embeds the fonts a language's script needs and the machine may lack:
    Sarabun for Thai (``fonts/``); nothing for a language the usual fonts cover."""
    if language != "th":
        return ""
    faces = []
    for weight in (400, 700):
        data = base64.b64encode((FONTS / f"sarabun-thai-{weight}-normal.woff2").read_bytes())
        faces.append(f'@font-face{{font-family:"Sarabun";font-weight:{weight};'
                     f"src:url(data:font/woff2;base64,{data.decode()}) format(\"woff2\");"
                     f"unicode-range:{THAI_RANGE}}}")
    return "".join(faces) + ('body{font-family:"Sarabun","DejaVu Sans",Helvetica,Arial,'
                             "sans-serif}")


def html_report(reports: Iterable[GameReport], words: Catalog = ENGLISH) -> str:
    """The report as one self-contained HTML page (no external files or scripts), in the
    language of ``words`` (English by default), which its ``lang`` attribute names."""
    w, say = words, words.gettext
    reports = list(reports)
    problems = problem_games(reports)
    body = [f"<h1>{escape(say(TITLE))}</h1>", f"<p>{escape(_counts(reports, w))}</p>"]
    if problems:
        body.append(f'<h2>{escape(say(PROBLEMS))}</h2><table id="summary"><thead><tr>'
                    f"<th>#</th><th>{escape(say(GAME))}</th><th>{escape(say(STATUS))}</th>"
                    f"<th>{escape(say(FIRST_PROBLEM))}</th></tr></thead><tbody>")
        body += [f'<tr class="{escape(r.status)}" data-game="{number}">'
                 f'<td><a href="#game-{number}">{number}</a></td>'
                 f'<td><a href="#game-{number}">{escape(r.file or "<stdin>")}, '
                 f"{escape(w.localize(r.title))}</a>"
                 + (f"<br><small>{escape(r.event)}</small>" if r.event else "")
                 + f"</td><td>{escape(say(r.status))}</td>"
                 f"<td>{escape(first_problem(r, w))}</td></tr>"
                 for number, r in problems]
        body.append("</tbody></table>")
    else:
        body.append(f"<p>{escape(say(ALL_VALID))}</p>")
    body += [_html_section(number, report, w) for number, report in problems]
    valid = [(number, r) for number, r in enumerate(reports, 1) if not has_problem(r)]
    if valid:
        body.append(f'<section id="valid"><h2>{escape(say(VALID_GAMES).format(count=len(valid)))}'
                    f"</h2><table><thead><tr><th>#</th><th>{escape(say(GAME))}</th>"
                    f"<th>{escape(say(PLIES))}</th><th>{escape(say(RESULT))}</th></tr></thead>"
                    "<tbody>")
        body += [f"<tr><td>{number}</td><td>{escape(_heading(r, w))}</td><td>{r.plies}</td>"
                 f"<td>{escape(_result_line(r, w))}</td></tr>" for number, r in valid]
        body.append("</tbody></table></section>")
    return (f'<!DOCTYPE html><html lang="{w.language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(say(TITLE))}</title><style>{STYLE}{font_faces(w.language)}"
            "</style></head>"
            f"<body>{''.join(body)}</body></html>\n")


def _html_section(number: int, report: GameReport, w: Catalog = ENGLISH) -> str:
    say = w.gettext
    status = say(N_("Status: {status}, {plies} plies replayed ({variant}). Result: {result}"))
    parts = [f'<section class="game {escape(report.status)}" id="game-{number}">'
             f"<h2>{number}. {escape(_heading(report, w))}</h2>",
             "<p>" + escape(status).format(
                 status=f"<b>{escape(say(report.status))}</b>", plies=report.plies,
                 variant=escape(variant_title(str(report.variant), w)),
                 result=escape(_result_line(report, w))) + "</p><ul>"]
    parts += [f'<li class="error">{escape(_problem_line(p, w))}</li>' for p in report.errors]
    parts += [f'<li class="warning">{escape(_problem_line(p, w))}</li>'
              for p in report.warnings]
    parts += [f'<li class="suggestion">{escape(say(SUGGESTION_HEAD))}: '
              f'{escape(w.localize(s["description"]))}</li>' for s in report.suggestions]
    parts.append("</ul>")
    diagrams = report_diagrams(report)
    if diagrams:
        parts.append('<div class="figures">' + "".join(_figure(d, w) for d in diagrams)
                     + "</div>")
        parts.append(f'<p class="legend">{escape(say(LEGEND))}</p>')
    parts.append("</section>")
    return "".join(parts)


def _figure(diagram: Diagram, w: Catalog = ENGLISH) -> str:
    legal = " ".join(diagram.legal) or w.gettext(N_("none"))
    return (f"<figure>{diagram.svg(words=w)}<figcaption>{escape(w.gettext(diagram.caption))}: "
            f'<code>{escape(diagram.fen)}</code><br><span class="legal">'
            f"{escape(w.gettext(LEGAL_MOVES))}: {escape(legal)}</span></figcaption>"
            "</figure>")
