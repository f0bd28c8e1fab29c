"""The desk's pages as HTML, drawn on the server with every tag, name, comment and message
escaped, in the reader's language (``replay.serve.words``); their one script (``desk.js``)
and the viewer's (``replay/viewer/viewer.js``) are files served beside them, never inline,
so the Content-Security-Policy can forbid inline scripts (``replay.serve.security``)."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from types import SimpleNamespace

from pdn.i18n import N_, Catalog, catalog
from replay.record.diagram import FONT as DIAGRAM_FONT
from replay.record.replayer import ReplayedGame
from replay.rules.variant_titles import variant_title
from replay.rules.variants import VARIANTS
from replay.serve.desk import Desk, DeskGame, legal_after
from replay.serve.words import script_text, switch, viewer_words
from replay.validate.report import first_problem, font_faces, result_disagreement
from replay.validate.reports import GameReport
from replay.viewer.board import ALPHABET, board_kind
from replay.viewer.page import game_entry, suggestions_of
from replay.viewer.words import kind_in, turn_words

ASSETS = Path(__file__).parent
VIEWER_ASSETS = Path(__file__).parent.parent / "viewer"
STATIC = {"desk.js": (ASSETS, "text/javascript"), "desk.css": (ASSETS, "text/css"),
          "viewer.js": (VIEWER_ASSETS, "text/javascript"),
          "viewer.css": (VIEWER_ASSETS, "text/css")}
ENGLISH = catalog("en")


def _json(value: object) -> str:
    """JSON that cannot end the page's data element early."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def static_file(name: str) -> tuple[bytes, str] | None:
    """A file the pages load (only those of ``STATIC``, never a path from the request)."""
    if name not in STATIC:
        return None
    folder, kind = STATIC[name]
    return (folder / name).read_bytes(), kind


# The words of the pages, by the name the page writers give them (t.NAME, escaped).
PAGE_WORDS = {
    "desk": N_("Desk"), "new_game": N_("New game"), "position_editor": N_("Position editor"),
    "event": N_("Event"), "edited": N_("(edited)"), "write_back": N_("Write back"),
    "no_game": N_("no game"), "download": N_("download"),
    "arbiters_desk": N_("The arbiter's desk"), "files": N_("Files"), "none_yet": N_("none yet"),
    "games": N_("Games"), "file": N_("File"), "game": N_("Game"), "result": N_("Result"),
    "status": N_("Status"), "first_problem": N_("First problem"), "add_games": N_("Add games"),
    "pdn_file": N_("A PDN file or scoresheet:"), "or_paste": N_("or paste it here:"),
    "check": N_("Check"),
    "legal_there": N_("Legal moves there (a click writes one in its place):"),
    "apply": N_("Apply"),
    "no_small_edit": N_("No small edit mends this game: edit a move below."),
    "white_share": N_("White's share (light) of the evaluation"), "report_heading": N_("Report:"),
    "suggestions": N_("Suggestions"), "none": N_("none"),
    "moves_as_written": N_("Moves as written"),
    "edit_help": N_("Edit a move and press Enter: the game is checked again."),
    "tags": N_("Tags"), "tag": N_("Tag"), "value": N_("Value"), "check_again": N_("Check again"),
    "analysis": N_("Analysis"), "diagram_svg": N_("Diagram SVG"),
    "diagram_png": N_("Diagram PNG"), "evaluate": N_("Evaluate"), "stop": N_("Stop"),
    "search": N_("Search"), "start_title": N_("Start (Home)"), "back_title": N_("Back (←)"),
    "next_title": N_("Next (→)"), "end_title": N_("End (End)"), "explorer": N_("Explorer"),
    "move": N_("Move"), "score": N_("Score"), "moves": N_("Moves"),
    "type_a_game": N_("Type a game"), "variant": N_("Variant"), "white": N_("White"),
    "black": N_("Black"), "moves_so_far": N_("Moves:"),
    "next_move": N_("Next move (any notation)"), "play": N_("Play"), "take_back": N_("Take back"),
    "legal_now": N_("Legal moves:"), "add_to_the_desk": N_("Add to the desk"),
    "set_up_a_position": N_("Set up a position"), "to_move": N_("To move"),
    "start_position": N_("Start position"), "empty_board": N_("Empty board"),
    "setup_tags": N_("PDN set-up tags:"), "reachable": N_("Can a game reach it?"),
    "analyse_from_here": N_("Analyse from here"), "new_game_from_here": N_("New game from here"),
}


