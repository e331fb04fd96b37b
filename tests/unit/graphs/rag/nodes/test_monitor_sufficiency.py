"""monitor_sufficiency: the ADR's sufficiency levels and what each leads to."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from graphs.domain import (
    ParsedQuery,
    QueryEntity,
    QueryPlan,
    StepOutcome,
    TeamConfiguration,
)
from graphs.rag.context import RagLimits
from graphs.rag.edges import after_monitor_sufficiency
from graphs.rag.nodes import monitor_sufficiency
from tests.support.fakes import hit, make_context, runtime
from tests.support.plans import outcome as _step
from tests.support.plans import parsed
from tests.support.plans import plan_of as _plan
from tests.support.plans import sub_question as _sq

LIMITS = RagLimits()


def _monitor_state(outcomes: list[StepOutcome], plan: QueryPlan, question: str = "Who taught Zhang San painting?",
                   turn: int = 0, max_turns: int = 5, started: float | None = None, **kw: Any) -> dict[str, Any]:
    return {"question": question, "parsed": parsed(question, "Zhang San", intent="factual"),
            "entities": [], "plan": plan, "outcomes": outcomes, "turn": turn,
            "team_config": TeamConfiguration(name="planner_enhanced", reason="r", max_turns=max_turns,
                                             time_budget_s=60),
            "started_at": started if started is not None else time.time(), **kw}


def judge(state: dict[str, Any], now: float | None = None) -> Any:
    return monitor_sufficiency.rule_judgment(state, now or time.time(), has_kg=True,  # type: ignore[arg-type]
                                             sufficient=LIMITS.sufficient_coverage)


FULL = [hit("z#0", "Zhang San learned painting from Li Si, who taught him.", 0.6, "hybrid", title="Zhang San")]


def test_fully_sufficient() -> None:
    j, plan, hits = judge(_monitor_state([_step("q1", hits=FULL)], _plan(_sq("q1"))))
    assert (j.level, j.next) == ("fully_sufficient", "answer") and plan.sub_questions[0].status == "done"
    assert [h.doc_id for h in hits] == ["z"]


def test_partially_sufficient_continues_with_waiting_steps() -> None:
    j, _, _ = judge(_monitor_state([_step("q1", hits=FULL)], _plan(_sq("q1"), _sq("q2", ["q1"]))))
    assert (j.level, j.next) == ("partially_sufficient", "continue") and j.missing == ["question q2"]


def test_partially_sufficient_adds_a_follow_up_for_what_is_missing() -> None:
    half = [hit("z#0", "Zhang San was a painter.", 0.6, "hybrid", title="Zhang San")]
    j, plan, _ = judge(_monitor_state([_step("q1", hits=half)], _plan(_sq("q1"))))
    assert (j.level, j.next) == ("partially_sufficient", "follow_up") and "taught" in j.missing
    follow = plan.sub_questions[-1]
    assert follow.id == "follow" and follow.status == "pending" and "taught" in follow.question


def test_contradictory() -> None:
    hits = [hit("a#0", "张三的老师是李四。", 0.6, "hybrid"), hit("b#0", "据记载，张三的老师是王五。", 0.5, "hybrid")]
    q = "张三的老师是谁？"
    state = _monitor_state([_step("q1", hits=hits)], _plan(_sq("q1")), question=q)
    state["parsed"] = ParsedQuery(original_query=q, entities=[QueryEntity(text="张三", type="PERSON")],
                                  keywords=["张三", "老师"])
    j, _, _ = judge(state)
    assert (j.level, j.next) == ("contradictory", "answer") and "老师" in j.reason


def test_insufficient_after_a_failed_step_reflects() -> None:
    j, plan, _ = judge(_monitor_state([_step("q1", status="error", error="StoreUnavailable: x")], _plan(_sq("q1"))))
    assert (j.level, j.next) == ("insufficient", "reflect") and plan.sub_questions[0].status == "failed"


def test_insufficient_coverage_switches_strategy() -> None:
    off = [hit("o#0", "Unrelated text about rivers.", 0.6, "hybrid", title="Rivers")]
    j, plan, _ = judge(_monitor_state([_step("q1", hits=off)], _plan(_sq("q1"))))
    assert (j.level, j.next) == ("insufficient", "switch_strategy")
    assert plan.sub_questions[-1].id == "switch" and plan.sub_questions[-1].strategy == "graph"


def test_max_turns_answers_possibly_incomplete() -> None:
    half = [hit("z#0", "Zhang San was a painter.", 0.6, "hybrid", title="Zhang San")]
    j, _, _ = judge(_monitor_state([_step("q1", hits=half, turn=2)], _plan(_sq("q1")), turn=1, max_turns=2))
    assert (j.level, j.next) == ("max_turns", "answer")
    j, _, _ = judge(_monitor_state([_step("q1", hits=half)], _plan(_sq("q1")), started=time.time() - 999))
    assert j.level == "max_turns" and "time budget" in j.reason


async def test_monitor_node_marks_max_turns_as_possibly_incomplete(tmp_path: Path) -> None:
    half = [hit("z#0", "Zhang San was a painter.", 0.6, "hybrid", title="Zhang San")]
    state = _monitor_state([_step("q1", hits=half)], _plan(_sq("q1")), max_turns=1)
    out = await monitor_sufficiency.monitor_sufficiency(state, runtime(make_context(tmp_path)))  # type: ignore[arg-type]
    assert out["possibly_incomplete"] is True and out["sufficiency"][0].level == "max_turns"
    assert after_monitor_sufficiency({**state, **out}) == "rerank_hits"  # type: ignore[typeddict-item]


def test_a_compound_plan_answers_once_every_part_ran() -> None:
    # each part ran its own answer decision: no follow-up or strategy switch for the whole message's terms
    plan = QueryPlan(pattern="compound", sub_questions=[_sq("q1"), _sq("q2")])
    off = [hit("o#0", "Unrelated text about rivers.", 0.6, "hybrid", title="Rivers")]
    j, marked, _ = judge(_monitor_state([_step("q1", hits=off), _step("q2", hits=FULL)], plan))
    assert (j.level, j.next) == ("fully_sufficient", "answer")
    assert [s.status for s in marked.sub_questions] == ["done", "done"]
