"""``aer loadtest``: sustained mixed load on a real ``aer serve`` subprocess, then a check that no write was lost.

1. A fresh data dir under ``--work-dir``; ``aer serve`` on a free loopback port (the bench's machinery),
   seeded over HTTP with a synthetic bilingual corpus and its entities (``app.tools.bench.command``'s generator).
2. ``--concurrency`` workers keep one request each in flight for ``--duration`` seconds: a query
   (a generated question) or, with probability ``--entity-ratio``, an add-entity call that either
   creates a new entity or adds an alias to one of a few shared "hot" entities (writes contending for
   the same row). Every request is timed; anything but HTTP 200 with ``success: true`` is an error.
3. The server's RSS is sampled every ``--rss-interval`` seconds ("memory flat": start, middle, end).
4. Afterwards every entity and alias that was acknowledged is looked up through the API.

The client is a bounded ``httpx.AsyncClient`` (one connection per worker) that only talks to loopback.
The command exits non-zero when a request failed or an acknowledged write is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import httpx
import typer

from app.schemas import API_PATH
from app.tools.bench.corpus import generate_corpus
from app.tools.bench.harness import BenchServer, fresh_dir
from app.tools.bench.timing import load_average, rss_mb
from app.tools.stats import fmt, latency_summary, text_table
from graphs.domain import Document, EntityMetadata

Kind = Literal["query", "add-entity"]
KINDS: tuple[Kind, ...] = ("query", "add-entity")
HOT_ENTITIES = 4  # shared entities that receive aliases concurrently
FLAT_TOLERANCE = 0.05  # end-of-run RSS within 5% (or FLAT_FLOOR_MB) of the mid-run RSS counts as flat
FLAT_FLOOR_MB = 16.0


@dataclass(frozen=True)
class LoadConfig:
    concurrency: int = 16
    duration_s: float = 60.0
    entity_ratio: float = 0.2
    documents: int = 1000
    seed: int = 42
    work_dir: Path = Path("loadtest-data")
    rss_interval_s: float = 1.0
    request_timeout_s: float = 60.0
    startup_timeout_s: float = 300.0


@dataclass(frozen=True)
class Sample:
    kind: Kind
    ok: bool
    ms: float
    at_s: float
    error: str | None = None


@dataclass(frozen=True)
class EntityWrite:
    """An acknowledged add-entity call: ``alias`` must be among ``name``'s aliases afterwards."""

    name: str
    alias: str


class Workload:
    """The request mix, seeded: queries from ``questions``; entity writes that are all distinct aliases."""

    def __init__(self, questions: Sequence[str], hot: Sequence[str], entity_ratio: float, seed: int) -> None:
        if not questions:
            raise ValueError("the workload needs questions")
        if not 0.0 <= entity_ratio <= 1.0:
            raise ValueError("entity_ratio must lie in [0, 1]")
        self.questions = list(questions)
        self.hot = list(hot)
        self.entity_ratio = entity_ratio
        self.seed = seed
        self.run = f"{seed:x}{random.Random(seed).getrandbits(20):05x}"

    def request(self, worker: int, n: int) -> tuple[Kind, dict[str, Any], EntityWrite | None]:
        """The ``n``-th request of ``worker`` (deterministic for a seed)."""
        rng = random.Random(f"{self.seed}:{worker}:{n}")
        if rng.random() >= self.entity_ratio:
            return "query", {"action": "query", "question": rng.choice(self.questions)}, None
        alias = f"lt{self.run}-w{worker}-n{n}"  # unique in the whole store: never an alias conflict
        if self.hot and rng.random() < 0.5:
            name = rng.choice(self.hot)
        else:
            name = f"负载测试实体 {self.run} w{worker} n{n}"
        payload = {"action": "add-entity", "standardName": name, "type": "ORGANIZATION", "aliases": [alias]}
        return "add-entity", payload, EntityWrite(name, alias)


@dataclass
class LoadRun:
    samples: list[Sample] = field(default_factory=list)
    writes: list[EntityWrite] = field(default_factory=list)
    rss: list[tuple[float, float]] = field(default_factory=list)
    seconds: float = 0.0
    timed_out: bool = False


