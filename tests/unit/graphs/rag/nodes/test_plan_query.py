"""plan_query: the LLM's plan checked (an invalid one falls back to the rules); a comparison planned by the rules."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage

from graphs.rag.nodes import plan_query
from tests.support.fakes import ToolCallingFakeChatModel, make_context, runtime
from tests.support.plans import parsed


async def test_llm_plan_is_used_and_an_invalid_one_falls_back_to_rules(tmp_path: Path) -> None:
    def draft(steps: list[dict[str, Any]]) -> AIMessage:
        return AIMessage(content="", tool_calls=[{"name": "PlanDraft", "id": "1",
                                                  "args": {"sub_questions": steps, "reason": "split"}}])

    q = "Who directed the film in which the actress who played Corliss Archer made her debut?"
    state = {"question": q, "parsed": parsed(q, "Corliss Archer", intent="factual", complexity="complex", nesting=1.0),
             "entities": []}
    good = draft([{"id": "q1", "question": "Who played Corliss Archer?", "strategy": "hybrid", "depends_on": []},
                  {"id": "q2", "question": "Debut film of that actress", "strategy": "graph", "depends_on": ["q1"]}])
    llm = ToolCallingFakeChatModel(messages=iter([good]))
    out = await plan_query.plan_query(state, runtime(make_context(tmp_path, llm=llm)))  # type: ignore[arg-type]
    plan = out["plan"]
    assert plan.planner == "llm" and [s.depends_on for s in plan.sub_questions] == [[], ["q1"]]
    assert [s.entity for s in plan.sub_questions] == ["Corliss Archer", None]  # anchored to the entity it names
    assert plan.sub_questions[1].strategy == "hybrid"  # no knowledge graph in this context
    assert out["llm_calls"] == 1
    cyclic = draft([{"id": "q1", "question": "a", "strategy": "hybrid", "depends_on": ["q2"]},
                    {"id": "q2", "question": "b", "strategy": "hybrid", "depends_on": ["q1"]}])
    llm = ToolCallingFakeChatModel(messages=iter([cyclic]))
    out = await plan_query.plan_query(state, runtime(make_context(tmp_path, llm=llm)))  # type: ignore[arg-type]
    assert out["plan"].planner == "rules" and out["plan"].pattern == "bridge"
    assert "cycle" in out["plan"].reason and out["degraded"] == ["plan_query"]


async def test_a_comparison_is_planned_by_the_rules_even_with_an_llm(tmp_path: Path) -> None:
    q = "Are Christopher Nolan and Sathish Kalathil both film directors?"
    state = {"question": q, "parsed": parsed(q, "Christopher Nolan", "Sathish Kalathil"), "entities": []}
    llm = ToolCallingFakeChatModel(messages=iter([]))  # any call would fail: none is made
    out = await plan_query.plan_query(state, runtime(make_context(tmp_path, llm=llm)))  # type: ignore[arg-type]
    assert out["plan"].planner == "rules" and out["plan"].pattern == "comparison" and "llm_calls" not in out


async def test_a_message_that_asks_two_things_is_planned_by_the_rules_one_step_per_part(tmp_path: Path) -> None:
    q = "When does the Ardmore museum open on Mondays, and how much is a family ticket?"
    state = {"question": q, "parsed": parsed(q, "Ardmore", intent="factual"), "entities": []}
    llm = ToolCallingFakeChatModel(messages=iter([]))  # any call would fail: none is made
    out = await plan_query.plan_query(state, runtime(make_context(tmp_path, llm=llm)))  # type: ignore[arg-type]
    plan = out["plan"]
    assert (plan.planner, plan.pattern, "llm_calls" in out) == ("rules", "compound", False)
    assert [(s.id, s.question, s.depends_on) for s in plan.sub_questions] == [
        ("q1", "When does the Ardmore museum open on Mondays?", []),
        ("q2", "How much is a family ticket for the Ardmore museum?", [])]
    assert plan_query.summarize(out).startswith("compound plan (rules): q1 [hybrid] When does")
