"""rerank_hits: reorder the hits with the configured reranker and explain each score, one chunk a document except
that a weak document's slot goes to a strong document's next chunk (``share_slots``); then the second hop
of a bridge question: the document that a top passage names in the sentence repeating the question's
relation joins the results right after that passage (``graphs.rag.expansion.bridge_candidates``)."""

from __future__ import annotations

import asyncio

from langgraph.runtime import Runtime

from graphs.domain import Hit
from graphs.rag.answer.evidence import title_named, title_names
from graphs.rag.context import RagContext
from graphs.rag.expansion import (
    MAX_CHAIN,
    Bridge,
    bridge_candidates,
    chain_terms,
    chosen_bridges,
    named_in,
    promote_bridge,
    score_documents,
)
from graphs.rag.question import lexical_query, state_terms
from graphs.rag.registry import NodeSpec
from graphs.rag.relation_cues import bridge_kind, bridge_terms, describes_by_clause
from graphs.rag.search import embed_question, run_lexical_text
from graphs.rag.state import RagState, RagUpdate
from graphs.rerankers import rerank_or_fallback
from graphs.text.normalize import normalize


def dedupe(hits: list[Hit]) -> list[Hit]:
    """Keep the first (best-ranked) chunk of each document, so top_k counts distinct documents."""
    seen: set[str] = set()
    out = []
    for h in hits:
        if h.doc_id not in seen:
            seen.add(h.doc_id)
            out.append(h)
    return out


def further_chunks(hits: list[Hit]) -> list[Hit]:
    """The chunks ``dedupe`` leaves out (each document's second and later), in search order."""
    kept = {h.id for h in dedupe(hits)}
    return [h for h in hits if h.id not in kept]


def share_slots(ranked: list[Hit], further: list[Hit], top_k: int, share: float) -> list[Hit]:
    """The top ``top_k`` results with the weak documents' slots shared: a result whose score is under ``share`` of
    the best one's is weak, and its slot (like a slot no document filled) goes first to the next chunk, in search
    order, of a document that is not weak. In a user's long file the chunk naming the file's subject (its title,
    company, year) takes the document's one place, while the chunk stating the asked fact scores lower and was
    dropped for a document far behind; a document close to the best keeps its place (a question about two
    documents keeps both). The strong documents keep their order, the added chunks follow, then the weak
    documents still fitting. ``share`` 0: no document is weak, only the slots none filled are shared."""
    ranked = ranked[:top_k]
    if not ranked or not further:
        return ranked
    best = max(_score(h) for h in ranked)
    strong = [h for h in ranked if share <= 0 or (best > 0 and _score(h) >= share * best)]
    weak = [h for h in ranked if h not in strong]
    place = {h.doc_id: n for n, h in enumerate(strong, start=1)}
    added = [h.model_copy(update={"relevance_explanation": (
        f"a further chunk of result #{place[h.doc_id]}'s document, in a place no stronger document took")})
        for h in further if h.doc_id in place][: top_k - len(strong)]
    return [*strong, *added, *weak][:top_k]


def _score(hit: Hit) -> float:
    return hit.reranked_score if hit.reranked_score is not None else hit.score


def ordered_upstream(state: RagState, hits: list[Hit]) -> str | None:
    """The name under which results already ordered upstream keep their order, or None. A plan's results
    are each step's reranked best, interleaved so every sub-question is represented ("plan-merge"); the
    graph route fused dense, BM25 and graph scores and ordered the evidence ("graph-fusion"). The feature
    reranker would undo either (it has no graph feature and would rank one entity above the other); model
    rerankers still rerank."""
    if not hits:
        return None
    if "plan" in state:
        return "plan-merge"
    return "graph-fusion" if hits[0].channel == "graph" else None


