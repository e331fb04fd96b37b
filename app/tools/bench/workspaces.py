"""``aer bench --workspaces 10``: does a service holding 10 workspaces answer as fast as one holding one, and what
would one collection with a partition key ``workspace`` cost instead (issue 27: within 1.2x at 10 x 10k chunks).

In one run, on the bench's synthetic corpus of ``size`` chunks (``app/tools/bench/corpus.py``):

1. workspace ``w00`` is ingested through the real ``Ingestor`` (chunks, entities, knowledge graph, inventory) in a
   data dir of its own, as the design builds every workspace (its Milvus Lite file, its search mirror, its SQLite
   files); ``w01`` is made from ``w00``'s archive (``export_workspace`` / ``restore_workspace``: both timed) and
   ``w02``... are copies of ``w00``'s directory: the same rows, which is all a search sees;
2. the same questions go through the real graph, in-process, no LLM, in alternating rounds: every question to
   ``w00`` with only ``w00`` open, then question k to workspace k mod 10 with all 10 open (the same workspace every
   round, so per-question caches are alike on both sides; one warm-up pass of each); the ratio of the two p95s is
   the issue's target (alternating rounds share the machine's load between them);
3. memory: a fresh process opens one workspace, another all of them, each answers one pass of the questions and
   reports its resident memory (Milvus Lite runs in-process);
4. the alternative: one Lite collection of ``workspaces x size`` rows with a partition key ``workspace`` (the
   same rows, each tagged), searched by Milvus Lite under ``workspace == "wNN"`` (dense and BM25), against the
   same searches on one workspace's own collection, by Milvus Lite and by the search mirror (what the service
   uses), and a fresh process's memory with it loaded.

Vectors: a seeded hash of each text, 512 dimensions (USE's), for passages and questions alike: the point is
search latency and memory, and exact search costs the same whatever the vectors hold; question embedding, the
same work in either layout, is left out (``query_embed_ms`` is 0).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import multiprocessing
import shutil
import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from app.tools.bench.corpus import SyntheticCorpus, generate_corpus
from app.tools.bench.harness import bench_settings, fresh_dir, open_resources
from app.tools.bench.timing import load_average
from app.tools.stats import latency_summary, text_table

P95_RATIO_TARGET = 1.2
DIM = 512
PROVIDER = "use"  # the index records USE's fingerprint (512 dimensions); the vectors are HashVectors'
PK_COLLECTION = "aer_chunks_pk"


class HashVectors(Embeddings):
    """A unit vector seeded by the SHA-256 of the text: the same text, the same vector; no model, no time."""

    name = "bench-hash"
    dimension = DIM

    def _one(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def lite_client(path: Path) -> Any:
    """A client of a Lite file, without the keepalive pings its in-process server answers with GOAWAY."""
    from pymilvus import MilvusClient

    from graphs.stores.milvus.index import LITE_GRPC_OPTIONS

    return MilvusClient(uri=str(path), grpc_options=LITE_GRPC_OPTIONS)


def release_lite(client: Any, path: Path) -> None:
    """Close the client and stop the file's in-process Lite server (another process may then open the file)."""
    from milvus_lite.server_manager import server_manager_instance

    client.close()
    server_manager_instance.release_server(str(path.resolve()))


def workspace_dir(work_dir: Path, i: int) -> Path:
    return work_dir / "workspaces" / f"w{i:02d}"


# ---------------------------------------------------------------------------- building the workspaces


