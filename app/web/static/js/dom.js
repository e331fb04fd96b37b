// Small DOM helpers: every text goes in as a text node (never as HTML), so nothing from an answer, a passage
// or an entity name can inject markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/** Append children (nodes, strings, numbers, nested arrays; null/false skipped) as nodes or text. */
export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("p", {class: "x"}, "text", h("b", {}, "bold")). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Replace the children of el. */
export function show(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function fmt(value, digits = 3) {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  if (typeof value !== "number") return String(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(digits);
}

/** A stored date as the API gives it (``20240315`` or a string) at the granularity it says (``year``: ``2024``,
 * ``month``: ``2024-03``, else the day): a year-only date is stored as its first day and is not shown as one. */
export function dateText(value, granularity) {
  if (value === null || value === undefined || value === "") return null;
  const text = String(value);
  const digits = /^\d{8}$/.test(text) ? text : /^\d{4}-\d{2}-\d{2}$/.test(text) ? text.replace(/-/g, "") : null;
  if (!digits) return text;
  const [y, m, d] = [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6)];
  if (granularity === "year") return y;
  if (granularity === "month") return `${y}-${m}`;
  return `${y}-${m}-${d}`;
}

export function ms(value) {
  if (value === null || value === undefined) return "–";
  return value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`;
}

/** A definition list from [term, description] pairs (pairs with an empty description are skipped). */
export function dl(pairs, cls = "facts") {
  return h("dl", { class: cls },
    pairs.filter(([, d]) => d !== null && d !== undefined && d !== "").map(([t, d]) => [h("dt", {}, t), h("dd", {}, d)]));
}

/** An error's details for people: an object as "name: value" lines (a list of plain values joined with commas),
 *  not raw JSON; what is nested deeper stays compact JSON. */
export function detailsView(details) {
  if (details === null || details === undefined) return null;
  if (Array.isArray(details) && details.every((d) => d && typeof d === "object" && "msg" in d)) {
    return h("ul", {}, details.map((d) => h("li", {}, `${(d.loc || []).slice(1).join(".")}: ${d.msg}`)));
  }
  if (typeof details !== "object" || Array.isArray(details)) return h("p", { class: "mono small" }, plain(details));
  return dl(Object.entries(details).map(([k, v]) => [k, plain(v)]), "facts error-details");
}

function plain(value) {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value) && value.every((x) => x === null || typeof x !== "object")) return value.join(", ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A table: columns is a list of header labels, rows a list of cell lists (nodes or text). */
export function table(columns, rows, { caption, cls = "data" } = {}) {
  return h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption || columns.join(", ") },
    h("table", { class: cls },
      caption ? h("caption", {}, caption) : null,
      h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c) => h("td", {}, c)))))));
}

export function chips(items, cls = "chip") {
  return h("span", { class: "chips" }, items.map((item) => h("span", { class: cls }, item)));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The text with every occurrence of a term (case-insensitive) wrapped in <mark>. */
export function highlight(text, terms) {
  const wanted = [...new Set(terms.filter((t) => t && t.trim().length >= 2).map((t) => t.trim()))]
    .sort((a, b) => b.length - a.length);
  if (!wanted.length) return [text];
  const pattern = new RegExp(`(${wanted.map(escapeRegExp).join("|")})`, "gi");
  return text.split(pattern).map((part, i) => (i % 2 === 1 ? h("mark", {}, part) : part));
}
