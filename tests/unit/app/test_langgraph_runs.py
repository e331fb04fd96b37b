"""Queries as LangGraph server runs: the SDK calls made and the typed state rebuilt from JSON."""

from __future__ import annotations

from typing import Any

import pytest

from app import langgraph_runs
from app.errors import ServiceError
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable
from tests.support.langgraph_fakes import FailingClient, FakeClient, final_values


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
    assert kinds.count("step") == 9 and kinds[-1] == "values"  # 8 stages and check_answer
    assert [p for k, p in events if k == "token"] == ["机器"]  # parse_query's JSON is not an answer token


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
        with pytest.raises(ServiceError) as err:
            await call
        # transport-free: the API answers the kind "unavailable" with 503 (tests/api/test_run_via_langgraph.py)
        assert (err.value.kind, err.value.code) == ("unavailable", "langgraph_unavailable")
