// The Documents tab: upload files (the server parses them; each file's error is named while the others go in)
// and follow the ingest job, add one document from a form, list and filter the inventory, open a document to
// see its chunks (section or page, entity tags), search the passages, delete.

import { $, dateText, detailsView, dl, fmt, h, highlight, show, table } from "./dom.js";
import { call, post } from "./api.js";
import { openPassage, whereOf } from "./ask.js";
import { refreshCounts } from "./workspaces.js";

const JOBS = "aer.jobs"; // the jobs this tab is following (sessionStorage): a reload picks them up again
const JOB_POLL_MS = 1000;
const JOB_POLL_LIMIT = 1800; // 30 minutes of polling, then the page stops asking (the job goes on)
const JOB_OUTCOMES = 500; // outcomes read per poll (the API's largest page)
const PAGE = 20;

const inventory = { offset: 0, title: "", source: "", root: "", shown: 0 };

export function initDocuments() {
  $("#upload-files").addEventListener("change", () => { $("#upload-folder").value = ""; preview(chosen()); });
  $("#upload-folder").addEventListener("change", () => { $("#upload-files").value = ""; preview(chosen()); });
  $("#upload-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    upload();
  });
  $("#doc-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    addFromForm();
  });
  $("#inventory-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    inventory.offset = 0;
    loadInventory();
  });
  $("#inv-prev").addEventListener("click", () => {
    inventory.offset = Math.max(0, inventory.offset - PAGE);
    loadInventory();
  });
  $("#inv-next").addEventListener("click", () => {
    inventory.offset += PAGE;
    loadInventory();
  });
  $("#find-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    find($("#find-text").value.trim());
  });
  for (const job of followed()) followJob(job.id, job.label);
  followUnfinished();
}

/** Follow the workspace's queued and running jobs this tab did not start: another tab's or person's upload, or
 * one a restart of the server resumed (a page opened then showed nothing of it: no progress, no documents). */
async function followUnfinished() {
  let jobs;
  try {
    jobs = (await call("", { query: { action: "jobs", unfinished: "true" } })).jobs;
  } catch {
    return; // a key without document reads, or the server away: the inventory shows its own error
  }
  const mine = new Set(followed().map((j) => j.id));
  for (const job of jobs.reverse()) {  // oldest first: followJob puts each panel on top
    if (mine.has(job.id)) continue;
    const when = job.createdAt.replace("T", " ").replace("+00:00", " UTC");
    followJob(job.id, `${job.kind === "upload" ? "Upload" : "Ingest"} of ${job.progress.total} document(s), started ${when}`
      + (job.resumed ? " (resumed after a restart)" : ""));
  }
}

function say(box, kind, ...children) {
  const el = $(box);
  el.className = `result-box ${kind}`;
  show(el, children);
  el.hidden = false;
}

/** An API error: its code and message, the fields a 422 names, and each file an upload could not read. */
function errorView(err) {
  const details = err.details;
  const files = details && Array.isArray(details.files) ? details.files : null;
  const fields = Array.isArray(details) ? details : null;
  // the list below names each file's reason: the message's own copy of them (for curl users) is left out here
  const message = files ? err.message.split(": ")[0] : err.message;
  return [h("strong", {}, `${err.code}: `), message,
    files ? fileList(files) : null,
    fields ? h("ul", {}, fields.map((d) => h("li", {}, `${(d.loc || []).slice(1).join(".")}: ${d.msg}`))) : null,
    details && !files && !fields ? detailsView(details) : null];
}

export function bytesText(n) { // a no-break space: "582 B" wrapped to "582" over "B" in the inventory's column
  if (n === null || n === undefined) return "–";
  if (n < 1024) return `${n}\u00a0B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)}\u00a0KB`;
  return `${(n / 1024 / 1024).toFixed(1)}\u00a0MB`;
}

function timeText(iso) {
  return iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "–";
}

function docButton(id, label = id) {
  return h("button", { type: "button", class: "linklike", "aria-label": `Open ${id}`, onclick: () => openDocument(id) }, label);
}

function deleteButton(id) {
  return h("button", { type: "button", class: "danger small", "aria-label": `Delete ${id}`, onclick: () => remove(id) }, "Delete");
}

// --- upload ---------------------------------------------------------------------------------------------------

const SUFFIXES = $("#upload-files").accept.split(",");

