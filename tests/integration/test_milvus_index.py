"""MilvusIndex against a real Milvus Lite file: schema, replace/delete, filters, search, errors."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from pymilvus import MilvusException

from graphs.domain import Chunk, Constraint, DateRange, EntityType
from graphs.stores.base import StoreUnavailable, VectorIndex
from graphs.stores.filters import build_filter, doc_filter
from graphs.stores.milvus import MilvusIndex, SchemaMismatchError
from graphs.stores.milvus import index as milvus_module
from graphs.stores.milvus import schema as schema_module
from graphs.stores.milvus import staging as staging_module

DIM = 32
ROOT = Path(__file__).resolve().parents[2]
ADVERSARIAL = [
    'a"b',
    "back\\slash",
    "a||b",
    "a&&b",
    "x) or (1 == 1",
    '" or id != "',
    "100%",
    "%",
    "_",
    "a_b",
    "|",
    "line\nbreak",
    "北京|朝阳",
    "Zoë 🚀",
]
# Rows a broken escaping would also match: wildcards taking other characters, substrings.
DECOYS = ["a&b", "backXslash", "1000%", "axb", "aXb", "ab", "100", "x", " or id != ", "北京", "Zoë"]


def vec(i: int) -> list[float]:
    """Return a deterministic unit-ish vector pointing mostly along axis ``i % DIM``."""
    v = [0.01 * ((i * 7 + k) % 5) for k in range(DIM)]
    v[i % DIM] = 1.0
    return v


def chunk(doc_id: str, i: int, text: str, **kw: Any) -> Chunk:
    return Chunk(id=f"{doc_id}:{i}", doc_id=doc_id, chunk_index=i, title=doc_id.title(), text=text, **kw)


def day(start: int, end: int) -> DateRange:
    return DateRange(start=start, end=end, granularity="day", label=str(start))


CORPUS: dict[str, list[Chunk]] = {
    "beijing": [
        chunk(
            "beijing",
            0,
            "朝阳区的市场新闻。Local markets reopened.",
            date=20230315,
            entities={"LOCATION": ["中国", "北京", "朝阳"], "PERSON": ["张三"]},
        ),
        chunk("beijing", 1, "北京的天气很好。", date=20230720, entities={"LOCATION": ["中国", "北京"]}),
    ],
    "shanghai": [
        chunk(
            "shanghai",
            0,
            "上海的港口很繁忙。The harbour is busy.",
            date=20220101,
            entities={"LOCATION": ["中国", "上海"], "ORGANIZATION": ["上港集团"]},
        ),
    ],
    "rare": [
        chunk(
            "rare", 0, "他是一个饕餮之徒。This was pure Serendipity indeed.", entities={"CONCEPT": ["美食"]}
        ),
    ],
    "adversarial": [
        chunk("adversarial", i, f"common adversarial row {i}", entities={"PERSON": [name]})
        for i, name in enumerate(ADVERSARIAL + DECOYS)
    ],
}


def load(index: MilvusIndex) -> dict[str, int]:
    offsets: dict[str, int] = {}
    n = 0
    for doc_id, chunks in CORPUS.items():
        offsets[doc_id] = n
        index.replace_document(doc_id, chunks, [vec(n + j) for j in range(len(chunks))])
        n += len(chunks)
    return offsets


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "milvus" / "index.db")


@pytest.fixture(params=["mirror", "lite-search"])
def index(db_path: str, request: pytest.FixtureRequest) -> Iterator[MilvusIndex]:
    """The index answering from its search mirror (the default for a Lite file), and through Milvus Lite's
    own search: both must keep every contract below."""
    idx = MilvusIndex(db_path, "chunks", dim=DIM)
    idx.use_mirror = request.param == "mirror"
    yield idx
    idx.close()


def lookups(index: MilvusIndex) -> int:
    """Milvus queries a batch write makes to find the documents' stored rows (a Lite file's mirror knows them)."""
    return 0 if index._local else 1


@pytest.fixture
def loaded(index: MilvusIndex) -> MilvusIndex:
    load(index)
    return index


def total() -> int:
    return sum(len(c) for c in CORPUS.values())


def ids(hits: list[Any]) -> list[str]:
    return [h.id for h in hits]


def person(value: str, negated: bool = False) -> str:
    expr = build_filter([Constraint(type="PERSON", value=value, negated=negated)])
    assert expr is not None
    return expr


def run_child(db_path: str, body: str) -> dict[str, Any]:
    """Open the index in a fresh process, run ``body`` (sets ``out``), return ``out``."""
    script = (
        "import json, sys\n"
        "from graphs.stores.milvus import MilvusIndex\n"
        "from graphs.stores.base import StoreUnavailable\n"
        f"idx = MilvusIndex({db_path!r}, 'chunks', dim={DIM})\n"
        "out = {}\n"
        f"{body}\n"
        "idx.close()\n"
        "sys.stdout.write('RESULT' + json.dumps(out))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(proc.stdout.split("RESULT", 1)[1])


def test_implements_protocol(index: MilvusIndex) -> None:
    assert isinstance(index, VectorIndex)


def test_empty_collection_is_created_on_first_use(index: MilvusIndex) -> None:
    index.ping()
    assert index.count() == 0
    assert index.document_ids() == set()
    assert index.search_dense(vec(0), filter=None, limit=5) == []
    assert index.search_bm25("anything", filter=None, limit=5) == []


def test_replace_is_idempotent_and_drops_stale_chunks(loaded: MilvusIndex) -> None:
    assert loaded.count() == total()
    assert loaded.document_ids() == set(CORPUS)
    load(loaded)
    assert loaded.count() == total()

    edited = [c.model_copy(update={"text": c.text + " edited"}) for c in CORPUS["beijing"]]
    assert loaded.replace_document("beijing", edited, [vec(0), vec(1)]) == 2
    assert loaded.count(doc_filter("beijing")) == 2
    hits = loaded.search_dense(vec(0), filter=doc_filter("beijing"), limit=10)
    assert sorted(ids(hits)) == ["beijing:0", "beijing:1"]
    assert all(h.text.endswith("edited") for h in hits)

    assert loaded.replace_document("beijing", edited[:1], [vec(5)]) == 1
    assert ids(loaded.search_dense(vec(0), filter=doc_filter("beijing"), limit=10)) == ["beijing:0"]
    assert loaded.count() == total() - 1


def test_failed_replace_keeps_the_old_version(loaded: MilvusIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    client = loaded._client
    assert client is not None
    real_upsert = client.upsert
    calls = {"n": 0}

    def flaky_upsert(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] > 1:
            raise MilvusException(message="injected failure")
        return real_upsert(*args, **kwargs)

    monkeypatch.setattr(staging_module, "UPSERT_BATCH", 1)
    monkeypatch.setattr(client, "upsert", flaky_upsert)
    new = [c.model_copy(update={"text": "new version"}) for c in CORPUS["beijing"]]
    with pytest.raises(StoreUnavailable):
        loaded.replace_document("beijing", new, [vec(0), vec(1)])
    monkeypatch.undo()

    hits = loaded.search_dense(vec(0), filter=doc_filter("beijing"), limit=10)
    assert sorted(ids(hits)) == ["beijing:0", "beijing:1"]
    assert all(h.text != "new version" for h in hits)
    assert loaded.count() == total()


def test_automatic_lite_flushes_keep_results_exact(
    index: MilvusIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(milvus_module, "LITE_FLUSH_ROWS", 3)
    load(index)
    load(index)
    assert index.count() == total()
    assert index.document_ids() == set(CORPUS)
    check_adversarial(index)


def test_delete_document(loaded: MilvusIndex) -> None:
    assert loaded.delete_document("beijing") == 2
    assert loaded.delete_document("beijing") == 0
    assert loaded.count() == total() - 2
    assert "beijing" not in loaded.document_ids()
    assert loaded.replace_document("shanghai", [], []) == 0
    assert loaded.document_ids() == set(CORPUS) - {"beijing", "shanghai"}


def test_replace_rejects_contract_violations(index: MilvusIndex) -> None:
    c = CORPUS["rare"][0]
    with pytest.raises(ValueError):
        index.replace_document("rare", [c], [])
    with pytest.raises(ValueError):
        index.replace_document("other", [c], [vec(0)])
    with pytest.raises(ValueError):
        index.replace_document("rare", [c], [[1.0, 2.0]])
    with pytest.raises(ValueError):
        index.search_dense([1.0], filter=None, limit=3)


@pytest.mark.parametrize(
    ("etype", "value", "expected"),
    [
        ("LOCATION", "北京", {"beijing:0", "beijing:1"}),
        ("LOCATION", "朝阳", {"beijing:0"}),
        ("LOCATION", "中国", {"beijing:0", "beijing:1", "shanghai:0"}),
        ("LOCATION", "北", set()),
        ("ORGANIZATION", "上港集团", {"shanghai:0"}),
        ("PERSON", "张三", {"beijing:0"}),
    ],
)
def test_entity_filters(loaded: MilvusIndex, etype: EntityType, value: str, expected: set[str]) -> None:
    expr = build_filter([Constraint(type=etype, value=value)])
    assert loaded.count(expr) == len(expected)
    hits = loaded.search_dense(vec(0), filter=expr, limit=50)
    assert set(ids(hits)) == expected
    assert all(h.channel == "structured" for h in hits)


def test_date_and_negation_filters(loaded: MilvusIndex) -> None:
    in_2023 = Constraint(type="DATE", value="2023", date_range=day(20230101, 20231231))
    expr = build_filter([in_2023])
    assert set(ids(loaded.search_dense(vec(0), filter=expr, limit=50))) == {"beijing:0", "beijing:1"}
    march = Constraint(type="DATE", value="2023-03", date_range=day(20230301, 20230331))
    not_chaoyang = Constraint(type="LOCATION", value="朝阳", negated=True)
    china = Constraint(type="LOCATION", value="中国")
    assert loaded.count(build_filter([march])) == 1
    expr = build_filter([china, not_chaoyang])
    assert set(ids(loaded.search_dense(vec(0), filter=expr, limit=50))) == {"beijing:1", "shanghai:0"}
    assert loaded.count(build_filter([china, not_chaoyang, in_2023])) == 1


def check_adversarial(index: MilvusIndex) -> None:
    offset = sum(len(c) for k, c in CORPUS.items() if k != "adversarial")
    for i, name in enumerate(ADVERSARIAL + DECOYS):
        expr = person(name)
        want = [f"adversarial:{i}"]
        assert index.count(expr) == 1, name
        assert ids(index.search_dense(vec(offset + i), filter=expr, limit=50)) == want, name
        assert ids(index.search_bm25("common adversarial", filter=expr, limit=50)) == want, name
        assert ids(index.search_hybrid(vec(0), "common", filter=expr, limit=50)) == want, name
        assert index.count(person(name, negated=True)) == total() - 1, name


def test_adversarial_values_match_only_their_rows(loaded: MilvusIndex, db_path: str) -> None:
    hits = loaded.search_dense(vec(0), filter=doc_filter("adversarial"), limit=100)
    assert {h.entities["PERSON"][0] for h in hits} == set(ADVERSARIAL + DECOYS)
    check_adversarial(loaded)  # fresh rows (Lite: in-memory table, Python filter evaluation)
    loaded.flush()
    check_adversarial(loaded)  # flushed rows (Lite: Parquet segments, Arrow filter evaluation)
    loaded.close()
    reopened = MilvusIndex(db_path, "chunks", dim=DIM)
    try:
        check_adversarial(reopened)  # recovered rows (Lite: segment code paths)
    finally:
        reopened.close()


def test_bm25_finds_rare_chinese_and_english_words(loaded: MilvusIndex) -> None:
    for query in ["饕餮", "serendipity", "SERENDIPITY"]:
        hits = loaded.search_bm25(query, filter=None, limit=5)
        assert ids(hits)[:1] == ["rare:0"], query
        assert hits[0].bm25_score == hits[0].score == 1.0
        assert all(h.bm25_score is not None and 0.0 <= h.bm25_score <= 1.0 for h in hits)
        assert all(h.channel == "bm25" for h in hits)
    assert loaded.search_bm25("   ", filter=None, limit=5) == []


@pytest.mark.parametrize("fusion", ["rrf", "weighted"])
def test_hybrid_brings_in_keyword_matches(loaded: MilvusIndex, fusion: Any) -> None:
    # The vector points at beijing:0; only BM25 can find the rare words.
    hits = loaded.search_hybrid(
        vec(0), "饕餮 serendipity", filter=None, limit=3, fusion=fusion, dense_weight=0.5
    )
    assert "rare:0" in ids(hits)[:2]
    assert "beijing:0" in ids(hits)[:2]
    assert all(h.channel == "hybrid" for h in hits)
    assert hits == sorted(hits, key=lambda h: h.score, reverse=True)
    top = next(h for h in hits if h.id == "beijing:0")
    assert top.dense_score == pytest.approx(1.0, abs=1e-3)
    china = build_filter([Constraint(type="LOCATION", value="中国")])
    filtered = loaded.search_hybrid(vec(0), "饕餮 harbour", filter=china, limit=10, fusion=fusion)
    assert set(ids(filtered)) == {"beijing:0", "beijing:1", "shanghai:0"}


def test_dense_hits_carry_metadata(loaded: MilvusIndex) -> None:
    hit = loaded.search_dense(vec(0), filter=None, limit=1)[0]
    assert hit.id == "beijing:0" and hit.doc_id == "beijing" and hit.title == "Beijing"
    assert hit.channel == "semantic"
    assert hit.score == hit.dense_score and -1.0 <= hit.score <= 1.0
    assert hit.date == 20230315
    assert hit.entities == {"LOCATION": ["中国", "北京", "朝阳"], "PERSON": ["张三"]}
    rare = loaded.search_dense(vec(3), filter=doc_filter("rare"), limit=1)[0]
    assert rare.date is None


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (sum(x * x for x in a) ** 0.5 * sum(y * y for y in b) ** 0.5)


def test_dense_scores_are_cosine_whatever_the_vectors_length(index: MilvusIndex) -> None:
    """Stored and searched as unit vectors under inner product: the score is the cosine, not a dot product."""
    long = [3.0 * x for x in vec(1)]
    index.replace_document("long", [chunk("long", 0, "a")], [long])
    index.replace_document("near", [chunk("near", 0, "b")], [vec(0)])
    query = [5.0 * x for x in vec(0)]
    hits = index.search_dense(query, filter=None, limit=2)
    assert [h.doc_id for h in hits] == ["near", "long"]
    for hit, stored in zip(hits, [vec(0), long], strict=True):
        assert hit.dense_score == pytest.approx(cosine(query, stored), abs=1e-5)
    assert index.search_dense([0.0] * DIM, filter=None, limit=1)[0].dense_score == pytest.approx(0.0)


def test_a_collection_made_with_cosine_keeps_searching_with_cosine(
    db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tuple(("dense", "FLAT", "COSINE") if f == "dense" else (f, t, m) for f, t, m in schema_module.INDEXES)
    monkeypatch.setattr(schema_module, "INDEXES", old)
    first = MilvusIndex(db_path, "chunks", dim=DIM)
    first.replace_document("near", [chunk("near", 0, "b")], [[2.0 * x for x in vec(0)]])
    first.close()
    monkeypatch.undo()
    reopened = MilvusIndex(db_path, "chunks", dim=DIM)
    try:
        [hit] = reopened.search_dense(vec(0), filter=None, limit=1)  # the first call opens the collection
        assert hit.doc_id == "near" and hit.dense_score == pytest.approx(1.0, abs=1e-5)
        assert reopened._dense_metric == "COSINE"
    finally:
        reopened.close()


def test_concurrent_calls_are_serialized_safely(loaded: MilvusIndex) -> None:
    def work(i: int) -> tuple[str, str, int]:
        dense = loaded.search_dense(vec(0), filter=None, limit=1)[0].id
        bm25 = loaded.search_bm25("serendipity", filter=None, limit=1)[0].id
        return dense, bm25, loaded.count()

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(32)))
    assert set(results) == {("beijing:0", "rare:0", total())}


def test_long_text_is_truncated_on_a_character_boundary(index: MilvusIndex) -> None:
    text = "汉" * 30000  # 90000 UTF-8 bytes, over the VARCHAR limit
    index.replace_document("long", [chunk("long", 0, text)], [vec(0)])
    stored = index.search_dense(vec(0), filter=None, limit=1)[0].text
    assert 0 < len(stored.encode()) <= schema_module.TEXT_MAX
    assert text.startswith(stored)


@pytest.mark.slow
def test_reopen_in_process_and_in_a_child_process(db_path: str) -> None:
    first = MilvusIndex(db_path, "chunks", dim=DIM)
    load(first)
    first.close()

    second = MilvusIndex(db_path, "chunks", dim=DIM)
    assert second.count() == total()
    assert ids(second.search_dense(vec(0), filter=None, limit=1)) == ["beijing:0"]
    second.close()

    out = run_child(
        db_path,
        "out['count'] = idx.count()\n"
        "out['top'] = idx.search_bm25('serendipity', filter=None, limit=1)[0].id\n"
        "idx.replace_document('rare', [], [])",
    )
    assert out == {"count": total(), "top": "rare:0"}

    third = MilvusIndex(db_path, "chunks", dim=DIM)
    assert third.count() == total() - 1
    third.close()


@pytest.mark.slow
def test_a_locked_file_is_unavailable_to_another_process(loaded: MilvusIndex, db_path: str) -> None:
    out = run_child(
        db_path,
        "try:\n    idx.ping()\n    out['error'] = None\nexcept StoreUnavailable as e:\n    out['error'] = str(e)",
    )
    assert out["error"] and "milvus unavailable" in out["error"]


def test_dimension_mismatch_is_refused_without_touching_data(loaded: MilvusIndex, db_path: str) -> None:
    other = MilvusIndex(db_path, "chunks", dim=DIM * 2)
    try:
        with pytest.raises(SchemaMismatchError, match="dim"):
            other.count()
    finally:
        other.close()
    assert loaded.count() == total()


def test_local_path_must_end_with_db(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        MilvusIndex(str(tmp_path / "index"), "chunks", dim=DIM)


@pytest.mark.timeout(30)
def test_unreachable_server_raises_store_unavailable() -> None:
    index = MilvusIndex("http://127.0.0.1:1", "chunks", dim=DIM, timeout=2)
    started = time.monotonic()
    with pytest.raises(StoreUnavailable):
        index.ping()
    with pytest.raises(StoreUnavailable):
        index.search_dense(vec(0), filter=None, limit=3)
    with pytest.raises(StoreUnavailable):
        index.search_hybrid(vec(0), "x", filter=None, limit=3)
    assert time.monotonic() - started < 20
    index.close()


# -- replace_documents: the batched write path ------------------------------------------------


def batch(corpus: dict[str, list[Chunk]], start: int = 0) -> list[tuple[str, list[Chunk], list[list[float]]]]:
    """``corpus`` as one replace_documents batch, vectors numbered from ``start`` as ``load`` does."""
    out = []
    n = start
    for doc_id, chunks in corpus.items():
        out.append((doc_id, chunks, [vec(n + j) for j in range(len(chunks))]))
        n += len(chunks)
    return out


def stored_ids(index: MilvusIndex) -> list[str]:
    """Chunk ids of every stored row (repeated if a chunk is stored twice)."""
    return ids(index.search_dense(vec(0), filter=None, limit=1000))


class CallCounter:
    """Count (and optionally fail) calls of one client method."""

    def __init__(self, real: Any, fail_on: int | None = None) -> None:
        self.real = real
        self.fail_on = fail_on
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.fail_on is not None and self.calls >= self.fail_on:
            raise MilvusException(message="injected failure")
        return self.real(*args, **kwargs)


def counted(monkeypatch: pytest.MonkeyPatch, index: MilvusIndex, **fail_on: int) -> dict[str, CallCounter]:
    client = index._client
    assert client is not None
    counters = {}
    for name in ("query", "upsert", "delete"):
        counters[name] = CallCounter(getattr(client, name), fail_on.get(name))
        monkeypatch.setattr(client, name, counters[name])
    return counters


def test_batch_reingest_leaves_no_duplicates(index: MilvusIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    assert index.replace_documents(batch(CORPUS)) == total()
    assert index.replace_documents(batch(CORPUS)) == total()
    assert index.count() == total()
    assert index.document_ids() == set(CORPUS)
    assert sorted(stored_ids(index)) == sorted(c.id for cs in CORPUS.values() for c in cs)
    index.flush()
    counters = counted(monkeypatch, index)
    assert index.replace_documents(batch(CORPUS)) == total()
    # At most one query for the whole batch; unchanged chunks are neither rewritten nor deleted.
    assert (counters["query"].calls, counters["upsert"].calls, counters["delete"].calls) == (lookups(index), 0, 0)
    monkeypatch.undo()
    assert index.count() == total()
    check_adversarial(index)


def test_batch_mixing_new_changed_unchanged_and_emptied_docs(
    loaded: MilvusIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    edited = [c.model_copy(update={"text": c.text + " edited"}) for c in CORPUS["beijing"][:1]]
    tianjin = [
        chunk("tianjin", i, f"天津新闻 {i}", entities={"LOCATION": ["中国", "天津"]}) for i in range(3)
    ]
    docs = [
        ("beijing", edited, [vec(0)]),  # changed: one chunk edited, one dropped
        ("shanghai", CORPUS["shanghai"], [vec(2)]),  # unchanged (same vector as ``load``)
        ("tianjin", tianjin, [vec(40 + i) for i in range(3)]),  # new
        ("rare", [], []),  # emptied: removed
    ]
    counters = counted(monkeypatch, loaded)
    assert loaded.replace_documents(docs) == 5
    assert (counters["query"].calls, counters["upsert"].calls, counters["delete"].calls) == (lookups(loaded), 1, 1)
    monkeypatch.undo()

    assert loaded.document_ids() == set(CORPUS) - {"rare"} | {"tianjin"}
    assert loaded.count() == total() - 2 - 1 + 1 + 3
    beijing = loaded.search_dense(vec(0), filter=doc_filter("beijing"), limit=10)
    assert [(h.id, h.text) for h in beijing] == [("beijing:0", edited[0].text)]
    assert ids(loaded.search_dense(vec(2), filter=doc_filter("shanghai"), limit=10)) == ["shanghai:0"]
    china = build_filter([Constraint(type="LOCATION", value="天津")])
    assert sorted(ids(loaded.search_dense(vec(0), filter=china, limit=10))) == [c.id for c in tianjin]
    assert len(stored_ids(loaded)) == len(set(stored_ids(loaded)))


def test_batch_doc_ids_are_escaped(index: MilvusIndex) -> None:
    names = ['a"b', "back\\slash", 'x"] or doc_id != "', "北京|朝阳", "line\nbreak"]
    docs = [(name, [chunk(name, 0, f"row {i}")], [vec(i)]) for i, name in enumerate(names)]
    assert index.replace_documents(docs) == len(names)
    assert index.replace_documents(docs[:2]) == 2
    assert index.replace_documents([(names[2], [], [])]) == 0
    assert index.document_ids() == set(names) - {names[2]}
    assert index.count() == len(names) - 1


def test_failed_batch_upsert_keeps_every_old_version(
    loaded: MilvusIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = {
        "beijing": [c.model_copy(update={"text": "new version"}) for c in CORPUS["beijing"]],
        "shanghai": [c.model_copy(update={"text": "new version"}) for c in CORPUS["shanghai"]],
        "fresh": [chunk("fresh", i, "new version") for i in range(2)],
    }
    monkeypatch.setattr(staging_module, "UPSERT_BATCH", 2)
    counted(monkeypatch, loaded, upsert=3)  # the first two slices land, the third fails
    with pytest.raises(StoreUnavailable):
        loaded.replace_documents(batch(new, start=50))
    monkeypatch.undo()

    assert loaded.count() == total()
    assert loaded.document_ids() == set(CORPUS)
    hits = loaded.search_dense(vec(0), filter=None, limit=1000)
    assert all(h.text != "new version" for h in hits)
    assert sorted(ids(hits)) == sorted(c.id for cs in CORPUS.values() for c in cs)


def test_failed_batch_delete_keeps_every_old_version(
    loaded: MilvusIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = {
        "beijing": [CORPUS["beijing"][0].model_copy(update={"text": "new version"})],
        "rare": [],
    }
    client = loaded._client
    assert client is not None
    real_delete = client.delete
    deletes: list[str] = []

    def flaky_delete(*args: Any, **kwargs: Any) -> Any:
        deletes.append(kwargs["filter"])
        if len(deletes) == 1:
            raise MilvusException(message="injected failure")
        return real_delete(*args, **kwargs)  # the rollback of the rows just written

    monkeypatch.setattr(client, "delete", flaky_delete)
    with pytest.raises(StoreUnavailable):
        loaded.replace_documents(batch(new, start=60))
    monkeypatch.undo()

    assert len(deletes) == 2
    assert loaded.count() == total()
    assert loaded.document_ids() == set(CORPUS)
    assert all(h.text != "new version" for h in loaded.search_dense(vec(0), filter=None, limit=1000))


def test_batch_rejects_contract_violations(index: MilvusIndex) -> None:
    c = CORPUS["rare"][0]
    assert index.replace_documents([]) == 0
    with pytest.raises(ValueError, match="twice"):
        index.replace_documents([("rare", [c], [vec(0)]), ("rare", [c], [vec(0)])])
    clash = c.model_copy(update={"doc_id": "other"})
    with pytest.raises(ValueError, match="duplicate chunk ids"):
        index.replace_documents([("rare", [c], [vec(0)]), ("other", [clash], [vec(1)])])
    with pytest.raises(ValueError):
        index.replace_documents([("rare", [c], [vec(0)]), ("x", [c], [vec(0)])])
    assert index.count() == 0


def test_ingestor_writes_each_batch_with_one_call(index: MilvusIndex, tmp_path: Path) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    from graphs.domain import Document
    from graphs.ingest.pipeline import Ingestor
    from graphs.rag.context import GazetteerCache
    from tests.support.fakes import entity_store

    calls: list[int] = []
    real = index.stage_documents

    def recording(docs: Any) -> Any:
        calls.append(len(docs))
        return real(docs)

    index.stage_documents = recording  # type: ignore[method-assign]
    store = entity_store(tmp_path)
    ingestor = Ingestor(DeterministicFakeEmbedding(size=DIM), index, store, GazetteerCache(store))
    docs = [
        Document(id=f"d{i}", title=f"Doc {i}", text=f"北京的新闻 {i}。", metadata={"location": "北京"})
        for i in range(7)
    ]
    # The same id twice in one batch: the last version wins.
    docs.append(docs[6].model_copy(update={"text": "北京的新闻 6 edited。"}))
    report = ingestor.ingest(docs, batch_size=3)
    assert calls == [3, 3, 1]
    assert (report.documents, report.chunks) == (7, 7)
    [d6] = index.search_dense(vec(0), filter=doc_filter("d6"), limit=10)
    assert d6.text == "北京的新闻 6 edited。"
    ingestor.ingest(docs[:7], batch_size=10)
    assert calls[-1] == 7
    assert index.count() == 7
    assert index.count(build_filter([Constraint(type="LOCATION", value="中国")])) == 7
