// The workspace picker in the page's header (every tab): the workspaces this key may use, from
// GET api/workspaces; the choice is kept in localStorage and sent as X-Workspace on every call (api.js).
// Changing it reloads the page, so nothing shown from one workspace stays on screen in another. New… creates a
// workspace and switches to it; Delete… deletes the one in use (its name typed to confirm) and opens the first
// listed (the default).

import { $, h, show } from "./dom.js";
import { WORKSPACES, call, workspace } from "./api.js";

export const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const DEFAULT = "default";  // the server's own workspace: it cannot be deleted (409 workspace_protected)
const DELETED = "aer.workspace.deleted";  // sessionStorage: the notice to show once the page has reloaded

function names(answer) {
  const list = Array.isArray(answer) ? answer : (answer && answer.workspaces) || [];
  return list.map((w) => (typeof w === "string" ? { name: w } : w)).filter((w) => w && typeof w.name === "string");
}

function label(w) {
  return typeof w.documents === "number" ? `${w.name} (${w.documents} doc${w.documents === 1 ? "" : "s"})` : w.name;
}

/**
 * The workspace a link to the page names (`/?workspace=sales#documents`, as the API's ?workspace=), taken once:
 * it becomes the choice and leaves the address, so a reload or the picker is not overruled by it.
 */
function linkedWorkspace() {
  const params = new URLSearchParams(location.search);
  const name = (params.get("workspace") || "").trim();
  if (!params.has("workspace")) return "";
  params.delete("workspace");
  const rest = params.toString();
  history.replaceState(null, "", `${location.pathname}${rest ? `?${rest}` : ""}${location.hash}`);
  return name;
}

function choose(name) {
  workspace.set(name);
  location.reload();
}

/**
 * Fill the picker; resolves with {current, unauthorized}: the workspace in use ("" when the server has no
 * workspaces endpoint) and whether listing them needed a key this tab does not have yet (the key dialog is left
 * to the page's first call: try again once it has one). A remembered workspace that is gone (deleted, or not
 * this key's) is forgotten, with a notice.
 */
export async function initWorkspaces({ notice }) {
  const box = $("#workspace-box");
  const picker = $("#workspace-picker");
  let list;
  try {
    list = names(await call("", { base: WORKSPACES, inWorkspace: false, askKey: false }));
  } catch (err) {
    box.hidden = true;
    if (err.status === 401) return { current: workspace.get(), unauthorized: true };
    if (err.status === 404 && err.code !== "workspace_not_found") return { current: "" };  // no workspaces here
    notice(`workspaces: ${err.code}: ${err.message}`);
    return { current: workspace.get() };
  }
  const linked = linkedWorkspace();
  if (linked) workspace.set(linked);
  let current = workspace.get();
  const deleted = sessionStorage.getItem(DELETED);
  if (deleted) {
    sessionStorage.removeItem(DELETED);
    notice(deleted);
  }
  if (current && !list.some((w) => w.name === current)) {
    notice(linked ? `The link names the workspace “${current}”, which is not available here; showing “${
      list.length ? list[0].name : "default"}”.` : `The workspace “${current}” this browser remembered is not available here any more; showing “${
      list.length ? list[0].name : "default"}”.`);
    workspace.set("");
    current = "";
  }
  if (!current && list.length) current = list[0].name;  // the server's default first, or the key's own
  show(picker, list.map((w) => h("option", { value: w.name, selected: w.name === current }, label(w))));
  picker.value = current;
  picker.onchange = () => choose(picker.value);
  box.hidden = false;
  document.title = `${current} · Adaptive Entity RAG`;
  $("#workspace-new").onclick = () => openCreate();
  const remove = $("#workspace-delete");
  remove.disabled = current === DEFAULT;
  remove.title = current === DEFAULT ? "The default workspace cannot be deleted" : `Delete the workspace “${current}”`;
  remove.onclick = () => openDelete(current);
  return { current };
}

/**
 * Bring the picker's document counts up to date without a reload: after an upload job ends, a document is added
 * or deleted (the label said "(0 docs)" after a 9-file upload until the page was reloaded). A failed listing
 * leaves the labels as they were, with a notice in the console.
 */
