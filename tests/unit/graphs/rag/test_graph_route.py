"""The graph route: seeds, sufficiency judgments, expansion, evidence selection and score fusion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from graphs.domain import FusionWeights, Hit
from graphs.kg.base import doc_node
from graphs.rag.context import RagLimits
from graphs.rag.graph import workflow
from graphs.rag.nodes import select_evidence
from graphs.rag.nodes.select_evidence import heuristic_selection
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime
from tests.support.graph_route import W, kg, node, parsed
from tests.support.graph_route import llm_json as _llm

# ------------------------------------------------------------------ fusion arithmetic


def test_graph_score_is_one_for_seeds_and_decays_per_hop() -> None:
    assert [W.graph_score(h) for h in (0, 1, 2)] == [1.0, 0.25, 0.125]
    assert FusionWeights(decay=0.8).graph_score(1) == pytest.approx(0.64)


# ------------------------------------------------------------------ evidence selection


def test_heuristic_selection_follows_links_from_the_best_seed(tmp_path: Path) -> None:
    g = kg(tmp_path, [("film", "Kiss and Tell", "A 1945 film starring Shirley Temple."),
                      ("temple", "Shirley Temple", "An actress and diplomat."),
                      ("other", "Other Film", "Unrelated.")])
    nodes = {n.node: n for n in (node("film", vector=0.8), node("other", vector=0.7),
                                 node("temple", hop=1, vector=0.4, via=doc_node("film"), edge="title_link"))}
    sel = heuristic_selection(g, nodes, RagLimits(evidence_min=2))
    assert [s.node for s in sel.selected_nodes] == [doc_node("film"), doc_node("temple")]
    assert sel.excluded_nodes == [doc_node("other")] and sel.selector == "heuristic"


def test_comparison_takes_the_documents_the_question_names(tmp_path: Path) -> None:
    g = kg(tmp_path, [("x", "X", "x"), ("y", "Y", "y"), ("z", "Z", "mentions X")])
    nodes = {n.node: n for n in (node("x", vector=0.9, edge="named"), node("z", vector=0.8),
                                 node("y", vector=0.2, edge="named"))}
    sel = heuristic_selection(g, nodes, RagLimits(evidence_min=2), comparison=True)
    assert [s.node for s in sel.selected_nodes][:2] == [doc_node("x"), doc_node("y")]


async def test_llm_selection_is_checked_against_the_candidates(tmp_path: Path) -> None:
    g = kg(tmp_path, [(f"d{i}", f"T{i}", "t") for i in range(9)])
    nodes = {n.node: n for n in (node(f"d{i}", vector=0.9 - i / 20) for i in range(9))}
    state: Any = {"question": "q", "graph_nodes": nodes, "parsed": parsed("q", [])}
    good = '{"selected_nodes": [{"node": "doc:d3", "relevance": 0.9}, {"node": "doc:nope", "relevance": 0.5}],' \
           ' "reasoning_path": ["doc:d3"], "excluded_nodes": [], "reasoning": "d3 says it"}'
    out = await select_evidence.select_evidence(state, runtime(make_context(tmp_path, llm=_llm(good, "EvidencePick"), kg=g)))
    ev = out["evidence"]
    assert ev.selector == "llm" and [s.node for s in ev.selected_nodes] == ["doc:d3"] and out["llm_calls"] == 1
    assert "doc:d0" in ev.excluded_nodes
    bad = '{"selected_nodes": [{"node": "doc:nope", "relevance": 0.5}], "reasoning_path": []}'
    out = await select_evidence.select_evidence(state, runtime(make_context(tmp_path, llm=_llm(bad, "EvidencePick"), kg=g)))
    assert out["evidence"].selector == "heuristic" and out["degraded"] == ["select_evidence"]


async def test_selection_can_be_turned_off(tmp_path: Path) -> None:
    g = kg(tmp_path, [("a", "A", "a")])
    state: Any = {"question": "q", "graph_nodes": {doc_node("a"): node("a")}, "use_evidence_selection": False,
                  "parsed": parsed("q", [])}
    out = await select_evidence.select_evidence(state, runtime(make_context(tmp_path, kg=g)))
    assert out["evidence"].selected_nodes == [] and "off" in out["evidence"].reasoning


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
    assert visited[-5:] == ["select_evidence", "fuse_scores", "route_query", "rerank_hits", "write_answer"]
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
