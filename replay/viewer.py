"""A game viewer: replayed games as one self-contained HTML page (no network, no external files).

Every position of the main line and of every variation is computed here and embedded as JSON:
the pieces, the FEN, the last move's arrow and captured-piece marks (SVG drawn by
``replay.diagram``), comments and the replayer's verdict. The page's script only shows a
position, follows clicks on the move list and the arrow keys (right: next move, left: back,
up/down: the other moves played from the same position, Home/End), and honours a URL fragment
``#game=2&ply=5``. The board element exposes the position shown in ``data-fen`` and
``data-ply``.

>>> from pdn.reader import read_games
>>> from replay.replayer import replay_game
>>> from replay.variants import RUSSIAN
>>> view = game_view(replay_game(next(read_games("1. c3-d4 f6-g5 (1... b6-a5) *")), RUSSIAN))
>>> [node["label"] for node in view.nodes]
['start', '1. c3-d4', '1... f6-g5', '1... b6-a5']
>>> view.nodes[1]["children"]
[2, 3]
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from pdn.model import Ply
from replay.board import Board
from replay.diagram import (
    Layout,
    arrow_svg,
    board_background,
    captured_marks,
    captured_pieces,
    piece_svg,
    svg_open,
    turn_mark,
)
from replay.move import Move
from replay.movegen import WHITE
from replay.notation import full_text
from replay.openings import opening_label
from replay.replayer import Problem, ReplayedGame
from replay.tree import Variation

NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 7: "□", 10: "=",
               14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+"}


@dataclass
class GameView:
    """One game ready for the page: its positions (``nodes``, JSON-able) and move list HTML."""

    data: dict
    nodes: list[dict] = field(default_factory=list)
    moves_html: list[str] = field(default_factory=list)


def game_view(replayed: ReplayedGame, *, flipped: bool = False) -> GameView:
    """The positions and move list of a replayed game, main line and variations.

    Node 0 is the start position; each node lists its ``children``, the move that continues
    its line first and the variations after it. A move that does not replay becomes a node
    that keeps the position before it and carries the ``error``.
    """
    variant = replayed.variant
    layout = Layout(variant.geometry, flipped)
    view = GameView(_game_data(replayed, layout))
    start = Board(variant, replayed.start)
    view.nodes.append(_node(layout, start, None, "start", replayed.game.moves.comments))
    _GameWalk(replayed, layout, view).line(replayed.mainline(), start, 0, main=True)
    view.data["nodes"] = view.nodes
    return view


def _game_data(replayed: ReplayedGame, layout: Layout) -> dict:
    tags = replayed.game.tags
    notation = replayed.variant.gametype.notation
    return {
        "title": f"{tags.get('White', '?')} – {tags.get('Black', '?')}",
        "event": " · ".join(tags[name] for name in ("Event", "Site", "Date", "Round")
                            if tags.get(name, "?").strip("?. ")),
        "result": replayed.game.headers_result or "*",
        "variant": replayed.variant.name,
        "opening": opening_label(replayed.variant, [*replayed.positions, *(
            [replayed.final] if replayed.final is not None else [])], replayed.moves),
        "status": replayed.status,
        "errors": [problem.message for problem in replayed.errors],
        "svg": svg_open(layout) + "".join(board_background(layout, notation)),
        "turn": {"w": turn_mark(layout, True), "b": turn_mark(layout, False)},
        "pieces": {code: piece_svg(code, 0, 0) for code in "wWbB"},
        "centres": {square: layout.centre(square) for square in layout.geometry.playable},
    }


def _node(layout: Layout, board: Board, parent: int | None, label: str,
          comments: list[str], move: Move | None = None) -> dict:
    marks = captured_marks(layout, captured_pieces(board, move)) if move else []
    return {
        "parent": parent,
        "children": [],
        "ply": len(board.move_stack),
        "label": label,
        "fen": board.fen(),
        "white": board.turn == WHITE,
        "pieces": sorted(board.setup().pieces.items()),
        "under": "".join(marks),
        "arrow": arrow_svg(layout, [move.origin, *move.path]) if move else "",
        "comments": list(comments),
        "error": None,
        "warning": None,
    }


class _GameWalk:
    """Walks a game's lines, adding a node per move and writing the move list beside it."""

    def __init__(self, replayed: ReplayedGame, layout: Layout, view: GameView) -> None:
        self.replayed, self.layout, self.view = replayed, layout, view
        self.out = view.moves_html

    def line(self, variation: Variation, board: Board, parent: int, main: bool) -> None:
        """Add the nodes of a line of the game tree played from ``board`` (the position of
        node ``parent``)."""
        plies = variation.line.plies
        self._comments(variation.line.comments)
        board = board.copy()
        for offset, node in enumerate(variation):
            previous = plies[offset - 1] if offset else None
            fresh = previous is None or bool(previous.comments or previous.variations)
            number = self._number(node.index, fresh)
            text = f"{node.label} {full_text(board, node.move, 'turns')}"
            before = board.copy()
            board.push(node.move)
            added = self._add(parent, _node(self.layout, board, parent, text, node.comments,
                                            node.move))
            self._mark(added, node.problem)
            self._move_link(added, number, node.ply)
            self._comments(node.comments)
            for sub in node.variations:
                self.out.append('<span class="variation">(')
                self.line(sub, before, parent, main=False)
                self.out.append(")</span> ")
            parent = added
        unplayed = variation.unplayed
        if unplayed:
            index = variation.first_index + len(variation)
            fresh = not variation or bool(plies[len(variation) - 1].comments
                                          or plies[len(variation) - 1].variations)
            label = f"{self.replayed.numbering.label(index)} {unplayed[0].record.text}"
            self._failed(unplayed[0], board, parent, (self._number(index, fresh), label),
                         variation.stop)
            self._unplayed(unplayed[1:])
        if main:
            self.out.append(f'<span class="result">{escape(self.view.data["result"])}</span>')

    def _number(self, index: int, fresh: bool) -> str:
        label = self.replayed.numbering.label(index)
        return label if fresh or not label.endswith("...") else ""

    def _add(self, parent: int, node: dict) -> int:
        self.view.nodes.append(node)
        number = len(self.view.nodes) - 1
        self.view.nodes[parent]["children"].append(number)
        return number

    def _mark(self, node: int, problem: Problem | None) -> None:
        if problem is not None:
            self.view.nodes[node]["warning"] = problem.message

    def _failed(self, ply: Ply, board: Board, parent: int, labels: tuple[str, str],
                problem: Problem | None) -> None:
        """A move that does not replay: a node on the position before it, with the error."""
        number, label = labels
        lost = ply.record.placeholder
        message = (problem.message.removeprefix("in a variation: ") if problem else "") or (
            "the record has lost moves from here" if lost else "this move does not replay")
        node = self._add(parent, _node(self.layout, board, parent, label, ply.comments))
        self.view.nodes[node]["error" if not lost else "warning"] = message
        self._move_link(node, number, ply, "lost" if lost else "error", message)
        self._comments(ply.comments)

    def _unplayed(self, plies: list[Ply]) -> None:
        if plies:
            text = " ".join(ply.record.text for ply in plies)
            self.out.append(f'<span class="unplayed" title="not replayed">{escape(text)}</span> ')

    def _move_link(self, node: int, number: str, ply: Ply, kind: str = "",
                   message: str = "") -> None:
        warning = self.view.nodes[node]["warning"]
        kind = kind or ("warning" if warning else "")
        title = message or warning or ""
        marks = (ply.record.strength or "") + "".join(NAG_SYMBOLS.get(nag, f" ${nag}")
                                                      for nag in ply.nags)
        if number:
            self.out.append(f'<span class="number">{escape(number)}</span>')
        self.out.append(f'<span class="move {kind}" data-node="{node}" tabindex="-1"'
                        f'{f" title={_attr(title)}" if title else ""}>'
                        f'{escape(ply.record.text + marks)}</span> ')

    def _comments(self, comments: list[str]) -> None:
        for comment in comments:
            self.out.append(f'<span class="comment">{escape(comment)}</span> ')


