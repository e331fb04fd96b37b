"""The app mounted into a LangGraph server (``AER_RUN_VIA_LANGGRAPH``): a failed or unreachable server run
answers as an in-process one does, with the error shape and the right status, never a 500 or an empty answer."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app import langgraph_runs
from app.client import iter_sse
from tests.support.apps import URL, running_app
from tests.support.langgraph_fakes import FailingClient, FakeClient, final_values


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path / "data", run_via_langgraph=True) as c:
        yield c


def use_server(monkeypatch: pytest.MonkeyPatch, server: Any) -> None:
    monkeypatch.setattr(langgraph_runs, "_client", lambda: server)


def stream_events(client: TestClient) -> list[tuple[str, Any]]:
    with client.stream("POST", URL, json={"action": "query", "question": "q", "stream": True}) as r:
        assert r.status_code == 200
        return [(name, json.loads(data)) for name, data in iter_sse(r.iter_lines())]


@pytest.mark.parametrize(
    ("server", "status", "code"),
    [
        (FailingClient({"error": "StoreUnavailable", "message": "An internal error occurred"}), 503,
         "store_unavailable"),
        (FailingClient({"error": "EmbedderUnavailable", "message": "endpoint down"}), 503, "embedder_unavailable"),
        (FailingClient(unreachable=True), 503, "langgraph_unavailable"),
        (FailingClient({"error": "ValueError", "message": "An internal error occurred"}), 500, "internal_error"),
    ],
)
def test_a_failed_server_run_gets_the_error_shape(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, server: Any, status: int, code: str
) -> None:
    use_server(monkeypatch, server)
    if status == 500:  # the test client re-raises what the app's 500 handler answered
        with pytest.raises(RuntimeError, match="LangGraph run failed: ValueError"):
            client.post(URL, json={"action": "query", "question": "什么是机器学习？"})
    else:
        r = client.post(URL, json={"action": "query", "question": "什么是机器学习？"})
        assert r.status_code == status, r.text
        assert r.json()["success"] is False and r.json()["error"]["code"] == code
    events = stream_events(client)
    assert events[-1][0] == "error" and events[-1][1]["error"]["code"] == code
    if status != 500:
        assert events[-1][1] == r.json()  # the streamed error is the JSON answer's body
    assert "result" not in [name for name, _ in events]


async def test_a_good_server_run_answers_as_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    use_server(monkeypatch, FakeClient(await final_values(tmp_path)))
    with running_app(tmp_path / "data", run_via_langgraph=True) as c:
        r = c.post(URL, json={"action": "query", "question": "什么是机器学习？"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["success"] and body["retrievalDetails"]["topResults"][0]["id"] == "ml#0" and body["answer"]


def test_another_workspaces_query_never_runs_on_the_default_workspaces_server_graph(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # the LangGraph server's graph is bound to the default workspace's stores: a query of another workspace run
    # there would be answered from the wrong documents
    use_server(monkeypatch, FailingClient(unreachable=True))
    assert client.post("/api/workspaces", json={"name": "other"}).status_code == 201
    r = client.post(URL, json={"action": "add-documents", "workspace": "other", "documents": [
        {"id": "o", "title": "O", "text": "Brindlemoor Abbey was built by the monk Aldric in 1124."}]})
    assert r.status_code == 200, r.text
    r = client.post(URL, json={"action": "query", "question": "Who built Brindlemoor Abbey?"},
                    headers={"X-Workspace": "other"})
    assert r.status_code == 200 and r.json()["workspace"] == "other" and "Aldric" in r.json()["answer"]
    with client.stream("POST", URL, json={"action": "query", "question": "Who built Brindlemoor Abbey?",
                                          "stream": True, "workspace": "other"}) as streamed:
        events = [(name, json.loads(data)) for name, data in iter_sse(streamed.iter_lines())]
    assert events[-1][0] == "result" and events[-1][1]["workspace"] == "other"
    # the default workspace's query still goes to the server (unreachable here: 503)
    assert client.post(URL, json={"action": "query", "question": "q"}).status_code == 503
