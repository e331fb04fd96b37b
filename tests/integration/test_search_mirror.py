"""The search mirror against Milvus Lite's own search on one real Lite file: the same rows and scores for dense,
filtered and BM25 searches; BM25 that no longer depends on how rows were written; the mirror's files, and a
mirror that finds Lite changed behind its back."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pymilvus import MilvusClient

from app.tools.bench.corpus import generate_corpus
from graphs.domain import Chunk, Constraint, DateRange, Hit
from graphs.stores.filters import Compare, InList, Like, build_filter
from graphs.stores.milvus import MilvusIndex
from graphs.stores.milvus import schema as milvus_module
from graphs.stores.milvus.rows import make_row

DIM = 16
N_DOCS = 240
CORPUS = generate_corpus(N_DOCS, seed=7, per_route=4)
QUESTIONS = [q.text for q in CORPUS.questions] + ["人工智能 投资", "Apple", "不存在"]
FEW = settings(max_examples=25, deadline=None, database=None,
               suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip


def vector(i: int) -> list[float]:
    return np.random.default_rng(i).standard_normal(DIM).tolist()


def chunks_of(i: int) -> list[Chunk]:
    doc = CORPUS.documents[i]
    entities = {k: list(v) for k, v in doc.metadata.get("entities", {}).items()}
    entities.setdefault("LOCATION", [])
    if entities["LOCATION"]:
        entities["LOCATION"] = ["中国", *entities["LOCATION"]]  # an ancestor, as ingest adds
    date = int(doc.metadata["date"].replace("-", ""))
    return [Chunk(id=f"{doc.id}#0", doc_id=doc.id, chunk_index=0, title=doc.title, text=doc.text, date=date,
                  entities=entities)]  # fmt: skip


def load(index: MilvusIndex, docs: range, per_call: int) -> None:
    for start in range(docs.start, docs.stop, per_call):
        batch = [(CORPUS.documents[i].id, chunks_of(i), [vector(i)]) for i in range(start, min(start + per_call, docs.stop))]
        index.replace_documents(batch)
        index.flush()  # one Lite segment per call, as API ingests of a few documents make


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(tmp_path_factory.mktemp("mirror"))


@pytest.fixture(scope="module")
def pair(files: Path) -> Iterator[tuple[MilvusIndex, MilvusIndex]]:
    """One Lite file written in one bulk call: its mirror, and Lite's own search."""
    mirror = MilvusIndex(str(files / "bulk.db"), "chunks", dim=DIM)
    lite = MilvusIndex(str(files / "bulk.db"), "chunks", dim=DIM)
    lite.use_mirror = False
    load(mirror, range(N_DOCS), N_DOCS)
    yield mirror, lite
    lite.close()
    mirror.close()


def fields(hit: Hit) -> dict[str, Any]:
    """A hit without its scores (float32 sums in another order differ in the last bits: compared apart)."""
    return {k: v for k, v in hit.model_dump().items() if not k.endswith("score")}


class Ranked:
    """Hits as (ids, scores), equal when the ids are and the scores agree to 1e-5 (float32 sums in another
    order differ in the last bits)."""

    def __init__(self, hits: list[Hit], score: str) -> None:
        self.ids = [h.id for h in hits]
        self.scores = [float(getattr(h, score)) for h in hits]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ranked) and self.ids == other.ids and self.scores == pytest.approx(
            other.scores, rel=1e-5, abs=1e-5
        )

    def __repr__(self) -> str:
        return repr(list(zip(self.ids, self.scores, strict=True)))


def pairs(hits: list[Hit], score: str) -> Ranked:
    return Ranked(hits, score)


values = st.sampled_from(sorted({
    (t, name) for d in CORPUS.documents for t, names in d.metadata.get("entities", {}).items() for name in names
}))  # fmt: skip
constraint = st.one_of(
    values.map(lambda tv: Constraint(type=tv[0], value=tv[1])),
    values.map(lambda tv: Constraint(type=tv[0], value=tv[1], negated=True)),
    st.sampled_from(["中国", "北京", "上海", "朝阳"]).map(lambda v: Constraint(type="LOCATION", value=v)),
    st.integers(2018, 2025).map(
        lambda y: Constraint(type="DATE", value=str(y), date_range=DateRange(
            start=y * 10000 + 101, end=y * 10000 + 1231, granularity="year", label=str(y)))
    ),
)  # fmt: skip


