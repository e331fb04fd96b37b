"""An upload that is still being ingested is visible: ``GET ?action=jobs`` lists the workspace's newest jobs (a
page opened after the upload, or after a restart that resumed it, follows them without their ids; ``aer jobs
list``), and a question asked meanwhile that finds nothing says that documents are still coming
(``documentsPending``) instead of a bare "not found"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from app.container import Resources
from graphs.ingest.jobs import JobRunner
from tests.support.apps import URL, cli_through, held_jobs_app, upload_bytes

NOTE = b"Kiln log. The glaze kiln's thermocouple was replaced by Ottilie Varga on 3 March for 95 euros.\n"
NOTE_ZH = "窑炉日志。三月三日，瓦尔加更换了釉烧窑的热电偶，花费95欧元。\n".encode()


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[TestClient, Resources]]:
    with held_jobs_app(tmp_path / "data") as parts:
        yield parts


def run(resources: Resources, job_id: str) -> None:
    """Run the job as the worker would (the stopped worker's own runner would not: it stops before a batch)."""
    assert resources.jobs is not None
    JobRunner(resources.jobs.store, resources.jobs.ingestor, defer_vectors=resources.jobs.defer_vectors).run_job(job_id)


upload = upload_bytes


def ask(client: TestClient, question: str) -> dict[str, Any]:
    r = client.post(URL, json={"action": "query", "question": question})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_queued_upload_is_listed_and_a_question_asked_meanwhile_says_it_is_still_coming(
        held: tuple[TestClient, Resources]) -> None:
    client, resources = held
    assert resources.jobs is not None
    job_id = upload(client, ("kiln.txt", NOTE), ("窑炉.txt", NOTE_ZH))

    listed = client.get(URL, params={"action": "jobs", "unfinished": "true"}).json()
    assert [j["id"] for j in listed["jobs"]] == [job_id]
    (job,) = listed["jobs"]
    assert (job["status"], job["kind"], job["progress"]["pending"], job["documents"]) == ("queued", "upload", 2, [])

    english = ask(client, "Who replaced the thermocouple of the glaze kiln?")
    assert english["status"] == "no_results" and english["documentsPending"] == 2
    assert "2 documents of an upload are still being ingested" in english["answer"]
    chinese = ask(client, "谁更换了釉烧窑的热电偶？")
    assert chinese["documentsPending"] == 2 and "还有 2 个文档正在导入" in chinese["answer"]

    run(resources, job_id)
    assert client.get(URL, params={"action": "jobs", "unfinished": "true"}).json()["jobs"] == []
    (done,) = client.get(URL, params={"action": "jobs"}).json()["jobs"]
    assert (done["id"], done["status"], done["progress"]["done"]) == (job_id, "done", 2)
    after = ask(client, "Who replaced the thermocouple of the glaze kiln?")
    assert after["documentsPending"] == 0 and "still being ingested" not in after["answer"]


def test_newest_jobs_come_first_and_the_listing_is_the_workspace_s_own(held: tuple[TestClient, Resources]) -> None:
    client, _ = held
    first = upload(client, ("a.txt", NOTE))
    second = upload(client, ("b.txt", NOTE_ZH))
    assert [j["id"] for j in client.get(URL, params={"action": "jobs"}).json()["jobs"]] == [second, first]
    assert [j["id"] for j in client.get(URL, params={"action": "jobs", "limit": 1}).json()["jobs"]] == [second]
    assert client.post("/api/workspaces", json={"name": "other"}).status_code == 201
    assert client.get(URL, params={"action": "jobs"}, headers={"X-Workspace": "other"}).json()["jobs"] == []


def test_aer_jobs_list_shows_the_unfinished_upload_with_its_progress(held: tuple[TestClient, Resources],
                                                                    tmp_path: Path) -> None:
    client, resources = held
    assert resources.jobs is not None
    job_id = upload(client, ("kiln.txt", NOTE))
    runner = CliRunner()
    env = {"AER_DATA_DIR": str(tmp_path / "unused")}
    with cli_through(client):
        shown = runner.invoke(cli, ["jobs", "list", "--unfinished", "--server", "http://aer.test"], env=env)
        assert shown.exit_code == 0, shown.output
        assert job_id in shown.output and "queued" in shown.output and "0/1 document(s)" in shown.output
        run(resources, job_id)
        none = runner.invoke(cli, ["jobs", "list", "--unfinished", "--server", "http://aer.test"], env=env)
        assert none.exit_code == 0 and none.output.strip() == "no unfinished ingest job"
        every = runner.invoke(cli, ["jobs", "list", "--server", "http://aer.test"], env=env)
        assert job_id in every.output and "done" in every.output and "1/1 document(s)" in every.output


def test_an_upload_s_small_files_are_written_before_its_large_one(held: tuple[TestClient, Resources]) -> None:
    """A job writes its documents in order: a large file listed first held every small one behind it (not
    searchable for minutes). Now the large one goes last; the others keep the order they came in."""
    client, resources = held
    large = b"Firing record. " + b"The kiln fired a load of glazed bowls at cone six. " * 4000
    job_id = upload(client, ("archive.txt", large), ("kiln.txt", NOTE), ("窑炉.txt", NOTE_ZH))
    order = [d["id"] for d in client.get(URL, params={"action": "job", "id": job_id}).json()["job"]["documents"]]
    assert order == ["kiln.txt", "窑炉.txt", "archive.txt"]
    assert resources.jobs is not None and resources.jobs.store.pending(job_id, 1)[0][1].id == "kiln.txt"
