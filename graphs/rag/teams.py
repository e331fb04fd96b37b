"""The master layer's three teams and their budgets: writer-only (nothing to retrieve), executor-inclusive
(one adaptive retrieval path) and planner-enhanced (a plan of sub-questions)."""

from __future__ import annotations

from graphs.domain import TeamConfiguration, TeamName
from graphs.rag.context import RagLimits


def configured(name: TeamName, reason: str, limits: RagLimits, *, max_turns: int | None = None,
               complexity_score: float = 0.0) -> TeamConfiguration:
    """The team with its turn and time budgets (``max_turns``: the caller's plan rounds, planner only)."""
    turns, seconds = {
        "writer_only": (0, limits.writer_time_s),
        "executor_inclusive": (limits.executor_max_turns, limits.executor_time_s),
        "planner_enhanced": (limits.planner_max_turns if max_turns is None else max_turns, limits.planner_time_s),
    }[name]
    return TeamConfiguration(name=name, reason=reason, max_turns=turns, time_budget_s=seconds,
                             complexity_score=complexity_score)
