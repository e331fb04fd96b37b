"""The first ask right after an upload: the dense routes (structured, semantic, the dense side of hybrid) see the
chunks whose vectors are still filling, scored by the index's own embedder exactly as after the fill, also for a
question in another language (which BM25 cannot match); the fill writes the vectors a search computed instead of
embedding again, and a fill killed midway loses nothing.

Real stores (Milvus Lite file, SQLite graph, entities, inventory, job store). ``Concepts`` stands in for a
cross-lingual embedder: a passage and a question share a direction when they name the same thing in either
language ("observatory" / "天文台").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.embeddings import Embeddings

from graphs.domain import Document
from graphs.embeddings import passage_tokens
from graphs.ingest import vector_fill
from graphs.ingest.chunking import embedding_text
from graphs.ingest.pipeline import Ingestor
from graphs.ingest.vector_fill import FilledVectors, FillingChunks, PendingVectors, VectorFiller
from graphs.rag.context import GazetteerCache, RagContext
from graphs.rag.expansion import score_documents
from graphs.rag.nodes.search_graph import search_graph
from graphs.rag.nodes.search_hybrid import search_hybrid
from graphs.rag.nodes.search_semantic import search_semantic
from graphs.rag.search import dense_search
from graphs.stores.filters import InList, doc_filter
from graphs.stores.milvus import MilvusIndex
from graphs.vectors import EmbedderFingerprint, EmbedderMismatch
from tests.support.fakes import make_context, runtime
from tests.support.ingest_stores import ingest_stores

DIM = 16
CONCEPTS = [("observatory", "天文台"), ("dome", "穹顶"), ("opened", "启用"), ("harbour", "港口"), ("froze", "结冰"),
            ("winter", "冬天"), ("comet", "彗星"), ("spring", "春天"), ("telescope", "望远镜")]


class Crash(BaseException):
    """The process dies here (as SIGKILL: no cleanup runs)."""


class Concepts(Embeddings):
    """One axis per concept, named in English or Chinese, plus a small constant axis; counts passages embedded."""

    name = "concepts"

    def __init__(self, crash_on_call: int | None = None) -> None:
        self.passages = self.calls = 0
        self.crash_on_call = crash_on_call

    @staticmethod
    def vector(text: str) -> list[float]:
        low = text.lower()
        out = [float(low.count(en) + text.count(zh)) for en, zh in CONCEPTS]
        return [*out, *[0.0] * (DIM - len(out) - 1), 0.3]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.crash_on_call:
            raise Crash
        self.passages += len(texts)
        return [self.vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.vector(text)


FINGERPRINT = EmbedderFingerprint("concepts", DIM, "1")
HARBOUR = Document(id="harbour.md", title="Harbour", text="The harbour froze in the winter of 1903. " * 3)
ONE_PAGE = Document(id="quill.md", title="青羽天文台", text="青羽天文台于1911年春天启用了铜制穹顶。")
LONG = Document(id="long.md", title="Comet log", text="\n\n".join(
    f"Night {i}: the astronomers logged comet {i} and the weather over the ridge, the mirror and the mount. "
    * 6 for i in range(14)) + "\n\nThe final night: the observatory telescope was opened under the dome.")
QUESTION = "When was the observatory dome opened?"  # English; the document is Chinese


@pytest.fixture
def stores(tmp_path: Path) -> Iterator[dict[str, Any]]:
    with ingest_stores(tmp_path, DIM) as parts:
        yield parts


def process(stores: dict[str, Any], embedder: Concepts) -> tuple[Ingestor, FillingChunks]:
    """A fresh process: the ingestor with its vector fill, and the searches' view of the chunks still filling
    (sharing the vectors computed, as ``app.container`` builds them)."""
    ingestor = Ingestor(embedder=embedder, index=stores["index"], entities=stores["entities"],
                        gazetteer=GazetteerCache(stores["entities"]), kg=stores["graph"], journal=stores["graph"],
                        catalog=stores["catalog"])
    pending, computed = PendingVectors(stores["jobs"]), FilledVectors()
    ingestor.vector_fill = VectorFiller(pending, ingestor, dimension=DIM, slice_size=2, computed=computed)
    return ingestor, FillingChunks(pending, stores["index"], embedder, FINGERPRINT, computed=computed, budget=4)


def context(tmp_path: Path, stores: dict[str, Any], embedder: Concepts, filling: FillingChunks | None) -> RagContext:
    (tmp_path / "ctx").mkdir(exist_ok=True)
    base = make_context(tmp_path / "ctx", stores["index"])
    return dataclasses.replace(base, embedder=embedder, filling=filling)


def fill_all(ingestor: Ingestor) -> None:
    fill = ingestor.vector_fill
    assert fill is not None
    while fill.fill_next():
        pass
    assert fill.pending.counts() == (0, 0)


async def test_a_dense_route_finds_a_file_in_another_language_right_after_its_upload(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    index: MilvusIndex = stores["index"]
    assert index.search_bm25(QUESTION, filter=None, limit=5) == []  # no word in common: BM25 cannot cross
    state = {"question": QUESTION, "top_k": 3}

    without = await search_semantic(state, runtime(context(tmp_path, stores, embedder, None)))
    assert [h.doc_id for h in without["hits"]] == ["harbour.md"]  # the bug: the new file is invisible
    before = await search_semantic(state, runtime(context(tmp_path, stores, embedder, filling)))
    assert before["hits"][0].doc_id == "quill.md" and before["hits"][0].channel == "semantic"
    assert ingestor.vector_fill is not None and ingestor.vector_fill.pending.counts()[0] == 1  # still filling

    fill_all(ingestor)
    after = await search_semantic(state, runtime(context(tmp_path, stores, embedder, filling)))
    # the same embedder's score, equal before and after the fill: nothing of another model is compared
    assert [(h.id, h.channel) for h in before["hits"]] == [(h.id, h.channel) for h in after["hits"]]
    assert [h.score for h in before["hits"]] == pytest.approx([h.score for h in after["hits"]], abs=1e-5)
    assert [h.dense_score for h in before["hits"]] == pytest.approx([h.dense_score for h in after["hits"]], abs=1e-5)


async def test_the_hybrid_route_fuses_filling_chunks_into_its_dense_side(tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    state = {"question": QUESTION, "top_k": 3}
    without = await search_hybrid(state, runtime(context(tmp_path, stores, embedder, None)))
    # without its vectors the Chinese page is reached by BM25 alone, through the question's words in the other
    # language (启用 for "opened"); the filling chunks add its dense side
    [lexical] = [h for h in without["hits"] if h.doc_id == "quill.md"]
    before = await search_hybrid(state, runtime(context(tmp_path, stores, embedder, filling)))
    assert before["hits"][0].score > lexical.score
    fill_all(ingestor)
    after = await search_hybrid(state, runtime(context(tmp_path, stores, embedder, filling)))
    assert before["hits"][0].doc_id == "quill.md" and before["hits"][0].channel == "hybrid"
    assert [(h.id, h.score) for h in before["hits"]] == [(h.id, h.score) for h in after["hits"]]


def test_a_filter_applies_to_the_filling_chunks_too(tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    ctx = context(tmp_path, stores, embedder, filling)
    vector = embedder.embed_query(QUESTION)
    assert {h.doc_id for h in dense_search(ctx, vector, QUESTION, doc_filter("quill.md"), 5)} == {"quill.md"}
    assert {h.doc_id for h in dense_search(ctx, vector, QUESTION, doc_filter("harbour.md"), 5)} == {
        "harbour.md"}
    # the channel dense search gives: structured under a filter, semantic without
    assert {h.channel for h in dense_search(ctx, vector, QUESTION, doc_filter("quill.md"), 5)} == {"structured"}
    assert {h.channel for h in dense_search(ctx, vector, QUESTION, None, 5)} == {"semantic"}


def test_nothing_pending_costs_nothing(tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR, ONE_PAGE])
    passages = embedder.passages
    assert filling.search(embedder.embed_query(QUESTION), QUESTION, filter=None, limit=5) == []
    assert embedder.passages == passages and filling.embedded == 0


def test_a_long_file_scores_the_chunks_bm25_finds_within_its_budget(tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    report = ingestor.ingest([LONG], defer_vectors=True)
    assert report.chunks > filling.budget
    question = "Which night was the observatory telescope opened under the dome?"
    hits = filling.search(embedder.embed_query(question), question, filter=None, limit=10)
    assert 0 < filling.embedded <= filling.budget and len(hits) <= filling.budget
    assert "final night" in hits[0].text  # the chunk that answers, among BM25's best, scored first by meaning


def test_the_fill_writes_the_vectors_a_search_computed_and_a_kill_midway_loses_nothing(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts(crash_on_call=5)  # the search embeds its 4 (calls 1-4); the fill dies in its first own slice
    ingestor, filling = process(stores, embedder)
    report = ingestor.ingest([LONG], defer_vectors=True)
    question = "Which night was the observatory telescope opened under the dome?"
    first = filling.search(embedder.embed_query(question), question, filter=None, limit=3)
    assert first and embedder.passages == filling.embedded == 4
    fill = ingestor.vector_fill
    assert fill is not None
    with pytest.raises(Crash):
        fill.fill_next()
    # after the kill: a fresh process finds the file at once and fills every chunk, once, with its own vector
    embedder2 = Concepts()
    ingestor2, filling2 = process(stores, embedder2)
    again = filling2.search(embedder2.embed_query(question), question, filter=None, limit=3)
    assert [h.id for h in again] == [h.id for h in first]
    fill_all(ingestor2)
    assert embedder2.passages == report.chunks  # each chunk embedded once: by the search or by the fill
    index: MilvusIndex = stores["index"]
    chunks = index.document_chunks("long.md")
    stored = index.chunk_vectors("long.md")
    assert len(chunks) == len({c.id for c in chunks}) == len(stored) == report.chunks
    for chunk in chunks:
        own = np.asarray(Concepts.vector(embedding_text(chunk)))
        assert stored[chunk.id] == pytest.approx((own / np.linalg.norm(own)).tolist(), abs=1e-5)
    assert len(filling2.computed) == 0  # written by the fill: dropped
    dense = index.search_dense(embedder2.embed_query(question), filter=None, limit=3)
    assert [h.id for h in dense] == [h.id for h in again]


async def test_the_graph_route_seeds_a_document_whose_vectors_still_fill(tmp_path: Path, stores: dict[str, Any]) -> None:
    """A hybrid search that found a just-uploaded file escalates to the graph when its results cover little of the
    question (a question in the other language): the graph's breadth search must see that file too, or the
    escalation comes back empty and the file found by the hybrid search is lost."""
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    state = {"question": QUESTION, "top_k": 3}
    ctx = dataclasses.replace(context(tmp_path, stores, embedder, filling), kg=stores["graph"])
    blind = dataclasses.replace(context(tmp_path, stores, embedder, None), kg=stores["graph"])
    # without the filling chunks the graph reaches the file by words alone (the question's words as the other
    # language writes them: 启用 for "opened") or not at all, never by its meaning
    unseen = (await search_graph(state, runtime(blind)))["graph_nodes"].get("doc:quill.md")
    assert unseen is None or unseen.vector < 0.1
    seeded = await search_graph(state, runtime(ctx))
    assert "doc:quill.md" in seeded["graph_nodes"] and seeded["graph_nodes"]["doc:quill.md"].seed
    assert seeded["graph_nodes"]["doc:quill.md"].vector > 0.5  # scored by the filling chunk's own vector
    fill_all(ingestor)
    after = await search_graph(state, runtime(ctx))
    assert after["graph_nodes"]["doc:quill.md"].vector == pytest.approx(seeded["graph_nodes"]["doc:quill.md"].vector,
                                                                       abs=1e-5)


def test_the_graph_route_scores_a_filling_document_by_meaning_not_zero(tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    index: MilvusIndex = stores["index"]
    vector = embedder.embed_query(QUESTION)
    docs = ["quill.md", "harbour.md"]
    blind = score_documents(index, vector, QUESTION, docs, 1.0)
    assert "quill.md" not in blind  # no word in common and no vector yet: the route never sees it
    before = score_documents(index, vector, QUESTION, docs, 1.0, filling=filling)
    fill_all(ingestor)
    after = score_documents(index, vector, QUESTION, docs, 1.0, filling=filling)
    assert before["quill.md"][0].vector > before["harbour.md"][0].vector
    assert before["quill.md"][0].vector == pytest.approx(after["quill.md"][0].vector, abs=1e-5)


def test_only_the_index_embedder_scores_filling_chunks(stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    with pytest.raises(EmbedderMismatch):  # another model's vectors are never compared with the index's
        FillingChunks(filling.pending, stores["index"], embedder, EmbedderFingerprint("other-model", DIM, "1"))
    # a document waiting for another model's vectors (before `aer reindex`) is not scored by this one
    other = EmbedderFingerprint("other-model", DIM, "1")
    filling.pending.add([("quill.md", 1)], other)
    assert filling.search(embedder.embed_query(QUESTION), QUESTION, filter=None, limit=5) == []
    assert filling.embedded == 0


def test_a_search_embeds_filling_chunks_only_within_its_time_budget(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [0.0]
    monkeypatch.setattr(vector_fill.time, "perf_counter", lambda: clock[0])

    class Slow(Concepts):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            clock[0] += 0.1 * len(texts)  # 100 ms a passage (e5 on 2 idle cores)
            return super().embed_documents(texts)

    embedder = Slow()
    ingestor, _ = process(stores, embedder)
    report = ingestor.ingest([LONG], defer_vectors=True)
    filling = FillingChunks(PendingVectors(stores["jobs"]), stores["index"], embedder, FINGERPRINT, budget=6,
                            budget_s=0.25)
    question = "Which night was the observatory telescope opened under the dome?"
    first = filling.search(embedder.embed_query(question), question, filter=None, limit=10)
    # at 0 and 0.1 s, each predicted to take ~0.1 s; a third, at 0.2 s, would end past 0.25 s: not started
    assert filling.embedded == 2 and len(first) == 2
    assert "final night" in first[0].text  # BM25's best candidate came first
    second = filling.search(embedder.embed_query(question), question, filter=None, limit=10)
    assert filling.embedded == 4 and len(second) == 4  # the next question scores more, never one twice
    assert report.chunks > 6
    assert clock[0] == pytest.approx(0.4)  # no search ran past its budget


def test_a_search_starts_no_chunk_it_cannot_finish_within_its_budget(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy machine (the fill's passages took a second each): the question is not held for the first one; the
    chunks whose vectors exist are still scored."""
    clock = [0.0]
    monkeypatch.setattr(vector_fill.time, "perf_counter", lambda: clock[0])

    class Slow(Concepts):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            clock[0] += 1.0 * len(texts)
            return super().embed_documents(texts)

    embedder = Slow()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([LONG], defer_vectors=True)
    texts = [embedding_text(c) for c in stores["index"].document_chunks("long.md")]
    with filling.computed.embedding(["the fill's"], texts[:1]):  # the fill's passage under way, 1 s so far
        clock[0] += 1.0
        assert filling.computed.cost.predict(texts[0]) > 0.99  # seen before that call ends
    question = "Which night was the observatory telescope opened under the dome?"
    assert filling.search(embedder.embed_query(question), question, filter=None, limit=10) == []
    assert filling.embedded == 0 and clock[0] == 1.0
    last = next(c for c in stores["index"].document_chunks("long.md") if "final night" in c.text)
    # the fill, midway through the document, has this chunk's vector: the next question scores it at no cost
    filling.computed.put(last.id, embedding_text(last), Concepts().embed_documents([embedding_text(last)])[0])
    hits = filling.search(embedder.embed_query(question), question, filter=None, limit=10)
    assert filling.embedded == 0 and [h.id for h in hits] == [last.id]