# Every page embeds the Thai glyphs of the shipped font (Sarabun, for Thai only: its
# unicode-range leaves every other script to the page's own fonts), so that the switch's
# "ไทย" and a Thai player's name show on a machine without a Thai font; a Thai page's
# buttons and fields take the page's font too, and so do the words under its boards.
THAI_FONT = (font_faces("th") + 'body[data-page]{font-family:"Sarabun",system-ui,'
             '"DejaVu Sans",Arial,sans-serif}')


def _frame(title: str, body: str, words: Catalog, *, styles: tuple[str, ...] = ("desk.css",),
           scripts: tuple[str, ...] = ("desk.js",), page: str = "") -> str:
    """A desk page in the language of ``words``: its ``lang``, the Thai font
    (``replay.validate.report.font_faces``), and the script's texts as JSON."""
    links = "".join(f'<link rel="stylesheet" href="/static/{name}">' for name in styles)
    tags = "".join(f'<script src="/static/{name}" defer></script>' for name in scripts)
    controls = (":where(button,input,select,textarea){font-family:inherit}"
                f'svg.draughts-board text{{font-family:"Sarabun",{DIAGRAM_FONT}}}'
                if words.language == "th" else "")
    style = f"<style>{THAI_FONT}{controls}</style>"
    text = f'<script id="desk-text" type="application/json">{_json(script_text(words))}</script>'
    return (f'<!DOCTYPE html>\n<html lang="{words.language}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)} · pdn serve</title>{links}{style}{tags}</head>"
            f'<body data-page="{page}">{body}{text}</body></html>\n')


def _nav(words: Catalog, keep: str, path: str) -> str:
    """The desk's links, each keeping a language chosen with the switch (``keep``), and
    the switch to the page at ``path`` in the other languages."""
    t = _say(words)
    return (f'<nav class="desk-nav"><a href="/{keep}">{t.desk}</a>'
            f'<a href="/new{keep}">{t.new_game}</a>'
            f'<a href="/editor{keep}">{t.position_editor}</a>'
            f'<a href="/event{keep}">{t.event}</a>{switch(path, words.language)}</nav>')


def _say(words: Catalog) -> SimpleNamespace:
    """The pages' words (``PAGE_WORDS``) in the language of ``words``, escaped for HTML."""
    return SimpleNamespace(**{name: escape(words.gettext(message))
                              for name, message in PAGE_WORDS.items()})


def _status(report: GameReport, words: Catalog) -> str:
    return escape(words.gettext(str(report.status)))


