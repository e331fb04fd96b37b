"""``aer loadtest``'s core against the real app in-process: workload, timing, memory and the write check.

The app is the real one (Milvus Lite file, SQLite entity store and graph) with a deterministic embedder
in place of the USE model, so that it starts in seconds; the client is the command's own bounded
``httpx.AsyncClient`` loop over an ASGI transport.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from app.container import Resources, build_resources
from app.main import create_app
from app.settings import Settings
from app.tools.bench.corpus import generate_corpus
from app.tools.bench.timing import rss_mb
from app.tools.loadtest import (
    EntityWrite,
    Workload,
    format_report,
    memory_summary,
    run_load,
    seed,
    summarize,
    verify_writes,
)


def fast_resources(settings: Settings) -> Resources:
    """The real resources with a 512-dimensional deterministic embedder (the USE model never loads)."""
    resources = build_resources(settings)
    fake = DeterministicFakeEmbedding(size=512)
    resources.context = dataclasses.replace(resources.context, embedder=fake)
    resources.ingestor = dataclasses.replace(resources.ingestor, embedder=fake)
    return resources


def test_workload_is_deterministic_and_mixes_kinds() -> None:
    w = Workload(["q1", "q2"], ["Hot"], entity_ratio=0.3, seed=7)
    first = [w.request(worker, n) for worker in range(4) for n in range(50)]
    assert first == [w.request(worker, n) for worker in range(4) for n in range(50)]
    kinds = [k for k, _, _ in first]
    assert 0.15 < kinds.count("add-entity") / len(kinds) < 0.45
    aliases = [write.alias for _, _, write in first if write is not None]
    assert len(aliases) == len(set(aliases)), "every entity write adds a distinct alias"
    assert {write.name for _, _, write in first if write is not None} & {"Hot"}
    with pytest.raises(ValueError):
        Workload([], [], 0.2, 1)


def test_memory_summary_calls_a_growing_second_half_out() -> None:
    flat = memory_summary([(float(t), 500.0 + (t if t < 5 else 5)) for t in range(10)])
    assert flat["flat"] and (flat["start_mb"], flat["end_mb"], flat["max_mb"]) == (500.0, 505.0, 505.0)
    growing = memory_summary([(float(t), 500.0 + 10 * t) for t in range(10)])
    assert not growing["flat"] and growing["second_half_growth_mb"] == 40.0


@pytest.mark.timeout(60)
async def test_short_load_has_no_errors_and_loses_no_write(tmp_path: Path) -> None:
    corpus = generate_corpus(40, seed=3, per_route=2)
    app = create_app(Settings(data_dir=tmp_path, _env_file=None), fast_resources)  # type: ignore[call-arg]
    hot = [e.standard_name for e in corpus.entities if e.type == "ORGANIZATION"][:2]
    workload = Workload([q.text for q in corpus.questions], hot, entity_ratio=0.3, seed=3)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=30) as client:
            seeded = await seed(client, corpus.entities[:30], corpus.documents)
            assert seeded["documents"] == 40 and seeded["chunks"] == 40
            run = await run_load(client, workload, concurrency=4, duration_s=3.0,
                                 rss=lambda: rss_mb(os.getpid())["rss_mb"], rss_interval_s=0.5)
            verification = await verify_writes(client, run.writes)
            # a write the server never acknowledged is reported missing
            bogus = await verify_writes(client, [EntityWrite(hot[0], "never-written"), EntityWrite("Nobody", "x")])
    results: dict[str, Any] = summarize(run, verification, 3.0)
    assert results["totals"]["errors"] == 0, results["totals"]["error_samples"]
    assert results["kinds"]["query"]["requests"] > 0 and results["kinds"]["add-entity"]["requests"] > 0
    assert results["kinds"]["query"]["latency_ms"]["p99"] >= results["kinds"]["query"]["latency_ms"]["p50"] > 0
    assert verification["ok"] and verification["writes"] == results["kinds"]["add-entity"]["requests"]
    assert results["passed"] and results["memory"]["samples"] >= 4
    assert not bogus["ok"] and bogus["missing"] == 2
    report = format_report({**results, "config": {"concurrency": 4, "duration_s": 3.0, "entity_ratio": 0.3},
                            "seed": seeded, "cpus": 2, "load_average": {"start": None},
                            "server": {"startup_s": 0.0}})
    assert "add-entity" in report and "PASSED" in report
