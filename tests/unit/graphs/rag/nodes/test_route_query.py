"""route_query: one decision per call, and the Command that goes there."""

from __future__ import annotations

from typing import Any

from graphs.domain import (
    ParsedQuery,
    RoutingDecision,
)
from graphs.rag.nodes.route_query import route_query
from tests.support.fakes import make_context, runtime


async def test_route_query_appends_one_decision_and_goes_there(tmp_path: Any) -> None:
    state = {"question": "q", "parsed": ParsedQuery(original_query="q", intent="conceptual"), "constraints": []}
    out = await route_query(state, runtime(make_context(tmp_path)))
    assert out.update == {"decisions": [RoutingDecision(action="semantic_search", reason="conceptual question: pure vector search over meaning")]}
    assert out.goto == "search_semantic"
