// The Documents tab: add a document (form), add documents from files read in the browser (.txt/.md: one each;
// .jsonl/.json: records), find documents through their passages, delete. The server's upload endpoint, ingest
// jobs and document inventory are used when the server has them (info.features): see the *Feature* functions.

import { $, fmt, h, highlight, show, table } from "./dom.js";
import { call, post } from "./api.js";
import { openPassage } from "./ask.js";

const ADDED = "aer.addedDocuments";
const BATCH_DOCS = 100; // per add-documents request (the API takes up to 500)
const BATCH_BYTES = 2_000_000; // well under the default 5 MB body limit
const JOB_POLL_MS = 1000;
const JOB_POLL_LIMIT = 1800; // 30 minutes of polling, then the page stops asking (the job goes on)

let features = { upload: false, jobs: false, documents: false };
let pending = []; // documents read from files, waiting for "Add"

export function initDocuments(info) {
  features = info.features;
  $("#doc-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    addFromForm();
  });
  $("#doc-files").addEventListener("change", () => readFiles($("#doc-files").files));
  $("#file-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    addDocuments(pending, "from files");
  });
  $("#find-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    find($("#find-text").value.trim());
  });
  $("#delete-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    remove($("#delete-id").value.trim());
  });
  if (features.upload) initUploadFeature();
  if (features.documents) initInventoryFeature();
  renderAdded();
}

function result(kind, ...children) {
  const box = $("#doc-result");
  box.className = `result-box ${kind}`;
  show(box, children);
  box.hidden = false;
}

function failure(err) {
  result("error", h("strong", {}, `${err.code}: `), err.message,
    err.details ? h("pre", { class: "mono small" }, JSON.stringify(err.details, null, 2)) : null);
}

// --- the documents added from this tab (sessionStorage) ---------------------------------------------------

function added() {
  try {
    return JSON.parse(sessionStorage.getItem(ADDED) || "[]");
  } catch {
    return [];
  }
}

function remember(docs) {
  const keep = added().filter((d) => !docs.some((x) => x.id === d.id));
  sessionStorage.setItem(ADDED, JSON.stringify([...docs.map((d) => ({ id: d.id, title: d.title || "" })), ...keep].slice(0, 200)));
  renderAdded();
}

function forget(id) {
  sessionStorage.setItem(ADDED, JSON.stringify(added().filter((d) => d.id !== id)));
  renderAdded();
}

function renderAdded() {
  const items = added();
  show($("#added-list"), items.length ? items.map((d) => h("li", { class: "doc-row" },
    h("span", {}, h("b", {}, d.id), d.title ? ` — ${d.title}` : ""),
    h("button", { type: "button", class: "danger small", "aria-label": `Delete ${d.id}`, onclick: () => remove(d.id) }, "Delete")))
    : h("li", { class: "muted" }, "Nothing yet."));
}

// --- add ------------------------------------------------------------------------------------------------------

function addFromForm() {
  const id = $("#doc-id").value.trim();
  const text = $("#doc-text").value;
  const rawMeta = $("#doc-metadata").value.trim();
  if (!id || !text.trim()) {
    result("error", "A document needs an id and a text.");
    (id ? $("#doc-text") : $("#doc-id")).focus();
    return;
  }
  let metadata = {};
  if (rawMeta) {
    try {
      metadata = JSON.parse(rawMeta);
    } catch (err) {
      result("error", `Metadata is not valid JSON: ${err.message}`);
      $("#doc-metadata").focus();
      return;
    }
    if (typeof metadata !== "object" || Array.isArray(metadata) || metadata === null) {
      result("error", "Metadata must be a JSON object, e.g. {\"date\": \"2024-03-28\"}.");
      return;
    }
  }
  addDocuments([{ id, title: $("#doc-title").value.trim(), text, metadata }], "from the form").then((ok) => {
    if (ok) $("#doc-form").reset();
  });
}

