"use strict";
// The viewer page's script: reads the compact games (see replay/viewer_moves.py), draws the
// board, applies and undoes moves, writes the move list, and keeps the game list searchable
// with only the rows in view drawn.
const data = JSON.parse(document.getElementById("data").textContent);
const games = data.games, kinds = data.kinds;
const CODE = Object.fromEntries([...data.alphabet].map((char, rank) => [char, rank]));
const [WHITE, BLACK, EVENT, RESULT, STATUS, KIND, OPENING, ERRORS, MOVES, TEXTS, START,
       SUGGESTIONS, NOTATION] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const ROW = 46;  // the height of a row of the game list, in pixels (see viewer.css)
const $ = (id) => document.getElementById(id);
// The page's words: English, or the page's language where the page gives them (pdn view's
// page and pdn serve's game page, from the catalogs: replay/viewer/words.py).
const VIEWER_WORDS = {verdict: "Does not replay: {errors}", suggestion: "Suggestion: {text}",
                      start: "Start position", unplayed: "not replayed",
                      clock: "clock after the move", evaluation: "evaluation (White's view)",
                      graph: "evaluation graph", copied: "{what} copied",
                      refused: "copy refused",
                      unexplored: "No game of the database reaches this position.",
                      count: `${games.length} ${games.length === 1 ? "game" : "games"}`,
                      shownOf: `{shown} of ${games.length} ${games.length === 1 ? "game" : "games"}`,
                      ...data.words};
const said = (name, values = {}) => VIEWER_WORDS[name].replace(
  /\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
const board = $("board");
const state = {game: 0, node: 0, view: null, shown: games.map((_, number) => number),
               flipped: false};

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) =>
    ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})[c]);
}

const title = (g) => `${g[WHITE]} – ${g[BLACK]}`;

// -- reading a game ------------------------------------------------------------------------

function readMove(squares) {
  if (squares.length === 2) return {origin: squares[0], path: [squares[1]], taken: []};
  const path = [], taken = [];
  for (let k = 1; k < squares.length; k += 2) { path.push(squares[k]); taken.push(squares[k + 1]); }
  return {origin: squares[0], path, taken};
}

function direction(kind, from, to) {
  const [x0, y0] = kind.centres[from], [x1, y1] = kind.centres[to];
  return `${Math.sign(x1 - x0)},${Math.sign(y1 - y0)}`;
}

// The move in full notation, a capture with the squares where the piece turns.
function moveText(kind, move) {
  const points = [move.origin, ...move.path];
  const squares = [points[0]];
  for (let k = 1; k < points.length - 1; k++)
    if (direction(kind, points[k - 1], points[k]) !== direction(kind, points[k], points[k + 1]))
      squares.push(points[k]);
  squares.push(points[points.length - 1]);
  return squares.map((s) => kind.names[s]).join(move.taken.length ? kind.separator : "-");
}

