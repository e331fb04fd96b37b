"""A synchronous add-documents is all-or-nothing, and strings no store can hold are a 422 naming their path.

The real app (Milvus Lite, SQLite graph, inventory and journal) with a small fake embedder that fails on a
marked text, as a remote embedder does when it returns 503 for one batch: the failure hits the request's
second internal batch (documents 33-41), after the first batch of 32 would have been written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langchain_core.embeddings import Embeddings

from app.container import Resources
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable
from tests.support.apps import URL, running_app

POISON = "POISON-PILL"


class FailingOn(Embeddings):
    """The app's embedder, failing (503 embedder_unavailable) on any text that contains ``POISON``."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.calls = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if any(POISON in t for t in texts):
            raise EmbedderUnavailable("embedder stub-embed failed: InternalServerError: 503")
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


def doc(i: int, version: int, **extra: Any) -> dict[str, Any]:
    return {"id": f"d{i:02d}", "title": f"Document {i}", "text": f"Version {version} of document {i}.", **extra}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path) as c:
        resources = resources_of(c)
        resources.ingestor.embedder = FailingOn(resources.ingestor.embedder)
        yield c


def resources_of(client: TestClient) -> Resources:
    resources: Resources = client.app.state.resources  # type: ignore[attr-defined]
    return resources


def post_raw(client: TestClient, body: dict[str, Any]) -> Any:
    """POST a body as JSON text with \\u escapes: a lone surrogate travels as the 6 characters ``\\ud83d``."""
    return client.post(URL, content=json.dumps(body), headers={"content-type": "application/json"})


def state(client: TestClient) -> dict[str, Any]:
    """What the stores hold: each document's chunk texts (Milvus), graph node and inventory row."""
    resources = resources_of(client)
    index, kg, catalog = resources.context.index, resources.context.kg, resources.catalog
    assert kg is not None and catalog is not None
    out: dict[str, Any] = {}
    for doc_id in sorted(index.document_ids() | {r.id for r in catalog.list(limit=500)[1]}):
        record = catalog.get(doc_id)
        out[doc_id] = ([c.text for c in index.document_chunks(doc_id)], kg.name(f"doc:{doc_id}"),
                       record.content_hash if record else None)
    return out


def journal_empty(client: TestClient) -> bool:
    kg = resources_of(client).context.kg
    return kg.journal_pending() == []  # type: ignore[union-attr]


def test_an_embedder_failure_in_a_late_batch_changes_none_of_the_request(client: TestClient) -> None:
    assert client.post(URL, json={"action": "add-documents", "documents": [doc(i, 1) for i in range(10)]}).status_code == 200
    before = state(client)
    assert len(before) == 10

    request = [doc(i, 2) for i in range(40)] + [doc(40, 2, text=f"{POISON}: the embedder fails on this one.")]
    r = client.post(URL, json={"action": "add-documents", "documents": request})
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "embedder_unavailable"
    assert r.json()["error"]["details"]["documents"] == [d["id"] for d in request]  # which documents were not written
    assert state(client) == before, "documents 0-9 keep version 1 and 10-40 are absent: nothing of the request"
    assert journal_empty(client)

    request[-1] = doc(40, 2)
    r = client.post(URL, json={"action": "add-documents", "documents": request})
    assert r.status_code == 200, r.text
    after = state(client)
    assert len(after) == 41 and all(texts == [f"Version 2 of document {int(d[1:])}."]
                                    for d, (texts, _, _) in after.items())


