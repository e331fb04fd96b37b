"""parse_query: entities, intent, complexity and keywords of the question."""

from __future__ import annotations

import asyncio
import logging

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from graphs.domain import Complexity, EntityType, Intent, LogicalRelation, ParsedQuery, QueryEntity
from graphs.llm import LLM_ERRORS, structured_call
from graphs.rag.context import RagContext
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.text.query_analysis import COMPLEX_FROM, SIMPLE_BELOW, analyze_query

log = logging.getLogger(__name__)


class ExtractedEntity(BaseModel):
    text: str = Field(description="The entity exactly as written in the question.")
    type: EntityType = Field(description="The entity's type.")


class QueryExtraction(BaseModel):
    """The LLM's analysis of a question."""

    entities: list[ExtractedEntity] = Field(description="Named things the question is about.")
    negated: list[str] = Field(default_factory=list, description="Entities the question excludes.")
    intent: Intent = Field(description="What kind of answer the question asks for.")
    complexity: Complexity = Field(description="How many retrieval steps the question needs.")
    keywords: list[str] = Field(description="Content words to search for.")
    confidence: float = Field(ge=0.0, le=1.0, description="Confidence in this analysis.")


_COMPLEXITY_ORDER: list[Complexity] = ["simple", "moderate", "complex"]
_COMPLEXITY_FLOOR: dict[Complexity, float] = {"simple": 0.0, "moderate": SIMPLE_BELOW, "complex": COMPLEX_FROM}


def merge_extraction(rules: ParsedQuery, llm: QueryExtraction) -> ParsedQuery:
    """Combine the LLM's analysis with the rule path's exact finds (dictionary hits and date ranges)."""
    question = rules.original_query
    entities: list[QueryEntity] = [e for e in rules.entities if e.source in ("gazetteer", "pinyin", "date_rule")]
    seen = {e.text.casefold() for e in entities}
    for e in llm.entities:
        # Dates come from the date rules (which resolve 去年 to a range); an entity not in the question is invented.
        if e.type == "DATE" or e.text.casefold() in seen or e.text not in question:
            continue
        entities.append(QueryEntity(text=e.text, type=e.type, source="llm", confidence=llm.confidence))
        seen.add(e.text.casefold())
    relations = [r for r in rules.logical_relations if r.operator != "NOT"]
    negated = [n for n in llm.negated if n.casefold() in seen]
    if negated:
        relations.append(LogicalRelation(operator="NOT", entities=negated))
    else:
        relations += [r for r in rules.logical_relations if r.operator == "NOT"]
    complexity = max(rules.complexity, llm.complexity, key=_COMPLEXITY_ORDER.index)
    # the score follows the label when the LLM raised it (to the floor of that label)
    score = max(rules.complexity_score, _COMPLEXITY_FLOOR[complexity])
    return ParsedQuery(
        original_query=question,
        entities=entities,
        logical_relations=relations,
        intent=llm.intent,
        # the higher of the two: the rules see structural cues (bridges, comparisons) a small model misses
        complexity=complexity,
        complexity_score=score,
        complexity_features={**rules.complexity_features, "llm_complexity": float(_COMPLEXITY_ORDER.index(llm.complexity))},
        confidence=llm.confidence,
        keywords=list(dict.fromkeys([*llm.keywords, *rules.keywords])),
        parser="llm",
    )


def _messages(ctx: RagContext, question: str, rules: ParsedQuery) -> list[SystemMessage | HumanMessage]:
    known = ", ".join(f"{e.text} ({e.type})" for e in rules.entities if e.source in ("gazetteer", "pinyin")) or "none"
    return [
        SystemMessage(ctx.prompts.render("parse_query.system")),
        HumanMessage(
            ctx.prompts.render("parse_query.user", today=ctx.today().isoformat(), known=known, question=question)
        ),
    ]


SPEC = NodeSpec(purpose="analyse the question: intent, complexity, entities", uses_llm=True)


async def parse_query(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Analyse the question: by the LLM when one is configured, else by rules."""
    ctx = runtime.context
    question = state["question"]
    if ctx.query_vectors is not None:  # the search's question vector is embedded while the question is analysed
        ctx.query_vectors.prefetch(ctx.embedder, question)
    # The gazetteer reads the entity store and jieba loads its dictionary on first use: off the event loop.
    rules = await asyncio.to_thread(lambda: analyze_query(question, ctx.gazetteer(), ctx.today()))
    if ctx.llm is None:
        return {"parsed": rules}
    try:
        extraction = await structured_call(
            ctx.llm, QueryExtraction, list(_messages(ctx, question, rules)), ctx.limits.llm_timeout_s
        )
    except LLM_ERRORS as exc:
        log.warning("parse_query: LLM failed (%s); using the rule parser", type(exc).__name__)
        return {"parsed": rules, "degraded": ["parse_query"], "llm_calls": 1}
    return {"parsed": merge_extraction(rules, extraction), "llm_calls": 1}


def summarize(update: RagUpdate) -> str:
    """Describe what the parser found."""
    p: ParsedQuery = update["parsed"]
    ents = ", ".join(f"{e.text}/{e.type}" for e in p.entities) or "no entities"
    via = p.parser + (" (LLM failed)" if update.get("degraded") else "")
    return f"{p.intent}, {p.complexity}; {ents}; via {via}"
