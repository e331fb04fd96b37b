"""Graph tests: the node path of each seed scenario, streamed as updates."""

from __future__ import annotations

from typing import Any

import pytest

from graphs.rag.graph import workflow
from tests.support.fakes import ScriptedIndex, hit, make_context


async def run(ctx: Any, question: str, **inputs: Any) -> tuple[list[str], dict[str, Any]]:
    """Stream the graph and return the visited nodes and the final state."""
    visited: list[str] = []
    async for update in workflow.astream({"question": question, **inputs}, context=ctx, stream_mode="updates"):
        visited.extend(update)
    final = await workflow.ainvoke({"question": question, **inputs}, context=ctx)
    return visited, final


async def test_person_question_goes_to_structured_search_on_the_standard_name(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("tesla#0", "马斯克创办了特斯拉。"), hit("spacex#0", "SpaceX")])
    visited, out = await run(make_context(tmp_path, index), "马斯克创办的公司有哪些？")
    assert visited == ["parse_query", "validate_entities", "configure_team", "route_query", "search_structured", "route_query",
                       "rerank_hits", "write_answer"]
    [entity] = out["entities"]
    assert (entity.text, entity.standard_name, entity.type, entity.match) == ("马斯克", "Elon Musk", "PERSON", "alias")
    assert out["parsed"].intent == "factual"
    assert index.calls[0][0] == "structured" and "Elon Musk" in (index.calls[0][1] or "")
    assert out["status"] == "answered" and out["citations"]


async def test_apple_beijing_2024_relaxes_date_first_then_finds_results(tmp_path: Any) -> None:
    def respond(channel: str, expr: str | None) -> list[Any]:
        return [] if expr and "date" in expr else [hit("apple-bj#0", "苹果在北京朝阳开设零售店。")]

    index = ScriptedIndex(respond=respond)
    visited, out = await run(make_context(tmp_path, index), "2024年苹果在北京发布的产品")
    assert visited == ["parse_query", "validate_entities", "configure_team", "route_query", "search_structured", "route_query",
                       "relax_constraints", "search_structured", "route_query", "rerank_hits", "write_answer"]
    assert {(c.type, c.value) for c in out["constraints"]} == {("ORGANIZATION", "Apple"), ("LOCATION", "北京")}
    [relaxed] = out["relaxed"]
    assert (relaxed.type, relaxed.action) == ("DATE", "dropped")
    first_filter = index.calls[0][1] or ""
    assert "Apple" in first_filter and "北京" in first_filter and "20240101" in first_filter
    assert out["ranked"][0].doc_id == "apple-bj"


async def test_conceptual_question_goes_to_semantic_search(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("ml#0", "机器学习是人工智能的一个分支。", 0.6, "semantic")])
    visited, out = await run(make_context(tmp_path, index), "什么是机器学习？")
    assert visited == ["parse_query", "validate_entities", "configure_team", "route_query", "search_semantic", "route_query",
                       "rerank_hits", "write_answer"]
    assert out["parsed"].intent == "conceptual"
    assert [c for c, _ in index.calls] == ["semantic"] * 2  # once per run (stream + invoke)


async def test_relaxation_budget_exhausted_falls_back_to_semantic(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [] if ch == "structured" else [hit("x#0", "x", 0.5, ch)])
    visited, out = await run(make_context(tmp_path, index), "2024年苹果在北京发布的产品", max_retries=1)
    assert visited == ["parse_query", "validate_entities", "configure_team", "route_query", "search_structured", "route_query",
                       "relax_constraints", "search_structured", "route_query", "search_semantic", "route_query",
                       "rerank_hits", "write_answer"]
    assert len(out["relaxed"]) == 1
    assert out["decisions"][-2].action == "semantic_search"


async def test_nothing_anywhere_says_so_plainly(tmp_path: Any) -> None:
    visited, out = await run(make_context(tmp_path, ScriptedIndex()), "什么是量子纠缠？")
    assert visited[-2:] == ["rerank_hits", "write_answer"]
    assert out["status"] == "no_results"
    assert "没有" in out["answer"]
    assert out["citations"] == []


async def test_weak_semantic_results_add_hybrid(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("w#0", "weak", 0.05, ch)])
    visited, _ = await run(make_context(tmp_path, index), "what is quantum entanglement?")
    assert visited == ["parse_query", "validate_entities", "configure_team", "route_query", "search_semantic", "route_query",
                       "search_hybrid", "route_query", "rerank_hits", "write_answer"]


async def test_workflow_steps_and_total_duration_are_recorded(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("ml#0", "机器学习。", 0.6, ch)])
    _, out = await run(make_context(tmp_path, index), "什么是机器学习？")
    assert [s.node for s in out["steps"]] == ["parse_query", "validate_entities", "configure_team", "route_query", "search_semantic",
                                              "route_query", "rerank_hits", "write_answer"]
    assert all(s.duration_ms >= 0 and s.summary for s in out["steps"])
    assert out["total_duration_ms"] >= sum(s.duration_ms for s in out["steps"][:-1])


async def test_store_outage_raises_instead_of_relaxing(tmp_path: Any) -> None:
    from graphs.stores.base import StoreUnavailable

    with pytest.raises(StoreUnavailable):
        await workflow.ainvoke({"question": "马斯克创办的公司有哪些？"}, context=make_context(tmp_path, ScriptedIndex(fail=True)))
