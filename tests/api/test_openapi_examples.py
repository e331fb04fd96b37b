"""The OpenAPI document: every action has a typed body with an example that succeeds on the demo corpus (Swagger UI's
"Try it out" starts from them), and every 200 body is typed and matches what the app answers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import TypeAdapter

from app.cli import demo_dir
from app.client import iter_sse
from app.schemas import REQUEST_EXAMPLES, ActionResponse, EntityListResponse, QueryResponse
from tests.support.apps import URL, running_app


def demo_records(name: str) -> list[dict[str, Any]]:
    lines = (demo_dir() / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The real app over the demo corpus and entity list (a small fake embedder keeps it quick)."""
    with running_app(Path(tmp_path_factory.mktemp("examples"))) as c:
        for entity in demo_records("entities.jsonl"):
            assert c.post(URL, json={"action": "add-entity", **entity}).status_code == 200
        r = c.post(URL, json={"action": "add-documents", "documents": demo_records("corpus.jsonl")})
        assert r.status_code == 200, r.text
        yield c


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    r = client.get("/openapi.json")
    assert r.status_code == 200
    return dict(r.json())


def test_every_action_has_an_example_and_the_first_asks_a_question(spec: dict[str, Any]) -> None:
    body = spec["paths"][URL]["post"]["requestBody"]["content"]["application/json"]
    examples = body["examples"]
    assert list(examples) == list(REQUEST_EXAMPLES)
    actions = {e["value"]["action"] for e in examples.values()}
    # cancel-job has no example: no job is running on the demo corpus (its body is documented by its schema)
    assert actions == {"query", "add-entity", "remove-alias", "add-documents", "delete-document", "delete-entity"}
    first = next(iter(examples.values()))["value"]
    # The prefilled body of "Try it out": a question, and no placeholder model name ("string" was a 400).
    assert first["action"] == "query" and "llmModel" not in first and "embeddingModel" not in first
    # Each action keeps its own typed body.
    refs = {item["$ref"].rsplit("/", 1)[1] for item in body["schema"]["oneOf"]}
    assert refs == {"QueryRequest", "AddEntityRequest", "AddDocumentsRequest", "DeleteDocumentRequest",
                    "RemoveAliasRequest", "DeleteEntityRequest", "CancelJobRequest"}


def test_each_example_posted_to_the_app_succeeds_and_matches_the_documented_200(client: TestClient) -> None:
    documented: TypeAdapter[Any] = TypeAdapter(ActionResponse)
    for name, example in REQUEST_EXAMPLES.items():
        request = example["value"]
        r = client.post(URL, json=request)
        assert r.status_code == 200, (name, r.text)
        if request.get("stream"):
            events = list(iter_sse(r.iter_lines()))
            assert [e for e, _ in events][-1] == "result", name
            QueryResponse.model_validate_json(events[-1][1])
            continue
        body = r.json()
        assert body["success"] is True, name
        parsed = documented.validate_python(body)
        expected = {"query": "QueryResponse", "add-entity": "AddEntityResponse", "remove-alias": "AddEntityResponse",
                    "add-documents": "AddDocumentsResponse", "delete-document": "DeleteDocumentResponse",
                    "delete-entity": "DeleteEntityResponse"}
        assert type(parsed).__name__ == expected[request["action"]], name
    # The examples leave the corpus as they found it: the added document and entity are deleted again.
    assert client.post(URL, json={"action": "delete-document", "id": "su7-launch"}).status_code == 404
    assert client.post(URL, json={"action": "delete-entity", "standardName": "Jensen Huang"}).status_code == 404


def test_the_200_responses_are_typed(spec: dict[str, Any]) -> None:
    post = spec["paths"][URL]["post"]["responses"]["200"]["content"]
    refs = {item["$ref"].rsplit("/", 1)[1] for item in post["application/json"]["schema"]["anyOf"]}
    assert refs == {"QueryResponse", "AddEntityResponse", "AddDocumentsResponse", "DeleteDocumentResponse",
                    "DeleteEntityResponse", "JobResponse"}
    assert "text/event-stream" in post
    get = spec["paths"][URL]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    refs = {item["$ref"].rsplit("/", 1)[1] for item in get["anyOf"]}
    assert refs == {"EntityListResponse", "DocumentListResponse", "DocumentResponse", "JobResponse", "JobListResponse"}
    query = spec["components"]["schemas"]["QueryResponse"]
    assert {"answer", "citations", "workflow", "routingDecision", "retrievalDetails"} <= set(query["properties"])
    for path in ("/info", "/graph", "/evaluations"):
        schema = spec["paths"][URL + path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert schema["$ref"].rsplit("/", 1)[1] in {"ServiceInfo", "GraphStructure", "EvalReports"}


def test_the_entity_list_matches_its_documented_model(client: TestClient) -> None:
    r = client.get(URL, params={"action": "entities", "type": "PERSON", "limit": 3})
    assert r.status_code == 200
    listed = EntityListResponse.model_validate(r.json())
    assert listed.total >= len(listed.entities) == 3
