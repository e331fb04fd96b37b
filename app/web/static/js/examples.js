// The placeholders that show examples (the question, the entity search, the graph's entity) come from the
// workspace's own entities and documents: never another workspace's or the demo's names. The page's HTML holds
// neutral texts; an empty workspace keeps them.

import { $ } from "./dom.js";
import { call } from "./api.js";

const HAN = /[\u3400-\u9fff]/;

/** A question about a name, in the name's language: "Who is X?" for a person ("周建国是什么？" asked what a
 * person is), "What is X?" for another proper name, "What do the documents say about X?" for an entity named by
 * a common noun ("fire extinguisher": "What is fire extinguisher?" read wrong). */
export function questionAbout(name, type = null) {
  const person = type === "PERSON";
  if (HAN.test(name)) return person ? `${name}是谁？` : `${name}是什么？`;
  if (person) return `Who is ${name}?`;
  return /^[A-Z0-9]/.test(name) ? `What is ${name}?` : `What do the documents say about ${name}?`;
}

/** A question about a document's title. */
function questionOnTitle(title) {
  return HAN.test(title) ? `《${title}》讲了什么？` : `What does “${title}” say?`;
}

/** The placeholders' texts for these entities (names, or ``{name, type}``) and document titles (null: keep the
 * neutral one); ``count`` question examples at most. */
export function examples(entities, titles, count = 2) {
  const named = entities.map((e) => (typeof e === "string" ? { name: e, type: null } : e));
  const names = named.map((e) => e.name);
  // two examples at most: the question box shows two lines; two documents of one title (a copy, a new version
  // beside the old) would show the same example twice
  const asked = named.map((e) => questionAbout(e.name, e.type));
  const questions = [...new Set([...asked, ...titles.map(questionOnTitle)])].slice(0, count);
  return {
    "#question": questions.length ? `e.g. ${questions.join("  ·  ")}` : null,
    "#entity-q": names.length ? `e.g. ${names.slice(0, 3).join(", ")}` : null,
    "#kg-entity": names.length ? `e.g. ${names.slice(0, 2).join(", ")}` : null,
  };
}

/** Fill the placeholders from the workspace in use (its first entities and documents); errors leave them. */
export async function applyExamples() {
  const [entities, documents] = await Promise.all([
    call("", { query: { action: "entities", limit: 3 }, askKey: false }).catch(() => null),
    call("", { query: { action: "documents", limit: 3 }, askKey: false }).catch(() => null),
  ]);
  const named = ((entities && entities.entities) || []).filter((e) => e.standardName)
    .map((e) => ({ name: e.standardName, type: e.type }));
  const titles = ((documents && documents.documents) || []).map((d) => d.title || d.id).filter(Boolean);
  // a phone's two lines hold one example: the second was cut mid-word ("· What does “Harrow Vale Clo")
  const count = window.matchMedia("(max-width: 720px)").matches ? 1 : 2;
  for (const [selector, text] of Object.entries(examples(named, titles, count))) {
    const field = $(selector);
    if (field && text) field.placeholder = text;
  }
}
