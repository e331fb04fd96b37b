// The Ask tab: the question and its options, the steps as they finish (server-sent events), then the answer
// with clickable citations, the not-found state, the parsed query, the entities, the route on the graph, the
// plan, the results with their score components, the searches and the time per node.

import { $, chips, dateText, detailsView, dl, fmt, h, highlight, ms, show, table } from "./dom.js";
import { ApiError, WORKSPACES, call, post, streamQuery, workspace } from "./api.js";
import { drawRoute, stepList } from "./route.js";

let ctx = null; // {graph: () => Promise<the graph's nodes and edges>, openDocument: (id, chunkId) => void}
let running = null; // the AbortController of the question being answered
let routeOnly = window.matchMedia("(max-width: 720px)").matches;

export function initAsk(context) {
  ctx = context;
  const form = $("#ask-form");
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    ask();
  });
  $("#question").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      form.requestSubmit();
    }
  });
  // no maxlength: it cut a pasted question at 2,000 characters without a word, and the cut question was asked
  $("#question").addEventListener("input", questionHint);
  $("#stop-button").addEventListener("click", () => running && running.abort());
  $("#new-conversation").addEventListener("click", () => {
    conversation.clear();
    show($("#ask-output"));
    $("#question").focus();
  });
  conversation.render();
}

const HINT = "Enter asks, Shift+Enter starts a new line.";
const count = (n) => n.toLocaleString("en-US");

/** The hint under the question: how to ask, or, past the server's limit, by how much the question is too long. */
function questionHint() {
  const box = $("#question");
  const max = Number(box.dataset.maxChars);
  const over = box.value.trim().length - max;
  const hint = $("#question-hint");
  hint.textContent = over > 0
    ? `${count(box.value.trim().length)} characters: a question takes at most ${count(max)}; shorten it by ${count(over)}.`
    : HINT;
  hint.classList.toggle("warn-text", over > 0);
}

// --- the conversation: earlier turns kept in localStorage; a follow-up is made standalone by the server --------

// One conversation per workspace: a follow-up never carries another workspace's entities over.
const HISTORY_KEY = workspace.get() ? `aer.conversation.${workspace.get()}` : "aer.conversation";
const MAX_TURNS = 20; // kept in the browser
const SENT_TURNS = 8; // sent to the server to resolve a follow-up (the chat endpoint reads the last six)
const ANSWER_CHARS = 1500;

export const conversation = {
  turns() {
    try {
      const turns = JSON.parse(localStorage.getItem(HISTORY_KEY) || "[]");
      return Array.isArray(turns) ? turns.filter((t) => t && typeof t.question === "string") : [];
    } catch {
      return [];
    }
  },
  save(turns) {
    localStorage.setItem(HISTORY_KEY, JSON.stringify(turns.slice(-MAX_TURNS)));
    this.render();
  },
  add(turn) {
    this.save([...this.turns(), turn]);
  },
  clear() {
    localStorage.removeItem(HISTORY_KEY);
    this.render();
  },
  /** The chat messages of the earlier turns and the new question. */
  messages(question) {
    const out = [];
    for (const t of this.turns().slice(-SENT_TURNS)) {
      out.push({ role: "user", content: t.question });
      if (t.answer) out.push({ role: "assistant", content: t.answer.slice(0, ANSWER_CHARS) });
    }
    out.push({ role: "user", content: question });
    return out;
  },
  render() {
    const turns = this.turns();
    $("#conversation").hidden = turns.length === 0;
    show($("#conversation-turns"), turns.map((t, i) => h("li", { class: "turn" },
      h("p", { class: "turn-q" }, h("span", { class: "turn-n" }, `${i + 1}`), h("b", {}, t.question),
        t.asked && t.asked !== t.question ? h("span", { class: "muted small" }, ` — asked as “${t.asked}”`) : null),
      h("p", { class: "turn-a" }, t.status ? statusBadge(t.status, t.status !== "answered") : null,
        " ", withoutMarkers(t.answer)))));
  },
};

/** The standalone question for this turn: the question itself when there is no earlier turn. */
async function resolveQuestion(question, signal) {
  if (!conversation.turns().length) return { question, original: question, mode: "standalone", carriedEntities: [] };
  return call("conversation/resolve", { method: "POST", json: { messages: conversation.messages(question) }, signal });
}

/** A response's status in words: "no_results" read as if nothing was found, while related passages are listed
 * right below it; the API's name stays in data-status and the tooltip. */
const STATUS_WORDS = { answered: "answered", no_results: "not found" };

/** The answerability decision in words (the API's name in data-decision). */
const DECISION_WORDS = { answerable: "supported", not_found: "not in the documents" };

/** The decision's reason without the score (or the lexicon's note) it carries in brackets ("… (answerability
 * 0.21 < 0.33)"): the page shows how it was decided apart, once, in words (``aer query``'s plain_reason alike). */
