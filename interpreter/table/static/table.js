// The table's page: a pure view of what the server sends. Nothing is decided here: a click
// sends an option index (or concede / new game) and the server answers with the next view.
"use strict";

const params = new URLSearchParams(location.search);
const seat = params.get("seat");
const replayMode = params.has("replay");
const key = encodeURIComponent(params.get("key") || "");  // the viewer's token (replay, fork, export)
const JSON_BODY = {"Content-Type": "application/json"};  // (a typed body: no cross-site form can send it)
const $ = (id) => document.getElementById(id);
const BIG_ZONE = 12;  // more cards than this: the zone is folded
let socket = null;
let chosen = new Set();  // cards a choice of several has picked so far
let current = null;
const seenBy = {};  // per seat: card id -> how it looked at its last decision (to mark what changed)
let seen = null;  // the seat drawn's
let shownTo = null;  // hot-seat: the player the screen was last handed to
const STORY = 5;  // the last sentences of the story kept beside the board

// a fixed string of the page in the view's language (views.table_words), `{name}`s filled
function t(key, values = {}) {
  const text = (current && current.words && current.words[key]) || key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
}

// the page's own fixed strings (index.html: data-t, data-t-title)
function applyWords(view) {
  document.documentElement.lang = view.lang || "en";
  document.querySelectorAll("[data-t]").forEach((n) => { n.textContent = t(n.dataset.t); });
  document.querySelectorAll("[data-t-title]").forEach((n) => { n.title = t(n.dataset.tTitle); });
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) node.append(c);
  }
  return node;
}

function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, 4000);
}

// ---------- sending ----------
function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
  } else {
    fetch(`/api/act?seat=${encodeURIComponent(seat)}`, {method: "POST", headers: JSON_BODY, body: JSON.stringify(message)})
      .then((r) => r.json()).then(receive);
  }
}

function cardsOf(view) {
  const out = new Map();
  for (const area of Object.values(view.areas)) {
    for (const z of area) for (const c of z.cards) if (!c.hidden) out.set(c.id, JSON.stringify([z.key, c]));
  }
  return out;
}

function choose(index) {
  if (current) seenBy[current.you] = cardsOf(current);
  $("menu").hidden = true;
  document.querySelectorAll("[data-option]").forEach((b) => { b.disabled = true; });
  send({option: index});
}

function receive(view) {
  if (view.error) { toast(view.error); render(current); return; }
  render(view);
}

// ---------- drawing ----------
function render(view) {
  if (!view) return;
  current = view;
  applyWords(view);
  $("title").textContent = view.ruleset.name || view.ruleset.id;
  document.title = t("title", {id: view.ruleset.id, turn: view.turn});
  const who = view.you ? t("you_are", {you: view.you}) : t("omniscient");
  const deciding = !view.deciding ? "" : view.deciding === view.you ? t("your_decision")
    : t("is_deciding", {player: view.deciding});
  $("status").textContent = t("status", {turn: view.turn, player: view.turn_player,
    phase: view.phase || t("setup"), who, deciding});
  drawPuzzle(view);
  drawBoard(view);
  drawQuestion(view);
  drawResources(view);
  drawStory(view);
  drawLog(view);
  drawResult(view);
  drawHandOver(view);
  $("controls").hidden = view.mode !== "play";
  drawStops(view);
  if (view.mode === "replay") drawReplayBar(view);
}

function pickable(view) {
  const byCard = new Map();
  const q = view.question;
  if (!q || view.mode !== "play") return byCard;
  for (const o of q.options) {
    if (o.card === null) continue;
    if (!byCard.has(o.card)) byCard.set(o.card, []);
    byCard.get(o.card).push(o);
  }
  return byCard;
}

let drawn = new Map();  // the cards of the view being drawn, as cardsOf keeps them

