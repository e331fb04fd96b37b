"""No configured secret (API keys, LLM / embedding / rerank keys, Milvus token) leaks into a response or a log line,
through a run that exercises every kind of error (401, 404, 409, 413, 422, 429, a failing LLM, streaming)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.support.apps import URL, running_app

SECRETS = {
    "api key": "apikey-5e1f0c9b7a3d4e2f",
    "second api key": "apikey-0a9b8c7d6e5f4a3b",
    "llm key": "sk-llm-91d2c3b4a5f6e7d8",
    "embedding key": "sk-emb-2b3c4d5e6f7a8b9c",
    "rerank key": "rr-key-7c6d5e4f3a2b1c0d",
    "milvus token": "root:milvus-tok-4d3c2b1a",
}
WRONG_KEY = "apikey-5e1f0c9b7a3d4e2X"  # what a client sent by mistake is not logged either


def test_secrets_never_reach_a_response_or_a_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    with running_app(
        tmp_path, api_keys=[SECRETS["api key"], SECRETS["second api key"]], rate_limit_per_minute=25,
        require_key_for_queries=False,
        llm_base_url="http://127.0.0.1:9/v1", llm_model="m", llm_api_key=SECRETS["llm key"], llm_timeout_s=2,
        embedding_api_key=SECRETS["embedding key"], rerank_api_key=SECRETS["rerank key"],
        milvus_token=SECRETS["milvus token"], max_body_bytes=4096,
    ) as client:
        key = {"X-API-Key": SECRETS["api key"]}
        calls = [
            ("GET", "/healthz", None, {}),
            ("GET", "/readyz", None, {}),  # probes the LLM with its key
            ("GET", "/openapi.json", None, {}),
            ("GET", "/docs", None, {}),
            ("POST", URL, {"action": "add-entity", "standardName": "Acme", "type": "ORGANIZATION", "aliases": ["A"]}, key),
            ("POST", URL, {"action": "add-entity", "standardName": "Other", "type": "ORGANIZATION", "aliases": ["A"]}, key),
            ("POST", URL, {"action": "add-documents", "documents": [{"id": "d", "text": "Acme makes rockets."}]}, key),
            ("POST", URL, {"action": "add-documents", "documents": [{"id": "e", "text": "x"}]}, {}),
            ("POST", URL, {"action": "add-documents", "documents": [{"id": "e", "text": "x"}]}, {"X-API-Key": WRONG_KEY}),
            ("POST", URL, {"action": "delete-document", "id": "nope"}, {"Authorization": f"Bearer {SECRETS['api key']}"}),
            ("POST", URL, {"action": "query", "question": "What does Acme make?"}, {}),  # the LLM fails: degraded
            ("POST", URL, {"action": "query", "question": "Acme", "stream": True}, {}),
            ("POST", URL, {"action": "query", "question": ""}, {}),
            ("POST", URL, {"action": "query", "question": "q", "llmModel": "other"}, {}),
            ("POST", URL, {"action": "query", "question": "x" * 5000}, {}),
            ("POST", URL, {"action": "bogus"}, key),
            ("GET", "/nowhere", None, {}),
        ]
        for method, path, body, headers in calls:
            r = client.request(method, path, json=body, headers=headers)
            seen.append(f"{r.status_code} {dict(r.headers)} {r.text}")
        while (r := client.get(URL, params={"action": "entities"})).status_code != 429:
            seen.append(r.text)
        seen.append(f"{dict(r.headers)} {r.text}")
        statuses = {int(s.split(" ", 1)[0]) for s in seen if s[:3].isdigit()}
        assert {200, 400, 401, 404, 409, 413, 422} <= statuses  # the run did hit the errors it is about
        ready = client.get("/readyz").json()
        assert ready["checks"]["llm"]["configured"] is True and ready["checks"]["llm"]["ok"] is False
    logged = caplog.text + "\n".join(str(r.__dict__) for r in caplog.records)
    assert "unhandled error" not in caplog.text
    for name, secret in {**SECRETS, "wrong key": WRONG_KEY}.items():
        assert not [s for s in seen if secret in s], f"{name} in a response"
        assert secret not in logged, f"{name} in the logs"