export function plainReason(a) {
  return String(a.reason || "")
    .replace(/\s*\((?:answerability -?[\d.]+ *(?:<|>=|≥|>) *-?[\d.]+|decided by the bilingual lexicon;[^)]*)\)/g, "").trim();
}

/** An answer the score let through although a check found a fault: the answer layer's reason then reads
 * "answered although the best evidence does not state …", shown under a "supported" badge as if both held. The
 * fault in words (without the "answered although"), or null. */
export function doubtOf(a) {
  if (!a || a.decision !== "answerable") return null;
  const m = /^answered although\s+/.exec(plainReason(a));
  return m ? plainReason(a).slice(m[0].length) : null;
}

const EXCERPT_CHARS = 220;

/** The sentence of ``text`` that holds ``span`` (the passage's opening when none does), at most EXCERPT_CHARS
 * characters with an ellipsis where it is cut. */
export function excerpt(text, span) {
  const lines = String(text).split(/\n+/).map((l) => l.replace(/\s+/g, " ").trim()).filter(Boolean);
  const wanted = span ? String(span).toLowerCase() : null;
  const line = (wanted && lines.find((l) => l.toLowerCase().includes(wanted))) || lines[0] || "";
  const at = wanted ? line.toLowerCase().indexOf(wanted) : -1;
  const STOP = /(?:[。！？!?;；]|\.)\s*$/;
  let start = 0;
  let end = line.length;
  if (at >= 0) {
    // the sentence around the span: from the last stop before it (an English ". " too: "A single kayak costs 14
    // euros per hour. " was quoted before the sentence with 22 euros) to the first stop after it, or the span's
    // own last one when it is a whole sentence (it ran on into the next sentence)
    const stops = [...line.slice(0, at).matchAll(/[。！？!?;；]\s*|\.\s+/g)];
    if (stops.length) start = stops[stops.length - 1].index + stops[stops.length - 1][0].length;
    const spanEnd = at + wanted.length;
    const after = line.slice(spanEnd).search(/[。！？!?;；]|\.(\s|$)/);
    end = STOP.test(line.slice(at, spanEnd)) ? spanEnd : after < 0 ? line.length : spanEnd + after + 1;
  }
  if (end - start > EXCERPT_CHARS) {
    start = at >= 0 ? Math.max(start, at - Math.floor(EXCERPT_CHARS / 2)) : start;
    end = Math.min(end, start + EXCERPT_CHARS);
  }
  const piece = line.slice(start, end).trim();
  // an ellipsis only where a sentence is cut, not after a whole one ("1930.…")
  const before = start > 0 && !STOP.test(line.slice(0, start));
  return `${before ? "…" : ""}${piece}${end < line.length && !STOP.test(piece) ? "…" : ""}`;
}

/** The sentences an answer cites with the marker ``[index]`` that the passage ``text`` itself writes: for each
 * such marker, the longest tail of the text before it (back to the previous marker, from a sentence's start)
 * that the passage holds. The answer's own lead ("22 euros. ") and a sentence cited from another passage are
 * not the passage's; a marker right after another (``…hour.[1][2]``) cites the same text. */
export function citedSentences(answer, index, text) {
  const flat = (s) => String(s).replace(/\s+/g, " ").trim();
  const passage = flat(text).toLowerCase();
  const parts = String(answer || "").split(/\[(\d+)\]/g);
  const out = [];
  for (let i = 1; i < parts.length; i += 2) {
    if (Number(parts[i]) !== index) continue;
    let k = i - 1;
    while (k >= 2 && !flat(parts[k])) k -= 2;  // markers in a row: the text before the first of them
    const before = flat(parts[k]);
    const starts = [0, ...[...before.matchAll(/[。！？!?；;]\s*|\.\s+/g)].map((m) => m.index + m[0].length)];
    const found = starts.map((at) => before.slice(at).trim()).find((tail) => tail && passage.includes(tail.toLowerCase()));
    if (found && !out.includes(found)) out.push(found);
  }
  return out;
}

/** Where a related passage is quoted from: its sentence holding the most of ``terms`` (case aside), the longer on
 * a tie (a heading, "云岭茶园简介", names as many as the sentence under it and says nothing); null when none holds
 * one (the passage's opening is quoted). */
export function termSentence(text, terms) {
  const wanted = [...new Set(terms.filter(Boolean).map((t) => String(t).toLowerCase()))];
  let best = null;
  let bestCount = 0;
  for (const line of String(text).split(/\n+/)) {
    for (const sentence of line.split(/(?<=[。！？!?；;])|(?<=\.)\s+/).map((x) => x.trim()).filter(Boolean)) {
      const lower = sentence.toLowerCase();
      const count = wanted.filter((t) => lower.includes(t)).length;
      if (count > bestCount || (count && count === bestCount && sentence.length > best.length)) {
        best = sentence;
        bestCount = count;
      }
    }
  }
  return best;
}

