// The host's controls: every write is a POST under /api/host/ carrying the CSRF token.
// Questions are answered with one tap, events entered and corrected in forms built from
// the game's event schema, and the camera's picture refreshes about once a second.
"use strict";
(() => {
  let csrf = document.getElementById("csrf").content;
  const $ = (id) => document.getElementById(id);
  const el = Board.el;
  const CAMERA_EVERY_MS = 1000;
  let schema = null;        // the game's event forms (/api/schema), fetched again after each event:
  let schemaFor = null;     // its lists follow the game (a Halimaw or a level the host has told)
  let schemaLoad = null;    // the fetch of the schema for schemaFor (settled once it is in)
  let correcting = null;    // seq of the event being corrected, or null for a new event
  let readForm = null;      // () => the event the form holds
  let formFor = null;       // the game and turn the form was last built for
  let formGame = null;      // the game whose schema built the form
  let started = false;      // the host has tapped the form since it was built: no push rebuilds it
  let formNumber = 0;       // which form this is: a send's answer resets only the form it sent
  const drawn = {};         // what each part was last drawn from: a push that changes nothing
                            // redraws nothing, so a focused control keeps its focus

  function changed(part, ...from) {
    const key = JSON.stringify(from);
    if (drawn[part] === key) return false;
    drawn[part] = key;
    return true;
  }

  function showError(text) {
    const box = $("host-error");
    box.hidden = !text;
    box.textContent = text || "";
    if (text) box.scrollIntoView({ block: "nearest" });
  }

  async function post(path, body) {
    const response = await fetch("/api/host/" + path, {
      method: "POST",
      // one key per tap: a resend of the same write is recorded once
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf,
                 "Idempotency-Key": `${Date.now()}-${Math.random().toString(36).slice(2)}` },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) { showError(data.error || "refused"); return null; }
    showError(null);
    if (data.speech) drawSpeech(data.speech);
    if (data.version !== undefined) applyHost(data);
    return data;
  }

  // The host's own fetches can be answered out of order: a refresh the server answered
  // before a send can reach the page after the send's answer. Drawn, that older state
  // would turn the game back (its events, whose turn, a fresh form for a turn that has
  // passed) until the next push, so a state older than the one shown is dropped. Pushes
  // come in order on one stream and always draw, so a restarted server, counting its
  // versions from 0 again, is followed from its first push.
  function applyHost(state) {
    const shown = Board.current();
    if (shown && state.version < shown.version) return;
    Board.apply(state);
  }

  // --- confirmation: a dialog of our own (keyboard and screen-reader friendly) ---
  function confirmAction(text, ok) {
    const dialog = $("confirm");
    $("confirm-text").textContent = text;
    $("confirm-ok").textContent = ok;
    return new Promise((resolve) => {
      const done = (answer) => { if (dialog.open) dialog.close(); resolve(answer); };
      $("confirm-ok").onclick = () => done(true);
      $("confirm-cancel").onclick = () => done(false);
      dialog.onclose = () => resolve(false);
      dialog.showModal();
      $("confirm-cancel").focus();
    });
  }

  // --- questions ---
  function percent(confidence) {
    return confidence === null || confidence === undefined ? "" : ` · ${Math.round(confidence * 100)}%`;
  }

  function pickList(q) {
    return (schema && q.list && schema.lists[q.list]) || [];
  }

  // The pick-list holding `code` (a Halimaw among Bagani cards), else the question's own.
  function listFor(code, q) {
    const folded = String(code || "").toLowerCase();
    for (const entries of Object.values((schema && schema.lists) || {})) {
      if (entries.some((e) => String(e.code).toLowerCase() === folded)) return entries;
    }
    return pickList(q);
  }

  function drawQuestions(state) {
    if (!changed("questions", state.questions, schema && schema.game, state.game_id)) return;
    const list = $("question-list");
    list.replaceChildren();
    $("questions").hidden = !(state.questions || []).length;
    for (const q of state.questions || []) {
      const item = el("li", "question");
      item.id = `question-${q.id}`;
      item.dataset.question = q.id;
      item.tabIndex = -1;
      item.append(el("p", "question-text", q.text));
      if (q.image) {
        const img = el("img", "cutout");
        img.src = q.image;
        img.alt = "the card the camera asks about, cut from its picture";
        item.append(img);
      }
      const choices = el("div", "choices");
      q.choices.forEach((c, index) => {
        const b = Forms.button(c.label + percent(c.confidence), index === 0 ? "big choice" : "choice",
                               () => post("answer", { question: q.id, choice: index }));
        b.dataset.choice = index;
        if (c.code) b.dataset.code = c.code;
        choices.append(b);
      });
      item.append(choices);
      const more = el("div", "row");
      if (q.track !== null && q.track !== undefined) {
        more.append(Forms.button("None of these…", "none-of-these", async () => {
          const picked = await Forms.Picker.open("Which card is it?", pickList(q), null);
          if (picked && picked.code !== null) post("answer", { question: q.id, code: picked.code });
        }));
        more.append(Forms.button("Not a card", "not-card", () => post("answer", { question: q.id, not_card: true })));
      }
      more.append(Forms.button("Dismiss", "dismiss", () => post("answer", { question: q.id, choice: null })));
      item.append(more);
      if ((q.cards || []).length > 1) item.append(drawCardFixes(q));
      list.append(item);
    }
  }

  // A question about several cards: any one of them can be named from the picker.
  function drawCardFixes(q) {
    const box = el("div", "card-fixes");
    box.append(el("p", "muted", "A card read wrong, or no card at all? Tap it:"));
    q.cards.forEach((card, i) => {
      const b = Forms.button(`${i + 1}: ${card.code || "?"}`, "fix-card", async () => {
        const picked = await Forms.Picker.open(`Card ${i + 1}: which card is it?`, listFor(card.code, q), "Not a card");
        if (picked === undefined) return;
        post("answer", picked.code === null ? { question: q.id, track: card.track, not_card: true }
          : { question: q.id, track: card.track, code: picked.code });
      }, `Card ${i + 1}, read as ${card.code || "unknown"}: name it`);
      b.dataset.track = card.track;
      box.append(b);
    });
    return box;
  }

  function openQuestion(id) {
    const item = $(`question-${id}`);
    if (!item) return;
    item.scrollIntoView({ block: "center" });
    item.focus();
  }

  // --- the event form ---
  function playerNames(state) { return state.seats || (state.players || []).map((p) => p.name); }

  function context(state) {
    const names = playerNames(state);
    return { schema, players: names, current: Math.max(0, names.indexOf(state.current_player)) };
  }

  // The schema for the state's newest event. A state whose schema is on its way waits for
  // that fetch (the send's answer and the push's refresh ask for the same one), so the
  // form is never left built from the lists before the event; once the schema is in, a
  // form the host has not started is built again from it.
  function loadSchema(state) {
    const last = (state.accepted || [])[0];  // the newest event first; undo changes it too
    const key = `${state.game_id}:${last ? last.seq : ""}`;
    if (schemaFor === key) return schemaLoad;
    schemaFor = key;
    schemaLoad = fetch("/api/schema", { credentials: "same-origin" }).then((response) => response.json())
      .then((loaded) => {
        if (schemaFor !== key) return;  // a later event asked for a newer one meanwhile
        schema = loaded;
        formFor = null;
      }, () => {
        if (schemaFor === key) schemaFor = null;  // the next state asks again; this one draws as it is
      });
    return schemaLoad;
  }

  // `chosen`: the host picked this form (a suggestion, a correction), so it counts as started.
  function buildForm(kind, action, chosen) {
    const state = Board.current();
    const spec = schema && schema.events.find((e) => e.kind === kind);
    formNumber += 1;
    started = Boolean(chosen);
    formGame = state.game_id;
    if (!spec) { $("event-form").replaceChildren(); readForm = null; return; }
    $("event-kind").value = kind;
    readForm = Forms.build($("event-form"), spec, context(state), action);
  }

  function suggested(kind) {
    const t = (Board.current().host_templates || []).find((x) => x.action.kind === kind);
    return t ? t.action : null;
  }

  function drawKinds(state) {
    const select = $("event-kind");
    const key = `${state.game_id}:${(schema && schema.game) || ""}`;
    if (select.dataset.key === key) return;
    select.dataset.key = key;
    select.replaceChildren();
    for (const e of (schema && schema.events) || []) {
      const option = el("option", null, e.label);
      option.value = e.kind;
      select.append(option);
    }
  }

  function drawEntry(state) {
    drawKinds(state);
    const box = $("suggestions");
    const shown = (state.host_templates || []).slice(0, 12);
    if (changed("suggestions", shown, state.game_id)) {
      box.replaceChildren(...shown.map((t) => Forms.button(t.label, "suggestion", () => {
        setCorrecting(null);
        buildForm(t.action.kind, t.action, true);
        focusForm();
      })));
    }
    // A new turn refreshes a form the host has not started (its suggestion follows the
    // game); a started form or a correction stays as the host left it until it is sent
    // or cancelled. Only a new game (other forms) replaces it.
    const key = `${state.game_id}:${state.current_player}:${(state.accepted || []).length}`;
    const newGame = formGame !== state.game_id;
    if (newGame && correcting !== null) setCorrecting(null);
    if (schema && formFor !== key && (newGame || (correcting === null && !started))) {
      formFor = key;
      const kind = $("event-kind").value || (schema.events[0] && schema.events[0].kind);
      buildForm(kind, suggested(kind));
    }
  }

  function focusForm() {
    const first = $("event-form").querySelector("button, select, input");
    $("entry").scrollIntoView({ block: "start" });
    if (first) first.focus();
  }

  function setCorrecting(seq, text) {
    correcting = seq;
    $("correcting").hidden = seq === null;
    $("correcting").textContent = seq === null ? "" : `Correcting: ${text}`;
    $("cancel-correct").hidden = seq === null;
    $("send-action").textContent = seq === null ? "Send event" : "Save correction";
  }

  function correct(entry) {
    setCorrecting(entry.seq, entry.text);
    buildForm(entry.action.kind, entry.action, true);
    focusForm();
  }

  function drawAccepted(state) {
    if (!changed("accepted", state.accepted)) return;
    const list = $("accepted");
    list.replaceChildren();
    for (const a of state.accepted || []) {
      const item = el("li", null, a.text + " ");
      const b = Forms.button("Correct", "", () => correct(a), `Correct: ${a.text}`);
      b.dataset.seq = a.seq;
      item.append(b);
      list.append(item);
    }
  }

  // --- the camera view ---
  async function refreshCamera() {
    if (document.visibilityState !== "visible") return;
    let view;
    try {
      const response = await fetch("/api/camera.json", { credentials: "same-origin", cache: "no-store" });
      view = await response.json();
    } catch (e) {
      view = { working: false, problem: "the server cannot be reached" };
    }
    $("camera-problem").hidden = view.working;
    $("camera-problem").textContent = view.working ? "" : `The camera is not working: ${view.problem}`;
    $("camera-frame").hidden = !view.working;
    if (!view.working) return;
    const img = $("camera-img");
    const fresh = new Image();
    fresh.onload = () => { img.src = fresh.src; };
    fresh.src = `/api/camera.jpg?at=${Date.now()}`;
    drawCameraCards(view);
  }

  function drawCameraCards(view) {
    if (!changed("camera", view.cards, view.width, view.height)) return;
    const layer = $("camera-cards");
    layer.replaceChildren();
    for (const card of view.cards) {
      const xs = card.corners.map((p) => p[0]);
      const ys = card.corners.map((p) => p[1]);
      const left = Math.min(...xs) / view.width, top = Math.min(...ys) / view.height;
      const name = card.code || "unknown card";
      const what = card.question !== null ? "answer its question" : card.seq !== null ? "correct its event" : "nothing to do";
      const b = Forms.button("", `seen ${card.status}`, () => {
        if (card.question !== null) openQuestion(card.question);
        else if (card.seq !== null) {
          const entry = (Board.current().accepted || []).find((a) => a.seq === card.seq);
          if (entry) correct(entry);
        }
      }, `${name}, ${card.status}: ${what}`);
      b.dataset.track = card.track;
      if (card.question !== null) b.dataset.question = card.question;
      Object.assign(b.style, { left: `${left * 100}%`, top: `${top * 100}%`,
                               width: `${(Math.max(...xs) / view.width - left) * 100}%`,
                               height: `${(Math.max(...ys) / view.height - top) * 100}%` });
      layer.append(b);
    }
  }

  // --- seats, speech ---
  function drawSeats(state) {
    const list = $("seats");
    const names = playerNames(state);
    if (list.dataset.game === String(state.game_id) && list.children.length === names.length) {
      [...list.querySelectorAll("input")].forEach((input, i) => {
        if (document.activeElement !== input) input.value = names[i];
      });
      return;
    }
    list.dataset.game = state.game_id;
    list.replaceChildren();
    names.forEach((name, seat) => {
      const item = el("li");
      const row = el("div", "row");
      const input = el("input");
      input.value = name;
      input.setAttribute("aria-label", `seat ${seat + 1} name`);
      row.append(input, Forms.button("Rename", "", () => post("rename", { seat, name: input.value }),
                                     `Rename seat ${seat + 1}`));
      item.append(row);
      list.append(item);
    });
  }

  function drawSpeech(speech) {
    $("speech-status").textContent = speech.status;
    $("mute").textContent = speech.muted ? "Unmute" : "Mute";
    $("mute").setAttribute("aria-pressed", speech.muted ? "true" : "false");
  }

  // The push carries the viewers' view; the host's tools come from the host's own view.
  async function refresh() {
    const response = await fetch("/api/host/state", { headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" });
    if (response.ok) applyHost(await response.json());
  }

  function drawBroken(state) {
    $("broken").hidden = state.status !== "broken";
    $("broken-text").textContent = state.problem || "";
    $("broken-undo").disabled = !state.undo;
  }

  function drawCamera(camera) {
    const status = $("camera-status");
    status.dataset.state = camera ? camera.state : "none";
    status.textContent = camera ? `Camera: ${camera.state} (${camera.reason})` : "";
  }

  // A push (the viewers' view) is not drawn here: the host's own view is fetched and drawn.
  Board.passOver((state) => {
    if ("host_templates" in state) return false;
    refresh();
    return true;
  });
  Board.onState(async (state) => {
    drawBroken(state);
    drawCamera(state.camera);
    drawQuestions(state);
    drawAccepted(state);
    drawSeats(state);
    $("undo").disabled = !state.undo;
    $("undo").title = state.undo ? `Undo: ${state.undo}` : "nothing to undo";
    $("redo").disabled = !state.redo;
    $("redo").title = state.redo ? `Redo: ${state.redo}` : "nothing to redo";
    if (state.game_id !== null) await loadSchema(state);
    if (Board.current() !== state) return;  // a newer state came while the schema loaded: it draws
    drawEntry(state);
    drawQuestions(state);  // again, now its picker knows the game's cards
  });

  $("event-kind").onchange = () => { setCorrecting(null); buildForm($("event-kind").value, suggested($("event-kind").value)); };
  // Any tap or entry inside the form starts it (whatever made the event: a thumb, a
  // keyboard, an assistive tool), so a push no longer rebuilds it under the host.
  for (const type of ["input", "change", "click"]) {
    $("event-form").addEventListener(type, () => { started = true; }, true);
  }
  $("send-action").onclick = async () => {
    if (!readForm) return;
    const action = readForm();
    const sent = formNumber;
    const done = correcting === null ? await post("action", { action })
      : await post("correct", { seq: correcting, action });
    if (done && formNumber === sent) {  // (a form begun meanwhile is the host's next event: kept)
      setCorrecting(null);
      started = false;
      formFor = null;
      drawEntry(done);
    }
  };
  $("cancel-correct").onclick = () => {
    setCorrecting(null);
    started = false;
    formFor = null;
    drawEntry(Board.current());
  };
  $("broken-undo").onclick = () => post("undo");
  $("broken-end").onclick = async () => {
    if (await confirmAction("End this game? It cannot be scored.", "End the game")) post("end");
  };
  $("rotate-token").onclick = async () => {
    if (!await confirmAction("Make a new host link? The old link and other host phones stop working.",
                             "Make a new link")) return;
    const done = await post("token");
    if (!done) return;
    csrf = done.csrf;
    $("host-link").hidden = false;
    $("host-link").textContent = `New host link: ${done.link}`;
  };
  $("undo").onclick = () => post("undo");
  $("redo").onclick = () => post("redo");
  $("end-game").onclick = async () => {
    if (await confirmAction("End this game now? The scores as they stand become the final score.", "End the game")) {
      post("end");
    }
  };
  $("mute").onclick = () => post("speech", { muted: $("mute").getAttribute("aria-pressed") !== "true" });
  $("rate").onchange = () => post("speech", { rate: Number($("rate").value) });
  $("voice").onchange = () => post("speech", { voice: $("voice").value });
  $("say-again").onclick = () => post("say-again");
  $("start-form").onsubmit = async (event) => {
    event.preventDefault();
    const players = $("start-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
    const state = Board.current();
    const text = state.status === "playing"
      ? "Start a new game? The game in progress is ended and scored as it stands, and kept in Past games."
      : "Start a new game?";
    if (await confirmAction(text, "Start the new game")) post("start", { game: $("start-game").value, players });
  };
  Board.start();
  refreshCamera();
  setInterval(refreshCamera, CAMERA_EVERY_MS);
})();
