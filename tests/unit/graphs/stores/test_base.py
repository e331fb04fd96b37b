"""The narrow store protocols: the workflow's nodes need only ``ChunkSearch`` of the chunk index."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from graphs.domain import Hit
from graphs.kg.base import KgDocument
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.graph import workflow
from graphs.stores.base import (
    ChunkInspection,
    ChunkSearch,
    ChunkWriter,
    IndexedChunks,
    StoreHandle,
    VectorIndex,
)
from graphs.stores.filters import Filter
from tests.support.fakes import ScriptedIndex, hit, make_context

DOCS = {
    "tesla": ("Tesla", "马斯克 founded Tesla in 2003; Tesla builds electric cars."),
    "spacex": ("SpaceX", "马斯克 founded SpaceX, a rocket company, in 2002."),
    "apple": ("Apple", "Apple makes phones; 苹果 is its Chinese name."),
}


def _respond(channel: str, expr: str | None) -> list[Hit]:
    if channel == "count":
        return []
    return [hit(f"{d}#0", text, 0.8 - 0.1 * i, "semantic" if channel == "structured" and not expr else channel,
                title=title, bm25_score=5.0 - i)
            for i, (d, (title, text)) in enumerate(DOCS.items())]


class SearchOnly:
    """A chunk index that can only search: the ``ChunkSearch`` methods (three searches and how a filter reads in
    the backend's language) and nothing else."""

    def __init__(self, inner: ScriptedIndex) -> None:
        self._inner = inner

    def search_dense(self, vector: Sequence[float], *, filter: Filter | None, limit: int) -> list[Hit]:
        return self._inner.search_dense(vector, filter=filter, limit=limit)

    def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]:
        return self._inner.search_bm25(text, filter=filter, limit=limit, raw=raw)

    def search_hybrid(self, vector: Sequence[float], text: str, *, filter: Filter | None, limit: int,
                      fusion: Any = "rrf", dense_weight: float | None = None,
                      question: str | None = None) -> list[Hit]:
        return self._inner.search_hybrid(vector, text, filter=filter, limit=limit, fusion=fusion,
                                         dense_weight=dense_weight, question=question)

    def describe_filter(self, filter: Filter) -> str:
        return self._inner.describe_filter(filter)


def test_the_protocols_split_the_index_and_the_whole_is_their_union() -> None:
    search_only = SearchOnly(ScriptedIndex())
    assert isinstance(search_only, ChunkSearch)
    assert not isinstance(search_only, ChunkWriter | ChunkInspection | StoreHandle | VectorIndex)
    full = ScriptedIndex()
    for protocol in (ChunkSearch, ChunkWriter, ChunkInspection, StoreHandle, IndexedChunks, VectorIndex):
        assert isinstance(full, protocol), protocol.__name__
    own = {name for p in (ChunkSearch, ChunkWriter, ChunkInspection, StoreHandle) for name in vars(p)
           if not name.startswith("_")}
    fields = {f.name for f in dataclasses.fields(ScriptedIndex)}
    assert own == {name for name in vars(ScriptedIndex) if not name.startswith("_") and name not in fields}


@pytest.mark.parametrize(("question", "inputs"), [
    ("马斯克创办的公司有哪些？", {}),  # entity constraints: structured search
    ("什么是电动汽车？", {"search_mode": "semantic"}),
    ("electric cars and rockets", {"search_mode": "hybrid"}),
    ("Which company did 马斯克 found first, Tesla or SpaceX?", {"search_mode": "graph"}),  # kg expansion
    ("Compare Tesla and SpaceX: which was founded first?", {"team": "planner_enhanced"}),  # plan steps
])
async def test_every_route_answers_through_search_alone(tmp_path: Path, question: str, inputs: dict[str, Any]) -> None:
    def context(index: Any) -> Any:
        kg = SQLiteKnowledgeGraph(tmp_path / f"kg-{type(index).__name__}.db")
        kg.add_documents([KgDocument(doc_id=d, title=t, text=x) for d, (t, x) in DOCS.items()])
        return make_context(tmp_path, index, kg=kg)

    full = await workflow.ainvoke({"question": question, **inputs}, context=context(ScriptedIndex(respond=_respond)))
    narrow = await workflow.ainvoke({"question": question, **inputs},
                                    context=context(SearchOnly(ScriptedIndex(respond=_respond))))
    assert [h.id for h in narrow["ranked"]] == [h.id for h in full["ranked"]]
    assert narrow["ranked"], "the run found nothing: the test would not notice a missing call"
    assert narrow["answer"] == full["answer"]
