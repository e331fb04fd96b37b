"""The Documents tab's job view while a job runs: how many documents of how many, and the time left once the
API knows it (after the job's first document), "estimating" before; the bar moves with each document. The job
reads are answered by the test (Playwright's routing), so each state is shown for sure, on a real server."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Route, expect

from tests.support.browser import Watched, watch
from tests.support.servers import ServerProcess


@pytest.fixture(scope="module")
def empty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("web-jobs")
    process = ServerProcess(workdir, {"AER_DATA_DIR": str(workdir / "data")}).start()
    try:
        yield process
    finally:
        process.stop()


def job(status: str, done: int, pending: int, eta_s: float | None) -> dict[str, Any]:
    return {"success": True, "job": {
        "id": "job-eta", "kind": "upload", "status": status, "createdAt": "2026-11-25T10:00:00+00:00",
        "startedAt": "2026-11-25T10:00:01+00:00", "finishedAt": None, "error": None, "resumed": 0,
        "progress": {"total": done + pending, "done": done, "skipped": 0, "failed": 0, "pending": pending,
                     "chunks": done * 2, "seconds": 1.5 * done, "chunksPerS": 1.3 if done else None, "etaS": eta_s},
        "documents": [], "offset": 0, "limit": 500}}


Handler = Callable[[Route], None]


def in_turn(states: list[dict[str, Any]], seen: Callable[[dict[str, Any]], Any]) -> tuple[Handler, list[Any]]:
    """A job read answered by each state in turn (the last one for good); what each answer served, as ``seen``
    reads it, is kept in the list returned."""
    served: list[Any] = []

    def answer(route: Route) -> None:
        state = states[min(len(served), len(states) - 1)]
        served.append(seen(state))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    return answer, served


@contextmanager
def following(browser: Browser, server: ServerProcess, job_id: str, label: str, read: Handler,
              post: Handler | None = None) -> Iterator[tuple[Watched, Locator]]:
    """The Documents tab of a page that follows the job ``job_id`` (as a tab that started it does), its reads
    answered by ``read`` and its posts by ``post``; yields the page and the job's panel, and closes the page."""
    watched = watch(browser, server.base_url)
    try:
        p = watched.goto("/#documents")
        p.route(f"**/api/adaptive-entity-rag?action=job&id={job_id}*", read)
        if post is not None:
            p.route(re.compile(r".*/api/adaptive-entity-rag$"), post)
        p.evaluate(f"sessionStorage.setItem('aer.jobs', JSON.stringify([{{id: '{job_id}', label: '{label}'}}]))")
        p.reload()  # the tab follows the jobs it was following
        p.wait_for_selector("#opt-mode option", state="attached")
        yield watched, p.locator(f'.job[data-job="{job_id}"]')
        watched.check()
    finally:
        watched.page.context.close()


def test_a_running_job_shows_each_document_and_the_time_left(browser: Browser, empty_server: ServerProcess,
                                                             tmp_path: Path) -> None:
    states = [job("running", 0, 10, None), job("running", 1, 9, 13.5), job("running", 3, 7, 65.2),
              job("done", 10, 0, None)]
    states[0]["job"]["progress"]["stage"] = "reading and tagging big.pdf (1 of 1)"  # what the batch does now
    answer, served = in_turn(states, lambda state: state["job"]["progress"]["done"])
    with following(browser, empty_server, "job-eta", "Upload of 10 file(s)", answer) as (_, panel):
        # no rate yet: how long it has run (the job started on 25 November), then the estimate
        expect(panel).to_contain_text(re.compile(r"0 of 10 document\(s\) · now reading and tagging big\.pdf \(1 of 1\) · "
                                                  r"0 chunk\(s\) · running for \d+ h \d\d min, "
                                                  r"estimating the time left"))
        expect(panel).to_contain_text("1 of 10 document(s) · 2 chunk(s) · 1.3 chunks/s · about 14 s left")
        assert panel.locator("progress").evaluate("bar => [bar.value, bar.max]") == [1, 10]
        expect(panel).to_contain_text("3 of 10 document(s) · 6 chunk(s) · 1.3 chunks/s · about 1 min 06 s left")
        expect(panel.locator(".job-head .status-badge")).to_have_text("done", timeout=10_000)
        expect(panel).not_to_contain_text("left")
        assert served[:4] == [0, 1, 3, 10]


