"""The knowledge graph's two reads and one write for the page: the documents behind each edge, and an entity
deleted from the store dropping the edges its tags and the store gave it (a document's title keeps its node)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from graphs.kg.base import KgDocument, doc_node, entity_node
from graphs.kg.sqlite import SQLiteKnowledgeGraph


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[SQLiteKnowledgeGraph]:
    g = SQLiteKnowledgeGraph(tmp_path / "kg.db")
    g.add_documents([
        KgDocument("a", "腾讯", "马化腾创立了腾讯。", entities=("马化腾", "腾讯")),
        KgDocument("b", "微信", "微信是腾讯的产品，马化腾。", entities=("马化腾", "腾讯", "微信")),
        KgDocument("c", "京东", "京东由刘强东创立。", entities=("刘强东",)),
    ])
    g.upsert_entity("马化腾", related=["腾讯"])
    try:
        yield g
    finally:
        g.close()


def test_the_documents_behind_each_edge(graph: SQLiteKnowledgeGraph) -> None:
    center = entity_node("马化腾")
    behind = graph.edge_documents(center, [entity_node("腾讯"), doc_node("a"), doc_node("b"), doc_node("c")])
    assert behind[(entity_node("腾讯"), "co_occurs")] == ["a", "b"]
    assert behind[(entity_node("腾讯"), "related")] == []  # from the entity store: no document
    assert behind[(doc_node("a"), "mentions")] == ["a"]
    assert (doc_node("c"), "mentions") not in behind  # no edge between them
    assert graph.edge_documents(center, []) == {}


def test_deleting_an_entity_drops_its_tag_and_store_edges(graph: SQLiteKnowledgeGraph) -> None:
    graph.delete_entity("马化腾")
    assert graph.neighbors(entity_node("马化腾")) == []
    assert graph.name(entity_node("马化腾")) is None  # nothing joins it any more: the node goes
    # the others keep theirs
    assert {n.node for n in graph.neighbors(entity_node("腾讯"), edges=["mentions"])} == {doc_node("a"), doc_node("b")}
    assert {n.node for n in graph.neighbors(entity_node("微信"), edges=["co_occurs"])} == {entity_node("腾讯")}


def test_a_deleted_entity_that_titles_a_document_keeps_that_edge(graph: SQLiteKnowledgeGraph) -> None:
    graph.delete_entity("腾讯")  # document a is titled 腾讯
    left = graph.neighbors(entity_node("腾讯"))
    assert [(n.node, n.edge) for n in left] == [(doc_node("a"), "titled")]
    assert entity_node("腾讯") not in {n.node for n in graph.neighbors(entity_node("马化腾"))}
