// The Evaluation tab: run an evaluation of an uploaded questions.jsonl against the indexed documents (a
// background job, followed here), and the latest report of each dataset (`aer eval`'s and the page's: Markdown
// tables rendered by the server with raw HTML escaped, and the chart).

import { $, h, show } from "./dom.js";
import { call } from "./api.js";

const charts = []; // object URLs of the chart images, revoked on reload

export async function loadEvaluations() {
  const out = $("#eval-output");
  show(out, h("p", { class: "muted" }, "Loading the reports…"));
  let answer;
  try {
    answer = await call("evaluations");
  } catch (err) {
    show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
    return;
  }
  while (charts.length) URL.revokeObjectURL(charts.pop());
  const errors = answer.errors.length ? h("div", { class: "error-box" }, h("strong", {}, "Reports that could not be read:"),
    h("ul", {}, answer.errors.map((e) => h("li", {}, e)))) : null;
  if (!answer.reports.length) {
    show(out, h("section", { class: "card" }, h("h2", {}, "Evaluation"),
      h("p", {}, "No evaluation report yet. Run ", h("code", {}, "aer eval DATASET_DIR"),
        " (a folder with corpus.jsonl and questions.jsonl); it writes eval-<dataset>.json, .md and .png into the results folder (",
        h("code", {}, "AER_EVAL_RESULTS_DIR"), ", default eval-results/) that this page reads."),
      errors));
    return;
  }
  show(out, errors, answer.reports.map((report) => {
    const body = h("div", { class: "markdown" });
    body.innerHTML = report.html; // rendered by the server from the report's Markdown, raw HTML escaped
    const figure = report.chart ? h("figure", { class: "chart" }, h("figcaption", { class: "muted small" }, "Recall per mode")) : null;
    if (figure) loadChart(report.dataset, figure);
    const when = new Date(report.modifiedAt);
    return h("section", { class: "card eval-card", dataset: { dataset: report.dataset } },
      h("div", { class: "card-head" }, h("h2", {}, report.dataset),
        h("span", { class: "muted small" }, `written ${when.toLocaleString()}`)),
      figure, body,
      h("details", {}, h("summary", {}, "Markdown"), h("pre", { class: "mono small" }, report.markdown)));
  }));
}

async function loadChart(dataset, figure) {
  try {
    const response = await call(`evaluations/${encodeURIComponent(dataset)}/chart`, { raw: true });
    const url = URL.createObjectURL(await response.blob());
    charts.push(url);
    figure.prepend(h("img", { src: url, alt: `Bar chart of recall@2 and recall@5 per mode for ${dataset}` }));
  } catch (err) {
    figure.prepend(h("p", { class: "error-box" }, `chart: ${err.code}: ${err.message}`));
  }
}

// --- run an evaluation from the page ------------------------------------------------------------------------------

const POLL_MS = 1000;
let following = null; // the job id being followed

export function initEvaluationRun() {
  $("#eval-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runEvaluation();
  });
}

function jobBox(kind, ...children) {
  const box = $("#eval-job");
  box.className = `result-box ${kind}`;
  show(box, children);
  box.hidden = false;
}

async function runEvaluation() {
  const file = $("#eval-file").files[0];
  const modes = [...document.querySelectorAll("#eval-form input[name=mode]:checked")].map((el) => el.value);
  if (!file) {
    jobBox("error", "Choose a questions file (.jsonl) first.");
    $("#eval-file").focus();
    return;
  }
  if (!modes.length) {
    jobBox("error", "Choose at least one mode.");
    return;
  }
  const form = new FormData();
  form.append("file", file, file.name);
  form.append("modes", modes.join(","));
  $("#eval-submit").disabled = true;
  try {
    const job = await call("evaluation-jobs", { method: "POST", form });
    following = job.id;
    progress(job);
    follow(job.id);
  } catch (err) {
    jobBox("error", h("strong", {}, `${err.code}: `), err.message);
    $("#eval-submit").disabled = false;
  }
}

function progress(job) {
  const bar = h("progress", { max: String(job.total), value: String(job.done), "aria-label": "Questions asked" });
  jobBox(job.status === "failed" ? "error" : job.status === "done" ? "ok" : "",
    h("strong", {}, `${job.dataset}: ${job.status}`), " ",
    `${job.done} of ${job.total} question runs (${job.questions} question(s) × ${job.modes.join(", ")})`,
    job.status === "done" || job.status === "failed" ? null : bar,
    job.error ? h("p", {}, job.error) : null,
    job.status === "done" ? h("p", { class: "small" }, "The report is the first one below.") : null);
}

async function follow(id) {
  for (;;) {
    if (following !== id) return;
    let job;
    try {
      job = await call(`evaluation-jobs/${encodeURIComponent(id)}`);
    } catch (err) {
      jobBox("error", h("strong", {}, `${err.code}: `), err.message);
      $("#eval-submit").disabled = false;
      return;
    }
    progress(job);
    if (job.status === "done" || job.status === "failed") {
      $("#eval-submit").disabled = false;
      if (job.status === "done") await loadEvaluations();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