def desk_page(desk: Desk, *, write: bool, words: Catalog = ENGLISH, keep: str = "") -> str:
    """Every game with its status, the files with their downloads, the upload and paste
    forms, in the language of ``words`` (``keep``: the switch's choice, kept in links)."""
    t = _say(words)
    edited = f" {t.edited}"
    rows = []
    for game in list(desk.games):
        report = game.report
        problem = (words.localize(report.errors[0]["message"]) if report.errors
                   else first_problem(report, words)
                   if report.status == "contradicted" or result_disagreement(report) else "")
        rows.append(
            f'<tr class="{escape(str(report.status))}"><td>{game.number}</td>'
            f'<td>{escape(game.document.name)}:{report.game}</td>'
            f'<td><a href="/games/{game.number}{keep}">{escape(report.white or "?")} – '
            f'{escape(report.black or "?")}</a></td><td>{escape(report.result or "*")}</td>'
            f'<td class="status">{_status(report, words)}'
            f'{edited if game.edited else ""}</td><td>{escape(problem)}</td></tr>')
    files = []
    for document in list(desk.documents):
        counts: dict[str, int] = {}
        for game in document.games:
            counts[str(game.report.status)] = counts.get(str(game.report.status), 0) + 1
        summary = ", ".join(f"{words.gettext(status)}: {n}"
                            for status, n in sorted(counts.items()))
        button = (f' <button type="button" data-write="{document.number}">'
                  f'{t.write_back}</button>'
                  if write and document.path is not None and document.edited else "")
        files.append(f'<li>{escape(document.name)}: {escape(summary) or t.no_game}'
                     f'{edited if document.edited else ""} — <a href="/download/'
                     f'{document.number}" download>{t.download}</a>{button}</li>')
    body = (f'{_nav(words, keep, "/")}<main class="desk"><h1>{t.arbiters_desk}</h1>'
            f'<p id="message" role="status"></p>'
            f'<h2>{t.files}</h2><ul id="files">'
            f'{"".join(files) or "<li>" + t.none_yet + "</li>"}</ul>'
            f'<h2>{t.games}</h2><table id="desk-games"><thead><tr><th>#</th>'
            f'<th>{t.file}</th><th>{t.game}</th><th>{t.result}</th>'
            f'<th>{t.status}</th><th>{t.first_problem}</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<h2>{t.add_games}</h2><form id="upload"><label>'
            f'{t.pdn_file} '
            f'<input type="file" id="upload-file" accept=".pdn,.txt,.phn"></label>'
            f'<p><label>{t.or_paste}<br><textarea id="paste" rows="6" '
            f'cols="60"></textarea></label></p><button type="submit">{t.check}'
            f'</button></form></main>')
    return _frame(words.gettext(N_("Desk")), body, words, page="desk")


