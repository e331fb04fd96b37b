"""select_evidence: the heuristic pick that follows links from the best seed, the LLM pick checked against the
candidates, and selection turned off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphs.kg.base import doc_node
from graphs.rag.context import RagLimits
from graphs.rag.nodes import select_evidence
from graphs.rag.nodes.select_evidence import heuristic_selection
from tests.support.fakes import make_context, runtime
from tests.support.graph_route import kg, node, parsed
from tests.support.graph_route import llm_json as _llm


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
