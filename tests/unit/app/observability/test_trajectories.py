"""Trajectories from graph outputs: steps, decision points (D1/D2/D3), texts, and the JSONL log."""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path

import pytest

from app.observability.trajectories import TrajectoryLog, TrajectoryLogError, build_trajectory
from graphs.domain import (
    ParsedQuery,
    TeamConfiguration,
)
from tests.support.runs import (
    APPLE_FILTER,
    APPLE_Q,
    graph_run,
    hybrid_semantic_run,
    planner_run,
    points,
    steps,
    structured_fallback_run,
    structured_relax_run,
)

# -- building --------------------------------------------------------------------------------------


def test_structured_relax_rerank_run() -> None:
    t = build_trajectory("run-a", structured_relax_run(), question_id="q-apple", mode="full")
    assert points(t) == [
        ("parse_query", "parse_query", None, None),
        ("validate_entities", "validate_entities", None, None),
        ("configure_team", "configure_team(executor_inclusive)", None, None),
        ("route_query", "route_query(structured_search)", "D1", "structured_search"),
        ("search_structured", "search_structured", None, None),
        ("route_query", "route_query(relax_constraints)", "D2", "continue"),
        ("relax_constraints", "relax_constraints", None, None),
        ("search_structured", "search_structured", None, None),
        ("route_query", "route_query(rerank)", "D2", "stop"),
        ("rerank_hits", "rerank_hits", None, None),
        ("write_answer", "write_answer", None, None),
    ]
    d1 = t.steps[3]
    assert d1.thought.startswith("3 validated constraint(s) (DATE=2024")
    assert d1.options == ["structured_search", "semantic_search", "hybrid_search", "graph_search"]
    assert d1.choice == "structured_search"
    # a decision observes what the step carrying it out saw (without the timing of the summary)
    assert d1.observation == f"0 hit(s) from structured search where {APPLE_FILTER}"
    assert t.steps[4].thought == "run the structured search"
    assert t.steps[5].observation == "dropped DATE=2024; 2 left"
    assert t.steps[5].options == ["continue", "stop", "switch:semantic", "switch:hybrid", "switch:graph"]
    assert t.steps[8].observation == "3 result(s) kept by the fusion reranker"
    assert t.steps[10].observation == "extractive answer with 1 citation(s); answered"
    assert (t.steps[3].started, t.steps[3].duration_ms, t.steps[3].index) == ("2025-01-01T00:00:03+00:00", 10.0, 3)
    assert (t.run_id, t.question, t.question_id, t.mode) == ("run-a", APPLE_Q, "q-apple", "full")
    assert (t.team, t.team_reason) == ("executor_inclusive", "simple factual question: one adaptive retrieval path")
    assert t.created == "2025-01-01T00:00:00+00:00"
    assert t.analysis.model_dump() == {
        "intent": "factual", "complexity": "simple", "complexity_score": 0.2, "parser": "rules",
        "entities": ["2024年/DATE → 2024", "苹果/ORGANIZATION → 苹果公司", "北京/LOCATION → 北京"],
        "constraints": ["ORGANIZATION=苹果公司", "LOCATION=北京"],
    }
    assert t.result.model_dump() == {"doc_ids": ["d7", "d3", "d9"], "answer": "苹果在北京发布了 Vision Pro [1]",
                                     "status": "answered"}
    assert t.totals.model_dump() == {"duration_ms": 130.0, "llm_calls": 0, "degraded": []}


def test_semantic_fallback_after_structured_is_a_switch() -> None:
    t = build_trajectory("run-b", structured_fallback_run())
    assert [(s.node, s.decision_point, s.decision) for s in t.decision_steps()] == [
        ("route_query", "D1", "structured_search"),
        ("route_query", "D3", "switch:semantic"),
        ("route_query", "D2", "stop"),
    ]
    switch = t.decision_steps("D3")[0]
    assert switch.choice == "semantic_search"
    assert switch.thought == "0 results and retries exhausted: semantic fallback"
    assert switch.observation == "2 hit(s) from semantic search"
    assert t.result.doc_ids == ["d1", "d7"]


