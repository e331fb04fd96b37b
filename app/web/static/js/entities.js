// The Entities tab: list and search by type, add an entity, an alias or a hierarchy; a 409 alias conflict says
// which entity owns the alias and what to do; remove an alias, delete an entity (asked to confirm), and open an
// entity's neighbourhood in the knowledge graph.

import { $, h, show, table } from "./dom.js";
import { call, post } from "./api.js";

const PAGE = 25;
let offset = 0;
let total = 0;
let showGraph = null; // (name) => open the Knowledge graph tab on this entity

export function initEntities(info, context = {}) {
  showGraph = context.showGraph || null;
  for (const select of [$("#entity-type"), $("#ent-type")]) {
    select.append(...info.entityTypes.map((t) => h("option", { value: t }, t)));
  }
  $("#entity-search").addEventListener("submit", (ev) => {
    ev.preventDefault();
    offset = 0;
    load();
  });
  $("#entity-type").addEventListener("change", () => {
    offset = 0;
    load();
  });
  $("#entity-prev").addEventListener("click", () => {
    offset = Math.max(0, offset - PAGE);
    load();
  });
  $("#entity-next").addEventListener("click", () => {
    offset += PAGE;
    load();
  });
  $("#entity-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    save();
  });
}

/** Load the current page of the list (on first showing the tab, and after every change). */
export async function load() {
  const out = $("#entity-table");
  try {
    const page = await call("", {
      query: { action: "entities", type: $("#entity-type").value, q: $("#entity-q").value.trim(), offset, limit: PAGE },
    });
    total = page.total;
    const rows = page.entities.map((e) => [
      h("b", {}, e.standardName), e.type, aliasChips(e), e.hierarchy.join(" > "), e.relatedEntities.join(", "),
      h("div", { class: "row-actions" },
        h("button", { type: "button", class: "small", "aria-label": `Add an alias to ${e.standardName}`, onclick: () => edit(e) }, "Add alias"),
        showGraph ? h("button", { type: "button", class: "small", "aria-label": `Show ${e.standardName} in the knowledge graph`,
          onclick: () => showGraph(e.standardName) }, "Graph") : null,
        h("button", { type: "button", class: "small danger", "aria-label": `Delete ${e.standardName}`, onclick: () => confirmDelete(e) }, "Delete")),
    ]);
    show(out, rows.length ? table(["Standard name", "Type", "Aliases", "Hierarchy", "Related", ""], rows, { caption: "Entities" })
      : h("p", { class: "muted" }, "No entity matches."));
    $("#entity-page").textContent = total ? `${offset + 1}–${offset + page.entities.length} of ${total}` : "";
    $("#entity-prev").disabled = offset === 0;
    $("#entity-next").disabled = offset + PAGE >= total;
  } catch (err) {
    show(out, h("p", { class: "error-box" }, `${err.code}: ${err.message}`));
  }
}

/** Fill the form with an entity so the user can add an alias (saving merges). */
function edit(entity) {
  $("#ent-name").value = entity.standardName;
  $("#ent-type").value = entity.type;
  $("#ent-aliases").value = "";
  $("#ent-hierarchy").value = "";
  $("#ent-related").value = "";
  $("#entity-form-heading").scrollIntoView({ block: "start" });
  $("#ent-aliases").focus();
}

function list(text, separator) {
  return text.split(separator).map((x) => x.trim()).filter(Boolean);
}

function result(kind, ...children) {
  const box = $("#entity-result");
  box.className = `result-box ${kind}`;
  show(box, children);
  box.hidden = false;
}

async function save() {
  const request = {
    action: "add-entity",
    standardName: $("#ent-name").value.trim(),
    type: $("#ent-type").value,
    aliases: list($("#ent-aliases").value, /[,，、;；]/),
    hierarchy: list($("#ent-hierarchy").value, /[>＞/]/),
    relatedEntities: list($("#ent-related").value, /[,，、;；]/),
  };
  if (!request.standardName) {
    result("error", "An entity needs a standard name.");
    $("#ent-name").focus();
    return;
  }
  try {
    const answer = await post(request);
    const e = answer.entity;
    const warnings = answer.warnings || [];
    result(warnings.length ? "warn" : "ok", h("strong", {}, `Saved ${e.standardName} (${e.type}). `),
      e.aliases.length ? `Aliases: ${e.aliases.join(", ")}. ` : "",
      e.hierarchy.length ? `Hierarchy: ${e.hierarchy.join(" > ")}. ` : "",
      typeof answer.retagged === "number" ? `${answer.retagged} chunk(s) re-tagged. ` : "",
      "The next question uses it.",
      warnings.length ? lookAlikes(warnings) : null);
    $("#ent-aliases").value = "";
    $("#entity-q").value = e.standardName;
    $("#entity-type").value = "";
    offset = 0;
    load();
  } catch (err) {
    if (err.code === "alias_conflict" && err.details) conflict(err, request);
    else result("error", h("strong", {}, `${err.code}: `), err.message,
      Array.isArray(err.details) ? h("ul", {}, err.details.map((d) => h("li", {}, `${(d.loc || []).slice(2).join(".")}: ${d.msg}`))) : null);
  }
}