function readGame(number) {
  const g = games[number], kind = kinds[g[KIND]], texts = g[TEXTS];
  const [first, startWhite, start] = g[START] || [1, kind.startWhite, kind.start];
  const cells = kind.centres.map(() => "");
  for (let k = 0; k < start.length; k += 2) cells[CODE[start[k]]] = start[k + 1];
  const offset = startWhite === kind.whiteStarts ? 0 : 1;
  const prefix = (index) => {
    const white = startWhite === (index % 2 === 0);
    return `${first + Math.floor((index + offset) / 2)}${white === kind.whiteStarts ? "." : "..."}`;
  };
  let next = 0;
  const text = () => texts[next++];
  // repair suggestions by the main-line ply they edit (counted from 0)
  const hints = {};
  for (const [index, description] of g[SUGGESTIONS] || []) (hints[index] ||= []).push(description);
  const nodes = [{parent: null, children: [], depth: 0, ply: 0, white: startWhite,
                  label: "start", comments: [], error: null, warning: null, move: null,
                  suggestions: []}];
  const html = [], pdn = [];  // the move list as HTML, and as PDN (Copy PDN)
  const braced = (c) => `{${c.replace(/}/g, ")")}}`;
  const comment = (c) => `<span class="comment">${esc(c)}</span> `;
  const note = (kind, message) => `<span class="note ${kind}">${esc(message)}</span> `;
  const stack = [];
  let line = {parent: 0, index: 0, fresh: true, last: 0};
  for (const token of g[MOVES] ? g[MOVES].split(" ") : []) {
    if (token === "(") {
      stack.push(line);
      line = {parent: nodes[line.last].parent, index: line.index - 1, fresh: true, last: 0};
      html.push('<span class="variation">(');
      pdn.push("(");
    } else if (token === ")") {
      line = stack.pop();
      line.fresh = true;
      html.push(")</span> ");
      pdn.push(")");
    } else if (token === "{") {
      const c = text();
      if (!stack.length) nodes[0].comments.push(c);
      html.push(comment(c));
      pdn.push(braced(c));
    } else if (token === "^") {
      const unplayed = text();
      // a move and its number never parted nor broken at a hyphen (viewer.css)
      html.push(`<span class="unplayed" title="${esc(said("unplayed"))}">${unplayed.split(" ")
        .map((move) => `<span>${esc(move)}</span>`).join(" ")}</span> `);
      pdn.push(unplayed.replace(/\u00a0/g, " "));
    } else {
      const id = nodes.length, node = readPly(token, nodes[line.parent], text, kind);
      node.parent = line.parent;
      node.label = `${prefix(line.index)} ${node.move ? moveText(kind, node.move) : node.written}`;
      nodes.push(node);
      nodes[line.parent].children.push(id);
      node.suggestions = (!stack.length && hints[line.index]) || [];
      const number = prefix(line.index);
      if (line.fresh || !number.endsWith("...")) {
        html.push(`<span class="number">${number}</span>`);
        pdn.push(number);
      }
      pdn.push(node.written + node.marks);
      // the command back as PDN writes it (spelt with \u0025 so that the page holds no
      // command as text: they are shown as numbers, never as comments)
      if (node.eval) pdn.push(braced(`[\u0025eval ${node.eval.replace(/^\+/, "")}]`));
      pdn.push(...node.comments.map(braced));
      const title = node.error || node.warning;
      const suggested = node.suggestions.length ? " suggested" : "";
      html.push(`<span class="move ${node.kind}${suggested}" data-node="${id}" tabindex="-1"` +
                `${title ? ` title="${esc(title)}"` : ""}>${esc(node.written + node.marks)}</span> `);
      if (node.clock) html.push(`<span class="clock" title="${esc(said("clock"))}">${esc(node.clock)}</span> `);
      if (node.eval) html.push(evaluation(node.eval));
      const notes = [...(node.error ? [note("error", node.error)] : []),
                     ...node.suggestions.map((s) => note("suggestion", said("suggestion", {text: s})))];
      html.push(...notes, ...node.comments.map(comment));
      line.fresh = node.comments.length + notes.length > 0;
      line.parent = line.last = id;
      line.index += 1;
    }
  }
  html.push(`<span class="result">${esc(g[RESULT])}</span>`);
  pdn.push(g[RESULT]);
  const setup = fen({kind, cells}, startWhite);
  const tags = [["White", g[WHITE]], ["Black", g[BLACK]], ["Result", g[RESULT]],
                ["GameType", kind.gametype], ...(g[START] ? [["FEN", setup]] : [])];
  const record = tags.map(([name, value]) =>
    `[${name} "${String(value).replace(/[\\"]/g, "\\$&")}"]`).join("\n") + "\n\n" +
    pdn.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")");
  return {number, kind, nodes, cells, html: html.join(""), pdn: record,
          short: g[NOTATION] === "short"};
}

// An evaluation beside its move: the number, on a small bar filled from White's side.
function evaluation(text) {
  const pieces = text[0] === "#" ? (text[1] === "-" ? -9 : 9) : Number(text);
  const share = Math.round(50 + 50 * Math.max(-1, Math.min(1, pieces / 3)));
  return `<span class="eval" title="${esc(said("evaluation"))}"><i style="--white:${share}%">` +
    `</i>${esc(text)}</span> `;
}