def test_hybrid_then_semantic_fallback() -> None:
    t = build_trajectory("run-c", hybrid_semantic_run())
    assert [(s.action, s.decision_point, s.decision) for s in t.decision_steps()] == [
        ("route_query(hybrid_search)", "D1", "hybrid_search"),
        ("route_query(semantic_search)", "D3", "switch:semantic"),
        ("route_query(rerank)", "D2", "stop"),
    ]
    assert t.decision_steps("D3")[0].options == ["continue", "stop", "switch:structured", "switch:semantic",
                                                 "switch:graph"]
    assert t.team is None and t.analysis.entities == ["Model 3/PRODUCT → unknown"]
    assert t.totals.duration_ms == 90.0  # no total_duration_ms: the steps' sum


def test_graph_route_judgments_are_continue_stop() -> None:
    t = build_trajectory("run-g", graph_run())
    assert [(s.action, s.decision_point, s.decision) for s in t.decision_steps()] == [
        ("route_query(graph_search)", "D1", "graph_search"),
        ("judge_expansion(expand)", "D2", "continue"),
        ("judge_expansion(sufficient)", "D2", "stop"),
        ("route_query(rerank)", "D2", "stop"),
    ]
    judge = t.decision_steps("D2")[0]
    assert judge.thought == "depth 0, 3 result(s), coverage 40%: the seeds do not name the founder"
    assert judge.observation == "hop 1: 2 new document(s): Elon Musk, SpaceX; next frontier 2"
    assert t.steps[3].observation == "3 hit(s) from graph search"
    assert t.totals.degraded == ["select_evidence"] and t.totals.llm_calls == 1


def test_planner_run_plan_monitor_and_reflection() -> None:
    t = build_trajectory("run-p", planner_run())
    assert points(t)[2:10] == [
        ("configure_team", "configure_team(planner_enhanced)", None, None),
        ("plan_query", "plan_query(plan:structured+structured)", "D1", "plan:structured+structured"),
        ("execute_step", "execute_step", None, None),
        ("execute_step", "execute_step", None, None),
        ("monitor_sufficiency", "monitor_sufficiency(reflect)", "D2", "continue"),
        ("reflect", "reflect(switch_strategy)", "D3", "switch:semantic"),
        ("execute_step", "execute_step", None, None),
        ("monitor_sufficiency", "monitor_sufficiency(answer)", "D2", "stop"),
    ]
    plan = t.steps[3]
    # the plan holds q2's switched strategy; D1 is what the planner chose first
    assert plan.thought == ("one step per compared entity: q1 [structured] 2023 revenue of Apple; "
                            "q2 [structured] 2023 revenue of Microsoft")
    assert plan.choice == "comparison"
    assert plan.observation == ("q1 [structured] attempt 1: ok, 1 hit(s); finding: 383 billion dollars | "
                                "q2 [structured] attempt 1: empty, 0 hit(s)")  # the whole first round
    assert t.steps[4].thought == "answer sub-question q1 by structured search: 2023 revenue of Apple"
    assert t.steps[4].observation == "q1 [structured] attempt 1: ok, 1 hit(s); finding: 383 billion dollars"
    assert t.steps[5].observation == "q2 [structured] attempt 1: empty, 0 hit(s)"
    monitor = t.steps[6]
    assert monitor.thought == ("turn 1, insufficient, coverage 50%: q2 empty: reflect on the failed step(s); "
                               "missing: Microsoft revenue")
    assert monitor.observation == "q2: switch_strategy — structured search gave empty: try semantic search"
    reflect = t.steps[7]
    assert reflect.thought == ("q2 (empty, attempt 1): switch_strategy→semantic — "
                               "structured search gave empty: try semantic search")
    assert reflect.observation == "q2 [semantic] attempt 2: ok, 1 hit(s); finding: 212 billion dollars"
    assert t.team == "planner_enhanced" and t.totals.llm_calls == 3


def test_monitor_switch_reflect_replan_retry_abort() -> None:
    out = planner_run()
    out["sufficiency"] = [out["sufficiency"][0].model_copy(update={"next": "switch_strategy"}),
                          out["sufficiency"][1]]
    base = out["reflections"][0]
    out["reflections"] = [base.model_copy(update={"action": "replan", "new_strategy": None}),
                          base.model_copy(update={"sub_question": "q1", "action": "retry"})]
    t = build_trajectory("run-x", out)
    assert [(s.node, s.decision_point, s.decision, s.choice) for s in t.decision_steps()][1:3] == [
        ("monitor_sufficiency", "D3", "switch_strategy", "switch_strategy"),
        ("reflect", "D3", "replan", "replan,retry"),
    ]
    out["reflections"] = [base.model_copy(update={"action": "retry", "new_strategy": None})]
    assert build_trajectory("r", out).steps[7].decision == "continue"
    out["reflections"] = [base.model_copy(update={"action": "abort", "new_strategy": None})]
    assert (build_trajectory("r", out).steps[7].decision_point, build_trajectory("r", out).steps[7].decision) == (
        "D2", "stop")