def build_workspaces(work_dir: Path, corpus: SyntheticCorpus, count: int, echo: Callable[[str], None]
                     ) -> dict[str, Any]:
    """Ingest ``w00``, restore ``w01`` from its archive, copy the rest; timings."""
    from app.services.workspace_archive import export_workspace, restore_workspace

    out: dict[str, Any] = {}
    fresh_dir(work_dir)
    first = workspace_dir(work_dir, 0)
    inst = open_resources(first, HashVectors(), PROVIDER)
    try:
        started = time.perf_counter()
        for entity in corpus.entities:
            inst.resources.ingestor.upsert_entity(entity)
        report = inst.resources.ingestor.ingest(corpus.documents, batch_size=64)
        inst.resources.index.flush()
        out["ingest_s"] = round(time.perf_counter() - started, 1)
        out["chunks"] = report.chunks
        echo(f"  w00: {report.chunks} chunks ingested in {out['ingest_s']} s")
        archive = work_dir / "w00.aerws"
        started = time.perf_counter()
        export_workspace(inst.resources, archive)
        out["export_s"] = round(time.perf_counter() - started, 1)
        out["archive_mb"] = round(archive.stat().st_size / 2**20, 1)
    finally:
        inst.resources.close()
    if count > 1:
        started = time.perf_counter()
        restore_workspace(archive, bench_settings(workspace_dir(work_dir, 1), PROVIDER))
        out["import_s"] = round(time.perf_counter() - started, 1)
        echo(f"  w01: restored from w00's archive ({out['archive_mb']} MiB) in {out['import_s']} s "
             f"(export {out['export_s']} s)")
    for i in range(2, count):
        shutil.copytree(first, workspace_dir(work_dir, i))
    out["workspace_mb"] = round(sum(f.stat().st_size for f in first.rglob("*") if f.is_file()) / 2**20, 1)
    return out


# ---------------------------------------------------------------------------- query latency


async def _ask(resources: Any, question: str) -> float:
    from app.schemas import QueryRequest
    from app.services.query import answer

    started = time.perf_counter()
    await answer(resources, QueryRequest(question=question))
    return (time.perf_counter() - started) * 1000


def measure_latency(work_dir: Path, corpus: SyntheticCorpus, count: int, rounds: int,
                    echo: Callable[[str], None]) -> dict[str, Any]:
    """Alternating rounds: every question to w00 alone, then each question to its workspace (k mod count) with all
    open; p50/p95/mean of each series and their ratio."""
    embedder = HashVectors()
    questions = [q.text for q in corpus.questions]
    single: list[float] = []
    multi: list[float] = []
    per_round: list[dict[str, float | None]] = []

    async def run() -> None:
        one = open_resources(workspace_dir(work_dir, 0), embedder, PROVIDER).resources
        opened = [one] + [open_resources(workspace_dir(work_dir, i), embedder, PROVIDER).resources
                          for i in range(1, count)]
        try:
            # Question k always goes to workspace k % count: each question meets the same workspace every round, as
            # it meets w00 every round in the single series, so per-question caches are alike on both sides. One
            # pass of each series warms them up (mirrors, graph name indexes, caches).
            for k, q in enumerate(questions):
                await _ask(one, q)
                await _ask(opened[k % count], q)
            for r in range(rounds):
                a = [await _ask(one, q) for q in questions]
                b = [await _ask(opened[k % count], q) for k, q in enumerate(questions)]
                single.extend(a)
                multi.extend(b)
                per_round.append({"single_p95": latency_summary(a)["p95"], "multi_p95": latency_summary(b)["p95"]})
                echo(f"  round {r + 1}/{rounds}: p95 1 workspace {per_round[-1]['single_p95']} ms, "
                     f"{count} workspaces {per_round[-1]['multi_p95']} ms (load {load_average()})")
        finally:
            for res in opened:
                res.close()

    asyncio.run(run())
    s, m = latency_summary(single), latency_summary(multi)
    ratio = round(m["p95"] / s["p95"], 3) if s["p95"] and m["p95"] else None
    p50_ratio = round(m["p50"] / s["p50"], 3) if s["p50"] and m["p50"] else None
    round_ratios = [r["multi_p95"] / r["single_p95"] for r in per_round if r["single_p95"] and r["multi_p95"]]
    return {"single_ms": s, "multi_ms": m, "p95_ratio": ratio, "p50_ratio": p50_ratio, "target": P95_RATIO_TARGET,
            "within_target": None if ratio is None else ratio <= P95_RATIO_TARGET,
            "median_round_ratio": round(statistics.median(round_ratios), 3) if round_ratios else None,
            "rounds": per_round}


# ---------------------------------------------------------------------------- memory, each in a fresh process