function batches(docs) {
  const out = [];
  let current = [];
  let bytes = 0;
  for (const doc of docs) {
    const size = new TextEncoder().encode(JSON.stringify(doc)).length;
    if (current.length && (current.length >= BATCH_DOCS || bytes + size > BATCH_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(doc);
    bytes += size;
  }
  if (current.length) out.push(current);
  return out;
}

async function addDocuments(docs, source) {
  if (!docs.length) return false;
  const parts = batches(docs);
  let documents = 0;
  let chunks = 0;
  try {
    for (const [i, part] of parts.entries()) {
      if (parts.length > 1) result("info", `Adding documents ${source}: batch ${i + 1} of ${parts.length}…`);
      const answer = await post({ action: "add-documents", documents: part });
      remember(part);
      if (answer.jobId) {
        // A large request may be queued as an ingest job (202): follow it instead of counting here.
        if (features.jobs) followJob(answer.jobId);
        result("info", `Queued ${part.length} document(s) as job ${answer.jobId}.`);
        continue;
      }
      documents += answer.documents;
      chunks += answer.chunks;
    }
  } catch (err) {
    if (documents) result("error", `Added ${documents} document(s), then: ${err.code}: ${err.message}`);
    else failure(err);
    return false;
  }
  if (documents) {
    result("ok", `Added ${documents} document(s) as ${chunks} chunk(s) ${source}: `,
      docs.slice(0, 10).map((d) => d.id).join(", "), docs.length > 10 ? ` and ${docs.length - 10} more` : "", ".");
  }
  if (source === "from files") {
    pending = [];
    $("#file-form").reset();
    show($("#file-preview"));
    $("#file-submit").disabled = true;
  }
  return true;
}

// --- files read in the browser -------------------------------------------------------------------------------

function stem(name) {
  return name.replace(/\.[^.]+$/, "");
}

/** One document from a .txt/.md file: id = file name, title = its first heading or line. */
export function documentOfText(name, text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const heading = lines.find((l) => /^#{1,6}\s/.test(l));
  const title = (heading ? heading.replace(/^#{1,6}\s+/, "") : /\.md$|\.markdown$/i.test(name) ? stem(name) : lines[0] || stem(name)).slice(0, 200);
  return { id: name, title, text, metadata: {} };
}

/** Documents from .jsonl (one per line) or .json (a list, or {"documents": [...]}) text; errors name the line. */
export function documentsOfJson(name, text, jsonl) {
  const docs = [];
  const errors = [];
  const check = (record, where) => {
    if (!record || typeof record !== "object" || Array.isArray(record)) errors.push(`${where}: not a JSON object`);
    else if (typeof record.id !== "string" || !record.id) errors.push(`${where}: no "id"`);
    else if (typeof record.text !== "string" || !record.text.trim()) errors.push(`${where}: no "text"`);
    else docs.push({ id: record.id, title: record.title || "", text: record.text, metadata: record.metadata || {} });
  };
  if (jsonl) {
    text.split(/\r?\n/).forEach((line, i) => {
      if (!line.trim()) return;
      try {
        check(JSON.parse(line), `${name}:${i + 1}`);
      } catch (err) {
        errors.push(`${name}:${i + 1}: ${err.message}`);
      }
    });
  } else {
    try {
      const parsed = JSON.parse(text);
      const list = Array.isArray(parsed) ? parsed : parsed && Array.isArray(parsed.documents) ? parsed.documents : [parsed];
      list.forEach((record, i) => check(record, `${name}[${i}]`));
    } catch (err) {
      errors.push(`${name}: ${err.message}`);
    }
  }
  return { docs, errors };
}

async function readFiles(files) {
  pending = [];
  const errors = [];
  for (const file of files) {
    const text = await file.text();
    if (/\.jsonl$/i.test(file.name)) {
      const got = documentsOfJson(file.name, text, true);
      pending.push(...got.docs);
      errors.push(...got.errors);
    } else if (/\.json$/i.test(file.name)) {
      const got = documentsOfJson(file.name, text, false);
      pending.push(...got.docs);
      errors.push(...got.errors);
    } else if (text.trim()) {
      pending.push(documentOfText(file.name, text));
    } else {
      errors.push(`${file.name}: empty`);
    }
  }
  const ids = pending.map((d) => d.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) errors.push(`repeated ids: ${[...new Set(repeated)].join(", ")}`);
  const ok = pending.length > 0 && errors.length === 0;
  show($("#file-preview"),
    pending.length ? h("p", {}, `${pending.length} document(s) ready: `, pending.slice(0, 8).map((d) => d.id).join(", "),
      pending.length > 8 ? ` and ${pending.length - 8} more` : "") : null,
    errors.length ? h("div", { class: "error-box" }, h("strong", {}, "Fix these first (nothing was added):"),
      h("ul", {}, errors.slice(0, 20).map((e) => h("li", {}, e)))) : null);
  $("#file-submit").disabled = !ok;
  $("#file-submit").textContent = ok ? `Add ${pending.length} document(s)` : "Add documents";
}

// --- find and delete --------------------------------------------------------------------------------------

async function find(text) {
  const out = $("#find-results");
  if (!text) {
    show(out, h("p", { class: "muted" }, "Type words from the document first."));
    return;
  }
  show(out, h("p", { class: "muted" }, "Searching…"));
  try {
    const r = await post({ action: "query", question: text.slice(0, 2000), searchMode: "hybrid", team: "executor_inclusive",
                           enableReranking: false, topK: 10 });
    const hits = r.retrievalDetails.topResults || [];
    const byDoc = new Map();
    for (const hit of hits) if (!byDoc.has(hit.docId)) byDoc.set(hit.docId, hit);
    const terms = r.queryAnalysis.keywords || [];
    show(out, byDoc.size ? table(["Document", "Title", "Best passage", "Score", ""], [...byDoc.values()].map((hit) => [
      h("code", {}, hit.docId),
      h("button", { type: "button", class: "linklike", onclick: () => openPassage(hit, terms) }, hit.title || "(no title)"),
      h("span", { class: "small" }, highlight(hit.text.length > 160 ? `${hit.text.slice(0, 160)}…` : hit.text, terms)),
      fmt(hit.score),
      h("button", { type: "button", class: "danger small", "aria-label": `Delete ${hit.docId}`, onclick: () => remove(hit.docId) }, "Delete"),
    ]), { caption: "The documents of the closest passages, best first" }) : h("p", { class: "muted" }, "No document matches."));
  } catch (err) {
    show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
  }
}

async function remove(id) {
  if (!id) {
    result("error", "Type the id of the document to delete.");
    $("#delete-id").focus();
    return;
  }
  if (!window.confirm(`Delete the document "${id}" and all its chunks?`)) return;
  try {
    const answer = await post({ action: "delete-document", id });
    forget(id);
    result("ok", `Deleted ${answer.id} (${answer.deletedChunks} chunk(s)).`);
    $("#delete-form").reset();
    for (const row of document.querySelectorAll("#find-results tr")) {
      if (row.querySelector("code") && row.querySelector("code").textContent === id) row.remove();
    }
  } catch (err) {
    if (err.code === "document_not_found") forget(id);
    failure(err);
  }
}

// --- server features: upload + jobs, the inventory (shown when the server has them) -------------------------

function initUploadFeature() {
  $("#upload-section").hidden = false;
  $("#upload-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const files = $("#upload-files").files;
    if (!files.length) {
      result("error", "Choose one or more files to upload.");
      return;
    }
    const form = new FormData();
    for (const file of files) form.append("files", file, file.name);
    try {
      const answer = await call("upload", { method: "POST", form });
      if (answer.jobId && features.jobs) followJob(answer.jobId);
      else result("ok", "Uploaded: ", JSON.stringify(answer));
      $("#upload-form").reset();
    } catch (err) {
      failure(err);
    }
  });
}

async function followJob(jobId) {
  const row = h("div", { class: "job" }, h("b", {}, `job ${jobId}: `), h("span", { class: "job-status" }, "queued"));
  $("#jobs").prepend(row);
  for (let i = 0; i < JOB_POLL_LIMIT; i++) {
    let job;
    try {
      job = await call("", { query: { action: "job", id: jobId } });
    } catch (err) {
      show(row.lastChild, `${err.code}: ${err.message}`);
      return;
    }
    const info = job.job || job;
    const progress = info.progress && typeof info.progress === "object"
      ? `${info.progress.done ?? "?"} of ${info.progress.total ?? "?"}` : info.progress ?? "";
    show(row.lastChild, `${info.status} ${progress}`);
    if (info.status === "done" || info.status === "failed") {
      const outcomes = info.documents || info.outcomes || [];
      if (outcomes.length) row.append(table(Object.keys(outcomes[0]), outcomes.map((o) => Object.values(o).map((v) => (typeof v === "string" ? v : JSON.stringify(v))))));
      if (features.documents) loadInventory();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
  }
}

let inventoryOffset = 0;
const INVENTORY_PAGE = 50;

function initInventoryFeature() {
  $("#find-heading").textContent = "Documents";
  $("#find-hint").textContent = "The documents the server holds; search filters them by title or source.";
  $("#find-form").onsubmit = (ev) => {
    ev.preventDefault();
    ev.stopImmediatePropagation();
    inventoryOffset = 0;
    loadInventory();
  };
  loadInventory();
}

async function loadInventory() {
  const out = $("#find-results");
  const q = $("#find-text").value.trim();
  try {
    const page = await call("", { query: { action: "documents", offset: inventoryOffset, limit: INVENTORY_PAGE, q } });
    const docs = page.documents || [];
    show(out, table(["Id", "Title", "Source", "Chunks", "Bytes", "Ingested", ""], docs.map((d) => [
      h("button", { type: "button", class: "linklike", onclick: () => openDocument(d.id) }, d.id),
      d.title || "", d.source || "", fmt(d.chunks), fmt(d.bytes), d.ingestedAt || "",
      h("button", { type: "button", class: "danger small", "aria-label": `Delete ${d.id}`, onclick: () => remove(d.id) }, "Delete"),
    ]), { caption: `Documents ${inventoryOffset + 1}–${inventoryOffset + docs.length} of ${page.total ?? "?"}` }));
  } catch (err) {
    show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
  }
}

async function openDocument(id) {
  try {
    const answer = await call("", { query: { action: "document", id } });
    const doc = answer.document || answer;
    const chunks = answer.chunks || doc.chunks || [];
    openPassage({ id, docId: id, title: doc.title || id, text: chunks.map((c) => c.text).join("\n\n"), entities: {} }, [],
      `${doc.title || id} (${chunks.length} chunk(s))`);
    const body = $("#passage-body");
    body.append(table(["Chunk", "Text", "Entities"], chunks.map((c) => [c.id || "", h("span", { class: "small" }, c.text || ""),
      Object.entries(c.entities || {}).map(([t, names]) => `${t}: ${[names].flat().join(", ")}`).join("; ")])));
  } catch (err) {
    failure(err);
  }
}
