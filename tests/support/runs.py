"""Realistic graph outputs of each kind of run (structured with relaxation, fallbacks, graph route, planner),
for the trajectory and DPO tests."""

from __future__ import annotations

from typing import Any

from app.observability.trajectories import Trajectory
from graphs.domain import (
    Constraint,
    DateRange,
    ExpansionStep,
    Hit,
    ParsedQuery,
    QueryEntity,
    QueryPlan,
    Reflection,
    Relaxation,
    RoutingDecision,
    SearchRecord,
    StepOutcome,
    SubQuestion,
    SufficiencyJudgment,
    TeamConfiguration,
    ValidatedEntity,
    WorkflowStep,
)

APPLE_Q = "2024年苹果在北京发布的产品"
FOUNDER_Q = "Who founded the company that makes the Model 3?"
COMPARE_Q = "Compare the 2023 revenue of Apple and Microsoft"


def steps(*rows: tuple[str, str], start_ms: int = 0) -> list[WorkflowStep]:
    """Workflow steps one second apart (10 ms each), from 2025-01-01T00:00:0N."""
    return [WorkflowStep(node=node, started=f"2025-01-01T00:00:{start_ms + i:02d}+00:00", duration_ms=10.0,
                         summary=summary) for i, (node, summary) in enumerate(rows)]


def hit(doc: str, channel: str = "structured", score: float = 0.9) -> Hit:
    return Hit(id=f"{doc}#0", doc_id=doc, title=doc.upper(), text=f"text of {doc}", score=score, channel=channel)  # type: ignore[arg-type]


def apple_parsed() -> ParsedQuery:
    return ParsedQuery(
        original_query=APPLE_Q, intent="factual", complexity="simple", complexity_score=0.2,
        entities=[QueryEntity(text="2024年", type="DATE", source="date_rule"),
                  QueryEntity(text="苹果", type="ORGANIZATION"), QueryEntity(text="北京", type="LOCATION")],
    )


def apple_entities() -> list[ValidatedEntity]:
    year = DateRange(start=20240101, end=20241231, granularity="year", label="2024")
    return [
        ValidatedEntity(text="2024年", type="DATE", valid=True, match="date", score=1.0, date_range=year),
        ValidatedEntity(text="苹果", type="ORGANIZATION", standard_name="苹果公司", valid=True, match="alias", score=0.95),
        ValidatedEntity(text="北京", type="LOCATION", standard_name="北京", valid=True, match="exact", score=1.0),
    ]


EXECUTOR = TeamConfiguration(name="executor_inclusive", reason="simple factual question: one adaptive retrieval path",
                             max_turns=4, time_budget_s=20.0, complexity_score=0.2)
APPLE_FILTER = "org == '苹果公司' and location == '北京' and date in [20240101, 20241231]"


def structured_relax_run(doc_ids: tuple[str, ...] = ("d7", "d3", "d9"), start: int = 0) -> dict[str, Any]:
    """Structured search finds nothing, relaxation drops the date, structured again finds 3, rerank."""
    decisions = [
        RoutingDecision(action="structured_search", reason="3 validated constraint(s) (DATE=2024, ORGANIZATION=苹果公司, "
                                                           "LOCATION=北京) and factual intent: filtered vector search"),
        RoutingDecision(action="relax_constraints", reason=f"0 results under {APPLE_FILTER}; relaxation 1 of 3"),
        RoutingDecision(action="rerank", reason="3 result(s) from structured search: rerank and write"),
    ]
    searches = [SearchRecord(channel="structured", filter=APPLE_FILTER, count=0, duration_ms=12.5),
                SearchRecord(channel="structured", filter="org == '苹果公司' and location == '北京'", count=3,
                             duration_ms=11.0)]
    ranked = [hit(d) for d in doc_ids]
    return {
        "question": APPLE_Q, "parsed": apple_parsed(), "entities": apple_entities(),
        "constraints": [Constraint(type="ORGANIZATION", value="苹果公司"), Constraint(type="LOCATION", value="北京")],
        "team_config": EXECUTOR, "decisions": decisions, "searches": searches,
        "relaxed": [Relaxation(type="DATE", value="2024", action="dropped", reason="lowest priority")],
        "ranked": ranked, "answer": "苹果在北京发布了 Vision Pro [1]", "status": "answered",
        "steps": steps(
            ("parse_query", "factual, simple; 2024年/DATE, 苹果/ORGANIZATION, 北京/LOCATION; via rules"),
            ("validate_entities", "2024年→2024 (date 1.00); 苹果→苹果公司 (alias 0.95); 北京→北京 (exact 1.00)"),
            ("configure_team", "executor_inclusive (≤4 turn(s), 20 s): simple factual question"),
            ("route_query", f"structured_search: {decisions[0].reason}"),
            ("search_structured", f"0 hit(s) from structured search where {APPLE_FILTER} in 12 ms"),
            ("route_query", f"relax_constraints: {decisions[1].reason}"),
            ("relax_constraints", "dropped DATE=2024; 2 left"),
            ("search_structured", "3 hit(s) from structured search where ... in 11 ms"),
            ("route_query", f"rerank: {decisions[2].reason}"),
            ("rerank_hits", "3 result(s) kept by the fusion reranker"),
            ("write_answer", "extractive answer with 1 citation(s); answered"),
            start_ms=start,
        ),
        "total_duration_ms": 130.0, "llm_calls": 0, "degraded": [],
    }