function drawBoard(view) {
  drawn = cardsOf(view);
  seen = view.mode === "play" ? seenBy[view.you] || null : null;
  const byCard = pickable(view);
  chosen = new Set(view.question && view.mode === "play" ? view.question.chosen : []);
  const board = $("board");
  board.replaceChildren();
  for (const area of ["theirs", "shared", "mine"]) {
    const zones = view.areas[area];
    if (!zones.length) continue;
    const title = area === "mine" ? (view.you ? t("you", {player: view.you}) : "P1")
      : area === "theirs" ? (zones[0].owner || t("opponent")) : t("shared");
    board.append(el("div", {class: `area ${area}`},
      el("h2", {}, title),
      el("div", {class: "zones"}, zones.map((z) => drawZone(z, byCard)))));
  }
  if (view.stack && view.stack.length) board.append(drawStack(view.stack));
}

// the objects waiting on the stack (timing: priority), the top one first
function drawStack(stack) {
  return el("div", {class: "area stack", "data-stack": ""},
    el("h2", {}, t("stack")),
    el("ol", {}, stack.map((o) => el("li", {"data-object": o.object},
      `${o.card} (${o.object}, ${o.controller})`,
      o.text ? el("span", {class: "text"}, ` — ${o.text}`) : null,
      o.targets.length ? el("span", {class: "targets"}, ` → ${o.targets.join(", ")}`) : null))));
}

function drawZone(zone, byCard) {
  const head = el("h3", {title: zone.about || null}, zone.name,
    el("span", {class: "count"}, ` ${zone.count}`),
    zone.visibility !== "public" ? el("span", {class: "vis"}, ` ${t("vis." + zone.visibility)}`) : null);
  let body;
  if (zone.layout === "backs") {
    body = el("div", {class: "pile"}, el("div", {class: "card back"}, el("span", {}, `×${zone.count}`)));
  } else if (zone.layout === "slots") {
    const slots = [];
    for (let i = 0; i < zone.capacity; i++) {
      slots.push(i < zone.cards.length ? drawCard(zone.cards[i], byCard) : el("div", {class: "card slot"}));
    }
    body = el("div", {class: "row"}, slots, zone.cards.slice(zone.capacity).map((c) => drawCard(c, byCard)));
  } else if (zone.layout === "pile" && zone.cards.length > 1) {
    const [top, ...rest] = zone.cards;
    body = el("div", {class: "pile"}, drawCard(top, byCard),
      el("details", {}, el("summary", {}, t("more", {n: rest.length})),
        el("div", {class: "row"}, rest.map((c) => drawCard(c, byCard)))));
  } else if (zone.cards.length > BIG_ZONE) {  // folded, unless a card in it can be picked
    const open = zone.cards.some((c) => byCard.has(c.id));
    body = el("details", {open: open ? "" : null}, el("summary", {}, t("n_cards", {n: zone.count})),
      el("div", {class: "row"}, zone.cards.map((c) => drawCard(c, byCard))));
  } else {
    body = el("div", {class: "row"}, zone.cards.map((c) => drawCard(c, byCard)));
  }
  return el("div", {class: `zone ${zone.layout}`, "data-zone": zone.key}, head, body);
}

function drawCard(card, byCard) {
  if (card.hidden) {
    return el("div", {class: "card back"}, card.states.map((s) => el("span", {class: "state"}, s)));
  }
  const options = byCard.get(card.id) || [];
  const props = card.props.filter((p) => p.type !== "flag" || p.value).map((p) =>
    el("span", {class: p.printed !== null ? "prop modified" : "prop",
                title: p.printed !== null ? t("printed", {value: p.printed}) : null},
      p.type === "flag" ? p.name : `${p.name} ${p.value}`));
  const text = [card.text, ...card.abilities].filter(Boolean);
  const counters = Object.entries(card.counters).map(([k, n]) => el("span", {class: "counter"}, `${k}×${n}`));
  const changed = seen !== null && current.mode === "play" && drawn.get(card.id) !== seen.get(card.id);
  const classes = ["card", options.length ? "pickable" : "", chosen.has(card.id) ? "chosen" : "",
                   changed ? "changed" : "",
                   card.face_down ? "facedown" : "",
                   card.states.length ? "stated" : ""].join(" ");
  return el("div", {class: classes, "data-card": card.id, "data-changed": changed ? "" : null,
                    title: `${card.name}\n${text.join("\n")}`,
                    onclick: options.length ? (e) => pickCard(e, options) : null},
    el("div", {class: "name"}, card.name),
    el("div", {class: "props"}, props),
    card.states.length ? el("div", {class: "states"}, card.states.map((s) => el("span", {class: "state"}, s))) : null,
    counters.length ? el("div", {class: "counters"}, counters) : null,
    card.attached_to !== null ? el("div", {class: "attached"}, t("attached_to", {host: card.attached_to})) : null,
    card.text ? el("div", {class: "text"}, card.text) : null,
    card.abilities.length ? el("div", {class: "abilities", title: t("rendered")},
      card.abilities.join(" / ")) : null);
}