@FEW
@given(cs=st.lists(constraint, max_size=3), seed=st.integers(0, 10_000), limit=st.sampled_from([1, 10, 60]))
def test_dense_search_matches_milvus_lite(pair: tuple[MilvusIndex, MilvusIndex], cs: list[Constraint], seed: int,
                                          limit: int) -> None:  # fmt: skip
    mirror, lite = pair
    expr = build_filter(cs)
    q = vector(10_000 + seed)
    got = mirror.search_dense(q, filter=expr, limit=limit)
    assert pairs(got, "dense_score") == pairs(lite.search_dense(q, filter=expr, limit=limit), "dense_score")
    assert mirror.count(expr) == lite.count(expr)
    # The hits carry Lite's stored fields, exactly as Lite's own search returns them.
    expected = lite.search_dense(q, filter=expr, limit=limit)
    assert [fields(h) for h in got] == [fields(h) for h in expected]
    assert [h.score for h in got] == pytest.approx([h.score for h in expected], abs=1e-5)


@pytest.mark.parametrize("question", QUESTIONS)
def test_bm25_matches_milvus_lite_on_one_segment(pair: tuple[MilvusIndex, MilvusIndex], question: str) -> None:
    mirror, lite = pair
    for raw in (False, True):
        got = mirror.search_bm25(question, filter=None, limit=30, raw=raw)
        expected = lite.search_bm25(question, filter=None, limit=30, raw=raw)
        assert [h.bm25_score for h in got] == pytest.approx([h.bm25_score for h in expected], rel=1e-5)
        assert {h.id for h in got} == {h.id for h in expected}
    doc_filter = InList("doc_id", ("bench-0000003", "bench-0000009", "bench-0000100"))
    got = mirror.search_bm25(question, filter=doc_filter, limit=5, raw=True)
    expected = lite.search_bm25(question, filter=doc_filter, limit=5, raw=True)
    assert [h.id for h in got] == [h.id for h in expected]
    assert [h.bm25_score for h in got] == pytest.approx([h.bm25_score for h in expected], rel=1e-5)


def test_hybrid_and_document_listing_match(pair: tuple[MilvusIndex, MilvusIndex]) -> None:
    mirror, lite = pair
    for i, question in enumerate(QUESTIONS):
        for fusion in ("rrf", "weighted"):
            got = mirror.search_hybrid(vector(i), question, filter=None, limit=10, fusion=fusion)  # type: ignore[arg-type]
            expected = lite.search_hybrid(vector(i), question, filter=None, limit=10, fusion=fusion)  # type: ignore[arg-type]
            assert [h.id for h in got] == [h.id for h in expected]
    assert mirror.document_ids() == lite.document_ids() == {d.id for d in CORPUS.documents}
    assert mirror.count() == lite.count() == N_DOCS


def test_an_expression_the_mirror_does_not_read_is_answered_exactly(pair: tuple[MilvusIndex, MilvusIndex]) -> None:
    mirror, lite = pair
    for expr in [Like("title", "contains", "人工智能"), Compare("doc_id", ">", "bench-0000200"),
                 Like("person", "contains", "华")]:
        q = vector(1)
        assert pairs(mirror.search_dense(q, filter=expr, limit=20), "dense_score") == pairs(
            lite.search_dense(q, filter=expr, limit=20), "dense_score"
        )
        assert mirror.count(expr) == lite.count(expr) > 0


def recall(ranked: list[Hit], relevant: list[Hit]) -> float:
    if not relevant:
        return 1.0 if not ranked else 0.0
    return len({h.id for h in ranked} & {h.id for h in relevant}) / len(relevant)


def test_a_write_through_lite_and_the_mirror_cuts_each_passage_once(tmp_path: Path) -> None:
    """Lite's BM25 function and the mirror's analyzer share each passage's jieba cut (``shared_cuts``), and the
    two BM25 searches still agree."""
    import jieba

    from graphs.stores.bm25 import shared_cut_hits

    own = jieba.cut_for_search
    mirror = MilvusIndex(str(tmp_path / "once.db"), "chunks", dim=DIM)
    lite = MilvusIndex(str(tmp_path / "once.db"), "chunks", dim=DIM)
    lite.use_mirror = False
    try:
        mirror.count()  # opens the collection and its mirror
        before = shared_cut_hits()
        load(mirror, range(40), 40)
        assert shared_cut_hits() - before == 40  # every passage cut once, for both readers
        assert jieba.cut_for_search is own
        for question in QUESTIONS[:8]:
            assert pairs(mirror.search_bm25(question, filter=None, limit=10), "bm25_score") == pairs(
                lite.search_bm25(question, filter=None, limit=10), "bm25_score")
    finally:
        lite.close()
        mirror.close()


