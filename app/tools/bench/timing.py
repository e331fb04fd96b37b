"""The bench's instruments: where a query's time went (per node, Milvus, embedding, LangGraph's own), timed
wrappers of the embedder and the index, process memory, the load average and LangGraph's floor here."""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import statistics
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings

from app.tools.bench.corpus import ROUTES
from app.tools.stats import latency_summary
from graphs.domain import Chunk, Hit
from graphs.embeddings import EmbedderFingerprint
from graphs.rag.graph import NODES as GRAPH_NODES
from graphs.stores.base import DocumentChunks, FusionMethod, StagedWrite, VectorIndex
from graphs.stores.filters import Filter

NODES = tuple(module.__name__.rsplit(".", 1)[-1] for module in GRAPH_NODES)
"""Every node of the graph, in wiring order (the per-node table lists those that ran)."""


def route_of(response: dict[str, Any]) -> str:
    """The route a query response took: first search action, ``structured_relaxed`` after any relaxation."""
    actions = [d["action"] for d in response["routingDecision"]["decisions"]]
    if "relax_constraints" in actions:
        return "structured_relaxed"
    first = next((a for a in actions if a.endswith("_search")), None)
    return first.removesuffix("_search") if first else "none"


@dataclass
class QueryRecord:
    """One answered query: where its time went."""

    route: str
    expected: str
    wall_ms: float
    graph_ms: float
    milvus_ms: float
    embed_ms: float | None
    nodes: dict[str, float]
    searches: int
    cpu_ms: float | None = None
    """CPU time of the whole process during the query (every thread: the embedder's, the searches'): unlike the
    wall time, it hardly moves with the machine's load, so embedders compare on a busy machine."""
    kept_hits: int = 0
    """Question vectors the query took finished from the process's LRU instead of embedding them: 0 for a cold
    query, which is what ``aer bench`` times (it clears the kept vectors before each question)."""
    embed_wait_ms: float | None = None
    """How long the query's searches waited for its question's vector still being embedded (``QueryVectors.waited_s``):
    the part of the embedding the analysis before the first search did not hide. None without a prefetch."""

    @classmethod
    def from_response(
        cls, body: dict[str, Any], expected: str, wall_ms: float, embed_ms: float | None = None,
        cpu_ms: float | None = None, kept_hits: int = 0, embed_wait_ms: float | None = None,
    ) -> QueryRecord:
        nodes: dict[str, float] = {}
        for step in body["workflow"]["steps"]:
            nodes[step["node"]] = nodes.get(step["node"], 0.0) + float(step["durationMs"])
        searches = body["retrievalDetails"]["searches"]
        return cls(
            route=route_of(body),
            expected=expected,
            wall_ms=wall_ms,
            graph_ms=float(body["workflow"]["totalDuration"]),
            milvus_ms=sum(float(s["durationMs"]) for s in searches),
            embed_ms=embed_ms,
            nodes=nodes,
            searches=len(searches),
            cpu_ms=cpu_ms,
            kept_hits=kept_hits,
            embed_wait_ms=embed_wait_ms,
        )


def time_split(records: Sequence[QueryRecord]) -> dict[str, Any]:
    """Mean ms per node and of Milvus / embedding, and the orchestration overhead share."""
    if not records:
        return {}
    n = len(records)

    def mean(xs: Sequence[float]) -> float:
        return round(sum(xs) / n, 3)

    wall = mean([r.wall_ms for r in records])
    milvus = mean([r.milvus_ms for r in records])
    nodes = {node: mean([r.nodes.get(node, 0.0) for r in records]) for node in NODES}
    out: dict[str, Any] = {
        "queries": n,
        "wall_ms": wall,
        "graph_ms": mean([r.graph_ms for r in records]),
        "milvus_ms": milvus,
        "nodes_ms": {k: v for k, v in nodes.items() if v},
    }
    search_nodes = sum(v for k, v in nodes.items() if k.startswith("search_"))
    # LangGraph's own cost: what the run took beyond the nodes' work (dispatch, state merges, response)
    node_total = mean([sum(r.nodes.values()) for r in records])
    out["framework_ms"] = round(wall - node_total, 3)
    out["framework_pct"] = round(100 * (wall - node_total) / wall, 1) if wall else None
    out["search_nodes_minus_milvus_ms"] = round(search_nodes - milvus, 3)
    out["non_milvus_pct"] = round(100 * (wall - milvus) / wall, 1) if wall else None
    if all(r.embed_ms is not None for r in records):
        embed = mean([r.embed_ms or 0.0 for r in records])
        out["embed_ms"] = embed
        out["overhead_ms"] = round(wall - milvus - embed, 3)
        out["overhead_pct"] = round(100 * (wall - milvus - embed) / wall, 1) if wall else None
    return out


