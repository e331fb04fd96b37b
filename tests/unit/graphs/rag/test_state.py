"""The state's views: OutputState derived from RagState, node updates typed by RagState's keys."""

from __future__ import annotations

import typing
from typing import get_type_hints

from langgraph.types import Command

from graphs.rag.graph import workflow
from graphs.rag.registry import registry
from graphs.rag.state import INTERNAL, OutputState, RagState, RagUpdate

# What the graph returned before OutputState was derived (the 33 keys it listed by hand).
LISTED = {
    "question", "parsed", "entities", "constraints", "decisions", "relaxed", "searches", "hits", "expansion",
    "evidence", "graph_nodes", "fusion_weights", "team_config", "plan", "outcomes", "sufficiency", "reflections",
    "possibly_incomplete", "contradictions", "ranked", "reranker", "answer", "answer_span", "answerability",
    "related", "corrections", "citations", "parts", "answer_mode", "status", "steps", "total_duration_ms", "degraded",
    "llm_calls",
}


def test_the_output_is_the_state_without_its_internal_keys() -> None:
    state = get_type_hints(RagState, include_extras=True)
    output = get_type_hints(OutputState, include_extras=True)
    assert set(output) == set(state) - INTERNAL == LISTED
    assert all(output[key] == state[key] for key in output)  # the same types, reducers included
    assert not OutputState.__total__ and OutputState.__required_keys__ == frozenset()


def test_studio_reads_the_output_schema() -> None:
    schema = workflow.get_output_jsonschema()
    assert set(schema["properties"]) == LISTED
    assert schema["properties"]["answer"] == {"title": "Answer", "type": "string"}


def test_a_node_update_has_the_state_s_keys_and_types() -> None:
    assert get_type_hints(RagUpdate, include_extras=True) == get_type_hints(RagState, include_extras=True)
    assert not RagUpdate.__total__


def test_every_node_returns_a_typed_update() -> None:
    for name, node in registry().items():
        returned = get_type_hints(node.run)["return"]
        assert returned is RagUpdate or typing.get_origin(returned) is Command, name