// A ply's token: the move (or # / ~ for one that does not replay) and its flags.
function readPly(token, parent, text, kind) {
  const node = {children: [], depth: parent.depth + 1, comments: [], error: null,
                warning: null, move: null, written: null, marks: "", kind: "", suggestions: [],
                clock: null, eval: null};
  let k = 0;
  if (token[0] === "#" || token[0] === "~") {
    node.written = text();
    node[token[0] === "#" ? "error" : "warning"] = text();
    node.kind = token[0] === "#" ? "error" : "lost";
    k = 1;
  } else {
    const squares = [];
    while (k < token.length && token[k] in CODE) squares.push(CODE[token[k++]]);
    node.move = readMove(squares);
  }
  for (; k < token.length; k++) {
    const flag = token[k];
    if (flag === "+") node.move.crown = true;
    else if (flag === "'") node.written = text();
    else if (flag === "!") node.marks = text();
    else if (flag === "?") node.warning = text();
    else if (flag === "%") node.clock = text();
    else if (flag === "=") node.eval = text();
    else if (flag === "{") node.comments.push(text());
  }
  if (node.move && node.written === null) node.written = moveText(kind, node.move);
  if (node.move && node.warning) node.kind = "warning";
  node.ply = parent.ply + (node.move ? 1 : 0);
  node.white = node.move ? !parent.white : parent.white;
  return node;
}

// -- moving along the tree -----------------------------------------------------------------

function apply(cells, move) {
  const piece = cells[move.origin];
  move.piece = piece;
  move.kinds = move.taken.map((square) => cells[square]);
  cells[move.origin] = "";
  for (const square of move.taken) cells[square] = "";
  cells[move.path[move.path.length - 1]] = move.crown ? piece.toUpperCase() : piece;
}

function undo(cells, move) {
  cells[move.path[move.path.length - 1]] = "";
  move.taken.forEach((square, k) => { cells[square] = move.kinds[k]; });
  cells[move.origin] = move.piece;
}

// Undo moves up to the common ancestor of the node shown and the target, then apply down.
function goTo(view, target) {
  const nodes = view.nodes, down = [];
  let from = state.node, to = target;
  while (from !== to) {
    if (nodes[from].depth >= nodes[to].depth) {
      if (nodes[from].move) undo(view.cells, nodes[from].move);
      from = nodes[from].parent;
    } else {
      down.push(to);
      to = nodes[to].parent;
    }
  }
  for (const node of down.reverse()) if (nodes[node].move) apply(view.cells, nodes[node].move);
  state.node = target;
}

// -- drawing -------------------------------------------------------------------------------

const at = (kind, square, svg) => {
  const [x, y] = kind.centres[square];
  return `<g transform="translate(${x} ${y})">${svg}</g>`;
};

function arrow(kind, squares) {
  const points = squares.map((s) => kind.centres[s]), size = kind.arrow.square;
  const [x0, y0] = points[points.length - 2], [x1, y1] = points[points.length - 1];
  const length = Math.hypot(x1 - x0, y1 - y0), ux = (x1 - x0) / length, uy = (y1 - y0) / length;
  const head = size * 0.38, half = size * 0.22, bx = x1 - ux * head, by = y1 - uy * head;
  const line = [...points.slice(0, -1), [bx, by]].map(([x, y]) => `${x},${y}`).join(" ");
  const tip = `${x1},${y1} ${bx - uy * half},${by + ux * half} ${bx + uy * half},${by - ux * half}`;
  return `<g class="last-move" opacity="0.8"><polyline points="${line}" fill="none" ` +
    `stroke="${kind.arrow.colour}" stroke-width="${size * 0.14}" stroke-linejoin="round" ` +
    `stroke-linecap="round"/><polygon points="${tip}" fill="${kind.arrow.colour}"/></g>`;
}

function taken(kind, move) {
  return move.taken.map((square, k) =>
    `<g class="captured" data-square="${kind.squares[square]}" opacity="0.45">` +
    at(kind, square, kind.ghosts[move.kinds[k]]) + "</g>" + at(kind, square, kind.cross)).join("");
}

// A numeric board's numbers on the squares a piece does not hide (nor a piece just taken).
function numbers(view, kind, move) {
  if (!kind.number) return "";
  const taken = new Set(move ? move.taken : []);
  return view.cells.map((code, square) => code || taken.has(square) ? "" :
    at(kind, square, `${kind.number[0]}${esc(kind.names[square])}</${kind.number[1]}`)).join("");
}