def _attr(text: str) -> str:
    return f'"{escape(text, quote=True)}"'


def viewer_html(games: Iterable[ReplayedGame], *, flipped: bool = False,
                title: str = "Draughts games") -> str:
    """One self-contained HTML page showing the games: board, move list, comments, errors."""
    views = [game_view(replayed, flipped=flipped) for replayed in games]
    game_list = "".join(
        f'<li data-game="{number}" class="{escape(view.data["status"])}">'
        f'{escape(view.data["title"])} <span class="result">{escape(view.data["result"])}'
        f'</span><br><small>{escape(view.data["event"])}</small></li>'
        for number, view in enumerate(views))
    move_lists = "".join(f'<div class="moves" data-game="{number}" hidden>'
                         f'{"".join(view.moves_html)}</div>'
                         for number, view in enumerate(views))
    payload = json.dumps([view.data for view in views], ensure_ascii=False,
                         separators=(",", ":"))
    return PAGE.format(
        title=escape(title), style=STYLE, script=SCRIPT, moves=move_lists,
        games_hidden="" if len(views) > 1 else " hidden", games=game_list,
        data=payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{style}</style></head>
<body>
<nav id="games"{games_hidden}><h2>Games</h2><ol>{games}</ol></nav>
<main>
<header><h1 id="title"></h1><p id="event"></p><p id="verdict"></p></header>
<div id="viewer">
<section id="left">
<div id="board" data-fen="" data-ply="0" data-node="0" data-game="0"></div>
<div id="controls">
<button id="first" title="Start (Home)">«</button><button id="back" title="Back (←)">‹</button>
<button id="next" title="Next (→)">›</button><button id="last" title="End (End)">»</button>
</div>
<p id="current"></p><p id="error" class="error"></p><p id="warning" class="warning"></p>
<div id="notes"></div>
<p id="fen"></p>
</section>
<section id="right"><h2>Moves</h2>{moves}
<p class="help">Click a move, or use ← → to step, ↑ ↓ to switch between variations,
Home and End; PgUp and PgDn change the game.</p></section>
</div>
</main>
<script id="data" type="application/json">{data}</script>
<script>{script}</script>
</body></html>
"""

STYLE = """
body{font-family:system-ui,"DejaVu Sans",Arial,sans-serif;margin:0;display:flex;
 color:#222;background:#faf8f4}
#games{width:14em;flex:none;border-right:1px solid #ddd;padding:0 1em;max-height:100vh;
 overflow:auto}
#games ol{padding-left:1.5em}#games li{cursor:pointer;padding:.3em 0}
#games li.current{font-weight:bold}#games li.invalid{color:#b00}
main{flex:1;padding:0 1.5em;min-width:0}h1{font-size:1.4em;margin:.6em 0 .1em}
#event{margin:0;color:#666}#verdict{margin:.2em 0;color:#b00}
#viewer{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
#left{flex:0 1 min(520px,92vw)}#board svg{width:100%;height:auto;display:block}
#controls{text-align:center;margin:.4em 0}
#controls button{font-size:1.3em;margin:0 .2em;padding:0 .9em;cursor:pointer}
#current{font-weight:bold;margin:.3em 0}.error{color:#c62828}.warning{color:#a15c00}
#notes p{margin:.3em 0;font-style:italic}#fen{font-family:monospace;font-size:.8em;
 color:#666;word-break:break-all}
#right{flex:1 1 18em;max-height:90vh;overflow:auto;line-height:1.9;position:relative}
.moves .move{cursor:pointer;padding:.1em .25em;border-radius:3px}
.moves .move:hover{background:#e8e2d6}.moves .move.current{background:#1b6e3a;color:#fff}
.moves .move.error{color:#c62828;text-decoration:underline wavy #c62828;font-weight:bold}
.moves .move.warning{color:#a15c00}.moves .move.lost{color:#888}
.moves .move.error.current{background:#c62828;color:#fff;text-decoration:none}
.moves .number{color:#888;margin-left:.3em}.moves .comment{color:#555;font-style:italic}
.moves .variation{color:#555;font-size:.92em}.moves .unplayed{color:#aaa}
.moves .result{font-weight:bold;margin-left:.4em}.help{color:#888;font-size:.8em}
"""

SCRIPT = """
"use strict";
const games = JSON.parse(document.getElementById("data").textContent);
const board = document.getElementById("board");
const state = {game: 0, node: 0};
const $ = (id) => document.getElementById(id);

function pieces(g, n) {
  return n.pieces.map(([square, code]) => {
    const [x, y] = g.centres[square];
    return `<g transform="translate(${x} ${y})">${g.pieces[code]}</g>`;
  }).join("");
}

function show(nodeNumber) {
  const g = games[state.game], n = g.nodes[nodeNumber];
  state.node = nodeNumber;
  board.innerHTML = g.svg + n.under + pieces(g, n) + n.arrow + g.turn[n.white ? "w" : "b"] +
    "</svg>";
  Object.assign(board.dataset, {fen: n.fen, ply: n.ply, node: nodeNumber, game: state.game});
  $("current").textContent = n.label === "start" ? "Start position" : n.label;
  $("error").textContent = n.error || "";
  $("warning").textContent = n.warning || "";
  $("notes").replaceChildren(...n.comments.map((text) => {
    const p = document.createElement("p"); p.textContent = text; return p;
  }));
  $("fen").textContent = n.fen;
  const list = document.querySelector(`.moves[data-game="${state.game}"]`);
  for (const el of list.querySelectorAll(".move.current")) el.classList.remove("current");
  const link = list.querySelector(`.move[data-node="${nodeNumber}"]`);
  if (link) { link.classList.add("current"); keepInView(link); }
}

function keepInView(link) {
  const box = $("right"), top = link.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 40)
    box.scrollTop = top - box.clientHeight / 2;
}

function openGame(number, nodeNumber) {
  state.game = number;
  const g = games[number];
  for (const el of document.querySelectorAll(".moves")) el.hidden = el.dataset.game != number;
  for (const el of document.querySelectorAll("#games li"))
    el.classList.toggle("current", el.dataset.game == number);
  $("title").textContent = `${g.title}  ${g.result}`;
  $("event").textContent = [g.event, g.variant, g.opening].filter(Boolean).join(" · ");
  $("verdict").textContent = g.errors.length ? `Does not replay: ${g.errors.join("; ")}` : "";
  show(nodeNumber || 0);
}

function step(key) {
  const g = games[state.game], n = g.nodes[state.node];
  const siblings = n.parent === null ? [state.node] : g.nodes[n.parent].children;
  const at = siblings.indexOf(state.node);
  let target = null;
  if (key === "ArrowRight") target = n.children[0];
  else if (key === "ArrowLeft") target = n.parent;
  else if (key === "ArrowDown") target = siblings[at + 1];
  else if (key === "ArrowUp") target = siblings[at - 1];
  else if (key === "Home") target = 0;
  else if (key === "End") { target = state.node;
    while (g.nodes[target].children.length) target = g.nodes[target].children[0]; }
  else if (key === "PageDown" || key === "PageUp") {
    const next = state.game + (key === "PageDown" ? 1 : -1);
    if (next >= 0 && next < games.length) openGame(next, 0);
    return true;
  } else return false;
  if (target !== null && target !== undefined) show(target);
  return true;
}

document.addEventListener("keydown", (event) => {
  if (!event.altKey && !event.ctrlKey && !event.metaKey && step(event.key))
    event.preventDefault();
});
document.addEventListener("click", (event) => {
  const move = event.target.closest(".move[data-node]");
  const game = event.target.closest("#games li");
  if (move) show(Number(move.dataset.node));
  else if (game) openGame(Number(game.dataset.game), 0);
});
const keys = {first: "Home", back: "ArrowLeft", next: "ArrowRight", last: "End"};
for (const [id, key] of Object.entries(keys)) $(id).addEventListener("click", () => step(key));

function fromFragment() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const number = Math.min(Math.max(Number(wanted.get("game") || 1) - 1, 0), games.length - 1);
  openGame(number, 0);
  for (let ply = Number(wanted.get("ply") || 0); ply > 0; ply--) step("ArrowRight");
}
window.addEventListener("hashchange", fromFragment);
fromFragment();
"""
