"""search_semantic: a dense search with no filter, recorded; an outage raises (it is never zero hits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import SearchRecord
from graphs.rag.nodes.search_semantic import search_semantic, summarize
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime


async def test_search_semantic_returns_its_hits_record_and_the_question_vector(tmp_path: Path) -> None:
    index = ScriptedIndex(respond=lambda channel, expr: [hit("ml#0", "机器学习是……", 0.8, channel)])
    ctx = make_context(tmp_path, index, candidate_k=7)
    out = await search_semantic({"question": "什么是机器学习？", "top_k": 3}, runtime(ctx))
    took = out["searches"][0].duration_ms
    assert out == {"hits": [hit("ml#0", "机器学习是……", 0.8, "semantic")],
                   "searches": [SearchRecord(channel="semantic", filter=None, count=1, duration_ms=took)],
                   "query_vector": ctx.embedder.embed_query("什么是机器学习？")}
    assert index.calls == [("semantic", None)]
    assert summarize(out).startswith("1 hit(s) from semantic search in ")


async def test_search_semantic_reuses_the_vector_of_an_earlier_search(tmp_path: Path) -> None:
    ctx = make_context(tmp_path)
    out = await search_semantic({"question": "q", "query_vector": [0.25] * 16}, runtime(ctx))
    assert out["query_vector"] == [0.25] * 16 and out["hits"] == []


async def test_search_semantic_raises_an_outage_instead_of_finding_nothing(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable):
        await search_semantic({"question": "q"}, runtime(make_context(tmp_path, ScriptedIndex(fail=True))))
