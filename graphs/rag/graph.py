"""Wiring of the adaptive entity-routing workflow (the LangGraph state machine): the master layer around the
one-path team."""

from __future__ import annotations

from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.rag.context import RagContext
from graphs.rag.edges import after_monitor_sufficiency, after_plan_query, after_reflect
from graphs.rag.nodes import configure_team, execute_step, monitor_sufficiency, plan_query, reflect
from graphs.rag.one_path import ONE_PATH, UNDERSTANDING, Builder, add_nodes, add_one_path, add_understanding
from graphs.rag.state import InputState, OutputState, RagState

MASTER = (configure_team, plan_query, execute_step, monitor_sufficiency, reflect)
"""The master layer's stages: the team choice, and the planner team's plan, steps, monitor and reflection."""

NODES = (*UNDERSTANDING, *MASTER, *ONE_PATH)
"""Every node of the workflow."""


def build_workflow(
    default_context: RagContext | None = None,
) -> CompiledStateGraph[RagState, RagContext, InputState, OutputState]:
    """Build and compile the workflow (no checkpointer: each request is one run).

    With ``default_context`` the workflow carries its dependencies (for LangGraph Studio, which
    cannot send live clients) and declares no context schema.
    """
    builder: Builder = StateGraph(
        RagState,
        context_schema=None if default_context else RagContext,
        input_schema=InputState,
        output_schema=OutputState,
    )
    add_understanding(builder, default_context)
    add_nodes(builder, MASTER, default_context)
    builder.add_edge("validate_entities", "configure_team")
    builder.add_conditional_edges("plan_query", after_plan_query, ["execute_step", "rerank_hits"])
    builder.add_edge("execute_step", "monitor_sufficiency")
    builder.add_conditional_edges("monitor_sufficiency", after_monitor_sufficiency,
                                  ["execute_step", "reflect", "rerank_hits"])
    builder.add_conditional_edges("reflect", after_reflect, ["execute_step", "rerank_hits"])
    add_one_path(builder, default_context)
    return builder.compile(name="adaptive-entity-rag")


workflow = build_workflow()