def test_a_done_jobs_vectors_are_followed_until_they_are_all_in(browser: Browser, empty_server: ServerProcess) -> None:
    """A job is done as soon as its documents are written; their e5 vectors fill in behind. The line said "dense
    vectors pending: 7 chunk(s)" for good, because the page stopped asking with the job."""
    def with_vectors(pending: int) -> dict[str, Any]:
        state = job("done", 9, 0, None)
        state["job"]["id"] = "job-vec"
        state["job"]["progress"]["vectorsPending"] = pending
        return state

    states = [with_vectors(7), with_vectors(3), with_vectors(0)]
    answer, served = in_turn(states, lambda state: state["job"]["progress"]["vectorsPending"])
    with following(browser, empty_server, "job-vec", "Upload of 9 file(s)", answer) as (watched, panel):
        expect(panel.locator(".job-head .status-badge")).to_have_text("done")
        expect(panel).to_contain_text("dense vectors pending: 7 chunk(s)")
        expect(panel).to_contain_text("dense vectors pending: 3 chunk(s)", timeout=10_000)
        expect(panel).to_contain_text("dense vectors all in", timeout=10_000)
        expect(panel).not_to_contain_text("pending")
        assert served[:3] == [7, 3, 0]
        watched.page.wait_for_timeout(2500)
        assert len(served) == 3  # and then it stops asking


def test_a_queued_job_says_where_it_stands_and_why_it_waits(browser: Browser, empty_server: ServerProcess) -> None:
    """A job behind another said a bare "queued" (behind a cancelled one still stopping, for a minute): the line
    says its place and the API's reason."""
    def queued(position: int, reason: str) -> dict[str, Any]:
        state = job("queued", 0, 1, None)
        state["job"].update(id="job-q", startedAt=None,
                            queue={"position": position, "waitingFor": "3f2a9c1e00", "reason": reason})
        return state

    states = [queued(2, "waiting for job 3f2a9c1e (1 of 4 documents written)"),
              queued(1, "the cancelled job 3f2a9c1e is stopping at its next passage"), job("done", 1, 0, None)]
    answer, _ = in_turn(states, lambda state: state["job"]["status"])
    with following(browser, empty_server, "job-q", "Upload of 1 file(s)", answer) as (_, panel):
        expect(panel).to_contain_text("2nd in the queue: waiting for job 3f2a9c1e (1 of 4 documents written)")
        expect(panel).to_contain_text("next in the queue: the cancelled job 3f2a9c1e is stopping at its next passage",
                                      timeout=10_000)
        expect(panel.locator(".job-head .status-badge")).to_have_text("done", timeout=10_000)
        expect(panel).not_to_contain_text("in the queue")


def test_a_page_opened_later_follows_the_workspace_s_unfinished_jobs(browser: Browser,
                                                                     empty_server: ServerProcess) -> None:
    """A job this tab did not start (another tab's, another person's, or one a restart of the server resumed) was
    nowhere on a page opened afterwards: no progress, and its documents missing from the list without a word."""
    resumed = job("running", 4, 6, 20.0)
    resumed["job"].update(id="job-resumed", resumed=1)
    listing = {"success": True, "jobs": [resumed["job"]]}
    states = [resumed, job("done", 10, 0, None)]
    served: list[int] = []

    def answer(route: Route) -> None:
        state = states[min(len(served), len(states) - 1)]
        state["job"]["id"] = "job-resumed"
        served.append(state["job"]["progress"]["done"])
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    watched = watch(browser, empty_server.base_url)
    try:
        p = watched.page
        p.route("**/api/adaptive-entity-rag?action=jobs*", lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(listing)))
        p.route("**/api/adaptive-entity-rag?action=job&id=job-resumed*", answer)
        watched.goto("/#documents")
        panel = p.locator('.job[data-job="job-resumed"]')
        expect(panel.locator(".job-head b")).to_have_text(
            "Upload of 10 document(s), started 2026-11-25 10:00:00 UTC (resumed after a restart)")
        expect(panel.locator(".job-head .status-badge")).to_have_text("done", timeout=10_000)
        assert served[:2] == [4, 10]
        watched.check()
    finally:
        watched.page.context.close()


