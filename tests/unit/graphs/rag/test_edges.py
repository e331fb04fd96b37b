"""Routing tables: the router's pure decisions and the edge that follows them."""

from __future__ import annotations

from typing import Any

import pytest

from graphs.domain import Constraint, ParsedQuery, RoutingDecision, SearchRecord
from graphs.rag.context import RagLimits
from graphs.rag.edges import node_for
from graphs.rag.nodes.route_query import decide_route
from tests.support.fakes import hit

LIMITS = RagLimits(max_retries=2, min_dense_score=0.2)
PERSON = [Constraint(type="PERSON", value="Elon Musk")]


def rec(channel: str, count: int) -> SearchRecord:
    return SearchRecord(channel=channel, filter="f" if channel == "structured" else None, count=count, duration_ms=1)  # type: ignore[arg-type]


def state(intent: str = "factual", constraints: Any = (), searches: Any = (), hits: Any = (), **kw: Any) -> dict[str, Any]:
    return {"question": "q", "parsed": ParsedQuery(original_query="q", intent=intent), "constraints": list(constraints),
            "searches": list(searches), "hits": list(hits), **kw}


@pytest.mark.parametrize(
    ("st", "action"),
    [
        (state("factual", PERSON), "structured_search"),
        (state("comparison", PERSON), "structured_search"),
        (state("conceptual", PERSON), "semantic_search"),
        (state("conceptual"), "semantic_search"),
        (state("factual"), "hybrid_search"),
        (state("factual", [Constraint(type="DATE", value="2024")]), "hybrid_search"),  # a date alone is weak
        (state("factual", PERSON, search_mode="semantic"), "semantic_search"),
        (state("conceptual", PERSON, search_mode="structured"), "structured_search"),
        (state("factual", search_mode="structured"), "hybrid_search"),  # nothing to filter on
        (state("factual", PERSON, [rec("structured", 0)], relaxations=0), "relax_constraints"),
        (state("factual", PERSON, [rec("structured", 0)] * 3, relaxations=2), "semantic_search"),
        (state("factual", PERSON, [rec("structured", 0)], relaxations=0, max_retries=0), "semantic_search"),
        (state("factual", [], [rec("structured", 0)], relaxations=1), "semantic_search"),
        (state("factual", PERSON, [rec("structured", 2)], hits=[hit("a#0", score=0.01)]), "rerank"),
        (state("conceptual", [], [rec("semantic", 1)], hits=[hit("a#0", score=0.5)]), "rerank"),
        (state("conceptual", [], [rec("semantic", 1)], hits=[hit("a#0", score=0.1)]), "hybrid_search"),
        (state("conceptual", [], [rec("semantic", 1), rec("hybrid", 1)], hits=[hit("a#0", score=0.1)]), "rerank"),
        (state("conceptual", [], [rec("semantic", 0)]), "hybrid_search"),
        (state("conceptual", [], [rec("semantic", 0), rec("hybrid", 0)]), "rerank"),
    ],
)
def test_decide_route(st: dict[str, Any], action: str) -> None:
    decision = decide_route(st, LIMITS)  # type: ignore[arg-type]
    assert decision.action == action
    assert decision.reason


@pytest.mark.parametrize(
    ("action", "node"),
    [("structured_search", "search_structured"), ("semantic_search", "search_semantic"),
     ("hybrid_search", "search_hybrid"), ("relax_constraints", "relax_constraints"), ("rerank", "rerank_hits")],
)
def test_node_for_carries_out_the_decision(action: str, node: str) -> None:
    assert node_for(RoutingDecision(action=action, reason="r")) == node  # type: ignore[arg-type]
