"""composed: a message that asks several things answered from its parts' own answers."""

from __future__ import annotations

import time
from typing import Any

from graphs.domain import (
    Answerability,
    Citation,
    PartAnswer,
    QueryPlan,
    StepOutcome,
    SubQuestion,
    TeamConfiguration,
)
from graphs.rag.answer.composed import compose, part_answers
from graphs.rag.nodes import write_answer
from tests.support.fakes import hit

FEE = hit("fees#0", "Archery club: the season ticket costs 140 pounds.", 0.7, "hybrid", title="fees")
COACH = hit("club#2", "The archery coach is Wendell Ames.", 0.6, "hybrid", title="club")
OTHER = hit("club#0", "The club meets on the west field.", 0.4, "hybrid", title="club")


def _plan(*questions: str) -> QueryPlan:
    return QueryPlan(pattern="compound", reason="r", sub_questions=[
        SubQuestion(id=f"q{n}", question=q, strategy="hybrid") for n, q in enumerate(questions, start=1)])


def _answered(text: str, span: str, cited: list[tuple[int, Any]], score: float = 0.8) -> PartAnswer:
    return PartAnswer(status="answered", answer=text, answer_span=span,
                      answerability=Answerability(decision="answerable", score=score, reason="stated",
                                                  decided_by="score"),
                      citations=[Citation.of(n, h) for n, h in cited])


def _absent(reason: str = "the passages give the club's fee, not its founder") -> PartAnswer:
    return PartAnswer(status="no_results", answer="The indexed documents do not contain an answer to this question.",
                      answerability=Answerability(decision="not_found", score=0.1, reason=reason))


def _outcome(sid: str, hits: list[Any], answered: PartAnswer | None, status: str = "ok") -> StepOutcome:
    return StepOutcome(sub_question=sid, question=sid, strategy="hybrid", attempt=1, turn=1, status=status,  # type: ignore[arg-type]
                       hits=hits, answered=answered)


def _state(plan: QueryPlan, outcomes: list[StepOutcome], question: str = "q") -> dict[str, Any]:
    return {"question": question, "plan": plan, "outcomes": outcomes, "ranked": [OTHER, FEE, COACH]}


def test_each_part_says_its_result_with_citations_in_one_numbering() -> None:
    plan = _plan("How much is the archery season ticket?", "Who coaches archery?")
    # the second step's answer cites its own first passage: [1] there is the coach's sentence
    state = _state(plan, [_outcome("q1", [OTHER, FEE], _answered("140 pounds. The season ticket costs 140 pounds.[2]",
                                                                  "140 pounds", [(2, FEE)])),
                          _outcome("q2", [COACH, OTHER], _answered("Wendell Ames. The coach is Wendell Ames.[1]",
                                                                    "Wendell Ames", [(1, COACH)]))])
    out = compose(state)  # type: ignore[arg-type]
    assert out["status"] == "answered" and out["answer_span"] == "140 pounds; Wendell Ames"
    assert out["answer"].splitlines() == [
        "1. How much is the archery season ticket? 140 pounds. The season ticket costs 140 pounds.[1]",
        "2. Who coaches archery? Wendell Ames. The coach is Wendell Ames.[2]"]
    assert [h.id for h in out["ranked"]] == ["fees#0", "club#2", "club#0"]
    assert [(c.index, c.id) for c in out["citations"]] == [(1, "fees#0"), (2, "club#2")]
    assert [[c.index for c in p.citations] for p in out["parts"]] == [[1], [2]]
    assert out["answerability"].decision == "answerable" and "q1 answered" in out["answerability"].reason


def test_a_part_the_files_lack_is_said_and_the_rest_answered() -> None:
    plan = _plan("How much is the archery season ticket?", "Who founded the archery club?")
    state = _state(plan, [_outcome("q1", [FEE], _answered("140 pounds.[1]", "140 pounds", [(1, FEE)])),
                          _outcome("q2", [OTHER], _absent())])
    out = compose(state)  # type: ignore[arg-type]
    assert out["status"] == "answered"
    assert out["answer"].splitlines()[1] == ("2. Who founded the archery club? The indexed documents do not contain "
                                             "an answer to this question.")
    assert [p.status for p in out["parts"]] == ["answered", "no_results"]
    assert "q2 not found: the passages give the club's fee, not its founder" in out["answerability"].reason


def test_the_message_is_not_found_only_when_every_part_is() -> None:
    plan = _plan("Who founded the archery club?", "When was the range built?")
    out = compose(_state(plan, [_outcome("q1", [OTHER], _absent()), _outcome("q2", [], None, status="empty")]))  # type: ignore[arg-type]
    assert out["status"] == "no_results" and out["answer_mode"] == "none" and out["citations"] == []
    assert [p.status for p in out["parts"]] == ["no_results", "no_results"] and out["related"]


def test_a_part_whose_step_failed_is_not_found() -> None:
    plan = _plan("Who coaches archery?")
    parts = part_answers(plan, [_outcome("q1", [], None, status="timeout")])
    assert [(p.sub_question, p.question, p.status) for p, _ in parts] == [("q1", "Who coaches archery?", "no_results")]


async def test_write_answer_composes_a_compound_plan_and_says_so(tmp_path: Any) -> None:
    from tests.support.fakes import make_context, runtime
    plan = _plan("How much is the archery season ticket?", "Who founded the archery club?")
    state = {**_state(plan, [_outcome("q1", [FEE], _answered("140 pounds.[1]", "140 pounds", [(1, FEE)])),
                             _outcome("q2", [OTHER], _absent())]),
             "team_config": TeamConfiguration(name="planner_enhanced", reason="r", max_turns=3, time_budget_s=60),
             "started_at": time.time()}
    out = await write_answer.write_answer(state, runtime(make_context(tmp_path)))  # type: ignore[arg-type]
    assert out["status"] == "answered" and len(out["parts"]) == 2
    assert write_answer.summarize(out) == "composed from 2 parts (q1 answered; q2 not found) with 1 citation(s); answered"