/** The answer without its lead when the lead is the short answer alone, as its own sentence ("22 euros. A double
 * kayak costs …" → "A double kayak costs …"): the card shows the short answer right above it, and read it twice. */
export function withoutLead(answer, span) {
  const text = String(answer || "");
  if (!span || !text.startsWith(span)) return text;
  const stop = /^[.。!！?？]+\s*/.exec(text.slice(span.length));
  const body = stop ? text.slice(span.length + stop[0].length) : "";
  return body ? body : text;
}

/** An answer as plain text: without its citation markers (``[1]``), which are buttons only in the answer card. */
export function withoutMarkers(answer) {
  return String(answer || "").replace(/\s*\[\d+\]\s*/g, " ").replace(/ +([。，；！？,.;!?])/g, "$1").trim();
}

function statusBadge(status, warn) {
  return h("span", { class: `status-badge ${warn ? "warn" : "ok"}`, "data-status": status, title: `status: ${status}` },
    STATUS_WORDS[status] || status);
}

function resolvedNote(resolved) {
  if (resolved.mode === "standalone") return null;
  const carried = resolved.carriedEntities.map((c) => c.standardName);
  return h("p", { class: "resolved note" }, h("b", {}, "Follow-up asked as: "), h("q", { class: "resolved-question" }, resolved.question),
    resolved.mode === "entities" ? h("span", { class: "muted small" }, ` (carried from the earlier questions: ${carried.join(", ")})`)
      : resolved.mode === "restated" ? h("span", { class: "muted small" }, " (the question before, asked of the new subject)")
      : h("span", { class: "muted small" }, " (rewritten by the LLM from the conversation)"),
    resolved.degraded && resolved.degraded.length ? h("span", { class: "muted small" }, ` · degraded: ${resolved.degraded.join(", ")}`) : null);
}

/** Fill the option controls from the server's info. */
export function applyInfo(info) {
  const fill = (select, values, current) => show(select, values.map((v) => h("option", { value: v, selected: v === current }, v)));
  fill($("#opt-mode"), info.searchModes, "auto");
  fill($("#opt-team"), info.teams, "auto");
  $("#opt-topk").value = info.defaults.topK;
  $("#opt-retries").value = info.defaults.maxRetries;
  $("#opt-turns").value = info.defaults.maxTurns;
  $("#reranker-name").textContent = `(${info.reranker})`;
  // The model choice only matters when there is one to make.
  $("#field-llm").hidden = info.llmModels.length < 2;
  fill($("#opt-llm"), info.llmModels, info.llmModels[0]);
}

function readRequest() {
  const number = (id) => Number.parseInt($(id).value, 10);
  const request = {
    action: "query",
    question: $("#question").value.trim(),
    topK: number("#opt-topk"),
    maxRetries: number("#opt-retries"),
    maxTurns: number("#opt-turns"),
    searchMode: $("#opt-mode").value || "auto",
    team: $("#opt-team").value || "auto",
    fusion: $("#opt-fusion").value,
    enableReranking: $("#opt-rerank").checked,
  };
  if (!$("#field-llm").hidden && $("#opt-llm").value) request.llmModel = $("#opt-llm").value;
  return request;
}

function setBusy(busy) {
  $("#ask-button").disabled = busy;
  $("#ask-button").textContent = busy ? "Asking…" : "Ask";
  $("#stop-button").hidden = !busy;
  $("#ask-output").setAttribute("aria-busy", String(busy));
}

function showAskError(error) {
  const box = $("#ask-error");
  if (!error) {
    box.hidden = true;
    return;
  }
  const details = detailsView(error.details);
  show(box, h("strong", {}, error.code ? `${error.code}: ` : ""), error.message, details);
  box.hidden = false;
}