const readable = (f) => SUFFIXES.some((s) => f.name.toLowerCase().endsWith(s));

/** The files picker's files to send: those the service reads, or, when it reads none of them, all (the server's
 * 415 then names the supported types). */
function pickedFiles() {
  const all = [...$("#upload-files").files];
  const ok = all.filter(readable);
  return ok.length ? ok : all;
}

/** The files to upload, each with its name: a path under the chosen folder (the folder is the root), else the
 * file's name. Files the service does not read are left out here (one would refuse the whole upload with 415)
 * and named by `leftOut`; a folder's hidden files (.DS_Store) are left out without a word. */
function chosen() {
  const folder = [...$("#upload-folder").files];
  if (!folder.length) return pickedFiles().map((file) => ({ file, name: file.name, root: null }));
  return folder.filter((f) => readable(f) && !f.name.startsWith("."))
    .map((file) => {
      const parts = (file.webkitRelativePath || file.name).split("/");
      return { file, name: parts.length > 1 ? parts.slice(1).join("/") : parts[0], root: parts.length > 1 ? parts[0] : null };
    }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)); // as `aer ingest` orders a folder
}

/** The chosen files the service does not read (a spreadsheet, a photo): their names, shown before and after the
 * upload (a folder of 10 files once uploaded 9 and never said that prices.xlsx stayed behind). */
function leftOut() {
  const folder = [...$("#upload-folder").files];
  const sent = new Set(pickedFiles());
  const files = folder.length ? folder.filter((f) => !f.name.startsWith("."))
    : [...$("#upload-files").files].filter((f) => !sent.has(f));
  return files.filter((f) => !readable(f)).map((f) => {
    const parts = (f.webkitRelativePath || f.name).split("/");
    return parts.length > 1 ? parts.slice(1).join("/") : parts[0];
  });
}

function leftOutNote(names) {
  return names.length ? h("p", { class: "left-out warn-text small" },
    `Left out, not a type the service reads (${SUFFIXES.join(" ")}): ${names.join(", ")}`) : null;
}

function preview(files, left = leftOut()) {
  show($("#upload-preview"), files.length ? h("ul", { class: "plain-list small" },
    files.map((f) => h("li", {}, h("b", {}, f.name), h("span", { class: "muted" }, ` ${bytesText(f.file.size)}`),
      // an empty file was listed as if fine, then refused by the server (empty_document): say it before sending
      f.file.size === 0 ? h("span", { class: "warn-text empty-file" }, " empty: nothing to read, it will fail") : null)))
    : null,
  leftOutNote(left));
  $("#upload-submit").textContent = files.length ? `Upload ${files.length} file(s)` : "Upload";
}

/** Each file of an upload: the documents it gave, or why it could not be read. */
function fileList(files) {
  return h("ul", { class: "files" }, files.map((f) => h("li", { class: f.status === "failed" ? "failed" : f.status === "duplicate" ? "duplicate" : "accepted" },
    h("b", {}, f.name), ": ",
    f.status === "failed" ? h("span", { class: "bad-text" }, `${f.error.code}: ${f.error.message.replace(`${f.name}: `, "")}`)
      // the same bytes as another file of this upload: left out, and which one was kept
      : f.status === "duplicate" ? h("span", { class: "status-badge warn duplicate", title: f.message },
        `same file as ${f.duplicateOf}: left out`)
      : `${f.documents.length} document(s)${f.documents.length === 1 && f.documents[0] !== f.name ? ` (${f.documents[0]})` : ""}`,
    f.replaced && f.replaced.length ? h("span", { class: "status-badge warn replaced" },
      `replaces ${f.replaced.length === 1 && f.replaced[0] === f.name ? "the indexed version" : f.replaced.join(", ")}`) : null,
    f.renamed ? h("span", { class: "status-badge warn renamed", title: f.renamed.message },
      `renames ${f.renamed.from}`) : null,
    f.unchanged && f.unchanged.length ? h("span", { class: "status-badge ok unchanged" },
      `indexed already, unchanged${f.unchanged.length === 1 && f.unchanged[0] === f.name ? "" : `: ${f.unchanged.join(", ")}`}`)
      : null)));
}

/** What an upload queued: its documents less those indexed already with the same content, which the job skips
 * ("1 file(s) read: 1 document(s) queued." was said of a file sent again unchanged, and "the others are queued"
 * of a failed file's unchanged companion). */
