"""The graph resource: the workflow's nodes and edges (the page draws routes on it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
)


class GraphNode(Wire):
    id: str = Field(description="The node's name, as in workflow.steps[].node (__start__ and __end__ included).")
    label: str = Field(default="", description="Its name on the page: the node's declared label (start, end).")
    uses_llm: bool = Field(default=False, description="The node calls the LLM when one is configured (its "
                           "`degraded` entry is an LLM failure).")
    purpose: str = Field(default="", description="What the step is for, as the node declares it.")


class GraphEdge(Wire):
    source: str
    target: str
    conditional: bool = Field(description="Chosen by a routing function (else always taken).")


class GraphStructure(Wire):
    """The LangGraph state machine's nodes and edges, for drawing a run's route on it."""

    success: Literal[True] = True
    nodes: list[GraphNode]
    edges: list[GraphEdge]