function fen(view, white) {
  const side = (man, king) => view.cells.map((code, square) =>
    code === man ? view.kind.fen[square] : code === king ? "K" + view.kind.fen[square] : null)
    .filter((name) => name !== null).join(",");
  return `${white ? "W" : "B"}:W${side("w", "W")}:B${side("b", "B")}`;
}

// The board's kind as seen from the side chosen (the flip button swaps the drawing only).
const seen = (view) => state.flipped ? {...view.kind, ...view.kind.flipped} : view.kind;

// The main line's nodes from the start, in order.
function mainline(view) {
  const line = [0];
  while (view.nodes[line[line.length - 1]].children.length)
    line.push(view.nodes[line[line.length - 1]].children[0]);
  return line;
}

function show(nodeNumber) {
  const view = state.view, kind = seen(view);
  goTo(view, nodeNumber);
  const n = view.nodes[nodeNumber], move = n.move;
  const pieces = view.cells.map((code, square) => code ? at(kind, square, kind.pieces[code]) : "");
  board.innerHTML = kind.svg + (move ? taken(kind, move) : "") + pieces.join("") +
    numbers(view, kind, move) + (move ? arrow(kind, [move.origin, ...move.path]) : "") + kind.turn[n.white ? "w" : "b"] +
    "</svg>";
  const position = fen(view, n.white);
  Object.assign(board.dataset, {fen: position, ply: n.ply, node: nodeNumber, game: view.number,
                                flipped: state.flipped});
  remember(view, nodeNumber);
  markGraph(view, nodeNumber);
  $("current").textContent = n.label === "start" ? said("start") : n.label;
  $("error").textContent = n.error || "";
  $("warning").textContent = n.warning || "";
  $("suggestion").replaceChildren(...n.suggestions.map((text) => {
    const p = document.createElement("p"); p.textContent = said("suggestion", {text}); return p;
  }));
  $("notes").replaceChildren(...n.comments.map((text) => {
    const p = document.createElement("p"); p.textContent = text; return p;
  }));
  $("fen").textContent = position;
  if (data.explorer) explored(position, n);
  const list = $("moves");
  for (const el of list.querySelectorAll(".move.current")) el.classList.remove("current");
  const link = list.querySelector(`.move[data-node="${nodeNumber}"]`);
  if (link) { link.classList.add("current"); keepInView(link); }
}

// The explorer panel: the moves the database's games played from the position shown, with
// their games, wins / draws / losses of the mover and score; a move the game's tree holds
// is a link to it. The moves are written as the move list writes them: short (`gf4`) beside
// a game written short.
function explored(position, node) {
  const rows = data.explorer[position] || [], kind = state.view.kind, short = state.view.short;
  const children = Object.fromEntries(node.children.map((id) => {
    const child = state.view.nodes[id];
    return [child.move ? moveText(kind, child.move) : child.written, id];
  }));
  $("explorer").hidden = false;
  $("explored").innerHTML = rows.length ? rows.map(([move, count, wins, draws, losses, score,
                                                     shortMove]) => {
    const total = wins + draws + losses || 1, share = (n) => `${(100 * n / total).toFixed(1)}%`;
    const bar = `<span class="bar" title="+${wins} =${draws} −${losses}"><i style="width:` +
      `${share(wins)}"></i><b style="width:${share(draws)}"></b></span>`;
    const target = children[move];
    return `<tr${target === undefined ? "" : ` data-node="${target}" class="played"`}>` +
      `<td>${esc(short && shortMove ? shortMove : move)}</td><td>${count}</td><td>${bar}</td>` +
      `<td>${score === null ? "" : `${score.toFixed(1)}%`}</td></tr>`;
  }).join("") : `<tr><td colspan="4">${esc(said("unexplored"))}</td></tr>`;
}

// The address says the game and the position shown, so that it can be shared: the ply on
// the main line, or the node of a variation (replaceState: no new history entry per step).
function remember(view, nodeNumber) {
  const line = view.line || (view.line = mainline(view));
  const k = line.indexOf(nodeNumber);  // the steps from the start, as fromFragment takes them
  const where = k >= 0 ? `ply=${k}` : `node=${nodeNumber}`;
  const address = `#game=${view.number + 1 + (data.first || 0)}&${where}`;
  if (location.hash !== address) history.replaceState(null, "", address);
}