export async function ask(question) {
  if (question !== undefined) $("#question").value = question;
  const request = readRequest();
  if (!request.question) {
    showAskError({ code: "", message: "Type a question first." });
    $("#question").focus();
    return;
  }
  questionHint();
  const max = Number($("#question").dataset.maxChars);
  if (request.question.length > max) {
    showAskError({ code: "question_too_long", message: `The question has ${count(request.question.length)} characters; `
      + `a question takes at most ${count(max)}. Nothing was asked: shorten it and ask again.` });
    $("#question").focus();
    return;
  }
  for (const [key, [lo, hi]] of Object.entries({ topK: [1, 50], maxRetries: [0, 10], maxTurns: [1, 10] })) {
    if (!Number.isInteger(request[key]) || request[key] < lo || request[key] > hi) {
      showAskError({ code: "", message: `${key} must be a whole number from ${lo} to ${hi}.` });
      return;
    }
  }
  if (running) running.abort();
  const controller = new AbortController();
  running = controller;
  showAskError(null);
  setBusy(true);
  const original = request.question;
  let resolved;
  try {
    resolved = await resolveQuestion(original, controller.signal);
  } catch (err) {
    if (running === controller) {
      running = null;
      setBusy(false);
    }
    if (err.name !== "AbortError") showAskError(err);
    return;
  }
  request.question = resolved.question;
  const structure = await ctx.graph().catch(() => null);
  const view = new RunView(structure, request.question);
  show($("#ask-output"), resolvedNote(resolved), view.root);
  bringIntoSight(view.status);
  try {
    if ($("#opt-stream").checked) {
      let finished = false;
      for await (const { event, data } of streamQuery(request, controller.signal)) {
        if (event === "step") view.step(data);
        else if (event === "token") view.token(data.text || "");
        else if (event === "result") {
          view.result(data);
          finished = true;
        } else if (event === "error") {
          throw new ApiError(0, data.error.code, data.error.message, data.error.details);
        }
      }
      if (!finished) throw new ApiError(0, "stream_ended", "the answer stream ended before the result arrived");
    } else {
      view.result(await post(request, { signal: controller.signal }));
    }
    const r = view.response;
    conversation.add({ question: original, asked: resolved.question, answer: r.answer || "", status: r.status });
    bringIntoSight(view.status);  // the new turn above pushed it down
    $("#question").value = "";
    questionHint();
  } catch (err) {
    if (err.name === "AbortError") view.stopped();
    else {
      view.failed();
      showAskError(err);
    }
  } finally {
    if (running === controller) {
      running = null;
      setBusy(false);
    }
  }
}

/** Scroll the run's status line to the top of the window when less than 200 px of the answer under it would show:
 * on a phone (or under a long conversation) the answer appeared out of sight, or was pushed out of it when its turn
 * joined the conversation above, and nothing on screen changed but the button. */
export function bringIntoSight(el) {
  const top = el.getBoundingClientRect().top;
  if (top <= window.innerHeight - 200) return;
  // below the header where it stays on screen (sticky, on a desktop): scrolled to the window's top, the status
  // and the answer's first lines were under it
  const header = document.querySelector("header.top");
  const covered = header && getComputedStyle(header).position === "sticky" ? header.getBoundingClientRect().bottom : 0;
  window.scrollBy(0, top - Math.max(0, covered) - 8);
}

/** Terms to mark in passages: the question's keywords, entity mentions and their standard names. */
function termsOf(r) {
  const qa = r.queryAnalysis || {};
  return [
    ...(qa.keywords || []),
    ...(r.entityValidation || []).flatMap((e) => [e.text, e.valid ? e.standardName : null]),
    ...(r.entityValidation || []).flatMap((e) => (e.valid ? e.hierarchy || [] : [])),
  ].filter(Boolean);
}

function card(title, ...children) {
  return h("section", { class: "card" }, h("h2", {}, title), children);
}

function entityTags(entities) {
  return Object.entries(entities || {}).map(([type, names]) => h("span", { class: "tag" }, h("b", {}, type), ` ${names.join(", ")}`));
}

/** Where a passage is: its file, page and section (``report.pdf, p. 3``, ``guide.md § Setup``), led by the
 * document's id when that is not the file's name; "" when nothing is known. */
export function whereOf(hit, withId = true) {
  let where = hit.source || "";
  if (hit.page !== null && hit.page !== undefined) where = where ? `${where}, p. ${hit.page}` : `p. ${hit.page}`;
  if (hit.section) where = where ? `${where} § ${hit.section}` : `§ ${hit.section}`;
  if (withId && hit.docId && hit.docId !== hit.source) where = where ? `${hit.docId} · ${where}` : hit.docId;
  return where;
}

/** Open a passage in the dialog, the matched terms highlighted. */
export function openPassage(hit, terms, heading) {
  const dialog = $("#passage-dialog");
  $("#passage-title").textContent = heading || hit.title || hit.docId;
  const openDocument = ctx && ctx.openDocument;
  show($("#passage-body"),
    dl([
      ["Document", openDocument ? [h("button", { type: "button", class: "linklike", onclick: () => {
        dialog.close();
        openDocument(hit.docId, hit.id);
      } }, hit.docId), h("span", { class: "muted small" }, " (open it: its text with this passage marked)")] : hit.docId],
      ["File", hit.source],
      ["Page", hit.page === null || hit.page === undefined ? null : String(hit.page)],
      ["Section", hit.section],
      ["Passage", hit.id],
      ["Title", hit.title],
      ["Date", dateText(hit.date, hit.dateGranularity)],
      ["Channel", hit.channel],
      ["Score", hit.score !== undefined ? fmt(hit.score) : null],
      ["Reranked", hit.rerankedScore !== null && hit.rerankedScore !== undefined ? fmt(hit.rerankedScore) : null],
    ]),
    h("p", { class: "passage-text" }, highlight(hit.text || "", terms)),
    hit.relevanceExplanation ? h("p", { class: "muted small" }, `Why it ranks here: ${hit.relevanceExplanation}`) : null,
    h("div", { class: "tags" }, entityTags(hit.entities)));
  if (!dialog.open) dialog.showModal();
}

