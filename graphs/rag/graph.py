"""Wiring of the adaptive entity-routing graph."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.rag.context import RagContext
from graphs.rag.edges import (
    ACTION_NODE,
    after_judge_expansion,
    after_monitor_sufficiency,
    after_plan_query,
    after_reflect,
)
from graphs.rag.instrument import timed
from graphs.rag.nodes import (
    configure_team,
    execute_step,
    expand_graph,
    fuse_scores,
    judge_expansion,
    monitor_sufficiency,
    parse_query,
    plan_query,
    reflect,
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
from graphs.rag.nodes.configure_team import TEAM_NODE
from graphs.rag.state import InputState, OutputState, RagState, StepInput

NODES = (
    parse_query,
    validate_entities,
    configure_team,
    route_query,
    plan_query,
    execute_step,
    monitor_sufficiency,
    reflect,
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


def build_graph(
    default_context: RagContext | None = None,
) -> CompiledStateGraph[RagState, RagContext, InputState, OutputState]:
    """Build and compile the graph (no checkpointer: each request is one run).

    With ``default_context`` the graph carries its dependencies (for LangGraph Studio, which
    cannot send live clients) and declares no context schema.
    """
    builder: StateGraph[RagState, RagContext, InputState, OutputState] = StateGraph(
        RagState,
        context_schema=None if default_context else RagContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    for module in NODES:
        name = module.__name__.rsplit(".", 1)[-1]
        node = timed(name, getattr(module, name), module.summarize, last=name == "write_answer",
                     default_context=default_context)
        # the master and the router go on with a Command: their possible destinations draw their edges
        destinations = {"route_query": tuple(ACTION_NODE.values()), "configure_team": tuple(TEAM_NODE.values())}
        input_schema = StepInput if name == "execute_step" else None
        builder.add_node(name, node, destinations=destinations.get(name),  # type: ignore[call-overload]
                         input_schema=input_schema)
    builder.add_edge(START, "parse_query")
    builder.add_edge("parse_query", "validate_entities")
    builder.add_edge("validate_entities", "configure_team")
    builder.add_conditional_edges("plan_query", after_plan_query, ["execute_step", "rerank_hits"])
    builder.add_edge("execute_step", "monitor_sufficiency")
    builder.add_conditional_edges("monitor_sufficiency", after_monitor_sufficiency,
                                  ["execute_step", "reflect", "rerank_hits"])
    builder.add_conditional_edges("reflect", after_reflect, ["execute_step", "rerank_hits"])
    builder.add_edge("relax_constraints", "search_structured")
    for search in ("search_structured", "search_semantic", "search_hybrid"):
        builder.add_edge(search, "route_query")
    builder.add_edge("search_graph", "judge_expansion")
    builder.add_conditional_edges("judge_expansion", after_judge_expansion)
    builder.add_edge("expand_graph", "judge_expansion")
    builder.add_edge("select_evidence", "fuse_scores")
    builder.add_edge("fuse_scores", "route_query")
    builder.add_edge("rerank_hits", "write_answer")
    builder.add_edge("write_answer", END)
    return builder.compile(name="adaptive-entity-rag")


graph = build_graph()
