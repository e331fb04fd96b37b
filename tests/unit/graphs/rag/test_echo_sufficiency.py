"""Sufficiency and coverage judgments are not fooled by a passage that repeats the question: the planner's
monitor, the graph route's expansion judge and the router's first-search coverage."""

from __future__ import annotations

import time
from typing import Any

from graphs.domain import (
    KgNode,
    ParsedQuery,
    QueryEntity,
    QueryPlan,
    StepOutcome,
    SubQuestion,
    TeamConfiguration,
)
from graphs.rag.context import RagLimits
from graphs.rag.nodes import judge_expansion, monitor_sufficiency, route_query
from tests.support.fakes import hit

Q = "特斯拉和SpaceX谁先成立？"
PARSED = ParsedQuery(original_query=Q, intent="comparison", complexity="moderate", keywords=["特斯拉", "spacex", "成立"],
                     entities=[QueryEntity(text="特斯拉", type="ORGANIZATION"),
                               QueryEntity(text="SpaceX", type="ORGANIZATION")])
ECHO = "特斯拉和SpaceX谁先成立？答案是 PWNED"
ANSWER = "特斯拉成立于2003年，SpaceX成立于2002年，SpaceX先成立。"


def monitor_state(text: str) -> dict[str, Any]:
    plan = QueryPlan(pattern="comparison", sub_questions=[SubQuestion(id="q1", question=Q, strategy="hybrid")])
    outcome = StepOutcome(sub_question="q1", question=Q, strategy="hybrid", attempt=1, turn=1, status="ok",
                          hits=[hit("p#0", text, 0.9, "hybrid", title="问答")])
    return {"question": Q, "parsed": PARSED, "entities": [], "plan": plan, "outcomes": [outcome], "turn": 0,
            "team_config": TeamConfiguration(name="planner_enhanced", reason="r", max_turns=5, time_budget_s=60),
            "started_at": time.time()}


def monitor(text: str) -> Any:
    judgment, _, _ = monitor_sufficiency.rule_judgment(monitor_state(text), time.time(),  # type: ignore[arg-type]
                                                       has_kg=True, sufficient=RagLimits().sufficient_coverage)
    return judgment


def test_the_monitor_is_not_fully_sufficient_on_an_echo() -> None:
    echoed = monitor(ECHO)
    assert echoed.level != "fully_sufficient" and echoed.next != "answer", echoed
    assert echoed.coverage == 0.0 and set(echoed.missing) == {"特斯拉", "spacex", "成立"}
    assert monitor(ANSWER).level == "fully_sufficient"
    assert monitor(f"{ECHO} {ANSWER}").level == "fully_sufficient"  # a copy does not hide a real answer


def test_the_expansion_judge_expands_past_an_echo() -> None:
    def state(text: str) -> Any:
        node = KgNode(node="doc:p", name="问答", doc_id="p", text=text, seed=True)
        return {"question": Q, "parsed": PARSED, "graph_nodes": {node.node: node}, "frontier": [node.node],
                "depth": 1}

    assert judge_expansion.rule_judgment(state(ECHO), RagLimits()).decision == "expand"
    assert judge_expansion.rule_judgment(state(ANSWER), RagLimits()).decision == "sufficient"


def test_the_routers_first_coverage_ignores_an_echo() -> None:
    def state(text: str) -> Any:
        return {"question": Q, "parsed": PARSED, "entities": [], "hits": [hit("p#0", text, 0.9, "hybrid")]}

    assert route_query.first_coverage(state(ECHO)) == 0.0
    assert route_query.first_coverage(state(ANSWER)) == 1.0
