"""expand_graph: one hop of the graph route. Neighbours of the frontier are scored against the question
(a filtered dense + BM25 search over their chunks); the most relevant join the results, and those above
the relevance threshold form the next frontier."""

from __future__ import annotations

import asyncio
import time

from langgraph.runtime import Runtime

from graphs.domain import KgNode, SearchRecord
from graphs.kg.base import doc_id_of
from graphs.rag.context import RagContext
from graphs.rag.expansion import Reach, make_node, neighbor_documents, relevance, score_documents, weights_of
from graphs.rag.question import lexical_query
from graphs.rag.registry import NodeSpec
from graphs.rag.state import RagState, RagUpdate

SPEC = NodeSpec(purpose="expand one hop through the knowledge graph", record="searches")


async def expand_graph(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Expand the frontier by one hop, keeping a visited set."""
    ctx = runtime.context
    assert ctx.kg is not None, "the graph route needs a knowledge graph"
    kg, limits, weights = ctx.kg, ctx.limits, weights_of(state)
    nodes = dict(state.get("graph_nodes", {}))
    frontier = state.get("frontier", [])[: limits.frontier_k]
    hop = state.get("depth", 0) + 1
    vector = state["query_vector"]
    text = lexical_query(state)
    started = time.perf_counter()

    def reach() -> dict[str, tuple[str, Reach]]:
        found: dict[str, tuple[str, Reach]] = {}
        for parent in frontier:
            for r in neighbor_documents(kg, parent, limits.neighbor_k):
                if r.doc not in nodes and r.doc not in found:
                    found[r.doc] = (parent, r)
        return found

    found = await asyncio.to_thread(reach)
    doc_ids = [d for n in found if (d := doc_id_of(n))]
    scored = await asyncio.to_thread(
        score_documents, ctx.index, vector, text, doc_ids, state.get("bm25_scale", 1.0), filling=ctx.filling
    ) if doc_ids else {}
    fresh: list[KgNode] = []
    for n, (parent, r) in found.items():
        doc = doc_id_of(n)
        if doc is None or doc not in scored:
            continue  # a document the graph knows but the index no longer has
        path = [*nodes[parent].path, *([r.via] if r.via else []), n] if parent in nodes else [parent, n]
        fresh.append(make_node(weights, doc, scored[doc][0], hop=hop, seed=False, via=parent, edge=r.edge, path=path))
    best = max((relevance(weights, g.vector, g.fts) for g in nodes.values() if g.doc_id and g.seed), default=0.0)
    fresh.sort(key=lambda g: (-relevance(weights, g.vector, g.fts), g.node))
    kept = [g for g in fresh if relevance(weights, g.vector, g.fts) >= limits.keep_relevance * best][: limits.expand_k]
    nodes.update({g.node: g for g in kept})
    next_frontier = [g.node for g in kept if relevance(weights, g.vector, g.fts) >= limits.min_relevance * best]
    record = SearchRecord(channel="graph", filter=f"{len(doc_ids)} neighbour document(s) of {len(frontier)} node(s)",
                          count=len(kept), duration_ms=round((time.perf_counter() - started) * 1000, 3))
    return {"graph_nodes": nodes, "frontier": next_frontier[: limits.frontier_k], "depth": hop,
            "searches": [record]}


def summarize(update: RagUpdate) -> str:
    """Say what the hop added."""
    depth = update["depth"]
    added = [n.name for n in update["graph_nodes"].values() if n.hop == depth and n.doc_id]
    return f"hop {depth}: {len(added)} new document(s){': ' + ', '.join(added[:5]) if added else ''}; " \
           f"next frontier {len(update['frontier'])}"

