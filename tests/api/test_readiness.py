"""``/readyz`` per workspace: every open workspace's stores count, a closed one is never opened by the probe,
``?workspace=`` probes one, and a workspace is named only to a caller who may read it."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.services.keys import KeyStore, keys_file
from app.workspaces import CREATED_MARKER, Workspaces
from graphs.stores.base import StoreUnavailable
from tests.support.apps import fast_resources, running_app, settings_for


def down() -> None:
    raise StoreUnavailable("milvus", "connection refused at /secret/path")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path) as c:
        registry: Workspaces = c.app.state.workspaces  # type: ignore[attr-defined]
        for name in ("north", "south"):
            registry.create(name)  # created and open
        asleep = registry.folder("asleep")  # made by an earlier process, not opened by this one
        asleep.mkdir(parents=True)
        (asleep / CREATED_MARKER).write_text("0\n", encoding="utf-8")
        assert registry.exists("asleep") and "asleep" not in registry.opened()
        yield c


def test_every_open_workspace_counts_and_a_closed_one_stays_closed(client: TestClient,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    registry: Workspaces = client.app.state.workspaces  # type: ignore[attr-defined]
    r = client.get("/readyz")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["ready"] is True and body["checks"]["milvus"]["ok"] is True
    assert body["workspaces"]["open"] == 3 and body["workspaces"]["notReady"] == 0
    assert set(body["workspaces"]["byName"]) == {"default", "north", "south"}
    assert "asleep" not in registry.opened()  # the probe opened nothing

    monkeypatch.setattr(registry.get("south").index, "ping", down)  # one open workspace's Milvus is down
    r = client.get("/readyz")
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["ready"] is False and body["checks"]["milvus"]["ok"] is False
    assert "/secret/path" not in r.text and "milvus" in body["checks"]["milvus"]["error"]
    assert body["workspaces"]["notReady"] == 1
    assert body["workspaces"]["byName"]["south"]["ready"] is False
    assert body["workspaces"]["byName"]["north"]["ready"] is True
    assert "asleep" not in registry.opened()

    # one workspace: the healthy one is ready though another is not
    north = client.get("/readyz", params={"workspace": "north"})
    assert north.status_code == 200 and set(north.json()["workspaces"]["byName"]) == {"north"}
    south = client.get("/readyz", headers={"X-Workspace": "south"})
    assert south.status_code == 503 and south.json()["checks"]["milvus"]["ok"] is False
    # a closed workspace: reported closed, not opened
    asleep = client.get("/readyz", params={"workspace": "asleep"})
    assert asleep.status_code == 200, asleep.text
    assert asleep.json()["workspaces"]["byName"]["asleep"]["open"] is False
    assert "asleep" not in registry.opened()


def test_unknown_or_bad_workspace(client: TestClient) -> None:
    r = client.get("/readyz", params={"workspace": "nowhere"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"
    r = client.get("/readyz", params={"workspace": "Bad Name"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_workspace"


def test_names_only_to_a_caller_who_may_read_them(tmp_path: Path) -> None:
    store = KeyStore(keys_file(tmp_path))
    alpha_key = store.create("read", "alpha", "reader-a")[0]
    admin_key = store.create("admin", None, "admin")[0]
    store.close()
    app = create_app(settings_for(tmp_path), fast_resources)
    with TestClient(app) as client:
        registry: Workspaces = app.state.workspaces
        for name in ("alpha", "beta"):
            registry.create(name)
        anonymous = client.get("/readyz")  # open: a probe needs no key, and learns no workspace's name
        assert anonymous.status_code == 200 and anonymous.json()["workspaces"]["open"] == 3
        assert "byName" not in anonymous.json()["workspaces"] and "beta" not in anonymous.text
        wrong = client.get("/readyz", headers={"X-API-Key": "not-a-key"})
        assert wrong.status_code == 200 and "byName" not in wrong.json()["workspaces"]
        own = client.get("/readyz", headers={"X-API-Key": alpha_key})
        assert set(own.json()["workspaces"]["byName"]) == {"alpha"}
        admin = client.get("/readyz", headers={"X-API-Key": admin_key})
        assert set(admin.json()["workspaces"]["byName"]) == {"default", "alpha", "beta"}
        # another workspace's probe: 404, as if it did not exist; without a key, 401
        other = client.get("/readyz", params={"workspace": "beta"}, headers={"X-API-Key": alpha_key})
        assert other.status_code == 404 and other.json()["error"]["code"] == "workspace_not_found"
        assert client.get("/readyz", params={"workspace": "beta"}).status_code == 401
        mine = client.get("/readyz", params={"workspace": "alpha"}, headers={"X-API-Key": alpha_key})
        assert mine.status_code == 200 and set(mine.json()["workspaces"]["byName"]) == {"alpha"}


def test_the_start_up_says_what_it_is_doing_and_where_the_page_is(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """A first start printed nothing for a minute after "Waiting for application startup." on a busy machine: a
    new user took it for stuck. Each long phase is named before it runs, and the end names the page's address."""
    with caplog.at_level(logging.INFO, logger="uvicorn.error"), running_app(tmp_path, host="127.0.0.1", port=8791):
        pass
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("startup: ")]
    assert len(said) == 3, said
    assert said[0].startswith("startup: opening the stores of the default workspace (data dir ") and str(tmp_path) in said[0]
    assert said[1].startswith("startup: loading the ") and " encoder, jieba's dictionaries" in said[1]
    assert said[2].startswith("startup: ready in ") and "the page at http://127.0.0.1:8791/ , the API docs at /docs" in said[2]