function pickCard(event, options) {
  if (options.length === 1) { choose(options[0].index); return; }
  const menu = $("menu");
  menu.replaceChildren(...options.map((o) =>
    el("button", {"data-pick": o.index, onclick: () => choose(o.index)}, o.label)));
  menu.style.left = `${event.pageX}px`;
  menu.style.top = `${event.pageY}px`;
  menu.hidden = false;
  event.stopPropagation();
}
document.addEventListener("click", () => { $("menu").hidden = true; });

function drawQuestion(view) {
  const box = $("question");
  box.replaceChildren();
  const q = view.question;
  if (!q) {
    if (view.deciding && !view.result) box.append(el("p", {class: "waiting"}, t("waiting", {player: view.deciding})));
    return;
  }
  box.append(el("p", {class: "prompt"}, q.prompt));
  const list = el("div", {class: "options"});
  for (const o of q.options) {
    if (view.mode === "play") {
      list.append(el("button", {"data-option": o.index, onclick: () => choose(o.index)}, o.label));
    } else {
      list.append(el("div", {class: o.index === view.chosen ? "chosen" : "option"}, o.label));
    }
  }
  box.append(list);
}

function drawResources(view) {
  const box = $("resources");
  box.replaceChildren();
  for (const [who, values] of Object.entries(view.resources)) {
    if (!values.length) continue;
    box.append(el("div", {class: "player"}, el("strong", {}, who),
      values.map((r) => el("span", {class: "resource", title: r.about || null},
        r.max === null || r.max === undefined ? `${r.name} ${r.value}` : `${r.name} ${t("left", r)}`))));
  }
}

function drawLog(view) {
  const log = $("log");
  log.replaceChildren(...view.log.map((line) => {
    const ref = line.match(/^(.*?)  \[(.+)\]$/s);  // a rule's ref, cited after two spaces
    return el("li", {class: line.startsWith("==") ? "turn" : ""},
      ref ? [ref[1], el("span", {class: "ref"}, ` [${ref[2]}]`)] : line);
  }));
  log.scrollTop = log.scrollHeight;
}

// the last few sentences of the story, beside the board
function drawStory(view) {
  const lines = view.log.filter((line) => !line.startsWith("==")).slice(-STORY);
  $("story").replaceChildren(...lines.map((line) => el("li", {}, line.replace(/  \[.+\]$/s, ""))));
}

// a puzzle (tcg serve --scenario): its name and goal, then whether it was met
function drawPuzzle(view) {
  const box = $("puzzle");
  box.hidden = !view.puzzle;
  if (!view.puzzle) return;
  const p = view.puzzle;
  const state = p.solved === null ? "goal" : p.solved ? "solved" : "failed";
  box.setAttribute("data-puzzle", state);
  box.replaceChildren(el("strong", {}, t("puzzle", p)), p.goal ? el("div", {}, t("goal", p)) : null,
    p.solved === null ? null : el("div", {class: "outcome"}, t(state)));
}

// hot-seat: when the decision passes to the other human, a screen to hand the device over
// (the next player's hand shows once they say they hold it)
function drawHandOver(view) {
  const box = $("handover");
  const asked = view.hotseat && view.question && !view.result ? view.you : null;
  if (asked === null || asked === shownTo) { box.hidden = true; return; }
  if (shownTo === null) { shownTo = asked; box.hidden = true; return; }
  box.replaceChildren(el("p", {}, t("hand_over", {player: asked})),
    el("button", {id: "handed", onclick: () => { shownTo = asked; box.hidden = true; }},
      t("hand_over_ready", {player: asked})));
  box.hidden = false;
}

