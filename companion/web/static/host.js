// The host's controls: every write is a POST under /api/host/ carrying the CSRF token.
"use strict";
(() => {
  let csrf = document.getElementById("csrf").content;
  const $ = (id) => document.getElementById(id);
  let correcting = null;  // seq of the event being corrected, or null for a new event

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
    if (data.version !== undefined) Board.apply(data);
    return data;
  }

  function drawQuestions(state) {
    const list = $("question-list");
    list.replaceChildren();
    $("questions").hidden = !(state.questions || []).length;
    for (const q of state.questions || []) {
      const item = Board.el("li", null);
      item.append(Board.el("p", null, q.text));
      q.choices.forEach((label, index) => {
        const button = Board.el("button", index === 0 ? "big" : "", label);
        button.type = "button";
        button.dataset.question = q.id;
        button.dataset.choice = index;
        button.onclick = () => post("answer", { question: q.id, choice: index });
        item.append(button);
      });
      const dismiss = Board.el("button", "", "Ignore");
      dismiss.type = "button";
      dismiss.onclick = () => post("answer", { question: q.id, choice: null });
      item.append(dismiss);
      list.append(item);
    }
  }

  function drawTemplates(state) {
    const select = $("template");
    const chosen = select.value;
    select.replaceChildren();
    (state.host_templates || []).forEach((t, i) => {
      const option = Board.el("option", null, t.label);
      option.value = i;
      select.append(option);
    });
    if (chosen && chosen < select.options.length) select.value = chosen;
    if (!$("action-json").value && state.host_templates && state.host_templates.length) fillTemplate();
  }

  function fillTemplate() {
    const state = Board.current();
    const t = (state.host_templates || [])[Number($("template").value)];
    if (t) $("action-json").value = JSON.stringify(t.action);
  }

  function setCorrecting(seq, text) {
    correcting = seq;
    $("correcting").hidden = seq === null;
    $("correcting").textContent = seq === null ? "" : `Correcting: ${text}`;
    $("cancel-correct").hidden = seq === null;
    $("send-action").textContent = seq === null ? "Send event" : "Save correction";
  }

  function drawAccepted(state) {
    const list = $("accepted");
    list.replaceChildren();
    for (const a of state.accepted || []) {
      const item = Board.el("li", null, a.text + " ");
      const button = Board.el("button", "", "Correct");
      button.type = "button";
      button.dataset.seq = a.seq;
      button.onclick = () => {
        $("action-json").value = JSON.stringify(a.action);
        setCorrecting(a.seq, a.text);
        $("action-json").focus();
      };
      item.append(button);
      list.append(item);
    }
  }

  function drawSeats(state) {
    const list = $("seats");
    if (list.dataset.game === String(state.game_id) && list.children.length === (state.players || []).length) {
      [...list.querySelectorAll("input")].forEach((input, i) => {
        if (document.activeElement !== input) input.value = state.players[i].name;
      });
      return;
    }
    list.dataset.game = state.game_id;
    list.replaceChildren();
    (state.players || []).forEach((p, seat) => {
      const item = Board.el("li", null);
      const row = Board.el("div", "row");
      const input = Board.el("input");
      input.value = p.name;
      input.setAttribute("aria-label", `seat ${seat + 1} name`);
      const button = Board.el("button", "", "Rename");
      button.type = "button";
      button.onclick = () => post("rename", { seat, name: input.value });
      row.append(input, button);
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
    if (response.ok) Board.apply(await response.json());
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

  Board.onState((state) => {
    if (!("host_templates" in state)) { refresh(); return; }
    drawBroken(state);
    drawCamera(state.camera);
    drawQuestions(state);
    drawTemplates(state);
    drawAccepted(state);
    drawSeats(state);
    $("undo").disabled = !state.undo;
    $("undo").title = state.undo ? `Undo: ${state.undo}` : "nothing to undo";
  });

  $("template").onchange = fillTemplate;
  $("send-action").onclick = async () => {
    let action;
    try { action = JSON.parse($("action-json").value); } catch (e) { showError("The event is not valid JSON: " + e.message); return; }
    const done = correcting === null ? await post("action", { action }) : await post("correct", { seq: correcting, action });
    if (done) setCorrecting(null);
  };
  $("cancel-correct").onclick = () => setCorrecting(null);
  $("broken-undo").onclick = () => post("undo");
  $("broken-end").onclick = () => { if (confirm("End this game? It cannot be scored.")) post("end"); };
  $("rotate-token").onclick = async () => {
    if (!confirm("Make a new host link? The old link and other host phones stop working.")) return;
    const done = await post("token");
    if (!done) return;
    csrf = done.csrf;
    $("host-link").hidden = false;
    $("host-link").textContent = `New host link: ${done.link}`;
  };
  $("undo").onclick = () => post("undo");
  $("end-game").onclick = () => { if (confirm("End this game and keep the score?")) post("end"); };
  $("mute").onclick = () => post("speech", { muted: $("mute").getAttribute("aria-pressed") !== "true" });
  $("rate").onchange = () => post("speech", { rate: Number($("rate").value) });
  $("voice").onchange = () => post("speech", { voice: $("voice").value });
  $("say-again").onclick = () => post("say-again");
  $("start-form").onsubmit = (event) => {
    event.preventDefault();
    const players = $("start-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
    post("start", { game: $("start-game").value, players });
  };
  Board.start();
})();