export function queuedText(answer) {
  const unchanged = (answer.unchanged || []).length;
  const queued = Math.max(answer.documents - unchanged, 0);
  const parts = [];
  if (queued || !unchanged) parts.push(`${queued} document(s) queued`);
  if (unchanged) parts.push(`${unchanged} indexed already, unchanged (skipped)`);
  return parts.join("; ");
}

function uploadForm(files, root, metadata) {
  const form = new FormData();
  for (const f of files) form.append("files", f.file, f.name);
  form.append("skipUnchanged", $("#upload-skip").checked ? "true" : "false");
  if (root) form.append("root", root);
  if (metadata) form.append("metadata", metadata);
  return form;
}

/** The metadata field's entries for one part of a split upload: its own files' (an upload refuses an entry for a
 * file it does not carry), and on the first part the entries that name no chosen file, for the server to refuse. */
export function metadataFor(metadata, part, all, first) {
  if (!metadata) return "";
  let parsed;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return metadata; // not JSON: the server says so
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return metadata;
  const mine = new Set(part.map((f) => f.name));
  const chosenNames = new Set(all.map((f) => f.name));
  const kept = Object.entries(parsed).filter(([name]) => mine.has(name) || (first && !chosenNames.has(name)));
  return kept.length ? JSON.stringify(Object.fromEntries(kept)) : "";
}

/** One answer for the parts of a split upload: their files, counts and lists together. */
export function mergedAnswers(answers) {
  const list = (key) => answers.flatMap((a) => a[key] || []);
  return { ...answers[0], files: list("files"), documents: answers.reduce((n, a) => n + (a.documents || 0), 0),
    unchanged: list("unchanged"), replaced: list("replaced"), renamed: list("renamed"), duplicates: list("duplicates") };
}

async function upload() {
  const files = chosen();
  const left = leftOut();
  if (!files.length) {
    say("#upload-result", "error", left.length ? leftOutNote(left) : "Choose one or more files first.");
    $("#upload-files").focus();
    return;
  }
  const root = $("#upload-root").value.trim() || files[0].root || "";
  const metadata = $("#upload-metadata").value.trim();
  const button = $("#upload-submit");
  button.disabled = true;
  say("#upload-result", "info", `Uploading ${files.length} file(s)…`);
  const answers = [];
  try {
    try {
      answers.push(await call("upload", { method: "POST", form: uploadForm(files, root, metadata) }));
    } catch (err) {
      // more files than the server takes in one upload (a folder of 36 was refused whole with too_many_files):
      // send them in parts of its limit, each part a job of its own
      const most = err.code === "too_many_files" && err.details ? err.details.maxFiles : 0;
      if (!most) throw err;
      for (let at = 0; at < files.length; at += most) {
        const part = files.slice(at, at + most);
        say("#upload-result", "info", `Uploading files ${at + 1}–${at + part.length} of ${files.length} (the server `
          + `takes ${most} per upload)…`);
        const answer = await call("upload", { method: "POST",
          form: uploadForm(part, root, metadataFor(metadata, part, files, at === 0)) });
        followJob(answer.jobId, `Upload of files ${at + 1}–${at + part.length} of ${files.length}`);
        answers.push(answer);
      }
    }
    const answer = mergedAnswers(answers);
    const failed = answer.files.filter((f) => f.status === "failed").length;
    const twice = answer.files.filter((f) => f.status === "duplicate").length;
    const leftOutTwice = twice ? `${twice} duplicate file(s) left out (the same bytes as another file). ` : "";
    const parts = answers.length > 1 ? `In ${answers.length} uploads of at most ${answers[0].files.length} file(s): ` : "";
    say("#upload-result", failed || twice ? "warn" : "ok",
      h("strong", {}, `${parts}${failed ? `${failed} of ${answer.files.length} file(s) could not be read; `
        : `${answer.files.length - twice} file(s) read: `}${queuedText(answer)}. ${leftOutTwice}`),
      fileList(answer.files), leftOutNote(left));
    if (answers.length === 1) followJob(answer.jobId, `Upload of ${answer.files.length} file(s)`);
    $("#upload-files").value = ""; // the folder name and the skip choice stay for the next upload
    $("#upload-folder").value = "";
    $("#upload-metadata").value = "";
    preview([]);
  } catch (err) {
    const sent = answers.reduce((n, a) => n + a.files.length, 0);
    say("#upload-result", "error", sent ? h("p", {}, `${sent} of ${files.length} file(s) were sent before this error: `
      + "their jobs are below.") : null, errorView(err));
  } finally {
    button.disabled = false;
  }
}

