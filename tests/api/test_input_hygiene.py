"""Hostile and sloppy input at the door: strict types, unknown fields, blank values, entity name hygiene,
look-alike warnings and unparsable bodies, each a 4xx with its own code and a message naming the field; a
refused request writes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from tests.support.apps import URL, entity_names, running_app

DOC = {"id": "doc-1", "title": "Snake", "text": "snake_case 是一种命名风格。"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("hygiene")) as c:
        assert c.post(URL, json={"action": "add-documents", "documents": [DOC]}).status_code == 200
        for name, aliases in (("Apple", ["苹果"]), ("Ma Huateng", ["马化腾"]), ("上海", ["魔都"])):
            r = c.post(URL, json={"action": "add-entity", "standardName": name, "type": "PERSON"
                                  if name == "Ma Huateng" else "ORGANIZATION", "aliases": aliases})
            assert r.status_code == 200 and not r.json().get("warnings"), r.text
        yield c


def refused(r: Any, status: int, code: str, field: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["success"] is False and body["error"]["code"] == code, body
    assert field in body["error"]["message"], body["error"]["message"]
    return body


# -- 4. strict types, unknown fields, blank values ----------------------------------------------------------


@pytest.mark.parametrize(("extra", "field"), [
    ({"topK": True}, "topK"), ({"topK": "5"}, "topK"), ({"topK": 5.0}, "topK"), ({"maxDepth": False}, "maxDepth"),
    ({"enableReranking": "yes"}, "enableReranking"), ({"stream": "yes"}, "stream"), ({"stream": 1}, "stream"),
    ({"useEvidenceSelection": "false"}, "useEvidenceSelection"), ({"vectorWeight": True}, "vectorWeight"),
])
def test_booleans_are_booleans_and_integers_integers(client: TestClient, extra: dict[str, Any], field: str) -> None:
    body = refused(client.post(URL, json={"action": "query", "question": "什么是机器学习？", **extra}),
                   422, "invalid_request", field)
    assert body["error"]["details"][0]["loc"][-1] == field


@pytest.mark.parametrize("question", ["", " ", "\t\n", "\u3000", "   \u00a0 ", "?", "。", "-", "...", "\u0000", "🍎",
                                      "\u200b", "\ufeff", "\u3164", "¿¡!?"])
def test_a_content_free_question_is_refused_with_one_code(client: TestClient, question: str) -> None:
    refused(client.post(URL, json={"action": "query", "question": question}), 422, "empty_question", "question")


@pytest.mark.parametrize(("payload", "field"), [
    ({"action": "query", "question": "q", "topk": 3}, "'topk'"),
    ({"action": "add-entity", "standardName": "Zed", "type": "OTHER", "alias": ["Z"]}, "'alias'"),
    ({"action": "add-documents", "documents": [{**DOC, "id": "d2", "url": "x"}]}, "'documents[0].url'"),
    ({"action": "delete-document", "id": "doc-1", "force": True}, "'force'"),
])
def test_unknown_fields_are_refused_by_name(client: TestClient, payload: dict[str, Any], field: str) -> None:
    before = entity_names(client)
    body = refused(client.post(URL, json=payload), 422, "invalid_request", f"unknown field {field}")
    assert body["error"]["details"][0]["type"] == "extra_forbidden"
    assert entity_names(client) == before


@pytest.mark.parametrize(("aliases", "code"), [([""], "invalid_request"), (["Zed", "  "], "invalid_entity_name"),
                                               (["\u200b"], "invalid_entity_name")])
def test_blank_aliases_are_refused_not_dropped(client: TestClient, aliases: list[str], code: str) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": "Zed", "type": "OTHER", "aliases": aliases})
    refused(r, 422, code, f"aliases[{len(aliases) - 1}]")
    assert "Zed" not in entity_names(client)


def test_a_422_names_every_failing_field(client: TestClient) -> None:
    r = client.post(URL, json={"action": "query", "question": "q", "topK": 0, "maxDepth": 9, "fusion": "max"})
    message = refused(r, 422, "invalid_request", "topK")["error"]["message"]
    assert "maxDepth" in message and "fusion" in message and "schema" not in message


# -- 3. entity names ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "reason"), [
    ("Ev\x00il", "control character (U+0000)"), ("Ev\til", "control character (U+0009)"),
    ("Evil\n", "control character (U+000A)"), ("Ev\x85il", "control character (U+0085)"),
    ("\u202eelppA", "bidirectional control character (U+202E)"), ("\u200b", "invisible formatting character"),
    ("_", "must contain a letter or a digit"), ("...", "must contain a letter or a digit"),
])
@pytest.mark.parametrize("field", ["standardName", "aliases", "hierarchy", "relatedEntities"])
def test_unusable_entity_names_are_422_and_write_nothing(client: TestClient, name: str, reason: str,
                                                         field: str) -> None:
    before = entity_names(client)
    payload = {"action": "add-entity", "standardName": "Fine Name", "type": "ORGANIZATION"}
    payload[field] = name if field == "standardName" else [name]
    body = refused(client.post(URL, json=payload), 422, "invalid_entity_name", field)
    assert reason in body["error"]["message"]
    assert entity_names(client) == before


def test_a_punctuation_entity_cannot_capture_questions(client: TestClient) -> None:
    client.post(URL, json={"action": "add-entity", "standardName": "_", "type": "ORGANIZATION"})
    r = client.post(URL, json={"action": "query", "question": "snake_case 是什么？"})
    assert r.status_code == 200, r.text
    assert not [c for c in r.json()["routingDecision"]["finalConstraints"] if c["value"] == "_"]
    assert "_" not in entity_names(client)


@pytest.mark.parametrize("name", ["C++", "AT&T", "R&D", "Wi-Fi", "3M", "北京", "Ｓｏｎｙ", "Zoë"])
def test_legitimate_names_are_accepted_nfkc_normalized_without_warnings(client: TestClient, name: str) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": name, "type": "ORGANIZATION"})
    assert r.status_code == 200, r.text
    assert r.json()["warnings"] == []
    assert r.json()["entity"]["standardName"] == ("Sony" if name == "Ｓｏｎｙ" else name)


@pytest.mark.parametrize(("name", "aliases", "value", "looks_like", "owner"), [
    ("Аpple", [], "Аpple", "Apple", "Apple"),  # Cyrillic А
    ("Ма Huateng", [], "Ма Huateng", "Ma Huateng", "Ma Huateng"),  # Cyrillic М, а
    ("Fruit Company", ["Applе"], "Applе", "Apple", "Apple"),  # Cyrillic е
])
def test_a_look_alike_of_an_existing_name_is_accepted_with_a_warning(
    client: TestClient, name: str, aliases: list[str], value: str, looks_like: str, owner: str
) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": name, "type": "OTHER", "aliases": aliases})
    assert r.status_code == 200, r.text
    warnings = {(w["code"], w["value"], w["looksLike"], w["owner"]) for w in r.json()["warnings"]}
    assert ("confusable_name", value, looks_like, owner) in warnings  # (and Аpple's, added before, for Applе)
    assert name in entity_names(client)


def test_the_cli_refuses_bad_names_before_opening_any_store(tmp_path: Any) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["entities", "add", "Ev\u202eil", "-t", "ORGANIZATION"])
    assert result.exit_code == 2 and "bidirectional control character (U+202E)" in result.output
    result = runner.invoke(cli, ["entities", "add", "Zed", "-t", "ORGANIZATION", "-a", ""])
    assert result.exit_code == 2 and "aliases.0" in result.output
    path = tmp_path / "entities.jsonl"
    path.write_text('{"standardName": "Good", "type": "OTHER"}\n{"standardName": "_", "type": "OTHER"}\n')
    result = runner.invoke(cli, ["entities", "import", str(path)])
    assert result.exit_code == 2 and "line 2" in result.output and "letter or a digit" in result.output


# -- 6. unparsable bodies -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("raw", "reason"), [
    (b'{"action": "query", "question": "\xff\xfe\xfa"}', "not valid UTF-8"),
    (b"[" * 1000 + b"]" * 1000, "nests too deeply"),
    (b'{"action": "query", "question": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nests too deeply"),
    (b'{"action": "query",', "not valid JSON at character 19"),
])
def test_unparsable_bodies_are_invalid_json(client: TestClient, raw: bytes, reason: str) -> None:
    r = client.post(URL, content=raw, headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_json" and reason in error["message"], error


# -- the contract documents it -----------------------------------------------------------------------------------


def test_openapi_documents_strict_closed_request_models(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    for name in ("QueryRequest", "AddEntityRequest", "AddDocumentsRequest", "DeleteDocumentRequest", "DocumentIn"):
        assert schemas[name]["additionalProperties"] is False, name
    query = schemas["QueryRequest"]["properties"]
    assert query["topK"]["type"] == "integer" and query["stream"]["type"] == "boolean"
    assert query["question"]["pattern"] == r"\S"
    assert "invalid_entity_name" in schemas["AddEntityRequest"]["properties"]["standardName"]["description"]
    responses = spec["paths"][URL]["post"]["responses"]
    assert "invalid_entity_name" in responses["422"]["description"]
    assert "unknown field" in responses["422"]["description"] or "extra_forbidden" in responses["422"]["description"]
    assert "request_timeout" in responses["408"]["description"]


@pytest.mark.parametrize(("payload", "meant"), [
    ({"action": "query", "qusetion": "谁写的报告？"}, "(did you mean 'question'?)"),
    ({"action": "query", "question": "q", "top_k": 3, "searchmode": "hybrid"}, "(did you mean 'searchMode'?)"),
    ({"action": "query", "question": "q", "searchMode": "hybird"}, "(did you mean 'hybrid'?)"),
    ({"action": "add-entity", "standardName": "Zed", "type": "OTHER", "alias": ["Z"]}, "(did you mean 'aliases'?)"),
    ({"action": "add-entiy", "standardName": "Zed", "type": "OTHER"}, "(did you mean 'add-entity'?)"),
    # another API's name for the one missing field, however far its spelling (the key "query" is also the tag)
    ({"action": "query", "query": "谁写的报告？"}, "unknown field 'query' (did you mean 'question'?)"),
    ({"action": "query", "text": "who wrote the report?", "topK": 3}, "unknown field 'text' (did you mean 'question'?)"),
    # a field named by one of its words, or with a word more: the CLI and the page say "mode", citations "docId"
    ({"action": "query", "question": "q", "mode": "hybrid"}, "unknown field 'mode' (did you mean 'searchMode'?)"),
    ({"action": "delete-document", "docId": "notes.md"}, "(did you mean 'id'?)"),
])
def test_a_mistyped_field_or_value_is_told_the_one_meant(client: TestClient, payload: dict[str, Any],
                                                          meant: str) -> None:
    before = entity_names(client)
    r = client.post(URL, json=payload)
    assert r.status_code in (400, 422) and meant in r.json()["error"]["message"], r.text
    assert entity_names(client) == before


def test_a_mistyped_read_action_is_told_the_one_meant(client: TestClient) -> None:
    r = client.get(URL, params={"action": "documnets"})
    # the code a POST's unknown action gets (it was invalid_request, 422)
    assert (r.status_code, r.json()["error"]["code"]) == (400, "unknown_action"), r.text
    assert "(did you mean 'documents'?)" in r.json()["error"]["message"], r.text


@pytest.mark.parametrize("action", ["query", "add-entity", "delete-document"])
def test_a_post_action_read_with_get_is_told_to_post_it(client: TestClient, action: str) -> None:
    # a new user read "reads are GET ?action=…" and tried GET ?action=query&question=…; pydantic's answer listed
    # the read actions without saying that a question is POSTed
    r = client.get(URL, params={"action": action, "question": "Who rents the canoes?"})
    error = r.json()["error"]
    assert (r.status_code, error["code"]) == (400, "unknown_action"), r.text
    assert f"{action!r} is not read with GET" in error["message"]
    assert f'-d \'{{"action": "{action}", …}}\'' in error["message"] and "content-type: application/json" in error["message"]
    assert "GET ?action= reads entities, documents, document, job, jobs" in error["message"]


def test_a_get_without_an_action_names_the_reads_and_how_to_ask(client: TestClient) -> None:
    r = client.get(URL)
    error = r.json()["error"]
    assert (r.status_code, error["code"]) == (422, "invalid_request"), r.text
    assert error["message"].startswith(f"GET {URL} needs ?action=: one of entities, documents, document, job, jobs;")
    assert '"action": "query"' in error["message"]


def test_an_unknown_read_action_lists_both_kinds(client: TestClient) -> None:
    error = client.get(URL, params={"action": "summarise"}).json()["error"]
    assert error["code"] == "unknown_action" and "did you mean" not in error["message"]
    assert "GET ?action= reads entities" in error["message"] and "the POST actions are query, " in error["message"]


@pytest.mark.parametrize(("raw", "headers", "reason"), [
    # curl's -d without -H 'content-type: application/json' sends a form: the body is JSON, the type is not
    (b'{"action": "query", "question": "Who runs the ferry?"}', {"content-type": "application/x-www-form-urlencoded"},
     "sent as application/x-www-form-urlencoded, not JSON"),
    (b'{"action": "query", "question": "Who runs the ferry?"}', {"content-type": "text/plain"}, "sent as text/plain"),
    (b"", {"content-type": "application/json"}, "the request body is empty"),
    (b'[{"action": "query", "question": "Who runs the ferry?"}]', {"content-type": "application/json"},
     "must be a JSON object, not a list"),
    (b'"Who runs the ferry?"', {"content-type": "application/json"}, "must be a JSON object, not a string"),
])
def test_a_body_that_is_no_json_object_is_named_as_such(client: TestClient, raw: bytes, headers: dict[str, str],
                                                        reason: str) -> None:
    # pydantic said "body: Field required" or "body: Input should be a valid dictionary or object to extract
    # fields from", naming neither the empty body nor the content type a new user's curl left out
    r = client.post(URL, content=raw, headers=headers)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_request" and reason in error["message"], error
    assert "content-type: application/json" in error["message"] or "JSON object" in error["message"]
