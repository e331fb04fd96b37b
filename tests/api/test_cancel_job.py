"""Cancelling an ingest job: ``POST {"action": "cancel-job", "id": …}`` (the page's Cancel button, ``aer jobs
cancel``) stops a queued or running job after its batch in progress. What it wrote stays in the index; its pending
documents are listed as not ingested and are never resumed; a question asked afterwards no longer says documents
are still coming. An unknown id is 404 ``job_not_found``, a finished job 409 ``job_finished``, a bad id 422."""

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

NOTE = b"Greenhouse log. The misting pump of bay four was serviced by Oduya Nkem on 9 May for 40 euros.\n"
NOTE_ZH = "温室日志。五月九日，四号棚的喷雾泵由奥杜雅维修，花费40欧元。\n".encode()


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[TestClient, Resources]]:
    with held_jobs_app(tmp_path / "data") as parts:
        yield parts


upload = upload_bytes


def cancel(client: TestClient, job_id: str) -> Any:
    return client.post(URL, json={"action": "cancel-job", "id": job_id})


def test_a_queued_job_cancelled_writes_nothing_and_is_never_resumed(held: tuple[TestClient, Resources]) -> None:
    client, resources = held
    assert resources.jobs is not None
    job_id = upload(client, ("greenhouse.txt", NOTE), ("温室.txt", NOTE_ZH))
    r = cancel(client, job_id)
    assert r.status_code == 200, r.text
    job = r.json()["job"]
    assert (job["status"], job["progress"]["pending"], job["progress"]["done"]) == ("cancelled", 2, 0)
    assert job["error"] == "cancelled by its user"
    # nothing left to run: the worker (and a restart) finds no job, the listing of unfinished jobs is empty
    assert resources.jobs.store.next_job() is None
    assert client.get(URL, params={"action": "jobs", "unfinished": "true"}).json()["jobs"] == []
    JobRunner(resources.jobs.store, resources.jobs.ingestor).run_job(job_id)  # a worker that picked it up anyway
    assert resources.jobs.store.status(job_id) == "cancelled"
    answer = client.post(URL, json={"action": "query", "question": "Who serviced the misting pump?"}).json()
    assert answer["status"] == "no_results" and answer["documentsPending"] == 0
    # cancelling again answers the same job; the documents endpoint never saw them
    assert cancel(client, job_id).json()["job"]["status"] == "cancelled"
    assert client.get(URL, params={"action": "documents"}).json()["total"] == 0


def test_a_running_job_stops_after_its_batch_and_keeps_what_it_wrote(held: tuple[TestClient, Resources]) -> None:
    client, resources = held
    assert resources.jobs is not None
    job_id = upload(client, ("greenhouse.txt", NOTE), ("温室.txt", NOTE_ZH))
    store = resources.jobs.store
    runner = JobRunner(store, resources.jobs.ingestor, batch_size=1, batch_target_s=None)
    written: list[int] = []

    def after_batch(_kind: str, docs: int, _chunks: int) -> None:
        written.append(docs)
        assert cancel(client, job_id).status_code == 200  # the user presses Cancel while the job runs

    runner.on_written = after_batch
    runner.run_job(job_id)
    assert written == [1]  # the second document's batch never started
    job = client.get(URL, params={"action": "job", "id": job_id}).json()["job"]
    assert (job["status"], job["progress"]["done"], job["progress"]["pending"]) == ("cancelled", 1, 1)
    assert [d["status"] for d in job["documents"]] == ["done", "pending"]
    assert client.get(URL, params={"action": "documents"}).json()["total"] == 1


def test_unknown_finished_and_malformed_ids_are_refused_with_a_code(held: tuple[TestClient, Resources]) -> None:
    client, resources = held
    assert resources.jobs is not None
    r = cancel(client, "0" * 32)
    assert (r.status_code, r.json()["error"]["code"]) == (404, "job_not_found")
    job_id = upload(client, ("greenhouse.txt", NOTE))
    JobRunner(resources.jobs.store, resources.jobs.ingestor).run_job(job_id)
    r = cancel(client, job_id)
    assert (r.status_code, r.json()["error"]["code"]) == (409, "job_finished")
    assert "(done)" in r.json()["error"]["message"]
    assert resources.jobs.store.status(job_id) == "done"  # the refusal changed nothing
    for bad in ("", "a\nb", "x" * 300):
        r = cancel(client, bad)
        assert r.status_code == 422, (bad, r.text)
    assert client.post(URL, json={"action": "cancel-job"}).status_code == 422