def test_a_chinese_chunk_is_predicted_to_cost_more_than_an_english_one_of_its_length(
        stores: dict[str, Any]) -> None:
    embedder = Concepts()
    _, filling = process(stores, embedder)
    zh, en = LONG_ZH.text[:600], LONG.text[:600]
    assert filling.computed.cost.predict(zh) > 2 * filling.computed.cost.predict(en)


def test_neither_the_fill_nor_a_search_embeds_a_chunk_the_other_is_embedding(stores: dict[str, Any]) -> None:
    import threading

    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([ONE_PAGE, HARBOUR], defer_vectors=True)
    index: MilvusIndex = stores["index"]
    (chunk,) = index.document_chunks("quill.md")
    vector = embedder.embed_query(QUESTION)
    with filling.computed.embedding([chunk.id], [embedding_text(chunk)]):  # the fill is on it
        assert "quill.md" not in {h.doc_id for h in filling.search(vector, QUESTION, filter=None, limit=5)}
    assert filling.embedded == 1  # the harbour's chunk only
    fill = ingestor.vector_fill
    assert fill is not None
    assert len(index.document_chunks("harbour.md")) == 1
    seen: list[list[str]] = []
    real = embedder.embed_documents

    def spy(texts: list[str]) -> list[list[float]]:
        seen.append(texts)
        return real(texts)

    embedder.embed_documents = spy  # type: ignore[method-assign]
    computed, text = filling.computed, embedding_text(chunk)
    on_it, done = threading.Event(), threading.Event()

    def a_search() -> None:  # a question's search embeds quill.md's one chunk while the fill reaches it
        with computed.embedding([chunk.id], [text]):
            on_it.set()
            threading.Event().wait(0.2)
            computed.put(chunk.id, text, real([text])[0])
        done.set()

    threading.Thread(target=a_search).start()
    assert on_it.wait(5)
    fill_all(ingestor)
    assert done.is_set() and seen == []  # the fill waited for the search's vector; harbour.md's was computed before