function conflict(err, request) {
  const { alias, owner } = err.details;
  const showOwner = h("button", { type: "button", class: "small", onclick: () => {
    $("#entity-q").value = owner;
    $("#entity-type").value = "";
    offset = 0;
    load();
    $("#entity-table").scrollIntoView({ block: "nearest" });
  } }, `Show ${owner}`);
  result("error",
    h("strong", {}, `The alias “${alias}” already belongs to “${owner}”. `),
    `An alias names one entity, so “${request.standardName}” was not saved (nothing changed). `,
    `Remove “${alias}” from the aliases to save ${request.standardName} without it; if you meant ${owner}, add the aliases to ${owner} instead. `,
    showOwner);
}

/** The characters of a name that are not in the name it looks like, with their code points (Cyrillic А: U+0410). */
function oddCharacters(value, looksLike) {
  const odd = [...new Set([...value].filter((ch) => !looksLike.includes(ch) && ch.trim()))];
  return odd.map((ch) => `${ch} U+${ch.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}`).join(", ");
}

/** Names accepted with a warning: each looks like another entity's name or alias (a Unicode confusable). */
function lookAlikes(warnings) {
  return h("div", { class: "look-alikes" },
    h("h3", {}, "Check these names: they look like another entity's"),
    h("ul", {}, warnings.map((w) => {
      const odd = oddCharacters(w.value, w.looksLike);
      return h("li", {}, h("b", {}, `“${w.value}”`), ` looks like “${w.looksLike}” of `,
        h("button", { type: "button", class: "linklike", onclick: () => {
          $("#entity-q").value = w.owner;
          $("#entity-type").value = "";
          offset = 0;
          load();
        } }, w.owner),
        ` but is spelled with other characters${odd ? ` (${odd})` : ""}.`);
    })),
    h("p", { class: "small muted" }, "Saved anyway: to the service it is a different name from the one it looks like."));
}

/** The aliases, each with a button that removes it. */
function aliasChips(entity) {
  return h("span", { class: "chips" }, entity.aliases.map((alias) => h("span", { class: "chip alias" }, alias,
    h("button", { type: "button", class: "chip-remove", title: "Remove this alias",
      "aria-label": `Remove alias ${alias} from ${entity.standardName}`, onclick: () => removeAlias(entity, alias) }, "×"))));
}

async function removeAlias(entity, alias) {
  try {
    const answer = await post({ action: "remove-alias", standardName: entity.standardName, aliases: [alias] });
    result("ok", h("strong", {}, `Removed the alias “${alias}” from ${entity.standardName}. `),
      typeof answer.retagged === "number" ? `${answer.retagged} chunk(s) re-tagged. ` : "",
      "Questions that name it by this alias no longer find it.");
    load();
  } catch (err) {
    result("error", h("strong", {}, `${err.code}: `), err.message);
  }
}

/** Ask before deleting: the entity, its aliases and its tags on the indexed chunks go. */
function confirmDelete(entity) {
  const yes = h("button", { type: "button", class: "danger", onclick: () => remove(entity) }, `Delete ${entity.standardName}`);
  const no = h("button", { type: "button", class: "ghost", onclick: () => {
    $("#entity-result").hidden = true;
  } }, "Cancel");
  result("warn", h("strong", {}, `Delete the entity “${entity.standardName}” (${entity.type})? `),
    entity.aliases.length ? `Its aliases (${entity.aliases.join(", ")}) go with it, and ` : "",
    "the indexed chunks lose its tag: questions naming it are no longer filtered by it. The documents stay. ",
    h("div", { class: "dialog-actions" }, yes, no));
  $("#entity-result").scrollIntoView({ block: "nearest" });
  yes.focus();
}

async function remove(entity) {
  try {
    const answer = await post({ action: "delete-entity", standardName: entity.standardName });
    result("ok", h("strong", {}, `Deleted ${answer.entity.standardName}. `), `${answer.untagged} chunk(s) untagged.`);
    if ($("#entity-q").value.trim() === entity.standardName) $("#entity-q").value = "";
    load();
  } catch (err) {
    result("error", h("strong", {}, `${err.code}: `), err.message);
  }
}
