"""Fakes for node and graph tests: a scripted vector index, a fake LLM with tool calls."""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from langchain_core.embeddings import DeterministicFakeEmbedding
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk
from langgraph.runtime import Runtime

from graphs.domain import Chunk, EntityMetadata, Hit
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.prompts import PromptLibrary
from graphs.rag.context import GazetteerCache, RagContext, RagLimits
from graphs.rerankers.fusion import FusionReranker
from graphs.stores.base import DocumentChunks, StagedWrite, StoreUnavailable
from graphs.stores.entities.sqlite_store import SQLiteEntityStore
from graphs.stores.filters import Filter
from graphs.text.gazetteer import Gazetteer

DEMO_ENTITIES = [
    EntityMetadata(standard_name="Elon Musk", type="PERSON", aliases=["马斯克", "老马", "Musk"],
                   related_entities=["Tesla", "SpaceX"]),
    EntityMetadata(standard_name="Apple", type="ORGANIZATION", aliases=["苹果", "苹果公司", "Apple Inc."]),
    EntityMetadata(standard_name="Tesla", type="ORGANIZATION", aliases=["特斯拉"]),
    EntityMetadata(standard_name="iPhone", type="PRODUCT", aliases=[]),
    EntityMetadata(standard_name="中国", type="LOCATION", aliases=["China"], hierarchy=["中国"]),
    EntityMetadata(standard_name="北京", type="LOCATION", aliases=["Beijing", "京城"], hierarchy=["中国", "北京"]),
    EntityMetadata(standard_name="朝阳", type="LOCATION", aliases=["朝阳区"], hierarchy=["中国", "北京", "朝阳"]),
    EntityMetadata(standard_name="上海", type="LOCATION", aliases=["魔都", "Shanghai"], hierarchy=["中国", "上海"]),
    EntityMetadata(standard_name="机器学习", type="CONCEPT", aliases=["Machine Learning", "ML"]),
]

TODAY = date(2025, 6, 1)


def hit(chunk_id: str, text: str = "text", score: float = 0.5, channel: str = "structured", **kw: Any) -> Hit:
    """A hit with defaults."""
    return Hit(id=chunk_id, doc_id=chunk_id.split("#")[0], title=kw.pop("title", chunk_id), text=text, score=score,
               channel=channel, dense_score=kw.pop("dense_score", score), **kw)  # type: ignore[arg-type]


@dataclass
class ScriptedIndex:
    """A VectorIndex whose answers are scripted per channel and filter (``respond`` and ``calls`` see the filter as
    Milvus would run it: the index it stands in for)."""

    respond: Callable[[str, str | None], list[Hit]] = lambda channel, expr: []
    calls: list[tuple[str, str | None]] = field(default_factory=list)
    fail: bool = False

    def _answer(self, channel: str, where: Filter | None) -> list[Hit]:
        expr = None if where is None else self.describe_filter(where)
        self.calls.append((channel, expr))
        if self.fail:
            raise StoreUnavailable("milvus", "connection refused")
        return self.respond(channel, expr)

    def search_dense(self, vector: Sequence[float], *, filter: Filter | None, limit: int) -> list[Hit]:
        return self._answer("structured" if filter is not None else "semantic", filter)[:limit]

    def search_bm25(self, text: str, *, filter: Filter | None, limit: int, raw: bool = False) -> list[Hit]:
        return self._answer("bm25", filter)[:limit]

    def search_hybrid(self, vector: Sequence[float], text: str, *, filter: Filter | None, limit: int,
                      fusion: str = "rrf", dense_weight: float | None = None,
                      question: str | None = None) -> list[Hit]:
        return self._answer("hybrid", filter)[:limit]

    def count(self, filter: Filter | None = None) -> int:
        return len(self._answer("count", filter))

    def describe_filter(self, filter: Filter) -> str:
        from graphs.stores.milvus.expressions import render

        return render(filter)

    def replace_document(self, doc_id: str, chunks: Sequence[Chunk], vectors: Sequence[Sequence[float]]) -> int:
        return len(chunks)

    def replace_documents(self, docs: Sequence[DocumentChunks]) -> int:
        # Per document, so subclasses that record replace_document see batched ingests too.
        return sum(self.replace_document(doc_id, chunks, vectors) for doc_id, chunks, vectors in docs)

    def stage_documents(self, docs: Sequence[DocumentChunks]) -> StagedWrite:
        return _ReplaceOnWrite(self, list(docs))

    def delete_document(self, doc_id: str) -> int:
        return 0

    def document_ids(self) -> set[str]:
        return set()

    def document_chunks(self, doc_id: str) -> list[Chunk]:
        return []

    def document_summaries(self) -> dict[str, tuple[str, int, int]]:
        return {}

    def chunks_where(self, filter: Filter) -> list[Chunk]:
        return []

    def chunk_vectors(self, doc_id: str) -> dict[str, list[float]]:
        return {}

    def flush(self) -> None:
        pass

    def ping(self) -> None:
        if self.fail:
            raise StoreUnavailable("milvus", "connection refused")

    def close(self) -> None:
        pass


