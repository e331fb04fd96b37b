// The API client of the page: JSON calls and the query's server-sent events, with the tab's API key and the
// chosen workspace (X-Workspace on every call: the actions, uploads, job polls, the streamed query).

export const API = "api/adaptive-entity-rag";
export const WORKSPACES = "api/workspaces";
const KEY_STORAGE = "aer.apiKey";
const WORKSPACE_STORAGE = "aer.workspace";

/** The API key, kept only in this tab's sessionStorage (gone when the tab closes). */
export const apiKey = {
  get() {
    return sessionStorage.getItem(KEY_STORAGE) || "";
  },
  set(value) {
    if (value) sessionStorage.setItem(KEY_STORAGE, value);
    else sessionStorage.removeItem(KEY_STORAGE);
  },
};

/** An error answer of the API: {success: false, error: {code, message, details}}, or a network failure. */
export class ApiError extends Error {
  constructor(status, code, message, details = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The workspace the page works in, remembered in this browser (localStorage); "" leaves it to the server. */
export const workspace = {
  get() {
    return localStorage.getItem(WORKSPACE_STORAGE) || "";
  },
  set(value) {
    if (value) localStorage.setItem(WORKSPACE_STORAGE, value);
    else localStorage.removeItem(WORKSPACE_STORAGE);
  },
};

// Set by the page: asks for a key after a 401 and resolves true when one was given (false: cancelled).
let askForKey = async () => false;
export function onUnauthorized(handler) {
  askForKey = handler;
}

function headers(extra = {}, inWorkspace = true) {
  const out = { ...extra };
  const key = apiKey.get();
  if (key) out["X-API-Key"] = key;
  const chosen = workspace.get();
  if (inWorkspace && chosen) out["X-Workspace"] = chosen;
  return out;
}

async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // not JSON: a proxy's page, an empty body
  }
  const error = body && body.error;
  if (error && error.code) return new ApiError(response.status, error.code, error.message || error.code, error.details);
  return new ApiError(response.status, `http_${response.status}`, `${response.status} ${response.statusText}`);
}

async function send(url, init) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, "network_error", `the server could not be reached (${err.message})`);
  }
}

/**
 * One request; retried once with a key after a 401 when the user gives one.
 * options: {method, json, form (FormData), query (object), signal, raw (return the Response),
 *           base (the path's root, API by default), inWorkspace (false: no X-Workspace, e.g. to list them),
 *           askKey (false: a 401 is thrown, the key dialog is not opened)}
 */
export async function call(path, { method = "GET", json, form, query, signal, raw = false, base = API,
  inWorkspace = true, askKey = true } = {}) {
  let url = path === "" ? base : `${base}/${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") params.set(k, v);
    url += `?${params}`;
  }
  for (let attempt = 0; ; attempt++) {
    const init = { method, signal, headers: headers(json ? { "Content-Type": "application/json" } : {}, inWorkspace) };
    if (json) init.body = JSON.stringify(json);
    if (form) init.body = form;
    const response = await send(url, init);
    if (response.ok) return raw ? response : response.json();
    const error = await errorOf(response);
    if (response.status === 401 && askKey && attempt < 2 && (await askForKey(error.message))) continue;
    throw error;
  }
}

/** POST an action. */
export function post(json, options = {}) {
  return call("", { ...options, method: "POST", json });
}

/** Parse a text/event-stream body into {event, data} objects as they arrive. */
export async function* readEvents(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value || new Uint8Array(), { stream: !done });
    buffer = buffer.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue; // a comment: the server's keep-alive ping
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length) yield { event, data: JSON.parse(data.join("\n")) };
    }
    if (done) return;
  }
}

/** Ask a question with "stream": true; yields the step, token, result and error events. */
export async function* streamQuery(request, signal) {
  const response = await call("", {
    method: "POST", json: { ...request, stream: true }, signal, raw: true,
  });
  yield* readEvents(response.body);
}
