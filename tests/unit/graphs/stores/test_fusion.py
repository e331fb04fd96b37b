"""Client-side fusion of dense and BM25 lists: the arithmetic and the merged component scores."""

from __future__ import annotations

import pytest

from graphs.stores import fusion
from tests.support.fakes import hit


def dense(*ids: str) -> list:
    return [hit(i, score=0.9 - n * 0.1, channel="semantic") for n, i in enumerate(ids)]


def bm25(*ids: str) -> list:
    return [hit(i, score=1.0 - n * 0.2, channel="bm25", dense_score=None, bm25_score=1.0 - n * 0.2)
            for n, i in enumerate(ids)]


def test_rrf_arithmetic_and_component_scores() -> None:
    out = fusion.rrf(dense("a#0", "b#0"), bm25("b#0", "c#0"), limit=3, k=5, dense_weight=0.3)
    assert [h.id for h in out] == ["b#0", "c#0", "a#0"]
    assert out[0].score == pytest.approx(0.3 / 7 + 0.7 / 6, abs=1e-6)
    assert out[1].score == pytest.approx(0.7 / 7, abs=1e-6) and out[2].score == pytest.approx(0.3 / 6, abs=1e-6)
    assert (out[0].dense_score, out[0].bm25_score) == (pytest.approx(0.8), 1.0)
    assert all(h.channel == "hybrid" for h in out)


def test_weighted_sums_clamped_cosine_and_bm25() -> None:
    out = fusion.weighted(dense("a#0", "b#0"), bm25("b#0", "c#0"), limit=2, dense_weight=0.6)
    assert [h.id for h in out] == ["b#0", "a#0"]
    assert out[0].score == pytest.approx(0.6 * 0.8 + 0.4 * 1.0)


def test_limit_and_empty_lists() -> None:
    assert fusion.rrf([], [], limit=5) == []
    assert len(fusion.rrf(dense("a#0", "b#0", "c#0"), [], limit=2)) == 2
