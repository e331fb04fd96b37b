"""Back up and restore a workspace over REST (``GET /api/workspaces/{name}/export``, ``POST
/api/workspaces/import``) and from the command line (``aer workspaces export|import``, ``delete --verify``): the
restored workspace answers from the same passages, nothing is re-embedded, and bad input is refused with its code."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from unittest import mock

from fastapi.testclient import TestClient

from tests.support.apps import URL, running_app
from tests.unit.app.cli.test_workspaces import aer

WORKSPACES = "/api/workspaces"
TEXT = "Kestrel Works assembles its gearboxes in Tampere. The plant opened in 1987."


def top_ids(client: TestClient, workspace: str, question: str) -> list[str]:
    r = client.post(URL, json={"action": "query", "question": question, "workspace": workspace})
    assert r.status_code == 200, r.text
    return [c["docId"] for c in r.json()["citations"]]


def importing(client: TestClient, archive: bytes, name: str, **form: Any) -> Any:
    return client.post(f"{WORKSPACES}/import", files={"file": ("team.aerws", archive, "application/zip")},
                       data={"name": name, **{k: str(v).lower() for k, v in form.items()}})


def test_export_then_import_over_rest_gives_the_same_answers(tmp_path: Path) -> None:
    with running_app(tmp_path) as client:
        assert client.post(WORKSPACES, json={"name": "team"}).status_code == 201
        r = client.post(URL, json={"action": "add-documents", "workspace": "team",
                                   "documents": [{"id": "plant.md", "title": "Plant", "text": TEXT}]})
        assert r.status_code == 200, r.text
        before = top_ids(client, "team", "Where does Kestrel Works assemble gearboxes?")
        assert before and before[0] == "plant.md"
        exported = client.get(f"{WORKSPACES}/team/export")
        assert exported.status_code == 200 and exported.headers["content-type"] == "application/zip"
        assert 'filename="team.aerws"' in exported.headers["content-disposition"]
        archive = exported.content

        embedder = type(client.app.state.resources.context.embedder)  # type: ignore[attr-defined]
        with mock.patch.object(embedder, "embed_documents", side_effect=AssertionError("re-embedded")):
            r = importing(client, archive, "copy")  # restored with its vectors: nothing embedded
        assert r.status_code == 201, r.text
        assert r.json()["created"] is True and r.json()["workspace"] == "copy"
        assert top_ids(client, "copy", "Where does Kestrel Works assemble gearboxes?") == before
        names = [w["name"] for w in client.get(WORKSPACES).json()["workspaces"]]
        assert "copy" in names  # a restored workspace is listed (it keeps its marker through the swap)

        # a workspace that holds something is not overwritten unless asked
        r = importing(client, archive, "copy")
        assert r.status_code == 409 and r.json()["error"]["code"] == "workspace_not_empty", r.text
        assert importing(client, archive, "copy", replace=True).status_code == 201
        assert top_ids(client, "copy", "Where does Kestrel Works assemble gearboxes?") == before
        # the default workspace is not restored over while the service runs on it
        r = importing(client, archive, "default")
        assert r.status_code == 409 and r.json()["error"]["code"] == "workspace_protected"
        # a file that is no archive: refused, and no workspace is left behind
        r = importing(client, b"PK\x03\x04 not a zip at all", "broken")
        assert r.status_code == 422 and r.json()["error"]["code"] == "archive_invalid", r.text
        assert "broken" not in [w["name"] for w in client.get(WORKSPACES).json()["workspaces"]]
        r = importing(client, archive, "Bad Name")
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_workspace"
        r = client.get(f"{WORKSPACES}/nowhere/export")
        assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"


def test_export_import_and_a_verified_delete_from_the_command_line(tmp_path: Path) -> None:
    data, files = tmp_path / "data", tmp_path / "files"
    files.mkdir()
    (files / "plant.md").write_text(f"# Plant\n\n{TEXT}\n", encoding="utf-8")
    assert aer(data, "workspaces", "create", "team").exit_code == 0
    assert aer(data, "ingest", str(files), "--workspace", "team").exit_code == 0
    archive = tmp_path / "team.aerws"
    result = aer(data, "workspaces", "export", "team", str(archive))
    assert result.exit_code == 0 and archive.is_file(), result.output
    result = aer(data, "workspaces", "import", str(archive), "restored")
    assert result.exit_code == 0 and "(created)" in result.output, result.output
    result = aer(data, "query", "Where does Kestrel Works assemble gearboxes?", "--workspace", "restored")
    assert result.exit_code == 0 and "Tampere" in result.output, result.output
    result = aer(data, "workspaces", "import", str(archive), "restored")
    assert result.exit_code == 2 and "not empty" in result.output
    started = time.monotonic()
    result = aer(data, "workspaces", "delete", "restored", "--yes", "--verify")
    assert result.exit_code == 0 and "verified" in result.output, result.output
    assert time.monotonic() - started < 60
    assert not (data / "workspaces" / "restored").exists()
    assert aer(data, "workspaces", "import", str(tmp_path / "missing.aerws"), "x").exit_code == 2
