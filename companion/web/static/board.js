// The live scoreboard: draws the state JSON and keeps it fresh over server-sent events.
// One full snapshot per event, so drawing is a pure function of the latest state.
"use strict";
const Board = (() => {
  let current = null;
  let source = null;
  let lastId = null;
  let delay = 1000;
  const MAX_DELAY = 15000;
  const listeners = [];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // Breakdown values are game-specific JSON: name things by their title or name, with DP.
  function words(value) {
    if (value === null || value === undefined) return "–";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) return value.length ? value.map(words).join(", ") : "none";
    if (typeof value === "object") {
      const label = value.title || value.name;
      if (label) return value.dp !== undefined ? `${label} (${value.dp} DP)` : String(label);
      return Object.entries(value).map(([k, v]) => `${k.replaceAll("_", " ")} ${words(v)}`).join("; ");
    }
    return String(value);
  }

  function title(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : "No game yet"; }

  function drawPlayers(state) {
    const list = document.getElementById("players");
    list.replaceChildren();
    const winners = new Set(state.winners || []);
    for (const p of state.players || []) {
      const item = el("li", "player");
      item.dataset.name = p.name;
      if (winners.has(p.name)) item.classList.add("winner");
      if (state.current_player === p.name) item.classList.add("turn");
      const name = el("span", "name", p.name);
      if (state.current_player === p.name) name.append(el("span", "tag", "turn"));
      if (winners.has(p.name)) name.append(el("span", "tag", "wins"));
      item.append(name, el("span", "total", p.total));
      const entries = Object.entries(p.breakdown || {});
      if (entries.length) {
        const details = el("details");
        details.append(el("summary", null, "How it adds up"));
        const dl = el("dl");
        for (const [key, value] of entries) dl.append(el("dt", null, key.replaceAll("_", " ")), el("dd", null, words(value)));
        details.append(dl);
        item.append(details);
      }
      list.append(item);
    }
  }

  function drawTable(state) {
    const list = document.getElementById("table-cards");
    list.replaceChildren();
    if (!state.table || !state.table.length) { list.append(el("li", "muted", "nothing seen yet")); return; }
    const seats = (state.players || []).map((p) => p.name);
    // vision's zones are "centre" or "seat-N": show the player sitting there
    const place = (zone) => {
      const seat = /^seat-(\d+)$/.exec(zone || "");
      return seat && seats[Number(seat[1])] ? seats[Number(seat[1])] : (zone || "table");
    };
    for (const card of state.table) {
      const chip = el("li", card.code ? "" : "unsure", `${card.code || "?"} · ${place(card.zone)}`);
      chip.title = `confidence ${card.confidence}`;
      list.append(chip);
    }
  }

  function drawLog(state) {
    const list = document.getElementById("log");
    list.replaceChildren();
    for (const line of state.log || []) {
      const item = el("li", line.undone ? "undone" : "", line.text);
      item.append(el("span", "src", line.source));
      list.append(item);
    }
  }

  function render(state) {
    document.getElementById("game-title").textContent = title(state.game);
    document.getElementById("game-status").textContent = state.status;
    document.getElementById("prompt").textContent = state.prompt || "";
    const waiting = document.getElementById("waiting");
    const open = (state.questions || []).length;
    waiting.hidden = !open;
    waiting.textContent = open ? `Waiting for the host: ${state.questions[0].text}` : "";
    const results = document.getElementById("results");
    results.hidden = !(state.status === "finished" && state.game_id);
    if (!results.hidden) document.getElementById("results-link").href = `/history/${state.game_id}`;
    drawPlayers(state);
    drawTable(state);
    drawLog(state);
    document.body.dataset.version = state.version;
  }

  function apply(state) {
    current = state;
    render(state);
    for (const listener of listeners) listener(state);
  }

  function setLink(live) {
    const link = document.getElementById("link");
    link.className = live ? "link live" : "link lost";
    link.textContent = live ? "live" : "reconnecting…";
  }

  // Our own reconnect with capped back-off, resuming from the last event id we saw.
  function connect() {
    const url = "/api/stream" + (lastId ? "?last=" + encodeURIComponent(lastId) : "");
    source = new EventSource(url);
    source.onopen = () => { delay = 1000; setLink(true); };
    source.addEventListener("state", (event) => {
      lastId = event.lastEventId || lastId;
      apply(JSON.parse(event.data));
    });
    source.onerror = () => {
      source.close();
      source = null;
      setLink(false);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_DELAY);
    };
  }

  function start() {
    apply(JSON.parse(document.getElementById("initial-state").textContent));
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && source === null) { delay = 1000; connect(); }
    });
  }

  return { start, apply, onState: (f) => listeners.push(f), current: () => current, el };
})();
