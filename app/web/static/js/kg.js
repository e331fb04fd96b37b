// The Knowledge graph tab: an entity's neighbourhood in the knowledge graph the server builds at ingest (documents
// and entities, joined by mentions, co-occurrences, title links, related and parent edges), drawn as an SVG star
// around it; selecting a neighbour lists the edges to it and the passages behind each (openable in their
// document, the passage highlighted). Not the workflow graph of the Ask tab's route.

import { $, h, highlight, s, show, table } from "./dom.js";
import { call } from "./api.js";

const WIDE = { w: 760, h: 560, label: 14, font: 13 };
const NARROW = { w: 420, h: 600, label: 9, font: 13 }; // a phone: fewer characters per label, larger type
const KIND_LABEL = { mentions: "mentions", co_occurs: "co-occurs", title_link: "links to", related: "related", parent: "parent", titled: "titled" };
let ctx = null; // {openDocument(id, chunkId)}
let current = null; // the neighbourhood shown
let selected = null; // the selected neighbour's node id

export function initKg(context) {
  ctx = context;
  $("#kg-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = $("#kg-entity").value.trim();
    if (!name) {
      say("error", "Type an entity's name or alias.");
      $("#kg-entity").focus();
      return;
    }
    showEntity(name);
  });
}

function say(kind, ...children) {
  const box = $("#kg-result");
  box.className = `result-box ${kind}`;
  show(box, children);
  box.hidden = children.length === 0;
}

/** Show an entity's neighbourhood (by name or alias), or a node's (by id). */
export async function showEntity(name, node = null) {
  if (name) $("#kg-entity").value = name;
  say("muted", "Loading…");
  try {
    current = await call("kg/neighbourhood", { query: node ? { node, limit: 30 } : { entity: name, limit: 30 } });
  } catch (err) {
    say("error", h("strong", {}, `${err.code}: `), err.message);
    show($("#kg-view"));
    return;
  }
  say();
  selected = null;
  if (current.center.kind === "entity") $("#kg-entity").value = current.center.name;
  render();
}

function clip(text, max) {
  let width = 0;
  let out = "";
  for (const ch of text) {
    width += /[\u2E80-\uFFFF]/.test(ch) ? 2 : 1;
    if (width > max) return `${out}…`;
    out += ch;
  }
  return out;
}

/** The edges to each neighbour: node id -> [edge]. */
function byNeighbour(n) {
  const out = new Map();
  for (const e of n.edges) {
    const other = e.source === n.center.id ? e.target : e.source;
    if (!out.has(other)) out.set(other, []);
    out.get(other).push(e);
  }
  return out;
}

/** The distinct edge kinds to a neighbour (both directions of one kind read once). */
function kindsOf(edges) {
  return [...new Set(edges.map((e) => KIND_LABEL[e.kind] || e.kind))];
}

function nodeShape(node, x, y, size, { center = false } = {}) {
  const label = clip(node.name || node.id, center ? size.label + 8 : size.label);
  const width = Math.max(48, [...label].reduce((w, ch) => w + (/[\u2E80-\uFFFF]/.test(ch) ? size.font : size.font * 0.58), 0) + 16);
  const cls = `kg-node ${node.kind}${center ? " center" : ""}${selected === node.id ? " selected" : ""}`;
  const select = () => {
    if (center) return;
    selected = selected === node.id ? null : node.id;
    render();
  };
  return s("g", {
    class: cls, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})`, tabindex: center ? null : "0", role: center ? null : "button",
    "aria-label": `${node.kind === "doc" ? "document" : "entity"} ${node.name}`, dataset: { node: node.id },
    onclick: select, onkeydown: (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        select();
      }
    },
  },
  s("title", {}, `${node.kind === "doc" ? "Document" : "Entity"}: ${node.name}${node.docId ? ` (${node.docId})` : ""}`),
  s("rect", { x: -width / 2, y: -15, width, height: 30, rx: node.kind === "entity" ? 15 : 4 }),
  s("text", { "text-anchor": "middle", dy: "0.35em", "font-size": size.font }, label));
}

function drawing(n) {
  const size = window.matchMedia("(max-width: 720px)").matches ? NARROW : WIDE;
  const W = size.w;
  const H = size.h;
  const groups = byNeighbour(n);
  const others = [...groups.keys()];
  const cx = W / 2;
  const cy = H / 2;
  const rx = W / 2 - (size === WIDE ? 90 : 55);
  const ry = H / 2 - 45;
  const place = new Map(others.map((id, i) => {
    const angle = (2 * Math.PI * i) / Math.max(others.length, 1) - Math.PI / 2;
    const k = others.length > 12 && i % 2 ? 0.74 : 1; // many neighbours: every other one on an inner ring
    return [id, [cx + k * rx * Math.cos(angle), cy + k * ry * Math.sin(angle)]];
  }));
  const nodes = new Map(n.nodes.map((x) => [x.id, x]));
  // Only the selected edge is labelled (thirty labels around one center overlap); the line style tells the kind.
  const lines = others.map((id) => {
    const [x, y] = place.get(id);
    const kinds = [...new Set(groups.get(id).map((e) => e.kind))];
    const style = kinds.includes("mentions") || kinds.includes("titled") ? "doc-edge"
      : kinds.includes("related") || kinds.includes("parent") ? "listed" : "co";
    return s("g", { class: `kg-edge ${style}${selected === id ? " selected" : ""}`, dataset: { kinds: kinds.join(" ") } },
      s("line", { x1: cx, y1: cy, x2: x, y2: y }),
      selected === id ? s("text", { x: cx + (x - cx) * 0.55, y: cy + (y - cy) * 0.55 - 6, "text-anchor": "middle", class: "kg-edge-label" },
        kindsOf(groups.get(id)).join(", ")) : null);
  });
  return s("svg", { class: "kg-svg", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Knowledge graph around ${n.center.name}` },
    lines,
    others.map((id) => nodeShape(nodes.get(id), ...place.get(id), size)),
    nodeShape(n.center, cx, cy, size, { center: true }));
}