// The evaluation graph: the evaluation of each main-line move (White's view, ±3 pieces and
// mates at the edges), White's side filled; a click goes to the move under it.
const GRAPH = {width: 600, height: 80, cap: 3};

function evalValue(text) {
  if (text[0] === "#") return text[1] === "-" ? -GRAPH.cap : GRAPH.cap;
  return Math.max(-GRAPH.cap, Math.min(GRAPH.cap, Number(text)));
}

function drawGraph(view) {
  const line = view.line || (view.line = mainline(view)), box = $("graph");
  if (!box) return;  // a page without the graph (the desk of pdn serve)
  const points = line.map((id, k) => [k, view.nodes[id].eval]).filter(([, text]) => text);
  box.hidden = !points.length;
  if (points.length && points[0][0] > 0) points.unshift([0, "0"]);  // the start: even
  if (!points.length) { box.innerHTML = ""; return; }
  const {width, height, cap} = GRAPH, last = Math.max(line.length - 1, 1);
  const x = (k) => (k / last) * width, y = (v) => height / 2 - (v / cap) * (height / 2);
  const path = points.map(([k, text]) => `${x(k).toFixed(1)},${y(evalValue(text)).toFixed(1)}`);
  box.innerHTML = `<svg viewBox="0 0 ${width} ${height}" preserveAspectRatio="none" ` +
    `role="img" aria-label="${esc(said("graph"))}"><rect width="${width}" height="${height}" ` +
    `class="black"/><polygon class="white" points="${x(points[0][0])},${height} ` +
    `${path.join(" ")} ${x(points[points.length - 1][0])},${height}"/><line x1="0" ` +
    `x2="${width}" y1="${height / 2}" y2="${height / 2}" class="even"/>` +
    `<polyline points="${path.join(" ")}" class="curve"/><line id="graph-mark" y1="0" ` +
    `y2="${height}" class="mark"/></svg>`;
}

function markGraph(view, nodeNumber) {
  const mark = $("graph-mark");
  if (!mark) return;
  const line = view.line, k = line.indexOf(nodeNumber);
  mark.style.display = k < 0 ? "none" : "";
  const at = (Math.max(k, 0) / Math.max(line.length - 1, 1)) * GRAPH.width;
  mark.setAttribute("x1", at);
  mark.setAttribute("x2", at);
}

function graphClick(event) {
  const view = state.view, line = view.line, box = $("graph").getBoundingClientRect();
  const share = Math.max(0, Math.min(1, (event.clientX - box.left) / box.width));
  show(line[Math.round(share * (line.length - 1))]);
}

// Copy text to the clipboard (a text field's copy where the Clipboard API is refused) and
// say so beside the buttons.
function copy(text, what) {
  const tell = (done) => {
    $("copied").textContent = done ? said("copied", {what}) : said("refused");
  };
  const fallback = () => {
    const field = document.createElement("textarea");
    field.value = text;
    document.body.append(field);
    field.select();
    tell(document.execCommand("copy"));
    field.remove();
  };
  $("copied").dataset.text = text;
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(text).then(() => tell(true), fallback);
  else fallback();
}

function keepInView(link) {
  const box = $("right"), top = link.offsetTop;
  if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 40)
    box.scrollTop = top - box.clientHeight / 2;
}

function openGame(number, nodeNumber) {
  const g = games[number];
  state.game = number;
  state.view = readGame(number);
  state.node = 0;
  const list = $("moves");
  list.innerHTML = state.view.html;
  list.dataset.game = number;
  $("title").innerHTML = `${esc(title(g))} <span class="result">${esc(g[RESULT])}</span>`;
  $("event").textContent = [g[EVENT], state.view.kind.variant, g[OPENING]].filter(Boolean)
    .join(" · ");
  $("verdict").textContent = g[ERRORS].length ? said("verdict", {errors: g[ERRORS].join("; ")})
    : "";
  drawGraph(state.view);
  show(nodeNumber || 0);
  revealInList(number);
}

