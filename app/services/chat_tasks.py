"""Chat front ends' background tasks, answered without retrieval.

Open WebUI (and front ends built like it) asks the chat model for housekeeping as ordinary user messages: a
conversation title, tags, follow-up suggestions, search queries, an autocompletion, an emoji. Each is one user
message holding the task's instructions and the conversation inlined in a ``<chat_history>`` block
(``USER: ...`` / ``ASSISTANT: ...`` lines), usually asking for a JSON object (``{ "title": "..." }``,
``{ "tags": [...] }``, ``{ "follow_ups": [...] }``, ``{ "queries": [...] }``, ``{ "text": "..." }``).

Run through retrieval, such a message is a 2,000-character "question" (422) or gets "The indexed documents do
not contain..." as the chat's title. So a task is recognized by its shape — instructions that start with
``### Task:`` or name a title/tags/follow-up/query task around a ``<chat_history>`` block, or Open WebUI's emoji
prompt — never by one template's exact wording, and answered here: the title from the first question, tags and
follow-ups from the entities the conversation's questions name, the queries as the last question, an unknown
task's JSON key with an empty value. Whatever the output key, the answer is the JSON object the instructions
show (plain text when they ask for no JSON).
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Literal

from app.services.chat import validated
from graphs.rag.context import RagContext

TaskKind = Literal["title", "tags", "follow_ups", "queries", "autocomplete", "emoji", "other"]

_HISTORY = re.compile(r"<chat_history>(.*?)(?:</chat_history>|\Z)", re.DOTALL | re.IGNORECASE)
_TURN = re.compile(r"^\s*(USER|ASSISTANT|SYSTEM)\s*:\s?", re.MULTILINE | re.IGNORECASE)
_TASK_HEAD = re.compile(r"^\s*#{1,4}\s*task\s*:", re.IGNORECASE)
_TASK_WORDS = re.compile(r"\b(?:title|tags?|follow[- ]?ups?|search quer(?:y|ies)|autocompletion)\b", re.IGNORECASE)
_EMOJI_TASK = re.compile(r"reflect the speaker's likely facial expression through a fitting emoji", re.IGNORECASE)
_JSON_KEY = re.compile(r"\{\s*\\?[\"'](\w+)\\?[\"']\s*:\s*(\[|\"|')?")
_CJK = re.compile(r"[\u3400-\u9fff]")
_TRAILING = re.compile(r"[\s?？!！。.,，;；:：…]+$")
# Only the words that leave a noun phrase ("What is machine learning" -> "Machine learning"); "how many ..." or
# "why does ..." keep their question word, or the title would not read.
_EN_LEAD = re.compile(
    r"^(?:(?:please|pls|hey|hi)\b[\s,]*)?(?:(?:can|could|would) you\s+)?(?:(?:tell|show|give) me\s+(?:about\s+)?)?"
    r"(?:(?:what|who)(?:'s|\s+(?:is|are|was|were))\s+)?(?:(?:the|a|an)\s+)?", re.IGNORECASE)
_ZH_TAIL = re.compile(r"(?:有哪些|是什么|是谁|是哪一年|在哪里|在哪儿|怎么样|如何|为什么|吗|呢|么)$")
TITLE_WORDS = 6
TITLE_CJK_CHARS = 20
MAX_SUGGESTIONS = 4


@dataclass
class ChatTask:
    """A recognized background task: what it asks for and the conversation it is about."""

    kind: TaskKind
    key: str | None = None
    """The JSON output's key (``title``), or None for a plain-text answer."""
    shape: Literal["list", "text"] = "text"
    user_turns: list[str] = field(default_factory=list)


def history_turns(block: str) -> list[tuple[str, str]]:
    """The ``ROLE: text`` turns of an inlined chat history (a turn runs to the next role marker)."""
    marks = list(_TURN.finditer(block))
    return [(m.group(1).lower(), block[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(block)].strip())
            for i, m in enumerate(marks)]


