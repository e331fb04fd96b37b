"""Shared pieces of the graph route: second-stage scoring of documents, neighbour documents in the
knowledge graph, the fused score of a node, and the second hop of a bridge question."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from graphs.domain import FusionWeights, Hit, KgNode
from graphs.ingest.vector_fill import FillingChunks, merge_filling
from graphs.kg.base import KnowledgeGraph, Neighbor, doc_id_of, doc_node
from graphs.rag.question import coverage
from graphs.rag.relation_cues import role_of, role_patterns, states_role
from graphs.rag.state import RagState
from graphs.stores.base import ChunkSearch
from graphs.stores.filters import docs_filter
from graphs.text.sentences import split_sentences

MAX_SCORED_CHUNKS = 200
MAX_CHAIN = 3
"""Most documents a chain of relations is followed through after the anchor ("the mother of the director of
the film X": film → director → mother)."""
# edges that lead from a node to documents about a related subject, strongest first
_DOC_EDGES = ("title_link",)
_VIA_ENTITY_EDGES = ("titled", "mentions", "related", "parent", "co_occurs")
_EDGE_RANK = {"title_link": 0, "titled": 1, "related": 2, "parent": 2, "mentions": 3, "co_occurs": 4}


def weights_of(state: RagState) -> FusionWeights:
    """The request's fusion weights, else the defaults (a run started over the LangGraph API sends a dict)."""
    weights = state.get("fusion_weights")
    if weights is None:
        return FusionWeights()
    return weights if isinstance(weights, FusionWeights) else FusionWeights.model_validate(weights)


def relevance(weights: FusionWeights, vector: float, fts: float) -> float:
    """How well a node's text matches the question: the non-graph part of the fused score, in [0, 1]."""
    total = weights.vector + weights.fts
    return (weights.vector * vector + weights.fts * fts) / total if total else 0.0


@dataclass(frozen=True)
class ScoredDocument:
    """A document's best chunk under the question and its two query scores (both in [0, 1])."""

    hit: Hit
    vector: float
    fts: float


def score_documents(
    index: ChunkSearch, vector: Sequence[float], text: str, doc_ids: Sequence[str], bm25_scale: float,
    *, chunks: bool = False, filling: FillingChunks | None = None,
) -> dict[str, list[ScoredDocument]]:
    """Dense and BM25 scores of the chunks of ``doc_ids`` (one filtered search per channel).

    BM25 is divided by ``bm25_scale`` (the best raw BM25 of the breadth search) so scores of later hops
    compare with the seeds'. Per document, chunks best first; only the best one unless ``chunks``. ``filling``:
    the chunks whose vectors still fill behind an upload get their dense score from the same embedder.
    """
    if not doc_ids:
        return {}
    expr = docs_filter(list(doc_ids))
    limit = min(MAX_SCORED_CHUNKS, 4 * len(doc_ids))
    dense = index.search_dense(vector, filter=expr, limit=limit)
    if filling is not None:
        dense = merge_filling(dense, filling.search(vector, text, filter=expr, limit=limit), limit)
    bm25 = index.search_bm25(text, filter=expr, limit=limit, raw=True)
    lexical = {h.id: h.bm25_score or 0.0 for h in bm25}
    by_doc: dict[str, list[ScoredDocument]] = {}

    def fts_of(chunk_id: str) -> float:
        return min(1.0, lexical.get(chunk_id, 0.0) / bm25_scale) if bm25_scale > 0 else 0.0

    for h in dense:
        by_doc.setdefault(h.doc_id, []).append(ScoredDocument(h, max(0.0, h.dense_score or 0.0), fts_of(h.id)))
    # A chunk BM25 finds but dense search does not is scored too (vector 0): dense search never returns a chunk
    # whose vector is still being filled in behind its upload (graphs.ingest.vector_fill; ``filling`` scores a few
    # of them, not every one of a long file), so a document asked
    # right after its upload lost every chunk here and the graph route answered from the breadth search alone
    # ("not found" on the first ask of a bridge question, answered on the second once the vectors were in).
    found = {h.id for h in dense}
    for h in bm25:
        if h.id not in found:
            found.add(h.id)
            by_doc.setdefault(h.doc_id, []).append(ScoredDocument(h, 0.0, fts_of(h.id)))
    for doc, scored in by_doc.items():
        scored.sort(key=lambda s: -(s.vector + s.fts))
        if not chunks:
            by_doc[doc] = scored[:1]
    return by_doc


@dataclass(frozen=True)
class Reach:
    """A document one hop from a frontier node, and how it was reached."""

    doc: str
    via: str | None
    edge: str


def neighbor_documents(kg: KnowledgeGraph, node: str, limit: int) -> list[Reach]:
    """Documents one hop from ``node``: title links directly; through an entity node the document it
    titles (or that mentions it), so "passage names X" leads to X's own document."""
    found: dict[str, Reach] = {}

    def add(doc: str, via: str | None, edge: str) -> None:
        if doc != node and doc not in found:
            found[doc] = Reach(doc, via, edge)

    first: list[Neighbor] = kg.neighbors(node, limit=limit * 2)
    first.sort(key=lambda n: _EDGE_RANK.get(n.edge, 9))
    for n in first:
        if len(found) >= limit:
            break
        if n.kind == "doc" and n.edge in _DOC_EDGES:
            add(n.node, None, n.edge)
        elif n.kind == "doc" and node.startswith("entity:"):
            add(n.node, None, n.edge)  # an entity's own document, or one that mentions it
        elif n.kind == "entity" and n.edge in _VIA_ENTITY_EDGES:
            # one step through the entity: the document titled by it comes first
            for m in sorted(kg.neighbors(n.node, edges=("titled", "mentions"), limit=limit),
                            key=lambda m: _EDGE_RANK.get(m.edge, 9)):
                if m.kind == "doc" and (m.edge == "titled" or n.edge != "mentions"):
                    add(m.node, n.node, f"{n.edge}>{m.edge}")
                if len(found) >= limit:
                    break
    return list(found.values())


def neighborhoods(kg: KnowledgeGraph, nodes: Iterable[str], limit: int) -> dict[str, set[str]]:
    """For each document node, the documents one hop away (see ``neighbor_documents``)."""
    return {n: {r.doc for r in neighbor_documents(kg, n, limit)} for n in nodes}


def linked(near: dict[str, set[str]], a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are one hop apart, in either direction."""
    return b in near.get(a, set()) or a in near.get(b, set())


def doc_nodes(nodes: dict[str, KgNode]) -> list[KgNode]:
    """The document nodes, best fused score first."""
    return sorted((n for n in nodes.values() if n.doc_id), key=lambda n: (-n.combined, n.node))


def make_node(
    weights: FusionWeights, doc: str, scored: ScoredDocument | None, *, hop: int, seed: bool, via: str | None,
    edge: str | None, path: list[str] | None = None,
) -> KgNode:
    """A document node with its fused score's components (a seed's path is the node itself)."""
    vector, fts = (scored.vector, scored.fts) if scored else (0.0, 0.0)
    graph = weights.graph_score(hop)
    title = scored.hit.title if scored else doc
    return KgNode(
        node=doc_node(doc), name=title, doc_id=doc, chunk_id=scored.hit.id if scored else None,
        text=scored.hit.text if scored else "", hop=hop, seed=seed, via=via, edge=edge,
        path=path or [doc_node(doc)],
        vector=round(vector, 4), fts=round(fts, 4), graph=round(graph, 4),
        combined=round(weights.combine(vector, fts, graph), 4),
    )


# -- the second hop of a bridge question ---------------------------------------------------------------
#
# A bridge question names entity A; A's passage names the bridge entity B; the answer is in B's passage
# ("What genre is the author of the story behind Act of War associated with?": Act of War's passage says the
# story was "written by Dale Brown"; Dale Brown's passage holds the genre). Retrieval finds A, but B's passage
# shares few words with the question and ranks 6th to 25th, under passages that resemble A. The link that
# leads to B is the sentence of A's passage that names it AND repeats the part of the question that A's own
# name does not cover ("story ... written by", "produced by", "resigned to become a lobbyist for"): that
# sentence is the question's relation, and the document it names is the next hop.


@dataclass(frozen=True)
class Bridge:
    """A document named in a top passage's sentence that overlaps the question: the likely second hop."""

    doc: str
    anchor: Hit
    sentence: str
    overlap: float
    """Share of the question's terms (those the anchor's title does not contain) that the sentence repeats."""
    distance: int = 0
    """Characters between the bridge's name and the nearest word of the sentence that matched the question: of
    two names in "a film directed by A and starring B", A is the one the relation points at."""


def named_as_name(name: str, text: str) -> bool:
    """Whether ``text`` names ``name`` as a name: for a capitalised Latin name, one of its occurrences (its first
    word, any case, as a whole word) is capitalised too, so the document "Comedy!" is not named by "a comedy
    film" nor "Los" by "lost"; a name in another script, or one written lower-case, has no case to check."""
    first = re.match(r"[^\W\d_]+", name.strip())
    if first is None or not first.group().isascii() or not first.group()[0].isupper():
        return True
    word = first.group()
    return any(m.group()[0].isupper() for m in re.finditer(rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])", text,
                                                               re.IGNORECASE))


