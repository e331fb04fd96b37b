"""plan_query: the planner. Turn the question into a DAG of sub-questions, each with a retrieval strategy:
with an LLM, its plan (checked: size, ids, dependencies, no cycle); without one, or when the LLM's plan is
unusable, the rule-based decomposer (comparison, temporal and bridge patterns)."""

from __future__ import annotations

import logging

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from graphs.domain import QueryPlan, Strategy, SubQuestion
from graphs.llm import LLM_ERRORS, structured_call
from graphs.rag.context import RagContext
from graphs.rag.planning import check_plan, decompose, single_plan
from graphs.rag.question import validated_mentions
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.text.question_shapes import mentions

log = logging.getLogger(__name__)


class PlannedStep(BaseModel):
    id: str = Field(description="q1, q2, ...")
    question: str = Field(description="The sub-question, short and self-contained.")
    strategy: Strategy = Field(description="How to retrieve it.")
    depends_on: list[str] = Field(default_factory=list, description="Ids of sub-questions whose answers it needs.")


class PlanDraft(BaseModel):
    """The LLM's plan."""

    sub_questions: list[PlannedStep] = Field(description="The sub-questions in a sensible order.")
    reason: str = Field(description="One sentence: why this split.")


RULE_PATTERNS = ("compound", "comparison", "temporal")
"""Planned by the rules even with an LLM: one step per part of a message that asks several things (each part
then gets its own answer decision), one step per compared entity, anchored to its document (on HotpotQA's
comparison questions the small local LLM's plans retrieved worse), or one date-ordered step."""


def rule_plan(state: RagState, has_kg: bool) -> QueryPlan:
    """The rule-based plan, or a one-step plan when no pattern applies."""
    plan = decompose(state["question"], state["parsed"], validated_mentions(state), has_kg)
    return plan or single_plan(state["question"], has_kg, "no comparison, temporal or bridge pattern: one step")


def anchor(question: str, names: list[str]) -> str | None:
    """The one entity of the question that a sub-question names (its own document then ranks first)."""
    found = [m.text for m in mentions(question, names)]
    return found[0] if len(found) == 1 else None


def from_draft(draft: PlanDraft, has_kg: bool, names: list[str] | None = None) -> QueryPlan:
    """The LLM's draft as a plan (graph steps become hybrid where there is no knowledge graph); a step that
    names one of the question's entities is anchored to it."""
    steps = [SubQuestion(id=s.id.strip(), question=s.question.strip(),
                         strategy="hybrid" if s.strategy == "graph" and not has_kg else s.strategy,
                         depends_on=[d.strip() for d in s.depends_on], entity=anchor(s.question, names or []))
             for s in draft.sub_questions]
    return QueryPlan(sub_questions=steps, pattern="llm", planner="llm", reason=draft.reason)


SPEC = NodeSpec(purpose="plan sub-questions, each with a retrieval strategy", uses_llm=True, record="plan")


async def plan_query(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Record the plan."""
    ctx = runtime.context
    has_kg = ctx.kg is not None
    known = decompose(state["question"], state["parsed"], validated_mentions(state), has_kg)
    if ctx.llm is None or (known is not None and known.pattern in RULE_PATTERNS):
        # the patterns the rules know exactly are planned by them, with or without an LLM
        return {"plan": known or rule_plan(state, has_kg)}
    parsed = state["parsed"]
    messages = [
        SystemMessage(ctx.prompts.render("plan_query.system", max_steps=ctx.limits.max_sub_questions)),
        HumanMessage(ctx.prompts.render(
            "plan_query.user", question=state["question"], intent=parsed.intent, complexity=parsed.complexity,
            entities=", ".join(f"{e.text} ({e.type})" for e in parsed.entities) or "(none)")),
    ]
    try:
        draft = await structured_call(ctx.llm, PlanDraft, messages, ctx.limits.llm_timeout_s)
    except LLM_ERRORS as exc:
        log.warning("plan_query: LLM failed (%s); rule-based plan", type(exc).__name__)
        return {"plan": rule_plan(state, has_kg), "degraded": ["plan_query"], "llm_calls": 1}
    plan = from_draft(draft, has_kg, [e.text for e in parsed.entities if e.type != "DATE"])
    if problem := check_plan(plan, ctx.limits.max_sub_questions):
        fallback = rule_plan(state, has_kg)
        why = f"the LLM's plan was unusable ({problem}); {fallback.reason}"
        return {"plan": fallback.model_copy(update={"reason": why}), "degraded": ["plan_query"], "llm_calls": 1}
    return {"plan": plan, "llm_calls": 1}


def summarize(update: RagUpdate) -> str:
    """Describe the plan."""
    p: QueryPlan = update["plan"]
    steps = "; ".join(f"{s.id} [{s.strategy}{' after ' + ','.join(s.depends_on) if s.depends_on else ''}] {s.question}"
                      for s in p.sub_questions)
    return f"{p.pattern} plan ({p.planner}): {steps}"

