"""Entities and index in step: documents ingested first, entities added afterwards (the natural order).

Adding an entity or an alias re-tags the indexed chunks that name it (Milvus scalar fields and the knowledge
graph's mention edges) without re-ingesting, so filters then work without relaxation; removing an alias
untags the chunks that named the entity only by it. Real stores (Milvus Lite, SQLite), fake embedder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graphs.kg.base import doc_node, entity_node
from tests.support.apps import URL, running_app

DOCS = [
    {"id": "pdd-zh", "title": "拼多多", "text": "拼多多由黄峥于2015年在上海创立，是一家电商平台。"},
    {"id": "pdd-en", "title": "PDD Holdings",
     "text": "PDD Holdings operates Pinduoduo and Temu. Colin Huang founded the company in 2015."},
    {"id": "jd", "title": "京东", "text": "京东由刘强东于1998年在北京创立，总部位于北京。"},
    # a metadata value written before it was known to be an alias: it becomes the standard name
    {"id": "temu", "title": "Temu", "text": "Temu is an online marketplace launched in 2022.",
     "metadata": {"entities": {"ORGANIZATION": ["PDD"]}}},
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path) as c:
        assert c.post(URL, json={"action": "add-documents", "documents": DOCS}).status_code == 200
        yield c


def tags(client: TestClient, doc_id: str) -> dict[str, list[str]]:
    body = client.get(URL, params={"action": "document", "id": doc_id}).json()
    [chunk] = body["chunks"]
    entities: dict[str, list[str]] = chunk["entities"]
    return entities


def add(client: TestClient, **entity: Any) -> dict[str, Any]:
    r = client.post(URL, json={"action": "add-entity", **entity})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def mentioned_by(client: TestClient, name: str) -> set[str]:
    kg = client.app.state.resources.context.kg  # type: ignore[attr-defined]
    return {n.node for n in kg.neighbors(entity_node(name), edges=["mentions"])}


def test_an_entity_added_after_ingest_tags_the_chunks_that_name_it(client: TestClient) -> None:
    before = client.post(URL, json={"action": "query", "question": "拼多多的创始人是谁？"}).json()
    assert before["routingDecision"]["action"] != "structured_search"  # nothing knew 拼多多 yet
    body = add(client, standardName="拼多多", type="ORGANIZATION", aliases=["Pinduoduo", "PDD"])
    assert body["retagged"] == 3  # named in pdd-zh and pdd-en, tagged as "PDD" in temu's metadata
    assert tags(client, "pdd-zh")["ORGANIZATION"] == ["拼多多"]
    assert tags(client, "pdd-en")["ORGANIZATION"] == ["拼多多"]
    assert tags(client, "temu")["ORGANIZATION"] == ["拼多多"]  # the alias value became the standard name
    assert "拼多多" not in tags(client, "jd").get("ORGANIZATION", [])
    assert {doc_node("pdd-zh"), doc_node("pdd-en"), doc_node("temu")} <= mentioned_by(client, "拼多多")
    after = client.post(URL, json={"action": "query", "question": "拼多多的创始人是谁？"}).json()
    assert after["routingDecision"]["action"] == "structured_search"
    assert after["routingDecision"]["relaxedConstraints"] == []  # the filter finds them: nothing relaxed
    assert {r["docId"] for r in after["retrievalDetails"]["topResults"]} <= {"pdd-zh", "pdd-en", "temu"}
    assert after["status"] == "answered" and "黄峥" in after["answer"]


def test_an_alias_added_later_tags_more_chunks_and_adding_it_again_changes_nothing(client: TestClient) -> None:
    assert add(client, standardName="黄峥", type="PERSON")["retagged"] == 1
    assert add(client, standardName="黄峥", type="PERSON", aliases=["Colin Huang"])["retagged"] == 1
    assert tags(client, "pdd-en")["PERSON"] == ["黄峥"]
    assert add(client, standardName="黄峥", type="PERSON", aliases=["Colin Huang"])["retagged"] == 0


def test_a_hierarchy_tags_the_ancestors_too(client: TestClient) -> None:
    add(client, standardName="北京", type="LOCATION", hierarchy=["中国", "北京"])
    assert {"中国", "北京"} <= set(tags(client, "jd")["LOCATION"])  # a filter on 中国 finds it too


def test_removing_an_alias_untags_the_chunks_that_named_the_entity_only_by_it(client: TestClient) -> None:
    add(client, standardName="拼多多", type="ORGANIZATION", aliases=["Pinduoduo", "PDD"])
    r = client.post(URL, json={"action": "remove-alias", "standardName": "拼多多", "aliases": ["Pinduoduo"]})
    assert r.status_code == 200 and r.json()["entity"]["aliases"] == ["PDD"]
    assert r.json()["retagged"] == 0  # pdd-en still says "PDD Holdings": still named
    r = client.post(URL, json={"action": "remove-alias", "standardName": "拼多多", "aliases": ["pdd"]})
    assert r.json()["entity"]["aliases"] == [] and r.json()["retagged"] == 1  # compared normalized
    assert "ORGANIZATION" not in tags(client, "pdd-en")
    assert tags(client, "pdd-zh")["ORGANIZATION"] == ["拼多多"]  # named by its standard name
    assert doc_node("pdd-en") not in mentioned_by(client, "拼多多")
    assert doc_node("pdd-zh") in mentioned_by(client, "拼多多")


def test_removing_an_alias_of_an_unknown_entity_is_a_404_and_blank_aliases_a_422(client: TestClient) -> None:
    r = client.post(URL, json={"action": "remove-alias", "standardName": "Nobody", "aliases": ["x"]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "entity_not_found"
    r = client.post(URL, json={"action": "remove-alias", "standardName": "拼多多", "aliases": []})
    assert r.status_code == 422


def test_a_hand_added_name_replaces_the_automatic_tags_it_covers_and_deleting_it_restores_them(
        tmp_path: Path) -> None:
    docs = [
        {"id": "zh", "title": "人物简介", "text": "欧阳明华出生于青川镇，现任岭北造纸厂厂长。欧阳明华毕业于农学院。"},
        {"id": "en", "title": "Mill profile",
         "text": "Ashford Mills makes recycled paper. Ashford Mills employs ninety people."},
        {"id": "town", "title": "Town notes", "text": "Ashford holds a market every Friday."},
    ]
    with running_app(tmp_path) as client:
        add(client, standardName="Ashford", type="LOCATION")  # known before the files: a dictionary hit
        assert client.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        zh_auto, en_auto = tags(client, "zh"), tags(client, "en")
        assert "欧阳明" in zh_auto.get("PERSON", [])  # the tagger's piece of the name
        assert en_auto == {"LOCATION": ["Ashford"]}  # the town's name inside the mill's

        assert doc_node("zh") in mentioned_by(client, "欧阳明")
        add(client, standardName="欧阳明华", type="PERSON")
        assert tags(client, "zh")["PERSON"] == ["欧阳明华"]
        assert doc_node("zh") not in mentioned_by(client, "欧阳明")  # the graph follows: as if ingested now
        assert doc_node("zh") in mentioned_by(client, "欧阳明华")
        add(client, standardName="Ashford Mills", type="ORGANIZATION")
        assert tags(client, "en") == {"ORGANIZATION": ["Ashford Mills"]}
        assert tags(client, "town") == {"LOCATION": ["Ashford"]}  # named on its own there: kept
        listed = client.get(URL, params={"action": "entities", "q": "Ashford Mills"}).json()
        assert listed["entities"][0]["type"] == "ORGANIZATION"
        for question, name, etype in (("Who leads Ashford Mills?", "Ashford Mills", "ORGANIZATION"),
                                      ("欧阳明华毕业于哪里？", "欧阳明华", "PERSON")):
            asked = client.post(URL, json={"action": "query", "question": question}).json()
            assert [(e["text"], e["type"]) for e in asked["queryAnalysis"]["entities"]
                    if e["type"] != "DATE"] == [(name, etype)], asked["queryAnalysis"]

        for name in ("欧阳明华", "Ashford Mills"):
            assert client.post(URL, json={"action": "delete-entity", "standardName": name}).status_code == 200
        assert tags(client, "zh") == zh_auto and tags(client, "en") == en_auto
        assert doc_node("zh") in mentioned_by(client, "欧阳明") and doc_node("en") in mentioned_by(client, "Ashford")
