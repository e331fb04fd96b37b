"""The SQLite knowledge graph: documents, title links both ways, replacement, deletion, entity-store
edges, neighbor caching, node lookup, and its wiring into the Ingestor."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from graphs.domain import Document, EntityMetadata
from graphs.ingest.pipeline import Ingestor, metadata_related
from graphs.kg.base import EdgeKind, KgDocument, KnowledgeGraph, Neighbor
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.context import GazetteerCache
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import TODAY, ScriptedIndex, entity_store, graph_counts


@pytest.fixture
def graph(tmp_path: Path) -> Iterator[SQLiteKnowledgeGraph]:
    g = SQLiteKnowledgeGraph(tmp_path / "graph.db")
    yield g
    g.close()


def doc(doc_id: str, title: str, text: str = "", entities: tuple[str, ...] = (), **kw: Any) -> KgDocument:
    return KgDocument(doc_id=doc_id, title=title, text=text or f"About {title}.", entities=entities, **kw)


def edges(g: SQLiteKnowledgeGraph, node: str, kind: EdgeKind, direction: str = "out") -> set[str]:
    return {n.node for n in g.neighbors(node, edges=[kind]) if n.direction == direction}


def rows(g: SQLiteKnowledgeGraph, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(g.path) as conn:
        return conn.execute(sql, args).fetchall()


def test_is_a_knowledge_graph(graph: SQLiteKnowledgeGraph) -> None:
    g: KnowledgeGraph = graph
    g.ping()
    assert graph_counts(g).nodes == {} and g.neighbors("doc:none") == []


def test_add_creates_doc_title_entity_mentions_and_co_occurrence(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents(
        [
            doc("d1", "Tesla", "Tesla was led by Elon Musk.", ("Elon Musk", "Tesla", "Shanghai")),
            doc("d2", "Gigafactory", "Musk opened it.", ("Elon Musk", "Tesla")),
        ]
    )
    assert graph.name("doc:d1") == "Tesla" and graph.name("entity:elon musk") == "Elon Musk"
    assert edges(graph, "doc:d1", "titled") == {"entity:tesla"}
    assert edges(graph, "doc:d1", "mentions") == {"entity:elon musk", "entity:tesla", "entity:shanghai"}
    co = {n.node: n.weight for n in graph.neighbors("entity:elon musk", edges=["co_occurs"])}
    assert co == {"entity:tesla": 2.0, "entity:shanghai": 1.0}
    # Undirected: one row per pair and document, read as "out" from both ends.
    assert {n.direction for n in graph.neighbors("entity:tesla", edges=["co_occurs"])} == {"out"}
    assert rows(graph, "SELECT COUNT(*) FROM edges WHERE kind = 'co_occurs'") == [(4,)]
    assert rows(graph, "SELECT COUNT(*) FROM edges WHERE kind = 'co_occurs' AND src >= dst") == [(0,)]
    assert graph_counts(graph).nodes == {"doc": 2, "entity": 4}


def test_co_occurrence_is_capped_at_fifteen_entities(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("d", "Many", entities=tuple(f"Entity {i}" for i in range(20)))])
    assert graph_counts(graph).edges["co_occurs"] == 15 * 14 // 2
    assert graph_counts(graph).edges["mentions"] == 20
    assert graph.neighbors("entity:entity 19", edges=["co_occurs"]) == []


def test_title_links_forward_when_the_title_exists_first(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("paris", "Paris"), doc("lilu", "Lilu (mythology)", "A demon.")])
    graph.add_documents([doc("trip", "A trip", "We went to paris and read about LILU; Parisian food.")])
    assert edges(graph, "doc:trip", "title_link") == {"doc:paris", "doc:lilu"}
    assert edges(graph, "doc:paris", "title_link", "in") == {"doc:trip"}
    assert rows(graph, "SELECT source_doc FROM edges WHERE kind = 'title_link'") == [("trip",), ("trip",)]


def test_title_links_reverse_when_the_title_comes_later(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents(
        [
            doc("trip", "A trip", "We went to Paris, then 北京大学, and read about Lilu."),
            doc("other", "Comparisons", "Parisian cafés, Lilu's cousin, a good GO game."),
        ]
    )
    graph.add_documents(
        [
            doc("paris", "Paris"),
            doc("pku", "北京"),
            doc("lilu", "Lilu (mythology)", "A demon."),
            doc("go", "Go (game)", "A board game."),
        ]
    )
    assert edges(graph, "doc:trip", "title_link") == {"doc:paris", "doc:pku", "doc:lilu"}
    assert edges(graph, "doc:other", "title_link") == {"doc:lilu", "doc:go"}
    assert rows(graph, "SELECT DISTINCT source_doc FROM edges WHERE src = 'doc:trip'") == [("trip",)]


def test_title_links_skip_self_short_and_numeric_titles(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents(
        [doc("x", "X", "x marks"), doc("y", "2024", "in 2024"), doc("z", "Zed", "Zed on X in 2024")]
    )
    assert graph_counts(graph).edges.get("title_link", 0) == 0


def test_a_failed_write_leaves_nothing_behind(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("a", "Alpha", "Beta")])
    before = graph_counts(graph)
    with pytest.raises(AttributeError):
        graph.add_documents([doc("b", "Beta", "Alpha"), doc("c", "Gamma", entities=(None,))])  # type: ignore[arg-type]
    assert graph_counts(graph) == before and graph.find_nodes("beta gamma") == []
    assert graph.neighbors("doc:a") == [Neighbor("entity:alpha", "Alpha", "entity", "titled", "out", 1.0)]


def test_re_adding_a_document_replaces_its_edges(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("paris", "Paris"), doc("rome", "Rome")])
    graph.add_documents([doc("d", "Trip", "Paris trip", ("Alice", "Bob"))])
    graph.add_documents([doc("d", "Trip", "Rome trip", ("Alice", "Carol"))])
    assert edges(graph, "doc:d", "title_link") == {"doc:rome"}
    assert edges(graph, "doc:d", "mentions") == {"entity:alice", "entity:carol"}
    assert graph.name("entity:bob") is None  # orphaned by the replacement
    assert graph_counts(graph).nodes["doc"] == 3


def test_renaming_a_document_moves_links_into_it(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("a", "Notes", "Paris and Rome"), doc("t", "Paris")])
    assert edges(graph, "doc:t", "title_link", "in") == {"doc:a"}
    graph.add_documents([doc("t", "Berlin")])
    assert edges(graph, "doc:t", "title_link", "in") == set()
    graph.add_documents([doc("t", "Rome")])
    assert edges(graph, "doc:t", "title_link", "in") == {"doc:a"}
    assert graph.find_nodes("paris") == []


def test_delete_removes_doc_edges_links_into_it_and_orphans(graph: SQLiteKnowledgeGraph) -> None:
    graph.upsert_entity("Elon Musk")
    graph.add_documents(
        [
            doc(
                "tesla",
                "Tesla",
                "Tesla and SpaceX.",
                ("Elon Musk", "Lone Entity"),
                related=[("Lone Entity", "Other")],
            ),
            doc("spacex", "SpaceX", "Rockets; unlike Tesla.", ("Elon Musk",)),
        ]
    )
    assert edges(graph, "doc:spacex", "title_link") == {"doc:tesla"}
    assert graph.delete_document("tesla") is True
    assert graph.name("doc:tesla") is None and graph.neighbors("doc:tesla") == []
    assert edges(graph, "doc:spacex", "title_link") == set()
    for gone in ("entity:lone entity", "entity:other", "entity:tesla"):
        assert graph.name(gone) is None
    assert graph.name("entity:elon musk") == "Elon Musk"
    assert rows(graph, "SELECT COUNT(*) FROM edges WHERE source_doc = 'tesla' OR dst = 'doc:tesla'") == [(0,)]
    assert rows(graph, "SELECT COUNT(*) FROM doc_text") == [(1,)]
    assert graph.delete_document("tesla") is False
    graph.delete_document("spacex")
    assert graph_counts(graph).nodes == {"entity": 1} and graph_counts(graph).edges == {}


def test_entity_store_related_and_parent_edges(graph: SQLiteKnowledgeGraph) -> None:
    graph.upsert_entity("Elon Musk", related=["Tesla", "SpaceX", "Elon Musk"], parent="People")
    assert edges(graph, "entity:elon musk", "related") == {"entity:tesla", "entity:spacex"}
    assert edges(graph, "entity:elon musk", "parent") == {"entity:people"}
    assert edges(graph, "entity:tesla", "related", "in") == {"entity:elon musk"}
    graph.upsert_entity("Elon Musk", related=["Tesla"])  # replaces its earlier entity-store edges
    assert edges(graph, "entity:elon musk", "related") == {"entity:tesla"}
    assert graph.neighbors("entity:elon musk", edges=["parent"]) == []
    assert graph.name("entity:spacex") is None and graph.name("entity:people") is None
    assert rows(graph, "SELECT DISTINCT source, source_doc FROM edges") == [("entity_store", None)]


def test_document_related_pairs(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents([doc("d", "Doc", related=[("Apple", "iPhone")])])
    assert edges(graph, "entity:apple", "related") == {"entity:iphone"}
    assert rows(graph, "SELECT source, source_doc FROM edges WHERE kind = 'related'") == [("doc", "d")]


def test_neighbors_both_directions_sorted_and_cached_until_a_write(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents(
        [
            doc("a", "Alpha", "mentions Beta"),
            doc("b", "Beta", "mentions Alpha"),
            doc("c", "Gamma", "Beta again", ("Beta",)),
        ]
    )
    got = graph.neighbors("doc:b")
    assert got == [
        Neighbor("doc:a", "Alpha", "doc", "title_link", "in", 1.0),
        Neighbor("doc:a", "Alpha", "doc", "title_link", "out", 1.0),
        Neighbor("entity:beta", "Beta", "entity", "titled", "out", 1.0),
        Neighbor("doc:c", "Gamma", "doc", "title_link", "in", 1.0),
    ]
    assert graph.neighbors("doc:b", limit=1) == got[:1]
    assert graph.neighbors("entity:beta")[0] == Neighbor("doc:b", "Beta", "doc", "titled", "in", 1.0)
    info = graph._neighbors.cache_info()
    graph.neighbors("doc:b")
    assert graph._neighbors.cache_info().hits == info.hits + 1
    graph.add_documents([doc("d", "Delta", "Beta")])
    assert {n.node for n in graph.neighbors("doc:b")} == {"doc:a", "entity:beta", "doc:c", "doc:d"}
    graph.delete_document("d")
    assert {n.node for n in graph.neighbors("doc:b")} == {"doc:a", "entity:beta", "doc:c"}
    with pytest.raises(ValueError, match="unknown edge kinds"):
        graph.neighbors("doc:b", edges=["nope"])  # type: ignore[list-item]


def test_writes_from_another_connection_invalidate_caches(tmp_path: Path) -> None:
    first, second = SQLiteKnowledgeGraph(tmp_path / "g.db"), SQLiteKnowledgeGraph(tmp_path / "g.db")
    first.add_documents([doc("a", "Alpha", "text")])
    assert first.neighbors("doc:a") and first.find_nodes("alpha")
    second.delete_document("a")
    assert first.neighbors("doc:a") == [] and first.find_nodes("alpha") == []
    second.add_documents([doc("b", "Beta", "text")])
    first.add_documents([doc("c", "Gamma", "about beta")])  # forward link sees the other writer's title
    assert edges(first, "doc:c", "title_link") == {"doc:b"}
    first.close()
    second.close()


def test_find_nodes_longest_first_with_doc_and_entity(graph: SQLiteKnowledgeGraph) -> None:
    graph.add_documents(
        [
            doc("ny", "New York", entities=("United States",)),
            doc("nyc", "New York City"),
            doc("bj", "北京（城市）", entities=("中国",)),
        ]
    )
    got = graph.find_nodes("Flights from New York City to 北京, United States and 中国 news")
    assert got == [
        ("doc:nyc", "New York City"),
        ("entity:new york city", "New York City"),
        ("entity:united states", "United States"),
        ("doc:ny", "New York"),
        ("entity:new york", "New York"),
        ("entity:中国", "中国"),  # equal lengths: by key
        ("doc:bj", "北京（城市）"),
        ("entity:北京（城市）", "北京（城市）"),
    ]
    assert graph.find_nodes("Newark", limit=5) == [] and len(graph.find_nodes("new york city", limit=1)) == 1


def test_fifty_documents_in_batches_of_seven_all_link(graph: SQLiteKnowledgeGraph) -> None:
    titles = [f"Topic{i:02d} Name" for i in range(50)]
    # Each document mentions the titles of the next and previous ones (wrapping around).
    docs = [
        doc(f"d{i}", t, f"See {titles[(i + 1) % 50]} and {titles[(i - 1) % 50]}.")
        for i, t in enumerate(titles)
    ]
    for start in range(0, 50, 7):
        graph.add_documents(docs[start : start + 7])
    for i in range(50):
        assert edges(graph, f"doc:d{i}", "title_link") == {f"doc:d{(i + 1) % 50}", f"doc:d{(i - 1) % 50}"}, i
    assert graph_counts(graph).edges["title_link"] == 100


def test_closed_graph_is_unavailable(tmp_path: Path) -> None:
    g = SQLiteKnowledgeGraph(tmp_path / "g.db")
    g.close()
    with pytest.raises(StoreUnavailable, match="knowledge graph"):
        g.ping()


def test_metadata_related_shapes() -> None:
    assert metadata_related({"relatedEntities": {"A": ["B", "C"]}}) == [("A", "B"), ("A", "C")]
    assert metadata_related({"related_entities": [["A", "B"], {"source": "C", "target": "D"}]}) == [
        ("A", "B"),
        ("C", "D"),
    ]
    assert metadata_related({"relatedEntities": ["B", " "]}, title="T") == [("T", "B")]
    assert metadata_related({"relatedEntities": ["B"]}) == [] and metadata_related({}) == []


def ingestor(tmp_path: Path, graph: SQLiteKnowledgeGraph) -> Ingestor:
    store = entity_store(tmp_path)
    return Ingestor(
        DeterministicFakeEmbedding(size=8),
        ScriptedIndex(),
        store,
        GazetteerCache(store),
        today=lambda: TODAY,
        kg=graph,
    )


def test_ingestor_keeps_the_graph_in_step(tmp_path: Path, graph: SQLiteKnowledgeGraph) -> None:
    ing = ingestor(tmp_path, graph)
    ing.ingest(
        [
            Document(
                id="d1",
                title="苹果",
                text="苹果在三里屯开店。",
                metadata={
                    "date": "2008-07-19",
                    "entities": {"ORGANIZATION": ["苹果"], "LOCATION": ["朝阳区"]},
                    "relatedEntities": {"Apple": ["iPhone"]},
                },
            ),
            Document(id="d2", title="特斯拉", text="2019年1月，老马在魔都为特斯拉工厂奠基。", metadata={}),
        ]
    )
    assert edges(graph, "doc:d1", "mentions") == {"entity:apple", "entity:中国", "entity:北京", "entity:朝阳"}
    assert edges(graph, "entity:apple", "related") == {"entity:iphone"}
    assert {"entity:elon musk", "entity:tesla", "entity:上海"} <= edges(graph, "doc:d2", "mentions")
    assert edges(graph, "doc:d2", "title_link") == set() and graph.name("doc:d2") == "特斯拉"
    ing.delete("d1")
    assert graph.name("doc:d1") is None and graph.name("entity:朝阳") is None
    assert graph_counts(graph).nodes["doc"] == 1


def test_ingestor_upsert_entity_mirrors_the_merged_entity(
    tmp_path: Path, graph: SQLiteKnowledgeGraph
) -> None:
    ing = ingestor(tmp_path, graph)
    saved = ing.upsert_entity(
        EntityMetadata(standard_name="朝阳", type="LOCATION", related_entities=["三里屯"])
    )
    assert saved.hierarchy == ["中国", "北京", "朝阳"]
    assert edges(graph, "entity:朝阳", "parent") == {"entity:北京"}
    assert edges(graph, "entity:朝阳", "related") == {"entity:三里屯"}
    ing.upsert_entity(EntityMetadata(standard_name="Elon Musk", type="PERSON", related_entities=["xAI"]))
    assert edges(graph, "entity:elon musk", "related") == {"entity:tesla", "entity:spacex", "entity:xai"}
