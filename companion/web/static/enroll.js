// The enroll walk-through: one card at a time, photo -> cut-out -> confirm -> next.
"use strict";
(() => {
  const csrf = document.getElementById("csrf").content;
  const $ = (id) => document.getElementById(id);
  let walk = null;    // the server's progress: game, codes, enrolled, pending
  let index = 0;      // the card being enrolled, in walk.codes

  function showError(text) {
    $("host-error").hidden = !text;
    $("host-error").textContent = text || "";
  }

  async function call(path, body) {
    const isForm = body instanceof FormData;
    const response = await fetch("/api/host/enroll/" + path, {
      method: "POST", credentials: "same-origin",
      headers: isForm ? { "X-CSRF-Token": csrf } : { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: isForm ? body : JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    if (!response.ok) { showError(data.error || "refused"); return null; }
    showError(null);
    return data;
  }

  function nextOpen(from) {
    for (let i = from; i < walk.codes.length; i++) if (!walk.enrolled.includes(walk.codes[i])) return i;
    return Math.min(from, walk.codes.length - 1);
  }

  function draw(data) {
    walk = data;
    const code = walk.codes[index];
    $("enroll-card").hidden = false;
    $("enroll-done").hidden = false;
    $("enroll-code").textContent = code;
    $("enroll-count").textContent = `card ${index + 1} of ${walk.codes.length}` +
      (walk.enrolled.includes(code) ? " (enrolled; another photo adds a second look)" : "");
    const jump = $("enroll-jump");
    jump.replaceChildren(...walk.codes.map((c, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      option.textContent = (walk.enrolled.includes(c) ? "✓ " : "") + c;
      option.selected = i === index;
      return option;
    }));
    $("enroll-confirm").disabled = walk.pending === null;
    $("enroll-retake").disabled = walk.pending === null;
    if (walk.pending === null) $("enroll-preview").hidden = true;
    $("enroll-progress").textContent = `${walk.enrolled.length} of ${walk.codes.length} cards enrolled` +
      (walk.enrolled.length ? `: ${walk.enrolled.join(", ")}` : "");
    $("enroll-finish").disabled = walk.enrolled.length < 2;
  }

  $("enroll-start").onclick = async () => {
    const data = await call("start", { game: $("enroll-game").value });
    if (data) { index = 0; draw(data); }
  };
  $("enroll-jump").onchange = () => { index = Number($("enroll-jump").value); draw(walk); };
  $("enroll-photo").onchange = async () => {
    const file = $("enroll-photo").files[0];
    if (!file) return;
    const form = new FormData();
    form.append("code", walk.codes[index]);
    form.append("photo", file);
    const data = await call("shot", form);
    $("enroll-photo").value = "";
    if (!data) return;
    $("enroll-cut").src = data.image;
    $("enroll-preview").hidden = false;
    draw(data);
    $("enroll-confirm").focus();
  };
  $("enroll-confirm").onclick = async () => {
    const confirmed = index;
    const data = await call("confirm");
    if (!data) return;
    if (index === confirmed) index = nextOpen(index + 1);  // not if the host picked another card meanwhile
    draw(data);
  };
  $("enroll-retake").onclick = async () => {
    const data = await call("retake");
    if (data) draw(data);
  };
  $("enroll-skip").onclick = async () => {
    const skipped = index;
    const data = walk.pending === null ? walk : await call("retake");
    if (!data) return;
    if (index === skipped) index = Math.min(index + 1, walk.codes.length - 1);
    draw(data);
  };
  $("enroll-finish").onclick = async () => {
    const data = await call("finish");
    if (!data) return;
    $("enroll-card").hidden = true;
    $("enroll-finish").disabled = true;
    $("enroll-progress").textContent = `Saved: ${data.cards.length} cards of ${data.game} (${data.shots} photos). ` +
      (data.live ? "The table's camera uses this deck now." : "The table's camera uses this deck for the game from its next start.");
  };
})();
