"""Every input limit answers a 4xx with a machine-readable code, and a rejected request writes nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.routes.actions import MAX_OFFSET
from app.schemas import MAX_QUESTION_CHARS
from tests.support.apps import URL, document_ids, entity_names, running_app

BODY_LIMIT = 2_000_000


def doc(i: int | str, **kw: Any) -> dict[str, Any]:
    return {"id": f"new-{i}", "title": "t", "text": "some text", **kw}


def entity(**kw: Any) -> dict[str, Any]:
    return {"action": "add-entity", "standardName": "New Entity", "type": "ORGANIZATION", **kw}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("limits"), max_body_bytes=BODY_LIMIT) as c:
        assert c.post(URL, json=entity(standardName="Kept", aliases=["kept"])).status_code == 200
        assert c.post(URL, json={"action": "add-documents", "documents": [doc("kept")]}).status_code == 200
        yield c


def error_of(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


# (payload, the failing field's location, pydantic's error type): 422 invalid_request with details naming both.
SCHEMA_LIMITS = {
    "question too long": ({"action": "query", "question": "q" * (MAX_QUESTION_CHARS + 1)},
                          ["body", "query", "question"], "string_too_long"),
    "empty question": ({"action": "query", "question": ""}, ["body", "query", "question"], "empty_question"),
    "topK too large": ({"action": "query", "question": "q", "topK": 51}, ["body", "query", "topK"], "less_than_equal"),
    "topK zero": ({"action": "query", "question": "q", "topK": 0}, ["body", "query", "topK"], "greater_than_equal"),
    "maxRetries too large": ({"action": "query", "question": "q", "maxRetries": 11}, ["body", "query", "maxRetries"],
                             "less_than_equal"),
    "batch of 501 documents": ({"action": "add-documents", "documents": [doc(i) for i in range(501)]},
                               ["body", "add-documents", "documents"], "too_long"),
    "empty batch": ({"action": "add-documents", "documents": []}, ["body", "add-documents", "documents"], "too_short"),
    "document text too long": ({"action": "add-documents", "documents": [doc(0, text="x" * 1_000_001)]},
                               ["body", "add-documents", "documents", 0, "text"], "string_too_long"),
    "document id too long": ({"action": "add-documents", "documents": [doc("x" * 300)]},
                             ["body", "add-documents", "documents", 0, "id"], "string_too_long"),
    "control character in a document id": ({"action": "add-documents", "documents": [doc("a\x00b"), doc(1)]},
                                           ["body", "add-documents", "documents", 0, "id"], "string_pattern_mismatch"),
    "control character in a deleted id": ({"action": "delete-document", "id": "new-kept\x01"},
                                          ["body", "delete-document", "id"], "string_pattern_mismatch"),
    "201 aliases": (entity(aliases=[f"a{i}" for i in range(201)]), ["body", "add-entity", "aliases"], "too_long"),
    "alias too long": (entity(aliases=["a" * 257]), ["body", "add-entity", "aliases", 0], "string_too_long"),
    "21 hierarchy levels": (entity(hierarchy=[f"h{i}" for i in range(21)]), ["body", "add-entity", "hierarchy"],
                            "too_long"),
    "201 related entities": (entity(relatedEntities=[f"r{i}" for i in range(201)]),
                             ["body", "add-entity", "relatedEntities"], "too_long"),
    "standard name too long": (entity(standardName="n" * 257), ["body", "add-entity", "standardName"],
                               "string_too_long"),
    "blank standard name": (entity(standardName=" \u3000\t"), ["body", "add-entity", "standardName"],
                            "invalid_entity_name"),
}


@pytest.mark.parametrize("case", SCHEMA_LIMITS.values(), ids=SCHEMA_LIMITS.keys())
def test_a_limit_is_a_422_naming_the_field_and_nothing_is_written(client: TestClient,
                                                                   case: tuple[dict[str, Any], list[Any], str]) -> None:
    payload, loc, kind = case
    before = (entity_names(client), document_ids(client))
    code = kind if kind in ("invalid_entity_name", "empty_question") else "invalid_request"
    error = error_of(client.post(URL, json=payload), 422, code)
    assert {"loc": loc, "type": kind} in [{"loc": d["loc"], "type": d["type"]} for d in error["details"]]
    assert (entity_names(client), document_ids(client)) == before
    assert "new-kept" in before[1] and "Kept" in before[0]
    if kind == "string_too_long":  # the limit and the length sent
        assert re.search(r"at most [\d,]+ characters \(this one has [\d,]+\)", error["message"]), error["message"]


@pytest.mark.parametrize("payload", [
    {"action": "query", "question": "q" * (BODY_LIMIT + 1)},
    {"action": "add-documents", "documents": [doc(i, text="x" * 10_000) for i in range(300)]},
    entity(aliases=["a" * 250] * 10_000),
], ids=["query", "add-documents", "add-entity"])
def test_a_body_over_the_size_limit_is_413_and_nothing_is_written(client: TestClient, payload: dict[str, Any]) -> None:
    before = (entity_names(client), document_ids(client))
    error = error_of(client.post(URL, json=payload), 413, "payload_too_large")
    assert error["details"] == {"maxBytes": BODY_LIMIT}
    assert (entity_names(client), document_ids(client)) == before


def test_a_body_sent_without_content_length_is_cut_off_too(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"action": "add-documents", "documents": [{"id": "streamed", "text": "'
        for _ in range(BODY_LIMIT // 1000 + 1):
            yield b"x" * 1000
        yield b'"}]}'

    r = client.post(URL, content=chunks(), headers={"content-type": "application/json"})
    error_of(r, 413, "payload_too_large")
    assert "streamed" not in document_ids(client)


def test_duplicate_ids_in_a_batch_are_400_and_nothing_is_written(client: TestClient) -> None:
    before = document_ids(client)
    r = client.post(URL, json={"action": "add-documents", "documents": [doc("dup"), doc(1), doc("dup")]})
    error_of(r, 400, "duplicate_document_ids")
    assert document_ids(client) == before


@pytest.mark.parametrize(("params", "field", "kind"), [
    ({"offset": MAX_OFFSET + 1}, "offset", "less_than_equal"),
    ({"offset": 2**63}, "offset", "less_than_equal"),  # once an OverflowError in SQLite: a 500
    ({"offset": -1}, "offset", "greater_than_equal"),
    ({"limit": 501}, "limit", "less_than_equal"),
    ({"limit": 0}, "limit", "greater_than_equal"),
])
def test_entity_list_paging_limits(client: TestClient, params: dict[str, int], field: str, kind: str) -> None:
    error = error_of(client.get(URL, params={"action": "entities", **params}), 422, "invalid_request")
    assert {"loc": ["query", field], "type": kind} in [{"loc": d["loc"], "type": d["type"]} for d in error["details"]]


def test_the_largest_offset_is_an_empty_page(client: TestClient) -> None:
    page = client.get(URL, params={"action": "entities", "offset": MAX_OFFSET}).json()
    assert page["entities"] == [] and page["total"] >= 1


def test_names_the_stores_can_hold_are_accepted(client: TestClient) -> None:
    # Wildcards, quotes and backslashes are fine in names (they are encoded); control characters are refused
    # in names and ids alike (tests/api/test_input_hygiene.py).
    r = client.post(URL, json=entity(standardName='Odd "Name" 100%_\\|', aliases=["50% off", "a\\b", "x||y"]))
    assert r.status_code == 200, r.text
    r = client.post(URL, json={"action": "add-documents", "documents": [doc('q"uote\\|%_')]})
    assert r.status_code == 200, r.text
    assert client.post(URL, json={"action": "delete-document", "id": 'new-q"uote\\|%_'}).json()["deletedChunks"] == 1