def structured_fallback_run(start: int = 20) -> dict[str, Any]:
    """Structured search finds nothing, no retries allowed: semantic fallback finds 2, rerank."""
    out = structured_relax_run(start=start)
    decisions = [
        out["decisions"][0],
        RoutingDecision(action="semantic_search", reason="0 results and retries exhausted: semantic fallback"),
        RoutingDecision(action="rerank", reason="2 result(s) from semantic search: rerank and write"),
    ]
    searches = [out["searches"][0], SearchRecord(channel="semantic", filter=None, count=2, duration_ms=8.0)]
    steps = out["steps"]
    return out | {
        "decisions": decisions, "searches": searches, "relaxed": [], "ranked": [hit("d1", "semantic"), hit("d7")],
        "steps": [*steps[:5],
                  steps[5].model_copy(update={"summary": f"semantic_search: {decisions[1].reason}"}),
                  steps[7].model_copy(update={"node": "search_semantic", "summary": "2 hit(s) from semantic search in 8 ms"}),
                  *steps[8:]],
    }


def hybrid_semantic_run(start: int = 40) -> dict[str, Any]:
    """No entity to filter on: hybrid finds nothing, semantic fallback finds 4, rerank."""
    decisions = [
        RoutingDecision(action="hybrid_search", reason="no validated entities to filter on: dense + BM25 hybrid search"),
        RoutingDecision(action="semantic_search", reason="0 results and no constraints left: semantic fallback"),
        RoutingDecision(action="rerank", reason="4 result(s) from semantic search: rerank and write"),
    ]
    return {
        "question": FOUNDER_Q,
        "parsed": ParsedQuery(original_query=FOUNDER_Q, intent="factual", complexity="moderate", complexity_score=0.45,
                              entities=[QueryEntity(text="Model 3", type="PRODUCT", source="title_case")]),
        "entities": [ValidatedEntity(text="Model 3", type="PRODUCT")],
        "decisions": decisions,
        "searches": [SearchRecord(channel="hybrid", filter=None, count=0, duration_ms=20.0),
                     SearchRecord(channel="semantic", filter=None, count=4, duration_ms=9.0)],
        "ranked": [hit("tesla", "semantic"), hit("spacex", "semantic")],
        "answer": "Tesla [1]", "status": "answered",
        "steps": steps(
            ("parse_query", "factual, moderate; Model 3/PRODUCT; via rules"),
            ("validate_entities", "Model 3: unknown"),
            ("route_query", f"hybrid_search: {decisions[0].reason}"),
            ("search_hybrid", "0 hit(s) from hybrid search in 20 ms"),
            ("route_query", f"semantic_search: {decisions[1].reason}"),
            ("search_semantic", "4 hit(s) from semantic search in 9 ms"),
            ("route_query", f"rerank: {decisions[2].reason}"),
            ("rerank_hits", "2 result(s) kept by the fusion reranker"),
            ("write_answer", "extractive answer with 1 citation(s); answered"),
            start_ms=start,
        ),
        "llm_calls": 0,
    }