def game_page(game: DeskGame, replayed: ReplayedGame, suggested: GameReport, *,
              explorer: dict | None, engine: bool, write: bool, words: Catalog = ENGLISH,
              keep: str = "") -> str:
    """A game on the analysis board (the viewer's board and moves) with the desk's panel:
    its report, the legal moves where it stops, the suggestions, its moves, tags and text
    to edit; in the language of ``words`` (``keep``: the switch's choice, kept in links)."""
    t = _say(words)
    key, entry = game_entry(replayed, suggestions=suggestions_of(replayed), words=words)
    kinds = {key: kind_in(board_kind(replayed.variant), words)}
    rows = f',"explorer":{_json(explorer)}' if explorer is not None else ""
    report = game.report
    # the written ply where the main line stops (none for a record that cannot be read);
    # the plies as read from the game's text, which the edits of a move count
    plies = game.record().moves.plies
    error_ply = len(replayed.moves) if replayed.errors and len(replayed.moves) < len(plies) \
        else None
    # the address names the desk's game, and the page opens at the error (viewer.js)
    start = f',"first":{game.number - 1},"ply":{error_ply or 0}'
    data = (f'{{"games":[{entry}],"alphabet":{_json(ALPHABET)},"kinds":{_json(kinds)}'
            f'{rows}{start},"words":{_json(viewer_words(words))}}}')
    problems = "".join(
        f'<li class="{kind}">{escape(_where(p, words))}{escape(words.localize(p["message"]))}'
        f'</li>'
        for kind, items in (("error", report.errors), ("warning", report.warnings))
        for p in items)
    legal = ""
    if error_ply is not None:
        legal = (f'<p>{t.legal_there}</p>'
                 '<p id="legal">' +
                 " ".join(f'<button type="button" class="legal" data-ply="{error_ply}" '
                          f'data-text="{escape(move)}">{escape(move)}</button>'
                          for move in legal_after(replayed)) + "</p>")
    suggestions = "".join(
        f'<li>{escape(words.localize(s["description"]))} '
        + (f'<button type="button" class="apply" data-index="{i}">{t.apply}</button>'
           if s["replays_to_end"] else "") + "</li>"
        for i, s in enumerate(suggested.suggestions))
    if report.status == "invalid" and not suggested.suggestions:
        suggestions = f"<li>{t.no_small_edit}</li>"
    labels = [replayed.numbering.label(i) for i in range(len(plies))]
    written = "".join(
        f'<label class="ply{" error" if i == error_ply else ""}">{escape(labels[i])}'
        f'<input data-ply="{i}" value="{escape(ply.record.text)}" size="7" '
        f'aria-label="{t.move} {escape(labels[i])}"></label>'
        for i, ply in enumerate(plies))
    tags = "".join(
        f'<tr><td>{escape(name)}</td><td><input data-tag="{escape(name)}" '
        f'value="{escape(value)}"></td></tr>' for name, value in replayed.game.tags.items())
    document = game.document
    write_button = (f'<button type="button" data-write="{document.number}">'
                    + escape(words.gettext(N_("Write back to {name}")).format(
                        name=document.name)) + "</button>"
                    if write and document.path is not None else "")
    place = words.gettext(N_("{file}, game {number}, line {line}")).format(
        file=document.name, number=report.game, line=report.line)
    panel = (
        f'<section id="desk" data-game="{game.number}" data-variant="'
        f'{escape(replayed.variant.name)}"><p id="message" role="status"></p>'
        f'<h2>{t.report_heading} <span id="status" class="{escape(str(report.status))}">'
        f'{_status(report, words)}</span></h2>'
        f'<p>{escape(place)}{" " + t.edited if game.edited else ""}</p>'
        f'<ul id="problems">{problems}</ul>{legal}'
        f'<h2>{t.suggestions}</h2><ul id="suggestions">'
        f'{suggestions or "<li>" + t.none + "</li>"}</ul>'
        f'<h2>{t.moves_as_written}</h2><p class="help">'
        f'{t.edit_help}</p>'
        f'<div id="written">{written}</div>'
        f'<h2>{t.tags}</h2><table id="tags">{tags}<tr><td><input id="new-tag-name" '
        f'placeholder="{t.tag}" size="8"></td><td><input id="new-tag-value" '
        f'placeholder="{t.value}"></td></tr></table>'
        f'<h2>PDN</h2><textarea id="pdn" rows="10" cols="70" spellcheck="false">'
        f'{escape(game.text)}</textarea><p><button type="button" id="recheck">'
        f'{t.check_again}</button> <a href="/download/{document.number}" download '
        f'id="download">'
        + escape(words.gettext(N_("Download {name}")).format(name=Path(document.name).name))
        + f'</a> {write_button}</p>'
        f'<h2>{t.analysis}</h2><p><a id="diagram-svg" href="#" download="diagram.svg">'
        f'{t.diagram_svg}</a> · <a id="diagram-png" href="#" download="diagram.png">'
        f'{t.diagram_png}</a>'
        + (f' · <button type="button" id="evaluate">{t.evaluate}</button> <button '
           f'type="button" id="stop-engine">{t.stop}</button>' if engine else "")
        + '</p><meter id="eval-bar" min="0" max="100" value="50" '
          f'title="{t.white_share}" hidden></meter>'
          '<div id="evaluation" aria-live="polite"></div></section>')
    body = (f'<nav id="games" hidden><input id="search" type="search" '
            f'aria-label="{t.search}">'
            f'<p id="count"></p><div id="list"><ol id="rows"></ol></div></nav><main>'
            f'{_nav(words, keep, f"/games/{game.number}")}'
            f'<header><h1 id="title"></h1><p id="event"></p><p id="verdict"></p></header>'
            f'<div id="viewer"><section id="left"><div id="board" data-fen="" data-ply="0" '
            f'data-node="0" data-game="0"></div><div id="controls"><button id="first" '
            f'title="{t.start_title}">«</button><button id="back" '
            f'title="{t.back_title}">‹</button><button id="next" '
            f'title="{t.next_title}">›</button><button id="last" '
            f'title="{t.end_title}">»</button></div><p id="current"></p>'
            f'<p id="error" class="error"></p>'
            f'<p id="warning" class="warning"></p><div id="suggestion" class="suggestion">'
            f'</div><div id="notes"></div><p id="fen"></p></section><section id="right">'
            f'<section id="explorer" hidden><h2>{t.explorer}</h2><table><thead><tr>'
            f'<th>{t.move}</th><th>{t.games}</th><th>+ = −</th>'
            f'<th>{t.score}</th></tr></thead><tbody id="explored">'
            f'</tbody></table></section><h2>{t.moves}</h2><div class="moves" '
            f'id="moves" data-game="0"></div>{panel}</section></div></main>'
            f'<script id="data" type="application/json">{data}</script>')
    title = f"{report.white or '?'} – {report.black or '?'}"
    return _frame(title, body, words, styles=("viewer.css", "desk.css"),
                  scripts=("viewer.js", "desk.js"), page="game")


