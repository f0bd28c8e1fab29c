"""The standings and the crosstable as rows (CSV, JSON) and as a printable HTML page in the
style of the arbiter's validation report (``replay.validate.report``: the same fonts, table
rules and A4 print layout; one self-contained file)."""

from __future__ import annotations

import csv
import io
import json
import re
from html import escape

from pdn.i18n import N_, Catalog, catalog
from replay.rules.variant_titles import variant_title
from replay.tournament.event import Event
from replay.tournament.spellings import paste_line
from replay.tournament.tables import Cell, Standings, crosstable
from replay.validate.report import STYLE as REPORT_STYLE
from replay.validate.report import font_faces

TIEBREAK_TITLES = {"wins": N_("Wins"), "direct": N_("Direct"),
                   "classification": N_("Classification"), "sonneborn-berger": N_("SB"),
                   "koya": N_("Koya"), "solkoff": N_("Solkoff"),
                   "truncated-solkoff": N_("Trunc. Solkoff"),
                   "median-solkoff": N_("Median Solkoff")}
# The words of the page (English by default; ``standings_html``'s ``words``).
KINDS = {None: N_("Standings"), 1: N_("Round robin"), 2: N_("Double round robin")}
CYCLES = N_("Round robin, {count} cycles")
SUMMARY = N_("{kind} · {players} players · {games} games · {variant} · scoring {scoring} · "
             "tie-breaks: {tiebreaks}")
HEADS = (N_("Player"), N_("Points"), N_("Games"), N_("W"), N_("D"), N_("L"))
RATED_HEADS = (N_("Rating"), N_("Perf."))
STANDINGS, CROSSTABLE, NONE = N_("Standings"), N_("Crosstable"), N_("none")
CELL_TITLE = N_("game {number}, {side}")
CROSS_NOTE = N_("Each cell: the row player's points in each game against the column player, "
                "in the order played; bold: with White, grey: with Black; * no result.")
PAGE_TITLE = N_("{event} — standings")
ENGLISH = catalog("en")


def _value(value: object) -> object:
    if isinstance(value, tuple):
        return " ".join("-" if v == -1 else f"{v:g}" for v in value)
    if isinstance(value, float):
        return round(value, 2)
    return value


def standings_rows(result: Standings) -> list[dict[str, object]]:
    """One dict per player, in order: place, player, points, games, wins, draws, losses,
    unfinished, rating, performance, then each tie-break as ``tb:NAME`` (``direct`` and
    ``classification`` only for the players they separate)."""
    rows = []
    for row in result.rows:
        line: dict[str, object] = {
            "place": row.place, "player": row.player, "points": row.points,
            "games": row.games, "wins": row.wins, "draws": row.draws, "losses": row.losses,
            "unfinished": row.unfinished, "rating": row.rating,
            "performance": row.performance}
        line.update({f"tb:{name}": _value(row.tiebreaks.get(name, ""))
                     for name in result.tiebreaks})
        rows.append(line)
    return rows


def _cell_text(cells: list[Cell], result: Standings) -> str:
    scoring = result.event.scoring
    return " ".join(("*" if c.points is None else scoring.text(c.points))
                    + ("w" if c.white else "b") for c in cells)


def crosstable_rows(result: Standings) -> list[dict[str, object]]:
    """The crosstable as one dict per player: place, player, one column per opponent's
    place (each game ``2w``, ``1b``, ``*w``: points, then w/b the row player's colour),
    points."""
    cells = crosstable(result)
    rows = []
    for i, row in enumerate(result.rows):
        line: dict[str, object] = {"place": row.place, "player": row.player}
        for j in range(len(result.rows)):
            line[str(j + 1)] = "x" if i == j else _cell_text(cells[i][j], result)
        line["points"] = row.points
        rows.append(line)
    return rows