def graph_run(start: int = 10) -> dict[str, Any]:
    """Graph route: seed search, one hop, sufficient, evidence, fusion, rerank."""
    out = hybrid_semantic_run(start=start)
    decisions = [
        RoutingDecision(action="graph_search", reason="moderate question with no entity to filter on: seed search, "
                                                      "then adaptive knowledge-graph expansion"),
        RoutingDecision(action="rerank", reason="6 result(s) from the graph expansion: rerank and write"),
    ]
    expansion = [
        ExpansionStep(depth=0, decision="expand", num_results=3, reason="the seeds do not name the founder",
                      coverage=0.4, frontier=["Tesla"]),
        ExpansionStep(depth=1, decision="sufficient", num_results=6, reason="Elon Musk and Tesla are linked",
                      coverage=0.9),
    ]
    return out | {
        "decisions": decisions, "expansion": expansion,
        "searches": [SearchRecord(channel="graph", filter=None, count=3, duration_ms=30.0),
                     SearchRecord(channel="graph", filter="2 neighbour document(s) of 1 node(s)", count=2,
                                  duration_ms=5.0)],
        "ranked": [hit("tesla", "graph"), hit("musk", "graph")], "answer": "Elon Musk [2]", "llm_calls": 1,
        "degraded": ["select_evidence"],
        "steps": steps(
            ("parse_query", "factual, moderate; Model 3/PRODUCT; via rules"),
            ("validate_entities", "Model 3: unknown"),
            ("route_query", f"graph_search: {decisions[0].reason}"),
            ("search_graph", "3 seed document(s): Tesla, Model 3, Gigafactory"),
            ("judge_expansion", "depth 0: expand (rules) — the seeds do not name the founder"),
            ("expand_graph", "hop 1: 2 new document(s): Elon Musk, SpaceX; next frontier 2"),
            ("judge_expansion", "depth 1: sufficient (rules) — Elon Musk and Tesla are linked"),
            ("select_evidence", "2 node(s) selected by the heuristic, 4 excluded"),
            ("fuse_scores", "6 chunk(s) fused: Tesla 0.81 (hop 0)"),
            ("route_query", f"rerank: {decisions[1].reason}"),
            ("rerank_hits", "2 result(s) kept by the fusion reranker"),
            ("write_answer", "extractive answer with 2 citation(s); answered"),
            start_ms=start,
        ),
    }


PLANNER = TeamConfiguration(name="planner_enhanced", reason="comparison question: one step per entity",
                            max_turns=3, time_budget_s=60.0, complexity_score=0.7)


