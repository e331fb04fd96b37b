"""The real app on real stores (Milvus Lite, SQLite) in a temp dir, with a small fake embedder so it starts fast."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from fastapi.testclient import TestClient
from langchain_core.embeddings import DeterministicFakeEmbedding

from app import container
from app.main import create_app
from app.schemas import API_PATH
from app.settings import Settings

URL = API_PATH


def fast_resources(settings: Settings) -> container.Resources:
    """``build_resources`` with a 32-dimension fake embedder instead of the USE model (seconds saved per app)."""
    fake = DeterministicFakeEmbedding(size=32)
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        return container.build_resources(settings)


def settings_for(data_dir: Path, **overrides: Any) -> Settings:
    """Settings that read nothing from the environment or a ``.env`` file."""
    return Settings(data_dir=data_dir, _env_file=None, **overrides)  # type: ignore[call-arg]


@contextmanager
def running_app(data_dir: Path, **overrides: Any) -> Iterator[TestClient]:
    """A started app (lifespan run) with these settings."""
    with TestClient(create_app(settings_for(data_dir, **overrides), fast_resources)) as client:
        yield client


@contextmanager
def held_jobs_app(data_dir: Path) -> Iterator[tuple[TestClient, container.Resources]]:
    """A started app whose ingest job worker is stopped: an upload stays queued until the test runs its job."""
    with running_app(data_dir) as client:
        resources: container.Resources = client.app.state.resources  # type: ignore[attr-defined]
        assert resources.jobs is not None
        resources.jobs.stop()
        yield client, resources


def upload_bytes(client: TestClient, *items: tuple[str, bytes]) -> str:
    """Upload files (name, bytes) as one job (202); its id."""
    r = client.post(f"{URL}/upload", files=[("files", (name, data, "application/octet-stream")) for name, data in items])
    assert r.status_code == 202, r.text
    return str(r.json()["jobId"])


@contextmanager
def cli_through(app_client: TestClient) -> Iterator[None]:
    """Every ``RemoteClient`` the CLI makes (``--server URL``, any URL) talks to ``app_client`` instead of the
    network."""
    import httpx

    from app.client import RemoteClient

    def forward(request: httpx.Request) -> httpx.Response:
        r = app_client.request(request.method, request.url.path, params=request.url.params,
                               content=request.content, headers=request.headers)
        return httpx.Response(r.status_code, headers=r.headers, content=r.content)

    original_init = RemoteClient.__init__

    def init(self: RemoteClient, base_url: str, *args: Any, **kwargs: Any) -> None:
        original_init(self, base_url, *args, transport=httpx.MockTransport(forward), **kwargs)

    with mock.patch.object(RemoteClient, "__init__", init):
        yield


def entity_names(client: TestClient) -> list[str]:
    """Every entity's standard name (reads go through the same guard: pass a key where reads need one)."""
    resources = client.app.state.resources  # type: ignore[attr-defined]
    return sorted(e.standard_name for e in resources.context.entities.list(None, 0, 100_000))


def document_ids(client: TestClient) -> set[str]:
    """The ids of the documents in the vector index."""
    resources = client.app.state.resources  # type: ignore[attr-defined]
    ids: set[str] = resources.context.index.document_ids()
    return ids


def assert_openai_error(r: Any, status: int, code: str) -> dict[str, Any]:
    """A /v1 error: OpenAI's shape, exactly its four fields."""
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"message", "type", "param", "code"}, body
    assert body["error"]["code"] == code and body["error"]["message"]
    return body
