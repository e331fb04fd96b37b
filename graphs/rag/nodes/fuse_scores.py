"""fuse_scores: second-stage retrieval and cross-layer score fusion. The chunks of the selected evidence
(or of every document reached, without a selection) are retrieved under the question and scored
``vector·v + fts·f + graph·g``; duplicates by chunk are dropped. Selected evidence comes first, in the
order of its reasoning path, then the other results by fused score."""

from __future__ import annotations

import asyncio
import time

from langgraph.runtime import Runtime

from graphs.domain import FusionWeights, Hit, KgNode, SearchRecord
from graphs.rag.context import RagContext
from graphs.rag.expansion import doc_nodes, score_documents, weights_of
from graphs.rag.registry import NodeSpec
from graphs.rag.search import run_lexical_text
from graphs.rag.state import RagState, RagUpdate


def arithmetic(w: FusionWeights, vector: float, fts: float, graph: float) -> str:
    """``0.5×vector 0.700 + 0.2×fts 0.400 + 0.3×graph 0.250 = 0.505``."""
    return (f"{w.vector:g}×vector {vector:.3f} + {w.fts:g}×fts {fts:.3f} + {w.graph:g}×graph {graph:.3f} = "
            f"{w.combine(vector, fts, graph):.3f}")


def explain(w: FusionWeights, node: KgNode, vector: float, fts: float, rank: int | None) -> str:
    """The fused score's arithmetic and how the node was reached."""
    how = "seed" + (" named by the question" if node.edge == "named" else "") if node.seed else (
        f"hop {node.hop} from {node.via} via {node.edge}"
    )
    role = f"evidence #{rank}, " if rank is not None else ""
    return f"{role}{how}: {arithmetic(w, vector, fts, node.graph)}"


def fused_hit(w: FusionWeights, node: KgNode, hit: Hit, vector: float, fts: float, rank: int | None) -> Hit:
    """A result carrying its components, hop distance and path."""
    return hit.model_copy(update={
        "score": round(w.combine(vector, fts, node.graph), 6), "channel": "graph", "dense_score": round(vector, 6),
        "bm25_score": round(fts, 6), "graph_score": node.graph, "hop": node.hop, "path": node.path,
        "relevance_explanation": explain(w, node, vector, fts, rank),
    })


SPEC = NodeSpec(purpose="fuse vector, BM25 and graph scores")


async def fuse_scores(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Retrieve the chunks of the chosen documents and rank them by fused score."""
    ctx = runtime.context
    w = weights_of(state)
    nodes = state.get("graph_nodes", {})
    evidence = state.get("evidence")
    selected = [s.node for s in evidence.selected_nodes] if evidence and evidence.selected_nodes else []
    docs = doc_nodes(nodes)
    by_node = {n.node: n for n in docs}
    chosen = [by_node[s] for s in selected if s in by_node] or docs
    doc_ids = [n.doc_id for n in chosen if n.doc_id]
    started = time.perf_counter()
    text = await run_lexical_text(ctx, state)  # the seed search's, carried in the state
    scored = await asyncio.to_thread(
        score_documents, ctx.index, state["query_vector"], text, doc_ids,
        state.get("bm25_scale", 1.0), chunks=True, filling=ctx.filling,
    )
    hits: list[Hit] = []
    seen: set[str] = set()
    ordered = chosen if selected else sorted(chosen, key=lambda n: -n.combined)
    for rank, node in enumerate(ordered, start=1):
        for s in scored.get(node.doc_id or "", []):
            if s.hit.id not in seen:
                seen.add(s.hit.id)
                hits.append(fused_hit(w, node, s.hit, s.vector, s.fts, rank if selected else None))
    if selected:
        # the rest of what the expansion reached, after the evidence, by fused score
        for node in docs:
            if node.node not in selected and node.chunk_id and node.chunk_id not in seen:
                seen.add(node.chunk_id)
                base = Hit(id=node.chunk_id, doc_id=node.doc_id or "", title=node.name, text=node.text,
                           score=node.combined, channel="graph")
                hits.append(fused_hit(w, node, base, node.vector, node.fts, None))
    # fill from the breadth search (graph score 0) when the graph reached fewer documents than asked for
    top_k = state.get("top_k", ctx.limits.top_k)
    present = {h.doc_id for h in hits}
    for h in state.get("breadth", []):
        if len(present) >= top_k:
            break
        if h.doc_id not in present:
            present.add(h.doc_id)
            v, f = h.dense_score or 0.0, h.bm25_score or 0.0
            hits.append(h.model_copy(update={
                "score": round(w.combine(v, f, 0.0), 6), "channel": "graph", "graph_score": 0.0, "hop": None,
                "relevance_explanation": f"breadth-search result outside the graph: {arithmetic(w, v, f, 0.0)}",
            }))
    record = SearchRecord(channel="graph", filter=f"chunks of {len(doc_ids)} selected document(s)",
                          count=len(scored), duration_ms=round((time.perf_counter() - started) * 1000, 3))
    return {"hits": hits, "searches": [record]}


def summarize(update: RagUpdate) -> str:
    """Describe the fused list."""
    hits = update["hits"]
    top = ", ".join(f"{h.title} {h.score:.2f} (hop {h.hop})" for h in hits[:3])
    return f"{len(hits)} chunk(s) fused{': ' + top if top else ''}"
