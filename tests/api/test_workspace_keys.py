"""Keys scoped to workspaces on the real app: each role on each REST surface (query, documents, upload, jobs,
entities, workspaces), 401 vs 403 vs 404, the key's own workspace by default, legacy keys, revocation, the
rate limit per key, /metrics, MCP over HTTP and /v1.

The app's own workspace registry and ``/api/workspaces`` routes, except that deleting keeps the workspace (the
guard's decision is under test here; deleting itself is tests/api/test_workspaces.py's).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import Request
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from app.api.security import Guard, GuardedApp
from app.main import create_app
from app.services.keys import KeyStore, Principal, keys_file
from app.workspaces import Workspaces
from tests.support.apps import URL, assert_openai_error, fast_resources, running_app, settings_for

LEGACY = "legacy-env-key-5c1f"
# name -> (role, workspace)
KEYS: dict[str, tuple[str, str | None]] = {
    "read_a": ("read", "alpha"), "write_a": ("write", "alpha"), "admin_a": ("admin", "alpha"),
    "read_b": ("read", "beta"), "write_b": ("write", "beta"), "admin_all": ("admin", None),
}
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


@dataclass
class Env:
    client: TestClient
    keys: dict[str, str]
    registry: Workspaces
    root: Path

    def headers(self, key: str | None, workspace: str | None = None) -> dict[str, str]:
        out = {} if key is None else {"X-API-Key": LEGACY if key == "legacy" else self.keys[key]}
        return out | ({"X-Workspace": workspace} if workspace is not None else {})

    def doc_ids(self, workspace: str) -> set[str]:
        ids: set[str] = self.registry.get(workspace).context.index.document_ids()
        return ids


def doc(doc_id: str, text: str) -> dict[str, Any]:
    return {"action": "add-documents", "documents": [{"id": doc_id, "title": doc_id, "text": text}]}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Env]:
    root = tmp_path_factory.mktemp("workspace-keys")
    store = KeyStore(keys_file(root))
    keys = {name: store.create(role, workspace, name)[0] for name, (role, workspace) in KEYS.items()}
    store.close()
    app = create_app(settings_for(root, api_keys=[LEGACY]), fast_resources)
    with TestClient(app) as client:
        registry: Workspaces = app.state.workspaces
        for name in ("alpha", "beta"):
            registry.create(name)

        def keep(name: str) -> dict[str, Any]:  # deleting is the registry's (tests/api/test_workspaces.py): here
            registry.get(name)  # the guard's decision is under test, and alpha must outlive it
            return {"success": True, "workspace": name, "deleted": {"documents": 0, "chunks": 0}}

        registry.delete = keep  # type: ignore[method-assign]
        e = Env(client, keys, registry, root)
        for ws, text in (("alpha", "Alpha Corp makes widgets in Hangzhou."),
                         ("beta", "Beta Corp makes gadgets in Suzhou.")):
            r = client.post(URL, json=doc("same-id", text), headers=e.headers("admin_all", ws))
            assert r.status_code == 200, r.text
        yield e


def upload(env: Env, key: str | None, workspace: str | None, name: str = "note.txt",
           form: dict[str, str] | None = None) -> Any:
    return env.client.post(f"{URL}/upload", files=[("files", (name, b"Gamma Corp sells tea in Ningbo.", "text/plain"))],
                           data=form or {}, headers=env.headers(key, workspace))


# surface -> (what it needs, how to send it on a workspace)
SURFACES: dict[str, tuple[str, Any]] = {
    "query": ("read", lambda e, k, w: e.client.post(URL, json={"action": "query", "question": "Alpha Corp"},
                                                     headers=e.headers(k, w))),
    "entities": ("read", lambda e, k, w: e.client.get(URL, params={"action": "entities"}, headers=e.headers(k, w))),
    "documents": ("read", lambda e, k, w: e.client.get(URL, params={"action": "documents"}, headers=e.headers(k, w))),
    "document": ("read", lambda e, k, w: e.client.get(URL, params={"action": "document", "id": "same-id"},
                                                       headers=e.headers(k, w))),
    "job": ("read", lambda e, k, w: e.client.get(URL, params={"action": "job", "id": "no-such-job"},
                                                  headers=e.headers(k, w))),
    "jobs": ("read", lambda e, k, w: e.client.get(URL, params={"action": "jobs"}, headers=e.headers(k, w))),
    "kg": ("read", lambda e, k, w: e.client.get(f"{URL}/kg/neighbourhood", params={"entity": "Alpha Corp"},
                                                 headers=e.headers(k, w))),
    "add-documents": ("write", lambda e, k, w: e.client.post(URL, json=doc(f"by-{k}", "Delta makes tea."),
                                                              headers=e.headers(k, w))),
    "delete-document": ("write", lambda e, k, w: e.client.post(URL, json={"action": "delete-document", "id": "none"},
                                                                headers=e.headers(k, w))),
    "add-entity": ("write", lambda e, k, w: e.client.post(URL, json={"action": "add-entity", "standardName": f"E {k}",
                                                                     "type": "ORGANIZATION"}, headers=e.headers(k, w))),
    "upload": ("write", lambda e, k, w: upload(e, k, w, f"{k}.txt")),
    "shared-entity": ("admin-all", lambda e, k, w: e.client.post(URL, json={
        "action": "add-entity", "standardName": "Shared Co", "type": "ORGANIZATION", "scope": "shared"},
        headers=e.headers(k, w))),
    "workspaces-list": ("read", lambda e, k, w: e.client.get("/api/workspaces", headers=e.headers(k, w))),
    "workspace-info": ("read", lambda e, k, w: e.client.get(f"/api/workspaces/{w}", headers=e.headers(k))),
    "workspace-export": ("admin", lambda e, k, w: e.client.get(f"/api/workspaces/{w}/export", headers=e.headers(k))),
    "workspace-delete": ("admin", lambda e, k, w: e.client.delete(f"/api/workspaces/{w}", headers=e.headers(k))),
    "workspace-create": ("admin-all", lambda e, k, w: e.client.post("/api/workspaces", json={"name": "new"},
                                                                    headers=e.headers(k))),
    "workspace-import": ("admin-all", lambda e, k, w: e.client.post("/api/workspaces/import", headers=e.headers(k))),
}
RANK = {"read": 0, "write": 1, "admin": 2}


def expected(key: str | None, need: str, workspace: str) -> int:
    """The status the design gives: 401 no key, 404 no rights on the workspace, 403 too low a role, else the
    route's own answer (any other status: 200 here, or its own 404/422)."""
    if key is None:
        return 401
    role, scope = ("admin", None) if key == "legacy" else KEYS[key]
    if need == "admin-all":
        return 0 if (role, scope) == ("admin", None) else 403
    if scope not in (None, workspace):
        return 404
    return 0 if RANK[role] >= RANK[need] else 403


