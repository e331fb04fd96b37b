"""Queries as LangGraph server runs: the SDK calls made and the typed state rebuilt from JSON."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from pydantic_core import to_jsonable_python

from app import langgraph_runs
from app.errors import ApiError
from graphs.embeddings import EmbedderUnavailable
from graphs.rag.graph import graph
from graphs.stores.base import StoreUnavailable
from tests.fakes import ScriptedIndex, hit, make_context


async def final_values(tmp_path: Any) -> dict[str, Any]:
    index = ScriptedIndex(respond=lambda ch, expr: [hit("ml#0", "机器学习是人工智能的分支。", 0.7, ch)])
    out = await graph.ainvoke({"question": "什么是机器学习？"}, context=make_context(tmp_path, index))
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


async def test_run_rebuilds_the_typed_output(tmp_path: Any) -> None:
    client = FakeClient(await final_values(tmp_path))
    out = await langgraph_runs.run({"question": "什么是机器学习？"}, client)
    assert out["parsed"].intent == "conceptual" and out["ranked"][0].id == "ml#0"
    assert [c[0] for c in client.calls] == ["threads.create", "runs.wait"]
    assert client.calls[1][1][1] == "adaptive_entity_rag"


async def test_stream_yields_steps_writer_tokens_and_values(tmp_path: Any) -> None:
    client = FakeClient(await final_values(tmp_path))
    events = [e async for e in langgraph_runs.stream({"question": "q"}, client)]
    kinds = [k for k, _ in events]
    assert kinds.count("step") == 8 and kinds[-1] == "values"
    assert [p for k, p in events if k == "token"] == ["机器"]  # parse_query's JSON is not an answer token


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


@pytest.mark.parametrize(
    ("error", "kind", "text"),
    [
        ({"error": "StoreUnavailable", "message": "milvus unavailable: search_dense failed"}, StoreUnavailable,
         "milvus unavailable: search_dense failed"),
        # the server hides messages of exception types it does not know: the type alone still answers 503
        ({"error": "StoreUnavailable", "message": "An internal error occurred"}, StoreUnavailable,
         "see the server log"),
        ({"error": "EmbedderUnavailable", "message": "embedding endpoint down"}, EmbedderUnavailable,
         "embedding endpoint down"),
        ({"error": "ValueError", "message": "An internal error occurred"}, RuntimeError, "ValueError"),
    ],
)
async def test_a_failed_server_run_raises_the_services_own_error(
    error: dict[str, str], kind: type[Exception], text: str
) -> None:
    with pytest.raises(kind, match=text) as wait_err:
        await langgraph_runs.run({"question": "q"}, FailingClient(error))
    assert type(wait_err.value) is kind
    with pytest.raises(kind, match=text):
        [e async for e in langgraph_runs.stream({"question": "q"}, FailingClient(error))]
    if kind is StoreUnavailable:
        assert wait_err.value.store in {"milvus", "store"}  # type: ignore[attr-defined]


async def test_an_unreachable_langgraph_server_is_a_503() -> None:
    for call in (langgraph_runs.run({"question": "q"}, FailingClient(unreachable=True)),
                 anext(aiter(langgraph_runs.stream({"question": "q"}, FailingClient(unreachable=True))))):
        with pytest.raises(ApiError) as err:
            await call
        assert (err.value.status, err.value.code) == (503, "langgraph_unavailable")
