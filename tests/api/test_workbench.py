"""The page's workbench endpoints on the real app (Milvus Lite, SQLite, fake embedder): delete an entity (its
chunks untagged, its graph edges gone), an entity's knowledge-graph neighbourhood with the passages behind each
edge, a conversation's standalone question (the same as /v1/chat/completions forms), and an evaluation run from
an uploaded questions.jsonl as a background job (bad files refused with a 4xx and nothing started)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphs.kg.base import doc_node, entity_node
from tests.support.apps import URL, running_app

DOCS = [
    {"id": "tencent-zh", "title": "腾讯", "text": "腾讯由马化腾于1998年在深圳创立，推出了QQ和微信。"},
    {"id": "wechat", "title": "微信", "text": "微信是腾讯在2011年推出的即时通讯软件，张小龙负责这个产品。"},
    {"id": "jd", "title": "京东", "text": "京东由刘强东于1998年在北京创立，总部位于北京。"},
]
ENTITIES = [
    {"standardName": "马化腾", "type": "PERSON", "aliases": ["Pony Ma"], "relatedEntities": ["腾讯"]},
    {"standardName": "腾讯", "type": "ORGANIZATION", "aliases": ["Tencent"]},
    {"standardName": "刘强东", "type": "PERSON", "aliases": ["Richard Liu"]},
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path, eval_results_dir=tmp_path / "eval-results", eval_max_questions=5) as c:
        assert c.post(URL, json={"action": "add-documents", "documents": DOCS}).status_code == 200
        for e in ENTITIES:
            assert c.post(URL, json={"action": "add-entity", **e}).status_code == 200
        yield c


def tags(client: TestClient, doc_id: str) -> dict[str, list[str]]:
    body = client.get(URL, params={"action": "document", "id": doc_id}).json()
    return {k: v for c in body["chunks"] for k, v in c["entities"].items()}


def error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["success"] is False and body["error"]["code"] == code, body
    return body


# -- delete an entity --------------------------------------------------------------------------------------------


def test_deleting_an_entity_untags_its_chunks_and_drops_it_from_the_store_and_the_graph(client: TestClient) -> None:
    assert "刘强东" in tags(client, "jd")["PERSON"]
    kg = client.app.state.resources.context.kg  # type: ignore[attr-defined]
    assert {n.node for n in kg.neighbors(entity_node("刘强东"))} >= {doc_node("jd")}
    r = client.post(URL, json={"action": "delete-entity", "standardName": "刘强东"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["entity"]["standardName"] == "刘强东" and body["entity"]["aliases"] == ["Richard Liu"]
    assert body["untagged"] == 1
    assert "刘强东" not in tags(client, "jd").get("PERSON", [])
    listed = client.get(URL, params={"action": "entities", "q": "刘强东"}).json()
    assert [e["standardName"] for e in listed["entities"]] == []
    assert [n for n in kg.neighbors(entity_node("刘强东")) if n.edge != "titled"] == []
    # the other entities are untouched
    assert "马化腾" in tags(client, "tencent-zh")["PERSON"]
    # asked again: nothing to delete
    error(client.post(URL, json={"action": "delete-entity", "standardName": "刘强东"}), 404, "entity_not_found")


def test_deleting_an_entity_by_a_bad_name_is_a_422_naming_the_field(client: TestClient) -> None:
    body = error(client.post(URL, json={"action": "delete-entity"}), 422, "invalid_request")
    assert "standardName" in json.dumps(body)
    error(client.post(URL, json={"action": "delete-entity", "standardName": "   "}), 422, "invalid_entity_name")


# -- the knowledge graph -----------------------------------------------------------------------------------------


def test_the_neighbourhood_of_an_entity_lists_its_edges_and_the_passages_behind_them(client: TestClient) -> None:
    r = client.get(f"{URL}/kg/neighbourhood", params={"entity": "Pony Ma"})  # an alias finds the entity
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["center"] == {"id": entity_node("马化腾"), "name": "马化腾", "kind": "entity", "docId": None,
                              "aliases": ["Pony Ma"]}
    nodes = {n["id"]: n for n in body["nodes"]}
    assert nodes[doc_node("tencent-zh")]["docId"] == "tencent-zh" and nodes[doc_node("tencent-zh")]["kind"] == "doc"
    edges = {(e["source"], e["target"], e["kind"]): e for e in body["edges"]}
    mention = edges[(doc_node("tencent-zh"), entity_node("马化腾"), "mentions")]
    assert mention["documents"] == ["tencent-zh"]
    [passage] = mention["passages"]
    assert passage["docId"] == "tencent-zh" and "马化腾" in passage["text"] and passage["chunkId"]
    # a related entity from the entity store: no document behind it
    related = edges[(entity_node("马化腾"), entity_node("腾讯"), "related")]
    assert related["documents"] == [] and related["passages"] == []
    # every edge has the center at one end and every end is listed as a node
    assert all(body["center"]["id"] in (e["source"], e["target"]) for e in body["edges"])
    assert all(e["source"] in nodes and e["target"] in nodes for e in body["edges"])
    assert body["truncated"] is False


def test_a_co_occurrence_edge_shows_the_passage_naming_both(client: TestClient) -> None:
    body = client.get(f"{URL}/kg/neighbourhood", params={"entity": "腾讯"}).json()
    co = [e for e in body["edges"] if e["kind"] == "co_occurs" and entity_node("马化腾") in (e["source"], e["target"])]
    assert co and co[0]["documents"] == ["tencent-zh"]
    assert "马化腾" in co[0]["passages"][0]["text"] and "腾讯" in co[0]["passages"][0]["text"]


def test_the_neighbourhood_is_limited_and_says_so(client: TestClient) -> None:
    body = client.get(f"{URL}/kg/neighbourhood", params={"entity": "腾讯", "limit": 1}).json()
    assert len(body["edges"]) == 1 and body["truncated"] is True
    node = body["edges"][0]["source"] if body["edges"][0]["target"] == body["center"]["id"] else body["edges"][0]["target"]
    again = client.get(f"{URL}/kg/neighbourhood", params={"node": node})
    assert again.status_code == 200 and again.json()["center"]["id"] == node


@pytest.mark.parametrize(("params", "status", "code"), [
    ({}, 422, "invalid_request"),
    ({"entity": "  "}, 422, "invalid_request"),
    ({"entity": "没有这个实体"}, 404, "entity_not_found"),
    ({"node": "doc:nope"}, 404, "node_not_found"),
    ({"entity": "腾讯", "limit": 0}, 422, "invalid_request"),
    ({"entity": "腾\x00讯"}, 422, "invalid_request"),
])
def test_bad_neighbourhood_requests_are_4xx(client: TestClient, params: dict[str, Any], status: int, code: str) -> None:
    error(client.get(f"{URL}/kg/neighbourhood", params=params), status, code)


# -- follow-up questions -----------------------------------------------------------------------------------------

CONVERSATION = [{"role": "user", "content": "腾讯是做什么的？"},
                {"role": "assistant", "content": "腾讯推出了QQ和微信。[1]"},
                {"role": "user", "content": "它是哪一年成立的？"}]


def test_a_follow_up_is_resolved_as_the_chat_endpoint_resolves_it(client: TestClient) -> None:
    r = client.post(f"{URL}/conversation/resolve", json={"messages": CONVERSATION})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mode"] == "entities" and body["question"] == "腾讯 它是哪一年成立的？"
    assert body["original"] == "它是哪一年成立的？"
    assert body["carriedEntities"] == [{"text": "腾讯", "standardName": "腾讯", "type": "ORGANIZATION"}]
    chat = client.post("/v1/chat/completions", json={"model": "aer-extractive", "messages": CONVERSATION}).json()
    assert chat["aer"]["follow_up"]["question"] == body["question"]
    assert chat["aer"]["follow_up"]["mode"] == body["mode"]


def test_a_first_question_is_standalone(client: TestClient) -> None:
    body = client.post(f"{URL}/conversation/resolve", json={"messages": CONVERSATION[:1]}).json()
    assert (body["mode"], body["question"], body["carriedEntities"]) == ("standalone", "腾讯是做什么的？", [])


@pytest.mark.parametrize("messages", [
    [],
    [{"role": "user", "content": "腾讯"}, {"role": "assistant", "content": "a"}],
    [{"role": "user", "content": "x" * 2001}],
    [{"role": "system", "content": "hi"}, {"role": "user", "content": "腾讯"}],
    [{"role": "user", "content": "腾\ud800讯"}],
], ids=["empty", "last-not-user", "too-long", "system-role", "lone-surrogate"])
def test_bad_conversations_are_422(client: TestClient, messages: list[dict[str, str]]) -> None:
    body = json.dumps({"messages": messages})  # ASCII escapes: a lone surrogate travels as \ud800
    r = client.post(f"{URL}/conversation/resolve", content=body, headers={"Content-Type": "application/json"})
    error(r, 422, "invalid_request")


# -- evaluations run from the page -------------------------------------------------------------------------------

QUESTIONS = [
    {"id": "q1", "question": "京东是谁创立的？", "answers": ["刘强东"], "gold_ids": ["jd"], "type": "factual"},
    {"id": "q2", "question": "微信是哪一年推出的？", "answers": ["2011"], "gold_ids": ["wechat"], "type": "factual"},
]


def jsonl(rows: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def follow(client: TestClient, job_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"{URL}/evaluation-jobs/{job_id}")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.2)


def test_an_uploaded_questions_file_is_evaluated_in_the_background_and_its_report_listed(
    client: TestClient, tmp_path: Path
) -> None:
    r = client.post(f"{URL}/evaluation-jobs", files={"file": ("my set.jsonl", jsonl(QUESTIONS))},
                    data={"modes": "bm25,full"})
    assert r.status_code == 202, r.text
    started = r.json()
    assert started["dataset"] == "page-my-set" and started["modes"] == ["bm25", "full"]
    assert started["questions"] == 2 and started["total"] == 4
    done = follow(client, started["id"])
    assert done["status"] == "done", done
    assert done["done"] == 4 and done["error"] is None
    report = done["report"]
    assert report["dataset"] == "page-my-set" and set(report["report"]["modes"]) == {"bm25", "full"}
    assert report["report"]["modes"]["bm25"]["questions"] == 2
    assert report["report"]["modes"]["bm25"]["recall@5"] == 1.0  # each gold document has the asked words
    assert "page-my-set" in report["markdown"]
    assert (tmp_path / "eval-results" / "eval-page-my-set.json").is_file()
    listed = client.get(f"{URL}/evaluations").json()
    assert "page-my-set" in [x["dataset"] for x in listed["reports"]]


@pytest.mark.parametrize(("content", "modes", "status", "code", "fragment"), [
    (b'{"id": "q1", "question": "x", "gold_ids": ["jd"]}\nnot json\n', None, 422, "invalid_questions_file", "line 2"),
    (b'{"id": "q1", "gold_ids": ["jd"]}\n', None, 422, "invalid_questions_file", "line 1: question"),
    (b"\xff\xfe bad", None, 422, "invalid_questions_file", "UTF-8"),
    (b'{"id": "q1", "question": "x"}\n', None, 422, "no_questions", "gold_ids"),
    (b"", None, 422, "no_questions", "gold_ids"),
    (jsonl([{**QUESTIONS[0], "id": f"q{i}"} for i in range(6)]), None, 413, "too_many_questions", "at most 5"),
    (jsonl(QUESTIONS), "bm25,planner", 422, "unknown_mode", "planner"),
], ids=["not-json", "no-question", "not-utf8", "no-gold", "empty", "too-many", "unknown-mode"])
def test_a_bad_questions_file_is_refused_and_nothing_starts(
    client: TestClient, content: bytes, modes: str | None, status: int, code: str, fragment: str
) -> None:
    data = {"modes": modes} if modes else {}
    body = error(client.post(f"{URL}/evaluation-jobs", files={"file": ("q.jsonl", content)}, data=data), status, code)
    assert fragment in body["error"]["message"]
    assert not getattr(client.app.state, "eval_jobs", None) or not client.app.state.eval_jobs.jobs  # type: ignore[attr-defined]


def test_an_unknown_evaluation_job_is_404(client: TestClient) -> None:
    error(client.get(f"{URL}/evaluation-jobs/nope"), 404, "job_not_found")


def test_an_evaluation_whose_index_fails_says_so_and_writes_no_report(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from graphs.stores.base import StoreUnavailable

    index = client.app.state.resources.context.index  # type: ignore[attr-defined]

    def down(*_: Any, **__: Any) -> Any:
        raise StoreUnavailable("milvus", "connection refused")

    monkeypatch.setattr(index, "search_bm25", down)
    r = client.post(f"{URL}/evaluation-jobs", files={"file": ("down.jsonl", jsonl(QUESTIONS))}, data={"modes": "bm25"})
    assert r.status_code == 202, r.text
    done = follow(client, r.json()["id"])
    assert done["status"] == "failed" and done["report"] is None
    assert "milvus unavailable" in done["error"]
    assert not (tmp_path / "eval-results" / "eval-page-down.json").exists()
    metrics = client.get("/metrics").text
    assert 'aer_store_errors_total{store="milvus"}' in metrics


def test_the_graphs_passages_need_a_key_whenever_keys_exist_while_resolving_follows_the_query_rule(
        tmp_path: Path) -> None:
    key = "k-" + "x" * 30
    with running_app(tmp_path, api_keys=[key], require_key_for_queries=False) as c:
        assert c.post(URL, json={"action": "add-documents", "documents": DOCS},
                      headers={"X-API-Key": key}).status_code == 200
        # the neighbourhood quotes documents' text: a read of the corpus, like ?action=document
        error(c.get(f"{URL}/kg/neighbourhood", params={"entity": "腾讯"}), 401, "unauthorized")
        assert c.get(f"{URL}/kg/neighbourhood", params={"entity": "腾讯"},
                     headers={"X-API-Key": key}).status_code in (200, 404)
        resolve = c.post(f"{URL}/conversation/resolve", json={"messages": [{"role": "user", "content": "腾讯是谁创立的"}]})
        assert resolve.status_code == 200, resolve.text
