// Event forms built from the game's event schema (/api/schema): taps, never JSON.
// A form gives back exactly the event the rules read; the rules judge it on the server.
"use strict";
const Forms = (() => {
  const el = (tag, cls, text) => Board.el(tag, cls, text);
  let uid = 0;
  const nextId = (stem) => `${stem}-${++uid}`;

  function button(text, cls, onclick, label) {
    const b = el("button", cls || "", text);
    b.type = "button";
    if (label) b.setAttribute("aria-label", label);
    b.onclick = onclick;
    return b;
  }

  // --- the card picker: one searchable dialog for every card field and "none of these" ---
  const Picker = (() => {
    let resolve = null;
    function dialog() { return document.getElementById("picker"); }
    function close(value) {
      const d = dialog();
      if (d.open) d.close();
      if (resolve) { const r = resolve; resolve = null; r(value); }
    }
    function fill(entries, query, addNew) {
      const list = document.getElementById("picker-list");
      list.replaceChildren();
      const words = query.trim().toLowerCase();
      for (const entry of entries) {
        const text = `${entry.label} ${entry.code}`.toLowerCase();
        if (words && !text.includes(words)) continue;
        const item = el("li");
        const b = button(entry.label, "pick", () => close({ code: entry.code }));
        b.dataset.code = entry.code;
        item.append(b);
        list.append(item);
      }
      // A deck's own card the list cannot know (the book names 5 of 21 Halimaw): the name as typed.
      const typed = query.trim().replace(/\s+/g, " ");
      const known = entries.some((e) => [String(e.code), e.label].some((t) => t.toLowerCase() === words));
      if (addNew && typed && !known) {
        const name = typed[0].toUpperCase() + typed.slice(1);
        const item = el("li");
        const b = button(`Add “${name}”: ${addNew}`, "pick new", () => close({ code: name }));
        b.dataset.new = name;
        item.append(b);
        list.append(item);
      }
    }
    // Resolves to {code} (a card), {code: null} (the `none` button, when labelled) or undefined
    // (cancel). With `addNew` (what a new name means), a name typed in the search is a choice too.
    function open(title, entries, none, addNew) {
      const d = dialog();
      document.getElementById("picker-title").textContent = title;
      const search = document.getElementById("picker-search");
      search.value = "";
      search.oninput = () => fill(entries, search.value, addNew);
      fill(entries, "", addNew);
      document.getElementById("picker-none").hidden = !none;
      document.getElementById("picker-none").textContent = none || "";
      document.getElementById("picker-none").onclick = () => close({ code: null });
      document.getElementById("picker-cancel").onclick = () => close(undefined);
      d.onclose = () => close(undefined);
      d.showModal();
      search.focus();
      return new Promise((r) => { resolve = r; });
    }
    return { open };
  })();

  // --- field widgets: each returns {node, get(), set(value)} ---
  function labelOf(schema, list, code) {
    const entry = (schema.lists[list] || []).find((e) => e.code === code);
    return entry ? entry.label : String(code);
  }

  function fieldBox(field) {
    const box = el("div", "field");
    box.dataset.key = field.key;
    const head = el("span", "field-label", field.label + (field.optional ? " (optional)" : ""));
    head.id = nextId("label");
    box.append(head);
    return [box, head.id];
  }

  function seatWidget(field, ctx) {
    const [box] = fieldBox(field);
    const select = el("select");
    select.id = nextId("seat");
    box.firstChild.replaceWith(Object.assign(el("label", "field-label", field.label), { htmlFor: select.id }));
    ctx.players.forEach((name, i) => {
      const o = el("option", null, name);
      o.value = i;
      select.append(o);
    });
    box.append(select);
    return { node: box, get: () => Number(select.value), set: (v) => { if (Number.isInteger(v)) select.value = v; } };
  }

  function cardWidget(field, ctx) {
    const [box, labelId] = fieldBox(field);
    let value = null;
    const show = button("", "card-pick", async () => {
      const picked = await Picker.open(field.label, ctx.schema.lists[field.list] || [],
                                       field.optional ? "No card / not seen" : null, field.new);
      if (picked !== undefined) { set(picked.code); if (ctx.changed) ctx.changed(field, value); }
    });
    show.setAttribute("aria-describedby", labelId);
    function set(v) {
      value = v === undefined ? null : v;
      show.textContent = value === null ? (field.optional ? "none — tap to choose" : "tap to choose a card")
        : labelOf(ctx.schema, field.list, value);
      show.dataset.code = value === null ? "" : value;
    }
    set(null);
    box.append(show);
    return { node: box, get: () => value, set };
  }

  function cardsWidget(field, ctx) {
    const [box, labelId] = fieldBox(field);
    let values = [];
    const chips = el("ul", "picked");
    chips.setAttribute("aria-labelledby", labelId);
    function draw() {
      chips.replaceChildren();
      values.forEach((code, i) => {
        const item = el("li");
        const name = labelOf(ctx.schema, field.list, code);
        item.append(button(`${name} ×`, "chip", () => { values.splice(i, 1); draw(); }, `remove ${name}`));
        chips.append(item);
      });
      add.disabled = field.max !== null && field.max !== undefined && values.length >= field.max;
    }
    const add = button(`Add to ${field.label.toLowerCase()}`, "add", async () => {
      const picked = await Picker.open(field.label, ctx.schema.lists[field.list] || [], null);
      if (picked && picked.code !== null) { values.push(picked.code); draw(); }
    });
    box.append(chips, add);
    draw();
    return { node: box, get: () => (field.optional && !values.length ? null : values.slice()),
             // a stored event may name a card by an object with its facts ({name, dp, ...})
             set: (v) => { values = Array.isArray(v) ? v.map((x) => (x && x.name) || x) : []; draw(); } };
  }

  function listOf(field, ctx, makeItem, itemName) {
    // A growing list of sub-widgets (combos, hands, defenders).
    const [box, labelId] = fieldBox(field);
    const holder = el("div", "group-list");
    holder.setAttribute("role", "group");
    holder.setAttribute("aria-labelledby", labelId);
    let items = [];
    function addItem(value) {
      const n = items.length + 1;
      const widget = makeItem(n);
      const wrap = el("div", "group");
      const remove = button(`Remove ${itemName} ${n}`, "small", () => {
        items = items.filter((w) => w !== widget);
        wrap.remove();
      });
      wrap.append(widget.node, remove);
      holder.append(wrap);
      widget.set(value);
      items.push(widget);
    }
    const add = button(`Add a ${itemName.toLowerCase()}`, "add", () => addItem(undefined));
    box.append(holder, add);
    return { node: box, get: () => items.map((w) => w.get()),
             set: (v) => { holder.replaceChildren(); items = []; (Array.isArray(v) ? v : []).forEach(addItem); } };
  }

  function groupsWidget(field, ctx) {
    return listOf(field, ctx, (n) => cardsWidget({ key: `${field.key}-${n}`, list: field.list,
                                                   label: `${field.item} ${n}` }, ctx), field.item);
  }

  function perSeatWidget(field, ctx) {
    const [box] = fieldBox(field);
    const widgets = ctx.players.map((name) => cardsWidget({ key: `${field.key}-${name}`, list: field.list,
                                                           label: `${field.label}: ${name}` }, ctx));
    widgets.forEach((w) => box.append(w.node));
    const get = () => widgets.map((w) => w.get());
    return { node: box, get: () => (field.optional && get().every((hand) => !hand.length) ? null : get()),
             set: (v) => widgets.forEach((w, i) => w.set(Array.isArray(v) ? v[i] : [])) };
  }

  function choiceWidget(field) {
    const [box] = fieldBox(field);
    const select = el("select");
    select.id = nextId("choice");
    box.firstChild.replaceWith(Object.assign(el("label", "field-label", field.label + (field.optional ? " (optional)" : "")),
                                             { htmlFor: select.id }));
    if (field.optional) select.append(Object.assign(el("option", null, "—"), { value: "" }));
    field.options.forEach((o, i) => select.append(Object.assign(el("option", null, o.label), { value: String(i) })));
    box.append(select);
    return { node: box,
             get: () => (select.value === "" ? null : field.options[Number(select.value)].value),
             set: (v) => {
               const i = field.options.findIndex((o) => o.value === v);
               select.value = i < 0 ? (field.optional ? "" : "0") : String(i);
             } };
  }

  function multiWidget(field) {
    const [box, labelId] = fieldBox(field);
    const group = el("div", "checks");
    group.setAttribute("role", "group");
    group.setAttribute("aria-labelledby", labelId);
    const boxes = field.options.map((o) => {
      const label = el("label", "check");
      const input = el("input");
      input.type = "checkbox";
      label.append(input, document.createTextNode(" " + o.label));
      group.append(label);
      return input;
    });
    box.append(group);
    return { node: box,
             get: () => {
               const on = field.options.filter((o, i) => boxes[i].checked).map((o) => o.value);
               return field.optional && !on.length ? null : on;
             },
             set: (v) => boxes.forEach((b, i) => { b.checked = Array.isArray(v) && v.includes(field.options[i].value); }) };
  }

  function numberWidget(field) {
    const [box] = fieldBox(field);
    const input = el("input");
    input.type = "number";
    input.inputMode = "numeric";
    input.min = field.min;
    input.max = field.max;
    input.id = nextId("number");
    box.firstChild.replaceWith(Object.assign(el("label", "field-label", field.label + (field.optional ? " (optional)" : "")),
                                             { htmlFor: input.id }));
    const step = (d) => {
      const now = input.value === "" ? (d > 0 ? field.min - 1 : field.min + 1) : Number(input.value);
      input.value = Math.min(field.max, Math.max(field.min, now + d));
    };
    const row = el("div", "stepper");
    row.append(button("−", "step", () => step(-1), `${field.label} one less`), input,
               button("+", "step", () => step(1), `${field.label} one more`));
    box.append(row);
    return { node: box, get: () => (input.value === "" ? null : Number(input.value)),
             set: (v) => { input.value = Number.isInteger(v) ? v : (field.optional ? "" : field.min); } };
  }

  function boolWidget(field) {
    const [box] = fieldBox(field);
    const label = el("label", "check");
    const input = el("input");
    input.type = "checkbox";
    label.append(input, document.createTextNode(" " + field.label));
    box.firstChild.remove();
    box.append(label);
    return { node: box, get: () => input.checked, set: (v) => { input.checked = v === true; } };
  }

  function wordWidget(field) {
    const [box] = fieldBox(field);
    const input = el("input");
    input.id = nextId("word");
    input.autocapitalize = "characters";
    box.firstChild.replaceWith(Object.assign(el("label", "field-label", field.label), { htmlFor: input.id }));
    box.append(input);
    return { node: box, get: () => input.value.trim(), set: (v) => { input.value = typeof v === "string" ? v : ""; } };
  }

  // A record: named sub-fields; with `prefill`, choosing its name fills the facts the book prints.
  function recordWidget(field, ctx) {
    const [box, labelId] = fieldBox(field);
    box.setAttribute("role", "group");
    box.setAttribute("aria-labelledby", labelId);
    const sub = {};
    const inner = { ...ctx, changed: (f, value) => {
      if (field.prefill && f.key === "name") {
        const entry = (ctx.schema.lists[field.prefill] || []).find((e) => e.code === value);
        for (const [key, fact] of Object.entries((entry && entry.facts) || {})) if (sub[key]) sub[key].set(fact);
      }
    } };
    for (const f of field.fields) {
      sub[f.key] = widget(f, inner);
      box.append(sub[f.key].node);
    }
    return { node: box,
             get: () => {
               const out = {};
               for (const f of field.fields) {
                 const v = sub[f.key].get();
                 if (v !== null && v !== undefined) out[f.key] = v;
               }
               return out;
             },
             set: (v) => {
               const value = typeof v === "string" ? { name: v } : (v || {});
               for (const f of field.fields) sub[f.key].set(value[f.key]);
               if (field.prefill && typeof v === "string") inner.changed({ key: "name" }, v);
             } };
  }

  function recordsWidget(field, ctx) {
    return listOf(field, ctx, (n) => recordWidget({ key: `${field.key}-${n}`, label: `${field.item} ${n}`,
                                                    fields: field.fields, prefill: field.prefill }, ctx), field.item);
  }

  const WIDGETS = { seat: seatWidget, card: cardWidget, cards: cardsWidget, groups: groupsWidget,
                    per_seat: perSeatWidget, choice: choiceWidget, multi: multiWidget, number: numberWidget,
                    bool: boolWidget, word: wordWidget, record: recordWidget, records: recordsWidget };

  function widget(field, ctx) { return WIDGETS[field.type](field, ctx); }

  // The form of one event kind inside `holder`; returns read(): the event, extras kept.
  function build(holder, spec, ctx, action) {
    holder.replaceChildren();
    const widgets = spec.fields.map((f) => {
      const w = widget(f, ctx);
      holder.append(w.node);
      return [f, w];
    });
    for (const [f, w] of widgets) {
      if (action && f.key in action) w.set(action[f.key]);
      else if (f.type === "seat") w.set(ctx.current);
      else w.set(undefined);
    }
    return () => {
      const out = { ...(action || {}), kind: spec.kind };
      for (const [f, w] of widgets) {
        const v = w.get();
        if (v === null || v === undefined) delete out[f.key];
        else out[f.key] = v;
      }
      return out;
    };
  }

  return { build, Picker, button };
})();