_DISAMBIGUATION = re.compile(r"\((?:disambiguation|消歧义)\)\s*$", re.IGNORECASE)


def _main(name: str) -> str:
    """A name without its bracketed qualifier ("Blind Man (film)" → "blind man"), lower-case."""
    return re.sub(r"\s*\([^)]*\)\s*$", "", name).strip().lower()


def _free_occurrence(name: str, text: str, taken: list[tuple[int, int]]) -> bool | None:
    """Claim the first occurrence of ``name`` in ``text`` (lower-case) that no longer name already holds: True
    when one was free, False when every occurrence lies inside a longer name, None when it is not found as
    written (the name index folds text differently)."""
    spans = [(m.start(), m.start() + len(name)) for m in re.finditer(re.escape(name), text)] if name else []
    if not spans:
        return None
    for start, end in spans:
        if not any(s <= start and end <= e for s, e in taken):
            taken.append((start, end))
            return True
    return False


def named_names(kg: KnowledgeGraph, text: str, limit: int = 20, within: str = "") -> list[tuple[str, str]]:
    """``(document, name)`` for each document ``text`` names (as a name, see ``named_as_name``): by its title, or
    through an entity node whose document it titles. Longest names first, and a name found only inside a longer
    one is not named ("Beatrice I, Countess of Burgundy" does not name the film *Beatrice*); a disambiguation
    page is named by nothing. A name that is part of ``within`` (the title of the passage the text is from, its
    bracketed qualifier aside: "Direct Action" in "Act of War: Direct Action") is that passage naming itself, not
    another document."""
    out: dict[str, str] = {}
    own, lowered = _main(within), text.lower()  # "Burn (Nine Inch Nails song)" still names the band
    taken: list[tuple[int, int]] = []
    for node, name in kg.find_nodes(text, limit=limit):
        if not named_as_name(name, text) or (own and _main(name) in own) or _DISAMBIGUATION.search(name):
            continue
        if _free_occurrence(_main(name), lowered, taken) is False:
            continue
        doc = doc_id_of(node)
        docs = [doc] if doc is not None else [
            d for n in kg.neighbors(node, edges=("titled",), limit=5) if (d := doc_id_of(n.node))]
        for d in docs:
            out.setdefault(d, name)
    return list(out.items())


