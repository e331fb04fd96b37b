"""API keys, rate limits and CORS on the real app (fake embedder, real stores)."""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fakeredis
import httpx
import pytest
import redis.asyncio
from fakeredis.aioredis import FakeAsyncRedisConnection
from fastapi.testclient import TestClient
from limits.aio.storage import MemoryStorage, RedisStorage
from pydantic import SecretStr

from app.api import security
from app.api.security import KeyRing, RateLimit, RateLimited
from app.client import RemoteClient, RemoteError
from app.settings import Settings
from graphs.stores.base import StoreUnavailable
from tests.support.apps import URL, document_ids, entity_names, running_app
from tests.support.servers import free_port

KEY, OTHER_KEY = "k-3f9c2a7e51d84b06", "k-second-7a1d0c"
ENTITY = {"action": "add-entity", "standardName": "Zed Corp", "type": "ORGANIZATION", "aliases": ["Zed"]}
DOC = {"id": "doc-1", "title": "Zed", "text": "Zed Corp makes widgets in Shanghai."}
WRITES = [
    ENTITY,
    {"action": "add-documents", "documents": [{**DOC, "id": "doc-2"}]},
    {"action": "delete-document", "id": "doc-1"},
    {"action": "fly"},  # not a known read: treated as a write, so it needs a key before anything else
]


def assert_error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"]
    return body


@pytest.fixture(scope="module")
def keyed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("keyed"), api_keys=[KEY, OTHER_KEY]) as client:
        assert client.post(URL, json={"action": "add-documents", "documents": [DOC]},
                           headers={"X-API-Key": KEY}).status_code == 200
        yield client


@pytest.mark.parametrize("payload", WRITES, ids=lambda p: p["action"])
@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, {"X-API-Key": KEY[:-1]}, {"X-API-Key": KEY + "x"},
                                     {"Authorization": f"Bearer {KEY[:-1]}"}, {"Authorization": f"Basic {KEY}"}],
                         ids=["none", "wrong", "prefix", "suffix", "bearer-prefix", "basic"])
