"""The consistency check as the graph uses it: the question's subject and relations against the results."""

from __future__ import annotations

from graphs.domain import Contradiction, Hit
from graphs.rag.state import RagState
from graphs.text.answer_types import expected_answer
from graphs.text.consistency import find_contradictions


def subject_and_relations(state: RagState) -> tuple[str | None, list[str]]:
    """The question's one subject (an entity) and its other content words (the relations asked about)."""
    names = [e.standard_name or e.text for e in state.get("entities", []) if e.type != "DATE"] or [
        e.text for e in state["parsed"].entities if e.type != "DATE"]
    subject = names[0] if len(dict.fromkeys(names)) == 1 else None
    lowered = {n.lower() for n in names}
    return subject, [k for k in state["parsed"].keywords if k.lower() not in lowered]


def contradictions_in(state: RagState, hits: list[Hit]) -> list[Contradiction]:
    """Facts on which the best results disagree (rule-based); a list question expects several values."""
    kind = expected_answer(state["question"])
    if kind == "list":
        return []
    subject, relations = subject_and_relations(state)
    return find_contradictions(subject, relations, hits, dates=kind in ("date", "comparison"))
