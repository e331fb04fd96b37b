"""judge_expansion: after each depth of the graph route, are the results sufficient, worth one more
hop, or is it time to stop? The LLM judges when the rule is unsure; otherwise the rule decides."""

from __future__ import annotations

import logging

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from graphs.domain import ExpansionDecision, ExpansionStep, KgNode
from graphs.llm import LLM_ERRORS, structured_call
from graphs.prompts import fenced
from graphs.rag.context import RagContext, RagLimits
from graphs.rag.expansion import doc_nodes
from graphs.rag.question import coverage, echo_free, state_terms
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate

log = logging.getLogger(__name__)

JUDGED_RESULTS = 3
UNSURE_FROM = 0.5
"""Below this coverage the results plainly miss part of the question: expand without asking the LLM."""


class DepthJudgment(BaseModel):
    """The LLM's sufficiency judgment of the results found so far."""

    decision: ExpansionDecision = Field(
        description="sufficient: the results answer the question; expand: follow the graph one more hop; "
        "stop: more hops will not help."
    )
    reason: str = Field(description="One sentence: what is covered or missing.")


def rule_judgment(state: RagState, limits: RagLimits) -> ExpansionStep:
    """The rule: coverage of the question's terms by the best results, then the depth, size and frontier limits."""
    nodes = doc_nodes(state.get("graph_nodes", {}))
    depth = state.get("depth", 0)
    frontier = state.get("frontier", [])
    max_depth = state.get("max_depth", limits.max_depth)
    terms = state_terms(state)
    top = nodes[:JUDGED_RESULTS]
    cov = round(coverage(terms, echo_free(state, [f"{n.name}\n{n.text}" for n in top])), 3)

    def step(decision: ExpansionDecision, reason: str) -> ExpansionStep:
        return ExpansionStep(depth=depth, decision=decision, num_results=len(nodes), reason=reason,
                             frontier=frontier if decision == "expand" else [], coverage=cov)

    if not nodes and not frontier:
        return step("stop", "nothing found to expand from")
    joined = _joined(state, top) if depth == 0 else None
    if nodes and cov >= limits.sufficient_coverage and (depth > 0 or joined):
        why = f"; {joined}" if joined else ""
        return step("sufficient", f"the top {len(top)} result(s) cover {cov:.0%} of the question's terms{why}")
    if depth >= max_depth:
        return step("stop", f"maximum depth {max_depth} reached (coverage {cov:.0%})")
    if nodes and cov >= limits.sufficient_coverage and frontier:
        return step("expand", f"the seeds cover {cov:.0%} of the question's terms but are not connected: "
                              f"expand {len(frontier)} node(s) to find the link")
    if len(nodes) >= limits.max_graph_nodes:
        return step("stop", f"{len(nodes)} results reached the limit of {limits.max_graph_nodes} (coverage {cov:.0%})")
    if not frontier:
        return step("stop", f"no node above the relevance threshold to expand (coverage {cov:.0%})")
    return step("expand", f"coverage {cov:.0%} < {limits.sufficient_coverage:.0%}: expand {len(frontier)} node(s)")


def _joined(state: RagState, top: list[KgNode]) -> str | None:
    """At depth 0, whether the best seeds already form evidence: two documents the question names, or the
    best two linked in the knowledge graph (a bridge already found). None when they are not joined."""
    named = [n for n in top if n.edge == "named"]
    if len(named) >= 2:
        return f"the question names {named[0].name!r} and {named[1].name!r}"
    if len(top) >= 2 and (top[1].node in state.get("seed_links", {}).get(top[0].node, [])
                          or top[0].node in state.get("seed_links", {}).get(top[1].node, [])):
        return f"{top[0].name!r} and {top[1].name!r} are linked"
    return None


def _digest(nodes: list[KgNode], limit: int = 5, chars: int = 300) -> str:
    return "\n".join(f"- [{n.node}] {fenced(n.name)} (hop {n.hop}): {fenced(n.text[:chars])}"
                     for n in nodes[:limit]) or "(none)"


SPEC = NodeSpec(purpose="judge whether the graph route has enough or needs one more hop", uses_llm=True,
                record="expansion")


async def judge_expansion(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Record the judgment of this depth."""
    ctx = runtime.context
    rule = rule_judgment(state, ctx.limits)
    unsure = rule.decision == "expand" and (rule.coverage or 0.0) >= UNSURE_FROM
    if ctx.llm is None or not unsure:
        return {"expansion": [rule]}
    messages = [
        SystemMessage(ctx.prompts.render("judge_expansion.system")),
        HumanMessage(ctx.prompts.render(
            "judge_expansion.user", question=state["question"], depth=rule.depth,
            max_depth=state.get("max_depth", ctx.limits.max_depth), coverage=f"{rule.coverage:.0%}",
            results=_digest(doc_nodes(state.get("graph_nodes", {}))),
        )),
    ]
    try:
        verdict = await structured_call(ctx.llm, DepthJudgment, messages, ctx.limits.llm_timeout_s)
    except LLM_ERRORS as exc:
        log.warning("judge_expansion: LLM failed (%s); the rule decides", type(exc).__name__)
        return {"expansion": [rule], "degraded": ["judge_expansion"], "llm_calls": 1}
    if verdict.decision == "expand" and not rule.frontier:
        verdict = DepthJudgment(decision="stop", reason=f"{verdict.reason} (nothing left to expand)")
    step = rule.model_copy(update={"decision": verdict.decision, "reason": verdict.reason, "judge": "llm",
                                   "frontier": rule.frontier if verdict.decision == "expand" else []})
    return {"expansion": [step], "llm_calls": 1}


def summarize(update: RagUpdate) -> str:
    """Describe the judgment."""
    s: ExpansionStep = update["expansion"][-1]
    return f"depth {s.depth}: {s.decision} ({s.judge}) — {s.reason}"
