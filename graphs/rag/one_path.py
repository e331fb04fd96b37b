"""The one-path team (executor-inclusive): the router, the searches, relaxation, the graph route, rerank and
write, wired once by ``add_one_path``. The main workflow adds the master layer around it; the planner's
steps run it alone as the compiled ``step_workflow`` (understand the sub-question, then one adaptive path),
which has no planner node, so a step cannot re-enter the planner."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.rag.context import RagContext
from graphs.rag.edges import ACTION_NODE, TEAM_NODE, after_judge_expansion
from graphs.rag.instrument import timed
from graphs.rag.nodes import (
    expand_graph,
    fuse_scores,
    judge_expansion,
    parse_query,
    relax_constraints,
    rerank_hits,
    route_query,
    search_graph,
    search_hybrid,
    search_semantic,
    search_structured,
    select_evidence,
    validate_entities,
    write_answer,
)
from graphs.rag.registry import describe
from graphs.rag.state import OnePathInput, OutputState, RagState, StepInput

UNDERSTANDING = (parse_query, validate_entities)
"""The stages before any team: what the question asks and which of its entities the store knows."""

ONE_PATH = (
    route_query,
    relax_constraints,
    search_structured,
    search_semantic,
    search_hybrid,
    search_graph,
    judge_expansion,
    expand_graph,
    select_evidence,
    fuse_scores,
    rerank_hits,
    write_answer,
)
"""The one-path team's stages (rerank_hits and write_answer also finish the other teams' work)."""

FINAL = "write_answer"
"""The node that ends every run (it records the run's total duration)."""

# the master and the router go on with a Command: their possible destinations draw their edges
_DESTINATIONS = {"route_query": tuple(ACTION_NODE.values()), "configure_team": tuple(TEAM_NODE.values())}

Builder = StateGraph[RagState, RagContext, Any, OutputState]


def add_nodes(builder: Builder, modules: tuple[ModuleType, ...], default_context: RagContext | None) -> None:
    """Register each node module's function (named like the module), recording its step and summary."""
    for module in modules:
        declared = describe(module)
        name = declared.name
        node = timed(name, declared.run, declared.summarize, last=name == FINAL, default_context=default_context)
        input_schema = StepInput if name == "execute_step" else None
        builder.add_node(name, node, destinations=_DESTINATIONS.get(name),  # type: ignore[call-overload]
                         input_schema=input_schema)


def add_understanding(builder: Builder, default_context: RagContext | None = None) -> None:
    """parse_query → validate_entities, from the start."""
    add_nodes(builder, UNDERSTANDING, default_context)
    builder.add_edge(START, "parse_query")
    builder.add_edge("parse_query", "validate_entities")


def add_one_path(builder: Builder, default_context: RagContext | None = None) -> None:
    """The one-path team's nodes and edges; route_query is its entry, write_answer its end."""
    add_nodes(builder, ONE_PATH, default_context)
    builder.add_edge("relax_constraints", "search_structured")
    for search in ("search_structured", "search_semantic", "search_hybrid"):
        builder.add_edge(search, "route_query")
    builder.add_edge("search_graph", "judge_expansion")
    builder.add_conditional_edges("judge_expansion", after_judge_expansion)
    builder.add_edge("expand_graph", "judge_expansion")
    builder.add_edge("select_evidence", "fuse_scores")
    builder.add_edge("fuse_scores", "route_query")
    builder.add_edge("rerank_hits", "write_answer")
    builder.add_edge(FINAL, END)


def build_step_workflow() -> CompiledStateGraph[RagState, RagContext, OnePathInput, OutputState]:
    """One plan step's run: understand the sub-question, then the one-path team with the executor's
    configuration (given in the input, with its start time)."""
    builder: StateGraph[RagState, RagContext, OnePathInput, OutputState] = StateGraph(
        RagState, context_schema=RagContext, input_schema=OnePathInput, output_schema=OutputState)
    add_understanding(builder)
    builder.add_edge("validate_entities", "route_query")
    add_one_path(builder)
    return builder.compile(name="one-path-step")


step_workflow = build_step_workflow()