def test_the_page_asks_the_server_for_the_unfinished_jobs(browser: Browser, empty_server: ServerProcess) -> None:
    """The listing the page reads is the real endpoint's (an empty server: no job, no panel, no error)."""
    watched = watch(browser, empty_server.base_url)
    try:
        with watched.page.expect_response(lambda r: "action=jobs" in r.url) as listed:
            p = watched.goto("/#documents")
        assert listed.value.status == 200 and listed.value.json() == {"success": True, "jobs": []}
        assert "unfinished=true" in listed.value.url
        assert p.locator(".job").count() == 0
        watched.check()
    finally:
        watched.page.context.close()


def test_a_running_job_is_cancelled_from_its_panel(browser: Browser, empty_server: ServerProcess) -> None:
    """The panel of a queued or running job has a Cancel button: it posts ``cancel-job`` for that job, and the
    panel then shows the job cancelled with what was not ingested; the button goes."""
    posted: list[dict[str, Any]] = []

    def read(route: Route) -> None:
        state = job("cancelled", 3, 7, None) if posted else job("running", 3, 7, 30.0)
        state["job"].update(id="job-cancel")
        if posted:
            state["job"]["error"] = "cancelled by its user"
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    def cancel(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        posted.append(json.loads(route.request.post_data or "{}"))
        state = job("cancelled", 3, 7, None)
        state["job"].update(id="job-cancel", error="cancelled by its user")
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    with following(browser, empty_server, "job-cancel", "Upload of 10 file(s)", read, cancel) as (_, panel):
        expect(panel).to_contain_text("about 30 s left")
        button = panel.get_by_role("button", name="Cancel the ingest of Upload of 10 file(s)")
        expect(button).to_be_visible()
        button.click()
        expect(panel.locator(".job-head .status-badge")).to_have_text("cancelled", timeout=10_000)
        expect(panel).to_contain_text("cancelled by its user")
        expect(panel).to_contain_text("3 of 10 document(s)")
        expect(button).to_be_hidden()
        assert posted == [{"action": "cancel-job", "id": "job-cancel"}]


def test_a_cancel_during_a_write_shows_that_batch_going_in_then_what_was_left(browser: Browser,
                                                                               empty_server: ServerProcess) -> None:
    """A cancel that came while a batch was being written cannot stop it: the panel says so at once (from the
    cancel's answer), keeps following the job until the batch is in, then lists what was not ingested."""
    posted: list[dict[str, Any]] = []
    reads: list[int] = []

    def cancelled(done: int, pending: int, writing: int) -> dict[str, Any]:
        state = job("cancelled", done, pending, None)
        state["job"].update(id="job-write", error="cancelled by its user")
        state["job"]["progress"]["writing"] = writing
        return state

    def read(route: Route) -> None:
        reads.append(len(posted))
        if not posted:
            state = job("running", 3, 7, 30.0)
            state["job"].update(id="job-write")
        else:  # one more read while the batch is written, then it is in
            state = cancelled(3, 7, 2) if reads.count(1) < 2 else cancelled(5, 5, 0)
        route.fulfill(status=200, content_type="application/json", body=json.dumps(state))

    def cancel(route: Route) -> None:
        if route.request.method != "POST":
            route.fallback()
            return
        posted.append(json.loads(route.request.post_data or "{}"))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(cancelled(3, 7, 2)))

    with following(browser, empty_server, "job-write", "Upload of 10 file(s)", read, cancel) as (_, panel):
        expect(panel).to_contain_text("about 30 s left")
        panel.get_by_role("button", name="Cancel the ingest of Upload of 10 file(s)").click()
        # at once, from the cancel's answer: the badge and the batch that goes in still
        expect(panel.locator(".job-head .status-badge")).to_have_text("cancelled", timeout=3_000)
        expect(panel).to_contain_text("2 being written when cancelled: they go in still")
        expect(panel).to_contain_text("5 not ingested")
        # once written: the job's final count and its reason
        expect(panel).to_contain_text("5 of 10 document(s)", timeout=20_000)
        expect(panel).to_contain_text("cancelled by its user")
        expect(panel).not_to_contain_text("being written")