def test_aer_jobs_cancel_through_a_server(held: tuple[TestClient, Resources], tmp_path: Path) -> None:
    client, _ = held
    job_id = upload(client, ("greenhouse.txt", NOTE), ("温室.txt", NOTE_ZH))
    runner = CliRunner()
    env = {"AER_DATA_DIR": str(tmp_path / "unused")}
    with cli_through(client):
        out = runner.invoke(cli, ["jobs", "cancel", job_id, "--server", "http://aer.test"], env=env)
        assert out.exit_code == 0, out.output
        assert f"job {job_id} cancelled: 0 of 2 document(s) written" in out.output and "2 not ingested" in out.output
        again = runner.invoke(cli, ["jobs", "cancel", "f" * 32, "--server", "http://aer.test"], env=env)
        assert again.exit_code == 2 and "job_not_found" in again.output
        shown = runner.invoke(cli, ["jobs", "list", "--server", "http://aer.test"], env=env)
        assert job_id in shown.output and "cancelled" in shown.output


def test_a_document_still_being_ingested_is_not_found_with_its_job_named(held: tuple[TestClient, Resources]) -> None:
    """Deleting (or opening) a document an upload has still to write said only "no document with id …": now the
    404 names the job that will write it, which can be followed or cancelled."""
    client, _ = held
    job_id = upload(client, ("greenhouse.txt", NOTE))
    for r in (client.post(URL, json={"action": "delete-document", "id": "greenhouse.txt"}),
              client.get(URL, params={"action": "document", "id": "greenhouse.txt"})):
        assert r.status_code == 404, r.text
        error = r.json()["error"]
        assert error["code"] == "document_not_found" and error["details"]["jobId"] == job_id
        assert f"ingest job {job_id} has still to write it" in error["message"]
    assert cancel(client, job_id).status_code == 200
    r = client.post(URL, json={"action": "delete-document", "id": "greenhouse.txt"})
    assert r.status_code == 404 and "jobId" not in r.json()["error"].get("details", {})


def test_an_upload_queued_behind_another_says_where_it_stands_and_a_cancel_frees_the_queue_at_once(
        held: tuple[TestClient, Resources]) -> None:
    """A small upload sent after a big one was cancelled sat "queued" with no word of why while the cancelled
    job finished tagging its file: every queued job now has its place and its reason, in the upload's answer
    and in the job's view."""
    client, resources = held
    assert resources.jobs is not None
    big = upload(client, ("greenhouse.txt", NOTE * 50))
    r = client.post(f"{URL}/upload", files=[("files", ("温室.txt", NOTE_ZH, "text/plain"))])
    small = r.json()["jobId"]
    assert r.json()["status"] == "queued" and r.json()["queue"] == {
        "position": 2, "waitingFor": None, "reason": "1 queued job(s) before it"}
    resources.jobs.store.start(big)
    resources.jobs.active = big  # the worker is on the big one
    queue = client.get(URL, params={"action": "job", "id": small}).json()["job"]["queue"]
    assert queue == {"position": 2, "waitingFor": big, "reason": f"waiting for job {big[:8]} (0 of 1 documents written)"}
    assert cancel(client, big).status_code == 200
    queue = client.get(URL, params={"action": "job", "id": small}).json()["job"]["queue"]
    assert (queue["position"], queue["reason"]) == (1, f"the cancelled job {big[:8]} is stopping at its next passage")
    resources.jobs.active = None
    assert resources.jobs.store.next_job() == small  # the cancelled job holds no place in the queue
    JobRunner(resources.jobs.store, resources.jobs.ingestor).run_job(small)
    job = client.get(URL, params={"action": "job", "id": small}).json()["job"]
    assert job["status"] == "done" and job["queue"] is None
