"""judge_expansion: the rule's sufficiency judgments, and the LLM asked only when the rule is unsure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphs.domain import KgNode
from graphs.kg.base import doc_node
from graphs.rag.context import RagLimits
from graphs.rag.nodes import judge_expansion
from graphs.rag.nodes.judge_expansion import rule_judgment
from tests.support.fakes import make_context, runtime
from tests.support.graph_route import llm_json as _llm
from tests.support.graph_route import node, parsed


def _judge_state(nodes: list[KgNode], keywords: list[str], **extra: Any) -> Any:
    return {"question": "q", "parsed": parsed("q", keywords), "graph_nodes": {n.node: n for n in nodes},
            "frontier": [n.node for n in nodes], "depth": 0, **extra}


def test_rule_says_sufficient_when_named_documents_cover_the_question() -> None:
    nodes = [node("nolan", edge="named", text="Christopher Nolan is a film director."),
             node("kalathil", edge="named", text="Sathish Kalathil is a film director.")]
    step = rule_judgment(_judge_state(nodes, ["nolan", "kalathil", "director"]), RagLimits())
    assert step.decision == "sufficient" and step.coverage == 1.0 and "names" in step.reason


def test_rule_expands_when_the_question_is_not_covered() -> None:
    nodes = [node("film", text="Kiss and Tell is a 1945 film starring Shirley Temple.")]
    step = rule_judgment(_judge_state(nodes, ["government", "position", "kiss", "tell"]), RagLimits())
    assert step.decision == "expand" and step.coverage == 0.5 and step.frontier == [doc_node("film")]


def test_rule_expands_covered_but_unconnected_seeds_at_depth_zero() -> None:
    nodes = [node("a", text="alpha beta"), node("b", text="gamma")]
    step = rule_judgment(_judge_state(nodes, ["alpha", "gamma"]), RagLimits())
    assert step.decision == "expand" and "not connected" in step.reason
    linked = _judge_state(nodes, ["alpha", "gamma"], seed_links={doc_node("a"): [doc_node("b")]})
    assert rule_judgment(linked, RagLimits()).decision == "sufficient"


def test_rule_stops_at_max_depth_and_without_a_frontier() -> None:
    nodes = [node("a", text="alpha")]
    assert rule_judgment(_judge_state(nodes, ["zeta"], depth=3), RagLimits()).decision == "stop"
    assert rule_judgment(_judge_state(nodes, ["zeta"], depth=1, max_depth=1), RagLimits()).decision == "stop"
    no_frontier = _judge_state(nodes, ["zeta"], frontier=[])
    step = rule_judgment(no_frontier, RagLimits())
    assert step.decision == "stop" and "threshold" in step.reason
    assert rule_judgment(_judge_state([], ["zeta"], frontier=[]), RagLimits()).decision == "stop"


def test_rule_stops_at_the_result_limit() -> None:
    nodes = [node(f"d{i}", text="alpha") for i in range(5)]
    step = rule_judgment(_judge_state(nodes, ["zeta"]), RagLimits(max_graph_nodes=5))
    assert step.decision == "stop" and "limit" in step.reason


async def test_llm_judges_when_the_rule_is_unsure(tmp_path: Path) -> None:
    nodes = [node("a", text="alpha beta gamma")]
    state = _judge_state(nodes, ["alpha", "beta", "gamma", "delta"])  # coverage 0.75: unsure
    ctx = make_context(tmp_path, llm=_llm('{"decision": "sufficient", "reason": "alpha answers it"}'))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    [step] = out["expansion"]
    assert (step.decision, step.judge, step.reason, out["llm_calls"]) == ("sufficient", "llm", "alpha answers it", 1)


async def test_llm_is_not_asked_when_the_rule_is_clear(tmp_path: Path) -> None:
    state = _judge_state([node("a", text="alpha")], ["alpha", "b1", "b2", "b3"])  # coverage 0.25
    ctx = make_context(tmp_path, llm=_llm("{}"))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    assert out["expansion"][0].judge == "rules" and "llm_calls" not in out


async def test_invalid_llm_judgment_degrades_to_the_rule(tmp_path: Path) -> None:
    state = _judge_state([node("a", text="alpha beta gamma")], ["alpha", "beta", "gamma", "delta"])
    ctx = make_context(tmp_path, llm=_llm("not json"))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    assert out["expansion"][0].judge == "rules" and out["degraded"] == ["judge_expansion"]