def test_bm25_of_incremental_writes_equals_one_bulk_write(files: Path, pair: tuple[MilvusIndex, MilvusIndex]) -> None:
    """Lite computes BM25 statistics per segment, so rows written a few at a time (many small segments) rank
    differently from the same rows written at once; the mirror's statistics cover the collection."""
    bulk_mirror, bulk_lite = pair
    path = str(files / "incremental.db")
    mirror = MilvusIndex(path, "chunks", dim=DIM)
    lite = MilvusIndex(path, "chunks", dim=DIM)
    lite.use_mirror = False
    try:
        load(mirror, range(N_DOCS), 16)
        lite_recalls, mirror_recalls = [], []
        for question in QUESTIONS:
            truth = bulk_lite.search_bm25(question, filter=None, limit=10)
            got = mirror.search_bm25(question, filter=None, limit=10)
            assert pairs(got, "bm25_score") == pairs(bulk_mirror.search_bm25(question, filter=None, limit=10), "bm25_score")
            mirror_recalls.append(recall(got, truth))
            lite_recalls.append(recall(lite.search_bm25(question, filter=None, limit=10), truth))
        assert min(mirror_recalls) == 1.0
        assert sum(lite_recalls) / len(lite_recalls) < 1.0  # what Lite's per-segment statistics cost
    finally:
        lite.close()
        mirror.close()


def raw_client(path: str) -> MilvusClient:
    client = MilvusClient(uri=path)
    client.load_collection("chunks")
    return client


def test_reopening_reads_the_saved_mirror_and_catches_up_with_lite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "m.db")
    index = MilvusIndex(path, "chunks", dim=DIM)
    load(index, range(30), 30)
    expected = pairs(index.search_dense(vector(5), filter=None, limit=10), "dense_score")
    index.close()
    saved = tmp_path / "m.db.mirror" / "chunks"
    assert (saved / "manifest.json").exists() and list(saved.glob("rows-*.arrow"))

    # Reopened: the rows come from the saved files; Lite is only asked which keys it holds.
    reads: list[int] = []
    real_read = MilvusIndex._rows_by_id
    monkeypatch.setattr(MilvusIndex, "_rows_by_id", lambda self, c, pks, f: reads.append(len(pks)) or real_read(self, c, pks, f))
    index = MilvusIndex(path, "chunks", dim=DIM)
    assert pairs(index.search_dense(vector(5), filter=None, limit=10), "dense_score") == expected
    assert reads == [10]  # only the hits' fields were read
    index.close()
    monkeypatch.undo()

    # Written behind the mirror's back (another client of the same file): on the next open the mirror
    # drops what Lite no longer holds and reads what it lacks.
    client = raw_client(path)
    stored = client.query("chunks", filter='doc_id == "bench-0000003"', output_fields=["id"])
    client.delete("chunks", filter='doc_id == "bench-0000003"')
    extra = make_row(chunks_of(40)[0], vector(40), DIM)  # builds a row, no I/O
    client.insert("chunks", [extra])
    index = MilvusIndex(path, "chunks", dim=DIM)
    try:
        assert index.count() == 30 and "bench-0000003" not in index.document_ids()
        assert CORPUS.documents[40].id in index.document_ids()
        found = {h.id for h in index.search_dense(vector(3), filter=None, limit=100)}
        assert str(stored[0]["id"]).split("@")[0] not in found and chunks_of(40)[0].id in found
        assert index.search_dense(vector(40), filter=None, limit=1)[0].id == chunks_of(40)[0].id
    finally:
        index.close()


