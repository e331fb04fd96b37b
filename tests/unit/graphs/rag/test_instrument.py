"""The workflow step a wrapped node records: what it did, how long, and how many LLM calls it made."""

from __future__ import annotations

from typing import Any

from langgraph.types import Command

from graphs.rag.instrument import timed
from tests.support.fakes import make_context, runtime


async def test_a_step_records_the_llm_calls_its_node_made(tmp_path: Any) -> None:
    async def writer(state: Any, rt: Any) -> Any:
        return {"answer": "x", "llm_calls": 1}

    async def gated(state: Any, rt: Any) -> Any:
        return {"status": "no_results"}  # the gate stopped it: no LLM call

    rt = runtime(make_context(tmp_path))
    [called] = (await timed("write_answer", writer, lambda u: "written")({}, rt))["steps"]
    [stopped] = (await timed("write_answer", gated, lambda u: "not found")({}, rt))["steps"]
    assert (called.llm_calls, stopped.llm_calls) == (1, 0)
    assert called.model_dump(by_alias=True)["llmCalls"] == 1


async def test_a_routing_node_s_step_counts_its_command_s_llm_calls(tmp_path: Any) -> None:
    async def router(state: Any, rt: Any) -> Any:
        return Command(update={"llm_calls": 2}, goto="next")

    out = await timed("route", router, lambda u: "routed")({}, runtime(make_context(tmp_path)))
    assert isinstance(out, Command) and out.update["steps"][0].llm_calls == 2
