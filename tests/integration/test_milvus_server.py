"""The remote-URI path (``MILVUS_URI=http://host:port``) against a real Milvus gRPC server.

``milvus-lite server`` speaks the same gRPC protocol as Milvus standalone, so the service runs exactly
the code path it runs under docker-compose: ingest, filtered and hybrid search, delete, readiness,
and a Milvus outage that must surface as 503 ``store_unavailable`` (never as zero hits), then recovery.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from pymilvus import MilvusClient

from app.cli import demo_dir
from app.client import iter_sse
from app.main import create_app
from app.settings import Settings
from graphs.domain import Chunk, Constraint
from graphs.stores.base import StoreUnavailable
from graphs.stores.filters import Compare, build_filter, doc_filter
from graphs.stores.milvus import MilvusIndex
from graphs.stores.milvus.expressions import render
from tests.support.servers import URL, LiteServer, free_port, milvus_lite_server_command

pytestmark = pytest.mark.slow

COLLECTION = "aer_server_it"


@pytest.fixture(scope="module")
def lite_server_cmd() -> list[str]:
    return milvus_lite_server_command()


@pytest.fixture(scope="module")
def server(lite_server_cmd: list[str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiteServer]:
    srv = LiteServer(lite_server_cmd, tmp_path_factory.mktemp("milvus-server") / "data")
    try:
        yield srv.start()
    finally:
        srv.stop()


def server_settings(data_dir: Path, uri: str, **kw: Any) -> Settings:
    return Settings(data_dir=data_dir, milvus_uri=uri, collection=COLLECTION, _env_file=None, **kw)  # type: ignore[call-arg]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def client(server: LiteServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir = tmp_path_factory.mktemp("api-data")
    with TestClient(create_app(server_settings(data_dir, server.uri))) as c:
        for entity in read_jsonl(demo_dir() / "entities.jsonl"):
            assert c.post(URL, json={"action": "add-entity", **entity}).status_code == 200
        r = c.post(
            URL, json={"action": "add-documents", "documents": read_jsonl(demo_dir() / "corpus.jsonl")}
        )
        assert r.status_code == 200, r.text
        yield c
    assert not (data_dir / "milvus.db").exists(), "a server URI must not fall back to a Lite file"


def ask(client: TestClient, question: str, **kw: Any) -> dict[str, Any]:
    r = client.post(URL, json={"action": "query", "question": question, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_data_lives_on_the_server(client: TestClient, server: LiteServer) -> None:
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"]["milvus"] == {"ok": True}
    direct = MilvusClient(uri=server.uri)
    try:
        assert direct.has_collection(COLLECTION)
        rows = direct.query(
            COLLECTION, filter='doc_id == "musk-ventures-zh"', output_fields=["doc_id", "title"]
        )
    finally:
        direct.close()
    assert rows and {r["doc_id"] for r in rows} == {"musk-ventures-zh"}


def test_structured_query_filters_on_the_server(client: TestClient) -> None:
    body = ask(client, "马斯克创办的公司有哪些？")
    assert body["routingDecision"]["action"] == "structured_search"
    first = body["retrievalDetails"]["searches"][0]
    assert "Elon Musk" in first["filter"] and first["count"] > 0
    top = body["retrievalDetails"]["topResults"]
    assert top and all("Elon Musk" in r["entities"].get("PERSON", []) for r in top)


def test_relaxation_runs_against_the_server(client: TestClient) -> None:
    body = ask(client, "2024年苹果在北京发布的产品")
    assert body["routingDecision"]["relaxedConstraints"][0]["type"] == "DATE"
    assert body["retrievalDetails"]["searches"][0]["count"] == 0
    for r in body["retrievalDetails"]["topResults"]:
        assert "Apple" in r["entities"]["ORGANIZATION"] and "北京" in r["entities"]["LOCATION"]


def test_hybrid_search_then_delete(client: TestClient) -> None:
    doc = {"id": "qc-doc", "title": "量子计算", "text": "量子计算机使用量子比特进行计算。", "metadata": {}}
    for _ in range(2):  # re-adding replaces, never duplicates
        assert client.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
    body = ask(client, "量子比特", searchMode="hybrid")
    assert body["retrievalDetails"]["searches"][0]["channel"] == "hybrid"
    assert [r["docId"] for r in body["retrievalDetails"]["topResults"]].count("qc-doc") == 1
    r = client.post(URL, json={"action": "delete-document", "id": "qc-doc"})
    assert r.status_code == 200 and r.json()["deletedChunks"] == 1
    after = ask(client, "量子比特", searchMode="hybrid")
    assert "qc-doc" not in [r["docId"] for r in after["retrievalDetails"]["topResults"]]
    gone = client.post(URL, json={"action": "delete-document", "id": "qc-doc"})
    assert (gone.status_code, gone.json()["error"]["code"]) == (404, "document_not_found")


def test_an_entity_added_after_ingest_retags_chunks_on_the_server(client: TestClient) -> None:
    doc = {"id": "zhipu-doc", "title": "智谱", "text": "智谱AI发布了GLM系列大模型，总部位于北京。", "metadata": {}}
    assert client.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
    r = client.post(URL, json={"action": "add-entity", "standardName": "智谱AI", "type": "ORGANIZATION",
                               "aliases": ["智谱", "Zhipu"]})
    assert r.status_code == 200 and r.json()["retagged"] == 1
    [chunk] = client.get(URL, params={"action": "document", "id": "zhipu-doc"}).json()["chunks"]
    assert chunk["entities"]["ORGANIZATION"] == ["智谱AI"]
    body = ask(client, "智谱发布了什么大模型？")
    assert body["routingDecision"]["action"] == "structured_search" and not body["routingDecision"]["relaxedConstraints"]
    assert body["retrievalDetails"]["topResults"][0]["docId"] == "zhipu-doc"


def test_milvus_index_on_the_server(server: LiteServer) -> None:
    index = MilvusIndex(server.uri, "aer_index_it", 4)
    try:
        chunks = [
            Chunk(
                id="a:0",
                doc_id="a",
                chunk_index=0,
                title="A",
                text="苹果 在 北京 发布 新品",
                entities={"ORGANIZATION": ["Apple"], "LOCATION": ["北京"]},
                date=20240105,
            ),
            Chunk(
                id="b:0",
                doc_id="b",
                chunk_index=0,
                title="B",
                text="特斯拉 在 上海 建厂",
                entities={"ORGANIZATION": ["Tesla"], "LOCATION": ["上海"]},
                date=20190107,
            ),
        ]
        assert index.replace_document("a", chunks[:1], [[1, 0, 0, 0]]) == 1
        assert index.replace_document("b", chunks[1:], [[0, 1, 0, 0]]) == 1
        assert index.document_ids() == {"a", "b"}
        # not orthogonal to b's vector: a score of exactly 0 is how dense search knows a placeholder row whose
        # vector is still being filled (graphs.ingest.vector_fill), never a real embedding's
        only_b = index.search_dense([1, 0.5, 0, 0], filter=doc_filter("b"), limit=5)
        assert [h.doc_id for h in only_b] == ["b"] and only_b[0].channel == "structured"
        dated = index.search_dense([1, 1, 0, 0], filter=Compare("date", ">=", 20240101), limit=5)
        assert [h.doc_id for h in dated] == ["a"]
        hybrid = index.search_hybrid([0, 1, 0, 0], "特斯拉", filter=None, limit=2, fusion="weighted")
        assert hybrid[0].doc_id == "b" and hybrid[0].dense_score == pytest.approx(1.0)
        assert [h.doc_id for h in index.search_bm25("苹果", filter=None, limit=5)] == ["a"]
        assert index.delete_document("a") == 1 and index.count() == 1
    finally:
        index.close()


def stream_events(client: TestClient, question: str) -> list[tuple[str, Any]]:
    with client.stream("POST", URL, json={"action": "query", "question": question, "stream": True}) as r:
        assert r.status_code == 200
        return [(name, json.loads(data)) for name, data in iter_sse(r.iter_lines())]


def test_outage_is_503_not_zero_hits_and_the_service_recovers(
    lite_server_cmd: list[str], tmp_path: Path
) -> None:
    srv = LiteServer(lite_server_cmd, tmp_path / "milvus").start()
    try:
        with TestClient(create_app(server_settings(tmp_path / "api", srv.uri))) as c:
            doc = {"id": "ml", "title": "机器学习", "text": "机器学习是人工智能的一个分支。", "metadata": {}}
            assert c.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
            assert ask(c, "什么是机器学习？")["retrievalDetails"]["topResults"]

            srv.stop()
            ready = c.get("/readyz")
            assert ready.status_code == 503
            checks = ready.json()["checks"]
            assert checks["milvus"]["ok"] is False and "milvus" in checks["milvus"]["error"]
            assert checks["entityStore"]["ok"] is True

            r = c.post(URL, json={"action": "query", "question": "什么是机器学习？"})
            assert r.status_code == 503, r.text
            err = r.json()["error"]
            assert err["code"] == "store_unavailable" and err["details"] == {"store": "milvus"}
            events = stream_events(c, "什么是机器学习？")
            assert events[-1][0] == "error" and events[-1][1]["error"]["code"] == "store_unavailable"
            assert "result" not in [name for name, _ in events]
            added = c.post(URL, json={"action": "add-documents", "documents": [{**doc, "id": "ml2"}]})
            assert (added.status_code, added.json()["error"]["code"]) == (503, "store_unavailable")
            assert c.get(URL, params={"action": "entities"}).status_code == 200  # the entity store is fine

            srv = LiteServer(lite_server_cmd, srv.data_dir, srv.port)  # same port and data: Milvus is back
            srv.start()
            # The client reconnects by itself; gRPC may need a retry or two after the port reopens.
            deadline = time.monotonic() + 30
            while c.get("/readyz").status_code != 200:
                assert time.monotonic() < deadline, "the service did not become ready after Milvus came back"
                time.sleep(0.5)
            assert [h["docId"] for h in ask(c, "什么是机器学习？")["retrievalDetails"]["topResults"]] == [
                "ml"
            ]
    finally:
        srv.stop()


def test_milvus_down_at_startup_is_reported_clearly(tmp_path: Path) -> None:
    port = free_port()  # nothing listens here
    app = create_app(server_settings(tmp_path, f"http://127.0.0.1:{port}"))
    started = time.monotonic()
    try:
        with TestClient(app) as c:
            # Start and report not-ready: readiness names Milvus, queries are 503 (not empty results).
            ready = c.get("/readyz")
            assert ready.status_code == 503 and ready.json()["checks"]["milvus"]["ok"] is False
            r = c.post(URL, json={"action": "query", "question": "什么是机器学习？"})
            assert (r.status_code, r.json()["error"]["code"]) == (503, "store_unavailable")
    except StoreUnavailable as exc:
        # Or fail fast, naming the store and the address that could not be reached.
        assert exc.store == "milvus" and f"127.0.0.1:{port}" in str(exc)
    assert time.monotonic() - started < 60, "a closed port must not hang startup"


# -- an approximate dense index on the server ---------------------------------------------------------------

ANN_DIM = 32
ANN_ROWS = 3000
NEEDLES = 15  # rows the selective filter allows
NEEDLE = build_filter([Constraint(type="PERSON", value="needle")])


def ann_corpus() -> list[tuple[str, list[Chunk], list[list[float]]]]:
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((ANN_ROWS, ANN_DIM))
    needles = set(rng.choice(ANN_ROWS, NEEDLES, replace=False).tolist())
    docs = []
    for i in range(ANN_ROWS):
        entities = {"PERSON": ["needle" if i in needles else f"p{i % 50}"]}
        chunk = Chunk(id=f"d{i}#0", doc_id=f"d{i}", chunk_index=0, title="", text=f"row {i}", entities=entities)
        docs.append((f"d{i}", [chunk], [vectors[i].tolist()]))
    return docs


@pytest.fixture(scope="module")
def ann_pair(server: LiteServer) -> Iterator[tuple[MilvusIndex, MilvusIndex]]:
    """The same rows in an HNSW collection and a FLAT one on the server."""
    hnsw = MilvusIndex(server.uri, "aer_hnsw_it", ANN_DIM, dense_index="HNSW")
    flat = MilvusIndex(server.uri, "aer_flat_it", ANN_DIM)
    docs = ann_corpus()
    for index in (hnsw, flat):
        for start in range(0, ANN_ROWS, 500):
            index.replace_documents(docs[start : start + 500])
        index.flush()
    yield hnsw, flat
    hnsw.close()
    flat.close()


def queries(n: int) -> list[list[float]]:
    return np.random.default_rng(1).standard_normal((n, ANN_DIM)).tolist()  # type: ignore[no-any-return]


def test_an_approximate_index_never_drops_rows_a_filter_allows(ann_pair: tuple[MilvusIndex, MilvusIndex]) -> None:
    hnsw, flat = ann_pair
    assert (hnsw._dense_index, flat._dense_index) == ("HNSW", "FLAT")
    client = hnsw._client
    assert client is not None
    raw_short = 0
    for q in queries(10):
        expected = [h.id for h in flat.search_dense(q, filter=NEEDLE, limit=10)]
        assert len(expected) == 10
        assert [h.id for h in hnsw.search_dense(q, filter=NEEDLE, limit=10)] == expected
        # What the index alone returns for the same filter: the loss this guards against.
        raw = client.search("aer_hnsw_it", data=[q], anns_field="dense", filter=render(NEEDLE), limit=10,
                            search_params={"metric_type": "IP", "params": {"ef": 64}})[0]  # fmt: skip
        raw_short += len(raw) < 10
    assert raw_short > 0
    # A filter that allows nothing is a confirmed zero (and so relaxes for a real reason).
    none = build_filter([Constraint(type="PERSON", value="nobody")])
    assert hnsw.search_dense(queries(1)[0], filter=none, limit=10) == [] and hnsw.count(none) == 0


def test_above_the_exact_limit_the_index_searches_and_a_short_answer_is_redone_exactly(
    server: LiteServer, ann_pair: tuple[MilvusIndex, MilvusIndex], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, flat = ann_pair
    hnsw = MilvusIndex(server.uri, "aer_hnsw_it", ANN_DIM, dense_index="HNSW", exact_max=5)
    try:
        exact_calls = []
        real = MilvusIndex._exact_dense
        monkeypatch.setattr(MilvusIndex, "_exact_dense", lambda self, *a: exact_calls.append(a) or real(self, *a))
        for q in queries(5):
            # 15 allowed rows > exact_max 5: the index is asked first, falls short, the search is redone exactly.
            assert [h.id for h in hnsw.search_dense(q, filter=NEEDLE, limit=10)] == [
                h.id for h in flat.search_dense(q, filter=NEEDLE, limit=10)
            ]
        assert len(exact_calls) == 5
        # A filter allowing most rows: answered by the index alone, in full.
        many = build_filter([Constraint(type="PERSON", value="needle", negated=True)])
        exact_calls.clear()
        hits = hnsw.search_dense(queries(1)[0], filter=many, limit=10)
        assert len(hits) == 10 and not exact_calls and all("needle" not in h.entities["PERSON"] for h in hits)
    finally:
        hnsw.close()


def test_unfiltered_search_uses_the_index_with_high_recall(ann_pair: tuple[MilvusIndex, MilvusIndex]) -> None:
    hnsw, flat = ann_pair
    found = total = 0
    for q in queries(20):
        expected = {h.id for h in flat.search_dense(q, filter=None, limit=10)}
        found += len(expected & {h.id for h in hnsw.search_dense(q, filter=None, limit=10)})
        total += len(expected)
    assert found / total >= 0.95


def test_an_unknown_dense_index_is_refused() -> None:
    with pytest.raises(ValueError, match="dense_index"):
        MilvusIndex("http://127.0.0.1:1", "x", 4, dense_index="DISKANN")
    with pytest.raises(ValueError, match="exact_max"):
        MilvusIndex("http://127.0.0.1:1", "x", 4, exact_max=-1)