export async function refreshCounts() {
  const picker = $("#workspace-picker");
  if (!picker || $("#workspace-box").hidden) return;
  let list;
  try {
    list = names(await call("", { base: WORKSPACES, inWorkspace: false, askKey: false }));
  } catch (err) {
    console.warn(`workspace counts not refreshed: ${err.code}: ${err.message}`);
    return;
  }
  for (const option of picker.options) {
    const w = list.find((x) => x.name === option.value);
    if (w) option.textContent = label(w);
  }
}

function openCreate() {
  const dialog = $("#workspace-dialog");
  const input = $("#workspace-name");
  const error = $("#workspace-error");
  input.value = "";
  error.hidden = true;
  $("#workspace-form").onsubmit = async (ev) => {
    const action = ev.submitter && ev.submitter.value;
    if (action !== "create") return;  // cancel closes the dialog
    ev.preventDefault();
    const name = input.value.trim();
    if (!NAME.test(name)) {
      const meant = suggestedName(name);
      show(error, "A name is 1–32 characters: lowercase letters, digits, - and _, starting with a letter or digit."
        + (meant ? ` Did you mean “${meant}”?` : ""));
      error.hidden = false;
      return;
    }
    try {
      await call("", { base: WORKSPACES, method: "POST", json: { name }, inWorkspace: false });
    } catch (err) {
      show(error, h("strong", {}, `${err.code}: `), err.message);
      error.hidden = false;
      return;
    }
    dialog.close("created");
    choose(name);
  };
  dialog.showModal();
  input.focus();
}

/** The name a refused one most likely meant ("Violin Page" -> "violin-page"), as the server suggests it
 * (app.workspaces.suggested_name): lower-cased, each run of other characters one "-", "-"/"_" trimmed at both
 * ends, at most 32; "" when that is no name or no change. */
function suggestedName(name) {
  const guess = name.trim().toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+|[-_]+$/g, "")
    .slice(0, 32).replace(/[-_]+$/, "");
  return guess !== name && NAME.test(guess) ? guess : "";
}

function openDelete(name) {
  const dialog = $("#workspace-delete-dialog");
  const input = $("#workspace-delete-name");
  const confirm = $("#workspace-delete-confirm");
  const error = $("#workspace-delete-error");
  $("#workspace-delete-title").textContent = `Delete workspace “${name}”`;
  // the copy's command with this workspace's name, ready to paste (it read "NAME FILE")
  $("#workspace-delete-export").textContent = `aer workspaces export ${name} ${name}.aerws`;
  $("#workspace-delete-export-api").textContent = `GET /api/workspaces/${name}/export`;
  input.value = "";
  input.placeholder = name;
  confirm.disabled = true;
  error.hidden = true;
  input.oninput = () => { confirm.disabled = input.value.trim() !== name; };
  $("#workspace-delete-form").onsubmit = async (ev) => {
    const action = ev.submitter && ev.submitter.value;
    if (action !== "delete") return;  // cancel closes the dialog
    ev.preventDefault();
    if (input.value.trim() !== name) return;  // Enter in the field before the name is typed out
    let answer;
    confirm.disabled = true;
    try {
      answer = await call(encodeURIComponent(name), { base: WORKSPACES, method: "DELETE", inWorkspace: false });
    } catch (err) {
      show(error, h("strong", {}, `${err.code}: `), err.message);
      error.hidden = false;
      confirm.disabled = false;
      return;
    }
    const gone = answer && answer.deleted;
    const counts = gone && typeof gone.documents === "number"
      ? ` with its ${gone.documents} document(s) and ${gone.chunks} chunk(s)` : "";
    sessionStorage.setItem(DELETED, `Deleted the workspace “${name}”${counts}.`);
    localStorage.removeItem(`aer.conversation.${name}`);  // the Ask tab's conversation kept for it
    dialog.close("deleted");
    choose("");  // the first workspace listed: the server's default (or the key's own)
  };
  dialog.showModal();
  input.focus();
}
