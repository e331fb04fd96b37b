"""The LLM writer against the real local LLM (xllamacpp + Qwen2.5-Coder-1.5B): whatever the small model writes,
what the service returns holds — every number and name it states is in a passage it cites, a comparison leads
with the verdict computed from the values, and a question the passages cannot answer is not answered."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.container import build_llm
from app.settings import Settings
from graphs.domain import EntityMetadata
from graphs.rag.answer_check import unsupported
from graphs.rag.nodes.write_answer import write_answer
from graphs.text.query_analysis import analyze_query
from graphs.text.sentences import split_sentences
from tests.support.fakes import TODAY, gazetteer_of, hit, make_context, runtime

pytestmark = [pytest.mark.llm, pytest.mark.asyncio(loop_scope="module")]  # one loop: none of its connections outlives it

COMPANIES = [EntityMetadata(standard_name=n, type="ORGANIZATION") for n in ("比亚迪", "宁德时代", "北京大学")]


@pytest.fixture
def llm(local_llm_url: str, local_llm_model: str) -> Any:
    return build_llm(Settings(llm_base_url=local_llm_url, llm_model=local_llm_model, llm_max_tokens=256,
                              llm_timeout_s=600))


async def write(tmp_path: Path, llm: Any, question: str, ranked: list) -> dict[str, Any]:
    parsed = analyze_query(question, gazetteer_of(COMPANIES), TODAY)
    ctx = make_context(tmp_path, llm=llm, llm_timeout_s=600)
    return await write_answer({"question": question, "parsed": parsed, "ranked": ranked}, runtime(ctx))


def assert_every_fact_is_cited(out: dict[str, Any], ranked: list, question: str) -> None:
    for sentence in split_sentences(out["answer"]):
        if "[" in sentence:
            assert unsupported(sentence, ranked, question) == [], (sentence, out["corrections"])


async def test_a_question_the_passages_do_not_answer_is_not_answered(tmp_path: Path, llm: Any) -> None:
    ranked = [hit("pku#0", "北京大学创办于1898年，初名京师大学堂，是中国近代第一所国立综合性大学。", title="北京大学"),
              hit("pku#1", "北京大学位于北京市海淀区，校园内有未名湖和博雅塔。", title="北京大学")]
    out = await write(tmp_path, llm, "北京大学现任校长是谁？", ranked)
    # the small model may abstain, or name someone no passage names: either way, no answer is returned
    assert out["status"] == "no_results", (out["answer"], out["corrections"])
    assert out["answer_mode"] == "none" and out["related"]


async def test_an_answer_states_only_what_its_cited_passages_hold(tmp_path: Path, llm: Any) -> None:
    ranked = [hit("byd#0", "比亚迪成立于1995年，总部位于深圳，创始人是王传福。", title="比亚迪")]
    out = await write(tmp_path, llm, "比亚迪有多少名员工？比亚迪是谁创立的？", ranked)
    assert_every_fact_is_cited(out, ranked, "比亚迪有多少名员工？比亚迪是谁创立的？")
    if out["status"] == "answered" and out["answer_mode"] == "llm":
        assert not re.search(r"\d+\s*(?:万|名)", out["answer"]), out["answer"]  # no head count: none is given


async def test_a_comparison_leads_with_the_verdict_computed_from_the_values(tmp_path: Path, llm: Any) -> None:
    ranked = [hit("catl#0", "宁德时代成立于2011年，总部位于福建宁德。", title="宁德时代"),
              hit("byd#0", "比亚迪成立于1995年，总部位于深圳。", title="比亚迪")]
    out = await write(tmp_path, llm, "比亚迪和宁德时代谁先成立？", ranked)
    assert out["status"] == "answered"
    first = split_sentences(out["answer"])[0]
    # the side named first in the first sentence is the one founded first, whatever the model wrote
    assert first.find("比亚迪") != -1 and (first.find("宁德时代") == -1 or first.find("比亚迪") < first.find("宁德时代"))
    assert_every_fact_is_cited(out, ranked, "比亚迪和宁德时代谁先成立？")