@dataclass
class _ReplaceOnWrite:
    """A staged write of a scripted index: ``write`` replaces the documents (through ``replace_document``)."""

    index: ScriptedIndex
    docs: list[DocumentChunks]

    @property
    def chunks(self) -> int:
        return sum(len(chunks) for _, chunks, _ in self.docs)

    def write(self) -> None:
        self.index.replace_documents(self.docs)

    def commit(self) -> None:
        pass

    def abort(self) -> None:
        pass


class ToolCallingFakeChatModel(GenericFakeChatModel):
    """GenericFakeChatModel that accepts ``bind_tools`` and streams tool-call messages too."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolCallingFakeChatModel:
        return self

    def _stream(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Iterator[Any]:
        message = next(self.messages)
        if isinstance(message, AIMessage) and message.tool_calls:
            chunks = [{"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                      for i, c in enumerate(message.tool_calls)]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=chunks))  # type: ignore[arg-type]
            return
        self.messages = itertools.chain([message], self.messages)
        yield from super()._stream(messages, stop=stop, run_manager=run_manager, **kwargs)


def entity_store(tmp_path: Any, entities: Sequence[EntityMetadata] = DEMO_ENTITIES) -> SQLiteEntityStore:
    """A real SQLite entity store in a temp dir with the demo entities."""
    store = SQLiteEntityStore(tmp_path / "entities.sqlite3")
    for e in entities:
        store.upsert(e)
    return store


def make_context(tmp_path: Any, index: Any = None, llm: Any = None, kg: Any = None, **limits: Any) -> RagContext:
    """A RagContext of fakes (and a real SQLite entity store; ``kg``: a knowledge graph, else none)."""
    store = entity_store(tmp_path)
    return RagContext(
        embedder=DeterministicFakeEmbedding(size=16),
        index=index or ScriptedIndex(),
        entities=store,
        reranker=FusionReranker(),
        gazetteer=GazetteerCache(store),
        prompts=PromptLibrary(),
        llm=llm,
        llm_name="fake-llm" if llm else None,
        limits=RagLimits(**limits),
        today=lambda: TODAY,
        kg=kg,
    )


def runtime(ctx: RagContext) -> Runtime[RagContext]:
    """A Runtime carrying the context, for calling nodes directly."""
    return Runtime(context=ctx)


def gazetteer_of(entities: Iterable[EntityMetadata]) -> Gazetteer:
    """A gazetteer of each entity's standard name and aliases (the service builds it from the entity store)."""
    return Gazetteer((name, e) for e in entities for name in [e.standard_name, *e.aliases])


@dataclass(frozen=True)
class GraphCounts:
    """How many nodes and edges of each kind a knowledge graph holds."""

    nodes: dict[str, int]
    edges: dict[str, int]


def graph_counts(kg: SQLiteKnowledgeGraph) -> GraphCounts:
    """Count the knowledge graph's nodes and edges by kind, on a connection of this test's own."""
    with contextlib.closing(sqlite3.connect(kg.path)) as conn:
        nodes = dict(conn.execute("SELECT kind, COUNT(*) FROM nodes GROUP BY kind").fetchall())
        edges = dict(conn.execute("SELECT kind, COUNT(*) FROM edges GROUP BY kind").fetchall())
    return GraphCounts(nodes=nodes, edges=edges)


class DownEmbedder:
    """An embedder whose every call fails (an outage of the embedding service)."""

    def embed_query(self, text: str) -> list[float]:
        raise RuntimeError("embedder down")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("embedder down")


class EmbedderContext:
    """The part of a run's context the answer node's column reading uses: an embedder, no sentence-vector store."""

    def __init__(self, embedder: Any) -> None:
        self.embedder, self.sentences = embedder, None