async def second_hop(state: RagState, ctx: RagContext, ranked: list[Hit], top_k: int) -> list[Hit]:
    """The ranking with the best bridge document promoted (for a comparison, each side's best; see
    ``bridge_candidates`` and ``chosen_bridges``), else unchanged.

    Not after a filtered (structured) search, whose results all meet the question's constraints and the bridge
    document need not; not without a knowledge graph. A store failure while fetching the bridge's passage
    propagates (never a silently shorter list)."""
    limits = ctx.limits
    filtered = any(r.channel == "structured" for r in state.get("searches", []))
    if ctx.kg is None or top_k < 2 or not ranked or filtered or limits.bridge_anchors <= 0:
        return ranked
    kg, question = ctx.kg, state["question"]
    terms = bridge_terms(state_terms(state), question)  # "father-in-law" whole, where the parser split it
    anchors = ranked[: limits.bridge_anchors]
    # documents already among the results stay candidates: the best bridge may be there already, and then it
    # moves up and keeps its place instead of a weaker one pushing it out
    candidates = await asyncio.to_thread(bridge_candidates, kg, terms, anchors, ())
    comparison = state["parsed"].intent == "comparison"
    named = [a.doc_id for a in anchors if named_in(a.title, question)]
    bridges = chosen_bridges(candidates, limits.bridge_min_overlap, comparison, named)
    if not bridges:
        return ranked
    keep = {b.doc for b in bridges}
    # a comparison's evidence is its two sides: a side's bridge follows both
    ranked, used = await _promote(state, ctx, ranked, bridges, top_k, 2 if comparison else 0, keep)
    if comparison or len(bridges) != 1 or bridges[0].doc not in used:
        return ranked
    # a chain of relations ("the father of the director of film X"): the bridge's passage names the next one
    bridge, passage, chain = bridges[0], used[bridges[0].doc], {a.doc_id for a in anchors} | keep
    rest = terms
    for _ in range(MAX_CHAIN - 1):
        rest = chain_terms(rest, bridge)
        if not rest:
            break
        found = await asyncio.to_thread(bridge_candidates, kg, rest, [passage], chain)
        following = chosen_bridges(found, limits.bridge_min_overlap, False)
        if not following:
            break
        keep.add(following[0].doc)
        ranked, more = await _promote(state, ctx, ranked, following, top_k, 0, keep)
        if following[0].doc not in more:
            break
        bridge, passage = following[0], more[following[0].doc]
        chain.add(bridge.doc)
    return ranked


def describes_bridge(state: RagState) -> bool:
    """Whether the question reaches what it asks through an entity it only describes ("the estate that houses
    the library", "the building that contains Flat 7B", 图书馆所在的小区): the parser's nesting or bridge cue,
    or a description of the bridge's kind (``relation_cues.bridge_kind``)."""
    parsed = state["parsed"]
    if parsed.intent == "comparison":
        return False
    features = parsed.complexity_features
    question = state["question"]
    return (features.get("bridge", 0) > 0 or features.get("nesting", 0) > 0 or bridge_kind(question) is not None
            or describes_by_clause(question))


def described_bridge(question: str, anchor: Hit, candidates: list[Hit], present: set[str], text: str = ""
                     ) -> tuple[Hit, str] | None:
    """The first candidate passage of another document whose title names an entity the anchor passage (or
    ``text``, its document's passages among the results) writes and the question does not (``evidence.title_named``: a user's file is titled "翠湖苑小区机动车停放管理办法",
    "Alder Quay House — building information", and the first hop writes "位于…翠湖苑小区会所二楼", "the seventh
    floor of Alder Quay House"), with that name; None when none does. Documents in ``present`` are already
    among the results."""
    folded, asked = normalize(text or anchor.text), normalize(question)
    own = title_names(anchor.title)[:2]
    for hit in candidates:
        if hit.doc_id == anchor.doc_id or hit.doc_id in present:
            continue
        name = title_named(folded, hit.title, own)
        if name is not None and name not in asked:
            return hit, name
    return None


async def searched_bridge(state: RagState, ctx: RagContext, ranked: list[Hit], top_k: int) -> list[Hit]:
    """The ranking with the document a described bridge leads to placed right after its anchor (the first
    result), else unchanged. A user's files name the bridge entity in an address line or a heading and title the
    next document by it with words of their own ("the library is in the 翠湖苑小区" → "翠湖苑小区机动车停放管理办法"),
    so the graph's document titles do not match the name the first hop writes: the next hop is searched by the
    question's words and the anchor's own (BM25), and kept only where its title names what the anchor writes
    (``described_bridge``). A store failure propagates."""
    if top_k < 2 or not ranked or not describes_bridge(state):
        return ranked
    anchor = ranked[0]
    present = {h.doc_id for h in ranked[:top_k]}
    # the anchor document's passages among the results: the one naming the bridge (its address line) is often
    # not the best one (a filtered search on the library ranks its fees first)
    own = " ".join(h.text for h in ranked[:top_k] if h.doc_id == anchor.doc_id)
    # the first hop's bridge may already be among the results: then the evidence reads it there
    if described_bridge(state["question"], anchor, ranked[1:top_k], set(), own) is not None:
        return ranked
    asked = await run_lexical_text(ctx, state)
    found = await asyncio.to_thread(ctx.index.search_bm25, f"{asked} {own}", filter=None,
                                    limit=ctx.limits.candidate_k)
    chosen = described_bridge(state["question"], anchor, [*state.get("hits", []), *found], present, own)
    if chosen is None:
        return ranked
    hit, name = chosen
    # of the bridge's document, the passage that answers the question (its fees table, not the line that shares
    # most words with the anchor)
    vector = await embed_question(ctx, state)
    scored = await asyncio.to_thread(score_documents, ctx.index, vector, asked, [hit.doc_id],
                                     state.get("bm25_scale", 1.0), filling=ctx.filling)
    if scored.get(hit.doc_id):
        hit = scored[hit.doc_id][0].hit
    hit = hit.model_copy(update={"relevance_explanation": (
        f"the next hop of a described bridge: its title names {name!r}, which result #1 writes")})
    return with_bridge(ranked, hit, name, top_k)