def route_table(records: Sequence[QueryRecord]) -> dict[str, Any]:
    """Latency summary and time split per observed route."""
    out: dict[str, Any] = {}
    for route in [*ROUTES, *sorted({r.route for r in records} - set(ROUTES))]:
        rs = [r for r in records if r.route == route]
        if rs:
            out[route] = {"latency_ms": latency_summary([r.wall_ms for r in rs]), "split": time_split(rs),
                          "searches_per_query": round(sum(r.searches for r in rs) / len(rs), 2)}
            cpu = [r.cpu_ms for r in rs if r.cpu_ms is not None]
            if cpu:
                out[route]["cpu_ms"] = latency_summary(cpu)
            waits = [r.embed_wait_ms for r in rs if r.embed_wait_ms is not None]
            if waits:
                out[route]["embed_wait_ms"] = latency_summary(waits)
            out[route]["cold"] = {"queries": len(rs), "kept_hits": sum(r.kept_hits for r in rs),
                                  "warm_queries": sum(r.kept_hits > 0 for r in rs)}
    return out


# ---------------------------------------------------------------------------- paired comparison


MIN_PAIRS = 8
"""Fewer pairs give no verdict: the interval of a p95 over a handful of queries says nothing."""


P95_TARGET_RATIO = 1.0
"""Issue 23 at 100k chunks: e5's p95 per route within today's figures, i.e. at most USE's p95 in the same pass."""


def paired_delta(arm_ms: Sequence[float], base_ms: Sequence[float], target_ms: float, draws: int = 2000,
                 seed: int = 0, ratio_target: float = P95_TARGET_RATIO) -> dict[str, Any]:
    """An arm against the baseline from pairs of queries (the same question in the same round, asked one right
    after the other): the median of the paired differences (what a query typically pays more, little moved by
    a load spike that falls on both), the p95 difference and its 90% interval by resampling the pairs, and a
    verdict on ``p95 - baseline p95 <= target_ms``: "within" when the whole interval is at or under it, "over"
    when it is all above, "undetermined" when the machine's noise spans the target (the p95 of a few dozen
    queries on a shared machine moves by hundreds of ms between passes of the same code).

    The same resampled pairs give the p95 ratio (arm / baseline) and its 90% interval, with a verdict on
    ``ratio <= ratio_target`` read the same way, and the median of the pairs' own ratios: a ratio is what stays
    comparable between passes at different loads, where every duration stretches alike."""
    import numpy as np

    pairs = np.array([(a, b) for a, b in zip(arm_ms, base_ms, strict=True)], dtype=float).reshape(-1, 2)
    if not len(pairs):
        return {"pairs": 0, "median_delta_ms": None, "p95_delta_ms": None, "p95_delta_ci90_ms": None,
                "verdict": None, "median_ratio": None, "p95_ratio": None, "p95_ratio_ci90": None,
                "ratio_verdict": None}
    a, b = pairs[:, 0], pairs[:, 1]
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(pairs), size=(draws, len(pairs)))
    arm95, base95 = np.percentile(a[idx], 95, axis=1), np.percentile(b[idx], 95, axis=1)
    lo, hi = (float(x) for x in np.percentile(arm95 - base95, [5, 95]))
    rlo, rhi = (float(x) for x in np.percentile(arm95 / np.maximum(base95, 1e-9), [5, 95]))

    def verdict(low: float, high: float, target: float) -> str:
        return ("too few pairs" if len(pairs) < MIN_PAIRS else "within" if high <= target
                else "over" if low > target else "undetermined")

    b95 = float(np.percentile(b, 95))
    return {"pairs": len(pairs), "median_delta_ms": round(float(np.median(a - b)), 1),
            "p95_delta_ms": round(float(np.percentile(a, 95)) - b95, 1),
            "p95_delta_ci90_ms": [round(lo, 1), round(hi, 1)], "verdict": verdict(lo, hi, target_ms),
            "median_ratio": round(float(np.median(a / np.maximum(b, 1e-9))), 3),
            "p95_ratio": None if b95 <= 0 else round(float(np.percentile(a, 95)) / b95, 3),
            "p95_ratio_ci90": [round(rlo, 3), round(rhi, 3)], "ratio_verdict": verdict(rlo, rhi, ratio_target),
            "pairs_ms": [[round(float(x), 1), round(float(y), 1)] for x, y in pairs]}