// --- jobs -----------------------------------------------------------------------------------------------------

function followed() {
  try {
    return JSON.parse(sessionStorage.getItem(JOBS) || "[]");
  } catch {
    return [];
  }
}

function setFollowed(jobs) {
  sessionStorage.setItem(JOBS, JSON.stringify(jobs.slice(0, 20)));
}

/** 42 s, 3 min 05 s, 1 h 02 min (the time left of a job). */
export function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

function ordinal(n) {
  if (n === 1) return "next";
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : ["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

function progressText(job) {
  const p = job.progress;
  const parts = [`${p.done + p.skipped + p.failed} of ${p.total} document(s)`];
  // what the batch in progress does now: one large file read "0 of 1 document(s) · 0 chunk(s)" for minutes
  if (p.stage && (job.status === "running" || p.writing)) parts.push(`now ${p.stage}`);
  if (p.skipped) parts.push(`${p.skipped} unchanged, skipped`);
  if (p.replaced) parts.push(`${p.replaced} replaced an earlier version`);
  if (p.failed) parts.push(`${p.failed} failed`);
  parts.push(`${p.chunks} chunk(s)`);
  if (p.chunksPerS) parts.push(`${fmt(p.chunksPerS, 1)} chunks/s`);
  if (job.status === "running") {
    // the ETA (the API's etaS): from the job's own rate once it has finished a document, before that from the
    // earlier jobs' rate; with neither (a first upload), how long it has run, so a one-file job is not a bare "?"
    const ran = job.startedAt ? Math.max(0, (Date.now() - Date.parse(job.startedAt)) / 1000) : null;
    parts.push(p.etaS !== null && p.etaS !== undefined ? `about ${duration(p.etaS)} left`
      : ran !== null ? `running for ${duration(ran)}, estimating the time left` : "estimating the time left");
  }
  if (job.status === "cancelled") {
    // a batch past its last check when the cancel came is written still; the rest is not ingested
    if (p.writing) parts.push(`${p.writing} being written when cancelled: they go in still`);
    if (p.pending - (p.writing || 0)) parts.push(`${p.pending - (p.writing || 0)} not ingested`);
  }
  // a queued job says where it stands and why it waits (it said a bare "queued" behind a cancelled job)
  if (job.status === "queued" && job.queue) parts.push(`${ordinal(job.queue.position)} in the queue: ${job.queue.reason}`);
  if (job.resumed) parts.push(`resumed ${job.resumed}× after a restart`);
  // written before their e5 vectors: searchable by keywords, entities and the graph now, by meaning once filled
  if (p.vectorsPending) parts.push(`dense vectors pending: ${p.vectorsPending} chunk(s), filling in the background`);
  return parts.join(" · ");
}

function outcomes(job) {
  const rows = job.documents.map((d) => [
    d.status === "done" || d.status === "replaced" || d.status === "reread" || d.status === "skipped" ? docButton(d.id) : h("span", {}, d.id),
    h("span", {}, h("span", { class: `status-badge ${d.status === "failed" ? "bad" : d.status === "done" ? "ok" : "warn"}` }, d.status),
      d.error ? h("span", { class: "outcome-error small" }, d.error) : null),
    fmt(d.chunks),
  ]);
  const more = job.progress.total > job.documents.length ? h("p", { class: "muted small" },
    `The first ${job.documents.length} of ${job.progress.total} documents.`) : null;
  return [table(["Document", "Outcome", "Chunks"], rows, { caption: "Each document of the job" }), more];
}

/** Show a job and poll it until it is done, failed or cancelled; then list each document's outcome. A queued or
 * running job has a Cancel button: the job stops before its next document (what it wrote stays indexed). */
export async function followJob(jobId, label) {
  if (!followed().some((j) => j.id === jobId)) setFollowed([{ id: jobId, label }, ...followed()]);
  const badge = h("span", { class: "status-badge warn" }, "queued");
  const bar = h("progress", { max: "1", value: "0", "aria-label": `Progress of ${label}` });
  const text = h("span", { class: "small" }, "");
  const body = h("div", {});
  const cancel = h("button", { type: "button", class: "small", "aria-label": `Cancel the ingest of ${label}`,
    onclick: async () => {
      cancel.disabled = true;
      try {
        // the answer is the job once its batch in progress stopped (or is past stopping: being written)
        const { job } = await post({ action: "cancel-job", id: jobId });
        badge.textContent = job.status;
        badge.className = "status-badge warn";
        text.textContent = progressText(job);
      } catch (err) {
        // 409 job_finished: it ended meanwhile; the next poll shows how
        if (err.code !== "job_finished") show(body, h("p", { class: "error-box" }, `Could not cancel: ${err.code}: ${err.message}`));
      }
    } }, "Cancel");
  const panel = h("div", { class: "job", dataset: { job: jobId } },
    h("div", { class: "job-head" }, h("b", {}, label), " ", badge, " ", cancel), bar, text, body);
  $("#jobs").prepend(panel);
  const finish = () => setFollowed(followed().filter((j) => j.id !== jobId));
  let settled = false;  // the job ended: outcomes shown, inventory and counts refreshed (once)
  let hadPending = false;
  for (let i = 0; i < JOB_POLL_LIMIT; i++) {
    let job;
    try {
      job = (await call("", { query: { action: "job", id: jobId, limit: JOB_OUTCOMES } })).job;
    } catch (err) {
      if (err.code === "job_not_found") finish();
      show(body, h("p", { class: "error-box" }, `Could not read job ${jobId}: ${err.code}: ${err.message} `,
        err.code === "job_not_found" ? null : h("button", { type: "button", class: "small", onclick: () => {
          panel.remove();
          followJob(jobId, label);
        } }, "Check again")));
      return;
    }
    const ended = job.status === "done" || job.status === "failed" || job.status === "cancelled";
    cancel.hidden = ended;
    badge.textContent = job.status;
    badge.className = `status-badge ${job.status === "done" && !job.progress.failed ? "ok" : job.status === "failed" ? "bad" : "warn"}`;
    bar.max = Math.max(1, job.progress.total);
    bar.value = job.progress.total - job.progress.pending;
    text.textContent = progressText(job);
    // a job cancelled while a batch was being written: that batch goes in still; wait for it before the outcomes
    if (ended && !settled && !job.progress.writing) {
      settled = true;
      finish();
      show(body, job.error ? h("p", { class: job.status === "failed" ? "bad-text" : "warn-text" }, job.error) : null, outcomes(job));
      loadInventory();
      refreshCounts();
    }
    // a finished job's dense vectors may still be filling: the line follows them until they are all in (it
    // stayed at "dense vectors pending: 7 chunk(s)" when the polling stopped with the job)
    if (ended && !job.progress.vectorsPending && !job.progress.writing) {
      if (hadPending) text.textContent = `${progressText(job)} · dense vectors all in`;
      return;
    }
    if (job.progress.vectorsPending) hadPending = true;
    await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
  }
  show(body, h("p", { class: "muted" }, `Still running after ${JOB_POLL_LIMIT} checks; the page stopped asking (the job goes on).`));
}

// --- add one document -----------------------------------------------------------------------------------------

async function addFromForm() {
  const id = $("#doc-id").value.trim();
  const text = $("#doc-text").value;
  const rawMeta = $("#doc-metadata").value.trim();
  if (!id || !text.trim()) {
    say("#doc-result", "error", "A document needs an id and a text.");
    (id ? $("#doc-text") : $("#doc-id")).focus();
    return;
  }
  let metadata = {};
  if (rawMeta) {
    try {
      metadata = JSON.parse(rawMeta);
    } catch (err) {
      say("#doc-result", "error", `Metadata is not valid JSON: ${err.message}`);
      $("#doc-metadata").focus();
      return;
    }
    if (typeof metadata !== "object" || Array.isArray(metadata) || metadata === null) {
      say("#doc-result", "error", "Metadata must be a JSON object, e.g. {\"date\": \"2024-03-28\"}.");
      return;
    }
  }
  try {
    const answer = await post({ action: "add-documents", documents: [{ id, title: $("#doc-title").value.trim(), text, metadata }] });
    if (answer.jobId) {
      // More text than the server writes while the request waits: it is queued as an ingest job (202).
      say("#doc-result", "info", `${id} is long: it was queued as an ingest job (below the upload form).`);
      followJob(answer.jobId, `Document ${id}`);
    } else {
      say("#doc-result", "ok", `Added ${id} as ${answer.chunks} chunk(s). `, docButton(id, "Open it"));
      loadInventory();
      refreshCounts();
    }
    $("#doc-form").reset();
  } catch (err) {
    say("#doc-result", "error", errorView(err));
  }
}

// --- the inventory --------------------------------------------------------------------------------------------

/** Load the current page of the document list (the filters as the form has them when it was submitted). */
export async function loadInventory() {
  const out = $("#inventory");
  inventory.title = $("#inv-title").value.trim();
  inventory.source = $("#inv-source").value.trim();
  inventory.root = $("#inv-root").value.trim();
  const request = ++inventory.shown; // only the latest request's answer is shown (an older one may come later)
  try {
    const page = await call("", { query: { action: "documents", offset: inventory.offset, limit: PAGE,
      title: inventory.title, source: inventory.source, root: inventory.root } });
    if (request !== inventory.shown) return undefined;
    if (!page.documents.length && page.total && inventory.offset) { // the last page emptied by a delete
      inventory.offset = Math.max(0, inventory.offset - PAGE);
      return loadInventory();
    }
    const rows = page.documents.map((d) => [
      docButton(d.id), d.title || "", d.source || h("span", { class: "muted" }, "–"), fmt(d.chunks), bytesText(d.bytes),
      h("span", { class: "nowrap" }, timeText(d.ingestedAt)), deleteButton(d.id),
    ]);
    const filtered = inventory.title || inventory.source || inventory.root;
    show(out, rows.length ? table(["Id", "Title", "File", "Chunks", "Size", "Ingested", ""], rows,
      { caption: `${filtered ? "Documents that match" : "Documents"}, by id` })
      : h("p", { class: "muted" }, filtered ? "No document matches." : "No document yet: upload files or add one."));
    $("#inv-page").textContent = page.total ? `${inventory.offset + 1}–${inventory.offset + page.documents.length} of ${page.total}` : "";
    $("#inv-prev").disabled = inventory.offset === 0;
    $("#inv-next").disabled = inventory.offset + PAGE >= page.total;
  } catch (err) {
    if (request === inventory.shown) show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
  }
  return undefined;
}

function chunkView(c, cited) {
  const where = [c.page !== null && c.page !== undefined ? `p. ${c.page}` : null, c.section ? `§ ${c.section}` : null,
    c.date ? `date ${dateText(c.date, c.dateGranularity)}` : null].filter(Boolean);
  return h("li", { class: `chunk${c.id === cited ? " cited" : ""}`, dataset: { chunk: c.id } },
    h("div", { class: "chunk-head" }, h("b", {}, `#${c.chunkIndex}`), where.length ? h("span", { class: "where" }, where.join(" · ")) : null,
      c.id === cited ? h("span", { class: "status-badge ok" }, "cited") : null),
    Object.keys(c.entities || {}).length ? h("div", { class: "tags" },
      Object.entries(c.entities).map(([type, names]) => h("span", { class: "tag" }, h("b", {}, type), ` ${names.join(", ")}`)))
      : h("p", { class: "muted small" }, "No entity tags."),
    h("p", { class: "chunk-text" }, c.text));
}

/** How many characters of ``next`` repeat the end of ``prev`` (the splitter's overlap), at most 400. */
function overlap(prev, next) {
  for (let n = Math.min(400, prev.length, next.length); n > 0; n--) {
    if (prev.endsWith(next.slice(0, n))) return n;
  }
  return 0;
}

/**
 * The document as text, rebuilt from its chunks in order (the overlap between neighbours said once), with a
 * heading where the page or section changes; the cited chunk's text is marked.
 */
function textView(chunks, cited) {
  const out = [];
  let heading = null;
  let prev = "";
  for (const c of chunks) {
    const where = [c.page !== null && c.page !== undefined ? `Page ${c.page}` : null, c.section].filter(Boolean).join(" · ");
    if (where && where !== heading) {
      out.push(h("h4", { class: "doc-heading" }, where));
      heading = where;
      prev = "";
    }
    const skip = overlap(prev, c.text);
    const shown = c.text.slice(skip);
    out.push(c.id === cited
      ? h("mark", { class: "cited-text", dataset: { chunk: c.id }, id: "cited-passage" }, shown)
      : h("span", { dataset: { chunk: c.id } }, shown));
    out.push(" ");
    prev = c.text;
  }
  return h("div", { class: "doc-text", tabindex: "0", role: "region", "aria-label": "The document's text" }, out);
}

/**
 * Open a document: its inventory row, its text (rebuilt from the chunks: the original file is not kept) and its
 * chunks with their section or page and entity tags. Opened from a citation (``chunkId``), the cited passage is
 * marked in the text and in the chunk list, and scrolled to.
 */
export async function openDocument(id, chunkId = null) {
  const dialog = $("#document-dialog");
  try {
    const answer = await call("", { query: { action: "document", id } });
    const d = answer.document;
    const cited = answer.chunks.some((c) => c.id === chunkId) ? chunkId : null;
    $("#document-title").textContent = d.title || d.id;
    const text = textView(answer.chunks, cited);
    const chunks = h("ol", { class: "plain-list chunks" }, answer.chunks.map((c) => chunkView(c, cited)));
    const panes = { text, chunks };
    const toggle = (name) => {
      for (const [key, pane] of Object.entries(panes)) pane.hidden = key !== name;
      for (const b of dialog.querySelectorAll(".view-toggle button")) b.setAttribute("aria-pressed", String(b.value === name));
    };
    chunks.hidden = true;
    show($("#document-body"),
      dl([
        ["Id", h("code", {}, d.id)],
        ["File", d.source],
        ["Folder", d.root],
        ["Chunks", fmt(d.chunks)],
        ["Size", d.bytes ? bytesText(d.bytes) : null],
        ["Ingested", d.ingestedAt ? timeText(d.ingestedAt) : null],
        ["Content hash", d.contentHash ? h("code", { title: d.contentHash }, d.contentHash.slice(0, 16)) : null],
      ]),
      h("div", { class: "dialog-actions" }, h("button", { type: "button", class: "danger", onclick: () => remove(d.id) }, "Delete this document")),
      cited ? h("p", { class: "small" }, "The ", h("mark", { class: "cited-text" }, "marked"), " text is the cited passage.") : null,
      h("div", { class: "view-toggle", role: "group", "aria-label": "View" },
        h("button", { type: "button", class: "small", value: "text", "aria-pressed": "true", onclick: () => toggle("text") }, "Text"),
        h("button", { type: "button", class: "small", value: "chunks", "aria-pressed": "false", onclick: () => toggle("chunks") }, `Chunks (${answer.chunks.length})`)),
      text, chunks);
    dialog.dataset.doc = d.id;
    if (!dialog.open) dialog.showModal();
    const mark = cited && text.querySelector("#cited-passage");
    if (mark) mark.scrollIntoView({ block: "center" });
  } catch (err) {
    say("#inventory-result", "error", errorView(err));
    $("#inventory-result").scrollIntoView({ block: "nearest" });
  }
}

// --- search the passages, delete ------------------------------------------------------------------------------

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
    show(out, byDoc.size ? table(["Document", "Best passage", "Score", ""], [...byDoc.values()].map((hit) => [
      h("span", {}, docButton(hit.docId), h("br"), h("span", { class: "muted small" }, hit.title || ""),
        whereOf(hit, false) ? [h("br"), h("span", { class: "where" }, whereOf(hit, false))] : null),
      h("button", { type: "button", class: "linklike small passage-link", onclick: () => openPassage(hit, terms) },
        highlight(hit.text.length > 160 ? `${hit.text.slice(0, 160)}…` : hit.text, terms)),
      fmt(hit.score),
      deleteButton(hit.docId),
    ]), { caption: "The documents of the closest passages, best first" }) : h("p", { class: "muted" }, "No document matches."));
  } catch (err) {
    show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
  }
}

async function remove(id) {
  if (!window.confirm(`Delete the document "${id}" and all its chunks?`)) return;
  const dialog = $("#document-dialog");
  try {
    const answer = await post({ action: "delete-document", id });
    say("#inventory-result", "ok", `Deleted ${answer.id} (${answer.deletedChunks} chunk(s)).`);
  } catch (err) {
    say("#inventory-result", "error", errorView(err));
  }
  if (dialog.open && dialog.dataset.doc === id) dialog.close();
  for (const button of document.querySelectorAll("#find-results tr button.danger")) {
    if (button.getAttribute("aria-label") === `Delete ${id}`) button.closest("tr").remove();
  }
  loadInventory();
  refreshCounts();
}
