// The results page: draws a simulation's output folder (summary, per-card table, ablation,
// plots) from /api/results. Read-only: the files come from the server by their known names.
"use strict";

const $ = (id) => document.getElementById(id);
const key = encodeURIComponent(new URLSearchParams(location.search).get("key") || "");  // the viewer's token
const pct = (x) => (x === null || x === undefined ? "" : (100 * x).toFixed(1));
const interval = (lo, hi) => `${pct(lo)} to ${pct(hi)}`;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined) node.setAttribute(k, v);
  }
  node.append(...children.flat());
  return node;
}

function drawSummary(summary) {
  if (!summary) return;
  const rows = Object.entries(summary.decks).map(([key, d]) => el("tr", {},
    el("td", {}, `${key}: ${d.name}`), el("td", {class: "num"}, `${d.win.count} of ${d.win.n}`),
    el("td", {class: "num"}, pct(d.win.rate)), el("td", {class: "num"}, interval(...d.win.ci95))));
  const notes = [`${summary.completed} of ${summary.games} games completed`];
  if (summary.draw) notes.push(`draws ${pct(summary.draw.rate)}%`);
  if (summary.turns) notes.push(`turns: mean ${summary.turns.mean.toFixed(1)}, ${summary.turns.min}–${summary.turns.max}`);
  $("summary").append(el("h2", {}, "decks"),
    el("table", {}, el("thead", {}, el("tr", {}, ["deck", "won", "win %", "95% interval"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)),
    el("p", {class: "note"}, notes.join(" · ")));
}

// the per-card columns shown (the files hold every one): [heading, key, interval keys]
const COLUMNS = [
  ["deck", "deck"], ["card", "card"], ["drawn", "drawn"], ["GIH WR", "gih", "gih_low", "gih_high"],
  ["OH", "oh"], ["GNS", "gns"], ["IWD pts", "iwd", "iwd_low", "iwd_high"], ["played", "played"],
  ["WR", "played_wr"], ["play%", "play_rate"], ["turn", "first_turn_mean"],
];
const RATES = new Set(["gih", "oh", "gns", "iwd", "played_wr", "play_rate"]);

function cell(row, [, key, lo, hi]) {
  const v = row[key];
  if (RATES.has(key)) return el("td", {class: "num", title: lo ? `95%: ${interval(row[lo], row[hi])}` : null}, pct(v));
  if (typeof v === "number") return el("td", {class: "num"}, Number.isInteger(v) ? String(v) : v.toFixed(1));
  return el("td", {}, v ?? "");
}

function drawCards(cards) {
  if (!cards) return;
  const body = el("tbody");
  let order = {key: "iwd", down: true};
  const fill = () => {
    const sign = order.down ? -1 : 1;
    const value = (r) => r[order.key] ?? -Infinity;
    const rows = [...cards.cards].sort((a, b) => (value(a) > value(b) ? sign : value(a) < value(b) ? -sign : 0));
    body.replaceChildren(...rows.map((r) => el("tr", {"data-card": r.card}, COLUMNS.map((c) => cell(r, c)))));
    for (const th of heads) th.dataset.order = th.dataset.sort === order.key ? (order.down ? "▼" : "▲") : "";
  };
  const heads = COLUMNS.map(([title, key]) => el("th", {"data-sort": key, title: "sort by this column",
    onclick: () => { order = {key, down: order.key === key ? !order.down : true}; fill(); }}, title));
  $("cards").append(el("h2", {}, "cards"),
    el("p", {class: "note"}, "Rates in %; hover a rate for its 95% interval; click a heading to sort."),
    el("table", {id: "cardtable"}, el("thead", {}, el("tr", {}, heads)), body));
  fill();
  const never = cards.never_played || [];
  $("cards").append(el("h3", {}, "cards the agents (almost) never play"),
    never.length ? el("ul", {id: "neverplayed"}, never.map((c) => el("li", {}, `${c.deck}: ${c.card} (drawn ${c.drawn}, played ${c.played})`)))
      : el("p", {class: "note"}, "none"));
}

function drawAblation(a) {
  if (!a) return;
  const swaps = a.swaps.map(([from, to]) => `${from} → ${to}`).join(", ");
  $("ablation").append(el("h2", {}, "swap"), el("p", {id: "swap"},
    `${a.deck}, ${swaps}: win rate ${pct(a.before)}% → ${pct(a.after)}% over ${a.games} paired games ` +
    `(difference ${pct(a.difference)} points, 95% ${interval(a.low, a.high)}; p = ${a.p_value.toPrecision(2)})`));
}

function drawPlots(page) {
  $("plots").append(el("h2", {}, "plots"),
    ...page.plots.map((name) => el("figure", {}, el("img", {src: `/results/${name}?key=${key}`, alt: name}), el("figcaption", {}, name))),
    el("p", {class: "note"}, "files: ", page.downloads.map((n) => el("a", {href: `/results/${n}?key=${key}`, download: n}, n + " "))));
}

fetch(`/api/results?key=${key}`).then((r) => r.json()).then((page) => {
  if (page.error) { $("status").textContent = page.error; return; }
  $("title").textContent = `simulation results: ${page.folder}`;
  drawSummary(page.summary);
  drawAblation(page.ablation);
  drawCards(page.cards);
  drawPlots(page);
});