def paired_by_route(records: Mapping[str, Sequence[QueryRecord]], baseline: str,
                    target_ms: float) -> dict[str, dict[str, Any]]:
    """``paired_delta`` of every arm against ``baseline`` per intended route: ``records`` of each arm in the same
    order (the i-th of every arm is the same question of the same round)."""
    base = records[baseline]
    out: dict[str, dict[str, Any]] = {}
    for name, rs in records.items():
        if name == baseline:
            continue
        by_route: dict[str, tuple[list[float], list[float]]] = {}
        for mine, theirs in zip(rs, base, strict=True):
            if mine.expected != theirs.expected:
                raise ValueError("the arms' records are not in the same order")
            arm, other = by_route.setdefault(mine.expected, ([], []))
            arm.append(mine.wall_ms)
            other.append(theirs.wall_ms)
        out[name] = {route: paired_delta(arm, other, target_ms) for route, (arm, other) in by_route.items()}
    return out


def question_embedding_costs(embedders: dict[str, Embeddings], texts: Sequence[str],
                             repeats: int = 3) -> dict[str, dict[str, Any]]:
    """What embedding a question costs each embedder, alone: every text through every embedder one right after
    the other (the order rotating) after a warm-up call each, ``embed_query`` as a search awaits it (wall ms and
    the process's CPU ms, every thread; nothing else runs in the process meanwhile); and what a repeated question
    costs when its vector is kept (a hit of the service's question-vector LRU, ``QueryVectors``)."""
    from graphs.embeddings import QueryVectors

    names = list(embedders)
    for emb in embedders.values():
        emb.embed_query("warm up")
    walls: dict[str, list[float]] = {n: [] for n in names}
    cpus: dict[str, list[float]] = {n: [] for n in names}
    turn = 0
    for _ in range(repeats):
        for text in texts:
            turn += 1
            for name in names[turn % len(names):] + names[: turn % len(names)]:
                started, cpu = time.perf_counter(), time.process_time()
                embedders[name].embed_query(text)
                walls[name].append((time.perf_counter() - started) * 1000)
                cpus[name].append((time.process_time() - cpu) * 1000)

    async def kept_hits(kept: QueryVectors, emb: Embeddings) -> list[float]:
        hits = []
        for text in texts:
            await kept.aget(emb, text)  # embedded once, then kept
            started = time.perf_counter()
            await kept.aget(emb, text)
            hits.append((time.perf_counter() - started) * 1000)
        return hits

    out: dict[str, dict[str, Any]] = {}
    for name, emb in embedders.items():
        kept = QueryVectors(size=len(texts), workers=1)
        try:
            hits = asyncio.run(kept_hits(kept, emb))
        finally:
            kept.close()
        out[name] = {"questions": len(texts), "calls": len(walls[name]), "wall_ms": latency_summary(walls[name]),
                     "cpu_ms": latency_summary(cpus[name]), "kept_hit_ms": latency_summary(hits, digits=4)}
    return out


# ---------------------------------------------------------------------------- timing wrappers


