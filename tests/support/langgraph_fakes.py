"""A fake LangGraph SDK client (a run that succeeds, fails or cannot be reached) and a real graph's final values."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
from pydantic_core import to_jsonable_python

from graphs.rag.graph import workflow
from tests.support.fakes import ScriptedIndex, hit, make_context


async def final_values(tmp_path: Any) -> dict[str, Any]:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("ml#0", "机器学习是人工智能的分支。", 0.7, ch)])
    out = await workflow.ainvoke({"question": "什么是机器学习？"}, context=make_context(tmp_path, index))
    return json.loads(json.dumps(to_jsonable_python(out)))  # field names, as a LangGraph server returns them


class FakeClient:
    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.calls: list[tuple[str, Any]] = []
        self.threads = SimpleNamespace(create=self._create)
        self.runs = SimpleNamespace(wait=self._wait, stream=self._stream)

    async def _create(self, **kw: Any) -> dict[str, str]:
        self.calls.append(("threads.create", kw))
        return {"thread_id": "t1"}

    async def _wait(self, thread_id: str, graph_id: str, **kw: Any) -> dict[str, Any]:
        self.calls.append(("runs.wait", (thread_id, graph_id, kw["input"])))
        return self.values

    async def _stream(self, thread_id: str, graph_id: str, **kw: Any) -> Any:
        self.calls.append(("runs.stream", (thread_id, graph_id, kw["stream_mode"])))
        for step in self.values["steps"]:
            yield SimpleNamespace(event="updates", data={step["node"]: {"steps": [step]}})
        yield SimpleNamespace(event="messages", data=({"content": "机器"}, {"langgraph_node": "write_answer"}))
        yield SimpleNamespace(event="messages", data=({"content": "{"}, {"langgraph_node": "parse_query"}))
        yield SimpleNamespace(event="values", data=self.values)


class FailingClient(FakeClient):
    """A server whose run fails with ``error`` (the JSON a LangGraph server sends), or that cannot be reached."""

    def __init__(self, error: dict[str, str] | None = None, unreachable: bool = False) -> None:
        super().__init__({})
        self.error, self.unreachable = error, unreachable

    async def _create(self, **kw: Any) -> dict[str, str]:
        if self.unreachable:
            raise httpx.ConnectError("connection refused")
        return await super()._create(**kw)

    async def _wait(self, thread_id: str, graph_id: str, **kw: Any) -> dict[str, Any]:
        assert kw["raise_error"] is False  # the SDK would raise a bare Exception: the error is read here
        return {"__error__": self.error}

    async def _stream(self, thread_id: str, graph_id: str, **kw: Any) -> Any:
        yield SimpleNamespace(event="updates", data={"parse_query": {"steps": []}})
        yield SimpleNamespace(event="error", data=self.error)
