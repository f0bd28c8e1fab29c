"""The desk's pages as HTML, drawn on the server with every tag, name, comment and message
escaped; their one script (``desk.js``) and the viewer's (``replay/viewer/viewer.js``) are
files served beside them, never inline, so the Content-Security-Policy can forbid inline
scripts (``replay.serve.security``)."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from replay.record.replayer import ReplayedGame
from replay.rules.variants import VARIANTS
from replay.serve.desk import Desk, DeskGame, legal_after
from replay.validate.report import first_problem, result_disagreement
from replay.validate.reports import GameReport
from replay.viewer.board import ALPHABET, board_kind
from replay.viewer.page import game_entry, suggestions_of

ASSETS = Path(__file__).parent
VIEWER_ASSETS = Path(__file__).parent.parent / "viewer"
STATIC = {"desk.js": (ASSETS, "text/javascript"), "desk.css": (ASSETS, "text/css"),
          "viewer.js": (VIEWER_ASSETS, "text/javascript"),
          "viewer.css": (VIEWER_ASSETS, "text/css")}


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


def _frame(title: str, body: str, *, styles: tuple[str, ...] = ("desk.css",),
           scripts: tuple[str, ...] = ("desk.js",), page: str = "") -> str:
    links = "".join(f'<link rel="stylesheet" href="/static/{name}">' for name in styles)
    tags = "".join(f'<script src="/static/{name}" defer></script>' for name in scripts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)} · pdn serve</title>{links}{tags}</head>"
            f'<body data-page="{page}">{body}</body></html>\n')


NAV = ('<nav class="desk-nav"><a href="/">Desk</a><a href="/new">New game</a>'
       '<a href="/editor">Position editor</a><a href="/event">Event</a></nav>')


def desk_page(desk: Desk, *, write: bool) -> str:
    """Every game with its status, the files with their downloads, the upload and paste
    forms."""
    rows = []
    for game in list(desk.games):
        report = game.report
        problem = (report.errors[0]["message"] if report.errors else first_problem(report)
                   if report.status == "contradicted" or result_disagreement(report) else "")
        rows.append(
            f'<tr class="{escape(str(report.status))}"><td>{game.number}</td>'
            f'<td>{escape(game.document.name)}:{report.game}</td>'
            f'<td><a href="/games/{game.number}">{escape(report.white or "?")} – '
            f'{escape(report.black or "?")}</a></td><td>{escape(report.result or "*")}</td>'
            f'<td class="status">{escape(str(report.status))}'
            f'{" (edited)" if game.edited else ""}</td><td>{escape(problem)}</td></tr>')
    files = []
    for document in list(desk.documents):
        counts: dict[str, int] = {}
        for game in document.games:
            counts[str(game.report.status)] = counts.get(str(game.report.status), 0) + 1
        summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        button = (f' <button type="button" data-write="{document.number}">Write back</button>'
                  if write and document.path is not None and document.edited else "")
        files.append(f'<li>{escape(document.name)}: {escape(summary or "no game")}'
                     f'{" (edited)" if document.edited else ""} — <a href="/download/'
                     f'{document.number}" download>download</a>{button}</li>')
    body = (f'{NAV}<main class="desk"><h1>The arbiter\'s desk</h1>'
            f'<p id="message" role="status"></p>'
            f'<h2>Files</h2><ul id="files">{"".join(files) or "<li>none yet</li>"}</ul>'
            f'<h2>Games</h2><table id="desk-games"><thead><tr><th>#</th><th>File</th>'
            f'<th>Game</th><th>Result</th><th>Status</th><th>First problem</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<h2>Add games</h2><form id="upload"><label>A PDN file or scoresheet: '
            f'<input type="file" id="upload-file" accept=".pdn,.txt,.phn"></label>'
            f'<p><label>or paste it here:<br><textarea id="paste" rows="6" cols="60">'
            f'</textarea></label></p><button type="submit">Check</button></form></main>')
    return _frame("Desk", body, page="desk")


def game_page(game: DeskGame, replayed: ReplayedGame, suggested: GameReport, *,
              explorer: dict | None, engine: bool, write: bool) -> str:
    """A game on the analysis board (the viewer's board and moves) with the desk's panel:
    its report, the legal moves where it stops, the suggestions, its moves, tags and text
    to edit."""
    key, entry = game_entry(replayed, suggestions=suggestions_of(replayed))
    kinds = {key: board_kind(replayed.variant)}
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
            f'{rows}{start}}}')
    problems = "".join(
        f'<li class="{kind}">{escape(_where(p))}{escape(p["message"])}</li>'
        for kind, items in (("error", report.errors), ("warning", report.warnings))
        for p in items)
    legal = ""
    if error_ply is not None:
        legal = ('<p>Legal moves there (a click writes one in its place):</p><p id="legal">' +
                 " ".join(f'<button type="button" class="legal" data-ply="{error_ply}" '
                          f'data-text="{escape(move)}">{escape(move)}</button>'
                          for move in legal_after(replayed)) + "</p>")
    suggestions = "".join(
        f'<li>{escape(s["description"])} '
        + (f'<button type="button" class="apply" data-index="{i}">Apply</button>'
           if s["replays_to_end"] else "") + "</li>"
        for i, s in enumerate(suggested.suggestions))
    if report.status == "invalid" and not suggested.suggestions:
        suggestions = "<li>No small edit mends this game: edit a move below.</li>"
    labels = [replayed.numbering.label(i) for i in range(len(plies))]
    written = "".join(
        f'<label class="ply{" error" if i == error_ply else ""}">{escape(labels[i])}'
        f'<input data-ply="{i}" value="{escape(ply.record.text)}" size="7" '
        f'aria-label="move {escape(labels[i])}"></label>'
        for i, ply in enumerate(plies))
    tags = "".join(
        f'<tr><td>{escape(name)}</td><td><input data-tag="{escape(name)}" '
        f'value="{escape(value)}"></td></tr>' for name, value in replayed.game.tags.items())
    document = game.document
    write_button = (f'<button type="button" data-write="{document.number}">Write back to '
                    f'{escape(document.name)}</button>'
                    if write and document.path is not None else "")
    panel = (
        f'<section id="desk" data-game="{game.number}" data-variant="'
        f'{escape(replayed.variant.name)}"><p id="message" role="status"></p>'
        f'<h2>Report: <span id="status" class="{escape(str(report.status))}">'
        f'{escape(str(report.status))}</span></h2>'
        f'<p>{escape(document.name)}, game {report.game}, line {report.line}'
        f'{" (edited)" if game.edited else ""}</p><ul id="problems">{problems}</ul>{legal}'
        f'<h2>Suggestions</h2><ul id="suggestions">{suggestions or "<li>none</li>"}</ul>'
        f'<h2>Moves as written</h2><p class="help">Edit a move and press Enter: the game is '
        f'checked again.</p><div id="written">{written}</div>'
        f'<h2>Tags</h2><table id="tags">{tags}<tr><td><input id="new-tag-name" '
        f'placeholder="Tag" size="8"></td><td><input id="new-tag-value" placeholder="Value">'
        f'</td></tr></table>'
        f'<h2>PDN</h2><textarea id="pdn" rows="10" cols="70" spellcheck="false">'
        f'{escape(game.text)}</textarea><p><button type="button" id="recheck">Check again'
        f'</button> <a href="/download/{document.number}" download id="download">Download '
        f'{escape(Path(document.name).name)}</a> {write_button}</p>'
        f'<h2>Analysis</h2><p><a id="diagram-svg" href="#" download="diagram.svg">Diagram '
        f'SVG</a> · <a id="diagram-png" href="#" download="diagram.png">Diagram PNG</a>'
        + (' · <button type="button" id="evaluate">Evaluate</button> <button type="button" '
           'id="stop-engine">Stop</button>' if engine else "")
        + '</p><meter id="eval-bar" min="0" max="100" value="50" '
          'title="White\'s share (light) of the evaluation" hidden></meter>'
          '<div id="evaluation" aria-live="polite"></div></section>')
    body = (f'<nav id="games" hidden><input id="search" type="search" aria-label="Search">'
            f'<p id="count"></p><div id="list"><ol id="rows"></ol></div></nav><main>{NAV}'
            f'<header><h1 id="title"></h1><p id="event"></p><p id="verdict"></p></header>'
            f'<div id="viewer"><section id="left"><div id="board" data-fen="" data-ply="0" '
            f'data-node="0" data-game="0"></div><div id="controls"><button id="first" '
            f'title="Start (Home)">«</button><button id="back" title="Back (←)">‹</button>'
            f'<button id="next" title="Next (→)">›</button><button id="last" title="End '
            f'(End)">»</button></div><p id="current"></p><p id="error" class="error"></p>'
            f'<p id="warning" class="warning"></p><div id="suggestion" class="suggestion">'
            f'</div><div id="notes"></div><p id="fen"></p></section><section id="right">'
            f'<section id="explorer" hidden><h2>Explorer</h2><table><thead><tr><th>Move</th>'
            f'<th>Games</th><th>+ = −</th><th>Score</th></tr></thead><tbody id="explored">'
            f'</tbody></table></section><h2>Moves</h2><div class="moves" id="moves" '
            f'data-game="0"></div>{panel}</section></div></main>'
            f'<script id="data" type="application/json">{data}</script>')
    title = f"{report.white or '?'} – {report.black or '?'}"
    return _frame(title, body, styles=("viewer.css", "desk.css"),
                  scripts=("viewer.js", "desk.js"), page="game")


def _where(problem: dict) -> str:
    if not problem.get("move_number"):
        return ""
    token = f" '{problem['token']}'" if problem.get("token") else ""
    return f"move {problem['move_number']} ({problem.get('side')}){token}: "


def new_game_page() -> str:
    """A new game typed move by move: each move checked as it is typed."""
    options = "".join(f'<option value="{escape(v.name)}">{escape(v.name)}</option>'
                      for v in VARIANTS)
    body = (f'{NAV}<main class="desk"><h1>Type a game</h1><p id="message" role="status"></p>'
            f'<p><label>Variant <select id="variant">{options}</select></label> '
            f'<label>White <input id="white" size="14"></label> '
            f'<label>Black <input id="black" size="14"></label></p>'
            f'<div id="typed-board" class="typed-board"></div>'
            f'<p>Moves: <span id="typed-moves"></span></p>'
            f'<form id="type-move"><label>Next move (any notation) <input id="move-input" '
            f'autocomplete="off" size="10"></label> <button type="submit">Play</button> '
            f'<button type="button" id="take-back">Take back</button></form>'
            f'<p>Legal moves: <span id="typed-legal"></span></p>'
            f'<p><button type="button" id="add-typed">Add to the desk</button></p></main>')
    return _frame("New game", body, page="new")


PALETTE = (("w", "White man"), ("W", "White king"), ("b", "Black man"), ("B", "Black king"),
           ("", "Empty"))


def position_editor_page() -> str:
    """Any position set up square by square, its FEN and PDN set-up tags shown as it changes
    with the reasons no game can reach it, and analysis or a new game started from it."""
    options = "".join(f'<option value="{escape(v.name)}">{escape(v.name)}</option>'
                      for v in VARIANTS)
    palette = "".join(
        f'<label><input type="radio" name="piece" value="{code}"'
        f'{" checked" if code == "w" else ""}> {label}</label>' for code, label in PALETTE)
    body = (f'{NAV}<main class="desk editor"><h1>Set up a position</h1>'
            f'<p id="message" role="status"></p>'
            f'<p><label>Variant <select id="editor-variant">{options}</select></label> '
            f'<label>To move <select id="editor-turn"><option value="W">White</option>'
            f'<option value="B">Black</option></select></label></p>'
            f'<p id="palette" class="palette">{palette} '
            f'<button type="button" id="editor-start">Start position</button> '
            f'<button type="button" id="editor-clear">Empty board</button></p>'
            f'<div class="editor-view"><div id="editor-board" class="typed-board"></div>'
            f'<div class="editor-text"><p><label>FEN <input id="editor-fen" size="40" '
            f'spellcheck="false" autocomplete="off"></label></p>'
            f'<p>PDN set-up tags:</p><pre id="editor-tags"></pre>'
            f'<p>Can a game reach it?</p><ul id="editor-problems"></ul>'
            f'<p><button type="button" id="editor-analyse">Analyse from here</button> '
            f'<button type="button" id="editor-new">New game from here</button></p>'
            f'</div></div></main>')
    return _frame("Position editor", body, page="editor")


__all__ = ["desk_page", "game_page", "new_game_page", "position_editor_page", "static_file"]
