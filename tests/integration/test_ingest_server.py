"""Documents through a real ``aer serve`` process over HTTP: unstorable strings answered 422 on a connection that
stays open, ``aer ingest FOLDER --server`` (uploads followed as jobs), and an ingest job that survives its
server being killed (SIGKILL) and restarted. Every wait is bounded; every process is reaped."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.cli.documents import HEADER
from tests.support.documents import write_broken, write_folder
from tests.support.servers import HTTP_TIMEOUT, URL, ServerProcess, aer_command, clean_env

pytestmark = pytest.mark.slow
JOB_TIMEOUT_S = 900.0


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ingest-serve")


@pytest.fixture(scope="module")
def server(workdir: Path) -> Iterator[ServerProcess]:
    srv = ServerProcess(workdir)
    try:
        yield srv.start()
    finally:
        srv.kill()


def client_port(response: httpx.Response) -> int:
    """The local port of the connection a response came on."""
    return int(response.extensions["network_stream"].get_extra_info("client_addr")[1])


def test_unstorable_strings_are_422_and_the_connection_stays_open(server: ServerProcess) -> None:
    docs = [{"id": f"d{i}", "text": f"document {i}"} for i in range(40)]
    docs.append({"id": "d40", "text": "x", "metadata": {"entities": {"PERSON": ["\ud83d"]}}})
    bodies = [
        {"action": "add-documents", "documents": docs},
        {"action": "add-documents", "documents": [{"id": "r", "title": "T", "text": "x",
                                                   "metadata": {"relatedEntities": ["\ud83d"]}}]},
        {"action": "add-entity", "standardName": "Ada", "type": "PERSON", "relatedEntities": ["\ud83d"]},
    ]
    with httpx.Client(base_url=server.base_url, timeout=HTTP_TIMEOUT) as http:
        ports = set()
        for body in bodies:
            r = http.post(URL, content=json.dumps(body), headers={"content-type": "application/json"})
            assert r.status_code == 422, r.text
            assert r.json()["error"]["code"] == "invalid_request"
            assert r.headers.get("connection", "").lower() != "close"
            ports.add(client_port(r))
        listed = http.get(URL, params={"action": "documents"})
        assert listed.status_code == 200 and listed.json()["total"] == 0, "nothing of any request was written"
        ports.add(client_port(listed))
    assert len(ports) == 1, "every request went over the one connection"


def run_aer(*args: str, timeout: float = 600.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*aer_command(), *args], capture_output=True, text=True, timeout=timeout,
                          env=clean_env(), stdin=subprocess.DEVNULL)


def test_the_cli_ingests_a_folder_through_the_server(server: ServerProcess, workdir: Path) -> None:
    folder = workdir / "kb"
    write_folder(folder)
    write_broken(folder / "broken")
    result = run_aer("ingest", str(folder), "--server", server.base_url)
    assert result.returncode == 1, result.stdout + result.stderr  # the two unreadable files
    assert f"ingested 6 document(s) as 14 chunk(s) from 8 file(s) on {server.base_url}" in result.stdout
    assert "failed: broken/secret.pdf: encrypted_file" in result.stderr
    again = run_aer("ingest", str(folder), "--server", server.base_url, "--exclude", "broken/*")
    assert again.returncode == 0 and "skipped 6 unchanged" in again.stdout, again.stdout + again.stderr
    listed = run_aer("documents", "list", "--server", server.base_url, "--title", "orchid")
    assert listed.stdout.startswith(HEADER + "\nreport.pdf\tOrchid Company Annual Report\treport.pdf\t3 chunk(s)"), listed.stdout
    answer = run_aer("query", "When was the Orchid Company founded?", "--server", server.base_url)
    assert "(report.pdf, p. 1)" in answer.stdout, answer.stdout


def wait_job(http: httpx.Client, job_id: str, until: Any, timeout_s: float = JOB_TIMEOUT_S) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        job = http.get(URL, params={"action": "job", "id": job_id, "limit": 500}).json()["job"]
        if until(job):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not get there in {timeout_s:.0f} s")


def test_a_job_survives_its_server_being_killed(tmp_path: Path) -> None:
    n = 400
    docs = [{"id": f"job-doc-{i:03d}", "title": f"Note {i}", "text": f"Note number {i} says the river is {i} km long."}
            for i in range(n)]
    first = ServerProcess(tmp_path).start()
    try:
        with httpx.Client(base_url=first.base_url, timeout=HTTP_TIMEOUT) as http:
            r = http.post(URL, json={"action": "add-documents", "documents": docs, "background": True})
            assert r.status_code == 202, r.text
            job_id = r.json()["jobId"]
            running = wait_job(http, job_id, lambda j: j["progress"]["done"] >= 32 or j["status"] == "done")
            assert running["status"] == "running", "the job finished before the kill: make it longer"
    finally:
        first.kill()  # SIGKILL, in the middle of a batch

    second = ServerProcess(tmp_path)  # the same data dir, a new process
    second.start()
    try:
        with httpx.Client(base_url=second.base_url, timeout=HTTP_TIMEOUT) as http:
            job = wait_job(http, job_id, lambda j: j["status"] in ("done", "failed"))
            assert job["status"] == "done" and job["resumed"] >= 1, job
            assert (job["progress"]["done"], job["progress"]["pending"], job["progress"]["failed"]) == (n, 0, 0)
            assert [d["id"] for d in job["documents"]] == [d["id"] for d in docs[: len(job["documents"])]]
            inventory = http.get(URL, params={"action": "documents", "limit": 500}).json()
            assert inventory["total"] == n and all(d["chunks"] == 1 for d in inventory["documents"])
            shown = http.get(URL, params={"action": "document", "id": "job-doc-399"}).json()
            assert [c["text"] for c in shown["chunks"]] == ["Note number 399 says the river is 399 km long."]
    finally:
        second.kill()
    assert "resuming ingest job" in second.log.read_text(errors="replace")