@pytest.mark.parametrize("key", [None, *KEYS, "legacy"])
@pytest.mark.parametrize("surface", list(SURFACES))
def test_each_role_on_each_surface(env: Env, surface: str, key: str | None) -> None:
    need, send = SURFACES[surface]
    r = send(env, key, "alpha")
    want = expected(key, need, "alpha")
    body = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}  # export: a zip
    if want == 0:
        assert r.status_code < 500 and r.status_code not in (401, 403), r.text
        assert not (r.status_code == 404 and body["error"]["code"] == "workspace_not_found"), r.text
        return
    assert r.status_code == want, r.text
    code = {401: "unauthorized", 403: "forbidden", 404: "workspace_not_found"}[want]
    assert body["success"] is False and body["error"]["code"] == code, r.text
    if want == 404:
        # the body of any other name, existing or not: a key for beta learns nothing of alpha, only its own scope
        assert body["error"] == scoped_not_found("alpha", "beta")
        assert r.headers.get("content-length") == str(len(r.content))


def scoped_not_found(asked: str, own: str) -> dict[str, Any]:
    """The 404 error a key for workspace ``own`` gets for any other name (before: "no workspace 'default'", and the
    CLI's hint told a read key to create it)."""
    return {"code": "workspace_not_found",
            "message": f"no workspace {asked!r} for this key: it is for workspace {own!r} only (name {own!r}, or "
                       "no workspace at all)",
            "details": {"workspace": asked, "keyWorkspace": own}}


def test_another_workspace_and_a_missing_one_look_the_same(env: Env) -> None:
    for surface in ("document", "job", "jobs", "documents", "add-documents", "upload", "workspace-info"):
        send = SURFACES[surface][1]
        exists = send(env, "read_b", "alpha").json()
        missing = send(env, "read_b", "nowhere").json()  # the guard refuses both: a key of beta has no other
        registry = send(env, "admin_all", "nowhere").json()  # an admin of every workspace: the registry answers
        assert exists["error"]["code"] == missing["error"]["code"] == registry["error"]["code"] == "workspace_not_found"
        assert str(exists).replace("alpha", "X") == str(missing).replace("nowhere", "X")
        assert exists["error"] == scoped_not_found("alpha", "beta")
        assert registry["error"]["message"] == "no workspace 'nowhere'"