def named_documents(kg: KnowledgeGraph, text: str, limit: int = 20, within: str = "") -> list[str]:
    """The documents ``text`` names (see ``named_names``)."""
    return [doc for doc, _ in named_names(kg, text, limit, within)]


def _matched_spans(terms: Sequence[str], sentence: str) -> list[tuple[int, int]]:
    """Where the sentence repeats a term of the question or states one of its relation roles."""
    text = sentence.lower()
    spans: list[tuple[int, int]] = []
    for t in terms:
        role = role_of(t)
        patterns = [re.compile(re.escape(t))] + (role_patterns(role) if role else [])
        if t.isascii() and len(t) >= 6:
            patterns.append(re.compile(re.escape(t[:5])))  # as coverage matches "directors" / "directed"
        spans += [m.span() for p in patterns for m in p.finditer(text)]
    return spans


def name_distance(name: str, sentence: str, spans: Sequence[tuple[int, int]]) -> int:
    """Characters between the name's place in the sentence and the nearest matched span (large when unknown)."""
    at = sentence.lower().find(_main(name))
    if at < 0 or not spans:
        return 10_000
    return min(abs(at - end) if at >= end else abs(start - at) for start, end in spans)


def relation_overlap(terms: Sequence[str], sentence: str) -> float:
    """Share of ``terms`` that ``sentence`` repeats; a relation role of the question ("mother", "performer",
    "father-in-law") also counts when the sentence states it in the words a passage uses ("son of", "a song by",
    "married"; ``graphs.rag.relation_cues``)."""
    if not terms:
        return 1.0
    hits = 0
    for t in terms:
        role = role_of(t)
        hits += coverage([t], [sentence]) >= 1.0 or (role is not None and states_role(role, sentence))
    return hits / len(terms)