def _memory_probe(work_dir: str, corpus_size: int, seed: int, count: int, kind: str, queue: Any) -> None:
    """In a fresh process: open ``count`` workspaces (or the partition-key collection), answer one pass of the
    questions, report resident memory."""
    from app.tools.bench.timing import rss_mb as rss

    corpus = generate_corpus(corpus_size, seed)
    import os

    base = rss(os.getpid())["rss_mb"]
    if kind in ("pk", "files"):  # the store alone: Milvus Lite's own search, no service around it
        emb = HashVectors()
        if kind == "pk":
            clients = [(lite_client(Path(work_dir) / "pk" / "milvus.db"), PK_COLLECTION)]
        else:
            clients = [(lite_client(workspace_dir(Path(work_dir), i) / "milvus.db"), "aer_chunks") for i in range(count)]
        for client, name in clients:
            client.load_collection(name)
        for k, q in enumerate(corpus.questions):
            client, name = clients[k % len(clients)]
            where = f'workspace == "w{k % count:02d}"' if kind == "pk" else ""
            client.search(name, data=[emb.embed_query(q.text)], anns_field="dense", limit=20, filter=where,
                          output_fields=["doc_id"], search_params={"metric_type": "IP"})
            client.search(name, data=[q.text], anns_field="sparse", limit=20, filter=where,
                          output_fields=["doc_id"], search_params={"metric_type": "BM25"})
        queue.put({"rss_mb": rss(os.getpid())["rss_mb"], "base_mb": base})
        for client, _ in clients:
            client.close()
        return
    embedder = HashVectors()
    opened = [open_resources(workspace_dir(Path(work_dir), i), embedder, PROVIDER).resources for i in range(count)]

    async def ask_all() -> None:
        for k, q in enumerate(corpus.questions):
            await _ask(opened[k % count], q.text)

    asyncio.run(ask_all())
    queue.put({"rss_mb": rss(os.getpid())["rss_mb"], "base_mb": base})
    for res in opened:
        res.close()


def measure_memory(work_dir: Path, size: int, seed: int, count: int, kind: str) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_memory_probe, args=(str(work_dir), size, seed, count, kind, queue))
    proc.start()
    try:
        while True:
            try:
                return dict(queue.get(timeout=5))
            except Exception:  # queue.Empty: still working, or dead
                if not proc.is_alive():
                    return {"rss_mb": None, "base_mb": None, "error": f"the probe exited with {proc.exitcode}"}
    finally:
        proc.join(60)


# ---------------------------------------------------------------------------- the partition-key alternative


def build_partitioned(work_dir: Path, count: int, echo: Callable[[str], None]) -> dict[str, Any]:
    """One Lite collection holding every workspace's rows, tagged by a partition key ``workspace``."""
    from pymilvus import DataType

    from graphs.stores.milvus import MilvusIndex
    from graphs.stores.milvus.bulk import export_rows
    from graphs.stores.milvus.schema import DEFAULT_ANALYZER, INDEX_PARAMS, build_schema

    source = MilvusIndex(str(workspace_dir(work_dir, 0) / "milvus.db"), "aer_chunks", DIM)
    path = work_dir / "pk" / "milvus.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    client = lite_client(path)
    started = time.perf_counter()
    try:
        schema = build_schema(client, DIM, DEFAULT_ANALYZER)
        schema.add_field("workspace", DataType.VARCHAR, max_length=64, is_partition_key=True)
        client.create_collection(PK_COLLECTION, schema=schema, num_partitions=16, consistency_level="Strong")
        params = client.prepare_index_params()
        params.add_index("dense", index_type="FLAT", metric_type="IP")
        params.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                         params=INDEX_PARAMS["sparse"])
        params.add_index("workspace", index_type="INVERTED")
        client.create_index(PK_COLLECTION, params)
        client.load_collection(PK_COLLECTION)
        rows = 0
        for batch in export_rows(source, batch=1024):
            for i in range(count):
                tagged = [{**r, "id": f"w{i:02d}:{r['id']}", "workspace": f"w{i:02d}"} for r in batch]
                client.insert(PK_COLLECTION, tagged)
                rows += len(tagged)
            if rows % 20480 < 1024 * count:
                echo(f"  partition-key collection: {rows} rows ({time.perf_counter() - started:.0f} s)")
        client.flush(PK_COLLECTION)
    finally:
        release_lite(client, path)
        source.close()
    return {"rows": rows, "build_s": round(time.perf_counter() - started, 1)}


