// The page: tabs, the API key (asked for when the server needs one, kept in this tab's sessionStorage), and
// the start of each tab from the server's info.

import { $, h, show } from "./dom.js";
import { apiKey, call, onUnauthorized } from "./api.js";
import { applyInfo, initAsk } from "./ask.js";
import { initDocuments, loadInventory, openDocument } from "./documents.js";
import { initEntities, load as loadEntities } from "./entities.js";
import { initEvaluationRun, loadEvaluations } from "./evaluation.js";
import { applyExamples } from "./examples.js";
import { initKg, showEntity } from "./kg.js";
import { initWorkspaces } from "./workspaces.js";

const TABS = ["ask", "documents", "entities", "kg", "evaluation"];
let info = null;
let entitiesLoaded = false;
let documentsLoaded = false;
let keyPrompt = null; // the open key dialog's promise, shared by every request waiting on it
let graphStructure = null;

/** The graph's nodes and edges (fetched once; fetched again after a failure). */
function graph() {
  if (!graphStructure) {
    graphStructure = call("graph");
    graphStructure.catch(() => {
      graphStructure = null;
    });
  }
  return graphStructure;
}

// --- the API key -------------------------------------------------------------------------------------------

function updateKeyButton() {
  const button = $("#key-button");
  const hasKey = Boolean(apiKey.get());
  button.hidden = !hasKey && !(info && info.auth.apiKeys);
  button.textContent = hasKey ? "API key ✓" : "API key";
  button.setAttribute("aria-label", hasKey ? "API key set for this tab: change or forget it" : "Enter an API key");
}

/** Ask for a key; resolves true when one was entered. Requests that got a 401 wait on the same dialog. */
function askForKey(reason) {
  if (keyPrompt) return keyPrompt;
  const dialog = $("#key-dialog");
  show($("#key-reason"), reason ? [h("strong", {}, "This server needs an API key."), h("br"),
    h("span", { class: "muted small" }, `Server: ${reason}`)] : "Enter the API key to use from this tab.");
  $("#api-key").value = apiKey.get();
  $("#key-forget").hidden = !apiKey.get();
  keyPrompt = new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      keyPrompt = null;
      if (dialog.returnValue === "save") apiKey.set($("#api-key").value.trim());
      else if (dialog.returnValue === "forget") apiKey.set("");
      $("#api-key").value = "";
      updateKeyButton();
      resolve(dialog.returnValue === "save" && Boolean(apiKey.get()));
    }, { once: true });
  });
  dialog.returnValue = "";
  dialog.showModal();
  $("#api-key").focus();
  return keyPrompt;
}

// --- tabs ----------------------------------------------------------------------------------------------------

function selectTab(name, focus = false) {
  if (!TABS.includes(name)) name = "ask";
  for (const tab of TABS) {
    const button = $(`#tab-${tab}`);
    const selected = tab === name;
    button.setAttribute("aria-selected", String(selected));
    button.tabIndex = selected ? 0 : -1;
    $(`#panel-${tab}`).hidden = !selected;
    if (selected && focus) button.focus();
  }
  if (location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
  if (!info) return;
  if (name === "entities" && !entitiesLoaded) {
    entitiesLoaded = true;
    loadEntities();
  }
  if (name === "documents" && !documentsLoaded) {
    documentsLoaded = true;
    loadInventory();
  }
  if (name === "evaluation") loadEvaluations();
}

function initTabs() {
  for (const tab of TABS) {
    const button = $(`#tab-${tab}`);
    button.addEventListener("click", () => selectTab(tab));
    button.addEventListener("keydown", (ev) => {
      const i = TABS.indexOf(tab);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[ev.key];
      if (next === undefined) return;
      ev.preventDefault();
      selectTab(TABS[(next + TABS.length) % TABS.length], true);
    });
  }
  window.addEventListener("hashchange", () => selectTab(location.hash.slice(1)));
}

// --- start ---------------------------------------------------------------------------------------------------

function banner(...children) {
  const box = $("#banner");
  show(box, children);
  box.hidden = children.length === 0;
}

let workspaceNotice = null;

async function start() {
  // the workspace first: every later call carries it (a remembered one that is gone is forgotten here)
  const notice = (text) => { workspaceNotice = text; };
  const workspaces = await initWorkspaces({ notice });
  try {
    info = await call("info");
    if (workspaces.unauthorized) await initWorkspaces({ notice });  // the key asked for by info is set now
  } catch (err) {
    const retry = h("button", { type: "button", class: "small", onclick: () => start() }, "Try again");
    banner(h("strong", {}, `${err.code}: `), err.message, " ", retry);
    updateKeyButton();
    return;
  }
  banner(...(workspaceNotice ? [workspaceNotice] : []));
  applyInfo(info);
  initDocuments();
  initEntities(info, { showGraph });
  updateKeyButton();
  if (info.auth.apiKeys && !info.auth.readsNeedKey && !apiKey.get()) {
    banner("This server has API keys: asking is open, adding or deleting needs a key (you will be asked for it).");
  }
  selectTab(location.hash.slice(1));
  graph();
  applyExamples();
}

/** The Knowledge graph tab on an entity. */
function showGraph(name) {
  selectTab("kg");
  showEntity(name);
}

function main() {
  onUnauthorized(askForKey);
  initTabs();
  initKg({ openDocument });
  initEvaluationRun();
  $("#key-button").addEventListener("click", () => askForKey(""));
  initAsk({ graph, openDocument });
  selectTab(location.hash.slice(1));
  start();
}

main();