def test_a_mistyped_workspace_is_named_only_to_a_key_that_sees_every_workspace(env: Env) -> None:
    """``alpah`` for ``alpha``: an admin of every workspace is told the one meant; a key of beta gets the body of
    any missing workspace (a suggestion would tell it that alpha exists)."""
    send = SURFACES["documents"][1]
    admin = send(env, "admin_all", "alpah").json()["error"]
    assert admin["details"] == {"workspace": "alpah", "suggestion": "alpha"} and "did you mean 'alpha'?" in admin["message"]
    scoped = send(env, "read_b", "alpah").json()["error"]
    assert scoped == scoped_not_found("alpah", "beta")


def test_a_scoped_key_acts_on_its_own_workspace_when_none_is_named(env: Env) -> None:
    r = env.client.post(URL, json=doc("own-ws", "Omega Corp makes cars."), headers=env.headers("write_a"))
    assert r.status_code == 200, r.text
    assert "own-ws" in env.doc_ids("alpha") and "own-ws" not in env.doc_ids("default") | env.doc_ids("beta")
    listed = env.client.get(URL, params={"action": "documents", "limit": 500}, headers=env.headers("read_a")).json()
    assert {d["id"] for d in listed["documents"]} == env.doc_ids("alpha")
    # an admin of every workspace names none: the default one
    r = env.client.post(URL, json=doc("admin-default", "Sigma Corp."), headers=env.headers("admin_all"))
    assert r.status_code == 200 and "admin-default" in env.doc_ids("default")
    def listed(key: str) -> list[str]:
        return [w["name"] for w in env.client.get("/api/workspaces", headers=env.headers(key)).json()["workspaces"]]

    assert listed("read_a") == ["alpha"]
    assert listed("admin_all")[:3] == ["default", "alpha", "beta"]  # and "new", once the create surface ran


def test_the_same_document_id_reads_each_workspaces_own_text(env: Env) -> None:
    texts = {}
    for key in ("read_a", "read_b"):
        body = env.client.get(URL, params={"action": "document", "id": "same-id"}, headers=env.headers(key)).json()
        texts[key] = " ".join(c["text"] for c in body["chunks"])
    assert "Alpha" in texts["read_a"] and "Beta" not in texts["read_a"]
    assert "Beta" in texts["read_b"] and "Alpha" not in texts["read_b"]


def test_no_write_reaches_a_workspace_the_key_may_not_use(env: Env) -> None:
    before = env.doc_ids("beta")
    for send in (lambda: env.client.post(URL, json=doc("leak", "x y z"), headers=env.headers("write_a", "beta")),
                 lambda: env.client.post(URL, json={**doc("leak", "x y z"), "workspace": "beta"},
                                         headers=env.headers("write_a")),
                 lambda: env.client.post(URL, params={"workspace": "beta"}, json=doc("leak", "x y z"),
                                         headers=env.headers("write_a")),
                 lambda: upload(env, "write_a", None, "leak.txt", {"workspace": "beta"})):
        r = send()
        assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found", r.text
    assert env.doc_ids("beta") == before