def detect(text: str) -> ChatTask | None:
    """The background task a user message asks for, or None for an ordinary question."""
    history = _HISTORY.search(text)
    instructions = _HISTORY.sub(" ", text)
    if _EMOJI_TASK.search(text):
        return ChatTask(kind="emoji")
    headed = bool(_TASK_HEAD.match(text))
    if not headed and not (history and _TASK_WORDS.search(instructions)):
        return None
    turns = history_turns(history.group(1)) if history else []
    users = [t for role, t in turns if role == "user" and t]
    key_match = _JSON_KEY.search(instructions) if "json" in instructions.lower() else None
    key = key_match.group(1) if key_match else None
    shape: Literal["list", "text"] = "list" if key_match and key_match.group(2) == "[" else "text"
    kind = _kind(key, instructions)
    if kind == "other" and not headed:
        return None
    if key is None and kind in ("tags", "follow_ups", "queries"):
        shape = "list"
    return ChatTask(kind=kind, key=key, shape=shape, user_turns=users)


def _kind(key: str | None, instructions: str) -> TaskKind:
    known: dict[str, TaskKind] = {"title": "title", "tags": "tags", "follow_ups": "follow_ups",
                                  "queries": "queries", "text": "autocomplete"}
    if key in known:
        return known[key]
    words = instructions.lower()
    needles: tuple[tuple[str, TaskKind], ...] = (
        ("follow-up", "follow_ups"), ("follow up", "follow_ups"), ("title", "title"), ("tags", "tags"),
        ("search quer", "queries"), ("autocompletion", "autocomplete"))
    for needle, kind in needles:
        if needle in words:
            return kind
    return "other"


def title_of(question: str) -> str:
    """A short title from a question: its first line, without question words and closing punctuation."""
    line = next((ln.strip() for ln in question.splitlines() if ln.strip()), "")
    line = _TRAILING.sub("", line)
    if _CJK.search(line):
        line = _TRAILING.sub("", _ZH_TAIL.sub("", line)) or line
        return line if len(line) <= TITLE_CJK_CHARS else line[:TITLE_CJK_CHARS] + "…"
    words = (_EN_LEAD.sub("", line, count=1) or line).split()
    title = " ".join(words[:TITLE_WORDS]) + ("…" if len(words) > TITLE_WORDS else "")
    return title[:1].upper() + title[1:]


def follow_up_questions(entities: list[tuple[str, list[str]]], chinese: bool) -> list[str]:
    """Suggestions from the conversation's entities and what the entity store relates them to."""
    out: list[str] = []
    for name, related in entities:
        for other in related:
            out.append(f"{other}和{name}有什么关系？" if chinese else f"How is {other} related to {name}?")
        out.append(f"关于{name}还有哪些信息？" if chinese else f"What else do the documents say about {name}?")
    return list(dict.fromkeys(out))[:MAX_SUGGESTIONS]


def render(task: ChatTask, value: str | list[str]) -> str:
    """The reply: the JSON object the task asks for, or the plain value."""
    if task.key is None:
        return ", ".join(value) if isinstance(value, list) else value
    if task.shape == "list" and isinstance(value, str):
        value = [value] if value else []
    return json.dumps({task.key: value}, ensure_ascii=False)


def is_chinese(texts: list[str]) -> bool:
    """Whether the conversation is in Chinese (its questions have CJK characters)."""
    return any(_CJK.search(t) for t in texts)


async def answer(ctx: RagContext, task: ChatTask) -> str:
    """The task's reply, from the conversation alone (the entity store is read; nothing is retrieved)."""
    users = task.user_turns
    if task.kind == "title":
        return render(task, title_of(users[0]) if users else "")
    if task.kind == "queries":
        return render(task, [users[-1]] if users else [])
    if task.kind == "emoji":
        return "💬"
    if task.kind in ("tags", "follow_ups"):
        names: list[str] = []
        for turn in users:
            names += [e.standard_name for e in await validated(ctx, turn) if e.standard_name]
        names = list(dict.fromkeys(names))
        if task.kind == "tags":
            return render(task, names[:3] or ["General"])
        entities = await asyncio.to_thread(
            lambda: [(n, (found.related_entities if (found := ctx.entities.get(n)) else [])) for n in names])
        return render(task, follow_up_questions(entities, is_chinese(users)))
    return render(task, [] if task.shape == "list" else "")