def planner_run(start: int = 30) -> dict[str, Any]:
    """Two structured steps; q2 comes back empty, the monitor reflects, q2 switches to semantic and succeeds."""
    q1 = SubQuestion(id="q1", question="2023 revenue of Apple", strategy="structured", status="done", attempts=1)
    q2 = SubQuestion(id="q2", question="2023 revenue of Microsoft", strategy="semantic", status="done", attempts=2)
    outcomes = [
        StepOutcome(sub_question="q1", question=q1.question, strategy="structured", attempt=1, turn=1, status="ok",
                    hits=[hit("apple-10k")], finding="383 billion dollars", duration_ms=40.0),
        StepOutcome(sub_question="q2", question=q2.question, strategy="structured", attempt=1, turn=1,
                    status="empty", duration_ms=35.0),
        StepOutcome(sub_question="q2", question=q2.question, strategy="semantic", attempt=2, turn=2, status="ok",
                    hits=[hit("msft-10k", "semantic")], finding="212 billion dollars", duration_ms=30.0),
    ]
    return {
        "question": COMPARE_Q,
        "parsed": ParsedQuery(original_query=COMPARE_Q, intent="comparison", complexity="complex",
                              complexity_score=0.7, parser="llm"),
        "entities": [ValidatedEntity(text="Apple", type="ORGANIZATION", standard_name="Apple Inc.", valid=True,
                                     match="exact", score=1.0),
                     ValidatedEntity(text="Microsoft", type="ORGANIZATION", standard_name="Microsoft", valid=True,
                                     match="exact", score=1.0)],
        "team_config": PLANNER,
        "plan": QueryPlan(sub_questions=[q1, q2], pattern="comparison", reason="one step per compared entity"),
        "outcomes": outcomes,
        "sufficiency": [
            SufficiencyJudgment(turn=1, level="insufficient", reason="q2 empty: reflect on the failed step(s)",
                                next="reflect", coverage=0.5, missing=["Microsoft revenue"]),
            SufficiencyJudgment(turn=2, level="fully_sufficient", reason="both revenues found", next="answer",
                                coverage=1.0),
        ],
        "reflections": [Reflection(sub_question="q2", failure="empty", action="switch_strategy",
                                   reason="structured search gave empty: try semantic search", attempt=1, turn=1,
                                   new_strategy="semantic")],
        "ranked": [hit("apple-10k"), hit("msft-10k", "semantic")],
        "answer": "Apple 383 B$ [1], Microsoft 212 B$ [2]", "status": "answered",
        "steps": steps(
            ("parse_query", "comparison, complex; Apple/ORGANIZATION, Microsoft/ORGANIZATION; via llm"),
            ("validate_entities", "Apple→Apple Inc. (exact 1.00); Microsoft→Microsoft (exact 1.00)"),
            ("configure_team", "planner_enhanced (≤3 turn(s), 60 s): comparison question"),
            ("plan_query", "2 sub-question(s): q1 [structured], q2 [structured]"),
            ("execute_step", "q1 attempt 1 [structured]: ok — 1 result(s)"),
            ("execute_step", "q2 attempt 1 [structured]: empty — 0 result(s)"),
            ("monitor_sufficiency", "turn 1: insufficient → reflect"),
            ("reflect", "q2: switch_strategy — structured search gave empty: try semantic search"),
            ("execute_step", "q2 attempt 2 [semantic]: ok — 1 result(s)"),
            ("monitor_sufficiency", "turn 2: fully_sufficient → answer"),
            ("rerank_hits", "2 result(s) kept by the fusion reranker"),
            ("write_answer", "llm answer with 2 citation(s); answered"),
            start_ms=start,
        ),
        "total_duration_ms": 410.0, "llm_calls": 3,
    }


def hybrid_stop_run(question: str = COMPARE_Q, start: int = 50) -> dict[str, Any]:
    """One hybrid search with 5 results, then rerank (the one-path team on a comparison)."""
    decisions = [
        RoutingDecision(action="hybrid_search", reason="comparison intent: dense + BM25 hybrid search"),
        RoutingDecision(action="rerank", reason="5 result(s) from hybrid search: rerank and write"),
    ]
    return {
        "question": question,
        "parsed": ParsedQuery(original_query=question, intent="comparison", complexity="complex", complexity_score=0.7),
        "team_config": EXECUTOR, "decisions": decisions,
        "searches": [SearchRecord(channel="hybrid", filter=None, count=5, duration_ms=15.0)],
        "ranked": [hit(d, "hybrid") for d in ("apple-10k", "apple-news", "msft-news")],
        "answer": "Apple 383 B$ [1]", "status": "answered",
        "steps": steps(
            ("parse_query", "comparison, complex; via rules"),
            ("validate_entities", "no entities to validate"),
            ("configure_team", "executor_inclusive (≤4 turn(s), 20 s)"),
            ("route_query", f"hybrid_search: {decisions[0].reason}"),
            ("search_hybrid", "5 hit(s) from hybrid search in 15 ms"),
            ("route_query", f"rerank: {decisions[1].reason}"),
            ("rerank_hits", "3 result(s) kept by the fusion reranker"),
            ("write_answer", "extractive answer with 1 citation(s); answered"),
            start_ms=start,
        ),
    }


def points(t: Trajectory) -> list[tuple[str, str, str | None, str | None]]:
    """(node, action, decision point, decision) of every step."""
    return [(s.node, s.action, s.decision_point, s.decision) for s in t.steps]