def measure_searches(work_dir: Path, corpus: SyntheticCorpus, count: int, repeats: int) -> dict[str, Any]:
    """Dense and BM25 searches (top 20): one workspace's collection through the mirror and through Milvus Lite,
    and the partition-key collection through Milvus Lite under ``workspace == "wNN"``; p50/p95 ms."""
    from graphs.stores.milvus import MilvusIndex

    emb = HashVectors()
    texts = [q.text for q in corpus.questions]
    vectors = [emb.embed_query(t) for t in texts]
    pick = min(3, count - 1)  # one workspace's own collection, and the same workspace's rows in the other layout
    own = MilvusIndex(str(workspace_dir(work_dir, pick) / "milvus.db"), "aer_chunks", DIM)
    where = f'workspace == "w{pick:02d}"'
    pk_path = work_dir / "pk" / "milvus.db"
    client = lite_client(pk_path)
    client.load_collection(PK_COLLECTION)
    timings: dict[str, list[float]] = {k: [] for k in (
        "dense: own collection, search mirror", "dense: own collection, Milvus Lite",
        "dense: partition key, Milvus Lite", "bm25: own collection, search mirror",
        "bm25: own collection, Milvus Lite", "bm25: partition key, Milvus Lite")}

    def timed(key: str, fn: Callable[[], Any]) -> None:
        started = time.perf_counter()
        fn()
        timings[key].append((time.perf_counter() - started) * 1000)

    try:
        own.count()  # open, mirror loaded
        for _ in range(repeats + 1):
            for v, t in zip(vectors, texts, strict=True):
                own.use_mirror = True
                timed("dense: own collection, search mirror", partial(own.search_dense, v, filter=None, limit=20))
                timed("bm25: own collection, search mirror", partial(own.search_bm25, t, filter=None, limit=20))
                own.use_mirror = False
                timed("dense: own collection, Milvus Lite", partial(own.search_dense, v, filter=None, limit=20))
                timed("bm25: own collection, Milvus Lite", partial(own.search_bm25, t, filter=None, limit=20))
                timed("dense: partition key, Milvus Lite", partial(
                    client.search, PK_COLLECTION, data=[v], anns_field="dense", limit=20, filter=where,
                    output_fields=["doc_id", "title", "text"], search_params={"metric_type": "IP"}))
                timed("bm25: partition key, Milvus Lite", partial(
                    client.search, PK_COLLECTION, data=[t], anns_field="sparse", limit=20, filter=where,
                    output_fields=["doc_id", "title", "text"], search_params={"metric_type": "BM25"}))
            if _ == 0:
                for values in timings.values():
                    values.clear()  # the first pass warms up
    finally:
        own.close()
        release_lite(client, pk_path)
    return {k: latency_summary(v) for k, v in timings.items()}


# ---------------------------------------------------------------------------- the run