async def run_load(
    client: httpx.AsyncClient,
    workload: Workload,
    concurrency: int,
    duration_s: float,
    rss: Callable[[], float | None] | None = None,
    rss_interval_s: float = 1.0,
    grace_s: float = 120.0,
) -> LoadRun:
    """Keep ``concurrency`` requests in flight for ``duration_s``; sample the server's RSS meanwhile."""
    if concurrency < 1 or duration_s <= 0:
        raise ValueError("concurrency must be >= 1 and duration_s > 0")
    run = LoadRun()
    started = time.monotonic()
    deadline = started + duration_s

    async def worker(w: int) -> None:
        n = 0
        while time.monotonic() < deadline:
            kind, payload, write = workload.request(w, n)
            n += 1
            at = time.monotonic() - started
            t0 = time.perf_counter()
            error: str | None = None
            try:
                r = await client.post(API_PATH, json=payload)
                if r.status_code != 200 or r.json().get("success") is not True:
                    error = f"{kind}: HTTP {r.status_code}: {r.text[:300]}"
            except (httpx.HTTPError, ValueError) as exc:
                error = f"{kind}: {type(exc).__name__}: {exc}"
            ms = (time.perf_counter() - t0) * 1000
            run.samples.append(Sample(kind, error is None, ms, round(at, 3), error))
            if error is None and write is not None:
                run.writes.append(write)

    async def sampler() -> None:
        while True:
            value = rss() if rss else None
            if value is not None:
                run.rss.append((round(time.monotonic() - started, 2), value))
            await asyncio.sleep(rss_interval_s)

    sampling = asyncio.create_task(sampler()) if rss else None
    try:
        try:
            await asyncio.wait_for(asyncio.gather(*(worker(w) for w in range(concurrency))),
                                   timeout=duration_s + grace_s)
        except TimeoutError:
            run.timed_out = True
    finally:
        run.seconds = time.monotonic() - started
        if sampling is not None:
            if rss is not None and (value := rss()) is not None:
                run.rss.append((round(run.seconds, 2), value))
            sampling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sampling
    return run


async def list_entities(client: httpx.AsyncClient, page: int = 500) -> dict[str, dict[str, Any]]:
    """Every entity in the store, by standard name, through the paginated list endpoint."""
    out: dict[str, dict[str, Any]] = {}
    offset = 0
    while True:
        r = await client.get(API_PATH, params={"action": "entities", "offset": offset, "limit": page})
        r.raise_for_status()
        body = r.json()
        for e in body["entities"]:
            out[e["standardName"]] = e
        offset += len(body["entities"])
        if not body["entities"] or offset >= body["total"]:
            return out


async def verify_writes(client: httpx.AsyncClient, writes: Sequence[EntityWrite]) -> dict[str, Any]:
    """Look every acknowledged entity write up through the API: nothing may be missing."""
    held = await list_entities(client)
    missing_entities = sorted({w.name for w in writes if w.name not in held})
    missing_aliases = sorted(
        f"{w.name}: {w.alias}" for w in writes if w.name in held and w.alias not in held[w.name]["aliases"]
    )
    return {
        "writes": len(writes),
        "entities_written": len({w.name for w in writes}),
        "entities_in_store": len(held),
        "missing_entities": missing_entities[:20],
        "missing_aliases": missing_aliases[:20],
        "missing": len(missing_entities) + len(missing_aliases),
        "ok": not missing_entities and not missing_aliases,
    }