function legend() {
  const item = (cls, text) => h("span", { class: "kg-legend-item" },
    s("svg", { width: 28, height: 10, "aria-hidden": "true" }, s("g", { class: `kg-edge ${cls}` }, s("line", { x1: 0, y1: 5, x2: 28, y2: 5 }))), text);
  return h("p", { class: "kg-legend muted small" }, item("doc-edge", "a document names it"), item("co", "named in the same document"),
    item("listed", "related / parent (entity list)"), "Round nodes are entities, square ones documents.");
}

function passageView(p, terms) {
  return h("li", { class: "kg-passage" },
    h("div", {}, h("b", {}, p.title || p.docId), " ",
      h("button", { type: "button", class: "linklike small", "aria-label": `Open ${p.docId} at this passage`,
        onclick: () => ctx.openDocument(p.docId, p.chunkId) }, "open in the document")),
    h("p", { class: "passage-text" }, highlight(p.text, terms)));
}

function details(n) {
  if (!selected) {
    return h("p", { class: "muted" }, "Select a node to see the edges to it and the passages behind them.");
  }
  const node = n.nodes.find((x) => x.id === selected);
  const edges = byNeighbour(n).get(selected) || [];
  const terms = [n.center.name, ...(n.center.aliases || []), node.name, ...(node.aliases || [])];
  return h("div", { class: "kg-details" },
    h("h3", {}, node.name, h("span", { class: "muted small" }, node.kind === "doc" ? ` document ${node.docId}` : " entity")),
    h("div", { class: "dialog-actions" },
      h("button", { type: "button", class: "small", onclick: () => showEntity(node.kind === "entity" ? node.name : null, node.id) },
        "Show its neighbourhood"),
      node.docId ? h("button", { type: "button", class: "small", onclick: () => ctx.openDocument(node.docId) }, "Open the document") : null),
    edges.map((e) => h("section", { class: "kg-edge-detail" },
      h("p", {}, h("b", {}, KIND_LABEL[e.kind] || e.kind), " ",
        h("span", { class: "muted small" }, `${(n.nodes.find((x) => x.id === e.source) || {}).name} → ${(n.nodes.find((x) => x.id === e.target) || {}).name}`),
        e.documents.length ? ` · from ${e.documents.length} document(s)` : " · from the entity list (no document behind it)"),
      e.passages.length ? h("ol", { class: "plain-list" }, e.passages.map((p) => passageView(p, terms))) : null)));
}

function render() {
  const n = current;
  const groups = byNeighbour(n);
  const rows = [...groups.entries()].map(([id, edges]) => {
    const node = n.nodes.find((x) => x.id === id);
    return [h("button", { type: "button", class: "linklike", onclick: () => {
      selected = id;
      render();
    } }, node.name), node.kind === "doc" ? "document" : "entity",
    kindsOf(edges).join(", "),
    String(new Set(edges.flatMap((e) => e.documents)).size)];
  });
  show($("#kg-view"),
    h("p", { class: "muted small" }, `${n.center.name}: ${groups.size} neighbour(s)${n.truncated ? " (the strongest 30 shown)" : ""}. `,
      "Select one for the edges and the passages behind them."),
    legend(),
    groups.size ? h("div", { class: "kg-grid" },
      h("div", { class: "kg-picture" }, drawing(n)),
      h("div", { class: "kg-side", id: "kg-details" }, details(n)))
      : h("p", { class: "muted" }, "Nothing is joined to it yet."),
    groups.size ? table(["Neighbour", "Kind", "Edges", "Documents"], rows, { caption: "Edges" }) : null);
  if (selected) {
    const detail = $("#kg-details");
    if (detail && window.matchMedia("(max-width: 720px)").matches) detail.scrollIntoView({ block: "nearest" });
  }
}