def test_the_fill_runs_below_the_questions_cpu_priority(stores: dict[str, Any]) -> None:
    import os
    import threading

    embedder = Concepts()
    ingestor, _ = process(stores, embedder)
    fill = ingestor.vector_fill
    assert fill is not None and fill.niceness > 0
    ids: list[int] = []
    real = fill.fill_next

    def noting() -> int:
        ids.append(threading.get_native_id())
        return real()

    fill.fill_next = noting  # type: ignore[method-assign]
    fill.start()
    try:
        ingestor.ingest([ONE_PAGE], defer_vectors=True)
        fill.written()
        for _ in range(200):
            if ids:
                break
            threading.Event().wait(0.01)
        here = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        assert ids and os.getpriority(os.PRIO_PROCESS, ids[0]) == min(here + fill.niceness, 19)
    finally:
        fill.stop()


def test_a_search_with_nothing_pending_reads_no_table_and_sees_an_upload_at_once(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([HARBOUR])
    vector = embedder.embed_query(QUESTION)
    filling.pending.kept_s = 3600.0  # only a change of the file may re-read here
    assert filling.search(vector, QUESTION, filter=None, limit=5) == []
    statements: list[str] = []
    filling.pending._conn.set_trace_callback(statements.append)  # every statement SQLite runs on the connection
    for _ in range(5):  # nothing pending: the searches after the first read no table
        assert filling.search(vector, QUESTION, filter=None, limit=5) == []
    assert statements == []
    ingestor.ingest([ONE_PAGE], defer_vectors=True)  # this process's upload: seen by the next search
    assert [h.doc_id for h in filling.search(vector, QUESTION, filter=None, limit=5)] == ["quill.md"]
    fill_all(ingestor)  # the fill's progress: the document is no longer pending
    assert filling.search(vector, QUESTION, filter=None, limit=5) == []


def test_the_kept_pending_list_follows_another_process_sharing_the_file(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    mine = PendingVectors(stores["jobs"], kept_s=3600.0)
    other = PendingVectors(stores["jobs"])  # another process's connection to the same SQLite file
    assert mine.doc_ids(FINGERPRINT) == []
    reads = mine.reads
    assert mine.doc_ids(FINGERPRINT) == [] and mine.reads == reads  # unchanged file: kept
    token = other.add([("quill.md", 3)], FINGERPRINT)
    assert mine.doc_ids(FINGERPRINT) == ["quill.md"]  # its commit changed the file: read again
    reads = mine.reads
    assert mine.doc_ids(FINGERPRINT) == ["quill.md"] and mine.reads == reads
    assert other.done("quill.md", token)
    assert mine.doc_ids(FINGERPRINT) == []
    other.close()
    mine.close()


def test_the_kept_pending_list_is_read_again_after_its_time(stores: dict[str, Any]) -> None:
    pending = PendingVectors(stores["jobs"], kept_s=0.0)
    pending.doc_ids(FINGERPRINT)
    pending.doc_ids(FINGERPRINT)
    assert pending.reads == 2
    pending.close()


LONG_ZH = Document(id="long-zh.md", title="彗星观测记录", text="\n\n".join(
    f"第{i}夜：观测者记录了第{i}号彗星、山脊上空的天气、镜面和支架的状况，并整理了当晚的全部笔记。" * 5
    for i in range(20)) + "\n\n最后一夜：天文台在1911年春天启用了铜制穹顶。")


def test_an_english_question_over_a_long_chinese_upload_finds_it_on_the_first_ask(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    from graphs.rag.retrieval_crossing import crossing

    embedder = Concepts()
    ingestor, plain = process(stores, embedder)
    report = ingestor.ingest([LONG_ZH], defer_vectors=True)
    assert report.chunks > plain.budget  # more chunks than a search embeds: BM25 chooses, and cannot cross
    vector = embedder.embed_query(QUESTION)
    assert plain.search(vector, QUESTION, filter=None, limit=5) == []  # before: nothing until the fill is done
    crossed = FillingChunks(plain.pending, stores["index"], embedder, FINGERPRINT, budget=4, crossing=crossing())
    hits = crossed.search(vector, QUESTION, filter=None, limit=5)
    assert hits and "启用了铜制穹顶" in hits[0].text  # "opened" read as 启用 by the lexicon; scored by meaning
    assert 0 < crossed.embedded <= crossed.budget


def test_chunks_the_fill_has_embedded_are_scored_before_the_document_is_written(
        tmp_path: Path, stores: dict[str, Any]) -> None:
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)  # no lexicon: BM25 chooses nothing for this question
    ingestor.ingest([LONG_ZH], defer_vectors=True)
    index: MilvusIndex = stores["index"]
    last = next(c for c in index.document_chunks("long-zh.md") if "穹顶" in c.text)
    filling.computed.put(last.id, embedding_text(last), embedder.embed_documents([embedding_text(last)])[0])
    passages = embedder.passages
    hits = filling.search(embedder.embed_query(QUESTION), QUESTION, filter=None, limit=5)
    assert [h.id for h in hits][:1] == [last.id]  # the fill's vector, taken as it is: nothing embedded again
    assert embedder.passages == passages and filling.embedded == 0


def test_a_chunk_in_the_other_language_gets_the_longer_budget(
        stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Words cannot reach a chunk in the other language (and the answer layer judges it by its dense score), so a
    question in the other language may wait for its vector; one in the chunk's own language finds it by BM25."""
    clock = [0.0]
    monkeypatch.setattr(vector_fill.time, "perf_counter", lambda: clock[0])

    class Slow(Concepts):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            clock[0] += 0.8 * len(texts)  # a loaded machine: 0.8 s a chunk
            return super().embed_documents(texts)

    embedder = Slow()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([ONE_PAGE], defer_vectors=True)
    (chunk,) = stores["index"].document_chunks("quill.md")
    filling.computed.cost.per_token = 0.8 / passage_tokens(embedding_text(chunk))  # learned from earlier calls
    assert filling.budget_s < 0.8 < filling.crossing_budget_s
    own = "青羽天文台的穹顶是哪一年启用的？"
    assert filling.search(embedder.embed_query(own), own, filter=None, limit=5) == []  # BM25 finds it at once
    assert filling.embedded == 0 and clock[0] == 0.0
    hits = filling.search(embedder.embed_query(QUESTION), QUESTION, filter=None, limit=5)
    assert [h.doc_id for h in hits] == ["quill.md"] and filling.embedded == 1  # English: worth its 0.8 s


def test_a_search_late_in_a_large_fill_ranks_the_held_vectors_and_reads_only_the_best(
        tmp_path: Path, stores: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """Late in a large file's fill, thousands of its chunks have vectors held in memory: a search read every chunk
    of the file and scored each in Python (4 s a search for a 1 MB file); it now ranks the held vectors at once and
    reads the best a window at a time, with the same hits: the best ``limit`` under the filter."""
    embedder = Concepts()
    ingestor, filling = process(stores, embedder)
    ingestor.ingest([LONG_ZH], defer_vectors=True)
    filling.budget = 1  # a long file: BM25 chooses the chunks to embed (none, for this English question)
    index: MilvusIndex = stores["index"]
    chunks = index.document_chunks("long-zh.md")
    for c in chunks:
        filling.computed.put(c.id, embedding_text(c), embedder.embed_documents([embedding_text(c)])[0])
    q = embedder.embed_query(QUESTION)

    def cosine(c: Any) -> float:
        v = np.asarray(filling.computed.get(c.id, embedding_text(c)))
        return float(np.dot(q, v) / np.linalg.norm(q) / np.linalg.norm(v))

    expected = sorted(chunks, key=lambda c: -cosine(c))
    monkeypatch.setattr(vector_fill, "HELD_WINDOW", 1)  # windows of 4 × limit
    reads: list[Any] = []
    chunks_where = index.chunks_where
    monkeypatch.setattr(index, "chunks_where", lambda f: reads.append(f) or chunks_where(f))
    hits = filling.search(q, QUESTION, filter=None, limit=1)
    assert [h.id for h in hits] == [expected[0].id] and "穹顶" in hits[0].text and len(reads) == 1
    hits = filling.search(q, QUESTION, filter=None, limit=len(chunks))
    assert [h.id for h in hits] == [c.id for c in expected]
    # under a filter that only the two worst-ranked chunks pass, the windows go on until the better is found
    reads.clear()
    last_two = InList("chunk_index", (expected[-1].chunk_index, expected[-2].chunk_index))
    hits = filling.search(q, QUESTION, filter=last_two, limit=1)
    assert [h.id for h in hits] == [expected[-2].id] and len(reads) == 2  # windows of 4 of 7 ranked
    assert filling.embedded == 0