function drawResult(view) {
  const box = $("result");
  if (view.result) {
    box.hidden = false;
    box.setAttribute("data-result", view.result.winner || "draw");
    box.textContent = view.result.text + (view.result.ref ? ` [${view.result.ref}]` : "");
    // the log names every hidden card, so the server gives it only once the match is over
    if (seat) box.append(el("a", {id: "saveLog", href: `/api/log?seat=${encodeURIComponent(seat)}`, download: ""}, t("save_log")));
  } else {
    box.hidden = true;
    box.removeAttribute("data-result");
  }
}

// ---------- the replay viewer ----------
let step = 0;  // the step asked for last (clicks move it at once: fast clicks all count)
let steps = 0;
let asked = 0;  // requests made: an answer to an earlier one is dropped
let viewer = "all";

function loadStep(query) {
  const id = ++asked;
  fetch(`/api/replay?${query}&view=${viewer}&key=${key}`).then((r) => r.json()).then((view) => {
    if (id !== asked) return;
    if (view.error) { toast(view.error); return; }
    step = view.step;
    steps = view.steps;
    render(view);
  });
}

function goTo(k) {
  step = Math.max(0, Math.min(steps, k));
  loadStep(`step=${step}`);
}

function drawReplayBar(view) {
  $("replaybar").hidden = false;
  $("slider").max = view.steps;
  $("slider").value = view.step;
  $("stepinfo").textContent = t("step_info", view);
  const select = $("viewer");
  if (select.options.length !== view.players.length + 1) {
    select.replaceChildren(...view.players.map((p) => el("option", {value: p}, t("eyes", {player: p}))),
      el("option", {value: "all"}, t("all_eyes")));
    select.value = viewer;
  }
  $("export").href = `/api/export?step=${view.step}&key=${key}`;
}

function startReplay() {
  $("replaybar").hidden = false;
  $("back").onclick = () => goTo(step - 1);
  $("forward").onclick = () => goTo(step + 1);
  $("slider").oninput = () => goTo(Number($("slider").value));
  $("jump").onclick = () => loadStep(`turn=${$("turn").value || 1}`);
  $("viewer").onchange = () => { viewer = $("viewer").value; goTo(step); };
  $("fork").onclick = () => {
    const seatName = viewer === "all" ? (current.deciding || "P1") : viewer;
    fetch(`/api/fork?key=${key}`, {method: "POST", headers: JSON_BODY,
      body: JSON.stringify({step, seat: seatName, agent: $("agent").value})})
      .then((r) => r.json()).then((r) => { if (r.error) toast(r.error); else window.open(r.url, "_blank"); });
  };
  $("upload").onchange = () => {
    const file = $("upload").files[0];
    if (!file) return;
    fetch(`/api/replay?name=${encodeURIComponent(file.name)}&key=${key}`,
      {method: "POST", headers: {"Content-Type": "application/x-ndjson"}, body: file})
      .then((r) => r.json()).then((r) => { if (r.error) toast(r.error); else loadStep("step=0"); });
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") $("back").click();
    if (e.key === "ArrowRight") $("forward").click();
  });
  loadStep("step=0");
}

// A human's auto-pass setting (timing: priority only): shown as the server has it.
function drawStops(view) {
  $("stops").hidden = view.stop === undefined;
  if (view.stop === undefined) return;
  const select = $("stop");
  if (![...select.options].some((o) => o.value === view.stop)) {
    select.append(el("option", {value: view.stop}, view.stop));  // (given to tcg serve: respond+blockers)
  }
  select.value = view.stop;
}

// ---------- playing ----------
function startPlay() {
  $("stop").onchange = () => send({stop: $("stop").value});
  $("concede").onclick = () => { if (confirm(t("concede_ask"))) send({concede: true}); };
  $("newgame").onclick = () => send({new: true});
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?seat=${encodeURIComponent(seat)}`);
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = (e) => { if (e.code === 4403) toast("unknown seat: open the URL `tcg serve` printed"); };
}

if (replayMode) startReplay();
else if (seat) startPlay();
else toast("open the URL `tcg serve` printed (it names your seat)");
