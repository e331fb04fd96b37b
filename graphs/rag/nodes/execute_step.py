"""execute_step: the executor of one plan step. The sub-question (with its parents' findings) runs through
the one-path team (the compiled step graph) with the step's strategy as its search mode, under a time limit;
errors, timeouts and empty results are recorded as the step's outcome for the monitor and the reflection."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
import time
from typing import Any, Literal

from langgraph.runtime import Runtime

from graphs.domain import PartAnswer, StepOutcome, SubQuestion
from graphs.embeddings import EmbedderUnavailable
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.one_path import step_workflow
from graphs.rag.planning import by_date, named_first
from graphs.rag.registry import NodeSpec
from graphs.rag.state import OnePathInput, RagUpdate, StepInput
from graphs.rag.teams import configured
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)

FINDING_CHARS = 300
_LEADS = ("From the retrieved passages: ", "根据检索到的资料：")


def step_question(sub: SubQuestion, parents: dict[str, str]) -> str:
    """The sub-question with what its parents found (a dependent step searches with their answers)."""
    found = [parents[d] for d in sub.depends_on if parents.get(d)]
    return " ".join([sub.question, *found])


def finding(answer: str) -> str:
    """The step's short answer for its dependents: the answer without the extractive lead and citations."""
    for lead in _LEADS:
        answer = answer.removeprefix(lead)
    return " ".join(re.sub(r"\[\d{1,3}\]", " ", answer).split())[:FINDING_CHARS]


def sub_run_input(state: StepInput, sub: SubQuestion, question: str, limits: RagLimits) -> OnePathInput:
    """The one-path run of a step: its strategy as the search mode (temporal = hybrid, then date order),
    under the executor's budgets from now."""
    run = OnePathInput(question=question, search_mode="hybrid" if sub.strategy == "temporal" else sub.strategy,
                       team_config=configured("executor_inclusive", "a plan step: one adaptive retrieval path",
                                              limits),
                       started_at=time.time())
    if "top_k" in state:
        run["top_k"] = state["top_k"]
    if "fusion" in state:
        run["fusion"] = state["fusion"]
    return run


def answered(out: dict[str, Any]) -> PartAnswer | None:
    """The step run's own answer decision and answer (None when the run wrote none)."""
    if "answer" not in out:
        return None
    return PartAnswer(status=out.get("status", "answered"), answer=out["answer"], answer_span=out.get("answer_span"),
                      answerability=out.get("answerability"), citations=out.get("citations", []))


SPEC = NodeSpec(purpose="answer one plan step's sub-question through the one-path team", record="outcomes")


async def execute_step(state: StepInput, runtime: Runtime[RagContext]) -> RagUpdate:
    """Run one sub-question and record its outcome."""
    ctx = runtime.context
    sub, turn = state["sub_question"], state.get("turn", 1)
    question = step_question(sub, state.get("parents", {}))
    if sub.strategy == "graph" and ctx.kg is None:
        sub = sub.model_copy(update={"strategy": "hybrid"})
    started = time.perf_counter()

    def outcome(status: Literal["ok", "empty", "error", "timeout"], **found: Any) -> StepOutcome:
        return StepOutcome(sub_question=sub.id, question=question, strategy=sub.strategy, attempt=sub.attempts + 1,
                           turn=turn, status=status, duration_ms=round((time.perf_counter() - started) * 1000, 3),
                           **found)

    # a step retrieves with the rule-based parser and an extractive finding; the LLM plans, judges and writes
    step_ctx = dataclasses.replace(ctx, llm=None, llm_name=None)
    try:
        out = await asyncio.wait_for(step_workflow.ainvoke(sub_run_input(state, sub, question, ctx.limits),
                                                       context=step_ctx),
                                     ctx.limits.step_timeout_s)
    except TimeoutError:
        return {"outcomes": [outcome("timeout", error=f"no result within {ctx.limits.step_timeout_s:.0f} s")]}
    except (StoreUnavailable, EmbedderUnavailable) as exc:  # an upstream failure: the reflection retries
        log.warning("execute_step %s failed: %s", sub.id, exc)
        return {"outcomes": [outcome("error", error=f"{type(exc).__name__}: {str(exc)[:200]}")]}
    except Exception as exc:  # any other failed step is the reflection's to handle too; keep its traceback
        log.exception("execute_step %s failed", sub.id)
        return {"outcomes": [outcome("error", error=f"{type(exc).__name__}: {str(exc)[:200]}")]}
    hits = named_first(out.get("ranked", []), sub.entity)
    if sub.strategy == "temporal":
        hits = by_date(hits)
    step = outcome("ok" if hits else "empty", hits=hits, finding=finding(out.get("answer", "")) if hits else "",
                   route=[d.action for d in out.get("decisions", [])], answered=answered(out))
    update: RagUpdate = {"outcomes": [step], "searches": out.get("searches", [])}
    if out.get("llm_calls"):
        update["llm_calls"] = out["llm_calls"]
    if out.get("degraded"):
        update["degraded"] = out["degraded"]
    return update


def summarize(update: RagUpdate) -> str:
    """Describe the step's outcome."""
    o: StepOutcome = update["outcomes"][-1]
    detail = o.error or f"{len(o.hits)} result(s) via {' → '.join(o.route) or o.strategy}"
    if o.answered is not None and o.answered.status == "no_results":
        detail += "; not found" + (f": {o.answered.answerability.reason}" if o.answered.answerability else "")
    elif o.answered is not None:
        detail += "; answered" + (f" {o.answered.answer_span!r}" if o.answered.answer_span else "")
    return f"{o.sub_question} attempt {o.attempt} [{o.strategy}]: {o.status} — {detail}"
