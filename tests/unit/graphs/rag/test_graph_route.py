"""The graph route: seeds, sufficiency judgments, expansion and score fusion, run as a whole graph (the
select_evidence node's own tests: nodes/test_select_evidence.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphs.domain import FusionWeights, Hit
from graphs.rag.graph import workflow
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context
from tests.support.graph_route import W, kg

# ------------------------------------------------------------------ fusion arithmetic


def test_graph_score_is_one_for_seeds_and_decays_per_hop() -> None:
    assert [W.graph_score(h) for h in (0, 1, 2)] == [1.0, 0.25, 0.125]
    assert FusionWeights(decay=0.8).graph_score(1) == pytest.approx(0.64)


# ------------------------------------------------------------------ the whole route


def _corpus_index(docs: dict[str, tuple[str, str, float, float]]) -> ScriptedIndex:
    """Scripted Milvus over ``docs``: id → (title, text, dense, bm25); filters on doc ids are honoured."""

    def respond(channel: str, expr: str | None) -> list[Hit]:
        picked = [d for d in docs if expr is None or f"'{d}'" in expr or f'"{d}"' in expr]
        key = 3 if channel == "bm25" else 2
        picked.sort(key=lambda d: -docs[d][key])
        out = []
        for d in picked:
            title, text, dense, bm25 = docs[d]
            out.append(hit(f"{d}#0", text, bm25 if channel == "bm25" else dense, "bm25" if channel == "bm25" else
                           "semantic", title=title, dense_score=None if channel == "bm25" else dense,
                           bm25_score=bm25 if channel == "bm25" else None))
        return out

    return ScriptedIndex(respond=respond)


DOCS = {
    "film": ("Kiss and Tell (1945 film)", "Kiss and Tell is a 1945 film in which Shirley Temple plays Corliss Archer.",
             0.7, 9.0),
    "archer": ("Corliss Archer", "Corliss Archer is a fictional teenage girl of radio and film.", 0.6, 8.0),
    "temple": ("Shirley Temple", "Shirley Temple was an actress who later held the government position of "
               "United States ambassador.", 0.45, 3.0),
    "noise": ("Meet Corliss Archer", "A television series.", 0.3, 2.0),
}


async def test_multi_hop_question_expands_to_the_bridge_document(tmp_path: Path) -> None:
    g = kg(tmp_path, [(d, t, x) for d, (t, x, _, _) in DOCS.items()])
    ctx = make_context(tmp_path, _corpus_index(DOCS), kg=g)
    question = "What government position was held by the woman who portrayed Corliss Archer in the film Kiss and Tell?"
    visited: list[str] = []
    async for update in workflow.astream({"question": question}, context=ctx, stream_mode="updates"):
        visited.extend(update)
    assert visited[:5] == ["parse_query", "validate_entities", "configure_team", "route_query", "search_graph"]
    assert visited[5:8] == ["judge_expansion", "expand_graph", "judge_expansion"]
    assert visited[-6:] == ["select_evidence", "fuse_scores", "route_query", "rerank_hits", "write_answer",
                           "check_answer"]
    out = await workflow.ainvoke({"question": question}, context=ctx)
    assert out["expansion"][0].decision == "expand"
    temple = next(h for h in out["ranked"] if h.doc_id == "temple")
    assert temple.hop == 1 and temple.graph_score == 0.25 and temple.path and temple.path[-1] == "doc:temple"
    assert [h.doc_id for h in out["ranked"]][:3].count("temple") == 1
    assert out["reranker"] == "graph-fusion" and out["citations"]


async def test_simple_question_does_not_pay_for_expansion(tmp_path: Path) -> None:
    g = kg(tmp_path, [(d, t, x) for d, (t, x, _, _) in DOCS.items()])
    ctx = make_context(tmp_path, _corpus_index(DOCS), kg=g)
    out = await workflow.ainvoke({"question": "Corliss Archer girl"}, context=ctx)
    assert "expansion" not in out or not out["expansion"]
    assert [d.action for d in out["decisions"]] == ["hybrid_search", "rerank"]


async def test_graph_route_store_outage_raises_instead_of_expanding(tmp_path: Path) -> None:
    g = kg(tmp_path, [("a", "A", "a")])
    ctx = make_context(tmp_path, ScriptedIndex(fail=True), kg=g)
    with pytest.raises(StoreUnavailable):
        await workflow.ainvoke({"question": "q", "search_mode": "graph"}, context=ctx)
