"""route_query: one decision per call, and the Command that goes there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphs.domain import (
    ParsedQuery,
    RoutingDecision,
)
from graphs.rag.context import RagLimits
from graphs.rag.nodes.route_query import decide_route, route_query
from tests.support.fakes import hit, make_context, runtime
from tests.support.graph_route import kg


async def test_route_query_appends_one_decision_and_goes_there(tmp_path: Any) -> None:
    state = {"question": "q", "parsed": ParsedQuery(original_query="q", intent="conceptual"), "constraints": []}
    out = await route_query(state, runtime(make_context(tmp_path)))
    assert out.update == {"decisions": [RoutingDecision(action="semantic_search", reason="conceptual question: pure vector search over meaning")]}
    assert out.goto == "search_semantic"


def _route_state(question: str, complexity: str, intent: str = "factual", **extra: Any) -> Any:
    p = ParsedQuery(original_query=question, keywords=question.lower().split(), intent=intent,  # type: ignore[arg-type]
                    complexity=complexity)  # type: ignore[arg-type]
    return {"question": question, "parsed": p, "entities": [], "constraints": [], **extra}


@pytest.mark.parametrize(
    ("complexity", "intent", "has_kg", "action"),
    [
        ("complex", "factual", True, "graph_search"),
        ("moderate", "comparison", True, "graph_search"),
        ("simple", "comparison", True, "graph_search"),
        ("simple", "factual", True, "hybrid_search"),
        ("complex", "factual", False, "hybrid_search"),
        ("complex", "conceptual", True, "graph_search"),
    ],
)
def test_router_sends_multi_hop_questions_through_the_graph(
    complexity: str, intent: str, has_kg: bool, action: str
) -> None:
    d = decide_route(_route_state("who directed the film that x", complexity, intent), RagLimits(), has_kg)
    assert d.action == action


def test_explicit_graph_mode_without_a_graph_says_why_it_falls_back() -> None:
    d = decide_route(_route_state("q", "simple", search_mode="graph"), RagLimits(), False)
    assert d.action == "hybrid_search" and "no knowledge graph" in d.reason


def test_simple_question_escalates_only_when_its_first_results_miss_it() -> None:
    from graphs.domain import SearchRecord

    searched = [SearchRecord(channel="hybrid", filter=None, count=2, duration_ms=1.0)]
    covered = _route_state("tesla founder", "simple", searches=searched,
                           hits=[hit("t#0", "Tesla's founder is Elon Musk", channel="hybrid")])
    assert decide_route(covered, RagLimits(), True).action == "rerank"
    missed = _route_state("tesla founder birthplace school", "simple", searches=searched,
                          hits=[hit("t#0", "Tesla's founder is Elon Musk", channel="hybrid")])
    d = decide_route(missed, RagLimits(), True)
    assert d.action == "graph_search" and "cover 50%" in d.reason
    assert decide_route(missed, RagLimits(), False).action == "rerank"
    conceptual = _route_state("tesla founder birthplace school", "simple", intent="conceptual", searches=searched,
                              hits=missed["hits"])
    assert decide_route(conceptual, RagLimits(), True).action == "rerank"


async def test_route_node_knows_whether_a_graph_exists(tmp_path: Path) -> None:
    state = _route_state("q", "complex")
    with_graph = await route_query(state, runtime(make_context(tmp_path, kg=kg(tmp_path, []))))
    assert with_graph.update["decisions"][0].action == "graph_search" and with_graph.goto == "search_graph"
    without = await route_query(state, runtime(make_context(tmp_path)))
    assert without.update["decisions"][0].action == "hybrid_search" and without.goto == "search_hybrid"


@pytest.mark.parametrize("question", ["What does error W12 mean on the Lumen oven?", "F3 是什么故障？",
                                      "What is the KX-220 used for?"])
def test_a_conceptual_question_naming_a_code_also_searches_by_keywords(question: str) -> None:
    # a code is matched by its spelling: the keyword channel sees W12 where a meaning vector blurs it with W11
    decision = decide_route(_route_state(question, "simple", intent="conceptual"), RagLimits())
    assert decision.action == "hybrid_search" and "a code is matched by its spelling" in decision.reason


def test_a_conceptual_question_without_a_code_stays_on_meaning() -> None:
    decision = decide_route(_route_state("What does a kiln controller do?", "simple", intent="conceptual"), RagLimits())
    assert decision.action == "semantic_search"