/** Everything shown for one question: built as the steps arrive, completed by the result. */
class RunView {
  constructor(structure, question) {
    this.structure = structure;
    this.question = question;
    this.steps = [];
    this.response = null;
    this.selected = null;
    this.draft = "";
    this.status = h("p", { class: "run-status" }, h("span", { class: "spinner", "aria-hidden": "true" }), "Working…");
    this.answer = h("div", { class: "answer-area" });
    this.picture = h("div", { class: "route-picture" });
    this.list = h("div", { class: "route-list" });
    this.toggle = h("button", { type: "button", class: "ghost small", "aria-pressed": String(routeOnly),
                                onclick: () => this.flip() }, routeOnly ? "Show the whole graph" : "Show the route only");
    this.routeCard = h("section", { class: "card route-card" },
      h("div", { class: "card-head" }, h("h2", {}, "Route"), this.toggle),
      h("p", { class: "muted small" }, "Visited nodes are filled and numbered in the order they ran; solid arrows are the edges taken, dashed ones are routing choices. Select a node to find its steps."),
      h("div", { class: "route-grid" }, this.picture, this.list));
    this.side = h("div", { class: "side" });
    this.details = h("div", { class: "details" });
    this.root = h("div", { class: "run" }, this.status,
      h("div", { class: "run-grid" }, this.answer, this.side), this.routeCard, this.details);
    this.redraw();
  }

  flip() {
    routeOnly = !routeOnly;
    this.toggle.textContent = routeOnly ? "Show the whole graph" : "Show the route only";
    this.toggle.setAttribute("aria-pressed", String(routeOnly));
    this.redraw();
  }

  select(node) {
    this.selected = this.selected === node ? null : node;
    this.redraw();
    const first = this.list.querySelector("li.selected");
    if (first) first.scrollIntoView({ block: "nearest" });
  }

  redraw() {
    if (this.structure && window.dagre) {
      show(this.picture, h("div", { class: "route-scroll" },
        drawRoute(this.structure, this.steps, this.response, { routeOnly, onSelect: (n) => this.select(n) })));
    } else {
      show(this.picture, h("p", { class: "muted" }, "The graph could not be loaded; the steps are listed below."));
    }
    show(this.list, this.steps.length ? stepList(this.steps, this.response, this.selected) : h("p", { class: "muted" }, "Waiting for the first step…"));
  }

  step(step) {
    this.steps.push(step);
    this.status.lastChild.textContent = `Working… ${this.steps.length} step(s): ${step.node}`;
    this.redraw();
  }

  token(text) {
    this.draft += text;
    show(this.answer, card("Answer (being written)", h("p", { class: "answer-text" }, this.draft)));
  }

  stopped() {
    show(this.status, "Stopped.");
  }

  failed() {
    show(this.status, "The question could not be answered.");
  }

  result(r) {
    this.response = r;
    this.steps = (r.workflow && r.workflow.steps) || this.steps;
    const notFound = r.status === "no_results" || (r.answerability && r.answerability.decision === "not_found");
    show(this.status, statusBadge(r.status, notFound),
      ` ${fmt(r.workflow.totalDuration, 1)} ms · ${r.llm.note}`);
    const terms = termsOf(r);
    this.terms = terms;
    show(this.answer, notFound ? this.notFound(r, terms) : this.answered(r, terms));
    this.redraw();
    show(this.side, this.warnings(r), this.analysis(r), this.entities(r));
    show(this.details, this.plan(r), this.expansion(r), this.results(r, terms), this.timings(r));
  }

  passages(r) {
    const byId = new Map();
    for (const hit of [...(r.related || []), ...((r.retrievalDetails && r.retrievalDetails.topResults) || [])]) byId.set(hit.id, hit);
    return byId;
  }

  citeButton(r, citation, terms) {
    const hit = this.passages(r).get(citation.id);
    return h("button", {
      type: "button", class: "cite", "aria-label": `Source ${citation.index}: ${citation.title || citation.docId}`,
      title: [citation.title, whereOf(citation)].filter(Boolean).join(" — "),
      onclick: () => (hit ? openPassage(hit, terms, `[${citation.index}] ${citation.title || citation.docId}`) : null),
    }, `[${citation.index}]`);
  }

  answerText(r, terms) {
    const byIndex = new Map((r.citations || []).map((c) => [c.index, c]));
    const parts = (r.answer || "").split(/\[(\d+)\]/g);
    return h("p", { class: "answer-text" }, parts.map((part, i) => {
      if (i % 2 === 0) return part;
      const citation = byIndex.get(Number(part));
      return citation ? this.citeButton(r, citation, terms) : `[${part}]`;
    }));
  }

