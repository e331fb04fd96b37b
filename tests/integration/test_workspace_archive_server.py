"""Moving a workspace from a Milvus Lite file to a Milvus server (``milvus-lite server``: the gRPC protocol of
Milvus standalone) with its archive, nothing embedded again; then back, and removal from the server verified by
``residue`` (no collection of it left)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pymilvus import MilvusClient

from app import container
from app.container import build_resources
from app.services.reindex import active_collection
from app.services.workspace_archive import export_workspace, purge_workspace, residue, restore_workspace
from tests.support.archive import Fake, fill_workspace, settings, top_passages
from tests.support.servers import LiteServer, milvus_lite_server_command

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiteServer]:
    srv = LiteServer(milvus_lite_server_command(), tmp_path_factory.mktemp("milvus-server") / "data")
    try:
        yield srv.start()
    finally:
        srv.stop()


def test_lite_to_server_and_back(server: LiteServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = Fake(size=32)
    monkeypatch.setattr(container, "build_embedder", lambda s: (fake, fake.size, fake.name))
    lite = build_resources(settings(tmp_path / "lite"))
    try:
        fill_workspace(lite)
        before = top_passages(lite)
        chunks = lite.index.count()
        export_workspace(lite, tmp_path / "ws.aerws")
    finally:
        lite.close()
    embedded = fake.calls

    remote = settings(tmp_path / "root" / "workspaces" / "team", milvus_uri=server.uri, collection="aer_ws_team")
    restore_workspace(tmp_path / "ws.aerws", remote)
    assert fake.calls == embedded, "moving to the server embeds nothing"
    assert not (remote.data_dir / "milvus.db").exists(), "the chunks live on the server"
    collection = active_collection(remote)
    assert collection.startswith("aer_ws_team__import_")
    res = build_resources(remote)
    try:
        assert res.index.count() == chunks
        assert top_passages(res) == before
        export_workspace(res, tmp_path / "from-server.aerws")
    finally:
        res.close()

    back = settings(tmp_path / "back")
    restore_workspace(tmp_path / "from-server.aerws", back)
    res = build_resources(back)
    try:
        assert top_passages(res) == before
    finally:
        res.close()

    assert any(collection in line for line in residue(remote))
    purge_workspace(remote)
    assert residue(remote) == []
    client = MilvusClient(uri=server.uri)
    try:
        assert not [n for n in client.list_collections() if n.startswith("aer_ws_team")]
    finally:
        client.close()
