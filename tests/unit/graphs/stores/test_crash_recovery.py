"""Crash consistency of ingest: a write cut short at any point leaves each document whole or absent.

Real stores (Milvus Lite file, SQLite knowledge graph, SQLite entity store), a deterministic embedder,
and a ``Crash`` (a BaseException, which no cleanup code catches, like SIGKILL) raised at each point of a
batch's write. A new Ingestor on the same stores then plays the restarted process.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

import graphs.stores.milvus.staging as milvus_module
from graphs.domain import Document, EntityMetadata
from graphs.ingest.pipeline import Ingestor, make_splitter
from graphs.kg.base import doc_node
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.context import GazetteerCache
from graphs.stores.base import StoreUnavailable
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from graphs.stores.filters import doc_filter
from graphs.stores.milvus import MilvusIndex
from graphs.stores.milvus.expressions import render
from graphs.stores.milvus.rows import strip_hash as _strip_hash

DIM = 16


class Crash(BaseException):
    """The process dies here: no ``except Exception`` runs."""


def text(tag: str, n: int = 4) -> str:
    # ~4 chunks with the default splitter (800 characters, paragraphs first)
    return "\n\n".join(f"{tag} paragraph {i}: " + " ".join(f"{tag}-word{i}-{j}" for j in range(60)) for i in range(n))


def version(doc_id: str, v: int) -> Document:
    person = "Alice" if v == 1 else "Bob"
    return Document(id=doc_id, title=f"{doc_id} v{v}", text=text(f"{doc_id}v{v}"), metadata={"person": [person]})


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[dict[str, Any]]:
    index = MilvusIndex(str(tmp_path / "milvus.db"), "chunks", DIM)
    graph = SQLiteKnowledgeGraph(tmp_path / "graph.db")
    entities = SQLiteEntityStore(tmp_path / "entities.sqlite3")
    try:
        yield {"index": index, "graph": graph, "entities": entities}
    finally:
        index.close()
        graph.close()
        entities.close()


def ingestor(stores: dict[str, Any], **overrides: Any) -> Ingestor:
    """A fresh Ingestor (a fresh process) on the stores."""
    parts = {"embedder": DeterministicFakeEmbedding(size=DIM), "index": stores["index"],
             "entities": stores["entities"], "gazetteer": GazetteerCache(stores["entities"]),
             "kg": stores["graph"], "journal": stores["graph"], **overrides}
    return Ingestor(**parts)


def stored(stores: dict[str, Any], doc_id: str) -> dict[str, Any]:
    """What the stores hold of one document: its chunk (id, text) rows, graph title and mentions."""
    index: MilvusIndex = stores["index"]
    rows = index._call("inspect", lambda c: c.query(index.collection, filter=render(doc_filter(doc_id)),
                                                      output_fields=["id", "text", "title"]))
    graph: SQLiteKnowledgeGraph = stores["graph"]
    mentions = {n.name for n in graph.neighbors(doc_node(doc_id), edges=["mentions"])}
    return {
        "chunks": sorted((_strip_hash(r["id"]), r["text"]) for r in rows),
        "titles": {r["title"] for r in rows},
        "graph_title": graph.name(doc_node(doc_id)),
        "mentions": mentions,
    }


def expected(doc: Document) -> dict[str, Any]:
    pieces = make_splitter().split_text(doc.text)
    return {"chunks": sorted((f"{doc.id}#{i}", p) for i, p in enumerate(pieces)), "titles": {doc.title},
            "graph_title": doc.title, "mentions": set(doc.metadata["person"])}


ABSENT: dict[str, Any] = {"chunks": [], "titles": set(), "graph_title": None, "mentions": set()}


def state_of(stores: dict[str, Any], doc_id: str) -> str:
    """``v1``, ``v2`` or ``absent`` when the stores hold exactly that; ``partial`` otherwise."""
    now = stored(stores, doc_id)
    if now == ABSENT:
        return "absent"
    for v in (1, 2):
        if now == expected(version(doc_id, v)):
            return f"v{v}"
    return "partial"


class CrashingClient:
    """A MilvusClient whose ``op`` dies on its ``nth`` call (1-based), before doing anything."""

    def __init__(self, inner: Any, op: str, nth: int) -> None:
        self._inner, self._op, self._nth, self._calls = inner, op, nth, 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name != self._op:
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self._calls += 1
            if self._calls == self._nth:
                raise Crash(f"killed in {name} #{self._calls}")
            return attr(*args, **kwargs)

        return call


class CrashingGraph:
    """The knowledge graph (and journal) whose method ``op`` dies when called."""

    def __init__(self, inner: SQLiteKnowledgeGraph, op: str) -> None:
        self._inner, self._op = inner, op

    def __getattr__(self, name: str) -> Any:
        if name == self._op:
            def die(*args: Any, **kwargs: Any) -> Any:
                raise Crash(f"killed in {name}")
            return die
        return getattr(self._inner, name)


FIRST = ["a", "b", "c"]  # ingested whole (v1) before the crash
SECOND = ["a", "b", "d"]  # v2 of a and b, and a new d: the batch the crash cuts short


@pytest.mark.parametrize(
    ("point", "partial_before_recovery"),
    [
        ("before the first Milvus upsert", False),
        ("between two Milvus upserts", True),  # some chunks of the batch written, others not
        ("before deleting the old chunks", True),  # old and new chunks side by side
        ("before the graph write", True),  # new chunks in Milvus, old graph rows
        ("before the journal is settled", False),  # everything written, intent still open
    ],
)
def test_a_crash_at_any_point_leaves_each_document_whole_or_absent(
    stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch, point: str, partial_before_recovery: bool
) -> None:
    ingestor(stores).ingest([version(d, 1) for d in FIRST])
    assert {d: state_of(stores, d) for d in FIRST} == {"a": "v1", "b": "v1", "c": "v1"}

    index: MilvusIndex = stores["index"]
    real_client = index._client
    overrides: dict[str, Any] = {}
    if point == "before the first Milvus upsert":
        index._client = CrashingClient(real_client, "upsert", 1)
    elif point == "between two Milvus upserts":
        monkeypatch.setattr(milvus_module, "UPSERT_BATCH", 3)  # 12 rows: 4 upserts
        index._client = CrashingClient(real_client, "upsert", 3)
    elif point == "before deleting the old chunks":
        index._client = CrashingClient(real_client, "delete", 1)
    elif point == "before the graph write":
        overrides["kg"] = CrashingGraph(stores["graph"], "add_documents")
    else:
        overrides["journal"] = CrashingGraph(stores["graph"], "journal_settle")
    with pytest.raises(Crash):
        ingestor(stores, **overrides).ingest([version(d, 2) for d in SECOND], batch_size=32)
    index._client = real_client

    before = {d: state_of(stores, d) for d in [*FIRST, "d"]}
    assert ("partial" in before.values()) == partial_before_recovery, before
    assert stores["graph"].journal_pending(), "the interrupted batch must still be journaled"

    restarted = ingestor(stores)
    rolled_back = restarted.recover()
    after = {d: state_of(stores, d) for d in [*FIRST, "d"]}
    assert set(after.values()) <= {"v1", "v2", "absent"}, after
    assert after["c"] == "v1", "a document outside the interrupted batch is untouched"
    assert sorted(rolled_back) == sorted(SECOND) and all(after[d] == "absent" for d in SECOND)
    assert stores["graph"].journal_pending() == []

    restarted.ingest([version(d, 2) for d in SECOND])  # re-running the ingest completes
    assert {d: state_of(stores, d) for d in [*FIRST, "d"]} == {"a": "v2", "b": "v2", "c": "v1", "d": "v2"}


class DownGraph(CrashingGraph):
    """A graph whose document write fails with an outage (the process lives on)."""

    def __getattr__(self, name: str) -> Any:
        if name == "add_documents":
            def fail(*args: Any, **kwargs: Any) -> Any:
                raise StoreUnavailable("knowledge graph", "disk I/O error")
            return fail
        return getattr(self._inner, name)


def test_a_failed_write_is_undone_at_once(stores: dict[str, Any]) -> None:
    """An outage mid-batch (an exception, the process lives on): the new chunks are taken out again, so
    every document of the batch is as it was (v1, or absent for a new one) and nothing is left journaled;
    the 503 the caller gets means "write it again"."""
    ingestor(stores).ingest([version(d, 1) for d in FIRST])
    with pytest.raises(StoreUnavailable):
        ingestor(stores, kg=DownGraph(stores["graph"], "")).ingest([version(d, 2) for d in SECOND])
    assert {d: state_of(stores, d) for d in [*FIRST, "d"]} == {"a": "v1", "b": "v1", "c": "v1", "d": "absent"}
    assert stores["graph"].journal_pending() == []


def test_a_failed_write_that_cannot_be_undone_is_rolled_back(stores: dict[str, Any],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """When taking the new chunks out fails too, the documents are made absent (never a mix of versions)."""
    ingestor(stores).ingest([version(d, 1) for d in FIRST])
    index: MilvusIndex = stores["index"]
    real_stage = index.stage_documents

    def stage(docs: Any) -> Any:
        staged = real_stage(docs)

        def abort() -> None:
            raise StoreUnavailable("milvus", "connection reset")

        staged.abort = abort  # type: ignore[method-assign]
        return staged

    monkeypatch.setattr(index, "stage_documents", stage)
    with pytest.raises(StoreUnavailable):
        ingestor(stores, kg=DownGraph(stores["graph"], "")).ingest([version(d, 2) for d in SECOND])
    monkeypatch.undo()
    assert {d: state_of(stores, d) for d in [*FIRST, "d"]} == {"a": "absent", "b": "absent", "c": "v1",
                                                              "d": "absent"}
    assert stores["graph"].journal_pending() == []


def test_a_crash_during_delete_is_completed_on_recovery(stores: dict[str, Any]) -> None:
    ingestor(stores).ingest([version(d, 1) for d in FIRST])
    with pytest.raises(Crash):
        ingestor(stores, kg=CrashingGraph(stores["graph"], "delete_document")).delete("a")
    assert state_of(stores, "a") == "partial"  # chunks gone, graph node still there
    ingestor(stores).recover()
    assert state_of(stores, "a") == "absent" and state_of(stores, "b") == "v1"


def test_a_crash_between_entity_store_and_graph_is_mirrored_on_recovery(stores: dict[str, Any]) -> None:
    entity = EntityMetadata(standard_name="Elon Musk", type="PERSON", aliases=["马斯克"], related_entities=["SpaceX"])
    with pytest.raises(Crash):
        ingestor(stores, kg=CrashingGraph(stores["graph"], "upsert_entity")).upsert_entity(entity)
    assert stores["entities"].get("Elon Musk") is not None  # the store's own write is one transaction
    assert stores["graph"].name("entity:elon musk") is None
    ingestor(stores).recover()
    related = {n.name for n in stores["graph"].neighbors("entity:elon musk", edges=["related"])}
    assert related == {"SpaceX"} and stores["graph"].journal_pending() == []


def test_without_a_journal_nothing_is_recorded(stores: dict[str, Any]) -> None:
    plain = ingestor(stores, journal=None)
    plain.ingest([version("a", 1)])
    assert plain.recover() == [] and stores["graph"].journal_pending() == []
    assert state_of(stores, "a") == "v1"


def test_an_entity_write_killed_mid_transaction_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    """SIGKILL inside ``upsert``, after the entity row changed and its old aliases were deleted but before
    the new alias rows are written: the store reopens with the entity, its aliases and version intact."""
    path = tmp_path / "entities.sqlite3"
    script = (
        "import os, signal, sys\n"
        "from graphs.domain import EntityMetadata\n"
        "from graphs.stores.entities.sqlite_store import SQLiteEntityStore\n"
        "store = SQLiteEntityStore(sys.argv[1])\n"
        "store.upsert(EntityMetadata(standard_name='Apple', type='ORGANIZATION', aliases=['苹果']))\n"
        "class Dying:\n"
        "    def __init__(self, conn): self.conn = conn\n"
        "    def __getattr__(self, name): return getattr(self.conn, name)\n"
        "    def executemany(self, *args): os.kill(os.getpid(), signal.SIGKILL)\n"
        "store._conn = Dying(store._conn)\n"
        "store.upsert(EntityMetadata(standard_name='Apple', type='ORGANIZATION', aliases=['Apple Inc.']))\n"
    )
    root = Path(__file__).resolve().parents[4]
    done = subprocess.run([sys.executable, "-c", script, str(path)], cwd=root, capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr.decode()
    store = SQLiteEntityStore(path)
    try:
        apple = store.get("Apple")
        assert apple is not None and apple.aliases == ["苹果"]
        match = store.lookup("苹果")
        assert match is not None and match.entity.standard_name == "Apple"
        assert store.version() == 1
    finally:
        store.close()
