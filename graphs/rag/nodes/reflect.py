"""reflect: what to do about each failed plan step (an error, a timeout, an empty result) — retry it once
after a transient failure, switch its strategy, replan that part (keeping every step that succeeded), or
abort it with a clear reason after ``max_attempts``. When every step failed because a store is down, the
run ends with that error (HTTP 503), never with a silent empty answer."""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from graphs.domain import QueryPlan, Reflection, StepOutcome, Strategy, SubQuestion
from graphs.rag.context import RagContext
from graphs.rag.planning import latest_outcomes, next_strategy, replace_steps
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.stores.base import StoreUnavailable

_STORE_ERRORS = ("StoreUnavailable", "EmbedderUnavailable")


def simpler(question: str) -> str:
    """The replanned form of a failed sub-question: its content words only (no question frame)."""
    words = re.sub(r"\b(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|did|does|do|the|a|an|of|"
                   r"in|on|for|to|and|or)\b|[?？,，。.!！]|是什么|是谁|哪些|哪个|什么|谁|吗|呢", " ", question,
                   flags=re.IGNORECASE)
    return " ".join(words.split()) or question


def reflect_on(sub: SubQuestion, last: StepOutcome, tried: list[Strategy], max_attempts: int,
               has_kg: bool, turn: int) -> tuple[Reflection, SubQuestion]:
    """The reflection on one failed step and the step as it will run next (or aborted)."""
    failure = f"{last.status}" + (f": {last.error}" if last.error else "")

    def act(action: str, reason: str, **change: object) -> tuple[Reflection, SubQuestion]:
        status = "aborted" if action == "abort" else "pending"
        step = sub.model_copy(update={"status": status, **change})
        return (Reflection(sub_question=sub.id, failure=failure, action=action, reason=reason,  # type: ignore[arg-type]
                           attempt=sub.attempts, turn=turn, new_strategy=change.get("strategy")), step)  # type: ignore[arg-type]

    if sub.attempts >= max_attempts:
        return act("abort", f"{sub.attempts} attempt(s) failed (at most {max_attempts}): answer without {sub.id}")
    if last.status in ("error", "timeout") and sub.attempts == 1:
        return act("retry", f"a transient {last.status} may not recur: run {sub.id} again as it was")
    alt = next_strategy([*tried, sub.strategy], has_kg)
    if alt is not None:
        return act("switch_strategy", f"{sub.strategy} search gave {last.status}: try {alt} search", strategy=alt)
    return act("replan", "every strategy failed on this wording: search its content words only",
               question=simpler(sub.question), strategy="hybrid")


SPEC = NodeSpec(purpose="decide what to do about each failed plan step", record="reflections")


async def reflect(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Reflect on every failed step; keep the steps that succeeded."""
    ctx = runtime.context
    plan: QueryPlan = state["plan"]
    outcomes = state.get("outcomes", [])
    latest = latest_outcomes(outcomes)
    reflections: list[Reflection] = []
    changed: list[SubQuestion] = []
    for sub in plan.sub_questions:
        if sub.status != "failed" or sub.id not in latest:
            continue
        tried = [o.strategy for o in outcomes if o.sub_question == sub.id]
        r, step = reflect_on(sub, latest[sub.id], tried, ctx.limits.max_attempts, ctx.kg is not None,
                             state.get("turn", 0))
        reflections.append(r)
        changed.append(step)
    plan = replace_steps(plan, changed)
    if all(s.status == "aborted" for s in plan.sub_questions):
        errors = [o.error or "" for o in outcomes if o.status == "error"]
        if errors and all(e.startswith(_STORE_ERRORS) for e in errors):
            raise StoreUnavailable("plan steps", f"every step failed: {errors[-1]}")
    return {"reflections": reflections, "plan": plan}


def summarize(update: RagUpdate) -> str:
    """Describe the reflections."""
    return "; ".join(f"{r.sub_question}: {r.action} — {r.reason}" for r in update["reflections"]) or "nothing failed"
