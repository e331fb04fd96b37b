"""The graph resource: the workflow's nodes and edges (the page draws routes on it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
)


class GraphNode(Wire):
    id: str = Field(description="The node's name, as in workflow.steps[].node (__start__ and __end__ included).")


class GraphEdge(Wire):
    source: str
    target: str
    conditional: bool = Field(description="Chosen by a routing function (else always taken).")


class GraphStructure(Wire):
    """The LangGraph state machine's nodes and edges, for drawing a run's route on it."""

    success: Literal[True] = True
    nodes: list[GraphNode]
    edges: list[GraphEdge]