def bridge_candidates(
    kg: KnowledgeGraph, terms: Sequence[str], anchors: Sequence[Hit], exclude: Iterable[str]
) -> list[Bridge]:
    """Documents named by the sentences of the ``anchors`` (the top passages), each with the best overlap of
    a naming sentence with the question's terms that the anchor's title leaves uncovered; best first. A
    document in ``exclude`` (already among the results) or an anchor itself is no candidate."""
    excluded = set(exclude) | {a.doc_id for a in anchors}
    found: dict[str, Bridge] = {}
    for anchor in anchors:
        own = [t for t in terms if coverage([t], [anchor.title or ""]) < 1.0]
        if not own:
            continue  # the anchor's title is the whole question: nothing left for a second hop
        for sentence in split_sentences(anchor.text):
            overlap = relation_overlap(own, sentence)
            if overlap <= 0.0:
                continue
            spans = _matched_spans(own, sentence)
            for doc, name in named_names(kg, sentence, within=anchor.title or ""):
                if doc in excluded:
                    continue
                bridge = Bridge(doc, anchor, sentence, round(overlap, 4), name_distance(name, sentence, spans))
                if doc not in found or (bridge.overlap, -bridge.distance) > (found[doc].overlap, -found[doc].distance):
                    found[doc] = bridge
    return sorted(found.values(), key=lambda b: (-b.overlap, b.distance))


def chain_terms(terms: Sequence[str], bridge: Bridge) -> list[str]:
    """What a chain of relations still asks after ``bridge``: the question's terms that neither its anchor's title
    nor its naming sentence covers, when a relation role is among them ("father" after "the director of film X"
    led to the director); else nothing (the chain ends: the rest is the attribute the last passage holds)."""
    rest = [t for t in terms if coverage([t], [bridge.anchor.title or ""]) < 1.0
            and relation_overlap([t], bridge.sentence) == 0.0]
    return rest if any(role_of(t) for t in rest) else []


def named_in(title: str | None, question: str) -> bool:
    """Whether the question names a document by its title (case aside, without a bracketed qualifier:
    "Good People (film)" is named by "the director of film Good People (Film)")."""
    if not title:
        return False
    main = _main(title)
    return bool(main) and main in question.lower()


def chosen_bridges(candidates: Sequence[Bridge], min_overlap: float, comparison: bool,
                   named: Iterable[str] = ()) -> list[Bridge]:
    """The bridges to promote: the best candidate at ``min_overlap`` or above, one from an anchor the question
    names (``named``: its document ids) before one from an anchor that merely resembles it; for a comparison,
    whose two sides each may lead on to their own second hop ("the director of which film was born first?"),
    the best of each anchor."""
    fit = [b for b in candidates if b.overlap >= min_overlap]
    if not comparison:
        own = set(named)
        return sorted(fit, key=lambda b: (b.anchor.doc_id not in own, -b.overlap, b.distance))[:1]
    return list({b.anchor.doc_id: b for b in reversed(fit)}.values())[::-1]


def promote_bridge(ranked: Sequence[Hit], bridge: Bridge, hit: Hit, top_k: int, after: int = 0,
                   keep: Iterable[str] = ()) -> list[Hit]:
    """The ranking with the bridge document's passage right after the passage that names it, and after the
    first ``after`` results (a comparison's two sides stay first); a bridge already among the results moves
    there. Past ``top_k`` the last result makes room that is neither one of the first ``after`` nor a
    document in ``keep`` (the other bridges: a second hop never pushes out another)."""
    rest = [h for h in ranked if h.doc_id != bridge.doc]
    at = max(after, next((n for n, h in enumerate(rest) if h.doc_id == bridge.anchor.doc_id), 0) + 1)
    words = " ".join(bridge.sentence.split())
    shown = words if len(words) <= 160 else f"{words[:157]}..."
    second = hit.model_copy(update={
        "channel": "graph", "hop": 1, "path": [doc_node(bridge.anchor.doc_id), doc_node(bridge.doc)],
        "reranked_score": None,
        "relevance_explanation": f"second hop: named by {bridge.anchor.title or bridge.anchor.doc_id!r} in "
                                 f"\"{shown}\", which repeats {bridge.overlap:.0%} of the question's other terms",
    })
    out = [*rest[:at], second, *rest[at:]]
    protected = set(keep) | {bridge.doc, bridge.anchor.doc_id} | {h.doc_id for h in out[:after]}
    while len(out) > top_k:
        drop = next((n for n in range(len(out) - 1, -1, -1) if out[n].doc_id not in protected), len(out) - 1)
        del out[drop]
    return out
