// The route picture: the graph's nodes and edges laid out by dagre (vendored), the nodes a run visited
// highlighted and numbered in the order they ran, the edges it took drawn solid, and a short note on each
// visited node (relaxations, hits per search, the plan's sub-questions, the expansion's decisions, ...).

import { h, ms, s } from "./dom.js";

const LABELS = { __start__: "start", __end__: "end" };
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/;
const MAX_NODE_WIDTH = 250;

function textWidth(text, size) {
  let width = 0;
  for (const ch of text) width += WIDE.test(ch) ? size : size * 0.6;
  return width;
}

function clip(text, size, max) {
  if (textWidth(text, size) <= max) return text;
  let out = "";
  for (const ch of text) {
    if (textWidth(`${out}${ch}…`, size) > max) break;
    out += ch;
  }
  return `${out}…`;
}

/** A node's name on the page: its declared label (GET /graph serves it from the node registry). */
export function label(node, structure) {
  const declared = structure && structure.nodes.find((n) => n.id === node);
  return (declared && declared.label) || LABELS[node] || node;
}

/** The nodes that end a run: those with an edge to __end__. */
export function finalNodes(structure) {
  return new Set(structure.edges.filter((e) => e.target === "__end__").map((e) => e.source));
}

/** node -> the 1-based positions at which it ran. */
export function visitsOf(steps) {
  const visits = new Map();
  steps.forEach((step, i) => {
    if (!visits.has(step.node)) visits.set(step.node, []);
    visits.get(step.node).push(i + 1);
  });
  return visits;
}

/** "a>b" for every edge of the graph the run took (a node's parallel repeats are not an edge). */
export function traversed(structure, steps) {
  const exists = new Set(structure.edges.map((e) => `${e.source}>${e.target}`));
  const path = ["__start__", ...steps.map((st) => st.node)];
  if (steps.length && finalNodes(structure).has(steps[steps.length - 1].node)) path.push("__end__");
  const taken = new Set();
  for (let i = 1; i < path.length; i++) {
    const key = `${path[i - 1]}>${path[i]}`;
    if (path[i - 1] !== path[i] && exists.has(key)) taken.add(key);
  }
  return taken;
}

function counts(searches, channel) {
  const found = (searches || []).filter((x) => x.channel === channel).map((x) => x.count);
  return found.length ? `hits ${found.join(" → ")}` : null;
}

/** A short note per visited node, from the full response (while streaming: from each node's last summary). */
export function notes(steps, response) {
  const out = new Map();
  for (const step of steps) out.set(step.node, step.summary);
  if (!response) return out;
  const r = response;
  const rd = r.retrievalDetails || {};
  const master = r.master || {};
  const set = (node, text) => {
    if (text && out.has(node)) out.set(node, text);
  };
  const qa = r.queryAnalysis || {};
  set("parse_query", `${qa.intent}, ${qa.complexity} (${qa.parser})`);
  const known = (r.entityValidation || []).filter((e) => e.valid).length;
  set("validate_entities", `${known} of ${(r.entityValidation || []).length} entities known`);
  set("configure_team", master.teamConfiguration && master.teamConfiguration.name);
  const decisions = (r.routingDecision && r.routingDecision.decisions) || [];
  const short = (action) => action.replace("_search", "").replace("relax_constraints", "relax");
  set("route_query", decisions.length ? `→ ${decisions.map((d) => short(d.action)).join(" → ")}` : null);
  const relaxed = (r.routingDecision && r.routingDecision.relaxedConstraints) || [];
  set("relax_constraints", relaxed.map((x) => (x.action === "widened"
    ? `widened ${x.type} ${x.value}→${x.newValue}` : `dropped ${x.type}=${x.value}`)).join("; "));
  set("search_structured", counts(rd.searches, "structured"));
  set("search_semantic", counts(rd.searches, "semantic"));
  set("search_hybrid", counts(rd.searches, "hybrid"));
  const expansion = rd.expansion || [];
  set("judge_expansion", expansion.length ? expansion.map((x) => `d${x.depth} ${x.decision}`).join(" · ") : null);
  if (rd.evidence) set("select_evidence", `${rd.evidence.selectedNodes.length} node(s) by ${rd.evidence.selector}`);
  if (master.plan) set("plan_query", `${master.plan.subQuestions.length} sub-question(s), ${master.plan.planner}`);
  if (master.steps && master.steps.length) {
    set("execute_step", master.steps.map((x) => `${x.subQuestion} ${x.status}`).join(" · "));
  }
  if (master.sufficiency && master.sufficiency.length) {
    set("monitor_sufficiency", master.sufficiency.map((x) => x.level.replace("_sufficient", "")).join(" → "));
  }
  if (master.reflections && master.reflections.length) {
    set("reflect", master.reflections.map((x) => `${x.subQuestion} ${x.action}`).join(" · "));
  }
  set("rerank_hits", `${rd.rankedResultCount} by ${rd.reranker}`);
  set("write_answer", `${r.status} (${r.answerMode})`);
  return out;
}

