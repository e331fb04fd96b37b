// The Evaluation tab: the latest `aer eval` report of each dataset (its Markdown tables, rendered by the server
// with raw HTML escaped, and its chart).

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
    const when = new Date(report.modifiedAt * 1000);
    return h("section", { class: "card eval-card" },
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
