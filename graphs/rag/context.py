"""RagContext: the dependencies every node receives through ``runtime.context``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from graphs.domain import DEFAULT_PRIORITY, EntityType
from graphs.embeddings import QueryVectors
from graphs.ingest.vector_fill import FillingChunks
from graphs.kg.base import KnowledgeGraph
from graphs.prompts import PromptLibrary
from graphs.rerankers.base import Reranker
from graphs.stores.base import ChunkSearch, EntityStore
from graphs.stores.sentence_vectors import SentenceVectors
from graphs.text.gazetteer import Gazetteer


@dataclass(frozen=True)
class RagLimits:
    """Budgets and thresholds of the graph."""

    top_k: int = 5
    candidate_k: int = 20
    max_retries: int = 3
    min_results: int = 1
    min_dense_score: float = 0.2
    weak_share: float = 0.5
    """A result whose document scores under this share of the best result's is weak: its slot goes to the next
    chunk of a stronger document first (``rerank_hits.share_slots``; 0: only the slots no document filled)."""
    graph_weak_share: float = 0.2
    """The same on the graph route, whose expansion chose its documents: only a document far behind the best (a
    breadth-search page at a tenth of its score) yields its slot to the best documents' next chunks."""
    priority: tuple[EntityType, ...] = DEFAULT_PRIORITY
    llm_timeout_s: float = 60.0
    # graph route (adaptive breadth-depth expansion)
    seed_k: int = 2
    """Documents of the breadth search that become seeds (besides documents the question names)."""
    max_depth: int = 3
    frontier_k: int = 5
    """At most this many nodes of one depth are expanded at the next."""
    neighbor_k: int = 30
    """At most this many neighbour documents per frontier node."""
    expand_k: int = 8
    """At most this many new documents kept per hop (the most relevant to the question)."""
    min_relevance: float = 0.5
    """A node joins the frontier when its question relevance is at least this share of the best seed's."""
    keep_relevance: float = 0.3
    """A neighbour is kept at all only when its question relevance is at least this share of the best seed's."""
    max_graph_nodes: int = 40
    sufficient_coverage: float = 0.85
    """The rule judge calls results sufficient when they cover this share of the question's terms."""
    evidence_min: int = 3
    evidence_max: int = 7
    # the second hop of a bridge question (rerank_hits, graphs/rag/expansion.py)
    bridge_anchors: int = 2
    """The top results whose sentences may name the bridge document (0 turns the second hop off)."""
    bridge_min_overlap: float = 0.2
    """A naming sentence must repeat this share of the question's terms that the anchor's title lacks."""
    # master layer: each team configuration's budgets, the plan's size and the reflection's attempts
    writer_time_s: float = 10.0
    executor_max_turns: int = 6
    """Most searches on the one-path (executor-inclusive) route."""
    executor_time_s: float = 30.0
    planner_max_turns: int = 5
    """Most plan rounds (the ADR's max_turns); a request's maxTurns overrides it."""
    planner_time_s: float = 90.0
    step_timeout_s: float = 30.0
    """One plan step's time limit; a step past it is a failure that the reflection handles."""
    max_sub_questions: int = 5
    max_attempts: int = 3


class GazetteerCache:
    """The entity-store gazetteer, rebuilt only when the store's version changes."""

    def __init__(self, store: EntityStore) -> None:
        self._store = store
        self._lock = threading.Lock()
        self._version: int | None = None
        self._gazetteer: Gazetteer | None = None

    def __call__(self) -> Gazetteer:
        """Return the gazetteer for the store as it is now."""
        version = self._store.version()
        with self._lock:
            if self._gazetteer is None or version != self._version:
                self._gazetteer = Gazetteer(self._store.surface_forms())
                self._version = version
            return self._gazetteer


@dataclass(frozen=True)
class RagContext:
    """Injected LLM, embedder, stores, reranker, prompts and limits (built once per process)."""

    embedder: Embeddings
    index: ChunkSearch
    """Chunk search (the nodes only search; the service holds the whole index as ``Resources.index``)."""
    entities: EntityStore
    reranker: Reranker
    gazetteer: Callable[[], Gazetteer]
    prompts: PromptLibrary = field(default_factory=PromptLibrary)
    llm: BaseChatModel | None = None
    llm_name: str | None = None
    limits: RagLimits = field(default_factory=RagLimits)
    today: Callable[[], date] = date.today
    kg: KnowledgeGraph | None = None
    """The knowledge graph for multi-hop expansion; without one the graph route is unavailable."""
    query_vectors: QueryVectors | None = None
    """Question vectors embedded ahead (``parse_query`` starts the question's as the run begins) and kept (an
    LRU by embedder and text); without it each search node embeds the question itself."""
    filling: FillingChunks | None = None
    """The chunks whose dense vectors are still filling behind an upload, scored for a dense search by the same
    embedder (``graphs.ingest.vector_fill``); None: every chunk is written with its vector."""
    sentences: SentenceVectors | None = None
    """Sentence vectors on disk, filled behind the chunks' own vectors at ingest and by every question that
    embeds a sentence (``graphs.stores.sentence_vectors``): the answer layer reads them instead of embedding the
    other-language sentences it compares by meaning. None: each is embedded when compared (kept in memory)."""
