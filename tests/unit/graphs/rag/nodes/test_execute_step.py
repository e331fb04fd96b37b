"""execute_step: one plan step through the one-path team, its outcome recorded (ok, empty, error)."""

from __future__ import annotations

from pathlib import Path

from graphs.domain import SubQuestion
from graphs.rag.nodes.execute_step import execute_step, finding, step_question, summarize
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime

SPACEX = "SpaceX was founded in 2002 by Elon Musk."
SLOW_MACHINE = 300.0
"""A step's time limit here: a cold first run (the text rules loading) on a loaded machine must not time out."""


def _sub(strategy: str = "semantic", **kw: object) -> SubQuestion:
    return SubQuestion(id="q1", question="When was SpaceX founded?", strategy=strategy, **kw)  # type: ignore[arg-type]


async def test_a_step_runs_its_strategy_and_records_what_it_found(tmp_path: Path) -> None:
    index = ScriptedIndex(respond=lambda channel, expr: [hit("spacex#0", SPACEX, 0.9, channel, title="SpaceX")])
    out = await execute_step({"question": "q", "sub_question": _sub(), "turn": 1, "top_k": 3},
                             runtime(make_context(tmp_path, index, step_timeout_s=SLOW_MACHINE)))
    assert set(out) == {"outcomes", "searches"}
    [o] = out["outcomes"]
    assert (o.sub_question, o.question, o.strategy, o.attempt, o.turn, o.status) == (
        "q1", "When was SpaceX founded?", "semantic", 1, 1, "ok")
    assert [h.doc_id for h in o.hits] == ["spacex"] and o.route[0] == "semantic_search" and "2002" in o.finding
    assert out["searches"][0].channel == "semantic"
    assert summarize(out).startswith("q1 attempt 1 [semantic]: ok — 1 result(s) via semantic_search")
    # the step's own answer decision and answer, for a message answered part by part
    assert o.answered is not None and o.answered.status == "answered" and "2002" in o.answered.answer
    assert [c.id for c in o.answered.citations] == ["spacex#0"] and o.answered.answerability is not None
    assert "; answered" in summarize(out)


async def test_a_step_that_finds_nothing_is_empty(tmp_path: Path) -> None:
    out = await execute_step({"question": "q", "sub_question": _sub()}, runtime(make_context(tmp_path, step_timeout_s=SLOW_MACHINE)))
    [o] = out["outcomes"]
    assert (o.status, o.hits, o.finding, o.error) == ("empty", [], "", None)


async def test_a_store_outage_is_the_step_s_error_for_the_reflection(tmp_path: Path) -> None:
    out = await execute_step({"question": "q", "sub_question": _sub()},
                             runtime(make_context(tmp_path, ScriptedIndex(fail=True), step_timeout_s=SLOW_MACHINE)))
    assert set(out) == {"outcomes"}
    [o] = out["outcomes"]
    assert o.status == "error" and (o.error or "").startswith("StoreUnavailable: ")


async def test_a_graph_step_without_a_knowledge_graph_searches_hybrid(tmp_path: Path) -> None:
    out = await execute_step({"question": "q", "sub_question": _sub("graph")}, runtime(make_context(tmp_path, step_timeout_s=SLOW_MACHINE)))
    assert out["outcomes"][0].strategy == "hybrid"


def test_a_dependent_step_searches_with_its_parents_findings() -> None:
    sub = _sub(depends_on=["q0"])
    assert step_question(sub, {"q0": "Elon Musk"}) == "When was SpaceX founded? Elon Musk"
    assert finding("From the retrieved passages: SpaceX was founded in 2002 [1].") == "SpaceX was founded in 2002 ."