def standings_json(result: Standings, extra: dict[str, object] | None = None) -> str:
    """The standings, crosstable and unfinished games as one JSON document; ``extra``: more
    keys (the event report's, ``replay.tournament.report_pages``)."""
    event = result.event
    document = {
        "event": event.name, "variant": event.variant.name, "scoring": event.scoring.name,
        "round_robin_cycles": event.round_robin_cycles(), "complete": result.complete,
        "never_met": [list(pair) for pair in event.missing_meetings()],
        "tiebreaks": list(result.tiebreaks),
        "unfinished": [{"game": p.number, "white": p.white, "black": p.black,
                        "round": p.round, "file": p.source} for p in result.unfinished],
        "corrected": [{"game": p.number, "correction": p.corrected}
                      for p in event.pairings if p.corrected],
        "spellings": event.spellings,
        "name_pairs": name_pairs_rows(event),
        "same_options": paste_line(event.name_pairs),
        "standings": standings_rows(result),
        "crosstable": crosstable_rows(result),
        **(extra or {}),
    }
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def standings_csv(result: Standings) -> str:
    """The standings as CSV, a row per player."""
    rows = standings_rows(result)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["place", "player"])
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


CLASSIFICATION_NOTE = N_("Classification (a tie-break): the points a player scored against "
                         "each other player not level with them, from the top of the table "
                         "down (- no game between them); the first difference from the left "
                         "decides (FMJD: the best results in order of the classification).")
GIVE_RESULTS = N_("Give their results with --result \"White - Black=RESULT\" or --corrections "
                  "FILE.")
CORRECTED = N_("Results given by the arbiter:")
SPELLINGS = N_("Names read as one player:")


def classification_note(result: Standings, words: Catalog = ENGLISH) -> str | None:
    """What the Classification column holds, where the table shows one; None otherwise (in
    the language of ``words``, as every note here: English by default)."""
    shown = "classification" in result.tiebreaks and any(
        row.tiebreaks.get("classification") for row in result.rows)
    return words.gettext(CLASSIFICATION_NOTE) if shown else None


def incomplete_note(result: Standings, words: Catalog = ENGLISH) -> str | None:
    """What a table says when games have no result, naming them; None when complete."""
    if result.complete:
        return None
    names = "; ".join(p.title() for p in result.unfinished)
    count = len(result.unfinished)
    return (words.ngettext("Incomplete: {count} game(s) without a result ({names}).",
                           "Incomplete: {count} game(s) without a result ({names}).", count)
            .format(count=count, names=names) + " " + words.gettext(GIVE_RESULTS))


NAME_PAIRS_HEAD = N_("Probably one player written two ways (the table counts each name apart "
                     "until --same says they are one):")


def name_pairs_note(event: Event, words: Catalog = ENGLISH) -> list[str]:
    """The lines a table shows on names probably of one player: a heading, a line a pair,
    then the ``--same`` options to paste (and the choice left where a name fits two)."""
    if not event.name_pairs:
        return []
    lines = [words.gettext(NAME_PAIRS_HEAD),
             *(f"  {pair.said(words)}" for pair in event.name_pairs)]
    options = paste_line(event.name_pairs)
    if options:
        lines.append(f"{words.gettext(PASTE)} {options}")
    lines += [_fits(words, len(found), name=name, count=str(len(found)),
                    options=" / ".join(found)) for name, found in _choices(event).items()]
    return lines


PASTE = N_("To count each as one player, add:")


def _fits(words: Catalog, players: int, *, escaped: bool = False, **values: str) -> str:
    """``Mokrovich fits 2 players: add one of --same ... / --same ...``, filled with
    ``values`` in one pass (a name may hold braces); ``escaped``: the words made HTML."""
    template = words.ngettext("{name} fits {count} players: add one of {options}",
                              "{name} fits {count} players: add one of {options}", players)
    if escaped:
        template = escape(template)
    return re.sub(r"\{(name|count|options)\}", lambda found: values[found.group(1)], template)


def _choices(event: Event) -> dict[str, list[str]]:
    """The names that fit several players, with the option for each."""
    fits: dict[str, list[str]] = {}
    for pair in event.name_pairs:
        fits.setdefault(pair.name, []).extend(pair.options())
    return {name: found for name, found in fits.items() if len(found) > 1}