def with_bridge(ranked: list[Hit], bridge: Hit, name: str, top_k: int) -> list[Hit]:
    """``ranked`` with ``bridge`` right after the first result, in ``top_k`` places: the place given up is the last
    one whose passage does not write the bridge's name (the first hop's line that names it is what the evidence
    follows: dropping it leaves the bridge unreached)."""
    rest = [h for h in ranked[1:] if h.doc_id != bridge.doc_id]
    while len(rest) + 2 > top_k and rest:
        naming = [n for n, h in enumerate(rest) if name in normalize(h.text)]
        drop = next((n for n in reversed(range(len(rest))) if n not in naming), len(rest) - 1)
        rest.pop(drop)
    return [ranked[0], bridge, *rest][:top_k]


async def _promote(state: RagState, ctx: RagContext, ranked: list[Hit], bridges: list[Bridge], top_k: int,
                   after: int, keep: set[str]) -> tuple[list[Hit], dict[str, Hit]]:
    """``ranked`` with each bridge promoted (its passage fetched unless already ranked), and the passage used
    for each (a bridge the index no longer has is left out)."""
    present = {h.doc_id: h for h in ranked[:top_k]}
    missing = [b.doc for b in bridges if b.doc not in present]
    scored = {}
    if missing:
        vector = await embed_question(ctx, state)
        scored = await asyncio.to_thread(score_documents, ctx.index, vector, lexical_query(state), missing,
                                         state.get("bm25_scale", 1.0), filling=ctx.filling)
    used: dict[str, Hit] = {}
    for b in bridges:
        found = present.get(b.doc) or (scored[b.doc][0].hit if b.doc in scored else None)
        if found is not None:  # else the graph knows a document the index no longer has
            ranked = promote_bridge(ranked, b, found, top_k, after, keep)
            used[b.doc] = found
    return ranked, used


async def _next_hop(state: RagState, ctx: RagContext, ranked: list[Hit], top_k: int) -> list[Hit]:
    """The graph's second hop (``second_hop``), else the searched one of a described bridge (``searched_bridge``)."""
    hopped = await second_hop(state, ctx, ranked, top_k)
    return hopped if hopped != ranked else await searched_bridge(state, ctx, ranked, top_k)


SPEC = NodeSpec(purpose="rank the results")


async def rerank_hits(state: RagState, runtime: Runtime[RagContext]) -> RagUpdate:
    """Rerank (unless disabled) and keep the top_k, a weak document's slot going to a strong one's next chunk."""
    ctx = runtime.context
    top_k = state.get("top_k", ctx.limits.top_k)
    hits = dedupe(state.get("hits", []))
    if not state.get("enable_reranking", True):
        kept = [h.model_copy(update={"relevance_explanation": "search order (reranking disabled)"}) for h in hits[:top_k]]
        return {"ranked": kept, "reranker": "none"}
    further = further_chunks(state.get("hits", []))
    if ctx.reranker.name == "fusion" and (kept_as := ordered_upstream(state, hits)):
        if kept_as == "graph-fusion":  # the expansion chose its documents: only one far behind yields its slot
            hits = share_slots(hits, further, top_k, ctx.limits.graph_weak_share)
        elif "plan" in state and state["plan"].pattern == "comparison":
            # the plan's merge chose them, one per chunk: a comparison's two sides may be two chunks of one document
            hits = state.get("hits", [])
        return {"ranked": await _next_hop(state, ctx, hits[:top_k], top_k), "reranker": kept_as}
    outcome = await rerank_or_fallback(ctx.reranker, state["parsed"], state.get("constraints", []), hits, top_k)
    ranked = share_slots(outcome.hits, further, top_k, ctx.limits.weak_share)
    update: RagUpdate = {"ranked": await _next_hop(state, ctx, ranked, top_k), "reranker": outcome.reranker}
    if outcome.llm_calls:
        update["llm_calls"] = outcome.llm_calls
    if outcome.degraded:
        update["degraded"] = ["rerank_hits"]
    return update


def summarize(update: RagUpdate) -> str:
    """Describe the reranking."""
    return f"{len(update['ranked'])} result(s) kept by the {update['reranker']} reranker"
