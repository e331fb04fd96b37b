"""The clients the container builds from settings."""

from __future__ import annotations

import asyncio

from langchain_core.messages import HumanMessage

from app.container import build_llm
from app.settings import Settings
from tests.support.openai_stub import OpenAIStub


def test_a_model_built_for_each_event_loop_works_in_it() -> None:
    # aer eval --unanswerable builds a second index (and model) and runs it in a second event loop
    with OpenAIStub() as stub:
        settings = Settings(llm_base_url=stub.url, llm_model="stub", _env_file=None)  # type: ignore[call-arg]
        for _ in range(2):
            llm = build_llm(settings)
            assert llm is not None
            reply = asyncio.run(llm.ainvoke([HumanMessage("什么是机器学习？")]))
            assert reply.content
