"""A chat turned into the one question the graph answers.

The last user message is the question. When earlier user turns exist it may be a follow-up ("它是哪一年成立的？"
after a question about 腾讯): with an LLM, the LLM condenses the conversation into a standalone question
(``prompts/condense_question.*``); without one — or when the LLM fails, which is then listed as degraded —
the entities validated in the earlier questions are carried into it, each type the new question does not name
itself, so the graph filters on them as if the user had written them. Dates are not carried: a follow-up about
"that company" is rarely about the same day.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from langchain_core.messages import HumanMessage, SystemMessage

from app.schemas import MAX_QUESTION_CHARS
from app.schemas.chat import CarriedEntity, ChatMessage
from graphs.domain import ValidatedEntity
from graphs.llm import LLM_ERRORS, text_call
from graphs.rag.context import RagContext
from graphs.rag.question import validate_one
from graphs.text.query_analysis import analyze_query

log = logging.getLogger(__name__)
HISTORY_TURNS = 6  # the conversation the LLM reads: the last six turns before the question
TURN_CHARS = 600  # each cut to this many characters
_FENCE = re.compile(r"<\s*/?\s*conversation\s*>", re.IGNORECASE)
CONDENSE_ERRORS: tuple[type[BaseException], ...] = (*LLM_ERRORS, ValueError)  # ValueError: no usable question
_LABEL = re.compile(r"^\s*(?:standalone question|question|问题|独立问题)\s*[:：]\s*", re.IGNORECASE)


@dataclass
class Resolution:
    """The question to answer and how it was formed."""

    question: str
    original: str
    mode: str = "standalone"  # standalone | condensed | entities
    carried: list[CarriedEntity] = field(default_factory=list)
    llm_calls: int = 0
    degraded: list[str] = field(default_factory=list)


@dataclass
class CarriedState:
    """A turn as resolved so far: its question (with what was carried) and every entity it stands for."""

    question: str
    entities: list[ValidatedEntity]


def user_turns(messages: Sequence[ChatMessage]) -> list[str]:
    """The text of each user message that has any, in order."""
    return [t for t in (m.text().strip() for m in messages if m.role == "user") if t]


async def validated(ctx: RagContext, question: str) -> list[ValidatedEntity]:
    """The question's entities as the rule parser finds them, validated in the entity store (valid ones only)."""
    parsed = analyze_query(question, ctx.gazetteer(), ctx.today())
    matches = await asyncio.to_thread(
        lambda: [None if e.type == "DATE" else ctx.entities.lookup(e.text) for e in parsed.entities])
    entities = [validate_one(e, m, False) for e, m in zip(parsed.entities, matches, strict=True)]
    return [e for e in entities if e.valid and e.standard_name]


def with_entities(question: str, carried: Sequence[CarriedEntity]) -> str:
    """The question with the carried entities' names in front, as the user might have written them."""
    return " ".join([*(c.text for c in carried), question]) if carried else question


async def carry_entities(ctx: RagContext, turns: Sequence[str]) -> Resolution:
    """Walk the user turns, carrying each earlier question's validated entities into the next (a chain of
    follow-ups keeps the subject of the first); the last turn's resolution."""
    current = CarriedState(question=turns[0], entities=await validated(ctx, turns[0]))
    carried: list[CarriedEntity] = []
    for turn in turns[1:]:
        own = await validated(ctx, turn)
        own_types = {e.type for e in own}
        carried = [CarriedEntity(text=e.text, standard_name=e.standard_name or e.text, type=e.type)
                   for e in current.entities if e.type != "DATE" and e.type not in own_types]
        carried = list({c.standard_name: c for c in carried}.values())
        current = CarriedState(question=with_entities(turn, carried),
                               entities=own + [e for e in current.entities
                                               if e.type != "DATE" and e.type not in own_types])
    question = current.question
    if len(question) > MAX_QUESTION_CHARS or not carried:  # nothing to carry (or no room for it): as written
        return Resolution(question=turns[-1], original=turns[-1])
    return Resolution(question=question, original=turns[-1], mode="entities", carried=carried)


def history_text(messages: Sequence[ChatMessage]) -> str:
    """The turns before the question, as the condensing prompt shows them (fence tags removed)."""
    turns = [m for m in messages[:-1] if m.role in ("user", "assistant") and m.text().strip()][-HISTORY_TURNS:]
    return "\n".join(f"{m.role}: {_FENCE.sub(' ', m.text().strip())[:TURN_CHARS]}" for m in turns)


def clean_condensed(text: str) -> str:
    """The LLM's standalone question: its first line, without a label or quotes; empty if unusable."""
    line = next((ln for ln in text.strip().splitlines() if ln.strip()), "")
    line = _LABEL.sub("", line).strip().strip("\"'“”「」").strip()
    return line if len(line) <= MAX_QUESTION_CHARS else ""


async def condense(ctx: RagContext, messages: Sequence[ChatMessage], question: str) -> str:
    """Ask the LLM for the standalone question (raises an ``LLM_ERRORS`` error, or ValueError when unusable)."""
    assert ctx.llm is not None
    prompt = [
        SystemMessage(ctx.prompts.render("condense_question.system")),
        HumanMessage(ctx.prompts.render("condense_question.user", history=history_text(messages),
                                        question=_FENCE.sub(" ", question))),
    ]
    condensed = clean_condensed(await text_call(ctx.llm, prompt, ctx.limits.llm_timeout_s))
    if not condensed:
        raise ValueError("the LLM returned no usable question")
    return condensed


async def resolve(ctx: RagContext, messages: Sequence[ChatMessage]) -> Resolution:
    """The question to answer for a chat: the last user message, made standalone when it follows others."""
    turns = user_turns(messages)
    question = turns[-1]
    if len(turns) == 1:
        return Resolution(question=question, original=question)
    if ctx.llm is None:
        return await carry_entities(ctx, turns)
    try:
        condensed = await condense(ctx, messages, question)
    except CONDENSE_ERRORS as exc:
        log.warning("condense_question: LLM failed (%s); carrying the earlier questions' entities",
                    type(exc).__name__)
        fallback = await carry_entities(ctx, turns)
        fallback.llm_calls, fallback.degraded = 1, ["condense_question"]
        return fallback
    return Resolution(question=condensed, original=question, mode="condensed", llm_calls=1)
