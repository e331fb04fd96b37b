"""check_answer: the node after write_answer that keeps only what the cited passages support of an LLM's answer."""

from __future__ import annotations

from pathlib import Path

from graphs.domain import Answerability
from graphs.rag.answer.check import Draft
from graphs.rag.answer.verdicts import Side, Verdict
from graphs.rag.nodes.check_answer import NOTHING_TO_CHECK, check_answer, summarize
from tests.support.fakes import hit, make_context, runtime

ASSESSED = Answerability(decision="answerable", score=0.8, reason="the best evidence covers 80%")
OSLO = hit("oslo#0", "The Vigeland park in Oslo opened in 1940 and holds 212 sculptures.", title="Vigeland park")
MILL = hit("mill#0", "The old paper mill by the river closed in 1978.", title="Paper mill")
FALLBACK = {"answer": "The Vigeland park in Oslo opened in 1940[1].", "answer_span": "1940", "citations": [],
            "answer_mode": "extractive", "status": "answered"}


def state(text: str, ranked: list, question: str = "When did the Vigeland park open?", **extra: object) -> dict:
    draft = Draft(raw=text, text=text, verdict=extra.pop("verdict", None), fallback=FALLBACK)  # type: ignore[arg-type]
    return {"question": question, "ranked": ranked, "answer": text, "answer_mode": "llm", "status": "answered",
            "answerability": ASSESSED, "draft": draft, **extra}


async def test_an_extractive_answer_passes_unchanged(tmp_path: Path) -> None:
    out = await check_answer({"question": "q", "ranked": [OSLO], "answer_mode": "extractive", "answer": "x[1]"},
                             runtime(make_context(tmp_path)))
    assert out == {"answer_check": NOTHING_TO_CHECK}
    assert summarize(out) == NOTHING_TO_CHECK


async def test_a_sentence_no_cited_passage_supports_is_dropped_and_said(tmp_path: Path) -> None:
    text = "The park opened in 1940 [1]. It was designed by Gustav Vigeland in 1924 [2]."
    out = await check_answer(state(text, [OSLO, MILL]), runtime(make_context(tmp_path)))
    assert out["answer"] == "The park opened in 1940 [1]." and out["status"] == "answered"
    assert [c.index for c in out["citations"]] == [1] and out["draft"] is None
    assert len(out["corrections"]) == 1 and "1924" in out["corrections"][0]
    assert summarize(out) == "LLM answer checked: 1 correction(s), 1 citation(s) kept"


async def test_an_answer_with_nothing_supported_becomes_not_found(tmp_path: Path) -> None:
    out = await check_answer(state("Det åpnet i 1952 [1].", [OSLO]), runtime(make_context(tmp_path)))
    assert out["status"] == "no_results" and out["answer_mode"] == "none" and out["citations"] == []
    assert out["answerability"].decision == "not_found"
    assert out["answerability"].reason == "no sentence of the LLM's answer was supported by the passages it cites"
    assert summarize(out).startswith("the LLM's answer is not supported")


async def test_an_abstaining_llm_is_not_found(tmp_path: Path) -> None:
    out = await check_answer(state("NOT_FOUND", [OSLO]), runtime(make_context(tmp_path)))
    assert out["status"] == "no_results"
    assert out["answerability"].reason == "the LLM writer found no answer in the passages"
    assert out["answerability"].decided_by == "answer_check"


async def test_only_citation_markers_give_the_extractive_answer(tmp_path: Path) -> None:
    out = await check_answer(state("[1] [2]", [OSLO, MILL]), runtime(make_context(tmp_path)))
    assert out["answer"] == FALLBACK["answer"] and out["answer_mode"] == "extractive" and out["draft"] is None
    assert summarize(out) == "the LLM's answer was only citation markers: the extractive answer instead"


async def test_a_verdict_that_contradicts_the_values_is_replaced(tmp_path: Path) -> None:
    question = "Which opened first, the Vigeland park or the paper mill?"
    sides = [Side("the Vigeland park", None, "1940", 1940.0), Side("the paper mill", None, "1978", 1978.0)]
    verdict = Verdict(text="the Vigeland park (1940) is earlier than the paper mill (1978).", span="the Vigeland park",
                      sides=sides)
    text = "The paper mill opened first [2]. The Vigeland park opened in 1940 [1]."
    out = await check_answer(state(text, [OSLO, MILL], question=question, verdict=verdict),
                             runtime(make_context(tmp_path)))
    assert out["answer"].startswith("the Vigeland park (1940) is earlier than the paper mill (1978).")
    assert any("contradicted" in c for c in out["corrections"])