def _where(problem: dict, words: Catalog = ENGLISH) -> str:
    if not problem.get("move_number"):
        return ""
    token = f" '{problem['token']}'" if problem.get("token") else ""
    move = words.gettext(N_("move {number} ({side})")).format(
        number=problem["move_number"], side=words.localize(str(problem.get("side"))))
    return f"{move}{token}: "


def _variants(words: Catalog) -> str:
    """The variants to choose from, each named as ``words``' language names it."""
    return "".join(f'<option value="{escape(v.name)}">{escape(variant_title(v.name, words))}'
                   f"</option>" for v in VARIANTS)


def new_game_page(words: Catalog = ENGLISH, keep: str = "") -> str:
    """A new game typed move by move: each move checked as it is typed."""
    t = _say(words)
    body = (f'{_nav(words, keep, "/new")}<main class="desk"><h1>{t.type_a_game}</h1>'
            f'<p id="message" role="status"></p>'
            f'<p><label>{t.variant} <select id="variant">{_variants(words)}</select>'
            f'</label> <label>{t.white} <input id="white" size="14"></label> '
            f'<label>{t.black} <input id="black" size="14"></label></p>'
            f'<div id="typed-board" class="typed-board"></div>'
            f'<p>{t.moves_so_far} <span id="typed-moves"></span></p>'
            f'<form id="type-move"><label>{t.next_move} '
            f'<input id="move-input" autocomplete="off" size="10"></label> '
            f'<button type="submit">{t.play}</button> '
            f'<button type="button" id="take-back">{t.take_back}</button></form>'
            f'<p>{t.legal_now} <span id="typed-legal"></span></p>'
            f'<p><button type="button" id="add-typed">{t.add_to_the_desk}</button></p>'
            f"</main>")
    return _frame(words.gettext(N_("New game")), body, words, page="new")


PALETTE = (("w", N_("White man")), ("W", N_("White king")), ("b", N_("Black man")),
           ("B", N_("Black king")), ("", N_("Empty")))


def position_editor_page(words: Catalog = ENGLISH, keep: str = "") -> str:
    """Any position set up square by square, its FEN and PDN set-up tags shown as it changes
    with the reasons no game can reach it, and analysis or a new game started from it."""
    t = _say(words)
    palette = "".join(
        f'<label><input type="radio" name="piece" value="{code}"'
        f'{" checked" if code == "w" else ""}> {escape(words.gettext(label))}</label>'
        for code, label in PALETTE)
    body = (f'{_nav(words, keep, "/editor")}<main class="desk editor">'
            f'<h1>{t.set_up_a_position}</h1><p id="message" role="status"></p>'
            f'<p><label>{t.variant} <select id="editor-variant">{_variants(words)}'
            f'</select></label> <label>{t.to_move} <select id="editor-turn">'
            f'<option value="W">{t.white}</option>'
            f'<option value="B">{t.black}</option></select></label></p>'
            f'<p id="palette" class="palette">{palette} '
            f'<button type="button" id="editor-start">{t.start_position}</button> '
            f'<button type="button" id="editor-clear">{t.empty_board}</button></p>'
            f'<div class="editor-view"><div id="editor-board" class="typed-board"></div>'
            f'<div class="editor-text"><p><label>FEN <input id="editor-fen" size="40" '
            f'spellcheck="false" autocomplete="off"></label></p>'
            f'<p>{t.setup_tags}</p><pre id="editor-tags"></pre>'
            f'<p>{t.reachable}</p><ul id="editor-problems"></ul>'
            f'<p><button type="button" id="editor-analyse">{t.analyse_from_here}'
            f'</button> <button type="button" id="editor-new">{t.new_game_from_here}'
            f'</button></p></div></div></main>')
    return _frame(words.gettext(N_("Position editor")), body, words, page="editor")


__all__ = ["THAI_FONT", "desk_page", "game_page", "new_game_page", "position_editor_page",
           "static_file", "turn_words"]