def latency(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, mean, p50, p95, p99 and max in ms (None when empty)."""
    return latency_summary(values, (50, 95, 99), digits=1)


def memory_summary(rss: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """RSS at start, middle and end of the run, its peak, and whether the second half stayed flat."""
    if not rss:
        return {"samples": 0}
    values = [v for _, v in rss]
    start, mid, end = values[0], values[len(values) // 2], values[-1]
    growth = end - mid
    return {
        "samples": len(values),
        "start_mb": start,
        "middle_mb": mid,
        "end_mb": end,
        "max_mb": max(values),
        "second_half_growth_mb": round(growth, 1),
        "flat": growth <= max(FLAT_TOLERANCE * mid, FLAT_FLOOR_MB),
        "series": [[t, v] for t, v in rss],
    }


def summarize(run: LoadRun, verification: dict[str, Any], duration_s: float) -> dict[str, Any]:
    """Totals, per-kind latency and throughput, errors, memory and the write check, JSON-ready."""
    errors = [s for s in run.samples if not s.ok]
    kinds = {}
    for kind in KINDS:
        mine = [s for s in run.samples if s.kind == kind]
        kinds[kind] = {
            "requests": len(mine),
            "errors": sum(not s.ok for s in mine),
            "throughput_rps": round(len(mine) / run.seconds, 2) if run.seconds else None,
            "latency_ms": latency([s.ms for s in mine if s.ok]),
        }
    return {
        "totals": {
            "requests": len(run.samples),
            "ok": len(run.samples) - len(errors),
            "errors": len(errors),
            "error_samples": [s.error for s in errors[:5]],
            "seconds": round(run.seconds, 2),
            "target_seconds": duration_s,
            "throughput_rps": round(len(run.samples) / run.seconds, 2) if run.seconds else None,
            "timed_out": run.timed_out,
            "latency_ms": latency([s.ms for s in run.samples if s.ok]),
        },
        "kinds": kinds,
        "memory": memory_summary(run.rss),
        "verification": verification,
        "passed": not errors and not run.timed_out and verification.get("ok", False),
    }


# ---------------------------------------------------------------------------- the command


async def seed(client: httpx.AsyncClient, entities: Sequence[EntityMetadata], documents: Sequence[Document],
               batch: int = 100) -> dict[str, Any]:
    """Load the entities and documents over HTTP (the server embeds and indexes)."""
    started = time.monotonic()
    for entity in entities:
        r = await client.post(API_PATH, json={"action": "add-entity", **entity.model_dump(by_alias=True)})
        r.raise_for_status()
    entity_s = time.monotonic() - started
    chunks = 0
    for i in range(0, len(documents), batch):
        docs = [d.model_dump(mode="json", include={"id", "title", "text", "metadata"}) for d in documents[i : i + batch]]
        r = await client.post(API_PATH, json={"action": "add-documents", "documents": docs})
        r.raise_for_status()
        chunks += int(r.json()["chunks"])
    return {"entities": len(entities), "documents": len(documents), "chunks": chunks,
            "entity_load_s": round(entity_s, 2), "seconds": round(time.monotonic() - started, 2)}


def run_loadtest(config: LoadConfig, echo: Callable[[str], None] = typer.echo) -> dict[str, Any]:
    """Start ``aer serve`` on a fresh data dir, seed it, load it, verify the writes; the JSON-ready results."""
    data_dir = fresh_dir(config.work_dir / "data")
    corpus = generate_corpus(config.documents, config.seed, per_route=16)
    questions = [q.text for q in corpus.questions]
    hot = [e.standard_name for e in corpus.entities if e.type == "ORGANIZATION"][:HOT_ENTITIES]
    workload = Workload(questions, hot, config.entity_ratio, config.seed)
    out: dict[str, Any] = {
        "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in dataclasses.asdict(config).items()},
        "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "cpus": os.cpu_count(),
        "load_average": {"start": load_average()},
        "questions": len(questions),
        "hot_entities": hot,
    }
    with BenchServer(data_dir, data_dir / "serve.log", config.startup_timeout_s) as server:
        assert server.proc is not None
        pid = server.proc.pid
        out["server"] = {"base_url": server.base_url, "startup_s": server.startup_s}

        async def go() -> dict[str, Any]:
            limits = httpx.Limits(max_connections=config.concurrency, max_keepalive_connections=config.concurrency)
            timeout = httpx.Timeout(config.request_timeout_s, connect=5.0)
            async with httpx.AsyncClient(base_url=server.base_url, timeout=timeout, limits=limits) as client:
                echo(f"seeding {len(corpus.entities)} entities and {len(corpus.documents)} documents ...")
                out["seed"] = await seed(client, corpus.entities, corpus.documents)
                out["server"]["rss_after_seed_mb"] = rss_mb(pid)["rss_mb"]
                # one untimed pass: the first query of each route loads lazy state (jieba, caches)
                for q in questions[:8]:
                    (await client.post(API_PATH, json={"action": "query", "question": q})).raise_for_status()
                echo(f"load: {config.concurrency} concurrent clients for {config.duration_s:.0f} s, "
                     f"{config.entity_ratio:.0%} add-entity ...")
                run = await run_load(client, workload, config.concurrency, config.duration_s,
                                     rss=lambda: rss_mb(pid)["rss_mb"], rss_interval_s=config.rss_interval_s,
                                     grace_s=config.request_timeout_s)
                verification = await verify_writes(client, run.writes)
                return summarize(run, verification, config.duration_s)

        out |= asyncio.run(go())
        out["server"]["peak_rss_mb"] = server.memory().get("peak_mb")
    out["server"]["exit_code"] = server.proc.returncode
    out["server"]["clean_shutdown"] = "Application shutdown complete" in server.tail()
    out["load_average"]["end"] = load_average()
    return out


def format_report(results: dict[str, Any]) -> str:
    """The tables a person reads."""
    t, m, v = results["totals"], results["memory"], results["verification"]
    cfg = results["config"]
    lines = [
        f"aer loadtest — {cfg['concurrency']} concurrent clients for {cfg['duration_s']:.0f} s, "
        f"{cfg['entity_ratio']:.0%} add-entity; {results['seed']['chunks']} chunks, "
        f"{results['seed']['entities']} seed entities; {results['cpus']} CPUs, load average {results['load_average']['start']}",
        f"aer serve started in {results['server']['startup_s']} s",
        "",
    ]
    rows = []
    for kind, k in results["kinds"].items():
        lat = k["latency_ms"]
        rows.append([kind, k["requests"], k["errors"], k["throughput_rps"], lat["p50"], lat["p95"], lat["p99"], lat["max"]])
    lat = t["latency_ms"]
    rows.append(["all", t["requests"], t["errors"], t["throughput_rps"], lat["p50"], lat["p95"], lat["p99"], lat["max"]])
    lines += text_table(["kind", "requests", "errors", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"], rows)
    if t["error_samples"]:
        lines += ["", "errors:", *(f"  {e}" for e in t["error_samples"])]
    if m.get("samples"):
        lines += ["", f"server RSS MiB: start {fmt(m['start_mb'])}, middle {fmt(m['middle_mb'])}, end {fmt(m['end_mb'])}, "
                      f"max {fmt(m['max_mb'])} ({m['samples']} samples); second half "
                      f"{m['second_half_growth_mb']:+.1f} MiB: {'flat' if m['flat'] else 'GROWING'}"]
    lines.append(f"writes verified: {v['writes']} acknowledged alias writes on {v['entities_written']} entities, "
                 f"{v['missing']} missing ({v['entities_in_store']} entities in the store)")
    lines.append("PASSED" if results["passed"] else "FAILED")
    return "\n".join(lines)


def loadtest_command(
    concurrency: Annotated[int, typer.Option(min=1, max=256, help="Requests kept in flight.")] = 16,
    duration: Annotated[float, typer.Option(min=1, help="Seconds of sustained load.")] = 60.0,
    entity_ratio: Annotated[float, typer.Option(min=0.0, max=1.0, help="Share of add-entity calls.")] = 0.2,
    documents: Annotated[int, typer.Option(min=10, help="Synthetic documents (one chunk each) to seed.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the corpus, the questions and the request mix.")] = 42,
    work_dir: Annotated[Path, typer.Option(help="The server's fresh data dir goes below this one.")] = Path(
        "loadtest-data"
    ),
    out: Annotated[Path, typer.Option(help="Where to write the JSON results.")] = Path(
        "bench-results/loadtest.json"
    ),
    rss_interval: Annotated[float, typer.Option(min=0.1, help="Seconds between RSS samples.")] = 1.0,
    request_timeout: Annotated[float, typer.Option(min=1, help="Per-request timeout in seconds.")] = 60.0,
    startup_timeout: Annotated[float, typer.Option(min=1, help="Seconds to wait for aer serve.")] = 300.0,
) -> None:
    """Sustained mixed load (queries + add-entity) on a real `aer serve`; fails on any error or lost write."""
    config = LoadConfig(concurrency=concurrency, duration_s=duration, entity_ratio=entity_ratio, documents=documents,
                        seed=seed, work_dir=work_dir, rss_interval_s=rss_interval, request_timeout_s=request_timeout,
                        startup_timeout_s=startup_timeout)
    results = run_loadtest(config)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    typer.echo(format_report(results))
    typer.echo(f"\nresults written to {out}")
    if not results["passed"]:
        raise typer.Exit(1)