def test_a_store_failure_mid_write_changes_none_of_the_request(client: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert client.post(URL, json={"action": "add-documents", "documents": [doc(i, 1) for i in range(3)]}).status_code == 200
    before = state(client)
    kg = resources_of(client).context.kg

    def down(*args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable("knowledge graph", "disk I/O error")

    monkeypatch.setattr(kg, "add_documents", down)  # the last write before the old chunks are deleted
    r = client.post(URL, json={"action": "add-documents", "documents": [doc(i, 2) for i in range(5)]})
    assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
    monkeypatch.undo()
    assert state(client) == before
    assert journal_empty(client)


@pytest.mark.parametrize(
    ("metadata", "path"),
    [
        ({"note": "\ud83d"}, ["metadata", "note"]),
        ({"entities": {"PERSON": ["Ada", "\ud83dx"]}}, ["metadata", "entities", "PERSON", 1]),
        ({"relatedEntities": {"Ada": ["\udc00"]}}, ["metadata", "relatedEntities", "Ada", 0]),
        ({"tags": ["ok", {"deep": "a\x01b"}]}, ["metadata", "tags", 1, "deep"]),
        ({"key\ud800": "value"}, ["metadata", "key\\ud800"]),  # the key escaped: it cannot be written as is
    ],
)
def test_an_unstorable_string_in_metadata_is_a_422_naming_its_path_and_nothing_is_written(
    client: TestClient, metadata: dict[str, Any], path: list[Any]
) -> None:
    request = [doc(i, 1) for i in range(40)] + [doc(40, 1, metadata=metadata)]
    r = post_raw(client, {"action": "add-documents", "documents": request})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"]["code"] == "invalid_request"
    [detail] = body["error"]["details"]
    assert detail["loc"] == ["body", "add-documents", "documents", 40, *path]
    assert detail["type"] == "unsafe_string"
    assert ("surrogate" in detail["msg"]) or ("control character" in detail["msg"])
    assert state(client) == {}
    # the same connection goes on: the next request is answered
    assert client.post(URL, json={"action": "add-documents", "documents": [doc(1, 1)]}).status_code == 200


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [("title", "T\ud83d", ["title"]), ("text", "x\udfff y", ["text"]), ("text", "nul\x00byte", ["text"])],
)
def test_an_unstorable_title_or_text_is_a_422(client: TestClient, field: str, value: str, path: list[str]) -> None:
    r = post_raw(client, {"action": "add-documents", "documents": [doc(0, 1, **{field: value})]})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["details"][0]["loc"] == ["body", "add-documents", "documents", 0, *path]
    assert state(client) == {}


@pytest.mark.parametrize(
    ("entity", "path"),
    [
        ({"standardName": "Ada", "type": "PERSON", "relatedEntities": ["Babbage", "\ud83d"]}, ["relatedEntities", 1]),
        ({"standardName": "Ada", "type": "PERSON", "aliases": ["\ud83d"]}, ["aliases", 0]),
        ({"standardName": "Ada\ud83d", "type": "PERSON"}, ["standardName"]),
        ({"standardName": "Ada", "type": "PERSON", "hierarchy": ["a\x1fb"]}, ["hierarchy", 0]),
    ],
)
def test_an_unstorable_string_in_an_entity_is_a_422_and_nothing_is_written(
    client: TestClient, entity: dict[str, Any], path: list[Any]
) -> None:
    r = post_raw(client, {"action": "add-entity", **entity})
    assert r.status_code == 422, r.text
    [detail] = r.json()["error"]["details"]
    # pydantic's own check on length-limited strings (string_unicode), this service's (unsafe_string), or the
    # entity-name rule that refuses control characters in names (invalid_entity_name)
    assert detail["loc"] == ["body", "add-entity", *path]
    assert detail["type"] in ("unsafe_string", "string_unicode", "invalid_entity_name")
    assert resources_of(client).context.entities.get("Ada") is None


def test_a_large_request_becomes_a_job(tmp_path: Path) -> None:
    with running_app(tmp_path, ingest_sync_max_chars=100) as client:
        r = client.post(URL, json={"action": "add-documents", "documents": [doc(i, 1, text="x" * 60) for i in range(3)]})
        assert r.status_code == 202, r.text
        job_id = r.json()["jobId"]
        job = wait_for(client, job_id)
        assert job["status"] == "done" and job["progress"]["done"] == 3
        assert [d["status"] for d in job["documents"]] == ["done"] * 3
        small = client.post(URL, json={"action": "add-documents", "documents": [doc(9, 1, text="short")]})
        assert small.status_code == 200 and small.json()["documents"] == 1
        forced = client.post(URL, json={"action": "add-documents", "background": True,
                                        "documents": [doc(8, 1, text="short")]})
        assert forced.status_code == 202


def wait_for(client: TestClient, job_id: str, timeout_s: float = 60.0) -> dict[str, Any]:
    """Poll a job until it is done or failed (bounded)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(URL, params={"action": "job", "id": job_id}).json()["job"]
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.1)