  // a message that asks several things: each part with its question, its result and its citations (numbered as
  // the whole answer's)
  parts(r, terms) {
    const parts = r.parts || [];
    if (!parts.length) return null;
    return h("ol", { class: "answer-parts" }, parts.map((p) => {
      const answered = p.status === "answered";
      return h("li", { class: `answer-part${answered ? "" : " part-absent"}` },
        h("p", { class: "part-question" }, h("b", {}, p.question), " ",
          h("span", { class: `status-badge ${answered ? "ok" : "warn"}` }, answered ? "answered" : "not found")),
        this.answerText({ ...r, answer: p.answer }, terms),
        p.answerability && p.answerability.reason ? h("p", { class: "muted small" }, plainReason(p.answerability)) : null);
    }));
  }

  answerability(r) {
    const a = r.answerability;
    if (!a) return null;
    // for people who never saw the score: the decision in words, the reason, and how it was decided (the score
    // against the bar it must reach) set apart; the API's decision stays in data-decision and the tooltip
    const own = a.decidedBy === "lexicon" && (a.features || {}).other_language === 0;  // the question's own language
    const how = a.decidedBy === "lexicon" ? `decided by the bilingual lexicon (${own ? "in the question's language" : "across languages"}; the score is not used)`
      : a.decidedBy === "meaning" ? "decided by meaning (across languages; the score is not used)"
      : a.decidedBy === "rule" ? "decided by a rule"
        : `confidence ${fmt(a.score, 2)}${a.threshold !== null && a.threshold !== undefined ? `, answers from ${fmt(a.threshold, 2)}` : ""}`;
    const doubt = doubtOf(a);
    return h("p", { class: "answerability" },
      h("span", { class: `status-badge ${a.decision === "answerable" && !doubt ? "ok" : "warn"}`, "data-decision": a.decision,
        title: `answerability: ${a.decision}` }, doubt ? "supported, with a doubt" : DECISION_WORDS[a.decision] || a.decision),
      a.reason ? h("span", { class: "reason" }, doubt ? ` — ${doubt}: check the cited source` : ` — ${plainReason(a)}`) : null,
      h("span", { class: "muted small how" }, ` (${how})`));
  }

  /** Each cited passage's words that carry the answer, under its source: the sentence with the short answer (or
   * the passage's opening), the short answer and the question's words marked, so a reader sees the support without opening it. */
  quote(r, citation, terms) {
    const hit = this.passages(r).get(citation.id);
    if (!hit || !hit.text) return null;
    const marked = r.answerSpan ? [...terms, r.answerSpan] : terms;
    // the passage's sentences the answer cites with this source's number (a comparison cites two lines of one
    // table; a second source's sentence holds no short answer); else the sentence with the short answer
    const cited = citedSentences(r.answer, citation.index, hit.text);
    const lines = cited.length ? cited.map((sentence) => excerpt(hit.text, sentence)) : [excerpt(hit.text, r.answerSpan)];
    return h("blockquote", { class: "source-quote small" },
      lines.map((line, i) => [i ? h("span", { class: "muted" }, " … ") : null, highlight(line, marked)]));
  }

  answered(r, terms) {
    const sources = (r.citations || []).map((c) => h("li", {}, this.citeButton(r, c, terms), " ",
      h("span", {}, c.title || c.docId), " ", h("span", { class: "where small" }, whereOf(c)), this.quote(r, c, terms)));
    const corrections = (r.corrections || []).length ? h("div", { class: "corrections" },
      h("h3", {}, "Corrected by the answer checker"),
      h("ul", {}, r.corrections.map((c) => h("li", {}, typeof c === "string" ? c
        : Object.entries(c).map(([k, v]) => h("span", { class: "kv" }, h("b", {}, `${k}: `), typeof v === "string" ? v : JSON.stringify(v))))))) : null;
    const contradictions = (r.contradictions || []).length ? h("div", { class: "contradictions" },
      h("h3", {}, "The sources disagree"),
      h("ul", {}, r.contradictions.map((c) => h("li", {}, h("b", {}, c.fact), ": ",
        c.claims.map((claim) => `${claim.value} (${claim.hitIds.join(", ")})`).join(" vs "))))) : null;
    return h("section", { class: "card answer-card" },
      h("h2", {}, "Answer"),
      r.answerSpan ? h("p", { class: "answer-span" }, h("span", { class: "muted small" }, "Short answer "), h("strong", {}, r.answerSpan)) : null,
      (r.parts || []).length ? this.parts(r, terms)
        : this.answerText(r.answerSpan ? { ...r, answer: withoutLead(r.answer, r.answerSpan) } : r, terms),
      (r.parts || []).length ? null : this.answerability(r),
      r.master && r.master.possiblyIncomplete ? h("p", { class: "warn-text" }, "A budget ran out before the search was done: the answer may be incomplete.") : null,
      corrections, contradictions,
      sources.length ? h("div", { class: "sources" }, h("h3", {}, "Sources"), h("ol", { class: "plain-list" }, sources)) : null);
  }