def run_workspaces_bench(work_dir: Path, size: int, count: int, *, seed: int = 42, per_route: int = 8,
                         rounds: int = 3, partition_key: bool = True, memory: bool = True,
                         echo: Callable[[str], None] = print,
                         save: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The whole comparison; the JSON-ready results (``save``d after each phase: a long run cut short keeps
    what it measured)."""
    save = save or (lambda _: None)
    import os
    import platform

    corpus = generate_corpus(size, seed, per_route)
    out: dict[str, Any] = {
        "size": size, "workspaces": count, "questions": len(corpus.questions), "rounds": rounds,
        "cpus": os.cpu_count(), "platform": platform.platform(), "load_average": {"start": load_average()},
        "vectors": "seeded hash of the text, 512 dimensions (question embedding left out)",
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }
    echo(f"{count} workspaces x {size} chunks: building (load {load_average()})")
    out["build"] = build_workspaces(work_dir, corpus, count, echo)
    out["load_average"]["after_build"] = load_average()
    save(out)
    echo(f"query latency, {rounds} alternating rounds of {len(corpus.questions)} questions")
    out["latency"] = measure_latency(work_dir, corpus, count, rounds, echo)
    out["load_average"]["after_latency"] = load_average()
    save(out)
    if memory:
        echo("memory: a fresh process with 1 workspace, then one with all")
        out["memory"] = {"one": measure_memory(work_dir, size, seed, 1, "workspaces"),
                         "all": measure_memory(work_dir, size, seed, count, "workspaces"),
                         "lite_files": measure_memory(work_dir, size, seed, count, "files")}
        save(out)
    if partition_key:
        echo(f"the alternative: one collection, partition key workspace, {count} x {size} rows")
        out["partition_key"] = build_partitioned(work_dir, count, echo)
        save(out)
        out["partition_key"]["searches_ms"] = measure_searches(work_dir, corpus, count, max(1, rounds))
        if memory:
            out["partition_key"]["memory"] = measure_memory(work_dir, size, seed, count, "pk")
    out["load_average"]["end"] = load_average()
    return out


def format_workspaces(result: dict[str, Any]) -> str:
    """The results as text tables."""
    lat = result["latency"]
    b = result["build"]
    lines = [
        f"== {result['workspaces']} workspaces x {result['size']} chunks ({result['cpus']} CPUs; load average "
        f"{result['load_average']}) ==",
        f"w00 ingested in {b['ingest_s']} s ({b['chunks']} chunks, {b['workspace_mb']} MiB on disk); exported in "
        f"{b['export_s']} s ({b['archive_mb']} MiB archive); w01 restored from it in {b.get('import_s', '-')} s",
        "",
        f"query latency in-process (ms; {lat['single_ms']['n']} queries each; vectors: {result['vectors']}):",
    ]
    lines += text_table(["", "n", "p50", "p95", "mean", "max"], [
        [label, s["n"], s["p50"], s["p95"], s["mean"], s["max"]]
        for label, s in (("1 workspace", lat["single_ms"]), (f"{result['workspaces']} workspaces", lat["multi_ms"]))])
    lines.append(f"p95 ratio {lat['p95_ratio']} (median of rounds {lat['median_round_ratio']}; p50 ratio "
                 f"{lat.get('p50_ratio')}; target <= "
                 f"{lat['target']}: {'met' if lat['within_target'] else 'NOT met'})")
    if "memory" in result:
        m = result["memory"]
        lines.append(f"resident memory after one pass: 1 workspace {m['one']['rss_mb']} MiB, "
                     f"{result['workspaces']} workspaces {m['all']['rss_mb']} MiB (process at start "
                     f"{m['one']['base_mb']} MiB); Milvus Lite alone with the {result['workspaces']} files "
                     f"{m.get('lite_files', {}).get('rss_mb')} MiB")
    if "partition_key" in result:
        pk = result["partition_key"]
        lines += ["", f"one collection with a partition key: {pk['rows']} rows built in {pk['build_s']} s"
                  + (f"; Milvus Lite alone with it: {pk['memory']['rss_mb']} MiB after one pass" if "memory" in pk
                     else "")]
        lines += text_table(["search (top 20)", "n", "p50", "p95"],
                            [[k, v["n"], v["p50"], v["p95"]] for k, v in pk["searches_ms"].items()])
    return "\n".join(lines)


def workspaces_command(work_dir: Path, out: Path, size: int, count: int, seed: int, per_route: int, rounds: int,
                       partition_key: bool, memory: bool, echo: Callable[[str], None]) -> dict[str, Any]:
    """``aer bench --workspaces N``: run, write the JSON next to ``out``, print the tables."""
    out.parent.mkdir(parents=True, exist_ok=True)

    def save(result: dict[str, Any]) -> None:
        out.write_text(json.dumps(result, ensure_ascii=False, indent=2), encoding="utf-8")

    result = run_workspaces_bench(work_dir, size, count, seed=seed, per_route=per_route, rounds=rounds,
                                  partition_key=partition_key, memory=memory, echo=echo, save=save)
    save(result)
    echo(format_workspaces(result))
    echo(f"results: {out}")
    return result


__all__ = ["HashVectors", "format_workspaces", "run_workspaces_bench", "workspaces_command"]