def _name_pairs_html(event: Event, words: Catalog = ENGLISH) -> str:
    """The names probably of one player as a red box at the top of the page."""
    options = paste_line(event.name_pairs)
    say = words.gettext
    return ('<div class="incomplete" id="name-pairs"><p>' + escape(say(NAME_PAIRS_HEAD))
            + "</p><ul>" + "".join(f"<li>{escape(pair.said(words))}</li>"
                                        for pair in event.name_pairs)
            + "</ul>" + (f"<p>{escape(say(PASTE))} <code>{escape(options)}</code></p>"
                         if options else "")
            + "".join("<p>" + _fits(words, len(found), escaped=True, name=escape(name),
                                    count=str(len(found)), options=" / ".join(
                f"<code>{escape(option)}</code>" for option in found)) + "</p>"
                      for name, found in _choices(event).items())
            + "</div>")


def name_pairs_rows(event: Event) -> list[dict[str, object]]:
    """The names probably of one player as JSON-ready rows."""
    return [{"name": pair.name, "player": pair.player, "games": list(pair.games),
             "kind": pair.kind, "difference": pair.difference,
             "rounds": [list(r) for r in pair.rounds] if pair.rounds else None,
             "options": pair.options(), "text": str(pair)} for pair in event.name_pairs]


def missing_note(result: Standings, words: Catalog = ENGLISH) -> str | None:
    """What a table says when players who should have met did not (None otherwise)."""
    missing = result.event.missing_meetings()
    if not missing:
        return None
    return words.ngettext(
        "Not a whole round robin: {count} pair(s) of players never met ({pairs}): games "
        "missing, or a name written two ways.",
        "Not a whole round robin: {count} pair(s) of players never met ({pairs}): games "
        "missing, or a name written two ways.", len(missing)).format(
        count=len(missing), pairs="; ".join(f"{a} - {b}" for a, b in missing))


STYLE = REPORT_STYLE + """
table.cross{width:auto;font-size:.8em}table.cross th,table.cross td{text-align:center;
 padding:.15em .3em;border:1px solid #ddd;white-space:nowrap}
table.cross td.name,table.cross th.name{text-align:left}table.cross td.self{background:#eee}
.w{font-weight:600}.b{color:#444}.open{color:#b00;font-weight:700}
td.num{text-align:right}#standings td{vertical-align:baseline}
#standings td.sequence{text-align:left;font-variant-numeric:tabular-nums;white-space:nowrap}
p.incomplete,div.incomplete{color:#b00;font-weight:600}p.note{font-size:.85em}
.scroll{overflow-x:auto}.scroll td{overflow-wrap:normal;white-space:nowrap}
@media (max-width:600px){
 .scroll table thead{display:table-header-group}.scroll table tr{display:table-row;padding:0}
 .scroll table td{display:table-cell;padding:.15em .3em}
 .scroll table td,.scroll table th{border:1px solid #ddd}
}
@media print{table.cross{font-size:7pt}section.cross{break-before:page}.scroll{overflow:visible}}
"""


def _html_cell(cells: list[Cell], result: Standings, words: Catalog = ENGLISH) -> str:
    scoring = result.event.scoring
    parts = []
    for cell in cells:
        text = "*" if cell.points is None else scoring.text(cell.points)
        css = "open" if cell.points is None else ("w" if cell.white else "b")
        colour = words.gettext("White" if cell.white else "Black")
        title = words.gettext(CELL_TITLE).format(number=cell.game, side=colour)
        parts.append(f'<span class="{css}" title="{escape(title)}">{escape(text)}</span>')
    return " ".join(parts)


def _cell_class(column: int, heads: list[str]) -> str:
    """The player's name on the left, numbers on the right, a sequence of results (the
    classification) on the left with figures of one width so that the columns line up."""
    if column == 1:
        return ""
    return " class=sequence" if heads[column] == "Classification" else " class=num"


