"""Dense vectors filled in behind an upload: searchable at once by BM25, filled after, resumed after a kill,
never filled by another embedder.

Real stores (Milvus Lite file, SQLite graph, journal, inventory, job store); ``Crash`` (a BaseException, as
SIGKILL: no cleanup runs) kills the "process" in the middle of a fill.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding, Embeddings

from graphs.domain import Document
from graphs.ingest.jobs import JobRunner, JobStore
from graphs.ingest.pipeline import Ingestor, embedding_text
from graphs.ingest.vector_fill import PendingVectors, VectorFiller, sentence_texts
from graphs.rag.context import GazetteerCache
from graphs.stores.milvus import MilvusIndex
from graphs.vectors import EmbedderFingerprint
from tests.support.ingest_stores import ingest_stores

DIM = 16


class Crash(BaseException):
    """The process dies here."""


class Embedder(Embeddings):
    """A deterministic embedder that counts its passages and can die on a given call."""

    name = "fake-embedder"

    def __init__(self, crash_on_call: int | None = None) -> None:
        self.inner = DeterministicFakeEmbedding(size=DIM)
        self.crash_on_call, self.calls, self.passages, self.largest = crash_on_call, 0, 0, 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.crash_on_call:
            raise Crash
        self.passages += len(texts)
        self.largest = max(self.largest, len(texts))
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with ingest_stores(tmp_path, DIM) as parts:
        yield parts


def process(stores: dict[str, Any], embedder: Embeddings) -> Ingestor:
    """A fresh Ingestor with its vector fill (a fresh process) on the stores."""
    ingestor = Ingestor(embedder=embedder, index=stores["index"], entities=stores["entities"],
                        gazetteer=GazetteerCache(stores["entities"]), kg=stores["graph"], journal=stores["graph"],
                        catalog=stores["catalog"])
    ingestor.vector_fill = VectorFiller(PendingVectors(stores["jobs"]), ingestor, dimension=DIM, slice_size=2)
    return ingestor


LONG = " ".join(f"Sentence {i} of the Quillfeather report says the copper dome turned on its rails." for i in range(40))
DOC = Document(id="quill.md", title="Quillfeather Observatory",
               text="The Quillfeather Observatory opened its copper dome in the spring of 1911.\n\n" + LONG)
OTHER = Document(id="other.md", title="Harbour", text="The harbour froze in the winter of 1903. " * 5)


def rows(index: MilvusIndex, doc_id: str) -> list[tuple[str, bool]]:
    """(chunk id, carries a placeholder) of every stored row of a document (a chunk twice: two rows)."""
    vectors = index._call("test", lambda c: c.query(index.collection, filter=f'doc_id == "{doc_id}"',
                                                    output_fields=["id", "dense"]))
    return sorted((str(r["id"]).split("@")[0], not any(r["dense"])) for r in vectors)


def test_a_deferred_document_is_answerable_by_bm25_before_its_vectors_and_by_meaning_after(
        stores: dict[str, Any]) -> None:
    embedder = Embedder()
    ingestor = process(stores, embedder)
    ingestor.ingest([OTHER])  # embedded as before: real vectors
    report = ingestor.ingest([DOC], defer_vectors=True)
    assert report.chunks > 1 and embedder.passages == 1  # only OTHER's chunk was embedded
    index: MilvusIndex = stores["index"]
    question = "When did the Quillfeather Observatory open its dome?"
    assert [h.doc_id for h in index.search_bm25(question, filter=None, limit=3)][:1] == ["quill.md"]
    hybrid = index.search_hybrid(embedder.embed_query(question), question, filter=None, limit=3)
    assert hybrid[0].doc_id == "quill.md"
    # dense search never offers a placeholder as a match (its score would be an artefact: exactly 0)
    dense = index.search_dense(embedder.embed_query(question), filter=None, limit=50)
    assert {h.doc_id for h in dense} == {"other.md"}
    fill = ingestor.vector_fill
    assert fill is not None
    assert fill.pending.counts() == (1, report.chunks)
    assert all(placeholder for _, placeholder in rows(index, "quill.md"))

    while fill.fill_next():
        pass
    assert fill.pending.counts() == (0, 0)
    stored = index.chunk_vectors("quill.md")
    chunks = index.document_chunks("quill.md")
    assert len(stored) == len(chunks) == report.chunks
    for chunk in chunks:
        own = np.asarray(embedder.inner.embed_documents([embedding_text(chunk)])[0])
        assert stored[chunk.id] == pytest.approx((own / np.linalg.norm(own)).tolist(), abs=1e-5)  # stored as a unit
    dense = index.search_dense(embedder.embed_query(question), filter=None, limit=50)
    assert {h.doc_id for h in dense} == {"other.md", "quill.md"}


def test_a_fill_killed_midway_resumes_at_the_next_start_and_leaves_every_chunk_once(stores: dict[str, Any]) -> None:
    first = process(stores, Embedder(crash_on_call=2))  # dies in its second slice of the document
    first.ingest([DOC], defer_vectors=True)
    chunks = len(stores["index"].document_chunks("quill.md"))
    assert first.vector_fill is not None
    with pytest.raises(Crash):
        first.vector_fill.fill_next()
    assert first.vector_fill.pending.counts() == (1, chunks)  # still listed: nothing searchable was lost
    assert [h.doc_id for h in stores["index"].search_bm25("Quillfeather dome", filter=None, limit=1)] == ["quill.md"]

    restarted = process(stores, Embedder())  # the next start
    assert restarted.vector_fill is not None
    assert restarted.vector_fill.fill_next() == chunks
    assert restarted.vector_fill.pending.counts() == (0, 0)
    assert [placeholder for _, placeholder in rows(stores["index"], "quill.md")] == [False] * chunks


def test_a_fill_killed_between_writing_vectors_and_deleting_placeholders_is_repaired(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    ingestor = process(stores, Embedder())
    ingestor.ingest([DOC], defer_vectors=True)
    index: MilvusIndex = stores["index"]
    chunks = len(index.document_chunks("quill.md"))

    def die_after_write(docs: Any) -> int:
        index.stage_documents(docs).write()  # the new rows are in; the placeholders not yet deleted
        raise Crash

    monkeypatch.setattr(index, "replace_documents", die_after_write)
    assert ingestor.vector_fill is not None
    with pytest.raises(Crash):
        ingestor.vector_fill.fill_next()
    assert len(rows(index, "quill.md")) == 2 * chunks  # each chunk twice: its placeholder and its vector
    monkeypatch.undo()

    restarted = process(stores, Embedder())
    assert restarted.vector_fill is not None
    assert restarted.vector_fill.fill_next() == chunks
    assert [p for _, p in rows(index, "quill.md")] == [False] * chunks  # every chunk once, with its vector
    assert restarted.vector_fill.pending.counts() == (0, 0)


def test_the_fill_never_mixes_embedders(stores: dict[str, Any]) -> None:
    ingestor = process(stores, Embedder())
    assert ingestor.vector_fill is not None
    ingestor.ingest([DOC], defer_vectors=True)
    chunks = len(stores["index"].document_chunks("quill.md"))
    other = EmbedderFingerprint("another-model", DIM, "1.0")
    ingestor.vector_fill.pending.add([("quill.md", chunks)], other)  # as a process with another embedder lists it
    ingestor.ingest([OTHER], defer_vectors=True)  # listed by this one
    fill = ingestor.vector_fill
    written = [fill.fill_next() for _ in range(3)]
    assert sum(written) == 1  # OTHER only
    assert fill.pending.counts() == (1, chunks)
    assert all(p for _, p in rows(stores["index"], "quill.md"))  # no vector of this embedder went in
    why = fill.blocked["quill.md"]
    assert "another-model" in why and "fake-embedder" in why and "aer reindex" in why


def test_a_row_of_another_embedder_is_dropped_once_its_document_carries_vectors(stores: dict[str, Any]) -> None:
    ingestor = process(stores, Embedder())
    ingestor.ingest([DOC])  # embedded (as `aer reindex` leaves every chunk)
    assert ingestor.vector_fill is not None
    ingestor.vector_fill.pending.add([("quill.md", 3)], EmbedderFingerprint("another-model", DIM, "1.0"))
    assert ingestor.vector_fill.fill_next() == 0
    assert ingestor.vector_fill.pending.counts() == (0, 0) and not ingestor.vector_fill.blocked


def test_a_document_re_ingested_during_its_fill_keeps_its_new_version(stores: dict[str, Any]) -> None:
    ingestor = process(stores, Embedder())
    ingestor.ingest([DOC], defer_vectors=True)
    assert ingestor.vector_fill is not None
    newer = DOC.model_copy(update={"text": "The Quillfeather Observatory closed in 1950. " * 30})
    embed = ingestor.embedder.embed_documents

    def re_ingest_then_embed(texts: list[str]) -> list[list[float]]:
        if not getattr(re_ingest_then_embed, "done", False):
            re_ingest_then_embed.done = True  # type: ignore[attr-defined]
            ingestor.ingest([newer], defer_vectors=True)
        return embed(texts)

    ingestor.embedder.embed_documents = re_ingest_then_embed  # type: ignore[method-assign]
    assert ingestor.vector_fill.fill_next() == 0  # embedded the old text: writes nothing
    assert all(p for _, p in rows(stores["index"], "quill.md"))
    assert ingestor.vector_fill.pending.counts()[0] == 1
    assert ingestor.vector_fill.fill_next() == len(stores["index"].document_chunks("quill.md"))
    assert "closed in 1950" in stores["index"].document_chunks("quill.md")[0].text
    assert ingestor.vector_fill.pending.counts() == (0, 0)


def test_a_job_with_deferred_vectors_is_done_before_its_vectors_and_the_fill_follows(stores: dict[str, Any]) -> None:
    embedder = Embedder()
    ingestor = process(stores, embedder)
    store = JobStore(stores["jobs"])
    runner = JobRunner(store, ingestor, batch_target_s=None, defer_vectors=True)
    job_id = runner.submit("upload", [DOC, OTHER])
    runner.run_job(job_id)
    view = store.view(job_id)
    assert view is not None and view.status == "done" and view.progress.done == 2
    assert embedder.passages == 0  # nothing embedded on the job's path
    assert ingestor.vector_fill is not None
    assert ingestor.vector_fill.pending.counts(store.doc_ids(job_id))[1] == view.progress.chunks
    ingestor.vector_fill.start()
    try:
        deadline = time.monotonic() + 30
        while ingestor.vector_fill.pending.counts() != (0, 0) and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        ingestor.vector_fill.stop()
    assert ingestor.vector_fill.pending.counts() == (0, 0)
    assert embedder.passages == view.progress.chunks


def test_the_fill_embeds_one_passage_per_call_so_a_query_never_waits_for_a_batch(stores: dict[str, Any]) -> None:
    embedder = Embedder()
    ingestor = process(stores, embedder)
    ingestor.vector_fill = VectorFiller(PendingVectors(stores["jobs"]), ingestor, dimension=DIM)  # the defaults
    ingestor.ingest([DOC], defer_vectors=True)
    chunks = len(stores["index"].document_chunks("quill.md"))
    assert chunks > 1
    assert ingestor.vector_fill.fill_next() == chunks
    assert embedder.largest == 1 and embedder.calls == chunks


@pytest.mark.parametrize("mirror", [True, False], ids=["search mirror", "Milvus Lite's own search"])
def test_a_placeholder_is_known_by_its_stored_vector_not_by_a_score_of_zero(stores: dict[str, Any],
                                                                          mirror: bool) -> None:
    """A chunk whose real vector is orthogonal to the question scores exactly 0, as a placeholder does: it is still
    a dense hit; the placeholder, whatever the question, is not."""
    ingestor = process(stores, Embedder())
    index: MilvusIndex = stores["index"]
    index.use_mirror = mirror
    ingestor.ingest([DOC], defer_vectors=True)  # placeholders
    e = np.eye(DIM)
    chunk = index.document_chunks("quill.md")[0].model_copy(update={"doc_id": "ortho.md", "id": "ortho.md#0"})
    index.replace_documents([("ortho.md", [chunk], [e[1].tolist()])])
    hits = index.search_dense(e[0].tolist(), filter=None, limit=50)
    assert [h.doc_id for h in hits] == ["ortho.md"] and hits[0].dense_score == pytest.approx(0.0, abs=1e-6)
    assert {h.doc_id for h in index.search_dense(e[1].tolist(), filter=None, limit=50)} == {"ortho.md"}


def test_a_filled_documents_sentences_are_embedded_after_every_pending_chunk_as_the_answer_layer_reads_them(
        stores: dict[str, Any], tmp_path: Path) -> None:
    from graphs.stores.sentence_vectors import SENTENCE_CHARS, SentenceVectors
    from graphs.text.sentences import passage_sentences

    embedder = Embedder()
    ingestor = process(stores, embedder)
    fill = ingestor.vector_fill
    assert fill is not None
    fill.sentences = SentenceVectors(tmp_path / "sentences.db")
    ingestor.ingest([OTHER], defer_vectors=True)
    ingestor.ingest([DOC], defer_vectors=True)
    owner = fill.fingerprint.describe()

    assert fill.fill_next() > 0 and fill.sentences.count() == 0  # OTHER's chunks; its sentences wait for DOC's chunks
    chunks = len(stores["index"].document_chunks("quill.md"))
    assert fill.fill_next() == chunks and fill.pending.counts() == (0, 0) and fill.sentences.count() == 0
    read_back: list[str] = []
    reads = stores["index"].document_chunks
    stores["index"].document_chunks = lambda doc_id: read_back.append(doc_id) or reads(doc_id)
    try:
        while fill.fill_next():
            pass
    finally:
        del stores["index"].document_chunks
    assert read_back == []  # the sentences are those of the chunks the fill had in hand, not read from the index
    expected = {s[:SENTENCE_CHARS] for d in ("other.md", "quill.md")
                for c in stores["index"].document_chunks(d) for s in passage_sentences(c.text)}
    kept = fill.sentences.get(owner, sorted(expected))
    assert set(kept) == expected
    assert all(kept[t] == embedder.inner.embed_documents([t])[0] for t in expected)  # the embedder's own vectors
    calls = embedder.calls
    fill._sentences_due.append(("quill.md", sentence_texts(stores["index"].document_chunks("quill.md"))))
    # listed again (filled again): its sentences are all kept already
    while fill.fill_next():
        pass
    assert embedder.calls == calls
