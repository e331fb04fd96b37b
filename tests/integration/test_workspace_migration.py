"""A data dir made before workspaces (the stores in the data dir itself: milvus.db's ``aer_chunks``,
entities.sqlite3, graph.db, documents.db, jobs.db) opens as the ``default`` workspace with its documents,
entities and vectors, and nothing is embedded again."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

from langchain_core.embeddings import DeterministicFakeEmbedding

from app.container import WARM_UP_TEXT
from graphs.domain import Document, EntityMetadata
from graphs.embeddings import fingerprint_of
from graphs.ingest.pipeline import Ingestor
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.context import GazetteerCache
from graphs.stores.catalog import SQLiteDocumentCatalog
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from graphs.stores.milvus import MilvusIndex
from tests.support.apps import URL, running_app

DOCS = [Document(id="reports/q1.md", title="Q1", text="Harlow Freight opened a depot in Ostrava in March."),
        Document(id="reports/q2.md", title="Q2", text="Harlow Freight hired forty drivers for the Ostrava depot.")]


def old_data_dir(data_dir: Path) -> dict[str, dict[str, list[float]]]:
    """Write the stores as the service did before workspaces; the vectors of each document, as stored."""
    fake = DeterministicFakeEmbedding(size=32)
    index = MilvusIndex(str(data_dir / "milvus.db"), "aer_chunks", 32, embedder=fingerprint_of(fake, 32))
    entities = SQLiteEntityStore(data_dir / "entities.sqlite3")
    kg = SQLiteKnowledgeGraph(data_dir / "graph.db")
    catalog = SQLiteDocumentCatalog(data_dir / "documents.db")
    try:
        ingestor = Ingestor(embedder=fake, index=index, entities=entities, gazetteer=GazetteerCache(entities), kg=kg,
                            journal=kg, catalog=catalog)
        ingestor.upsert_entity(EntityMetadata(standard_name="Harlow Freight", type="ORGANIZATION",
                                              aliases=["Harlow"]))
        ingestor.ingest(DOCS)
        return {d.id: index.chunk_vectors(d.id) for d in DOCS}
    finally:
        for store in (index, entities, kg, catalog):
            store.close()


def test_an_existing_data_dir_opens_as_the_default_workspace_without_re_embedding(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    vectors = old_data_dir(data_dir)
    before = sorted(p.name for p in data_dir.iterdir())
    original = DeterministicFakeEmbedding.embed_documents
    with mock.patch.object(DeterministicFakeEmbedding, "embed_documents", autospec=True,
                           side_effect=original) as embedded, running_app(data_dir) as client:
        listed = client.get("/api/workspaces").json()["workspaces"]
        assert [w["name"] for w in listed] == ["default"]
        assert (listed[0]["documents"], listed[0]["chunks"]) == (2, 2)
        docs = client.get(URL, params={"action": "documents"}).json()
        assert sorted(d["id"] for d in docs["documents"]) == ["reports/q1.md", "reports/q2.md"]
        entities = client.get(URL, params={"action": "entities"}).json()["entities"]
        assert [(e["standardName"], e["aliases"]) for e in entities] == [("Harlow Freight", ["Harlow"])]
        index = client.app.state.workspaces.get("default").index  # type: ignore[attr-defined]
        assert index.collection == "aer_chunks"
        assert {d.id: index.chunk_vectors(d.id) for d in DOCS} == vectors
        answer = client.post(URL, json={"action": "query", "question": "Where did Harlow Freight open a depot?"})
        assert answer.status_code == 200 and answer.json()["workspace"] == "default"
        assert "Ostrava" in answer.json()["answer"]
        # nothing embedded again, not at start, not to answer: only the warm-up's sample passage (it loads the model)
        embedded_texts = [text for call in embedded.call_args_list for text in call.args[1]]
        assert embedded_texts == [WARM_UP_TEXT]
    # the old files are where they were; what workspaces add (the shared dictionary) sits beside them, and the
    # jobs file the service opens (as it did before) and the sentence vectors' file (with its WAL while open)
    after = sorted(p.name for p in data_dir.iterdir())
    assert set(before) <= set(after) and set(after) - set(before) <= {"shared", "workspaces", "jobs.db",
                                                                     "sentences.db", "sentences.db-wal",
                                                                     "sentences.db-shm"}