def standings_html(result: Standings, sections: str = "", words: Catalog = ENGLISH) -> str:
    """The standings and crosstable as one self-contained, printable HTML page; ``sections``:
    more HTML sections after the crosstable (the event report's); the page's words in the
    language of ``words`` (English by default), which its ``lang`` attribute names."""
    say = words.gettext
    event = result.event
    cycles = event.round_robin_cycles()
    kind = say(KINDS[cycles]) if cycles in KINDS else say(CYCLES).format(count=cycles)
    body = [f"<h1>{escape(event.name)}</h1>",
            "<p>" + escape(say(SUMMARY).format(
                kind=kind, players=len(event.players), games=len(event.pairings),
                variant=variant_title(event.variant.name, words), scoring=event.scoring.name,
                tiebreaks=", ".join(name if words.language == "en"
                                   else say(TIEBREAK_TITLES.get(name, name))
                                   for name in result.tiebreaks) or say(NONE))) + "</p>"]
    note = incomplete_note(result, words)
    if note:
        body.append(f'<p class="incomplete" id="incomplete">{escape(note)}</p>')
    if event.name_pairs:
        body.append(_name_pairs_html(event, words))
    missing = missing_note(result, words)
    if missing:
        body.append(f'<p class="incomplete" id="never-met">{escape(missing)}</p>')
    corrected = [p for p in event.pairings if p.corrected]
    if corrected:
        body.append(f'<p class="note" id="corrected">{escape(say(CORRECTED))} ' + "; ".join(
            escape(f"{p.title()} = {p.corrected.rsplit('=', 1)[1]}") for p in corrected)
            + "</p>")
    rows = standings_rows(result)
    rated = any(line["rating"] is not None or line["performance"] is not None for line in rows)
    heads = ["#", *HEADS, *(RATED_HEADS if rated else ())]
    heads += [TIEBREAK_TITLES.get(name, name) for name in result.tiebreaks]
    body.append(f'<h2>{escape(say(STANDINGS))}</h2><div class="scroll"><table id="standings">'
                "<thead><tr>" + "".join(f"<th>{escape(say(h))}</th>" for h in heads)
                + "</tr></thead><tbody>")
    for line in rows:
        shown = [line["place"], line["player"], result.event.scoring.text(line["points"]),
                 *(line[k] for k in ("games", "wins", "draws", "losses")),
                 *((line["rating"], line["performance"]) if rated else ()),
                 *(line[f"tb:{name}"] for name in result.tiebreaks)]
        body.append("<tr>" + "".join(
            f'<td{_cell_class(k, heads)}>{escape("" if v is None else str(v))}</td>'
            for k, v in enumerate(shown)) + "</tr>")
    body.append("</tbody></table></div>")
    explained = classification_note(result, words)
    if explained:
        body.append(f'<p class="note" id="classification">{escape(explained)}</p>')
    if cycles is not None or len(event.players) <= 40:
        cells = crosstable(result)
        body.append(f'<section class="cross"><h2>{escape(say(CROSSTABLE))}</h2>'
                    '<div class="scroll"><table class="cross" id="crosstable"><thead><tr>'
                    f'<th>#</th><th class="name">{escape(say(HEADS[0]))}</th>'
                    + "".join(f"<th>{j}</th>" for j in range(1, len(result.rows) + 1))
                    + f"<th>{escape(say(HEADS[1]))}</th></tr></thead><tbody>")
        for i, row in enumerate(result.rows):
            tds = "".join('<td class="self"></td>' if i == j else
                          f"<td>{_html_cell(cells[i][j], result, words)}</td>"
                          for j in range(len(result.rows)))
            body.append(f'<tr data-player="{escape(row.player)}"><td>{i + 1}</td>'
                        f'<td class="name">{escape(row.player)}</td>{tds}'
                        f"<td>{escape(result.event.scoring.text(row.points))}</td></tr>")
        body.append(f'</tbody></table></div><p class="note">{escape(say(CROSS_NOTE))}</p>'
                    "</section>")
    body.append(sections)
    if event.spellings:
        body.append(f'<p class="note">{escape(say(SPELLINGS))} ' + "; ".join(
            escape(f"{key} ({', '.join(names)})") for key, names in event.spellings.items())
            + "</p>")
    return (f'<!DOCTYPE html><html lang="{words.language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(say(PAGE_TITLE).format(event=event.name))}</title>"
            f"<style>{STYLE}{font_faces(words.language)}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
