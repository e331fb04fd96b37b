"""RemoteClient against httpx.MockTransport: requests it sends, answers and errors it maps."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.client import API_PATH, RemoteClient, RemoteError, iter_sse, normalize_base_url
from graphs.domain import Document, EntityMetadata

Handler = Callable[[httpx.Request], httpx.Response]


def client(handler: Handler, **kw: Any) -> RemoteClient:
    return RemoteClient("http://aer.test:8000", transport=httpx.MockTransport(handler), **kw)


def error(status: int, code: str, message: str = "m", details: Any = None) -> httpx.Response:
    return httpx.Response(
        status, json={"success": False, "error": {"code": code, "message": message, "details": details}}
    )


class Recorder:
    """Answers every request with ``respond`` and keeps the requests."""

    def __init__(self, respond: Callable[[httpx.Request], httpx.Response]) -> None:
        self.respond = respond
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.respond(request)

    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("localhost:8000", "http://localhost:8000"),
        ("http://h:1/", "http://h:1"),
        ("https://h/prefix/", "https://h/prefix"),
        (f"http://h:8000{API_PATH}", "http://h:8000"),
        (f"http://h:8000{API_PATH}/", "http://h:8000"),
    ],
)
def test_base_url_forms(given: str, expected: str) -> None:
    assert normalize_base_url(given) == expected


def test_empty_base_url_is_rejected() -> None:
    with pytest.raises(ValueError):
        normalize_base_url("  ")


def test_query_sends_camel_case_options_and_returns_the_body() -> None:
    rec = Recorder(lambda r: httpx.Response(200, json={"success": True, "answer": "a"}))
    with client(rec) as c:
        body = c.query(
            "马斯克创办的公司有哪些？", top_k=3, search_mode="hybrid", fusion=None, enableReranking=False
        )
    assert body == {"success": True, "answer": "a"}
    [req] = rec.requests
    assert (req.method, req.url.path, str(req.url.host)) == ("POST", API_PATH, "aer.test")
    assert rec.bodies() == [
        {
            "action": "query",
            "question": "马斯克创办的公司有哪些？",
            "topK": 3,
            "searchMode": "hybrid",
            "enableReranking": False,
            "stream": False,
        }
    ]


def test_error_shape_becomes_remote_error() -> None:
    rec = Recorder(lambda r: error(503, "store_unavailable", "milvus unavailable: down", {"store": "milvus"}))
    with client(rec) as c, pytest.raises(RemoteError) as info:
        c.query("q")
    err = info.value
    assert (err.status, err.code, err.message, err.details) == (
        503,
        "store_unavailable",
        "milvus unavailable: down",
        {"store": "milvus"},
    )
    assert str(err) == "503 store_unavailable: milvus unavailable: down"


def test_non_json_error_keeps_status_and_text() -> None:
    rec = Recorder(lambda r: httpx.Response(502, text="<html>Bad Gateway</html>"))
    with client(rec) as c, pytest.raises(RemoteError) as info:
        c.delete_document("x")
    assert (info.value.status, info.value.code) == (502, "http_error")
    assert "Bad Gateway" in info.value.message


def test_non_json_success_is_an_invalid_response() -> None:
    rec = Recorder(lambda r: httpx.Response(200, text="ok", headers={"content-type": "text/plain"}))
    with client(rec) as c, pytest.raises(RemoteError) as info:
        c.query("q")
    assert info.value.code == "invalid_response"


def test_connection_refused_is_a_remote_error_with_status_0() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with client(refuse) as c, pytest.raises(RemoteError) as info:
        c.health()
    assert (info.value.status, info.value.code) == (0, "connection_failed")
    assert "http://aer.test:8000" in info.value.message


def test_timeout_is_a_remote_error() -> None:
    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    with client(slow) as c, pytest.raises(RemoteError) as info:
        c.query("q")
    assert (info.value.status, info.value.code) == (0, "timeout")


def test_add_documents_batches_by_count_and_sums_the_reports() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        docs = json.loads(request.content)["documents"]
        return httpx.Response(
            200,
            json={
                "success": True,
                "documents": len(docs),
                "chunks": 2 * len(docs),
                "ids": [d["id"] for d in docs],
            },
        )

    rec = Recorder(respond)
    docs: list[Any] = [{"id": f"d{i}", "title": "t", "text": "正文", "metadata": {}} for i in range(249)]
    docs[0] = Document(id="d0", title="t", text="正文")
    seen: list[int] = []
    with client(rec) as c:
        report = c.add_documents(docs, progress=seen.append)
    assert [len(b["documents"]) for b in rec.bodies()] == [100, 100, 49]
    assert all(b["action"] == "add-documents" for b in rec.bodies())
    assert rec.bodies()[0]["documents"][0] == {"id": "d0", "title": "t", "text": "正文", "metadata": {}}
    assert report == {
        "success": True,
        "documents": 249,
        "chunks": 498,
        "ids": [f"d{i}" for i in range(249)],
        "skipped": [],
        "replaced": [],
        "failed": [],
        "batches": 3,
    }
    assert seen == [100, 100, 49]


def test_add_documents_batches_by_size() -> None:
    rec = Recorder(
        lambda r: httpx.Response(200, json={"success": True, "documents": 1, "chunks": 1, "ids": []})
    )
    docs = [{"id": f"d{i}", "text": "x" * 600} for i in range(5)]
    with client(rec, batch_bytes=1500) as c:
        c.add_documents(docs)
    assert [len(b["documents"]) for b in rec.bodies()] == [2, 2, 1]


def test_add_documents_rejects_a_repeated_id_before_sending() -> None:
    rec = Recorder(lambda r: httpx.Response(200, json={}))
    with client(rec) as c, pytest.raises(ValueError, match="'a' appears twice"):
        c.add_documents([{"id": "a", "text": "1"}, {"id": "a", "text": "2"}])
    assert rec.requests == []


def test_add_documents_failure_says_how_many_were_ingested() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        docs = json.loads(request.content)["documents"]
        if docs[0]["id"] == "d2":
            return error(503, "embedder_unavailable", "embedder down")
        return httpx.Response(200, json={"success": True, "documents": len(docs), "chunks": 1, "ids": []})

    with client(Recorder(respond), batch_size=2) as c, pytest.raises(RemoteError) as info:
        c.add_documents([{"id": f"d{i}", "text": "x"} for i in range(4)])
    assert info.value.code == "embedder_unavailable" and info.value.details == {
        "server": None,
        "ingestedBefore": 2,
    }


def test_add_entity_accepts_a_model_or_snake_case_dict() -> None:
    rec = Recorder(lambda r: httpx.Response(200, json={"success": True, "entity": {}}))
    with client(rec) as c:
        c.add_entity(EntityMetadata(standard_name="Elon Musk", type="PERSON", aliases=["马斯克"]))
        c.add_entity({"standard_name": "北京", "type": "LOCATION", "hierarchy": ["中国", "北京"]})
    first, second = rec.bodies()
    assert first == {
        "action": "add-entity",
        "standardName": "Elon Musk",
        "type": "PERSON",
        "aliases": ["马斯克"],
        "hierarchy": [],
        "relatedEntities": [],
    }
    assert second == {
        "action": "add-entity",
        "standardName": "北京",
        "type": "LOCATION",
        "hierarchy": ["中国", "北京"],
    }


def test_alias_conflict_is_409() -> None:
    rec = Recorder(
        lambda r: error(
            409,
            "alias_conflict",
            "alias '苹果' already belongs to 'Apple'",
            {"alias": "苹果", "owner": "Apple"},
        )
    )
    with client(rec) as c, pytest.raises(RemoteError) as info:
        c.add_entity({"standardName": "Apple Records", "type": "ORGANIZATION", "aliases": ["苹果"]})
    assert (info.value.status, info.value.details["owner"]) == (409, "Apple")


def test_delete_document_posts_the_id_and_maps_404() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        doc_id = json.loads(request.content)["id"]
        if doc_id == "gone":
            return error(404, "document_not_found", "no document with id 'gone'")
        return httpx.Response(200, json={"success": True, "id": doc_id, "deletedChunks": 3})

    rec = Recorder(respond)
    with client(rec) as c:
        assert c.delete_document("a")["deletedChunks"] == 3
        with pytest.raises(RemoteError) as info:
            c.delete_document("gone")
    assert rec.bodies()[0] == {"action": "delete-document", "id": "a"}
    assert (info.value.status, info.value.code) == (404, "document_not_found")


def test_list_entities_query_string_and_iteration() -> None:
    people = [{"standardName": f"p{i}", "type": "PERSON"} for i in range(5)]

    def respond(request: httpx.Request) -> httpx.Response:
        q = request.url.params
        offset, limit = int(q["offset"]), int(q["limit"])
        return httpx.Response(
            200,
            json={
                "success": True,
                "total": len(people),
                "offset": offset,
                "limit": limit,
                "entities": people[offset : offset + limit],
            },
        )

    rec = Recorder(respond)
    with client(rec) as c:
        page = c.list_entities("PERSON", offset=1, limit=2)
    assert [e["standardName"] for e in page["entities"]] == ["p1", "p2"]
    assert dict(rec.requests[0].url.params) == {
        "action": "entities",
        "offset": "1",
        "limit": "2",
        "type": "PERSON",
    }


def test_ready_returns_the_body_even_when_not_ready() -> None:
    body = {"ready": False, "checks": {"milvus": {"ok": False, "error": "down"}}}
    with client(lambda r: httpx.Response(503, json=body)) as c:
        assert c.ready() == body


SSE = (
    ": ping - 2025-01-01\r\n\r\n"
    'event: step\r\ndata: {"node": "parse_query"}\r\n\r\n'
    'event: token\r\ndata: {"text": "机器"}\r\n\r\n'
    'event: result\r\ndata: {"success": true, "answer": "机器学习"}\r\n\r\n'
)


def test_iter_sse_parses_events_and_skips_comments() -> None:
    assert list(iter_sse(["event: a", "data: 1", "data: 2", "", ": c", "data: x"])) == [
        ("a", "1\n2"),
        ("message", "x"),
    ]


def job_answer(job_id: str, status: str, outcomes: list[dict[str, Any]], offset: int = 0, limit: int = 100) -> dict[str, Any]:
    counts = {s: sum(o["status"] == s for o in outcomes) for s in ("done", "skipped", "failed", "pending")}
    return {"success": True, "job": {
        "id": job_id, "kind": "add-documents", "status": status, "error": None, "resumed": 0,
        "progress": {"total": len(outcomes), **counts, "chunks": counts["done"], "seconds": 1.0, "chunksPerS": 1.0,
                     "etaS": None},
        "documents": outcomes[offset : offset + limit], "offset": offset, "limit": limit}}


def test_add_documents_follows_a_job_to_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.client.JOB_POLL_S", 0.0)
    polls = {"n": 0}
    outcomes = [{"id": "a", "status": "done", "chunks": 1, "error": None},
                {"id": "b", "status": "skipped", "chunks": 0, "error": None}]

    def respond(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            assert json.loads(request.content)["skipUnchanged"] is True
            return httpx.Response(202, json={"success": True, "jobId": "j1", "status": "queued", "documents": 2})
        params = dict(request.url.params)
        assert (params["action"], params["id"]) == ("job", "j1")
        polls["n"] += 1
        status = "running" if polls["n"] < 3 else "done"
        return httpx.Response(200, json=job_answer("j1", status, outcomes, int(params["offset"]), int(params["limit"])))

    with client(Recorder(respond)) as c:
        report = c.add_documents([{"id": "a", "text": "x"}, {"id": "b", "text": "y"}], skip_unchanged=True)
    assert (report["documents"], report["ids"], report["skipped"], report["chunks"]) == (1, ["a"], ["b"], 1)
    assert polls["n"] >= 3


def test_a_job_that_failed_outright_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.client.JOB_POLL_S", 0.0)

    def respond(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(202, json={"success": True, "jobId": "j2", "status": "queued", "documents": 1})
        return httpx.Response(200, json=job_answer("j2", "failed", [{"id": "a", "status": "pending", "chunks": 0,
                                                                      "error": None}]))

    with client(Recorder(respond)) as c, pytest.raises(RemoteError) as info:
        c.add_documents([{"id": "a", "text": "x"}])
    assert info.value.code == "job_failed" and info.value.details == {"jobId": "j2"}


def test_upload_sends_files_and_their_options_as_a_multipart_form() -> None:
    rec = Recorder(lambda r: httpx.Response(202, json={"success": True, "jobId": "j", "files": []}))
    with client(rec) as c:
        c.upload([("a.md", b"# A"), ("b.pdf", b"%PDF")], metadata={"a.md": {"id": "kb/a"}}, root="/kb")
    [request] = rec.requests
    assert request.url.path == f"{API_PATH}/upload" and request.headers["content-type"].startswith("multipart/form-data")
    body = request.content
    assert b'filename="a.md"' in body and b'filename="b.pdf"' in body and b"# A" in body
    assert b'name="metadata"' in body and b'{"a.md": {"id": "kb/a"}}' in body and b'name="root"' in body


def test_inventory_reads_send_their_filters() -> None:
    rec = Recorder(lambda r: httpx.Response(200, json={"success": True, "total": 0, "documents": []}))
    with client(rec) as c:
        c.list_documents(10, 5, source="guides", title=None, root="/kb")
        c.document("guides/a.md")
    first, second = (dict(r.url.params) for r in rec.requests)
    assert first == {"action": "documents", "offset": "10", "limit": "5", "source": "guides", "root": "/kb"}
    assert second == {"action": "document", "id": "guides/a.md"}


def test_a_job_that_replaced_documents_says_which() -> None:
    job = {"id": "j1", "status": "done", "progress": {"chunks": 3, "total": 3},
           "documents": [{"id": "a/report.md", "status": "replaced"}, {"id": "b/report.md", "status": "done"},
                         {"id": "c.md", "status": "skipped"}]}

    def respond(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(202, json={"success": True, "jobId": "j1", "status": "queued"})
        return httpx.Response(200, json={"success": True, "job": job})

    with client(Recorder(respond)) as c:
        report = c.add_documents([{"id": d["id"], "text": "x"} for d in job["documents"]])
    assert report["documents"] == 2 and report["ids"] == ["a/report.md", "b/report.md"]
    assert report["replaced"] == ["a/report.md"] and report["skipped"] == ["c.md"]


def test_a_workspace_goes_with_every_call_and_can_change_between_calls() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("action") == "job":
            return httpx.Response(200, json={"job": {"id": "j1", "status": "done", "documents": [],
                                                     "progress": {"total": 0, "chunks": 0}}})
        if request.url.path.endswith("/upload"):
            return httpx.Response(202, json={"jobId": "j1", "files": []})
        return httpx.Response(200, json={"success": True, "documents": 1, "chunks": 1, "ids": ["a"], "answer": "x"})

    rec = Recorder(respond)
    with client(rec, workspace="team-a") as c:
        c.query("q")
        c.upload([("a/report.md", b"# r\n\ntext")])
        c.wait_job("j1", poll_s=0)
        c.add_documents([{"id": "a", "title": "t", "text": "x"}])
        c.workspace = "team-b"
        c.list_documents()
        c.workspace = None
        c.query("q")
    seen = [r.headers.get("x-workspace") for r in rec.requests]
    assert seen[:-2] == ["team-a"] * (len(seen) - 2)
    assert seen[-2:] == ["team-b", None]


def test_workspace_administration_calls() -> None:
    def respond(request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and request.url.path == "/api/workspaces":
            return httpx.Response(200, json={"workspaces": [{"name": "default"}, {"name": "team-a"}]})
        if request.url.path == "/api/workspaces/nope":
            return error(404, "workspace_not_found", "no workspace 'nope'")
        return httpx.Response(200, json={"name": "team-a", "documents": 0})

    rec = Recorder(respond)
    with client(rec) as c:
        assert [w["name"] for w in c.list_workspaces()] == ["default", "team-a"]
        assert c.create_workspace("team-a")["name"] == "team-a"
        c.delete_workspace("team-a")
        with pytest.raises(RemoteError) as caught:
            c.workspace_info("nope")
    assert caught.value.status == 404 and caught.value.code == "workspace_not_found"
    assert [(r.method, r.url.path) for r in rec.requests] == [
        ("GET", "/api/workspaces"), ("POST", "/api/workspaces"), ("DELETE", "/api/workspaces/team-a"),
        ("GET", "/api/workspaces/nope")]
    assert json.loads(rec.requests[1].content) == {"name": "team-a"}
