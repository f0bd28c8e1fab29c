"use strict";
// The desk's script (pdn serve): sends the arbiter's edits to the JSON API and shows the
// answer; the board and the moves are the viewer's (replay/viewer/viewer.js). Every text
// from the server goes into the page as text (textContent), never as HTML.
// Its own scope: the game page also loads the viewer's script, which has its own $.
(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";

  // Every text this script shows, by name: the page carries them in its language, from the
  // catalogs (replay/serve/words.py), as JSON; the script fills their {placeholders}.
  const WORDS = JSON.parse($("desk-text")?.textContent || "{}");
  const fill = (name, values = {}) => (WORDS[name] ?? name).replace(
    /\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
  const TEXT = {
    checking: fill("checking"),
    serverAnswered: (status) => fill("serverAnswered", {status}),
    thinking: fill("thinking"),
    evaluation: (engine, score, depth, line) =>
      fill(line ? "evaluationLine" : "evaluation", {engine, score, depth, line}),
    otherLine: (score, depth, line) => fill("otherLine", {score, depth, line}),
    stopped: fill("stopped"),
    writing: fill("writing"),
    written: (original) => fill("written", {original}),
    reload: fill("reload"),
    reloading: fill("reloading"),
    nothingToCheck: fill("nothingToCheck"),
    noGame: (name) => fill("noGame", {name}),
    accepted: (move) => fill("accepted", {move}),
    refused: (reason) => fill("refused", {reason}),
    noMoveFrom: (square) => fill("noMoveFrom", {square}),
    mustCapture: fill("mustCapture"),
    notLegal: (origin, target) => fill("notLegal", {origin, target}),
    goOn: (squares) => fill("goOn", {squares}),
    writtenAtError: fill("writtenAtError"),
    playOn: (move) => fill("playOn", {move}),
    reachable: fill("reachable"),
    noMove: fill("noMove"),
  };

  // The page's language: the server answers in it (Accept-Language), and a language chosen
  // with the page's switch (?lang=) is kept in the addresses the script goes to.
  const LANGUAGE = document.documentElement.lang || "en";
  const CHOSEN = new URLSearchParams(location.search).get("lang");
  function address(path, values = {}) {
    const query = new URLSearchParams(values);
    if (CHOSEN) query.set("lang", CHOSEN);
    const text = query.toString();
    return text ? `${path}?${text}` : path;
  }
  // the switch keeps what the address holds besides the language (a variant, a FEN, the ply)
  document.addEventListener("click", (event) => {
    const link = event.target.closest?.(".languages a[hreflang]");
    if (!link) return;
    const url = new URL(location.href);
    url.searchParams.set("lang", link.hreflang);
    link.href = url.pathname + url.search + url.hash;
  });

  function say(text, bad) {
    const box = $("message");
    if (box) { box.textContent = text; box.className = bad ? "error" : ""; }
  }

  async function call(url, body) {
    const response = await fetch(url, {method: "POST", body: JSON.stringify(body),
                                       headers: {"Content-Type": "application/json",
                                                 "Accept-Language": LANGUAGE}});
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = {error: response.statusText}; }
    if (!response.ok) {
      const failure = new Error(answer.error || TEXT.serverAnswered(response.status));
      failure.status = response.status;
      throw failure;
    }
    return answer;
  }

  // An edit of the game shown: checked again at once, then the page shows the new report.
  async function edit(what, body) {
    const number = $("desk").dataset.game;
    say(TEXT.checking);
    try {
      await call(`/api/games/${number}/${what}`, body);
      location.reload();
    } catch (error) { say(error.message, true); }
  }

  // -- a board taking moves from the mouse, pen or finger ------------------------------------
  // The server lists every legal route with its squares (/api/routes, /api/play); this only
  // matches the squares picked against them, never the rules. A click (or a press) on a piece
  // that can move marks where it can land; a click or a drop on a landing square plays the
  // move. A capture is played by its landing squares in turn (or its last one at once) until
  // one move is left: where two routes stay possible, the board waits for the next square.
  // Pointer events cover the mouse, a pen and a finger alike.

  // Whether the squares picked (origin first) follow the route, skipped squares allowed:
  // the index in the route of the last one, or -1.
  function follows(picked, squares) {
    if (picked[0] !== squares[0]) return -1;
    let at = 0;
    for (const square of picked.slice(1)) {
      at = squares.indexOf(square, at + 1);
      if (at < 0) return -1;
    }
    return at;
  }

  const sameTaken = (a, b) => a.taken.join() === b.taken.join();

  function element(name, attributes) {
    const made = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, value);
    return made;
  }

  // A transparent target for the pointer on every square of a board (data-square names it),
  // drawn once per drawing of the board.
  function hitLayer(board, geometry) {
    let hits = board.querySelector("g.input-hits");
    if (hits) return hits;
    const half = geometry.size / 2;
    hits = element("g", {class: "input-hits"});
    for (const [square, [x, y]] of Object.entries(geometry.centres))
      hits.append(element("rect", {class: "hit", "data-square": square, x: x - half, y: y - half,
                                   width: geometry.size, height: geometry.size,
                                   fill: "transparent"}));
    board.append(hits);
    return hits;
  }

  function boardInput(holder, source) {
    // source: geometry() {centres: {square: [x, y]}, size} | null; routes() [route];
    // play(route); say(text, bad)
    let picked = [];
    let drag = null;
    holder.classList.add("board-input");

    const routes = () => source.routes() || [];
    const from = (square) => routes().filter((route) => route.squares[0] === square);
    const matching = (squares) => routes().filter((route) => follows(squares, route.squares) >= 0);
    const svg = () => holder.querySelector("svg");

    // The marks over the board (the squares picked, the next landing squares) under the
    // pointer's targets.
    function draw() {
      const board = svg(), geometry = source.geometry();
      if (!board || !geometry) return;
      board.querySelector("g.input-layer")?.remove();
      const layer = element("g", {class: "input-layer"}), half = geometry.size / 2;
      const next = new Set();
      for (const route of matching(picked)) {
        const at = follows(picked, route.squares);
        if (at + 1 < route.squares.length) next.add(route.squares[at + 1]);
      }
      for (const [square, [x, y]] of Object.entries(geometry.centres)) {
        const kind = picked[0] === square ? "picked" : picked.includes(square) ? "passed" : "";
        if (kind) layer.append(element("rect", {class: kind, x: x - half, y: y - half,
                                                 width: geometry.size, height: geometry.size}));
        if (next.has(square)) layer.append(element("circle", {class: "target", "data-square": square, cx: x, cy: y,
                                                              r: geometry.size * 0.3}));
      }
      const hits = hitLayer(board, geometry);
      board.insertBefore(layer, hits);
    }

    function reset() { picked = []; draw(); }

    const label = (square) => source.geometry()?.labels[square] ?? square;

    // A square that continues no move: the reason, named in the variant's notation.
    function refuse(square) {
      const origin = picked[0];
      const capture = routes().some((route) => route.taken.length) ? `; ${TEXT.mustCapture}` : "";
      reset();
      source.say(TEXT.refused((origin === undefined ? TEXT.noMoveFrom(label(square))
        : TEXT.notLegal(label(origin), label(square))) + capture), true);
    }

    // A square clicked, or a piece dropped on it.
    function choose(square) {
      if (!square) return;
      if (picked.length && square === picked[picked.length - 1]) {
        if (picked.length === 1) reset();
        return;
      }
      const longer = picked.length ? [...picked, square] : [];
      const left = longer.length ? matching(longer) : [];
      if (!left.length) {
        if (from(square).length) { picked = [square]; draw(); source.say("", false); return; }
        refuse(square);
        return;
      }
      picked = longer;
      const done = left.filter((route) => follows(longer, route.squares) === route.squares.length - 1);
      if (done.length === left.length && done.every((route) => sameTaken(route, done[0]))) {
        const route = done[0];
        reset();
        source.play(route);
        return;
      }
      draw();
      source.say(TEXT.goOn(picked.map(label).join(" ")), false);
    }

    const squareAt = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit && hit.matches("rect.hit") ? hit.dataset.square : null;
    };

    holder.addEventListener("pointerdown", (event) => {
      const square = event.target.closest?.("rect.hit")?.dataset.square;
      if (!square || event.button > 0) return;
      event.preventDefault();
      if (picked.length && matching([...picked, square]).length || !from(square).length) {
        choose(square);
        return;
      }
      const again = picked.length === 1 && picked[0] === square;
      picked = [square];
      draw();
      source.say("", false);
      const geometry = source.geometry();
      const ghost = element("circle", {class: "drag-ghost", r: geometry.size * 0.42,
                                       cx: geometry.centres[square][0],
                                       cy: geometry.centres[square][1]});
      svg().append(ghost);
      drag = {pointer: event.pointerId, origin: square, ghost, again};
    });

    holder.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const board = svg(), point = board.createSVGPoint();
      point.x = event.clientX; point.y = event.clientY;
      const at = point.matrixTransform(board.getScreenCTM().inverse());
      drag.ghost.setAttribute("cx", at.x); drag.ghost.setAttribute("cy", at.y);
    });

    function drop(event) {
      if (!drag || event.pointerId !== drag.pointer) return;
      const {origin, ghost, again} = drag;
      drag = null;
      ghost.remove();
      const square = event.type === "pointerup" ? squareAt(event.clientX, event.clientY) : null;
      if (square && square !== origin) choose(square);
      else if (square === origin && again) reset();  // a second click puts the piece down
    }
    holder.addEventListener("pointerup", drop);
    holder.addEventListener("pointercancel", drop);
    return {draw, reset};
  }

  function gamePage() {
    const desk = $("desk");
    desk.addEventListener("click", (event) => {
      const target = event.target;
      if (target.matches("button.apply")) edit("suggestion", {index: Number(target.dataset.index)});
      else if (target.matches("button.legal"))
        edit("move", {ply: Number(target.dataset.ply), text: target.dataset.text});
      else if (target.id === "recheck") edit("text", {text: $("pdn").value});
      else if (target.id === "evaluate") evaluate();
      else if (target.id === "stop-engine") stopEngine();
      else if (target.dataset.write) writeBack(target.dataset.write);
    });
    desk.addEventListener("keydown", (event) => {
      const target = event.target;
      if (event.key !== "Enter" || target.tagName !== "INPUT") return;
      event.preventDefault();
      if (target.dataset.ply !== undefined) edit("move", {ply: Number(target.dataset.ply), text: target.value});
      else if (target.dataset.tag !== undefined) edit("tag", {name: target.dataset.tag, value: target.value});
      else if (target.id === "new-tag-name" || target.id === "new-tag-value")
        edit("tag", {name: $("new-tag-name").value, value: $("new-tag-value").value});
    });
    // the diagram links follow the position shown on the board
    const board = $("board");
    analysisBoard(board, desk.dataset.variant);
    for (const kind of ["svg", "png"]) {
      $(`diagram-${kind}`).addEventListener("click", (event) => {
        const query = new URLSearchParams({variant: desk.dataset.variant, fen: board.dataset.fen});
        event.currentTarget.href = `/api/diagram.${kind}?${query}`;
      });
    }
  }

  // The game's board takes moves where the game stops (at its error): the move is written
  // in place of the one there, as a click on a legal move's button does.
  function analysisBoard(board, variant) {
    const known = new Map();
    const geometry = () => {
      if (typeof state === "undefined" || !state.view) return null;
      const kind = state.flipped ? {...state.view.kind, ...state.view.kind.flipped} : state.view.kind;
      return {size: kind.arrow.square,
              centres: Object.fromEntries(kind.squares.map((name, i) => [name, kind.centres[i]])),
              labels: Object.fromEntries(kind.squares.map((name, i) => [name, kind.names[i]]))};
    };
    const input = boardInput(board, {
      geometry,
      routes: () => known.get(board.dataset.fen),
      play: (route) => {
        const stop = document.querySelector("#legal button.legal");
        if (stop && Number(stop.dataset.ply) === Number(board.dataset.ply))
          edit("move", {ply: Number(stop.dataset.ply), text: route.text});
        else {
          say(TEXT.writtenAtError, true);
          const link = document.createElement("a");
          link.id = "play-on";
          link.textContent = TEXT.playOn(route.text);
          link.href = address("/new", {variant, fen: board.dataset.fen, moves: route.text});
          $("message").append(" ", link);
        }
      },
      say,
    });
    async function shown() {
      const fen = board.dataset.fen;
      input.draw();
      if (!fen || known.has(fen)) return;
      known.set(fen, null);
      try {
        known.set(fen, (await call("/api/routes", {variant, fen})).routes);
        if (board.dataset.fen === fen) input.draw();
      } catch (error) { known.delete(fen); say(error.message, true); }
    }
    new MutationObserver(shown).observe(board, {childList: true});
    shown();
  }

  // White's share of the evaluation bar: 50 at an even score, a logistic curve of the
  // score in men (about 67 a man up, 80 two men up), 100 or 0 for a won or lost end.
  function whiteShare(score) {
    if (score === null || score === undefined) return 50;
    if (score.startsWith("#")) return score.startsWith("#-") ? 0 : 100;
    return 100 / (1 + Math.exp(-0.7 * Number(score)));
  }

  async function evaluate() {
    const out = $("evaluation");
    out.textContent = TEXT.thinking;
    try {
      const found = await call("/api/engine", {variant: $("desk").dataset.variant,
                                               fen: $("board").dataset.fen});
      out.textContent = TEXT.evaluation(found.engine, found.score ?? "?", found.depth ?? "?",
                                         found.pv.join(" "));
      const bar = $("eval-bar");
      bar.value = whiteShare(found.score);
      bar.hidden = false;
      const others = (found.lines || []).slice(1);
      if (others.length) {
        const list = document.createElement("ol");
        list.start = 2;
        list.id = "other-lines";
        for (const line of others) {
          const item = document.createElement("li");
          item.textContent = TEXT.otherLine(line.score ?? "?", line.depth ?? "?",
                                            line.pv.join(" "));
          list.append(item);
        }
        out.append(list);
      }
    } catch (error) { out.textContent = error.message; }
  }

  async function stopEngine() {
    try {
      await call("/api/engine/stop", {});
      $("evaluation").textContent = TEXT.stopped;
    } catch (error) { $("evaluation").textContent = error.message; }
  }

  async function writeBack(number) {
    say(TEXT.writing);
    try {
      const answer = await call(`/api/documents/${number}/write`, {});
      say(TEXT.written(answer.original));
    } catch (error) {
      say(error.message, true);
      if (error.status === 409) offerReload(number);
    }
  }

  // The file changed on disk: read it again, the edits not yet written carried over.
  function offerReload(number) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = TEXT.reload;
    button.addEventListener("click", async () => {
      say(TEXT.reloading);
      try {
        await call(`/api/documents/${number}/reload`, {});
        location.reload();
      } catch (error) { say(error.message, true); }
    });
    $("message").append(" ", button);
  }

  function deskPage() {
    $("upload").addEventListener("submit", async (event) => {
      event.preventDefault();
      const file = $("upload-file").files[0];
      let name = "pasted.pdn", text = $("paste").value;
      if (file) {
        name = file.name;
        try { text = await file.text(); } catch (error) { say(`${name}: ${error.message}`, true); return; }
      }
      if (!text.trim()) { say(TEXT.nothingToCheck, true); return; }
      say(TEXT.checking);
      try {
        const answer = await call("/api/upload", {name, text});
        if (!answer.games.length) { say(TEXT.noGame(name), true); return; }
        location.href = address(`/games/${answer.games[0]}`);
      } catch (error) { say(error.message, true); }
    });
    document.addEventListener("click", (event) => {
      if (event.target.dataset.write) writeBack(event.target.dataset.write);
    });
  }

  // -- a new game, typed move by move ------------------------------------------------------

  const typed = {moves: [], pdn: "", fen: "", routes: [], geometry: null, input: null};

  // The moves with their numbers, as the game's PDN numbers them.
  const numbered = (moves) => moves.map((move, index) =>
    index % 2 === 0 ? `${index / 2 + 1}. ${move}` : move).join(" ");

  async function play(extra) {
    const moves = extra === null ? typed.moves : [...typed.moves, extra];
    try {
      const start = typed.fen ? {SetUp: "1", FEN: typed.fen} : {};
      const answer = await call("/api/play", {variant: $("variant").value, moves,
        tags: {White: $("white").value, Black: $("black").value, ...start}});
      typed.moves = answer.accepted;
      typed.pdn = answer.pdn;
      $("typed-moves").textContent = numbered(answer.accepted);
      $("typed-board").innerHTML = answer.svg;  // drawn by the server from the position only
      typed.routes = answer.routes;
      typed.geometry = {centres: answer.centres, size: answer.size, labels: answer.labels};
      typed.input.draw();
      $("typed-legal").replaceChildren(...answer.legal.map((move) => {
        const button = document.createElement("button");
        button.type = "button"; button.className = "legal"; button.textContent = move;
        button.addEventListener("click", () => play(move));
        return button;
      }));
      if (answer.error) say(TEXT.refused(answer.error), true);
      else say(extra === null ? "" : TEXT.accepted(extra));
      return !answer.error;
    } catch (error) { say(error.message, true); return false; }
  }

  function newPage() {
    typed.input = boardInput($("typed-board"), {
      geometry: () => typed.geometry, routes: () => typed.routes,
      play: (route) => play(route.text), say});
    $("type-move").addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("move-input");
      if (await play(input.value.trim())) input.value = "";
    });
    $("take-back").addEventListener("click", () => { typed.moves.pop(); play(null); });
    $("variant").addEventListener("change", () => { typed.moves = []; typed.fen = ""; play(null); });
    // a start position from the address (the position editor's "New game from here")
    const query = new URLSearchParams(location.search);
    if (query.get("variant")) $("variant").value = query.get("variant");
    typed.fen = query.get("fen") || "";
    typed.moves = (query.get("moves") || "").split(" ").filter(Boolean);
    $("add-typed").addEventListener("click", async () => {
      try {
        const answer = await call("/api/upload", {name: "typed.pdn", text: typed.pdn});
        location.href = address(`/games/${answer.games[0]}`);
      } catch (error) { say(error.message, true); }
    });
    play(null);
  }

  // -- the position editor -------------------------------------------------------------------
  // The board, FEN, tags and problems all come from the server (/api/position), which reads
  // the position with the project's own rules; a click puts the piece chosen on a square (a
  // second click with the same piece empties it).

  const edited = {pieces: {}, white: true, fen: "", tags: "", geometry: null};

  async function setUp(body) {
    const variant = $("editor-variant").value;
    try {
      const answer = await call("/api/position", {variant, ...body});
      Object.assign(edited, {pieces: answer.pieces, white: answer.white, fen: answer.fen,
                             tags: answer.tags,
                             geometry: {centres: answer.centres, size: answer.size}});
      $("editor-board").innerHTML = answer.svg;  // drawn by the server from the position only
      hitLayer($("editor-board").querySelector("svg"), edited.geometry);
      $("editor-fen").value = answer.fen;
      $("editor-turn").value = answer.white ? "W" : "B";
      $("editor-tags").textContent = answer.tags;
      const problems = answer.problems.length ? answer.problems
        : [answer.legal ? TEXT.reachable : TEXT.noMove];
      $("editor-problems").replaceChildren(...problems.map((text) => {
        const item = document.createElement("li"); item.textContent = text; return item;
      }));
      $("editor-problems").className = answer.problems.length ? "error" : "";
      say("");
    } catch (error) { say(error.message, true); }
  }

  function editorPage() {
    const board = $("editor-board");
    board.classList.add("board-input");
    board.addEventListener("pointerdown", (event) => {
      const square = event.target.closest?.("rect.hit")?.dataset.square;
      if (!square) return;
      event.preventDefault();
      const code = document.querySelector('input[name="piece"]:checked').value;
      const pieces = {...edited.pieces};
      if (!code || pieces[square] === code) delete pieces[square];
      else pieces[square] = code;
      setUp({pieces, white: edited.white});
    });
    $("editor-turn").addEventListener("change", (event) =>
      setUp({pieces: edited.pieces, white: event.target.value === "W"}));
    $("editor-variant").addEventListener("change", () => setUp({}));
    $("editor-start").addEventListener("click", () => setUp({}));
    $("editor-clear").addEventListener("click", () => setUp({pieces: {}, white: edited.white}));
    $("editor-fen").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      setUp({fen: event.target.value});
    });
    $("editor-new").addEventListener("click", () => {
      location.href = address("/new", {variant: $("editor-variant").value, fen: edited.fen});
    });
    $("editor-analyse").addEventListener("click", async () => {
      try {
        const answer = await call("/api/upload", {name: "position.pdn",
                                                  text: `${edited.tags}\n\n*\n`});
        location.href = address(`/games/${answer.games[0]}`);
      } catch (error) { say(error.message, true); }
    });
    const query = new URLSearchParams(location.search);
    if (query.get("variant")) $("editor-variant").value = query.get("variant");
    setUp(query.get("fen") ? {fen: query.get("fen")} : {});
  }

  const page = document.body.dataset.page;
  if (page === "game") gamePage();
  else if (page === "desk") deskPage();
  else if (page === "new") newPage();
  else if (page === "editor") editorPage();
})();
