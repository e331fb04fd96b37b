"""The LLM path of the graph against the real local LLM (xllamacpp + Qwen2.5-Coder-1.5B)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.container import build_llm
from app.settings import Settings
from graphs.rag.graph import graph
from tests.fakes import ScriptedIndex, hit, make_context

pytestmark = pytest.mark.llm


@pytest.fixture
def llm(local_llm_url: str, local_llm_model: str) -> Any:
    settings = Settings(llm_base_url=local_llm_url, llm_model=local_llm_model, llm_max_tokens=256, llm_timeout_s=600)
    return build_llm(settings)


async def test_llm_parses_and_writes_a_cited_answer(tmp_path: Path, llm: Any) -> None:
    passages = [hit("spacex#0", "马斯克于2002年创办了太空探索技术公司（SpaceX）。"),
                hit("tesla#0", "特斯拉是一家电动汽车公司，马斯克自2008年起担任首席执行官。")]
    index = ScriptedIndex(respond=lambda channel, expr: passages)
    ctx = make_context(tmp_path, index, llm=llm, llm_timeout_s=600)
    out = await graph.ainvoke({"question": "马斯克创办的公司有哪些？"}, context=ctx)
    assert out.get("degraded", []) == [], out.get("degraded")
    assert out["parsed"].parser == "llm"
    assert out["llm_calls"] == 2
    assert any(e.standard_name == "Elon Musk" for e in out["entities"])
    assert out["decisions"][0].action == "structured_search"
    assert out["answer_mode"] == "llm" and out["answer"]
    assert out["citations"], out["answer"]


async def test_llm_outage_degrades_to_rules_visibly(tmp_path: Path) -> None:
    dead = build_llm(Settings(llm_base_url="http://127.0.0.1:9/v1", llm_model="none", llm_timeout_s=5))
    index = ScriptedIndex(respond=lambda channel, expr: [hit("ml#0", "机器学习是人工智能的一个分支。", 0.6, channel)])
    out = await graph.ainvoke({"question": "什么是机器学习？"}, context=make_context(tmp_path, index, llm=dead))
    assert out["degraded"] == ["parse_query", "write_answer"]
    assert out["parsed"].parser == "rules" and out["answer_mode"] == "extractive"
