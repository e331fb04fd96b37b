"""check_answer: an LLM's answer checked against the passages it cites before it is returned."""

from __future__ import annotations

from typing import cast

from langgraph.runtime import Runtime

from graphs.rag.answer.check import Draft, only_markers, verify_answer
from graphs.rag.answer.citations import cited
from graphs.rag.answer.replies import finish, not_found
from graphs.rag.context import RagContext
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate
from graphs.text.normalize import has_han

NOTHING_TO_CHECK = "nothing to check: the answer quotes the passages (or needs none)"

SPEC = NodeSpec(purpose="check the answer against the passages it cites")


def checked_update(state: RagState, draft: Draft) -> RagUpdate:
    """The answer after the checks: the supported sentences (with the computed verdict leading where the LLM's
    contradicted it), "not found" when the LLM abstained or nothing it said is supported, the extractive answer
    when its reply was only citation markers."""
    question, hits = state["question"], state.get("ranked", [])
    chinese = has_han(question)
    checked = verify_answer(draft.text, hits, question, draft.verdict, chinese=chinese)
    assessment = state["answerability"]
    conflicts = state.get("contradictions", [])
    base: RagUpdate = {"draft": None, "corrections": checked.corrections}
    if checked.abstained or (not checked.text and not only_markers(draft.raw)):
        why = ("the LLM writer found no answer in the passages" if checked.abstained
               else "no sentence of the LLM's answer was supported by the passages it cites")
        return {**not_found(question, hits, assessment.model_copy(update={"decision": "not_found", "reason": why,
                                                                            "decided_by": "answer_check"})),
                **base}
    if checked.text:
        text = finish(checked.text, state, conflicts, hits, llm=True)
        return {"answer": text, "answer_span": None, "citations": cited(text, hits), "answer_mode": "llm",
                "status": "answered", **base}
    return {**cast(RagUpdate, draft.fallback), **base}  # only citation markers: no answer from the LLM, the extractive one instead


async def check_answer(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Keep only what the cited passages support of an LLM's answer; an extractive answer passes as it is."""
    draft = state.get("draft")
    if draft is None:
        return {"answer_check": NOTHING_TO_CHECK}
    update = checked_update(state, draft)
    return {**update, "answer_check": _outcome(update)}


def _outcome(update: RagUpdate) -> str:
    changes = len(update.get("corrections", []))
    if update.get("status") == "no_results":
        return f"the LLM's answer is not supported: not found ({changes} correction(s))"
    if update.get("answer_mode") == "extractive":
        return "the LLM's answer was only citation markers: the extractive answer instead"
    return f"LLM answer checked: {changes} correction(s), {len(update['citations'])} citation(s) kept"


def summarize(update: RagUpdate) -> str:
    """Say what the check changed."""
    return str(update.get("answer_check", NOTHING_TO_CHECK))
