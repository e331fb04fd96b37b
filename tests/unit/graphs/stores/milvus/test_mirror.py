"""The search mirror alone: exact dense search, BM25 under masks, replacement and kills, compaction and the
files it saves (the Milvus side is tested in tests/integration/test_search_mirror.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from graphs.stores.bm25 import Analyzer
from graphs.stores.filters import Compare, Filter, encode_entity_field, entity_filter
from graphs.stores.milvus import DEFAULT_ANALYZER
from graphs.stores.milvus import mirror as mirror_module
from graphs.stores.milvus.mirror import SearchMirror

DIM = 8
ANALYZER = Analyzer.from_params(DEFAULT_ANALYZER)
TEXTS = ["北京人工智能发布会", "上海芯片投资", "Apple iPhone launch", "人工智能 投资 投资", "深圳 新能源汽车"]


def row(i: int, doc: str | None = None, text: str | None = None, vector: list[float] | None = None) -> dict[str, Any]:
    rng = np.random.default_rng(i)
    return {
        "id": f"{doc or f'd{i}'}#0@{i:04d}",
        "doc_id": doc or f"d{i}",
        "chunk_index": 0,
        "date": 20240000 + i,
        "person": encode_entity_field([f"p{i % 3}"]),
        "location": encode_entity_field(["中国", "北京"] if i % 2 else ["中国"]),
        "search_text": text if text is not None else TEXTS[i % len(TEXTS)],
        "dense": vector if vector is not None else rng.standard_normal(DIM).tolist(),
    }


def filled(n: int = 40) -> SearchMirror:
    m = SearchMirror(DIM, ANALYZER)
    m.add([row(i) for i in range(n)])
    return m


def brute(m: SearchMirror, q: np.ndarray, allowed: list[int], k: int) -> list[tuple[str, float]]:
    vectors = m.dense.view / np.linalg.norm(m.dense.view, axis=1, keepdims=True)
    qn = q / np.linalg.norm(q)
    scored = sorted((-float(vectors[r] @ qn), r) for r in allowed)[:k]
    return [(m.pks[r], -s) for s, r in scored]


def no_fallback(node: Filter) -> list[str]:
    raise AssertionError(f"unexpected fallback for {node}")


def test_dense_search_is_exact_with_and_without_a_filter() -> None:
    m = filled()
    q = np.random.default_rng(99).standard_normal(DIM)
    got = m.dense_search(q.tolist(), None, 7)
    assert [pk for pk, _ in got] == [pk for pk, _ in brute(m, q, list(range(40)), 7)]
    assert [s for _, s in got] == pytest.approx([s for _, s in brute(m, q, list(range(40)), 7)], abs=1e-6)
    for expr in [entity_filter("PERSON", "p1"), entity_filter("LOCATION", "北京"), Compare("date", ">=", 20240030)]:
        mask = m.filter_mask(expr, no_fallback)
        assert mask is not None
        allowed = np.flatnonzero(mask).tolist()
        assert [pk for pk, _ in m.dense_search(q.tolist(), mask, 5)] == [pk for pk, _ in brute(m, q, allowed, 5)]
        assert m.count(mask) == len(allowed)


def test_both_ways_of_scoring_under_a_mask_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    m = filled()
    q = np.random.default_rng(5).standard_normal(DIM).tolist()
    mask = m.filter_mask(entity_filter("LOCATION", "北京"), no_fallback)
    gathered = m.dense_search(q, mask, 6)
    monkeypatch.setattr(mirror_module, "GATHER_SHARE", 0.0)  # score every row, then keep the allowed ones
    assert m.dense_search(q, mask, 6) == gathered


def test_ties_keep_insertion_order_even_at_the_cut() -> None:
    m = SearchMirror(DIM, ANALYZER)
    same = [1.0] + [0.0] * (DIM - 1)
    m.add([row(i, vector=same) for i in range(6)])
    assert [pk for pk, _ in m.dense_search(same, None, 3)] == m.pks[:3]
    assert [pk for pk, _ in m.dense_search(same, None, 10)] == m.pks


def test_zero_vectors_score_zero() -> None:
    m = SearchMirror(DIM, ANALYZER)
    m.add([row(0, vector=[0.0] * DIM), row(1)])
    got = dict(m.dense_search([0.0] * DIM, None, 2))
    assert got == {m.pks[0]: 0.0, m.pks[1]: 0.0}


def test_replacing_and_killing_rows() -> None:
    m = filled(10)
    assert m.live == 10 and m.document_ids() == {f"d{i}" for i in range(10)}
    assert m.kill([m.pks[3], "absent"]) == 1
    assert m.live == 9 and "d3" not in m.document_ids()
    q = m.dense.view[3].tolist()
    assert all(pk != m.pks[3] for pk, _ in m.dense_search(q, None, 10))
    assert len(m.dense_search(q, None, 100)) == 9
    again = row(5)  # the same primary key written again: one live row, the new one
    m.add([again])
    assert m.live == 9 and m.pk_row[again["id"]] == m.rows - 1
    assert m.document_pks(["d5", "d1", "none"]) == {again["id"], m.pks[1]}
    bm25 = m.bm25_search("北京 人工智能", None, 100)
    assert all(pk != m.pks[3] for pk, _ in bm25) and len({pk for pk, _ in bm25}) == len(bm25)


def test_compaction_keeps_every_answer() -> None:
    m = filled(3000)
    m.kill([m.pks[i] for i in range(0, 3000, 2)])
    q = np.random.default_rng(1).standard_normal(DIM).tolist()
    mask = m.filter_mask(entity_filter("PERSON", "p2"), no_fallback)
    before = (m.dense_search(q, mask, 10), m.bm25_search("投资 北京", None, 20), m.count(mask))
    assert m.compact_if_needed()
    assert m.rows == m.live == 1500
    mask = m.filter_mask(entity_filter("PERSON", "p2"), no_fallback)
    after = (m.dense_search(q, mask, 10), m.bm25_search("投资 北京", None, 20), m.count(mask))
    assert after[0] == before[0] and after[2] == before[2]
    assert [pk for pk, _ in after[1]] == [pk for pk, _ in before[1]]
    assert [s for _, s in after[1]] == pytest.approx([s for _, s in before[1]])
    assert not m.compact_if_needed()


def test_saved_files_load_back_to_the_same_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mirror_module, "MAX_FILES", 3)
    m = filled(20)
    assert m.save(tmp_path) == 20
    assert m.save(tmp_path) == 0  # nothing new
    m.add([row(i) for i in range(20, 25)])
    m.kill([m.pks[0]])
    m.add([row(7, text="换了内容")])  # a key written again after the save
    assert m.save(tmp_path) == 6
    q = np.random.default_rng(3).standard_normal(DIM).tolist()

    def answers(x: SearchMirror) -> tuple[Any, ...]:
        mask = x.filter_mask(entity_filter("LOCATION", "北京"), no_fallback)
        return (
            x.dense_search(q, mask, 8),
            [pk for pk, _ in x.bm25_search("换了内容 北京", None, 30)],
            x.count(None),
        )

    loaded = SearchMirror.load(tmp_path, DIM, ANALYZER, m.bm25.k1, m.bm25.b, True)
    # The saved files still hold the killed row (Milvus decides which keys live: the index drops it on open).
    assert loaded.live == m.live + 1 and m.pks[0] in loaded.pk_row
    loaded.kill([m.pks[0]])
    got, expected = answers(loaded), answers(m)
    assert [pk for pk, _ in got[0]] == [pk for pk, _ in expected[0]]
    assert [s for _, s in got[0]] == pytest.approx([s for _, s in expected[0]], abs=1e-6)
    assert got[1:] == expected[1:]
    # More files than MAX_FILES: the next save merges them into one.
    for i in range(3):
        m.add([row(100 + i)])
        m.save(tmp_path)
    assert len(list(tmp_path.glob("rows-*.arrow"))) <= 3
    merged = SearchMirror.load(tmp_path, DIM, ANALYZER, m.bm25.k1, m.bm25.b, True)
    assert set(merged.pk_row) == set(m.pk_row)


def test_files_of_another_configuration_or_damaged_ones_are_ignored(tmp_path: Path) -> None:
    m = filled(5)
    m.save(tmp_path)
    assert SearchMirror.load(tmp_path, DIM + 1, ANALYZER, m.bm25.k1, m.bm25.b, True).rows == 0
    assert SearchMirror.load(tmp_path, DIM, Analyzer(frozenset({"x"})), m.bm25.k1, m.bm25.b, True).rows == 0
    assert SearchMirror.load(tmp_path, DIM, ANALYZER, 1.2, m.bm25.b, True).rows == 0
    for f in tmp_path.glob("rows-*.arrow"):
        f.write_bytes(b"not arrow")
    assert SearchMirror.load(tmp_path, DIM, ANALYZER, m.bm25.k1, m.bm25.b, True).rows == 0
    (tmp_path / "manifest.json").write_text("{")
    assert SearchMirror.load(tmp_path, DIM, ANALYZER, m.bm25.k1, m.bm25.b, True).rows == 0
    assert SearchMirror.load(tmp_path / "absent", DIM, ANALYZER, m.bm25.k1, m.bm25.b, True).rows == 0


def test_dense_search_never_returns_a_placeholder_but_does_return_an_orthogonal_chunk(tmp_path: Path) -> None:
    """A placeholder (all zeros: its vector is being filled) is marked by its stored vector, not by its score: a real
    vector orthogonal to the question scores exactly 0 too and stays a hit; saved and loaded, the mark stays."""
    e = np.eye(DIM)
    m = SearchMirror(DIM, ANALYZER)
    m.add([row(0, vector=e[0].tolist()), row(1, vector=e[1].tolist()), row(2, vector=[0.0] * DIM),
           row(3, vector=(-e[0]).tolist())])
    found = m.dense_search(e[0].tolist(), None, 10)
    assert [pk for pk, _ in found] == [m.pks[0], m.pks[1], m.pks[3]]  # the orthogonal one (score 0) included
    assert found[1][1] == 0.0
    assert m.pks[2] not in {pk for pk, _ in m.dense_search(e[5].tolist(), None, 10)}  # orthogonal to every row
    assert m.pks[2] not in {pk for pk, _ in m.dense_search(e[0].tolist(), np.ones(4, dtype=bool), 10)}
    m.save(tmp_path)
    loaded = SearchMirror.load(tmp_path, DIM, ANALYZER, m.bm25.k1, m.bm25.b, True)
    assert [pk for pk, _ in loaded.dense_search(e[0].tolist(), None, 10)] == [pk for pk, _ in found]