function step(key) {
  const view = state.view, n = view.nodes[state.node];
  const siblings = n.parent === null ? [state.node] : view.nodes[n.parent].children;
  const here = siblings.indexOf(state.node);
  let target = null;
  if (key === "ArrowRight") target = n.children[0];
  else if (key === "ArrowLeft") target = n.parent;
  else if (key === "ArrowDown") target = siblings[here + 1];
  else if (key === "ArrowUp") target = siblings[here - 1];
  else if (key === "Home") target = 0;
  else if (key === "End") {
    target = state.node;
    while (view.nodes[target].children.length) target = view.nodes[target].children[0];
  } else if (key === "f") {
    state.flipped = !state.flipped;
    show(state.node);
    return true;
  } else if (key === "PageDown" || key === "PageUp") {
    const next = state.game + (key === "PageDown" ? 1 : -1);
    if (next >= 0 && next < games.length) openGame(next, 0);
    return true;
  } else return false;
  if (target !== null && target !== undefined) show(target);
  return true;
}

// -- the game list: searched, and only the rows in view drawn ------------------------------

let haystack = null;

function search(query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length && !haystack)
    haystack = games.map((g) => `${g[WHITE]} ${g[BLACK]} ${g[EVENT]}`.toLowerCase());
  state.shown = games.map((_, number) => number)
    .filter((number) => words.every((word) => haystack[number].includes(word)));
  $("list").scrollTop = 0;
  drawList();
}

function drawList() {
  const box = $("list"), rows = $("rows"), shown = state.shown;
  rows.style.height = `${shown.length * ROW}px`;
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 5);
  const last = Math.min(shown.length, first + Math.ceil(box.clientHeight / ROW) + 10);
  let html = "";
  for (let k = first; k < last; k++) {
    const number = shown[k], g = games[number];
    html += `<li data-game="${number}" class="${esc(g[STATUS])}` +
      `${number === state.game ? " current" : ""}" style="top:${k * ROW}px" ` +
      `title="${esc(title(g))}"><span class="index">${number + 1}.</span>${esc(title(g))} ` +
      `<span class="result">${esc(g[RESULT])}</span><br><small>${esc(g[EVENT])}</small></li>`;
  }
  rows.innerHTML = html;
  $("count").textContent = shown.length === games.length ? said("count")
    : said("shownOf", {shown: shown.length});
}

function revealInList(number) {
  const box = $("list"), k = state.shown.indexOf(number);
  $("rows").style.height = `${state.shown.length * ROW}px`;  // room to scroll to the row
  if (k >= 0 && (k * ROW < box.scrollTop || (k + 1) * ROW > box.scrollTop + box.clientHeight))
    box.scrollTop = k * ROW - box.clientHeight / 2;
  drawList();
}

// -- events --------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select")) return;  // typing, not stepping
  if (!event.altKey && !event.ctrlKey && !event.metaKey && step(event.key))
    event.preventDefault();
});
document.addEventListener("click", (event) => {
  const move = event.target.closest(".move[data-node], #explored tr[data-node]");
  const game = event.target.closest("#rows li");
  if (move) show(Number(move.dataset.node));
  else if (game) openGame(Number(game.dataset.game), 0);
});
const keys = {first: "Home", back: "ArrowLeft", next: "ArrowRight", last: "End"};
for (const [id, key] of Object.entries(keys)) $(id).addEventListener("click", () => step(key));
// The buttons and the graph where the page has them (the desk of pdn serve has its own).
$("flip")?.addEventListener("click", () => step("f"));
$("graph")?.addEventListener("click", graphClick);
$("copy-fen")?.addEventListener("click", () => copy(board.dataset.fen, "FEN"));
$("copy-pdn")?.addEventListener("click", () => copy(state.view.pdn, "PDN"));
$("search").addEventListener("input", (event) => search(event.target.value));
let drawing = false;
$("list").addEventListener("scroll", () => {
  if (!drawing) {
    drawing = true;
    requestAnimationFrame(() => { drawing = false; drawList(); });
  }
});

function fromFragment() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const first = data.first || 0;  // the desk's page of one game names it by its desk number
  const number = Math.min(Math.max(Number(wanted.get("game") || first + 1) - 1 - first, 0),
                          games.length - 1);
  openGame(number, 0);
  const node = Number(wanted.get("node"));
  if (wanted.has("node") && node >= 0 && node < state.view.nodes.length) show(node);
  else for (let ply = Number(wanted.get("ply") ?? data.ply ?? 0); ply > 0; ply--) step("ArrowRight");
}
$("games").hidden = games.length < 2;
window.addEventListener("hashchange", fromFragment);
fromFragment();
