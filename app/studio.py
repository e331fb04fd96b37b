"""The workflow as LangGraph Studio / ``langgraph dev`` serves it, bound to this process's resources."""

from __future__ import annotations

import asyncio
from functools import lru_cache

from langgraph.graph.state import CompiledStateGraph

from app.container import Resources, build_resources
from app.settings import Settings
from graphs.rag.context import RagContext
from graphs.rag.graph import build_workflow
from graphs.rag.state import InputState, OutputState, RagState

RagWorkflow = CompiledStateGraph[RagState, RagContext, InputState, OutputState]


@lru_cache(maxsize=1)
def shared_resources() -> Resources:
    """The process's resources, built on first use from the environment."""
    return build_resources(Settings())


async def make_graph() -> RagWorkflow:
    """Graph factory named in ``langgraph.json`` (builds the resources off the event loop once)."""
    return await asyncio.to_thread(_bound_workflow)


@lru_cache(maxsize=1)
def _bound_workflow() -> RagWorkflow:
    return build_workflow(default_context=shared_resources().context)
