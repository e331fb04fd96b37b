"""rerank_hits: explained scores, one chunk per document, reranking off, a visible fallback."""

from __future__ import annotations

from typing import Any

from graphs.domain import (
    ParsedQuery,
)
from graphs.rag.nodes.rerank_hits import rerank_hits
from tests.support.fakes import hit, make_context, runtime


async def test_rerank_hits_explains_and_names_the_reranker(tmp_path: Any) -> None:
    parsed = ParsedQuery(original_query="特斯拉 上海", keywords=["特斯拉", "上海"])
    hits = [hit("a#0", "无关内容", 0.6), hit("b#0", "特斯拉上海超级工厂", 0.5)]
    out = await rerank_hits({"question": "q", "parsed": parsed, "hits": hits, "top_k": 1}, runtime(make_context(tmp_path)))
    assert out["reranker"] == "fusion"
    [best] = out["ranked"]
    assert best.id == "b#0" and best.reranked_score is not None
    assert "lexical" in (best.relevance_explanation or "")


async def test_rerank_keeps_one_chunk_per_document(tmp_path: Any) -> None:
    hits = [hit("a#0", "x"), hit("a#1", "y"), hit("b#0", "z")]
    state = {"question": "q", "parsed": ParsedQuery(original_query="q"), "hits": hits, "enable_reranking": False}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))
    assert [h.id for h in out["ranked"]] == ["a#0", "b#0"]


async def test_rerank_disabled_keeps_search_order(tmp_path: Any) -> None:
    hits = [hit("a#0"), hit("b#0")]
    state = {"question": "q", "parsed": ParsedQuery(original_query="q"), "hits": hits, "enable_reranking": False}
    out = await rerank_hits(state, runtime(make_context(tmp_path)))
    assert out["reranker"] == "none" and [h.id for h in out["ranked"]] == ["a#0", "b#0"]
    assert all(h.reranked_score is None for h in out["ranked"])


async def test_rerank_falls_back_to_fusion_visibly_when_the_reranker_is_down(tmp_path: Any) -> None:
    from dataclasses import replace

    from graphs.rerankers import RerankerUnavailable

    class Down:
        name = "http-rerank:bge"

        async def rerank(self, *args: Any) -> Any:
            raise RerankerUnavailable("http-rerank:bge", "503 from the rerank service")

    ctx = replace(make_context(tmp_path), reranker=Down())
    state = {"question": "q", "parsed": ParsedQuery(original_query="q", keywords=["x"]), "hits": [hit("a#0", "x")]}
    out = await rerank_hits(state, runtime(ctx))
    assert out["degraded"] == ["rerank_hits"] and "fallback" in out["reranker"] and "llm_calls" not in out
    assert out["ranked"][0].reranked_score is not None