def test_a_row_removed_behind_the_mirror_is_never_returned(tmp_path: Path) -> None:
    path = str(tmp_path / "m.db")
    index = MilvusIndex(path, "chunks", dim=DIM)
    lite = MilvusIndex(path, "chunks", dim=DIM)
    lite.use_mirror = False
    try:
        load(index, range(20), 20)
        raw_client(path).delete("chunks", filter='doc_id == "bench-0000002"')
        hits = index.search_dense(vector(2), filter=None, limit=5)  # the mirror still names the row
        assert "bench-0000002" not in {h.doc_id for h in hits}
        assert pairs(hits, "dense_score") == pairs(lite.search_dense(vector(2), filter=None, limit=5), "dense_score")
        assert index.count() == 19  # re-checked against Lite since
        assert index._shared is not None and index._shared.verified
    finally:
        lite.close()
        index.close()


def test_a_collection_whose_analyzer_the_mirror_cannot_reproduce_is_searched_by_lite(tmp_path: Path) -> None:
    index = MilvusIndex(str(tmp_path / "m.db"), "chunks", dim=DIM, analyzer={"tokenizer": "standard"})
    try:
        load(index, range(10), 10)
        assert index._shared is None
        assert index.count() == 10 and len(index.search_bm25("the", filter=None, limit=3)) == 3
        assert not (tmp_path / "m.db.mirror").exists()
    finally:
        index.close()


def test_lite_files_made_before_the_mirror_are_read_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An existing Lite file without mirror files (older versions, or files deleted): read on first open."""
    path = str(tmp_path / "m.db")
    old = tuple(("sparse", "SPARSE_INVERTED_INDEX", "BM25") if f == "sparse" else (f, t, m)
                for f, t, m in milvus_module.INDEXES)  # fmt: skip
    monkeypatch.setattr(milvus_module, "INDEX_PARAMS", {})  # made before BM25 parameters were stated
    monkeypatch.setattr(milvus_module, "INDEXES", old)
    index = MilvusIndex(path, "chunks", dim=DIM)
    lite = MilvusIndex(path, "chunks", dim=DIM)
    lite.use_mirror = False
    load(index, range(25), 25)
    expected = pairs(lite.search_bm25("人工智能 投资", filter=None, limit=10), "bm25_score")
    lite.close()
    index.close()
    monkeypatch.undo()
    shutil.rmtree(tmp_path / "m.db.mirror")
    index = MilvusIndex(path, "chunks", dim=DIM)
    try:
        assert pairs(index.search_bm25("人工智能 投资", filter=None, limit=10), "bm25_score") == expected
        assert (tmp_path / "m.db.mirror" / "chunks" / "manifest.json").exists()
    finally:
        index.close()


def test_a_mirror_that_cannot_be_saved_costs_only_a_longer_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from graphs.stores.milvus.mirror import SearchMirror

    def full_disk(self: SearchMirror, directory: Path) -> int:
        raise OSError(28, "No space left on device")

    path = str(tmp_path / "m.db")
    monkeypatch.setattr(SearchMirror, "save", full_disk)
    index = MilvusIndex(path, "chunks", dim=DIM)
    load(index, range(12), 6)  # flushes (and tries to save) after each call
    index.close()
    assert "could not save the search mirror" in caplog.text
    monkeypatch.undo()
    index = MilvusIndex(path, "chunks", dim=DIM)
    try:
        assert index.count() == 12 and len(index.search_bm25("人工智能", filter=None, limit=50)) > 0
    finally:
        index.close()


def test_ids_with_quotes_and_unusual_characters_are_read_back(tmp_path: Path) -> None:
    """Hits are read from Lite by primary key through an escaped filter (pymilvus's ``get`` does not escape)."""
    index = MilvusIndex(str(tmp_path / "m.db"), "chunks", dim=DIM)
    try:
        names = ["it's", 'say "hi"', "back\\slash", "\x80\x9f", "a']['b", "北京'"]
        for i, name in enumerate(names):
            index.replace_document(name, [Chunk(id=f"{name}#0", doc_id=name, chunk_index=0, title=name, text="t")],
                                   [vector(i)])  # fmt: skip
        for i, name in enumerate(names):
            [hit] = index.search_dense(vector(i), filter=None, limit=1)
            assert (hit.doc_id, hit.id, hit.title) == (name, f"{name}#0", name)
        index.close()
        index = MilvusIndex(str(tmp_path / "m.db"), "chunks", dim=DIM)
        assert index.document_ids() == set(names)
    finally:
        index.close()
