"""No node blocks the event loop: SQLite, Milvus and jieba calls go through worker threads (LangGraph's
server refuses blocking calls in a run, and a blocked loop stalls every other request)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from blockbuster import blockbuster_ctx

from graphs.kg.base import KgDocument
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.graph import workflow
from tests.support.fakes import ScriptedIndex, hit, make_context


def _context(tmp_path: Path) -> Any:
    kg = SQLiteKnowledgeGraph(tmp_path / "graph.db")
    kg.add_documents([
        KgDocument(doc_id="film", title="Kiss and Tell", text="A 1945 film starring Shirley Temple as Corliss Archer."),
        KgDocument(doc_id="temple", title="Shirley Temple", text="An actress and later a diplomat.",
                      entities=["Shirley Temple"]),
    ])
    docs = [hit("film#0", "A 1945 film starring Shirley Temple.", 0.6, "semantic", title="Kiss and Tell"),
            hit("temple#0", "An actress and later a diplomat.", 0.4, "semantic", title="Shirley Temple")]
    index = ScriptedIndex(respond=lambda channel, expr: [h.model_copy(update={"bm25_score": 2.0}) for h in docs])
    ctx = make_context(tmp_path, index, kg=kg)
    ctx.gazetteer()  # the entity dictionary is built once per store version, at startup in the service
    return ctx


@pytest.mark.parametrize(
    ("question", "mode"),
    [
        ("What position did the woman who starred in Kiss and Tell hold?", "graph"),
        ("马斯克创办的公司有哪些？", "auto"),
        ("2024年苹果在北京发布的产品", "auto"),
        ("什么是机器学习？", "auto"),
        ("Are Kiss and Tell and Shirley Temple both films?", "planner"),  # plan steps in parallel
    ],
)
async def test_a_run_makes_no_blocking_call_on_the_event_loop(tmp_path: Path, question: str, mode: str) -> None:
    ctx = _context(tmp_path)
    run: dict[str, Any] = {"question": question, "search_mode": mode}
    if mode == "planner":
        run = {"question": question, "team": "planner_enhanced"}
    with blockbuster_ctx():
        out = await workflow.ainvoke(run, context=ctx)
    assert out["status"] in ("answered", "no_results")
    assert out["searches"], "the run searched"