function smoothPath(points) {
  if (!points.length) return "";
  let d = `M${points[0].x},${points[0].y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const p = points[i];
    const q = points[i + 1];
    d += ` Q${p.x},${p.y} ${(p.x + q.x) / 2},${(p.y + q.y) / 2}`;
  }
  const last = points[points.length - 1];
  return `${d} L${last.x},${last.y}`;
}

/**
 * The route drawn on the graph, as an SVG element.
 * options: {routeOnly: draw only what the run visited, onSelect(node): a node was clicked or activated}
 */
export function drawRoute(structure, steps, response, { routeOnly = false, onSelect } = {}) {
  const dagre = window.dagre;
  const visits = visitsOf(steps);
  const taken = traversed(structure, steps);
  const note = notes(steps, response);
  const finished = Boolean(response);
  let nodes = structure.nodes.map((n) => n.id);
  let edges = structure.edges;
  if (routeOnly) {
    const keep = new Set(["__start__", ...visits.keys()]);
    if (finished) keep.add("__end__");
    nodes = nodes.filter((n) => keep.has(n));
    edges = edges.filter((e) => taken.has(`${e.source}>${e.target}`));
  }

  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "TB", nodesep: 16, ranksep: 30, edgesep: 8, marginx: 6, marginy: 6, acyclicer: "greedy" });
  g.setDefaultEdgeLabel(() => ({}));
  const declared = new Map(structure.nodes.map((n) => [n.id, n]));
  for (const id of nodes) {
    const text = label(id, structure);
    const annotation = visits.has(id) && note.get(id) ? note.get(id) : "";
    const width = Math.min(MAX_NODE_WIDTH, Math.max(textWidth(text, 13) + 30, annotation ? textWidth(annotation, 11) + 22 : 0, 70));
    g.setNode(id, { width, height: annotation ? 46 : 30, text, annotation });
  }
  for (const e of edges) {
    if (g.hasNode(e.source) && g.hasNode(e.target)) {
      g.setEdge(e.source, e.target, { conditional: e.conditional, taken: taken.has(`${e.source}>${e.target}`),
                                      weight: taken.has(`${e.source}>${e.target}`) ? 2 : 1 });
    }
  }
  dagre.layout(g);
  // The drawing's bounds: the nodes and every edge point (a reversed back edge can bend outside the graph's box).
  const xs = [];
  const ys = [];
  for (const id of g.nodes()) {
    const n = g.node(id);
    xs.push(n.x - n.width / 2, n.x + n.width / 2);
    ys.push(n.y - n.height / 2, n.y + n.height / 2);
  }
  for (const id of g.edges()) for (const p of g.edge(id).points) {
    xs.push(p.x);
    ys.push(p.y);
  }
  const pad = 14; // room for the visit badges above and right of the nodes
  const left = Math.min(...xs) - pad;
  const top = Math.min(...ys) - pad;
  const width = Math.max(...xs) + pad - left;
  const height = Math.max(...ys) + pad - top;
  const order = [...visits.keys()].map((id) => label(id, structure)).join(" → ");

  const svg = s("svg", {
    class: "route-svg", viewBox: `${left} ${top} ${width} ${height}`,
    width: Math.ceil(width), height: Math.ceil(height), role: "img",
    "aria-label": steps.length ? `Route: ${order}` : "The graph, before any step ran",
  });
  svg.append(s("defs", {},
    s("marker", { id: "route-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
                  orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow" })),
    s("marker", { id: "route-arrow-on", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
                  orient: "auto-start-reverse" }, s("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow on" }))));

  const edgeLayer = s("g", { class: "edges" });
  for (const id of g.edges()) {
    const e = g.edge(id);
    edgeLayer.append(s("path", {
      d: smoothPath(e.points), class: `edge${e.taken ? " on" : ""}${e.conditional ? " conditional" : ""}`,
      "marker-end": `url(#${e.taken ? "route-arrow-on" : "route-arrow"})`,
    }));
  }
  svg.append(edgeLayer);

  const nodeLayer = s("g", { class: "nodes" });
  for (const id of g.nodes()) {
    const n = g.node(id);
    const seen = visits.get(id) || [];
    const terminal = id === "__start__" || id === "__end__";
    const visited = seen.length > 0 || (terminal && (id === "__start__" ? steps.length > 0 : finished));
    const x = n.x - n.width / 2;
    const y = n.y - n.height / 2;
    const spec = declared.get(id) || {};
    const group = s("g", {
      class: `node${visited ? " visited" : ""}${terminal ? " terminal" : ""}${spec.usesLlm ? " llm" : ""}`,
      dataset: { node: id }, transform: `translate(${x},${y})`,
    });
    const purpose = spec.purpose ? ` (${spec.purpose}${spec.usesLlm ? "; uses the LLM" : ""})` : "";
    const title = seen.length ? `${id}: step ${seen.join(", ")}${n.annotation ? ` — ${n.annotation}` : ""}`
      : `${id}${purpose}`;
    group.append(s("title", {}, title));
    group.append(s("rect", { width: n.width, height: n.height, rx: terminal ? n.height / 2 : 7 }));
    group.append(s("text", { x: n.width / 2, y: n.annotation ? 19 : n.height / 2 + 4.5, class: "name" }, n.text));
    if (n.annotation) {
      group.append(s("text", { x: n.width / 2, y: 36, class: "note" }, clip(n.annotation, 11, n.width - 14)));
    }
    if (seen.length) {
      const badge = seen.length > 4 ? `${seen.slice(0, 3).join("·")}…` : seen.join("·");
      const bw = Math.max(18, textWidth(badge, 11) + 10);
      group.append(s("g", { class: "badge", transform: `translate(${n.width - bw + 8},-9)` },
        s("rect", { width: bw, height: 18, rx: 9 }),
        s("text", { x: bw / 2, y: 13 }, badge)));
    }
    if (seen.length && onSelect) {
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `${id}, step ${seen.join(", ")}: show its steps`);
      group.addEventListener("click", () => onSelect(id));
      group.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onSelect(id);
        }
      });
    }
    nodeLayer.append(group);
  }
  svg.append(nodeLayer);
  return svg;
}

/** The ordered list of steps (numbers match the badges on the picture). */
export function stepList(steps, response, selected) {
  const relaxed = (response && response.routingDecision && response.routingDecision.relaxedConstraints) || [];
  let relaxIndex = 0;
  return h("ol", { class: "steps" }, steps.map((step, i) => {
    let extra = null;
    if (step.node === "relax_constraints" && relaxed[relaxIndex]) {
      extra = h("div", { class: "step-extra" }, `why: ${relaxed[relaxIndex++].reason}`);
    }
    return h("li", { class: `step${selected === step.node ? " selected" : ""}`, dataset: { node: step.node } },
      h("span", { class: "step-no" }, String(i + 1)),
      h("span", { class: "step-node" }, step.node),
      h("span", { class: "step-ms" }, ms(step.durationMs)),
      h("span", { class: "step-summary" }, step.summary),
      extra);
  }));
}
