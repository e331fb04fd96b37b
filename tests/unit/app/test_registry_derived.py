"""What the service derives from the node registry follows a new node's declaration: metrics, the response
note and the trajectories (the node here is written as i24-answer's ``check_answer`` would be)."""

from __future__ import annotations

import types
from collections.abc import Mapping

import pytest

from app.observability.metrics import Metrics
from app.observability.trajectories import build_trajectory
from app.schemas import to_response
from graphs.domain import ParsedQuery, RoutingDecision, WorkflowStep
from graphs.rag import registry as registry_module
from graphs.rag.registry import RegisteredNode, describe, registry
from tests.support.nodes import check_answer_module


@pytest.fixture
def with_check_answer(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = check_answer_module()
    extended: Mapping[str, RegisteredNode] = {**registry(), "check_answer": describe(module)}
    monkeypatch.setattr(registry_module, "registry", lambda: extended)
    return module


def test_a_new_llm_node_counts_as_an_llm_failure(with_check_answer: types.ModuleType) -> None:
    metrics = Metrics()
    metrics.degradation("check_answer")
    metrics.degradation("rerank_hits")
    failures = {s.labels["node"]: s.value for family in metrics.llm_failures.collect() for s in family.samples
                if s.name.endswith("_total")}
    assert failures == {"check_answer": 1.0}


def test_a_new_llm_node_is_named_in_the_response_note(with_check_answer: types.ModuleType) -> None:
    out = {"parsed": ParsedQuery(original_query="q"), "degraded": ["rerank_hits", "check_answer"]}
    note = to_response(out, "tiny").llm.note
    assert note == "LLM tiny configured but failed in check_answer: rule-based fallback ran"


def test_a_new_node_is_described_by_its_declared_purpose_and_record(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("graphs.rag.nodes.reroute")
    module.reroute = lambda state, runtime: None  # type: ignore[attr-defined]
    module.summarize = lambda update: "rerouted"  # type: ignore[attr-defined]
    module.SPEC = registry_module.NodeSpec(purpose="route again", record="decisions")  # type: ignore[attr-defined]
    extended = {**registry(), "reroute": describe(module), "check_answer": describe(check_answer_module())}
    monkeypatch.setattr(registry_module, "registry", lambda: extended)
    steps = [WorkflowStep(node=n, started=f"2025-01-01T00:00:0{i}+00:00", duration_ms=1.0, summary=f"{n} done")
             for i, n in enumerate(("reroute", "check_answer"))]
    t = build_trajectory("run-new", {"question": "q", "steps": steps,
                                     "decisions": [RoutingDecision(action="semantic_search", reason="why not")]})
    assert [(s.node, s.thought, s.action, s.decision_point, s.decision) for s in t.steps] == [
        ("reroute", "why not", "reroute(semantic_search)", "D1", "semantic_search"),
        ("check_answer", "check the answer against its evidence", "check_answer", None, None),
    ]
