"""The graph route: seeds, sufficiency judgments, expansion, evidence selection and score fusion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from graphs.domain import FusionWeights, GraphNode, Hit, ParsedQuery
from graphs.kg.base import GraphDocument, doc_node
from graphs.kg.sqlite import SQLiteKnowledgeGraph
from graphs.rag.context import RagLimits
from graphs.rag.graph import graph
from graphs.rag.nodes import fuse_scores, judge_expansion, route_query, select_evidence
from graphs.rag.nodes.judge_expansion import rule_judgment
from graphs.rag.nodes.route_query import decide_route
from graphs.rag.nodes.select_evidence import heuristic_selection
from graphs.stores.base import StoreUnavailable
from tests.support.fakes import ScriptedIndex, ToolCallingFakeChatModel, hit, make_context, runtime

W = FusionWeights()


def node(doc: str, *, hop: int = 0, seed: bool | None = None, vector: float = 0.5, fts: float = 0.5,
         edge: str | None = "search", via: str | None = None, text: str = "") -> GraphNode:
    g = W.graph_score(hop)
    return GraphNode(node=doc_node(doc), name=doc.title(), doc_id=doc, chunk_id=f"{doc}#0", text=text, hop=hop,
                     seed=hop == 0 if seed is None else seed, via=via, edge=edge, path=[doc_node(doc)],
                     vector=vector, fts=fts, graph=g, combined=W.combine(vector, fts, g))


def parsed(question: str, keywords: list[str], intent: str = "factual") -> ParsedQuery:
    return ParsedQuery(original_query=question, keywords=keywords, intent=intent, complexity="complex")  # type: ignore[arg-type]


# ------------------------------------------------------------------ fusion arithmetic


def test_graph_score_is_one_for_seeds_and_decays_per_hop() -> None:
    assert [W.graph_score(h) for h in (0, 1, 2)] == [1.0, 0.25, 0.125]
    assert FusionWeights(decay=0.8).graph_score(1) == pytest.approx(0.64)


def _chunk(doc: str, dense: float, bm25: float) -> tuple[Hit, Hit]:
    return (hit(f"{doc}#0", f"text of {doc}", dense, "structured", title=doc, dense_score=dense),
            hit(f"{doc}#0", f"text of {doc}", bm25, "bm25", title=doc, dense_score=None, bm25_score=bm25))


async def test_fusion_worked_example_a_c_b(tmp_path: Path) -> None:
    """Seeds a and b, c one hop from a: 0.5·vector + 0.2·bm25 + 0.3·graph gives a 0.75, c 0.55, b 0.50, so a
    relevant neighbour outranks a weak seed; a chunk both channels return counts once."""
    chunks = {"a": _chunk("a", 0.8, 0.25), "b": _chunk("b", 0.3, 0.25), "c": _chunk("c", 0.75, 0.5)}

    def respond(channel: str, expr: str | None) -> list[Hit]:
        picked = [d for d in chunks if f"'{d}'" in (expr or "") or f'"{d}"' in (expr or "")]
        return [chunks[d][1 if channel == "bm25" else 0] for d in picked]

    ctx = make_context(tmp_path, ScriptedIndex(respond=respond))
    nodes = {n.node: n for n in (node("a", vector=0.8, fts=0.25), node("b", vector=0.3, fts=0.25),
                                 node("c", hop=1, vector=0.75, fts=0.5, via=doc_node("a"), edge="title_link"))}
    state: Any = {"question": "q", "graph_nodes": nodes, "query_vector": [0.0] * 16, "bm25_scale": 1.0,
                  "use_evidence_selection": False, "top_k": 5, "parsed": parsed("q", [])}
    out = await fuse_scores.fuse_scores(state, runtime(ctx))
    assert [(h.doc_id, round(h.score, 4)) for h in out["hits"]] == [("a", 0.75), ("c", 0.55), ("b", 0.5)]
    c = out["hits"][1]
    assert (c.hop, c.graph_score, c.dense_score, c.bm25_score, c.channel) == (1, 0.25, 0.75, 0.5, "graph")
    assert "0.5×vector 0.750 + 0.2×fts 0.500 + 0.3×graph 0.250 = 0.550" in (c.relevance_explanation or "")
    assert len({h.id for h in out["hits"]}) == len(out["hits"])


async def test_fusion_weights_come_from_the_request(tmp_path: Path) -> None:
    chunks = {"a": _chunk("a", 0.8, 0.25)}
    ctx = make_context(tmp_path, ScriptedIndex(respond=lambda ch, expr: [chunks["a"][1 if ch == "bm25" else 0]]))
    w = FusionWeights(vector=0.0, fts=1.0, graph=0.0)
    state: Any = {"question": "q", "graph_nodes": {doc_node("a"): node("a")}, "query_vector": [0.0] * 16,
                  "bm25_scale": 1.0, "use_evidence_selection": False, "fusion_weights": w, "parsed": parsed("q", [])}
    out = await fuse_scores.fuse_scores(state, runtime(ctx))
    assert out["hits"][0].score == pytest.approx(0.25)
    # a run started over the LangGraph API carries the weights as plain JSON
    as_json = await fuse_scores.fuse_scores({**state, "fusion_weights": w.model_dump()}, runtime(ctx))
    assert as_json["hits"][0].score == pytest.approx(0.25)


# ------------------------------------------------------------------ sufficiency judgments


def _judge_state(nodes: list[GraphNode], keywords: list[str], **extra: Any) -> Any:
    return {"question": "q", "parsed": parsed("q", keywords), "graph_nodes": {n.node: n for n in nodes},
            "frontier": [n.node for n in nodes], "depth": 0, **extra}


def test_rule_says_sufficient_when_named_documents_cover_the_question() -> None:
    nodes = [node("nolan", edge="named", text="Christopher Nolan is a film director."),
             node("kalathil", edge="named", text="Sathish Kalathil is a film director.")]
    step = rule_judgment(_judge_state(nodes, ["nolan", "kalathil", "director"]), RagLimits())
    assert step.decision == "sufficient" and step.coverage == 1.0 and "names" in step.reason


def test_rule_expands_when_the_question_is_not_covered() -> None:
    nodes = [node("film", text="Kiss and Tell is a 1945 film starring Shirley Temple.")]
    step = rule_judgment(_judge_state(nodes, ["government", "position", "kiss", "tell"]), RagLimits())
    assert step.decision == "expand" and step.coverage == 0.5 and step.frontier == [doc_node("film")]


def test_rule_expands_covered_but_unconnected_seeds_at_depth_zero() -> None:
    nodes = [node("a", text="alpha beta"), node("b", text="gamma")]
    step = rule_judgment(_judge_state(nodes, ["alpha", "gamma"]), RagLimits())
    assert step.decision == "expand" and "not connected" in step.reason
    linked = _judge_state(nodes, ["alpha", "gamma"], seed_links={doc_node("a"): [doc_node("b")]})
    assert rule_judgment(linked, RagLimits()).decision == "sufficient"


def test_rule_stops_at_max_depth_and_without_a_frontier() -> None:
    nodes = [node("a", text="alpha")]
    assert rule_judgment(_judge_state(nodes, ["zeta"], depth=3), RagLimits()).decision == "stop"
    assert rule_judgment(_judge_state(nodes, ["zeta"], depth=1, max_depth=1), RagLimits()).decision == "stop"
    no_frontier = _judge_state(nodes, ["zeta"], frontier=[])
    step = rule_judgment(no_frontier, RagLimits())
    assert step.decision == "stop" and "threshold" in step.reason
    assert rule_judgment(_judge_state([], ["zeta"], frontier=[]), RagLimits()).decision == "stop"


def test_rule_stops_at_the_result_limit() -> None:
    nodes = [node(f"d{i}", text="alpha") for i in range(5)]
    step = rule_judgment(_judge_state(nodes, ["zeta"]), RagLimits(max_graph_nodes=5))
    assert step.decision == "stop" and "limit" in step.reason


def _llm(payload: str, schema: str = "DepthJudgment") -> ToolCallingFakeChatModel:
    """A fake LLM answering one structured-output call with ``payload`` (JSON) as the tool call's arguments;
    a payload that is not JSON comes back as plain text (what a confused model does)."""
    try:
        args = json.loads(payload)
    except json.JSONDecodeError:
        return ToolCallingFakeChatModel(messages=iter([AIMessage(content=payload)]))
    return ToolCallingFakeChatModel(
        messages=iter([AIMessage(content="", tool_calls=[{"name": schema, "args": args, "id": "call-1"}])])
    )


async def test_llm_judges_when_the_rule_is_unsure(tmp_path: Path) -> None:
    nodes = [node("a", text="alpha beta gamma")]
    state = _judge_state(nodes, ["alpha", "beta", "gamma", "delta"])  # coverage 0.75: unsure
    ctx = make_context(tmp_path, llm=_llm('{"decision": "sufficient", "reason": "alpha answers it"}'))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    [step] = out["expansion"]
    assert (step.decision, step.judge, step.reason, out["llm_calls"]) == ("sufficient", "llm", "alpha answers it", 1)


async def test_llm_is_not_asked_when_the_rule_is_clear(tmp_path: Path) -> None:
    state = _judge_state([node("a", text="alpha")], ["alpha", "b1", "b2", "b3"])  # coverage 0.25
    ctx = make_context(tmp_path, llm=_llm("{}"))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    assert out["expansion"][0].judge == "rules" and "llm_calls" not in out


async def test_invalid_llm_judgment_degrades_to_the_rule(tmp_path: Path) -> None:
    state = _judge_state([node("a", text="alpha beta gamma")], ["alpha", "beta", "gamma", "delta"])
    ctx = make_context(tmp_path, llm=_llm("not json"))
    out = await judge_expansion.judge_expansion(state, runtime(ctx))
    assert out["expansion"][0].judge == "rules" and out["degraded"] == ["judge_expansion"]


# ------------------------------------------------------------------ evidence selection


def kg(tmp_path: Path, docs: list[tuple[str, str, str]]) -> SQLiteKnowledgeGraph:
    g = SQLiteKnowledgeGraph(tmp_path / "graph.db")
    g.add_documents([GraphDocument(doc_id=d, title=t, text=x) for d, t, x in docs])
    return g


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


# ------------------------------------------------------------------ routing


def _route_state(question: str, complexity: str, intent: str = "factual", **extra: Any) -> Any:
    p = ParsedQuery(original_query=question, keywords=question.lower().split(), intent=intent,  # type: ignore[arg-type]
                    complexity=complexity)  # type: ignore[arg-type]
    return {"question": question, "parsed": p, "entities": [], "constraints": [], **extra}


@pytest.mark.parametrize(
    ("complexity", "intent", "has_graph", "action"),
    [
        ("complex", "factual", True, "graph_search"),
        ("moderate", "comparison", True, "graph_search"),
        ("simple", "comparison", True, "graph_search"),
        ("simple", "factual", True, "hybrid_search"),
        ("complex", "factual", False, "hybrid_search"),
        ("complex", "conceptual", True, "graph_search"),
    ],
)
def test_router_sends_multi_hop_questions_through_the_graph(
    complexity: str, intent: str, has_graph: bool, action: str
) -> None:
    d = decide_route(_route_state("who directed the film that x", complexity, intent), RagLimits(), has_graph)
    assert d.action == action


def test_explicit_graph_mode_without_a_graph_says_why_it_falls_back() -> None:
    d = decide_route(_route_state("q", "simple", search_mode="graph"), RagLimits(), False)
    assert d.action == "hybrid_search" and "no knowledge graph" in d.reason


def test_simple_question_escalates_only_when_its_first_results_miss_it() -> None:
    from graphs.domain import SearchRecord

    searched = [SearchRecord(channel="hybrid", filter=None, count=2, duration_ms=1.0)]
    covered = _route_state("tesla founder", "simple", searches=searched,
                           hits=[hit("t#0", "Tesla's founder is Elon Musk", channel="hybrid")])
    assert decide_route(covered, RagLimits(), True).action == "rerank"
    missed = _route_state("tesla founder birthplace school", "simple", searches=searched,
                          hits=[hit("t#0", "Tesla's founder is Elon Musk", channel="hybrid")])
    d = decide_route(missed, RagLimits(), True)
    assert d.action == "graph_search" and "cover 50%" in d.reason
    assert decide_route(missed, RagLimits(), False).action == "rerank"
    conceptual = _route_state("tesla founder birthplace school", "simple", intent="conceptual", searches=searched,
                              hits=missed["hits"])
    assert decide_route(conceptual, RagLimits(), True).action == "rerank"


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
    async for update in graph.astream({"question": question}, context=ctx, stream_mode="updates"):
        visited.extend(update)
    assert visited[:5] == ["parse_query", "validate_entities", "configure_team", "route_query", "search_graph"]
    assert visited[5:8] == ["judge_expansion", "expand_graph", "judge_expansion"]
    assert visited[-6:] == ["select_evidence", "fuse_scores", "route_query", "rerank_hits", "write_answer",
                           "check_answer"]
    out = await graph.ainvoke({"question": question}, context=ctx)
    assert out["expansion"][0].decision == "expand"
    temple = next(h for h in out["ranked"] if h.doc_id == "temple")
    assert temple.hop == 1 and temple.graph_score == 0.25 and temple.path and temple.path[-1] == "doc:temple"
    assert [h.doc_id for h in out["ranked"]][:3].count("temple") == 1
    assert out["reranker"] == "graph-fusion" and out["citations"]


async def test_simple_question_does_not_pay_for_expansion(tmp_path: Path) -> None:
    g = kg(tmp_path, [(d, t, x) for d, (t, x, _, _) in DOCS.items()])
    ctx = make_context(tmp_path, _corpus_index(DOCS), kg=g)
    out = await graph.ainvoke({"question": "Corliss Archer girl"}, context=ctx)
    assert "expansion" not in out or not out["expansion"]
    assert [d.action for d in out["decisions"]] == ["hybrid_search", "rerank"]


async def test_graph_route_store_outage_raises_instead_of_expanding(tmp_path: Path) -> None:
    g = kg(tmp_path, [("a", "A", "a")])
    ctx = make_context(tmp_path, ScriptedIndex(fail=True), kg=g)
    with pytest.raises(StoreUnavailable):
        await graph.ainvoke({"question": "q", "search_mode": "graph"}, context=ctx)


async def test_route_node_knows_whether_a_graph_exists(tmp_path: Path) -> None:
    state = _route_state("q", "complex")
    with_graph = await route_query.route_query(state, runtime(make_context(tmp_path, kg=kg(tmp_path, []))))
    assert with_graph.update["decisions"][0].action == "graph_search" and with_graph.goto == "search_graph"
    without = await route_query.route_query(state, runtime(make_context(tmp_path)))
    assert without.update["decisions"][0].action == "hybrid_search" and without.goto == "search_hybrid"
