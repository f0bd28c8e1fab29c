"use strict";
// The desk's script (pdn serve): sends the arbiter's edits to the JSON API and shows the
// answer; the board and the moves are the viewer's (replay/viewer/viewer.js). Every text
// from the server goes into the page as text (textContent), never as HTML.
// Its own scope: the game page also loads the viewer's script, which has its own $.
(() => {
  const $ = (id) => document.getElementById(id);

  function say(text, bad) {
    const box = $("message");
    if (box) { box.textContent = text; box.className = bad ? "error" : ""; }
  }

  async function call(url, body) {
    const response = await fetch(url, {method: "POST", body: JSON.stringify(body),
                                       headers: {"Content-Type": "application/json"}});
    let answer = {};
    try { answer = await response.json(); } catch (e) { answer = {error: response.statusText}; }
    if (!response.ok) {
      const failure = new Error(answer.error || `the server answered ${response.status}`);
      failure.status = response.status;
      throw failure;
    }
    return answer;
  }

  // An edit of the game shown: checked again at once, then the page shows the new report.
  async function edit(what, body) {
    const number = $("desk").dataset.game;
    say("Checking…");
    try {
      await call(`/api/games/${number}/${what}`, body);
      location.reload();
    } catch (error) { say(error.message, true); }
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
    for (const kind of ["svg", "png"]) {
      $(`diagram-${kind}`).addEventListener("click", (event) => {
        const query = new URLSearchParams({variant: desk.dataset.variant, fen: board.dataset.fen});
        event.currentTarget.href = `/api/diagram.${kind}?${query}`;
      });
    }
  }

  async function evaluate() {
    const out = $("evaluation");
    out.textContent = "The engine is thinking…";
    try {
      const found = await call("/api/engine", {variant: $("desk").dataset.variant,
                                               fen: $("board").dataset.fen});
      out.textContent = `${found.engine}: ${found.score ?? "?"} (depth ${found.depth ?? "?"})` +
        (found.pv.length ? `, best line ${found.pv.join(" ")}` : "");
    } catch (error) { out.textContent = error.message; }
  }

  async function writeBack(number) {
    say("Writing…");
    try {
      const answer = await call(`/api/documents/${number}/write`, {});
      say(`Written; the original is kept as ${answer.original}.`);
    } catch (error) {
      say(error.message, true);
      if (error.status === 409) offerReload(number);
    }
  }

  // The file changed on disk: read it again, the edits not yet written carried over.
  function offerReload(number) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Reload the file from disk";
    button.addEventListener("click", async () => {
      say("Reloading…");
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
      if (!text.trim()) { say("Choose a file or paste a game first.", true); return; }
      say("Checking…");
      try {
        const answer = await call("/api/upload", {name, text});
        if (!answer.games.length) { say(`${name}: no game found in it.`, true); return; }
        location.href = `/games/${answer.games[0]}`;
      } catch (error) { say(error.message, true); }
    });
    document.addEventListener("click", (event) => {
      if (event.target.dataset.write) writeBack(event.target.dataset.write);
    });
  }

  // -- a new game, typed move by move ------------------------------------------------------

  const typed = {moves: [], pdn: ""};

  async function play(extra) {
    const moves = extra === null ? typed.moves : [...typed.moves, extra];
    try {
      const answer = await call("/api/play", {variant: $("variant").value, moves,
        tags: {White: $("white").value, Black: $("black").value}});
      typed.moves = answer.accepted;
      typed.pdn = answer.pdn;
      $("typed-moves").textContent = answer.accepted.join(" ");
      $("typed-board").innerHTML = answer.svg;  // drawn by the server from the position only
      $("typed-legal").replaceChildren(...answer.legal.map((move) => {
        const button = document.createElement("button");
        button.type = "button"; button.className = "legal"; button.textContent = move;
        button.addEventListener("click", () => play(move));
        return button;
      }));
      if (answer.error) say(`Refused: ${answer.error}`, true);
      else say(extra === null ? "" : `${extra}: accepted.`);
      return !answer.error;
    } catch (error) { say(error.message, true); return false; }
  }

  function newPage() {
    $("type-move").addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = $("move-input");
      if (await play(input.value.trim())) input.value = "";
    });
    $("take-back").addEventListener("click", () => { typed.moves.pop(); play(null); });
    $("variant").addEventListener("change", () => { typed.moves = []; play(null); });
    $("add-typed").addEventListener("click", async () => {
      try {
        const answer = await call("/api/upload", {name: "typed.pdn", text: typed.pdn});
        location.href = `/games/${answer.games[0]}`;
      } catch (error) { say(error.message, true); }
    });
    play(null);
  }

  const page = document.body.dataset.page;
  if (page === "game") gamePage();
  else if (page === "desk") deskPage();
  else if (page === "new") newPage();
})();
