"""configure_team: each team choice with its turn and time budget."""

from __future__ import annotations

from typing import Any

import pytest

from graphs.domain import (
    ParsedQuery,
)
from graphs.rag.context import RagLimits
from graphs.rag.nodes import configure_team
from tests.support.plans import parsed

LIMITS = RagLimits()


def _team_state(question: str, pq: ParsedQuery, **kw: Any) -> dict[str, Any]:
    return {"question": question, "parsed": pq, "entities": [], **kw}


@pytest.mark.parametrize(("question", "pq", "kw", "llm", "team"), [
    ("Hello!", parsed("Hello!", intent="factual", complexity="simple"), {}, False, "writer_only"),
    ("what is 17*3?", parsed("what is 17*3?", intent="factual", complexity="simple"), {}, False, "writer_only"),
    ("Who founded SpaceX?", parsed("Who founded SpaceX?", "SpaceX", intent="factual", complexity="simple"), {}, False,
     "executor_inclusive"),
    ("Are A Corp and B Corp both banks?", parsed("Are A Corp and B Corp both banks?", "A Corp", "B Corp"), {}, False,
     "planner_enhanced"),
    ("How did prices change over time?", parsed("How did prices change over time?", intent="exploratory"), {}, False,
     "planner_enhanced"),
    ("Who directed the film that won X in the year Y was born?",
     parsed("Who directed the film that won X in the year Y was born?", intent="factual", complexity="complex"), {},
     True, "planner_enhanced"),
    ("Who directed the film that won X in the year Y was born?",
     parsed("Who directed the film that won X in the year Y was born?", intent="factual", complexity="complex"), {},
     False, "executor_inclusive"),
    ("Are A Corp and B Corp both banks?", parsed("Are A Corp and B Corp both banks?", "A Corp", "B Corp"),
     {"search_mode": "graph"}, False, "executor_inclusive"),
    ("Hello!", parsed("Hello!"), {"team": "planner_enhanced"}, False, "planner_enhanced"),
    # a message that asks two things: one step per part
    ("渡船几点开？票价多少？", parsed("渡船几点开？票价多少？", intent="factual", complexity="simple"), {}, False,
     "planner_enhanced"),
])
def test_each_team_configuration_choice(question: str, pq: ParsedQuery, kw: dict[str, Any], llm: bool,
                                        team: str) -> None:
    config = configure_team.team_configuration(_team_state(question, pq, **kw), LIMITS, has_llm=llm, has_kg=True)
    assert config.name == team and config.reason
    budgets = {"writer_only": (0, LIMITS.writer_time_s), "executor_inclusive": (LIMITS.executor_max_turns, LIMITS.executor_time_s),
               "planner_enhanced": (LIMITS.planner_max_turns, LIMITS.planner_time_s)}
    assert (config.max_turns, config.time_budget_s) == budgets[team]