  notFound(r, terms) {
    const related = r.related || [];
    const empty = h("p", { class: "empty-workspace warn-text", hidden: true });
    if (!related.length && r.workspace) emptyWorkspaceNote(empty, r.workspace);
    return h("section", { class: "card answer-card not-found" },
      h("h2", {}, "Not found"),
      h("p", { class: "not-found-text" }, r.answer || "Nothing in the documents answers this question."),
      this.parts(r, terms),
      empty,
      this.answerability(r),
      related.length ? h("div", { class: "related" },
        h("h3", {}, "Related passages (closest, not an answer)"),
        h("ul", { class: "plain-list" }, related.map((hit) => h("li", {},
          h("button", { type: "button", class: "linklike", onclick: () => openPassage(hit, terms) }, hit.title || hit.docId),
          h("span", { class: "muted small" }, ` ${whereOf(hit)} · score ${fmt(hit.score)}`),
          // what the passage says near the question's words, so it is judged without opening each one
          hit.text ? h("blockquote", { class: "source-quote small" }, highlight(excerpt(hit.text, termSentence(hit.text, terms)), terms)) : null)))) : null);
  }

  warnings(r) {
    const items = [];
    if ((r.degraded || []).length) items.push(h("li", {}, h("b", {}, "Degraded: "), `${r.degraded.join(", ")} fell back to its rule path or default.`));
    if (r.llm && r.llm.used) items.push(h("li", {}, `LLM ${r.llm.model}: ${r.llm.calls} call(s).`));
    return items.length ? h("section", { class: "card warn-card" }, h("h2", {}, "Service notes"), h("ul", {}, items)) : null;
  }

  analysis(r) {
    const qa = r.queryAnalysis;
    const team = r.master && r.master.teamConfiguration;
    const relations = (qa.logicalRelations || []).map((rel) => `${rel.operator}(${(rel.entities || []).join(", ")})`).join("; ");
    return card("Parsed query",
      dl([
        ["Intent", qa.intent],
        ["Complexity", `${qa.complexity} (${fmt(qa.complexityScore, 2)})`],
        ["Confidence", fmt(qa.confidence, 2)],
        ["Parser", qa.parser],
        ["Keywords", (qa.keywords || []).length ? chips(qa.keywords) : null],
        ["Logic", relations],
        ["Team", team ? `${team.name}: ${team.reason}` : null],
        ["First route", (r.routingDecision.decisions || []).length ? `${r.routingDecision.action}: ${r.routingDecision.reason}` : null],
      ]),
      h("details", {}, h("summary", {}, "Complexity features"),
        dl(Object.entries(qa.complexityFeatures || {}).map(([k, v]) => [k, fmt(v, 2)]), "facts compact")));
  }

  entities(r) {
    const found = r.entityValidation || [];
    const withHierarchy = found.some((e) => (e.hierarchy || []).length);
    const rows = found.map((e) => [
      e.negated ? `NOT ${e.text}` : e.text, e.type,
      e.valid ? h("b", {}, e.standardName) : h("span", { class: "muted" }, "unknown: a keyword"),
      e.valid ? `${e.match} ${fmt(e.score, 2)}` : "–",
      ...(withHierarchy ? [(e.hierarchy || []).join(" > ")] : []),
    ]);
    const constraints = (r.routingDecision.finalConstraints || []).map((c) => `${c.negated ? "NOT " : ""}${c.type}=${c.value}`);
    return card("Entities",
      rows.length ? table(["Mention", "Type", "Standard name", "Match", ...(withHierarchy ? ["Hierarchy"] : [])], rows,
        { caption: "Each entity and its normalization" })
        : h("p", { class: "muted" }, "No entity in the question."),
      constraints.length ? h("p", { class: "small" }, h("b", {}, "Final filter constraints: "), constraints.join(", ")) : null);
  }

  plan(r) {
    const m = r.master || {};
    if (!m.plan && !(m.steps || []).length) return null;
    const plan = m.plan;
    return card("Plan",
      plan ? h("p", { class: "small" }, `${plan.pattern} plan by ${plan.planner}: ${plan.reason}`) : null,
      plan ? table(["Id", "Sub-question", "Strategy", "Depends on", "Status", "Attempts"],
        plan.subQuestions.map((q) => [q.id, q.question, q.strategy, (q.dependsOn || []).join(", ") || "–", q.status, String(q.attempts)]),
        { caption: "Sub-questions" }) : null,
      (m.steps || []).length ? table(["Sub-question", "Turn", "Attempt", "Strategy", "Status", "Results", "Route", "Time"],
        m.steps.map((x) => [x.subQuestion, String(x.turn), String(x.attempt), x.strategy, x.error ? `${x.status}: ${x.error}` : x.status,
          String(x.resultIds.length), x.route.join(" → "), ms(x.durationMs)]), { caption: "Executions" }) : null,
      (m.sufficiency || []).length ? h("div", {}, h("h3", {}, "Sufficiency"),
        h("ol", { class: "plain-list small" }, m.sufficiency.map((x) => h("li", {},
          h("b", {}, `turn ${x.turn}: ${x.level}`), ` (${x.judge}) → ${x.next}: ${x.reason}`)))) : null,
      (m.reflections || []).length ? h("div", {}, h("h3", {}, "Reflections"),
        h("ul", { class: "plain-list small" }, m.reflections.map((x) => h("li", {},
          h("b", {}, `${x.subQuestion}: ${x.action}`), ` after ${x.failure}: ${x.reason}`)))) : null);
  }

