"""The node registry: every wired node declares itself, and what the service derives follows the declarations."""

from __future__ import annotations

import types
from typing import Any, get_args, get_type_hints

import pytest
from langgraph.graph import END, START, StateGraph

from graphs.rag.graph import NODES, graph
from graphs.rag.one_path import add_nodes
from graphs.rag.registry import NodeRecord, NodeSpec, describe, llm_nodes, registry, spec_of
from graphs.rag.state import RagState
from tests.support.nodes import check_answer_module


def test_the_registered_modules_are_the_wired_nodes() -> None:
    wired = {describe(m).name for m in NODES}
    assert set(registry()) == wired
    assert set(graph.get_graph().nodes) - {START, END} == wired


def test_each_node_declares_a_purpose_and_a_summary() -> None:
    for name, node in registry().items():
        assert node.spec.purpose, name
        assert node.run.__name__ == name
        assert callable(node.summarize)
        assert node.label == name  # no node renames itself on the page (yet)


def test_the_llm_nodes_are_those_that_declare_it() -> None:
    assert llm_nodes() == {"parse_query", "write_answer", "judge_expansion", "select_evidence", "plan_query",
                           "monitor_sufficiency"}
    assert spec_of("route_query") == NodeSpec(purpose="choose the next retrieval action", record="decisions")
    assert spec_of("__start__") is None


def test_a_module_without_a_spec_is_refused() -> None:
    module = types.ModuleType("graphs.rag.nodes.undeclared")
    module.undeclared = lambda state, runtime: None  # type: ignore[attr-defined]
    module.summarize = lambda update: ""  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="undeclared declares no SPEC"):
        describe(module)


# -- adding a node: its module and its line in the wiring -----------------------------------------------


async def test_a_new_node_is_wired_with_its_step_summary() -> None:
    module = check_answer_module()
    builder: StateGraph[Any, Any, Any, Any] = StateGraph(RagState)
    add_nodes(builder, (module,), None)
    builder.add_edge(START, "check_answer")
    builder.add_edge("check_answer", END)
    out = await builder.compile().ainvoke({"question": "q"})
    assert [(s.node, s.summary) for s in out["steps"]] == [("check_answer", "checked (1 degraded)")]


def test_each_declared_record_is_a_key_of_the_state() -> None:
    keys = set(get_type_hints(RagState))
    assert set(get_args(NodeRecord)) <= keys
    for name, node in registry().items():
        assert node.spec.search_channel is None or node.spec.record == "searches", name
