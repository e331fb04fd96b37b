"""reflect: switch, replan and abort a failed plan step."""

from __future__ import annotations

from graphs.rag.nodes import reflect
from tests.support.plans import outcome as _step
from tests.support.plans import sub_question as _sq


def test_reflection_switches_replans_and_aborts() -> None:
    sub = _sq("q1").model_copy(update={"status": "failed", "attempts": 1})
    r, step = reflect.reflect_on(sub, _step("q1", status="empty"), ["hybrid"], 3, True, 1)
    assert (r.action, step.strategy, step.status) == ("switch_strategy", "graph", "pending")
    r, step = reflect.reflect_on(sub.model_copy(update={"attempts": 2, "strategy": "semantic"}),
                                 _step("q1", status="empty", strategy="semantic"),
                                 ["hybrid", "graph", "semantic"], 3, True, 2)
    assert r.action == "replan" and step.question == "question q1".replace("question ", "question ").strip()
    r, step = reflect.reflect_on(sub.model_copy(update={"attempts": 3}), _step("q1", status="timeout"), ["hybrid"],
                                 3, True, 3)
    assert (r.action, step.status) == ("abort", "aborted")
