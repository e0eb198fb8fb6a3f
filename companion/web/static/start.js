// The host's game setup: players in seat order, who starts, house rules, speech.
// Starting posts to /api/host/start (the players in turn order, the starter first, and
// the house rules as `options`), then the speech settings to /api/host/speech.
"use strict";
(() => {
  const csrf = document.getElementById("csrf").content;
  const $ = (id) => document.getElementById(id);

  // The answer's data, or null with the server's reason shown above the form.
  async function post(path, body) {
    const response = await fetch("/api/host/" + path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({ error: response.statusText }));
    const problem = $("start-error");
    problem.textContent = response.ok ? "" : (data.error || "refused");
    problem.hidden = response.ok;
    if (!response.ok) problem.scrollIntoView({ block: "nearest" });
    return response.ok ? data : null;
  }

  function players() {
    return $("setup-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
  }

  function setPlayers(names) {
    $("setup-players").value = names.join("\n") + "\n";
    drawSeats();
  }

  function move(index, by) {
    const names = players();
    const to = index + by;
    if (to < 0 || to >= names.length) return;
    [names[index], names[to]] = [names[to], names[index]];
    setPlayers(names);
    const again = document.querySelector(`#seat-order [data-seat="${to}"] [data-move="${by}"]`);
    if (again && !again.disabled) again.focus();
  }

  // The seats as a list with move buttons, and the "who starts" choices, from the names.
  function drawSeats() {
    const names = players();
    const list = document.createElement("ol");
    names.forEach((name, i) => {
      const item = document.createElement("li");
      item.dataset.seat = i;
      item.append(document.createTextNode(name));
      for (const [by, word, arrow] of [[-1, "earlier", "↑"], [1, "later", "↓"]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.dataset.move = by;
        button.textContent = arrow;
        button.setAttribute("aria-label", `Move ${name} ${word}`);
        button.disabled = i + by < 0 || i + by >= names.length;
        button.onclick = () => move(i, by);
        item.append(button);
      }
      list.append(item);
    });
    $("seat-order").replaceChildren(list);
    const starter = $("setup-starter");
    const chosen = starter.value;
    starter.replaceChildren(...names.map((name) => new Option(name, name, false, name === chosen)));
  }

  function showGame() {
    const game = $("setup-game").value;
    for (const set of document.querySelectorAll(".house-rules")) {
      set.hidden = set.disabled = set.dataset.game !== game;
    }
    for (const goal of document.querySelectorAll("#setup-goal [data-game]")) goal.hidden = goal.dataset.game !== game;
  }

  function houseRules() {
    const options = {};
    const set = document.querySelector(`.house-rules[data-game="${$("setup-game").value}"]`);
    for (const input of set.querySelectorAll("[data-kind]")) {
      const kind = input.dataset.kind;
      options[input.name] = kind === "bool" ? input.checked
        : kind === "int" ? (input.value === "" ? null : Math.trunc(Number(input.value)))
        : kind === "float" ? (input.value === "" ? null : Number(input.value))
        : input.value;
    }
    return options;
  }

  $("setup-players").addEventListener("input", drawSeats);
  $("setup-game").addEventListener("change", showGame);
  $("setup-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const names = players();
    const first = Math.max(0, names.indexOf($("setup-starter").value));
    const inTurnOrder = names.slice(first).concat(names.slice(0, first));
    if ($("in-progress") && !confirm("A game is in progress. End it and start this one?")) return;
    const started = await post("start", { game: $("setup-game").value, players: inTurnOrder, options: houseRules() });
    if (!started) return;
    const speech = { muted: !$("setup-speech").checked, rate: Number($("setup-rate").value) };
    if ($("setup-voice")) speech.voice = $("setup-voice").value;
    if (await post("speech", speech)) window.location.assign("/host");
  });
  showGame();
  drawSeats();
})();
