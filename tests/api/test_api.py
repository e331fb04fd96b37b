"""API tests: the real app (Milvus Lite file, SQLite entity store, USE embedder) over the demo corpus."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from app.api.routes.actions import ActionRequest
from app.cli import demo_dir, print_response
from app.client import iter_sse
from app.main import create_app
from app.schemas import API_PATH, QueryResponse
from app.settings import Settings
from tests.support.fakes import graph_counts

URL = API_PATH


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path_factory.mktemp("data"), _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as c:
        for line in (demo_dir() / "entities.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                assert c.post(URL, json={"action": "add-entity", **json.loads(line)}).status_code == 200
        docs = [json.loads(line) for line in (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
        r = c.post(URL, json={"action": "add-documents", "documents": docs})
        assert r.status_code == 200, r.text
        yield c


def ask(client: TestClient, question: str, **kw: Any) -> dict[str, Any]:
    r = client.post(URL, json={"action": "query", "question": question, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def test_seed_person_question(client: TestClient) -> None:
    body = ask(client, "马斯克创办的公司有哪些？")
    assert body["success"] is True
    assert body["queryAnalysis"]["intent"] == "factual"
    [entity] = body["entityValidation"]
    assert (entity["text"], entity["standardName"], entity["match"]) == ("马斯克", "Elon Musk", "alias")
    assert body["routingDecision"]["action"] == "structured_search"
    assert body["retrievalDetails"]["topResults"]
    assert all("Elon Musk" in r["entities"].get("PERSON", []) for r in body["retrievalDetails"]["topResults"])
    assert body["llm"]["used"] is False and "without an LLM" in body["llm"]["note"]
    assert body["workflow"]["steps"][0]["node"] == "parse_query"
    assert body["workflow"]["totalDuration"] > 0


def test_seed_relaxation_question(client: TestClient) -> None:
    body = ask(client, "2024年苹果在北京发布的产品")
    types = {e["type"] for e in body["entityValidation"]}
    assert {"ORGANIZATION", "LOCATION", "DATE"} <= types
    relaxed = body["routingDecision"]["relaxedConstraints"]
    assert relaxed[0]["type"] == "DATE"
    assert body["retrievalDetails"]["searches"][0]["count"] == 0
    assert body["retrievalDetails"]["rankedResultCount"] > 0
    for r in body["retrievalDetails"]["topResults"]:
        assert "Apple" in r["entities"]["ORGANIZATION"] and "北京" in r["entities"]["LOCATION"]


def test_seed_conceptual_question(client: TestClient) -> None:
    body = ask(client, "什么是机器学习？")
    assert body["queryAnalysis"]["intent"] == "conceptual"
    assert body["routingDecision"]["action"] == "semantic_search"
    top = body["retrievalDetails"]["topResults"][0]
    assert "机器学习" in top["text"]
    assert top["rerankedScore"] is not None and top["relevanceExplanation"]


def test_an_entity_named_by_an_alias_is_covered_by_passages_that_name_it_otherwise(client: TestClient) -> None:
    # 老马 is an alias of Elon Musk; the passage says 马斯克 and is tagged Elon Musk
    body = ask(client, "老马在上海建了什么工厂？")
    assert body["status"] == "answered" and body["answerability"]["decision"] == "answerable", body["answerability"]
    assert "tesla-shanghai-zh" in [c["docId"] for c in body["citations"]]


@pytest.mark.parametrize("question", ["拼多多的创始人是谁？", "字节跳动的总部在哪里？", "What is the capital of France?"])
def test_a_question_about_what_no_document_names_is_not_found(client: TestClient, question: str) -> None:
    body = ask(client, question)
    assert body["status"] == "no_results" and body["answerability"]["decision"] == "not_found", body["answer"]
    assert body["citations"] == [] and body["answerSpan"] is None and body["related"]


def test_the_cli_prints_the_answerability_and_the_related_passages_apart(client: TestClient,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    question = "拼多多的创始人是谁？"
    print_response(question, QueryResponse.model_validate(ask(client, question)))
    out = capsys.readouterr().out
    assert "A: 已索引的文档中没有找到这个问题的答案。" in out
    assert "answerability: not_found: " in out and "no retrieved passage mentions 拼多多" in out
    assert "related (not the answer): " in out and "short answer:" not in out


def test_english_question_over_mixed_corpus(client: TestClient) -> None:
    body = ask(client, "When did Tesla open its Shanghai Gigafactory?")
    docs = [r["docId"] for r in body["retrievalDetails"]["topResults"]]
    assert any("shanghai" in d for d in docs), docs


def test_add_entity_conflict_is_409_naming_the_owner(client: TestClient) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": "Apple Records", "type": "ORGANIZATION",
                               "aliases": ["苹果"]})
    assert r.status_code == 409
    err = r.json()["error"]
    assert err["code"] == "alias_conflict" and err["details"]["owner"] == "Apple"
    listed = client.get(URL, params={"action": "entities", "type": "ORGANIZATION", "limit": 500}).json()
    assert "Apple Records" not in [e["standardName"] for e in listed["entities"]]


def test_list_entities_paginated(client: TestClient) -> None:
    page = client.get(URL, params={"action": "entities", "type": "PERSON", "limit": 2}).json()
    assert page["total"] >= 2 and len(page["entities"]) == 2
    assert all(e["type"] == "PERSON" for e in page["entities"])


def test_add_then_delete_document(client: TestClient) -> None:
    doc = {"id": "tmp-doc", "title": "临时文档", "text": "量子计算机使用量子比特进行计算。", "metadata": {}}
    assert client.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
    assert client.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
    body = ask(client, "量子比特", searchMode="hybrid")
    assert [r["docId"] for r in body["retrievalDetails"]["topResults"]].count("tmp-doc") == 1
    graph = client.app.state.resources.context.kg  # type: ignore[attr-defined]
    assert graph.name("doc:tmp-doc") == "临时文档"
    r = client.post(URL, json={"action": "delete-document", "id": "tmp-doc"})
    assert r.status_code == 200 and r.json()["deletedChunks"] == 1
    assert client.post(URL, json={"action": "delete-document", "id": "tmp-doc"}).status_code == 404
    assert graph.name("doc:tmp-doc") is None


def test_ingest_and_add_entity_keep_the_knowledge_graph_in_step(client: TestClient) -> None:
    graph = client.app.state.resources.context.kg  # type: ignore[attr-defined]
    assert graph_counts(graph).nodes["doc"] >= 10
    related = {n.node for n in graph.neighbors("entity:elon musk", edges=["related"])}
    assert {"entity:tesla", "entity:spacex"} <= related
    assert any(n.edge == "mentions" for n in graph.neighbors("entity:elon musk"))


def test_graph_mode_shows_expansion_evidence_and_fusion_components(client: TestClient) -> None:
    body = ask(client, "Who co-founded the company that makes the iPhone together with Steve Jobs?",
               searchMode="graph", graphWeight=0.4, vectorWeight=0.4, ftsWeight=0.2, graphDecay=0.6)
    assert body["routingDecision"]["action"] == "graph_search"
    details = body["retrievalDetails"]
    assert details["expansion"] and details["expansion"][0]["depth"] == 0
    assert {s["decision"] for s in details["expansion"]} <= {"sufficient", "expand", "stop"}
    assert details["fusionWeights"] == {"vector": 0.4, "fts": 0.2, "graph": 0.4, "decay": 0.6}
    assert details["reranker"] == "graph-fusion"
    top = details["topResults"][0]
    assert top["channel"] == "graph" and top["hop"] is not None and top["graphScore"] is not None
    expected = 0.4 * top["denseScore"] + 0.2 * top["bm25Score"] + 0.4 * top["graphScore"]
    assert top["score"] == pytest.approx(expected, abs=1e-4)
    assert details["evidence"]["selector"] == "heuristic"


def test_simple_question_skips_the_graph(client: TestClient) -> None:
    body = ask(client, "When did Tesla open its Shanghai Gigafactory?")
    assert body["retrievalDetails"]["expansion"] == [] and body["retrievalDetails"]["evidence"] is None


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"action": "query", "question": "q", "graphWeight": 2}, 422, "invalid_request"),
        ({"action": "query", "question": "q", "searchMode": "graph", "maxDepth": 9}, 422, "invalid_request"),
        ({"action": "query", "question": ""}, 422, "empty_question"),
        ({"action": "query", "question": "x" * 5000}, 422, "invalid_request"),
        ({"action": "query", "question": "q", "topK": 0}, 422, "invalid_request"),
        ({"action": "query", "question": "q", "topK": 10000}, 422, "invalid_request"),
        ({"action": "query", "question": 42}, 422, "invalid_request"),
        ({"action": "query", "question": "q", "llmModel": "gpt-99"}, 400, "unknown_llm_model"),
        ({"action": "query", "question": "q", "embeddingModel": "nope"}, 400, "unknown_embedding_model"),
        ({"action": "add-entity", "standardName": "X", "type": "ALIEN"}, 422, "invalid_entity_type"),
    ],
)
def test_bad_input_gets_a_clear_error(client: TestClient, payload: dict[str, Any], status: int, code: str) -> None:
    r = client.post(URL, json=payload)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"]


def test_health_and_readiness(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz").json()
    assert ready["ready"] is True and ready["checks"]["milvus"]["ok"] and ready["checks"]["entityStore"]["ok"]
    assert ready["checks"]["graph"] == {"ok": True}


def test_stream_emits_one_step_per_node_then_the_result(client: TestClient) -> None:
    with client.stream("POST", URL, json={"action": "query", "question": "什么是机器学习？"},
                       headers={"accept": "text/event-stream"}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events: list[tuple[str, Any]] = [(name, json.loads(data)) for name, data in iter_sse(r.iter_lines())]
    names = [n for n, _ in events]
    assert names[-1] == "result" and "error" not in names
    steps = [d["node"] for n, d in events if n == "step"]
    assert steps == ["parse_query", "validate_entities", "configure_team", "route_query", "search_semantic", "route_query",
                     "rerank_hits", "write_answer", "check_answer"]
    result = events[-1][1]
    assert result["success"] and result["answer"] and result["routingDecision"]["action"] == "semantic_search"


def test_stream_flag_in_body_also_streams(client: TestClient) -> None:
    with client.stream("POST", URL, json={"action": "query", "question": "SpaceX", "stream": True}) as r:
        body = "".join(r.iter_text())
    assert "event: step" in body and "event: result" in body


def test_stream_sends_answer_tokens_when_an_llm_writes(tmp_path: Path) -> None:
    from dataclasses import replace

    from langchain_core.messages import AIMessage

    from app.container import build_resources
    from tests.support.fakes import ToolCallingFakeChatModel

    def with_fake_llm(settings: Settings) -> Any:
        resources = build_resources(settings)
        extraction = AIMessage(content="", tool_calls=[{"name": "QueryExtraction", "id": "c", "args": {
            "entities": [], "negated": [], "intent": "conceptual", "complexity": "simple",
            "keywords": ["机器学习"], "confidence": 0.9}}])
        llm = ToolCallingFakeChatModel(messages=iter([extraction, AIMessage(content="机器学习 是 人工智能 的 分支 [1]。")]))
        resources.context = replace(resources.context, llm=llm, llm_name="fake")
        return resources

    settings = Settings(data_dir=tmp_path, _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings, with_fake_llm)) as c:
        doc = {"id": "ml", "title": "机器学习", "text": "机器学习是人工智能的一个分支。", "metadata": {}}
        assert c.post(URL, json={"action": "add-documents", "documents": [doc]}).status_code == 200
        with c.stream("POST", URL, json={"action": "query", "question": "什么是机器学习？", "stream": True}) as r:
            text = "".join(r.iter_text())
    tokens = [json.loads(line[5:])["text"] for line in text.splitlines() if line.startswith("data:") and '"text"' in line
              and '"success"' not in line]
    assert len(tokens) > 3 and "".join(tokens).startswith("机器学习")
    assert text.index("event: token") < text.index("event: result")


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"action": "fly", "question": "q"}, 400, "unknown_action"),
        ({"question": "q"}, 400, "unknown_action"),
    ],
)
def test_unknown_or_missing_action_is_400(client: TestClient, payload: dict[str, Any], status: int, code: str) -> None:
    r = client.post(URL, json=payload)
    assert (r.status_code, r.json()["error"]["code"]) == (status, code)


def test_the_unknown_action_error_lists_every_action_the_endpoint_takes(client: TestClient) -> None:
    message = client.post(URL, json={"action": "fly"}).json()["error"]["message"]
    listed = message.split(": ", 1)[1].split(", ")
    assert "delete-entity" in listed and "remove-alias" in listed
    # exactly the route's union: a new action cannot be left out of the message
    assert set(listed) == {get_args(m.model_fields["action"].annotation)[0] for m in get_args(get_args(ActionRequest)[0])}
    for action in listed:  # each one listed is one the endpoint knows (a missing field, not an unknown action)
        r = client.post(URL, json={"action": action})
        assert r.json()["error"]["code"] != "unknown_action", (action, r.text)


def test_invalid_json_is_400(client: TestClient) -> None:
    r = client.post(URL, content=b'{"action": "query", "question": ', headers={"content-type": "application/json"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_json")


def test_ten_megabyte_question_is_413_and_nothing_is_written(client: TestClient) -> None:
    before = client.get(URL, params={"action": "entities", "limit": 1}).json()["total"]
    big = {"action": "add-entity", "standardName": "Huge", "type": "OTHER", "aliases": ["x" * 10_000_000]}
    r = client.post(URL, json=big)
    assert (r.status_code, r.json()["error"]["code"]) == (413, "payload_too_large")
    assert client.post(URL, json={"action": "query", "question": "x" * 10_000_000}).status_code == 413
    assert client.get(URL, params={"action": "entities", "limit": 1}).json()["total"] == before


def test_unknown_route_uses_the_error_shape(client: TestClient) -> None:
    r = client.get("/api/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_openapi_docs_are_served_offline(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert "/api/adaptive-entity-rag" in spec["paths"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "cdn.jsdelivr.net" not in docs.text
    asset = next(part.split('"')[0] for part in docs.text.split('src="')[1:] if part.endswith(".js") or ".js" in part)
    assert client.get(asset).status_code == 200


def test_readyz_reports_an_unreachable_llm_without_failing_readiness(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, llm_base_url="http://127.0.0.1:9/v1", llm_model="m",
                        _env_file=None)  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as c:
        ready = c.get("/readyz")
        body = ready.json()
        assert ready.status_code == 200 and body["ready"] is True
        assert body["checks"]["llm"]["configured"] is True and body["checks"]["llm"]["ok"] is False
        r = c.post(URL, json={"action": "add-documents", "documents": [
            {"id": "d", "title": "t", "text": "机器学习是人工智能的一个分支。"}]})
        assert r.status_code == 200
        answer = c.post(URL, json={"action": "query", "question": "什么是机器学习？"}).json()
        assert answer["degraded"] == ["parse_query", "write_answer"]
        assert "failed" in answer["llm"]["note"] and answer["answerMode"] == "extractive"
