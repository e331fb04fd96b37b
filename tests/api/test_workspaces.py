"""Workspaces over REST: create, list, describe, delete; every route works in the workspace its request names
(``X-Workspace``, ``?workspace=``, the body's ``workspace``), and nothing of one workspace shows in another:
documents, queries, jobs, uploads, entities, streams."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.apps import URL, running_app

WORKSPACES = "/api/workspaces"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("workspaces")) as c:
        for name in ("north", "south"):
            assert c.post(WORKSPACES, json={"name": name}).status_code == 201
        yield c


def add(client: TestClient, workspace: str | None, *docs: tuple[str, str, str], **extra: Any) -> Any:
    body: dict[str, Any] = {"action": "add-documents", "documents": [
        {"id": i, "title": t, "text": x} for i, t, x in docs], **extra}
    if workspace is not None:
        body["workspace"] = workspace
    return client.post(URL, json=body)


def ask(client: TestClient, question: str, **kwargs: Any) -> Any:
    return client.post(URL, json={"action": "query", "question": question}, **kwargs)


def wait_for(client: TestClient, job_id: str, workspace: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        r = client.get(URL, params={"action": "job", "id": job_id}, headers={"X-Workspace": workspace})
        assert r.status_code == 200, r.text
        job: dict[str, Any] = r.json()["job"]
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.1)


def test_create_list_describe_and_refusals(client: TestClient) -> None:
    listed = client.get(WORKSPACES).json()["workspaces"]
    assert [w["name"] for w in listed][:1] == ["default"] and {"north", "south"} <= {w["name"] for w in listed}
    assert set(listed[0]) == {"name", "documents", "chunks", "sizeBytes", "lastWrite", "createdAt"}
    north = next(w for w in listed if w["name"] == "north")  # times as jobs write theirs: ISO 8601 in UTC
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", north["createdAt"]), north
    assert abs(datetime.fromisoformat(north["createdAt"]).timestamp() - time.time()) < 600
    r = client.post(WORKSPACES, json={"name": "north"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "workspace_exists"
    for bad in ("North", "a b", "../x", "-x", "x" * 33):
        r = client.post(WORKSPACES, json={"name": bad})
        assert r.status_code == 422 and r.json()["error"]["code"] in ("invalid_workspace", "invalid_request"), r.text
    r = client.get(f"{WORKSPACES}/nowhere")
    assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"
    r = client.get(f"{WORKSPACES}/Bad.Name")
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_workspace"
    r = client.delete(f"{WORKSPACES}/default")
    assert r.status_code == 409 and r.json()["error"]["code"] == "workspace_protected"


def test_an_unknown_or_bad_workspace_on_any_route_is_404_or_422(client: TestClient) -> None:
    for kwargs in ({"headers": {"X-Workspace": "nowhere"}}, {"params": {"workspace": "nowhere"}}):
        r = client.get(URL, params={"action": "documents", **kwargs.get("params", {})},
                       headers=kwargs.get("headers"))
        assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found", r.text
    r = client.post(URL, json={"action": "query", "question": "anything?", "workspace": "nowhere"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "workspace_not_found"
    r = client.post(URL, json={"action": "query", "question": "anything?", "workspace": "No Such"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_workspace"
    r = client.post(URL, json={"action": "query", "question": "anything?", "workspace": "north"},
                    headers={"X-Workspace": "south"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "conflicting_workspace"
    r = client.post(URL, json={"action": "query", "question": "anything?", "workspace": 7})
    assert r.status_code == 422


def test_documents_with_the_same_id_stay_apart(client: TestClient) -> None:
    assert add(client, "north", ("plan.md", "North plan", "Quorvath Mining drills for cobalt near Tromso.")
               ).status_code == 200
    assert add(client, "south", ("plan.md", "South plan", "Velmaro Farms grows olives near Seville.")
               ).status_code == 200
    for ws, word in (("north", "Quorvath"), ("south", "Velmaro")):
        r = client.get(URL, params={"action": "document", "id": "plan.md"}, headers={"X-Workspace": ws})
        assert r.status_code == 200 and word in json.dumps(r.json()), r.text
        listed = client.get(URL, params={"action": "documents", "workspace": ws}).json()
        assert listed["total"] == 1 and listed["documents"][0]["title"] == f"{ws.title()} plan"
    r = client.get(URL, params={"action": "document", "id": "plan.md"})  # default: none
    assert r.status_code == 404 and r.json()["error"]["code"] == "document_not_found"
    info = client.get(f"{WORKSPACES}/north").json()
    assert (info["documents"], info["chunks"]) == (1, 1) and info["sizeBytes"] > 0


def test_a_query_answers_from_its_workspace_only_and_says_which(client: TestClient) -> None:
    add(client, "north", ("mine.md", "Mine", "Quorvath Mining was founded by Elsbeth Varga in 1987."))
    r = ask(client, "Who founded Quorvath Mining?", headers={"X-Workspace": "north"})
    assert r.status_code == 200 and r.json()["workspace"] == "north"
    assert "Varga" in r.json()["answer"]
    cited = {c.get("docId") or c.get("id") for c in r.json()["citations"]}
    assert cited and all(str(c).startswith("mine.md") or c == "plan.md" for c in cited), cited
    for kwargs in ({"headers": {"X-Workspace": "south"}}, {}):
        other = ask(client, "Who founded Quorvath Mining?", **kwargs).json()
        assert other["workspace"] == kwargs.get("headers", {}).get("X-Workspace", "default")
        assert "Varga" not in json.dumps(other), other["answer"]


def test_a_streamed_query_answers_from_its_workspace(client: TestClient) -> None:
    with client.stream("POST", URL, json={"action": "query", "question": "Who founded Quorvath Mining?",
                                          "stream": True, "workspace": "south"}) as r:
        text = "".join(r.iter_text())
    blocks = text.replace("\r\n", "\n").split("\n\n")
    result = [json.loads(line[len("data: "):]) for block in blocks if "event: result" in block
              for line in block.splitlines() if line.startswith("data: ")]
    assert result and result[0]["workspace"] == "south" and "Varga" not in json.dumps(result[0])


def test_a_job_is_found_only_in_its_workspace(client: TestClient) -> None:
    r = add(client, "north", ("job.md", "Job", "Tarnwick Shipping moves grain from Gdansk."), background=True)
    assert r.status_code == 202, r.text
    job_id = r.json()["jobId"]
    assert wait_for(client, job_id, "north")["status"] == "done"
    for ws in ("south", "default"):
        r = client.get(URL, params={"action": "job", "id": job_id, "workspace": ws})
        assert r.status_code == 404 and r.json()["error"]["code"] == "job_not_found"
    assert client.get(URL, params={"action": "document", "id": "job.md", "workspace": "south"}).status_code == 404


def test_an_upload_goes_to_the_named_workspace(client: TestClient, tmp_path: Path) -> None:
    files = [("files", ("notes.md", b"# Notes\n\nBrindlecombe Audio builds tube amplifiers in Leeds.\n",
                        "text/markdown"))]
    r = client.post(f"{URL}/upload", files=files, data={"workspace": "south"})
    assert r.status_code == 202, r.text
    assert wait_for(client, r.json()["jobId"], "south")["status"] == "done"
    r = client.get(URL, params={"action": "job", "id": r.json()["jobId"], "workspace": "north"})
    assert r.status_code == 404
    south = client.get(URL, params={"action": "documents", "workspace": "south"}).json()
    assert "notes.md" in {d["id"] for d in south["documents"]}
    north = client.get(URL, params={"action": "documents", "workspace": "north"}).json()
    assert "notes.md" not in {d["id"] for d in north["documents"]}
    # the header names it as well
    files = [("files", ("more.md", b"# More\n\nOsterlund Glass blows vases in Malmo.\n", "text/markdown"))]
    r = client.post(f"{URL}/upload", files=files, headers={"X-Workspace": "north"})
    assert r.status_code == 202 and wait_for(client, r.json()["jobId"], "north")["status"] == "done"


def entity_names(client: TestClient, workspace: str) -> set[str]:
    r = client.get(URL, params={"action": "entities", "workspace": workspace, "limit": 500})
    assert r.status_code == 200, r.text
    return {e["standardName"] for e in r.json()["entities"]}


def test_entities_are_per_workspace_over_a_shared_dictionary(client: TestClient) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": "Quorvath Mining", "type": "ORGANIZATION",
                               "aliases": ["Quorvath"], "workspace": "north"})
    assert r.status_code == 200, r.text
    assert "Quorvath Mining" in entity_names(client, "north")
    assert "Quorvath Mining" not in entity_names(client, "south") | entity_names(client, "default")
    r = client.post(URL, json={"action": "add-entity", "standardName": "Hanseatic League", "type": "ORGANIZATION",
                               "scope": "shared", "workspace": "north"})
    assert r.status_code == 200, r.text
    for ws in ("north", "south", "default"):
        assert "Hanseatic League" in entity_names(client, ws)
    # deleting a shared entity inside one workspace is refused, not a silent no-op
    r = client.post(URL, json={"action": "delete-entity", "standardName": "Hanseatic League", "workspace": "south"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "shared_entity"
    r = client.post(URL, json={"action": "delete-entity", "standardName": "Quorvath Mining", "workspace": "south"})
    assert r.status_code == 404
    r = client.post(URL, json={"action": "delete-entity", "standardName": "Hanseatic League", "scope": "shared"})
    assert r.status_code == 200, r.text
    assert all("Hanseatic League" not in entity_names(client, ws) for ws in ("north", "south", "default"))


def test_delete_removes_the_workspace_and_its_jobs_and_documents(client: TestClient) -> None:
    assert client.post(WORKSPACES, json={"name": "temp"}).status_code == 201
    add(client, "temp", ("t.md", "T", "Pellucid Optics grinds lenses in Jena."))
    r = client.delete(f"{WORKSPACES}/temp")
    assert r.status_code == 200 and r.json()["deleted"] == {"documents": 1, "chunks": 1}
    assert client.get(f"{WORKSPACES}/temp").status_code == 404
    assert client.get(URL, params={"action": "documents", "workspace": "temp"}).status_code == 404
    assert "temp" not in {w["name"] for w in client.get(WORKSPACES).json()["workspaces"]}
    assert client.post(WORKSPACES, json={"name": "temp"}).status_code == 201
    assert client.get(URL, params={"action": "documents", "workspace": "temp"}).json()["total"] == 0


def test_an_evaluation_run_from_the_page_belongs_to_its_workspace(client: TestClient) -> None:
    assert add(client, "north", ("ev-doc", "Ledger", "The Ledger Hall was opened by Mayor Quill in 1902.")).status_code == 200
    questions = json.dumps({"id": "q1", "question": "Who opened the Ledger Hall?", "answers": ["Quill"],
                            "gold_ids": ["ev-doc"], "type": "factual"}) + "\n"
    r = client.post(f"{URL}/evaluation-jobs", files={"file": ("north set.jsonl", questions.encode())},
                    data={"modes": "bm25"}, headers={"X-Workspace": "north"})
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    deadline = time.monotonic() + 60
    while (job := client.get(f"{URL}/evaluation-jobs/{job_id}", headers={"X-Workspace": "north"}).json())[
            "status"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert job["status"] == "done", job
    # another workspace finds neither the job nor its report (the questions and answers are north's)
    r = client.get(f"{URL}/evaluation-jobs/{job_id}", headers={"X-Workspace": "south"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "job_not_found"
    reports = {w: [x["dataset"] for x in client.get(f"{URL}/evaluations", headers={"X-Workspace": w}).json()["reports"]]
               for w in ("north", "south", "default")}
    assert "page-north-set" in reports["north"]
    assert "page-north-set" not in reports["south"] + reports["default"]


def test_a_mistyped_workspace_names_the_one_meant(client: TestClient) -> None:
    """Two workspaces on day two and a slip of the keyboard: the 404 names the workspace most likely meant (no keys
    here: the caller sees every workspace anyway), over the JSON API and /v1; a name near none gets no guess."""
    client.post(WORKSPACES, json={"name": "harbour"})
    for r in (client.post(URL, json={"action": "query", "question": "anything?", "workspace": "harbor"}),
              client.get(URL, params={"action": "documents"}, headers={"X-Workspace": "habrour"})):
        error = r.json()["error"]
        assert r.status_code == 404 and error["code"] == "workspace_not_found", r.text
        assert error["details"] == {"workspace": error["details"]["workspace"], "suggestion": "harbour"}
        assert error["message"].endswith("(did you mean 'harbour'?)")
    chat = client.post("/v1/chat/completions", json={"model": "aer:harbor", "messages": [
        {"role": "user", "content": "anything?"}]})
    assert chat.status_code == 404 and "did you mean 'harbour'?" in chat.json()["error"]["message"], chat.text
    far = client.post(URL, json={"action": "query", "question": "anything?", "workspace": "zzqx"}).json()["error"]
    assert far == {"code": "workspace_not_found", "message": "no workspace 'zzqx'", "details": {"workspace": "zzqx"}}
