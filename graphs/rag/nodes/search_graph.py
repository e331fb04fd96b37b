"""search_graph: the breadth step of the graph route. A global dense + BM25 search and a lexical match
of the question against node names (document titles, entity names) give the seed nodes (depth 0)."""

from __future__ import annotations

import asyncio
import time

from langgraph.runtime import Runtime

from graphs.domain import Hit, KgNode, SearchRecord
from graphs.kg.base import doc_id_of, doc_node, entity_node
from graphs.rag.context import RagContext
from graphs.rag.expansion import (
    ScoredDocument,
    make_node,
    neighborhoods,
    relevance,
    score_documents,
    weights_of,
)
from graphs.rag.question import validated_names
from graphs.rag.registry import NodeSpec
from graphs.rag.search import dense_search, embed_question, run_lexical_text
from graphs.rag.state import RagState, RagUpdate
from graphs.stores import fusion

SPEC = NodeSpec(purpose="run the graph search", record="searches", search_channel="graph")


async def search_graph(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Seed the expansion: the best ``seed_k`` documents of a global search plus the documents and
    entities the question names."""
    ctx = runtime.context
    if ctx.kg is None:
        raise RuntimeError("the graph route needs a knowledge graph (RagContext.kg)")
    kg, limits, weights = ctx.kg, ctx.limits, weights_of(state)
    vector = await embed_question(ctx, state)
    text = await run_lexical_text(ctx, state)
    names = validated_names(state)
    started = time.perf_counter()

    def breadth() -> tuple[list[Hit], list[Hit], list[tuple[str, str]], dict[str, str]]:
        k = limits.candidate_k
        # the chunks of a document whose vectors still fill are seeds too (``dense_search``): an escalation from
        # the hybrid search that found them right after an upload came back empty and replaced its hits
        dense = dense_search(ctx, vector, text, None, k)
        bm25 = ctx.index.search_bm25(text, filter=None, limit=k, raw=True)
        named = kg.find_nodes(" ".join([state["question"], *names]))
        # entity nodes the question names (by name or through its validated entities), with display names
        entities = dict.fromkeys([n for n, _ in named if n.startswith("entity:")] + [entity_node(n) for n in names])
        shown = {e: name for e in entities if (name := kg.name(e)) is not None}
        return dense, bm25, named, shown

    dense, bm25, named, entity_seeds = await asyncio.to_thread(breadth)
    scale = max((h.bm25_score or 0.0 for h in bm25), default=0.0) or 1.0
    lexical = {h.id: (h.bm25_score or 0.0) / scale for h in bm25}
    best: dict[str, ScoredDocument] = {}
    for h in fusion.rrf(dense, bm25, limit=len(dense) + len(bm25), question=state["question"]):
        if h.doc_id not in best:
            best[h.doc_id] = ScoredDocument(h, max(0.0, h.dense_score or 0.0), min(1.0, lexical.get(h.id, 0.0)))
    seeds = list(best)[: limits.seed_k]
    named_docs = list(dict.fromkeys(d for node, _ in named if (d := doc_id_of(node))))
    missing = [d for d in named_docs if d not in best]
    if missing:
        extra = await asyncio.to_thread(score_documents, ctx.index, vector, text, missing, scale,
                                      filling=ctx.filling)
        best.update({d: s[0] for d, s in extra.items()})
    nodes: dict[str, KgNode] = {}
    for d in seeds:
        node = make_node(weights, d, best[d], hop=0, seed=True, via=None, edge="search")
        nodes[node.node] = node
    for d in named_docs:  # a document the question names is named evidence, even when the search found it too
        node = make_node(weights, d, best.get(d), hop=0, seed=True, via=None, edge="named")
        nodes[node.node] = node
    for e, name in entity_seeds.items():
        nodes.setdefault(e, KgNode(node=e, name=name, hop=0, seed=True, edge="named", path=[e]))
    seed_docs = [n for n, v in nodes.items() if v.doc_id]
    near = await asyncio.to_thread(neighborhoods, kg, seed_docs, limits.neighbor_k)
    seed_links = {n: [m for m in seed_docs if m in near[n]] for n in seed_docs}
    record = SearchRecord(channel="graph", filter=None, count=len(dense) + len(bm25),
                          duration_ms=round((time.perf_counter() - started) * 1000, 3))
    best_rel = max((relevance(weights, n.vector, n.fts) for n in nodes.values() if n.doc_id), default=0.0)
    frontier = [n for n, v in nodes.items() if not v.doc_id or relevance(weights, v.vector, v.fts) >= limits.min_relevance * best_rel]
    # the rest of the breadth search: not seeds, but what fills the results when the graph finds few
    rest = [s.hit.model_copy(update={"dense_score": s.vector, "bm25_score": s.fts})
               for d, s in best.items() if doc_node(d) not in nodes]
    return {"graph_nodes": nodes, "frontier": frontier, "depth": 0, "bm25_scale": scale, "query_vector": vector,
            "lexical_text": text, "searches": [record], "hits": [], "breadth": rest, "seed_links": seed_links}


def summarize(update: RagUpdate) -> str:
    """Name the seeds."""
    nodes = update["graph_nodes"].values()
    docs = [n.name for n in nodes if n.doc_id]
    ents = [n.name for n in nodes if not n.doc_id]
    out = f"{len(docs)} seed document(s): {', '.join(docs[:5])}"
    if ents:
        out += f"; named entities: {', '.join(ents[:5])}"
    return out
