"""Builders shared by the master layer's tests (tests/unit/graphs/rag/test_master_layer.py) and its nodes' tests
(configure_team, plan_query, monitor_sufficiency, reflect): parsed questions, plans, sub-questions and step
outcomes."""

from __future__ import annotations

from collections.abc import Sequence

from graphs.domain import Hit, ParsedQuery, QueryEntity, QueryPlan, StepOutcome, SubQuestion


def parsed(question: str, *names: str, intent: str = "comparison", complexity: str = "moderate",
           **features: float) -> ParsedQuery:
    return ParsedQuery(original_query=question, intent=intent, complexity=complexity,  # type: ignore[arg-type]
                       entities=[QueryEntity(text=n, type="OTHER") for n in names],
                       keywords=[w for w in question.rstrip("?？").split() if len(w) > 3],
                       complexity_features=features)


def outcome(sid: str, status: str = "ok", hits: list[Hit] | None = None, turn: int = 1, strategy: str = "hybrid",
          attempt: int = 1, error: str | None = None) -> StepOutcome:
    return StepOutcome(sub_question=sid, question=sid, strategy=strategy, attempt=attempt, turn=turn,  # type: ignore[arg-type]
                       status=status, hits=hits or [], error=error)  # type: ignore[arg-type]


def plan_of(*steps: SubQuestion) -> QueryPlan:
    return QueryPlan(pattern="llm", sub_questions=list(steps))


def sub_question(sid: str, deps: Sequence[str] = (), strategy: str = "hybrid") -> SubQuestion:
    return SubQuestion(id=sid, question=f"question {sid}", strategy=strategy, depends_on=list(deps))  # type: ignore[arg-type]
