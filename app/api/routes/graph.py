"""``GET /api/adaptive-entity-rag/graph``: the state machine's nodes and edges (the page draws routes on it)."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from app.schemas import API_PATH, GraphEdge, GraphNode, GraphStructure
from graphs.rag.graph import workflow
from graphs.rag.registry import registry

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])


@cache
def structure() -> GraphStructure:
    """The compiled workflow's nodes and edges (it is built once, at import: so is this)."""
    drawable = workflow.get_graph()
    return GraphStructure(
        nodes=[_node(node_id) for node_id in drawable.nodes],
        edges=[GraphEdge(source=e.source, target=e.target, conditional=e.conditional) for e in drawable.edges],
    )


def _node(node_id: str) -> GraphNode:
    """A node as the page draws it: what its module declares (LangGraph's start and end have no module)."""
    declared = registry().get(node_id)
    if declared is None:
        return GraphNode(id=node_id, label=node_id.strip("_"))
    return GraphNode(id=node_id, label=declared.label, uses_llm=declared.spec.uses_llm,
                     purpose=declared.spec.purpose)


@router.get("/graph")
async def graph_structure() -> GraphStructure:
    """The graph's nodes (as named in ``workflow.steps``) and edges, conditional ones marked."""
    return structure()
