"""``GET /api/adaptive-entity-rag/graph``: the state machine's nodes and edges (the page draws routes on it)."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter

from app.schemas import API_PATH, GraphEdge, GraphNode, GraphStructure
from graphs.rag.graph import workflow

router = APIRouter(prefix=API_PATH, tags=["adaptive-entity-rag"])


@cache
def structure() -> GraphStructure:
    """The compiled workflow's nodes and edges (it is built once, at import: so is this)."""
    drawable = workflow.get_graph()
    return GraphStructure(
        nodes=[GraphNode(id=node_id) for node_id in drawable.nodes],
        edges=[GraphEdge(source=e.source, target=e.target, conditional=e.conditional) for e in drawable.edges],
    )


@router.get("/graph")
async def graph_structure() -> GraphStructure:
    """The graph's nodes (as named in ``workflow.steps``) and edges, conditional ones marked."""
    return structure()
