// The live scoreboard: draws the state JSON and keeps it fresh over server-sent events.
// One full snapshot per event, so drawing is a pure function of the latest state. It draws
// only what the state holds: what the server keeps from viewers never reaches this page.
"use strict";
const Board = (() => {
  let current = null;
  let source = null;
  let lastId = null;
  let delay = 1000;
  const MAX_DELAY = 15000;
  const listeners = [];
  const SVG = "http://www.w3.org/2000/svg";
  const ORDINALS = ["1st", "2nd", "3rd"];
  let WORDS = { games: {} };
  // The table's own deck, as its deck file prints it (a Lagim card's level): the rulebook's
  // catalogue in WORDS leaves most levels out. Read from the game's forms once a game.
  let deckFacts = {};
  let deckOf = null;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    return node;
  }

  function title(text) { return text ? text.charAt(0).toUpperCase() + text.slice(1) : "No game yet"; }
  function ordinal(rank) { return ORDINALS[rank - 1] || `${rank}th`; }
  function plural(n, one, many) { return `${n} ${n === 1 ? one : (many || one + "s")}`; }
  function facts(game) { return WORDS.games[game] || { goal: "", unit: "points", lowest_wins: false }; }

  // -- cards as small coloured symbols ---------------------------------------------

  // A card symbol: an inline picture plus its name for screen readers (role img + label).
  function symbol(className, label, draw) {
    const node = el("span", `card ${className}`);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
    node.title = label;
    if (draw) draw(node);
    return node;
  }

  function baganiCard(code) {
    const bagani = WORDS.bagani || { colours: {}, biyaya: { code: "biyaya", name: "Biyaya ni Apo" } };
    if (code === bagani.biyaya.code) {
      return symbol("bagani biyaya", bagani.biyaya.name, (node) => {
        const pic = svg("svg", { viewBox: "0 0 20 20", "aria-hidden": "true" });
        pic.append(svg("path", { d: "M10 1l2.6 6 6.4.6-4.9 4.2 1.5 6.3L10 14.8 4.4 18.1l1.5-6.3L1 7.6 7.4 7z" }));
        node.append(pic);
      });
    }
    const [colour, shape] = String(code).split("-");
    if (!(colour in bagani.colours)) return nameCard("bagani", code);
    return symbol(`bagani c-${colour}`, `${colour} ${shape}`, (node) => {
      const pic = svg("svg", { viewBox: "0 0 20 20", "aria-hidden": "true" });
      pic.append(shape === "circle" ? svg("circle", { cx: 10, cy: 10, r: 8 })
                                    : svg("rect", { x: 2.5, y: 2.5, width: 15, height: 15, rx: 1 }));
      node.append(pic);
    });
  }

  function halimawCard(halimaw) {
    const label = `${halimaw.name}${halimaw.color ? ` (${halimaw.color})` : ""}${halimaw.dp !== undefined && halimaw.dp !== null ? `, ${halimaw.dp} DP` : ""}`;
    const node = symbol(`halimaw c-${halimaw.color || "none"}`, label);
    node.append(el("span", "face", halimaw.name));
    if (halimaw.dp !== undefined && halimaw.dp !== null) node.append(el("span", "value", `${halimaw.dp}`));
    return node;
  }

  function gargonCard(code) {
    const [colour, value] = String(code).split("-");
    const creature = ((WORDS.gargon || {}).colours || {})[colour];
    if (value === undefined) return gargonBack(colour);
    const node = symbol(`gargon c-${colour}`, `${creature || colour} ${value}`);
    node.append(el("span", "value", value));
    return node;
  }

  function gargonBack(colour) {
    const creature = ((WORDS.gargon || {}).colours || {})[colour];
    return symbol(`gargon back c-${colour}`, `a ${creature || colour} card, face down`);
  }

  function syllableTile(code) {
    const action = ((WORDS.dugtungan || {}).actions || []).includes(code);
    const node = symbol(`tile${action ? " action" : ""}`, action ? `action card ${code}` : `syllable ${code}`);
    node.append(el("span", "face", code));
    return node;
  }

  function lagimCard(code) {
    const key = String(code).toLowerCase();
    const printed = ((WORDS.lagim || {}).cards || {})[key];
    const known = printed && { ...printed, ...(deckFacts[key] || {}) };
    const name = known ? known.name : String(code);
    const level = known && known.level ? ` level ${known.level}` : "";
    const node = symbol(`lagim ${known ? known.deck : ""}`, `${name}${level}`);
    node.append(el("span", "face", name));
    if (known && known.level) node.append(el("span", "value", `Lv ${known.level}`));
    return node;
  }

  function nameCard(game, code) {
    const node = symbol(`named ${game}`, String(code));
    node.append(el("span", "face", String(code)));
    return node;
  }

  function unknownCard() {
    const node = symbol("unknown", "a card the camera could not name");
    node.append(el("span", "face", "?"));
    return node;
  }

  function card(game, code) {
    if (code === null || code === undefined) return unknownCard();
    if (game === "bagani") return /^[a-z]+-(circle|square)$|^biyaya$/.test(code) ? baganiCard(code) : halimawCard({ name: title(code) });
    if (game === "gargon") return gargonCard(code);
    if (game === "dugtungan") return syllableTile(code);
    if (game === "lagim") return lagimCard(code);
    return nameCard(game, code);
  }

  function cardRow(cards, label) {
    const row = el("span", "cards");
    if (label) row.setAttribute("aria-label", label);
    for (const c of cards) row.append(c);
    return row;
  }

  // -- what each total is made of, in the words players use --------------------------

  // One line of "How it adds up": a label, a value in words, optional cards, provisional mark.
  function line(label, value, extra) {
    return { label, value, cards: (extra || {}).cards || [], provisional: !!(extra || {}).provisional };
  }

  function baganiLines(b, playing) {
    const combos = (WORDS.bagani || {}).combos || {};
    const lines = [line("Halimaw defeated", `${b.halimaw_dp} DP`, { cards: (b.halimaw || []).map(halimawCard) })];
    for (const award of b.awards || []) lines.push(line(award.title, `${award.dp} DP`, { provisional: playing }));
    if (!(b.awards || []).length) lines.push(line("Awards", "none yet"));
    if (b.hand_shown) {
      const named = (b.hand_combos || []).map((c) => `${combos[c.combo] || c.combo} (${c.ap} AP)`);
      lines.push(line("Final hand", named.length ? `${named.join(" + ")}: ${b.hand_dp} DP` : "no combos",
                      { cards: (b.hand_combos || []).flatMap((c) => c.cards.map(baganiCard)) }));
    } else {
      lines.push(line("Final hand", "not shown yet"));
    }
    return lines;
  }

  function gargonLines(b) {
    const creatures = (WORDS.gargon || {}).colours || {};
    const lines = [line("Cards won", b.cards), line("Colour bonuses", `${b.bonus} points`),
                   line("Amulets", `${b.amulets} points`)];
    for (const [colour, entry] of Object.entries(b.colours || {})) {
      lines.push(line(`${creatures[colour] || colour} (${colour})`,
                      `${plural(entry.cards, "card")}, ${plural(entry.amulets, "amulet")}, bonus ${entry.bonus}`));
    }
    return lines;
  }

  function dugtunganLines(b) {
    const lines = [line("Cards in hand", b.cards)];
    if (b.unseen) lines.push(line("Not seen yet", `${plural(b.unseen, "card")}: their letters count once shown`, { provisional: true }));
    if (b.letters) lines.push(line("Letters", b.letters.join(" · ")));
    return lines;
  }

  function lagimLines(b) {
    const path = (WORDS.lagim || {}).spirit_path || 3;
    const lines = [line("Spirit Path", `${b.spirit_path} of ${path} coins`), line("Soul Coins left", b.soul_coins)];
    if (b.eliminated) lines.push(line("Baryo", "out of the game"));
    if (b.path_complete) lines.push(line("Spirit Path", "complete"));
    return lines;
  }

  // Anything a game adds that this page does not know yet, still readable.
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

  function breakdownLines(game, breakdown, playing) {
    if (!breakdown || !Object.keys(breakdown).length) return [];
    if (game === "bagani") return baganiLines(breakdown, playing);
    if (game === "gargon") return gargonLines(breakdown);
    if (game === "dugtungan") return dugtunganLines(breakdown);
    if (game === "lagim") return lagimLines(breakdown);
    return Object.entries(breakdown).map(([k, v]) => line(title(k.replaceAll("_", " ")), words(v)));
  }

  // Cards in front of a player that everyone can see (face-down ones drawn as backs).
  function publicCards(state, index) {
    const seat = ((state.state || {}).players || [])[index];
    if (!seat || typeof seat !== "object") return [];
    if (state.game === "gargon") {
      if (Array.isArray(seat.won)) return seat.won.map(gargonCard);
      return Object.entries(seat.won_colours || {}).flatMap(([colour, n]) => Array.from({ length: n }, () => gargonBack(colour)));
    }
    if (state.game === "lagim") return [...(seat.captured || []), ...(seat.dwellers || [])].map(lagimCard);
    return [];
  }

  // -- standings -------------------------------------------------------------------

  // Players best first; equal totals share a rank (1, 1, 3). Hidden totals rank last.
  function rank(game, players) {
    const lowest = facts(game).lowest_wins;
    const out = (p) => (p.breakdown && p.breakdown.eliminated) ? 1 : 0;
    const known = (p) => typeof p.total === "number";
    const order = players.map((p, seat) => ({ ...p, seat })).sort((a, b) =>
      (known(b) - known(a)) || (out(a) - out(b)) || (lowest ? a.total - b.total : b.total - a.total) || (a.seat - b.seat));
    let previous = null;
    order.forEach((p, i) => {
      const same = previous && known(p) && known(previous) && previous.total === p.total && out(previous) === out(p);
      p.rank = known(p) ? (same ? previous.rank : i + 1) : null;
      previous = p;
    });
    return order;
  }

  function drawGoal(state) {
    const goal = document.getElementById("goal");
    if (!goal) return;
    const text = state.game ? facts(state.game).goal : "";
    const provisional = state.status === "playing" && state.game === "bagani";
    goal.textContent = text + (provisional ? ". Awards are provisional until the game ends (marked ≈)." : text ? "." : "");
  }

  function drawPodium(state, ranked) {
    const podium = document.getElementById("podium");
    if (!podium) return;
    podium.replaceChildren();
    podium.hidden = state.status !== "finished" || !ranked.length;
    if (podium.hidden) return;
    const unit = facts(state.game).unit;
    // 2nd, 1st, 3rd from left to right, as on a real podium; screen readers hear 1st first.
    const places = ranked.filter((p) => p.rank !== null && p.rank <= 3);
    for (const p of places) {
      const step = el("li", `step place-${Math.min(p.rank, 3)}`);
      step.dataset.name = p.name;
      step.append(el("span", "place", ordinal(p.rank)), el("span", "who", p.name),
                  el("span", "score", `${p.total} ${unit}`));
      podium.append(step);
    }
  }

  function drawPlayers(state) {
    const list = document.getElementById("players");
    // a breakdown someone opened stays open when the next state arrives
    const opened = new Set([...list.querySelectorAll("details[open]")].map((d) => d.closest(".player").dataset.name));
    list.replaceChildren();
    const winners = new Set(state.winners || []);
    const playing = state.status === "playing";
    const unit = facts(state.game).unit;
    const seats = (state.players || []).map((p) => p.name);
    const ranked = rank(state.game, state.players || []);
    const leaders = ranked.filter((p) => p.rank === 1);
    const leading = playing && leaders.length && leaders.length < ranked.length;
    for (const p of ranked) {
      const item = el("li", "player");
      item.dataset.name = p.name;
      if (p.rank !== null) item.dataset.rank = p.rank;
      if (winners.has(p.name)) item.classList.add("winner");
      if (leading && p.rank === 1) item.classList.add("leader");
      if (state.current_player === p.name) item.classList.add("turn");
      item.append(el("span", "rank", p.rank === null ? "–" : ordinal(p.rank)));
      const name = el("span", "name", p.name);
      if (winners.has(p.name)) name.append(el("span", "tag win", "wins"));
      else if (leading && p.rank === 1) name.append(el("span", "tag lead", leaders.length > 1 ? "joint lead" : "leads"));
      if (state.current_player === p.name) name.append(el("span", "tag turn", "their turn"));
      item.append(name);
      const lines = breakdownLines(state.game, p.breakdown, playing);
      const provisional = playing && lines.some((l) => l.provisional);
      const score = el("span", "score");
      const total = el("span", "total", typeof p.total === "number" ? p.total : "–");
      if (provisional) total.classList.add("provisional");
      score.append(total, el("span", "unit", typeof p.total === "number" ? (provisional ? `${unit} so far` : unit) : "face down"));
      item.append(score);
      const cards = publicCards(state, seats.indexOf(p.name));
      if (cards.length) item.append(cardRow(cards, `${p.name}'s cards`));
      if (lines.length) {
        const details = el("details");
        details.open = opened.has(p.name);
        details.append(el("summary", null, "How it adds up"));
        const dl = el("dl");
        for (const l of lines) {
          const dd = el("dd", null, l.value);
          if (l.provisional && playing) dd.append(el("span", "tag maybe", "provisional"));
          dl.append(el("dt", null, l.label), dd);
          if (l.cards.length) {
            const shown = el("dd", "card-line");
            shown.append(cardRow(l.cards));
            dl.append(shown);
          }
        }
        details.append(dl);
        item.append(details);
      }
      list.append(item);
    }
    return ranked;
  }

  // -- the table -------------------------------------------------------------------

  function zoneName(state, zone) {
    const seats = (state.players || []).map((p) => p.name);
    const seat = /^seat-(\d+)$/.exec(zone || "");
    return seat && seats[Number(seat[1])] ? seats[Number(seat[1])] : (zone || "table");
  }

  function drawTable(state) {
    const list = document.getElementById("table-cards");
    list.replaceChildren();
    if (!state.table || !state.table.length) { list.append(el("li", "muted", "nothing seen yet")); return; }
    for (const seen of state.table) {
      const chip = el("li", seen.code ? "" : "unsure");
      chip.append(card(state.game, seen.code), el("span", "where", zoneName(state, seen.zone)));
      chip.title = `confidence ${seen.confidence}`;
      list.append(chip);
    }
  }

  // The rows everyone sees in the middle of the table, game by game.
  function inPlay(state) {
    const s = state.state || {};
    const rows = [];
    if (state.game === "bagani") {
      if (s.halimaw_row) rows.push(["Halimaw row", s.halimaw_row.filter(Boolean).map(halimawCard)]);
      if (s.bagani_row) rows.push(["Bagani row", s.bagani_row.filter(Boolean).map(baganiCard)]);
    } else if (state.game === "dugtungan") {
      if (s.pamato) rows.push(["PAMATO", [syllableTile(s.pamato)]]);
      if (s.word && s.word.length) rows.push([`Word${s.word_owner ? ` (${s.word_owner})` : ""}`, s.word.map(syllableTile)]);
    } else if (state.game === "lagim") {
      if (s.phase_name) rows.push(["Phase", [el("span", "phase", s.phase_name)]]);
      if (s.incoming && s.incoming.cards) rows.push(["Attacking", s.incoming.cards.map(lagimCard)]);
    } else if (state.game === "gargon" && s.round) {
      rows.push(["Round", [el("span", "phase", `${s.round}${s.start ? `, ${s.start} starts` : ""}`)]]);
    }
    return rows;
  }

  function drawInPlay(state) {
    const box = document.getElementById("in-play");
    if (!box) return;
    box.replaceChildren();
    const rows = inPlay(state);
    box.parentElement.hidden = !rows.length;
    for (const [label, cards] of rows) {
      box.append(el("dt", null, label));
      const dd = el("dd");
      dd.append(cardRow(cards, label));
      box.append(dd);
    }
  }

  function drawLog(state) {
    const list = document.getElementById("log");
    list.replaceChildren();
    for (const entry of state.log || []) {
      const item = el("li", entry.undone ? "undone" : "", entry.text);
      item.append(el("span", "src", entry.source));
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
    drawGoal(state);
    drawPodium(state, drawPlayers(state));
    drawInPlay(state);
    drawTable(state);
    drawLog(state);
    document.body.dataset.version = state.version;
  }

  // A page whose own view stands in for some pushes (the host's: a push carries the viewers'
  // view, which hides Gargon's running totals) leaves those undrawn, so nothing flashes.
  let passOver = () => false;

  function apply(state) {
    if (passOver(state)) return;
    current = state;
    render(state);
    for (const listener of listeners) listener(state);
    if (state.game === "lagim" && state.game_id && state.game_id !== deckOf) loadDeck(state.game_id);
  }

  async function loadDeck(gameId) {
    deckOf = gameId;
    try {
      const schema = await (await fetch("/api/schema")).json();
      if (schema.game !== "lagim") return;
      deckFacts = {};
      for (const entry of Object.values(schema.lists || {}).flat()) {
        const level = (entry.facts || {}).level;
        if (level !== undefined && level !== null) deckFacts[String(entry.code).toLowerCase()] = { level };
      }
      if (current) render(current);
    } catch (error) {
      deckOf = null;  // the next state tries again
    }
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

  function loadWords() {
    const node = document.getElementById("game-words");
    if (node) WORDS = JSON.parse(node.textContent);
  }

  function start() {
    loadWords();
    apply(JSON.parse(document.getElementById("initial-state").textContent));
    connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && source === null) { delay = 1000; connect(); }
    });
  }

  // A finished game's page: the same standings and podium from its stored result.
  function showResult(result) {
    loadWords();
    const state = { game: result.game, status: "finished", players: result.players, winners: result.winners };
    drawGoal(state);
    drawPodium(state, drawPlayers(state));
  }

  return { start, apply, showResult, onState: (f) => listeners.push(f), passOver: (f) => { passOver = f; },
           current: () => current, el };
})();
