"""Builders shared by the graph route's tests (tests/unit/graphs/rag/test_graph_route.py) and its nodes' tests
(tests/unit/graphs/rag/nodes/): graph nodes with their fused scores, parsed questions, a knowledge graph of
documents, a fake LLM answering one structured call."""

from __future__ import annotations

import json
from pathlib import Path

from langchain_core.messages import AIMessage

from graphs.domain import FusionWeights, KgNode, ParsedQuery
from graphs.kg.base import KgDocument, doc_node
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from tests.support.fakes import ToolCallingFakeChatModel

W = FusionWeights()


def node(doc: str, *, hop: int = 0, seed: bool | None = None, vector: float = 0.5, fts: float = 0.5,
         edge: str | None = "search", via: str | None = None, text: str = "") -> KgNode:
    g = W.graph_score(hop)
    return KgNode(node=doc_node(doc), name=doc.title(), doc_id=doc, chunk_id=f"{doc}#0", text=text, hop=hop,
                     seed=hop == 0 if seed is None else seed, via=via, edge=edge, path=[doc_node(doc)],
                     vector=vector, fts=fts, graph=g, combined=W.combine(vector, fts, g))


def parsed(question: str, keywords: list[str], intent: str = "factual") -> ParsedQuery:
    return ParsedQuery(original_query=question, keywords=keywords, intent=intent, complexity="complex")  # type: ignore[arg-type]


def llm_json(payload: str, schema: str = "DepthJudgment") -> ToolCallingFakeChatModel:
    """A fake LLM answering one structured-output call with ``payload`` (JSON) as the tool call's arguments;
    a payload that is not JSON comes back as plain text (what a confused model does)."""
    try:
        args = json.loads(payload)
    except json.JSONDecodeError:
        return ToolCallingFakeChatModel(messages=iter([AIMessage(content=payload)]))
    return ToolCallingFakeChatModel(
        messages=iter([AIMessage(content="", tool_calls=[{"name": schema, "args": args, "id": "call-1"}])])
    )


def kg(tmp_path: Path, docs: list[tuple[str, str, str]]) -> SQLiteKnowledgeGraph:
    g = SQLiteKnowledgeGraph(tmp_path / "graph.db")
    g.add_documents([KgDocument(doc_id=d, title=t, text=x) for d, t, x in docs])
    return g