def test_writes_without_a_valid_key_are_401_and_write_nothing(keyed: TestClient, payload: dict[str, Any],
                                                             headers: dict[str, str]) -> None:
    before = (entity_names(keyed), document_ids(keyed))
    r = keyed.post(URL, json=payload, headers=headers)
    assert_error(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"
    assert (entity_names(keyed), document_ids(keyed)) == before
    assert "doc-1" in before[1]


@pytest.mark.parametrize("headers", [{"X-API-Key": KEY}, {"Authorization": f"Bearer {KEY}"},
                                     {"authorization": f"bearer {OTHER_KEY}"}],
                         ids=["x-api-key", "bearer", "second-key-lowercase-scheme"])
def test_a_valid_key_in_either_header_allows_writes(keyed: TestClient, headers: dict[str, str]) -> None:
    r = keyed.post(URL, json={"action": "add-documents", "documents": [{**DOC, "id": "doc-ok"}]}, headers=headers)
    assert r.status_code == 200, r.text
    assert "doc-ok" in document_ids(keyed)
    assert keyed.post(URL, json={"action": "delete-document", "id": "doc-ok"}, headers=headers).status_code == 200
    assert "doc-ok" not in document_ids(keyed)


def test_with_keys_queries_need_one_by_default_and_a_wrong_key_is_refused(keyed: TestClient) -> None:
    assert_error(keyed.post(URL, json={"action": "query", "question": "Zed Corp"}), 401, "unauthorized")
    assert_error(keyed.get(URL, params={"action": "entities"}), 401, "unauthorized")
    assert keyed.post(URL, json={"action": "query", "question": "Zed Corp"}, headers={"X-API-Key": KEY}).status_code == 200
    assert_error(keyed.post(URL, json={"action": "query", "question": "Zed"}, headers={"X-API-Key": "nope"}),
                 401, "unauthorized")


def test_opened_queries_leave_documents_closed(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys=[KEY], require_key_for_queries=False) as client:
        assert client.post(URL, json={"action": "add-documents", "documents": [DOC]},
                           headers={"X-API-Key": KEY}).status_code == 200
        assert client.post(URL, json={"action": "query", "question": "Zed Corp"}).status_code == 200
        assert client.get(URL, params={"action": "entities"}).status_code == 200
        for params in ({"action": "document", "id": "doc-1"}, {"action": "documents"}, {"action": "job", "id": "x"},
                       {"action": "jobs"}, [("action", "entities"), ("action", "document"), ("id", "doc-1")]):
            assert_error(client.get(URL, params=params), 401, "unauthorized")
        assert client.get(URL, params={"action": "document", "id": "doc-1"}, headers={"X-API-Key": KEY}).json()[
            "success"] is True


def test_health_and_docs_need_no_key(keyed: TestClient) -> None:
    assert keyed.get("/healthz").status_code == 200
    assert keyed.get("/readyz").status_code == 200
    spec = keyed.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert schemes["APIKeyHeader"] == {"type": "apiKey", "in": "header", "name": "X-API-Key",
                                       "description": schemes["APIKeyHeader"]["description"]}
    assert schemes["HTTPBearer"]["scheme"] == "bearer"
    responses = spec["paths"][URL]["post"]["responses"]
    assert responses["401"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorResponse"}


def test_the_cli_remote_client_sends_its_key(keyed: TestClient) -> None:
    def forward(request: httpx.Request) -> httpx.Response:
        r = keyed.request(request.method, request.url.path, params=request.url.params, content=request.content,
                          headers=request.headers)
        return httpx.Response(r.status_code, headers=r.headers, content=r.content)

    with RemoteClient("http://aer.test", transport=httpx.MockTransport(forward)) as anonymous, pytest.raises(
            RemoteError) as refused:
        anonymous.add_entity({"standardName": "Remote", "type": "OTHER"})
    assert (refused.value.status, refused.value.code) == (401, "unauthorized")
    with RemoteClient("http://aer.test", transport=httpx.MockTransport(forward), api_key=KEY) as client:
        assert client.add_entity({"standardName": "Remote", "type": "OTHER"})["success"] is True
    assert "Remote" in entity_names(keyed)


def test_queries_need_a_key_when_configured(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys=[KEY], require_key_for_queries=True) as client:
        assert_error(client.post(URL, json={"action": "query", "question": "q"}), 401, "unauthorized")
        assert_error(client.get(URL, params={"action": "entities"}), 401, "unauthorized")
        assert client.post(URL, json={"action": "query", "question": "q"}, headers={"X-API-Key": KEY}).status_code == 200
        assert client.get(URL, params={"action": "entities"}, headers={"Authorization": f"Bearer {KEY}"}).status_code == 200
        assert client.get("/healthz").status_code == 200 and client.get("/readyz").status_code == 200


def test_no_keys_means_open(tmp_path: Path) -> None:
    with running_app(tmp_path) as client:
        assert client.post(URL, json=ENTITY).status_code == 200
        assert client.post(URL, json={**ENTITY, "standardName": "Other", "aliases": []}, headers={"X-API-Key": "anything"}).status_code == 200
        assert entity_names(client) == ["Other", "Zed Corp"]


def test_keys_are_compared_with_compare_digest_against_every_configured_key(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def recording(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(security.hmac, "compare_digest", recording)
    ring = KeyRing([SecretStr("first"), SecretStr("second"), SecretStr("")])
    assert ring.identify("first") == "key:0"  # matched first, yet every key was compared
    assert ring.identify("second") == "key:1" and ring.identify("third") is None
    assert len(calls) == 6 and all(len(a) == len(b) == 32 for a, b in calls)
    assert not KeyRing([]).enabled and not KeyRing([SecretStr("")]).enabled


def test_api_keys_and_cors_origins_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AER_API_KEYS", f" {KEY}, {OTHER_KEY} ,")
    monkeypatch.setenv("AER_REQUIRE_KEY_FOR_QUERIES", "true")
    monkeypatch.setenv("AER_RATE_LIMIT_PER_MINUTE", "30")
    monkeypatch.setenv("AER_CORS_ORIGINS", '["https://app.example"]')
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert [k.get_secret_value() for k in settings.api_keys] == [KEY, OTHER_KEY]
    assert settings.require_key_for_queries and settings.rate_limit_per_minute == 30
    assert settings.cors_origins == ["https://app.example"]
    assert KEY not in repr(settings) and KEY not in str(settings.model_dump())


# --- rate limits ---------------------------------------------------------------------------------------------


def test_over_the_limit_is_429_with_retry_after_per_key_and_per_address(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys=[KEY, OTHER_KEY], rate_limit_per_minute=3,
                     require_key_for_queries=False) as client:
        for _ in range(3):
            assert client.get(URL, params={"action": "entities"}, headers={"X-API-Key": KEY}).status_code == 200
        r = client.post(URL, json={"action": "add-documents", "documents": [DOC]}, headers={"X-API-Key": KEY})
        body = assert_error(r, 429, "rate_limited")
        retry = int(r.headers["retry-after"])
        assert 1 <= retry <= 60 and body["error"]["details"] == {"limitPerMinute": 3, "retryAfterSeconds": retry}
        assert document_ids(client) == set()  # the limited write did nothing
        # Another key, and clients without one (counted by address), have their own budgets.
        assert client.get(URL, params={"action": "entities"}, headers={"X-API-Key": OTHER_KEY}).status_code == 200
        for _ in range(3):
            assert client.get(URL, params={"action": "entities"}).status_code == 200
        assert_error(client.get(URL, params={"action": "entities"}), 429, "rate_limited")
        # Wrong keys count against the address: guessing is limited too. Health is never limited.
        assert_error(client.get(URL, params={"action": "entities"}, headers={"X-API-Key": "guess"}), 429,
                     "rate_limited")
        assert client.get("/healthz").status_code == 200


def test_no_rate_limit_by_default(tmp_path: Path) -> None:
    with running_app(tmp_path) as client:
        assert all(client.get(URL, params={"action": "entities"}).status_code == 200 for _ in range(40))


async def test_the_window_moves_and_retry_after_says_when(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]

    class Clock:
        @staticmethod
        def time() -> float:
            return now[0]

    import limits.aio.storage.memory

    monkeypatch.setattr(limits.aio.storage.memory, "time", Clock)
    monkeypatch.setattr(security, "time", Clock)
    limit = RateLimit(2)
    await limit.hit("a")
    now[0] += 20
    await limit.hit("a")
    now[0] += 10
    with pytest.raises(RateLimited) as refused:
        await limit.hit("a")
    assert refused.value.headers == {"Retry-After": "30"}  # the first hit leaves the window at 1060
    await limit.hit("b")
    now[0] += 30.5
    await limit.hit("a")  # one slot came free
    with pytest.raises(RateLimited) as again:
        await limit.hit("a")
    assert again.value.headers == {"Retry-After": "20"}


def shared_redis(server: fakeredis.FakeServer) -> RedisStorage:
    """The limit's Redis storage as ``rate_limit_storage`` builds it, over an in-memory Redis (Lua included)."""
    pool = redis.asyncio.ConnectionPool(connection_class=FakeAsyncRedisConnection, server=server)
    return RedisStorage("async+redis://shared:6379/0", implementation="redispy", wrap_exceptions=True,
                        connection_pool=pool)


def test_with_redis_every_worker_counts_against_one_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = fakeredis.FakeServer()
    monkeypatch.setattr(security, "rate_limit_storage", lambda _settings: shared_redis(server))
    with running_app(tmp_path / "w1", rate_limit_per_minute=3) as one, \
            running_app(tmp_path / "w2", rate_limit_per_minute=3) as two:
        for worker in (one, two, one):
            assert worker.get(URL, params={"action": "entities"}).status_code == 200
        assert_error(two.get(URL, params={"action": "entities"}), 429, "rate_limited")
        assert_error(one.get(URL, params={"action": "entities"}), 429, "rate_limited")


async def test_a_shared_store_that_cannot_count_is_a_503_not_an_open_door() -> None:
    dead = Settings(data_dir=Path("unused"), redis_url=f"redis://127.0.0.1:{free_port()}/0",
                    _env_file=None)  # type: ignore[call-arg]
    storage = security.rate_limit_storage(dead)
    assert isinstance(storage, RedisStorage)
    with pytest.raises(StoreUnavailable) as down:
        await RateLimit(3, storage).hit("a")
    assert down.value.store == "redis" and "rate-limit counts" in str(down.value)


def test_rate_limit_counts_stay_in_memory_without_redis(tmp_path: Path) -> None:
    assert isinstance(security.rate_limit_storage(Settings(data_dir=tmp_path, _env_file=None)),  # type: ignore[call-arg]
                      MemoryStorage)


# --- CORS ----------------------------------------------------------------------------------------------------

PREFLIGHT = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-api-key"}


def test_cors_is_closed_by_default(tmp_path: Path) -> None:
    with running_app(tmp_path) as client:
        r = client.options(URL, headers={"Origin": "https://evil.example", **PREFLIGHT})
        assert "access-control-allow-origin" not in r.headers
        r = client.get(URL, params={"action": "entities"}, headers={"Origin": "https://evil.example"})
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_cors_allows_only_listed_origins(tmp_path: Path) -> None:
    with running_app(tmp_path, cors_origins=["https://app.example"], max_body_bytes=2048,
                     rate_limit_per_minute=2) as client:
        ok = client.options(URL, headers={"Origin": "https://app.example", **PREFLIGHT})
        assert ok.status_code == 200 and ok.headers["access-control-allow-origin"] == "https://app.example"
        assert "x-api-key" in ok.headers["access-control-allow-headers"].lower()
        bad = client.options(URL, headers={"Origin": "https://evil.example", **PREFLIGHT})
        assert "access-control-allow-origin" not in bad.headers
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "cors_rejected"
        assert bad.json()["error"]["details"] == {"refused": ["origin"]}
        bad = client.options(URL, headers={"Origin": "https://app.example", **PREFLIGHT,
                                           "Access-Control-Request-Method": "DELETE"})
        assert bad.status_code == 400 and bad.json()["error"]["details"] == {"refused": ["method"]}
        assert bad.headers["access-control-allow-origin"] == "https://app.example"
        simple = client.get(URL, params={"action": "entities"}, headers={"Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in simple.headers
        # Errors raised before the app (413) and by the guard (429) carry the headers a browser needs.
        big = client.post(URL, json={"action": "query", "question": "x" * 4000}, headers={"Origin": "https://app.example"})
        assert big.status_code == 413 and big.headers["access-control-allow-origin"] == "https://app.example"
        client.get(URL, params={"action": "entities"}, headers={"Origin": "https://app.example"})
        limited = client.get(URL, params={"action": "entities"}, headers={"Origin": "https://app.example"})
        assert limited.status_code == 429 and limited.headers["access-control-allow-origin"] == "https://app.example"
        assert "retry-after" in limited.headers["access-control-expose-headers"].lower()


def test_the_start_up_log_states_who_needs_a_key(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert Settings(_env_file=None).require_key_for_queries is True  # type: ignore[call-arg]
    with caplog.at_level(logging.INFO, logger="uvicorn.error"), running_app(tmp_path, api_keys=[KEY]):
        pass
    line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("access: "))
    assert "reading documents" in line and "AER_REQUIRE_KEY_FOR_QUERIES=true, the default" in line
    assert KEY not in caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="uvicorn.error"), running_app(tmp_path / "open"):
        pass
    assert any("every endpoint is open" in r.getMessage() for r in caplog.records)