class Stopwatch:
    """Seconds spent inside ``measure()`` blocks (thread-safe)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def measure(self) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            with self._lock:
                self.seconds += time.perf_counter() - started
                self.calls += 1

    def reset(self) -> None:
        with self._lock:
            self.seconds, self.calls = 0.0, 0


class TimedEmbeddings(Embeddings):
    """An embedder that adds its time to a stopwatch."""

    def __init__(self, inner: Embeddings, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch

    @property
    def fingerprint(self) -> EmbedderFingerprint | None:
        """The timed model's fingerprint (its vectors are the model's: the sentence store and the question-vector
        LRU key by it)."""
        own = getattr(self.inner, "fingerprint", None)
        return own if isinstance(own, EmbedderFingerprint) else None

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        with self.watch.measure():
            return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        with self.watch.measure():
            return self.inner.embed_query(text)


class TimedIndex:
    """A VectorIndex whose writes (replace, delete, flush) add their time to a stopwatch."""

    def __init__(self, inner: VectorIndex, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch

    def search_dense(self, vector: Sequence[float], *, filter: Filter | None, limit: int) -> list[Hit]:
        return self.inner.search_dense(vector, filter=filter, limit=limit)

    def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]:
        return self.inner.search_bm25(text, filter=filter, limit=limit, raw=raw)

    def search_hybrid(
        self,
        vector: Sequence[float],
        text: str,
        *,
        filter: Filter | None,
        limit: int,
        fusion: FusionMethod = "rrf",
        dense_weight: float | None = None,
        question: str | None = None,
    ) -> list[Hit]:
        return self.inner.search_hybrid(
            vector, text, filter=filter, limit=limit, fusion=fusion, dense_weight=dense_weight, question=question
        )

    def count(self, filter: Filter | None = None) -> int:
        return self.inner.count(filter)

    def describe_filter(self, filter: Filter) -> str:
        return self.inner.describe_filter(filter)

    def replace_document(
        self, doc_id: str, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]
    ) -> int:
        with self.watch.measure():
            return self.inner.replace_document(doc_id, chunks, vectors)

    def replace_documents(self, docs: Sequence[DocumentChunks]) -> int:
        with self.watch.measure():
            return self.inner.replace_documents(docs)

    def stage_documents(self, docs: Sequence[DocumentChunks]) -> StagedWrite:
        return _TimedStaged(self.inner.stage_documents(docs), self.watch)

    def delete_document(self, doc_id: str) -> int:
        with self.watch.measure():
            return self.inner.delete_document(doc_id)

    def document_ids(self) -> set[str]:
        return self.inner.document_ids()

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return self.inner.document_chunks(doc_id)

    def document_summaries(self) -> dict[str, tuple[str, int, int]]:
        return self.inner.document_summaries()

    def chunks_where(self, filter: Filter) -> list[Chunk]:
        return self.inner.chunks_where(filter)

    def chunk_vectors(self, doc_id: str) -> dict[str, list[float]]:
        return self.inner.chunk_vectors(doc_id)

    def flush(self) -> None:
        with self.watch.measure():
            self.inner.flush()

    def ping(self) -> None:
        self.inner.ping()

    def close(self) -> None:
        self.inner.close()


class _TimedStaged:
    """A staged write whose Milvus steps add their time to the stopwatch."""

    def __init__(self, inner: StagedWrite, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch
        self.chunks = inner.chunks

    def write(self) -> None:
        with self.watch.measure():
            self.inner.write()

    def commit(self) -> None:
        with self.watch.measure():
            self.inner.commit()

    def abort(self) -> None:
        with self.watch.measure():
            self.inner.abort()


# ---------------------------------------------------------------------------- memory and load


def rss_mb(pid: int) -> dict[str, float | None]:
    """Current and peak resident set size of a process in MiB (/proc; psutil, current only, elsewhere)."""
    status = Path(f"/proc/{pid}/status")
    try:
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        rss, hwm = (float(fields[k].split()[0]) if k in fields else None for k in ("VmRSS", "VmHWM"))
        return {
            "rss_mb": round(rss / 1024, 1) if rss else None,
            "peak_mb": round(hwm / 1024, 1) if hwm else None,
        }
    except OSError:
        pass
    try:
        import psutil

        return {"rss_mb": round(psutil.Process(pid).memory_info().rss / 2**20, 1), "peak_mb": None}
    except Exception:  # psutil missing or the process gone: memory is simply not reported
        return {"rss_mb": None, "peak_mb": None}


def self_peak_rss_mb() -> float:
    """Peak RSS of this process so far (getrusage; KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / 2**20 if sys.platform == "darwin" else peak / 1024, 1)


def langgraph_floor_ms(nodes: int = 7, runs: int = 300, *, rag_state: bool = False) -> float:
    """Median ms of one run of a chain of ``nodes`` no-op async nodes: LangGraph's floor on this machine now
    (the machine's speed and load move it; the graph's own time in the tables is to be read against it).

    With ``rag_state`` the chain moves the service's own state schema (its ~45 channels and reducers) and
    each node appends a workflow step as the instrumented nodes do: the floor of a query's path with no work.
    """
    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict

    from graphs.domain import WorkflowStep
    from graphs.rag.state import RagState

    class S(TypedDict, total=False):
        x: int

    async def step(state: S) -> S:
        return {"x": state.get("x", 0) + 1}

    async def rag_step(state: RagState) -> dict[str, Any]:
        return {"steps": [WorkflowStep(node="noop", started="", duration_ms=0.0, summary="")]}

    builder: StateGraph[Any, None, Any, Any] = StateGraph(RagState if rag_state else S)
    names = [f"n{i}" for i in range(nodes)]
    for name in names:
        builder.add_node(name, rag_step if rag_state else step)
    for a, b in zip([START, *names], [*names, END], strict=True):
        builder.add_edge(a, b)
    graph = builder.compile()
    first: dict[str, Any] = {"question": "q"} if rag_state else {"x": 0}

    async def measure() -> float:
        times = []
        for i in range(runs + 30):
            started = time.perf_counter()
            await graph.ainvoke(first)
            if i >= 30:
                times.append((time.perf_counter() - started) * 1000)
        return statistics.median(times)

    return round(asyncio.run(measure()), 2)


def load_average() -> list[float] | None:
    """The 1/5/15-minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None