def test_a_request_naming_two_workspaces_is_refused(env: Env) -> None:
    r = env.client.post(URL, json={**doc("two", "t"), "workspace": "alpha"}, headers=env.headers("admin_all", "beta"))
    assert r.status_code == 422 and r.json()["error"]["code"] == "conflicting_workspace"
    r = upload(env, "admin_all", "alpha", "two.txt", {"workspace": "beta"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "conflicting_workspace"
    assert "two" not in env.doc_ids("alpha") | env.doc_ids("beta")


def test_a_job_is_found_in_its_own_workspace_only(env: Env) -> None:
    r = upload(env, "write_a", None, "job.txt")
    assert r.status_code == 202, r.text
    job = r.json()["jobId"]
    own = env.client.get(URL, params={"action": "job", "id": job}, headers=env.headers("read_a"))
    assert own.status_code == 200 and own.json()["job"]["id"] == job
    other = env.client.get(URL, params={"action": "job", "id": job}, headers=env.headers("read_b"))
    assert other.status_code == 404 and other.json()["error"]["code"] == "job_not_found"  # beta has no such job
    named = env.client.get(URL, params={"action": "job", "id": job}, headers=env.headers("read_b", "alpha"))
    assert named.status_code == 404 and named.json()["error"]["code"] == "workspace_not_found"


def test_a_key_created_while_serving_works_at_once_and_a_revoked_one_stops(env: Env) -> None:
    store = KeyStore(keys_file(env.root))
    try:
        key, record = store.create("read", "beta", "late")
        ask = {"action": "query", "question": "Beta Corp"}
        assert env.client.post(URL, json=ask, headers={"X-API-Key": key}).status_code == 200
        store.revoke(record.id)
        r = env.client.post(URL, json=ask, headers={"X-API-Key": key})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert r.headers["www-authenticate"] == "Bearer"
        assert store.get(record.id).last_used is not None  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_stored_key_works_as_bearer_too_and_a_forged_one_is_401(env: Env) -> None:
    ask = {"action": "query", "question": "Alpha"}
    assert env.client.post(URL, json=ask, headers={"Authorization": f"Bearer {env.keys['read_a']}"}).status_code == 200
    forged = env.keys["admin_all"][:17] + env.keys["read_a"][17:]  # admin's id, another key's secret
    r = env.client.post(URL, json=ask, headers={"X-API-Key": forged})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_mcp_over_http_takes_its_workspace_from_the_connection(env: Env) -> None:
    post = env.client.post
    mcp = "http://127.0.0.1:8000/mcp"  # the SDK's DNS-rebinding protection accepts loopback Host headers only
    r = post(mcp, json=INITIALIZE, headers=MCP_HEADERS)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    for key in ("read_a", "write_a", "admin_all", "legacy"):  # any valid key; the tools check their own action
        ok = post(mcp, json=INITIALIZE, headers={**MCP_HEADERS, **env.headers(key, "alpha")})
        assert ok.status_code == 200, (key, ok.text)
    refused = post(mcp, json=INITIALIZE, headers={**MCP_HEADERS, **env.headers("read_b", "alpha")})
    assert refused.status_code == 404 and refused.json()["error"] == scoped_not_found("alpha", "beta")
    refused = post(f"{mcp}?workspace=alpha", json=INITIALIZE, headers={**MCP_HEADERS, **env.headers("read_b")})
    assert refused.status_code == 404


async def test_the_guarded_app_hands_the_principal_to_what_it_wraps(tmp_path: Path) -> None:
    """What an MCP tool reads (``ctx.request_context.request.state.principal``): the principal the guard found."""
    store = KeyStore(keys_file(tmp_path))
    key, record = store.create("write", "alpha")
    store.close()
    seen: list[Principal] = []

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        seen.append(Request(scope, receive).state.principal)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    guarded = GuardedApp(inner, Guard(settings_for(tmp_path)).of_kind("key"))
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/mcp", "query_string": b"", "client": ("127.0.0.1", 1),
             "headers": [(b"x-api-key", key.encode())]}
    await guarded(scope, receive, send)
    assert sent[0]["status"] == 204 and seen == [Principal(record.id, "write", "alpha")]


def test_v1_takes_the_workspace_from_the_model_name(env: Env) -> None:
    chat = {"messages": [{"role": "user", "content": "Alpha Corp?"}]}
    r = env.client.post("/v1/chat/completions", json={**chat, "model": "aer:alpha"}, headers=env.headers("read_b"))
    body = assert_openai_error(r, 404, "workspace_not_found")
    assert "alpha" in body["error"]["message"]
    r = env.client.post("/v1/chat/completions", json={**chat, "model": "aer-extractive"},
                        headers=env.headers("read_b", "alpha"))
    assert_openai_error(r, 404, "workspace_not_found")
    assert_openai_error(env.client.get("/v1/models", headers=env.headers("read_b", "alpha")), 404,
                        "workspace_not_found")
    # /v1/models lists the workspaces the key may use, and no other
    models = {m["id"] for m in env.client.get("/v1/models", headers=env.headers("read_b")).json()["data"]}
    assert "aer:beta" in models and not {"aer:alpha", "aer:default"} & models
    models = {m["id"] for m in env.client.get("/v1/models", headers=env.headers("admin_all")).json()["data"]}
    assert {"aer:alpha", "aer:beta", "aer:default"} <= models
    assert_openai_error(env.client.get("/v1/models"), 401, "unauthorized")
    ok = env.client.post("/v1/chat/completions", json={**chat, "model": "aer-extractive"}, headers=env.headers("read_a"))
    assert ok.status_code == 200, ok.text


def test_stored_keys_alone_close_the_service_and_opened_queries_stay_queries(tmp_path: Path) -> None:
    store = KeyStore(keys_file(tmp_path))
    key, _ = store.create("read", "default")
    store.close()
    ask = {"action": "query", "question": "q"}
    with running_app(tmp_path) as client:  # no AER_API_KEYS: keys.db alone closes it
        assert client.post(URL, json=ask).status_code == 401
        assert client.post(URL, json=ask, headers={"X-API-Key": key}).status_code == 200
        assert client.get(f"{URL}/info", headers={"X-API-Key": key}).json()["auth"] == {"apiKeys": True,
                                                                                      "readsNeedKey": True}
        r = client.post(URL, json=doc("d", "text"), headers={"X-API-Key": key})
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    with running_app(tmp_path, require_key_for_queries=False) as client:
        assert client.post(URL, json=ask).status_code == 200
        assert client.get(URL, params={"action": "entities"}).status_code == 200
        for r in (client.get(URL, params={"action": "documents"}), client.post(URL, json=doc("d", "text")),
                  client.get(URL, params={"action": "document", "id": "d"})):
            assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_the_rate_limit_counts_per_stored_key(tmp_path: Path) -> None:
    store = KeyStore(keys_file(tmp_path))
    first, second = store.create("read", "default")[0], store.create("read", "default")[0]
    store.close()
    with running_app(tmp_path, rate_limit_per_minute=2) as client:
        for _ in range(2):
            assert client.get(URL, params={"action": "entities"}, headers={"X-API-Key": first}).status_code == 200
        assert client.get(URL, params={"action": "entities"}, headers={"X-API-Key": first}).status_code == 429
        assert client.get(URL, params={"action": "entities"}, headers={"X-API-Key": second}).status_code == 200


def test_metrics_need_an_admin_key_for_every_workspace(tmp_path: Path) -> None:
    store = KeyStore(keys_file(tmp_path))
    scoped, everywhere = store.create("admin", "alpha")[0], store.create("admin", None)[0]
    store.close()
    with running_app(tmp_path, api_keys=[LEGACY], metrics_require_key=True) as client:
        assert client.get("/metrics").status_code == 401
        r = client.get("/metrics", headers={"X-API-Key": scoped})  # its counts cover every workspace
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        assert client.get("/metrics", headers={"X-API-Key": everywhere}).status_code == 200
        assert client.get("/metrics", headers={"X-API-Key": LEGACY}).status_code == 200


def tool_call(client: TestClient, key: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One stateless JSON-RPC ``tools/call`` over /mcp; its result."""
    r = client.post("http://127.0.0.1:8000/mcp", headers={**MCP_HEADERS, "X-API-Key": key},
                    json={"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}})
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()["result"]
    return result


def test_each_mcp_tool_checks_the_keys_role_on_its_workspace(tmp_path: Path) -> None:
    store = KeyStore(keys_file(tmp_path))
    reader, writer, other = (store.create(role, ws)[0] for role, ws in (("read", "default"), ("write", "default"),
                                                                       ("write", "alpha")))
    store.close()
    entity = {"standard_name": "Tool Co", "type": "ORGANIZATION"}
    with running_app(tmp_path) as client:
        for tool, arguments in (("query", {"question": "Tool Co"}), ("list_entities", {}), ("list_documents", {})):
            assert not tool_call(client, reader, tool, arguments).get("isError"), tool
        for tool, arguments in (("add_entity", entity), ("delete_document", {"id": "x"}),
                                ("add_documents", {"documents": [{"id": "d", "text": "Tool Co."}]})):
            refused = tool_call(client, reader, tool, arguments)
            assert refused["isError"] and refused["content"][0]["text"].startswith("forbidden: "), (tool, refused)
        assert not tool_call(client, writer, "add_entity", entity).get("isError")
        # a key for another workspace: the default workspace does not exist for it
        refused = tool_call(client, other, "list_entities", {"workspace": "default"})
        assert refused["isError"] and refused["content"][0]["text"] == (
            "workspace_not_found: " + scoped_not_found("default", "alpha")["message"])
        # naming none, it works in its own workspace (alpha, which this service does not have)
        own = tool_call(client, other, "list_entities", {})
        assert own["isError"] and own["content"][0]["text"] == "workspace_not_found: no workspace 'alpha'"
        names = [e.standard_name for e in client.app.state.resources.context.entities.list(None, 0, 100)]  # type: ignore[attr-defined]
        assert names == ["Tool Co"]


def test_a_browser_may_send_the_workspace_header_cross_origin(tmp_path: Path) -> None:
    with running_app(tmp_path, cors_origins=["https://app.example"]) as client:
        r = client.options(URL, headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                                         "Access-Control-Request-Headers": "content-type,x-api-key,x-workspace"})
        assert r.status_code == 200 and "x-workspace" in r.headers["access-control-allow-headers"].lower()


def test_the_start_up_log_counts_the_workspace_keys(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = KeyStore(keys_file(tmp_path))
    key = store.create("read", "alpha")[0]
    store.revoke(store.create("write", "alpha")[1].id)
    store.close()
    with caplog.at_level(logging.INFO, logger="uvicorn.error"), running_app(tmp_path):
        pass
    line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("access: "))
    assert "0 API key(s) and 1 workspace key(s) of keys.db" in line and key not in caplog.text


def test_keys_over_the_api_need_an_admin_of_every_workspace(env: Env) -> None:
    keys_url = f"{URL}/keys"
    for key in ("read_a", "write_a", "admin_a", "read_b"):
        for r in (env.client.get(keys_url, headers=env.headers(key)),
                  env.client.post(keys_url, json={"role": "admin"}, headers=env.headers(key)),
                  env.client.delete(f"{keys_url}/{env.keys['read_a'][4:16]}", headers=env.headers(key))):
            assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden", (key, r.text)
    assert env.client.get(keys_url).status_code == 401
    created = env.client.post(keys_url, json={"role": "read", "workspace": "beta", "label": "api"},
                              headers=env.headers("admin_all"))
    assert created.status_code == 201, created.text
    body = created.json()
    new_key, new_id = body["key"], body["id"]
    assert body["role"] == "read" and body["workspace"] == "beta" and new_key.startswith(f"aer_{new_id}_")
    ask = {"action": "query", "question": "Beta Corp"}
    assert env.client.post(URL, json=ask, headers={"X-API-Key": new_key}).status_code == 200
    listed = env.client.get(keys_url, headers=env.headers("legacy"))
    assert new_id in {k["id"] for k in listed.json()["keys"]} and new_key[17:] not in listed.text
    assert all(secret[17:] not in listed.text for secret in env.keys.values())
    for bad in ({"role": "read"}, {"role": "owner", "workspace": "beta"}, {"role": "read", "workspace": "Beta"},
                {"role": "read", "workspace": "beta", "extra": 1}):
        r = env.client.post(keys_url, json=bad, headers=env.headers("admin_all"))
        assert r.status_code == 422, (bad, r.text)
    revoked = env.client.delete(f"{keys_url}/{new_id}", headers=env.headers("admin_all"))
    assert revoked.status_code == 200 and revoked.json()["revokedAt"].endswith("+00:00")
    assert datetime.fromisoformat(revoked.json()["revokedAt"]) >= datetime.fromisoformat(revoked.json()["createdAt"])
    assert env.client.post(URL, json=ask, headers={"X-API-Key": new_key}).status_code == 401
    missing = env.client.delete(f"{keys_url}/000000000000", headers=env.headers("admin_all"))
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "key_not_found"


def test_an_open_service_lets_no_client_create_the_first_key(tmp_path: Path) -> None:
    with running_app(tmp_path) as client:
        r = client.post(f"{URL}/keys", json={"role": "admin"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        assert client.get(f"{URL}/keys").status_code == 403
        assert client.post(URL, json={"action": "query", "question": "q"}).status_code == 200  # still open
    assert not keys_file(tmp_path).exists()


@pytest.mark.parametrize("body", [{"action": ["query"]}, {"action": {"a": 1}}, {"scope": ["shared"]}, [1, 2],
                                  {"action": "query", "question": "q", "workspace": ["alpha"]}])
def test_a_malformed_body_is_a_4xx_for_every_key(env: Env, body: Any) -> None:
    for key in ("read_a", "legacy", None):
        r = env.client.post(URL, json=body, headers=env.headers(key))
        assert 400 <= r.status_code < 500 and r.json()["success"] is False, (key, r.text)
