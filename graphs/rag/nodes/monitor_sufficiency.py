"""monitor_sufficiency: after each plan round, the ADR's sufficiency judgment and what to do next —
fully sufficient (answer), partially sufficient (continue with the waiting steps, or a follow-up for what
is missing), contradictory (answer, stating the disagreement), insufficient (reflect on failed steps, or
switch strategy), max turns reached (answer, marked possibly incomplete). The LLM judges when the rule is
unsure; the rule decides otherwise."""

from __future__ import annotations

import logging
import time
from typing import Literal

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from graphs.domain import Hit, QueryPlan, StepOutcome, SubQuestion, SufficiencyJudgment
from graphs.llm import LLM_ERRORS, structured_call
from graphs.prompts import fenced
from graphs.rag.context import RagContext
from graphs.rag.contradictions import contradictions_in
from graphs.rag.planning import merge_hits, next_strategy, ready_steps, replace_steps
from graphs.rag.question import coverage, echo_free, state_terms, validated_names
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate

log = logging.getLogger(__name__)

UNSURE_FROM = 0.5
JUDGED = 5


class SufficiencyVerdict(BaseModel):
    """The LLM's sufficiency judgment."""

    level: Literal["fully_sufficient", "partially_sufficient", "insufficient"] = Field(
        description="fully_sufficient: the passages answer the question; partially_sufficient: part is missing; "
        "insufficient: they do not answer it.")
    missing: list[str] = Field(default_factory=list, description="Short search phrases for what is missing.")
    reason: str = Field(description="One sentence.")


def _mark(plan: QueryPlan, outcomes: list[StepOutcome]) -> QueryPlan:
    """The plan with this round's steps marked done or failed and their attempts counted."""
    changed = [s.model_copy(update={"status": "done" if o.status == "ok" else "failed", "attempts": o.attempt})
               for o in outcomes for s in plan.sub_questions if s.id == o.sub_question]
    return replace_steps(plan, changed)


def _missing_terms(terms: list[str], texts: list[str]) -> list[str]:
    blob = "\n".join(texts).lower()
    return [t for t in terms if coverage([t], [blob]) < 1.0]


def rule_judgment(
    state: RagState, now: float, *, has_kg: bool, sufficient: float
) -> tuple[SufficiencyJudgment, QueryPlan, list[Hit]]:
    """The rule's judgment of this round, the plan as it stands after it, and the merged results."""
    team = state["team_config"]
    turn = state.get("turn", 0) + 1
    outcomes = [o for o in state.get("outcomes", []) if o.turn == turn]
    plan = _mark(state["plan"], outcomes)
    hits = merge_hits(plan, state.get("outcomes", []))
    out_of_turns = turn >= team.max_turns
    out_of_time = now - state.get("started_at", now) > team.time_budget_s

    def judged(level: str, reason: str, nxt: str, missing: list[str] | None = None,
               cov: float | None = None) -> SufficiencyJudgment:
        return SufficiencyJudgment(turn=turn, level=level, reason=reason, next=nxt, missing=missing or [],  # type: ignore[arg-type]
                                   coverage=cov)

    stop = ("max_turns", f"turn {turn} of {team.max_turns}" if out_of_turns
            else f"time budget of {team.time_budget_s:.0f} s spent")
    failed = [o for o in outcomes if o.status != "ok"]
    if failed:
        what = ", ".join(f"{o.sub_question} {o.status}" for o in failed)
        if out_of_turns or out_of_time:
            return judged(stop[0], f"{what}; {stop[1]}: answer with what was found", "answer"), plan, hits
        return judged("insufficient", f"{what}: reflect on the failed step(s)", "reflect"), plan, hits
    waiting = [s for s in plan.sub_questions if s.status == "pending"]
    if waiting and ready_steps(plan):
        if out_of_turns or out_of_time:
            return (judged(stop[0], f"{stop[1]} with {len(waiting)} step(s) left: answer with what was found",
                           "answer", [s.question for s in waiting]), plan, hits)
        return (judged("partially_sufficient", f"{len(waiting)} step(s) wait on this round's findings",
                       "continue", [s.question for s in waiting]), plan, hits)
    if plan.pattern == "compound":
        # each part's step ran its own answer decision: the writer composes them (coverage of the whole message's
        # terms by the merged results says nothing of a part)
        return judged("fully_sufficient", f"each of the {len(plan.sub_questions)} parts ran its own answer decision: "
                      "compose their answers", "answer"), plan, hits
    if conflicts := contradictions_in(state, hits):
        facts = "; ".join(c.fact for c in conflicts)
        return judged("contradictory", f"sources disagree on {facts}: answer stating both", "answer"), plan, hits
    terms = state_terms(state)
    top = hits[: max(JUDGED, len(plan.sub_questions))]
    texts = echo_free(state, [f"{h.title}\n{h.text}" for h in top])
    cov = round(coverage(terms, texts), 3)
    if cov >= sufficient:
        return judged("fully_sufficient", f"the results cover {cov:.0%} of the question's terms", "answer", cov=cov), plan, hits
    missing = _missing_terms(terms, texts)
    if out_of_turns or out_of_time:
        return judged(stop[0], f"coverage {cov:.0%}; {stop[1]}: answer, possibly incomplete", "answer", missing,
                      cov), plan, hits
    ids = {s.id for s in plan.sub_questions}
    if cov >= UNSURE_FROM:
        if "follow" not in ids and missing:
            names = validated_names(state) or [e.text for e in state["parsed"].entities if e.type != "DATE"]
            words = list({w.casefold(): w for w in reversed([*names, *missing])}.values())[::-1]
            follow = SubQuestion(id="follow", question=" ".join(words), strategy="hybrid",
                                 reason=f"follow-up for what is missing: {', '.join(missing)}")
            return (judged("partially_sufficient", f"coverage {cov:.0%}: missing {', '.join(missing)}", "follow_up",
                           missing, cov), replace_steps(plan, [follow]), hits)
        return judged("partially_sufficient", f"coverage {cov:.0%} after a follow-up: answer", "answer", missing,
                      cov), plan, hits
    tried = [s.strategy for s in plan.sub_questions]
    if "switch" not in ids and (alt := next_strategy(tried, has_kg)):
        switch = SubQuestion(id="switch", question=state["question"], strategy=alt,
                             reason=f"the plan's results cover {cov:.0%}: the whole question with {alt} search")
        return (judged("insufficient", f"coverage {cov:.0%}: switch to {alt} search", "switch_strategy", missing, cov),
                replace_steps(plan, [switch]), hits)
    return judged("insufficient", f"coverage {cov:.0%} and no strategy left: answer with what was found", "answer",
                  missing, cov), plan, hits