def test_writer_only_run_decides_no_retrieval() -> None:
    out = {
        "question": "你好", "parsed": ParsedQuery(original_query="你好"),
        "team_config": TeamConfiguration(name="writer_only", reason="greeting: nothing to retrieve", max_turns=0,
                                         time_budget_s=5.0),
        "answer": "你好！", "status": "answered",
        "steps": steps(("parse_query", "factual, simple; no entities; via rules"),
                        ("validate_entities", "no entities to validate"),
                        ("configure_team", "writer_only (≤0 turn(s), 5 s): greeting"),
                        ("write_answer", "direct answer with 0 citation(s); answered")),
    }
    t = build_trajectory("w", out)
    [d1] = t.decision_steps()
    assert (d1.node, d1.decision_point, d1.decision, d1.thought) == (
        "configure_team", "D1", "no_retrieval", "greeting: nothing to retrieve")
    assert d1.observation == "direct answer with 0 citation(s); answered"


def test_json_output_of_a_server_run_builds_the_same_trajectory() -> None:
    out = structured_relax_run()
    as_json = {k: [x.model_dump(mode="json", by_alias=True) for x in v] if isinstance(v, list)
               else v.model_dump(mode="json", by_alias=True) if hasattr(v, "model_dump") else v
               for k, v in out.items()}
    assert build_trajectory("r", as_json) == build_trajectory("r", out)


def test_missing_keys_give_a_minimal_trajectory() -> None:
    t = build_trajectory("bare", {"question": "q?"})
    assert (t.steps, t.result.doc_ids, t.team, t.analysis.intent) == ([], [], None, "")
    assert t.created  # the time of logging


def test_a_record_without_its_step_is_reported(caplog: pytest.LogCaptureFixture) -> None:
    out = structured_relax_run()
    out["steps"] = out["steps"][:4]  # the run's later steps are missing
    with caplog.at_level(logging.WARNING, logger="app.observability.trajectories"):
        t = build_trajectory("cut", out)
    assert [s.decision for s in t.decision_steps()] == ["structured_search"]
    assert "records without a step: 2 route_query, 2 search" in caplog.text


# -- the log -----------------------------------------------------------------------------------------


def test_log_round_trip_and_concurrent_appends(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "trajectories.jsonl"
    log = TrajectoryLog(path)
    assert list(log.read()) == []  # no file yet
    base = build_trajectory("run-0", structured_relax_run())
    items = [base.model_copy(update={"run_id": f"run-{i}"}) for i in range(40)]
    threads = [threading.Thread(target=lambda chunk=items[i::4]: [log.append(t) for t in chunk]) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 40 and all(json.loads(line)["question"] == APPLE_Q for line in lines)
    read = list(log.read())
    assert sorted(t.run_id for t in read) == sorted(f"run-{i}" for i in range(40))
    assert read[0] == next(t for t in items if t.run_id == read[0].run_id)


async def test_async_append(tmp_path: Path) -> None:
    log = TrajectoryLog(tmp_path / "t.jsonl")
    await log.aappend(build_trajectory("a", hybrid_semantic_run()))
    assert [t.run_id for t in log.read()] == ["a"]


def test_truncated_last_line_is_skipped_and_the_next_append_starts_a_new_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "t.jsonl"
    log = TrajectoryLog(path)
    log.append(build_trajectory("a", structured_relax_run()))
    full = build_trajectory("b", graph_run()).model_dump_json()
    with path.open("a", encoding="utf-8") as fh:
        fh.write(full[: len(full) // 2])  # a crash mid-write
    with caplog.at_level(logging.WARNING, logger="app.observability.trajectories"):
        assert [t.run_id for t in log.read()] == ["a"]
    assert "skipped the truncated last line" in caplog.text
    log.append(build_trajectory("c", planner_run()))
    assert [t.run_id for t in log.read()] == ["a", "c"]


def test_a_line_that_is_not_a_trajectory_names_its_number(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    TrajectoryLog(path).append(build_trajectory("a", structured_relax_run()))
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"run_id": "x"}\n')
    with pytest.raises(TrajectoryLogError, match=r"t\.jsonl:2: created: Field required"):
        list(TrajectoryLog(path).read())
