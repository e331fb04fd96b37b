"""With an LLM configured, the same calibrated gate runs before the LLM writes: no call when the evidence lacks
the asked attribute, and the prompt names the attribute to find."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from langchain_core.messages import AIMessage, BaseMessage

from graphs.domain import ParsedQuery
from graphs.rag.answer import answerability
from graphs.rag.answer.calibration import FEATURES, Model
from tests.support.answers import write_and_check
from tests.support.fakes import ToolCallingFakeChatModel, hit, make_context, runtime

PRICELESS = hit("oven#0", "The Brava countertop oven was launched in 2018 and is assembled in Ohio.", title="Brava oven")
PRICED = hit("oven#1", "The Brava countertop oven retails for $995 in the United States.", title="Brava oven")


SEEN: list[list[BaseMessage]] = []
"""What the fake LLM was sent, call by call."""


class Recording(ToolCallingFakeChatModel):
    """A fake LLM that keeps the messages it was sent (in ``SEEN``)."""

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        SEEN.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


@pytest.fixture(autouse=True)
def attribute_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A score that reads only whether the asked attribute is stated with a span next to it."""
    n = len(FEATURES)
    model = Model(features=FEATURES, mean=np.zeros(n), scale=np.ones(n),
                  weights=np.array([4.0 if f in ("attribute_stated", "span_near") else 0.0 for f in FEATURES]),
                  bias=-4.0, threshold=0.5)
    monkeypatch.setattr(answerability, "bundled", lambda: model)
    SEEN.clear()


async def ask(tmp_path: Path, ranked: list, reply: str) -> dict:
    question = "What is the price of the Brava oven?"
    parsed = ParsedQuery(original_query=question, keywords=["price", "Brava", "oven"])
    llm = Recording(messages=iter([AIMessage(content=reply)]))
    return await write_and_check({"question": question, "parsed": parsed, "ranked": ranked},
                                 runtime(make_context(tmp_path, llm=llm)))


async def test_no_llm_call_when_the_evidence_lacks_the_attribute(tmp_path: Path) -> None:
    out = await ask(tmp_path, [PRICELESS], "It costs $1,200 [1].")
    assert out["status"] == "no_results" and "llm_calls" not in out and SEEN == []
    assert out["answerability"].attribute == "price" and "do not state its price" in out["answerability"].reason


async def test_the_prompt_names_the_attribute_to_find(tmp_path: Path) -> None:
    out = await ask(tmp_path, [PRICELESS, PRICED], "The Brava oven retails for $995 [2].")
    assert out["status"] == "answered" and out["llm_calls"] == 1 and out["answer_mode"] == "llm"
    user = SEEN[0][-1].content
    assert "What to find: the price of" in user and "售价" in user
    assert "$995" in out["answer"]


async def test_a_lower_min_answerability_lets_the_llm_write(tmp_path: Path) -> None:
    question = "What is the price of the Brava oven?"
    parsed = ParsedQuery(original_query=question, keywords=["price", "Brava", "oven"])
    llm = Recording(messages=iter([AIMessage(content="NOT_FOUND")]))
    out = await write_and_check({"question": question, "parsed": parsed, "ranked": [PRICELESS],
                                 "min_answerability": 0.0}, runtime(make_context(tmp_path, llm=llm)))
    assert out["llm_calls"] == 1 and out["status"] == "no_results"
    assert out["answerability"].reason == "the LLM writer found no answer in the passages"
