"""The answer to a message that asks several things, composed from its parts' own answers (``planning.parts_plan``
runs each part through the whole path: retrieval, the answer decision, the writer, the check). Each part says its
result in turn, a part the files lack included ("the documents do not say …"), with its citations renumbered
into the whole answer's; the message is "not found" only when every part is."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphs.domain import Answerability, Hit, PartAnswer, QueryPlan, StepOutcome
from graphs.rag.answer.citations import cited
from graphs.rag.answer.replies import RELATED, finish, no_results_answer
from graphs.rag.planning import latest_outcomes
from graphs.rag.state import RagState, RagUpdate
from graphs.text.normalize import has_han

_CITED = re.compile(r"\[(\d{1,3})\]")


def part_answers(plan: QueryPlan, outcomes: Sequence[StepOutcome]) -> list[tuple[PartAnswer, list[Hit]]]:
    """Each part's answer (a part whose step found nothing, or failed, is "not found") with the step's results,
    in the plan's order."""
    latest = latest_outcomes(outcomes)
    out = []
    for step in plan.sub_questions:
        o = latest.get(step.id)
        given = o.answered if o is not None and o.status == "ok" else None
        part = given or PartAnswer(status="no_results", answer=no_results_answer(step.question))
        out.append((part.model_copy(update={"sub_question": step.id, "question": step.question}),
                    list(o.hits) if o is not None else []))
    return out


def _markers(text: str, mapping: dict[int, int]) -> str:
    """The text's citation markers renumbered (a marker of no mapped passage dropped)."""
    return _CITED.sub(lambda m: f"[{mapping[int(m[1])]}]" if int(m[1]) in mapping else "", text)


def renumbered(parts: Sequence[tuple[PartAnswer, list[Hit]]], ranked: Sequence[Hit]
               ) -> tuple[list[PartAnswer], list[Hit]]:
    """The parts with their citation markers numbered in one list of results: every part's cited passages
    first (in the parts' order, each passage once), then the other ranked results."""
    merged: list[Hit] = []
    position: dict[str, int] = {}
    out = []
    for part, hits in parts:
        by_id = {h.id: h for h in hits}
        mapping: dict[int, int] = {}
        for c in part.citations:
            hit = by_id.get(c.id)
            if hit is None:
                continue
            if hit.id not in position:
                merged.append(hit)
                position[hit.id] = len(merged)
            mapping[c.index] = position[hit.id]
        out.append(part.model_copy(update={"answer": _markers(part.answer, mapping)}))
    merged += [h for h in ranked if h.id not in position]
    return [p.model_copy(update={"citations": cited(p.answer, merged)}) for p in out], merged


def _verdict(parts: Sequence[PartAnswer]) -> Answerability:
    """The message's answer decision: answerable when a part is, its score the best answered part's, its
    reason each part's."""
    answered = [p for p in parts if p.status == "answered"]
    judged = [p.answerability for p in (answered or parts) if p.answerability is not None]
    reason = "; ".join(f"{p.sub_question} {'answered' if p.status == 'answered' else 'not found'}"
                       + (f": {p.answerability.reason}" if p.answerability else "") for p in parts)
    return Answerability(decision="answerable" if answered else "not_found",
                         score=max((a.score for a in judged), default=0.0), reason=reason,
                         decided_by=judged[0].decided_by if judged else "rule")


def composed_text(parts: Sequence[PartAnswer]) -> str:
    """One line per part: the part's question, then its answer (or the plain "not found" sentence)."""
    return "\n".join(f"{n}. {p.question} {p.answer.strip()}" for n, p in enumerate(parts, start=1))


def compose(state: RagState) -> RagUpdate:
    """The message's answer from its parts' answers (``write_answer`` of a compound plan)."""
    question = state["question"]
    parts, ranked = renumbered(part_answers(state["plan"], state.get("outcomes", [])), state.get("ranked", []))
    verdict = _verdict(parts)
    if verdict.decision == "not_found":
        return {"answer": no_results_answer(question, retrieved=bool(ranked)), "answer_span": None, "citations": [],
                "answerability": verdict, "related": ranked[:RELATED], "answer_mode": "none",
                "status": "no_results", "parts": parts, "ranked": ranked}
    chinese = has_han(question)
    text = finish(composed_text(parts), state, [], ranked)
    spans = [p.answer_span for p in parts if p.status == "answered" and p.answer_span]
    return {"answer": text, "answer_span": ("；" if chinese else "; ").join(spans) or None,
            "answerability": verdict, "citations": cited(text, ranked), "answer_mode": "extractive",
            "status": "answered", "parts": parts, "ranked": ranked}