  expansion(r) {
    const rd = r.retrievalDetails;
    if (!(rd.expansion || []).length && !rd.evidence) return null;
    const ev = rd.evidence;
    return card("Graph expansion",
      (rd.expansion || []).length ? table(["Depth", "Decision", "Judge", "Coverage", "Results", "Reason"],
        rd.expansion.map((x) => [String(x.depth), x.decision, x.judge, x.coverage !== null && x.coverage !== undefined ? `${Math.round(x.coverage * 100)}%` : "–",
          String(x.numResults), x.reason]), { caption: "Sufficiency judgment per depth" }) : null,
      ev ? dl([
        ["Evidence", ev.selectedNodes.map((n) => `${n.node} (${fmt(n.relevance, 2)})`).join(", ")],
        ["Reasoning path", (ev.reasoningPath || []).join(" → ")],
        ["Selector", `${ev.selector}${ev.reasoning ? `: ${ev.reasoning}` : ""}`],
        ["Excluded", (ev.excludedNodes || []).join(", ")],
        ["Fusion weights", rd.fusionWeights ? Object.entries(rd.fusionWeights).map(([k, v]) => `${k} ${v}`).join(", ") : null],
      ]) : null);
  }

  results(r, terms) {
    const rd = r.retrievalDetails;
    const rows = (rd.topResults || []).map((hit, i) => [
      String(i + 1),
      h("span", {}, h("button", { type: "button", class: "linklike", onclick: () => openPassage(hit, terms) }, hit.title || hit.docId),
        h("br"), h("span", { class: "muted small" }, whereOf(hit))),
      hit.channel, fmt(hit.score), fmt(hit.denseScore), fmt(hit.bm25Score), fmt(hit.graphScore),
      hit.hop === null || hit.hop === undefined ? "–" : String(hit.hop), fmt(hit.rerankedScore),
      h("span", { class: "small" }, hit.relevanceExplanation || ""), dateText(hit.date, hit.dateGranularity) || "–",
    ]);
    const searches = (rd.searches || []).map((x) => [x.channel, h("code", { class: "small" }, x.filter || "—"), String(x.count), ms(x.durationMs)]);
    return h("div", { class: "run-wide" },
      card(`Top results (${rd.rankedResultCount} of ${rd.searchResultCount} found; reranker ${rd.reranker})`,
        rows.length ? table(["#", "Passage", "Channel", "Score", "Dense", "BM25", "Graph", "Hop", "Reranked", "Why", "Date"], rows, { caption: "Top results and their score components", cls: "data wide" })
          : h("p", { class: "muted" }, "No result."),
        searches.length ? h("details", {}, h("summary", {}, `Searches (${searches.length})`),
          table(["Channel", "Filter", "Hits", "Time"], searches, { caption: "Every search the run made" })) : null));
  }

  timings(r) {
    const steps = r.workflow.steps || [];
    const longest = Math.max(...steps.map((x) => x.durationMs), 0.001);
    return card(`Time per node (total ${ms(r.workflow.totalDuration)})`,
      h("ol", { class: "timings" }, steps.map((x, i) => {
        const bar = h("span", { class: "bar" });
        bar.style.width = `${Math.max(0.5, (x.durationMs / longest) * 100)}%`;
        return h("li", {}, h("span", { class: "t-node" }, `${i + 1}. ${x.node}`), h("span", { class: "t-bar" }, bar), h("span", { class: "t-ms" }, ms(x.durationMs)));
      })),
      h("p", { class: "muted small" }, r.runId ? `run ${r.runId}` : ""));
  }
}

/**
 * Fill `el` when the workspace that answered holds no documents: a new user uploaded into one workspace and
 * asked in another, and read only "No relevant information was found". Names the workspaces that have some.
 * A failed listing leaves the note hidden.
 */
async function emptyWorkspaceNote(el, name) {
  let list;
  try {
    const answer = await call("", { base: WORKSPACES, inWorkspace: false, askKey: false });
    list = (answer && answer.workspaces) || [];
  } catch {
    return;
  }
  const here = list.find((w) => w.name === name);
  if (!here || here.documents !== 0) return;
  const others = list.filter((w) => w.name !== name && w.documents > 0).map((w) => `${w.name} (${w.documents})`);
  show(el, `The workspace “${name}” has no documents yet: upload some on the Documents tab`,
    others.length ? `, or choose a workspace that has some in the picker: ${others.join(", ")}.` : ".");
  el.hidden = false;
}