def _passages(hits: list[Hit], chars: int = 300) -> str:
    return "\n".join(f"- {fenced(h.title)}: {fenced(h.text[:chars])}" for h in hits[:JUDGED]) or "(none)"


SPEC = NodeSpec(purpose="judge whether the plan's findings suffice and what to do next", uses_llm=True,
                record="sufficiency")


async def monitor_sufficiency(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Judge this round, update the plan and merge the results so far."""
    ctx = runtime.context
    judgment, plan, hits = rule_judgment(state, time.time(), has_kg=ctx.kg is not None,
                                         sufficient=ctx.limits.sufficient_coverage)
    update: RagUpdate = {"turn": judgment.turn, "plan": plan, "hits": hits}
    if judgment.level == "max_turns":
        update["possibly_incomplete"] = True
    unsure = judgment.next == "follow_up" and ctx.llm is not None
    if unsure:
        judgment, plan = await _ask_llm(state, runtime, judgment, plan, hits, update)
        update["plan"] = plan
    update["sufficiency"] = [judgment]
    return update


async def _ask_llm(state: RagState, runtime: Runtime[RagContext], rule: SufficiencyJudgment, plan: QueryPlan,
                   hits: list[Hit], update: RagUpdate) -> tuple[SufficiencyJudgment, QueryPlan]:
    """Let the LLM judge the unsure band; a sufficient verdict drops the rule's follow-up step."""
    ctx = runtime.context
    team = state["team_config"]
    messages = [
        SystemMessage(ctx.prompts.render("monitor_sufficiency.system")),
        HumanMessage(ctx.prompts.render("monitor_sufficiency.user", question=state["question"], turn=rule.turn,
                                        max_turns=team.max_turns, coverage=f"{rule.coverage or 0:.0%}",
                                        passages=_passages(hits))),
    ]
    update["llm_calls"] = 1
    try:
        verdict = await structured_call(ctx.llm, SufficiencyVerdict, messages, ctx.limits.llm_timeout_s)  # type: ignore[arg-type]
    except LLM_ERRORS as exc:
        log.warning("monitor_sufficiency: LLM failed (%s); the rule decides", type(exc).__name__)
        update["degraded"] = ["monitor_sufficiency"]
        return rule, plan
    if verdict.level == "fully_sufficient":
        kept = plan.model_copy(update={"sub_questions": [s for s in plan.sub_questions if s.id != "follow"]})
        return (rule.model_copy(update={"level": "fully_sufficient", "next": "answer", "reason": verdict.reason,
                                        "missing": [], "judge": "llm"}), kept)
    if verdict.missing:
        plan = replace_steps(plan, [s.model_copy(update={"question": " ".join(verdict.missing)})
                                    for s in plan.sub_questions if s.id == "follow"])
    return rule.model_copy(update={"level": verdict.level, "reason": verdict.reason, "judge": "llm",
                                   "missing": verdict.missing or rule.missing}), plan


def summarize(update: RagUpdate) -> str:
    """Describe the judgment."""
    j: SufficiencyJudgment = update["sufficiency"][-1]
    return f"turn {j.turn}: {j.level} ({j.judge}) → {j.next} — {j.reason}"
