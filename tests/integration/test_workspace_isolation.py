"""The leak test: three workspaces with the same document ids, titles and entity names, driven concurrently
through the HTTP API with thousands of mixed operations (queries, streamed queries, /v1 chat with the workspace's
model, MCP tools over /mcp, adds, uploads and their jobs, deletes, entity adds/alias removals/deletes, listings),
bounded in time.

Every document's text, every upload and every entity alias carries its workspace's unique token; every response of
a workspace is checked for the others' tokens (results, citations, related passages, entities, document lists,
jobs), its counts are checked against what that workspace could hold, a job of one workspace is asked for from
another (404), and the query response names its workspace. Afterwards every acknowledged write is present (and
every acknowledged delete absent), the workspaces' own counts match, and the metrics counted each workspace's
queries and writes under its own label.

The variants break isolation on purpose (a registry that ignores the requested workspace, as LightRAG's ignored
header did; one entity store shared by every workspace) and check that this test catches each.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.support.apps import URL, running_app

WORKSPACES_PATH = "/api/workspaces"
NAMES = ("default", "beta", "gamma")  # the default keeps the legacy paths: the likeliest to be shared by mistake
WORKERS = 6
# The mixed phase stops after this (the whole test stays under ~2 minutes); LEAK_BUDGET_S runs it longer or shorter.
BUDGET_S = float(os.environ.get("LEAK_BUDGET_S", "80"))
MIN_OPERATIONS = int(os.environ.get("LEAK_MIN_OPERATIONS", "1000"))
TITLES = ("年度报告", "Annual report", "星河科技简介", "产品手册")
ENTITY = "星河科技"  # the same entity name in every workspace, with each workspace's own aliases
QUESTIONS = ("星河科技是哪一年成立的？", "What does the annual report say about revenue?", "产品手册里写了什么？",
             "星河科技的创始人是谁？")


class Leak(AssertionError):
    """Something of one workspace showed in another's response, or a write went missing."""


@dataclass
class Worker:
    """One thread's share of the work: the document ids and entity it alone writes, in every workspace (so the
    ids overlap across workspaces, and each workspace's expected state is known exactly)."""

    number: int
    docs: dict[str, dict[str, str]] = field(default_factory=dict)  # workspace -> id -> text (acknowledged)
    aliases: dict[str, set[str]] = field(default_factory=dict)  # workspace -> this worker's entity's aliases
    queries: Counter[str] = field(default_factory=Counter)
    written: Counter[str] = field(default_factory=Counter)  # documents written (added or replaced), acknowledged
    operations: int = 0

    @property
    def entity(self) -> str:
        return f"{ENTITY}{self.number}"


class Run:
    """The HTTP client, the workspaces' tokens and the checks every response goes through."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.tokens = {name: f"wsmark{name}{uuid4().hex[:6]}" for name in NAMES}
        self.problems: list[str] = []
        self.lock = threading.Lock()
        self.jobs: dict[str, list[str]] = {name: [] for name in NAMES}

    def problem(self, text: str) -> None:
        with self.lock:
            if len(self.problems) < 50:
                self.problems.append(text)

    def check(self, workspace: str, what: str, body: str) -> None:
        """No other workspace's token anywhere in this response of ``workspace``."""
        for other, token in self.tokens.items():
            if other != workspace and token in body:
                self.problem(f"{what} in {workspace} shows {other}'s {token}: {body[:300]}")

    def send(self, workspace: str, what: str, method: str, url: str, expect: tuple[int, ...] = (200,),
             **kwargs: Any) -> Any:
        headers = {**kwargs.pop("headers", {}), "X-Workspace": workspace}
        r = self.client.request(method, url, headers=headers, **kwargs)
        if r.status_code not in expect:
            self.problem(f"{what} in {workspace}: {r.status_code} {r.text[:300]}")
            return None
        self.check(workspace, what, r.text)
        return r

    # -- operations ----------------------------------------------------------------------------------------
    def text(self, workspace: str, worker: Worker, doc_id: str) -> str:
        token = self.tokens[workspace]
        return (f"星河科技 {token} 的{random.choice(TITLES)}：公司成立于{random.randint(1990, 2020)}年，"
                f"营收{random.randint(1, 99)}亿元。The annual report of {token} lists revenue and products "
                f"({doc_id}, worker {worker.number}).")

    def add(self, workspace: str, worker: Worker, ids: list[str]) -> None:
        docs = [{"id": i, "title": random.choice(TITLES), "text": self.text(workspace, worker, i)} for i in ids]
        r = self.send(workspace, "add-documents", "POST", URL, json={"action": "add-documents", "documents": docs})
        if r is not None:
            body = r.json()
            worker.written[workspace] += body["documents"]
            for d in docs:
                worker.docs.setdefault(workspace, {})[d["id"]] = d["text"]

    def upload(self, workspace: str, worker: Worker, ids: list[str]) -> None:
        texts = {i: self.text(workspace, worker, i) for i in ids}
        files = [("files", (i, f"# {random.choice(TITLES)}\n\n{t}".encode(), "text/markdown")) for i, t in texts.items()]
        r = self.send(workspace, "upload", "POST", f"{URL}/upload", expect=(202,), files=files,
                      data={"skipUnchanged": "false"})
        if r is None:
            return
        job_id = r.json()["jobId"]
        with self.lock:
            self.jobs[workspace].append(job_id)
        deadline = time.monotonic() + 60
        while True:
            got = self.send(workspace, "job", "GET", URL, params={"action": "job", "id": job_id, "limit": 500})
            if got is None:
                return
            job = got.json()["job"]
            if job["status"] in ("done", "failed"):
                break
            if time.monotonic() > deadline:
                self.problem(f"upload job {job_id} in {workspace} did not finish")
                return
            time.sleep(0.05)
        written = [o["id"] for o in job["documents"] if o["status"] in ("done", "replaced")]
        if sorted(written) != sorted(ids):
            self.problem(f"upload job in {workspace} wrote {written}, not {sorted(ids)}: {job}")
        worker.written[workspace] += len(written)
        for i in written:
            worker.docs.setdefault(workspace, {})[i] = texts[i]
        self.peek_foreign_job(workspace, job_id)

    def peek_foreign_job(self, workspace: str, job_id: str) -> None:
        """Another workspace asking for this job: 404, as for a job that does not exist."""
        other = random.choice([n for n in NAMES if n != workspace])
        self.send(other, "foreign job", "GET", URL, expect=(404,), params={"action": "job", "id": job_id})

    def delete(self, workspace: str, worker: Worker, doc_id: str) -> None:
        held = doc_id in worker.docs.get(workspace, {})
        r = self.send(workspace, "delete-document", "POST", URL, expect=(200,) if held else (404,),
                      json={"action": "delete-document", "id": doc_id})
        if r is not None and held:
            del worker.docs[workspace][doc_id]

    def chat(self, workspace: str, worker: Worker) -> None:
        """The OpenAI-compatible route, the workspace named by the model."""
        r = self.client.post("/v1/chat/completions", json={
            "model": f"aer:{workspace}", "messages": [{"role": "user", "content": random.choice(QUESTIONS)}]})
        if r.status_code != 200:
            self.problem(f"chat in {workspace}: {r.status_code} {r.text[:300]}")
            return
        self.check(workspace, "chat", r.text)
        worker.queries[workspace] += 1

    def mcp(self, workspace: str, worker: Worker) -> None:
        """An MCP tool over HTTP: the workspace as the tool's argument or the connection's header."""
        calls: list[tuple[str, dict[str, Any]]] = [("query", {"question": random.choice(QUESTIONS), "top_k": 8}),
                                                   ("list_documents", {"limit": 500}),
                                                   ("list_entities", {"limit": 500})]
        tool, arguments = random.choice(calls)
        by_header = random.random() < 0.5
        r = self.client.post("http://127.0.0.1:8000/mcp", headers={
            "accept": "application/json, text/event-stream", "content-type": "application/json",
            **({"X-Workspace": workspace} if by_header else {})}, json={
            "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
                "name": tool, "arguments": {**arguments, **({} if by_header else {"workspace": workspace})}}})
        if r.status_code != 200 or r.json()["result"].get("isError"):
            self.problem(f"mcp {tool} in {workspace}: {r.status_code} {r.text[:300]}")
            return
        self.check(workspace, f"mcp {tool}", r.text)
        if tool == "query":
            worker.queries[workspace] += 1

    def query(self, workspace: str, worker: Worker, stream: bool) -> None:
        r = self.send(workspace, "streamed query" if stream else "query", "POST", URL,
                      json={"action": "query", "question": random.choice(QUESTIONS), "topK": 8, "stream": stream,
                            "searchMode": random.choice(["auto", "hybrid", "semantic"])})
        if r is None:
            return
        worker.queries[workspace] += 1
        if not stream and r.json().get("workspace") != workspace:
            self.problem(f"a query of {workspace} answered as {r.json().get('workspace')!r}")

    def entity_change(self, workspace: str, worker: Worker) -> None:
        aliases = worker.aliases.setdefault(workspace, set())
        token = self.tokens[workspace]
        roll = random.random()
        if roll < 0.6 or not aliases:
            alias = f"星河{token}w{worker.number}n{random.randint(0, 999)}"  # a worker's own: no two workers collide
            r = self.send(workspace, "add-entity", "POST", URL, json={
                "action": "add-entity", "standardName": worker.entity, "type": "ORGANIZATION", "aliases": [alias]})
            if r is not None:
                aliases.add(alias)
        elif roll < 0.85:
            alias = random.choice(sorted(aliases))
            r = self.send(workspace, "remove-alias", "POST", URL, json={
                "action": "remove-alias", "standardName": worker.entity, "aliases": [alias]})
            if r is not None:
                aliases.discard(alias)
        else:
            r = self.send(workspace, "delete-entity", "POST", URL,
                          json={"action": "delete-entity", "standardName": worker.entity})
            if r is not None:
                aliases.clear()

    def listing(self, workspace: str, worker: Worker) -> None:
        kind = random.random()
        if kind < 0.4:
            r = self.send(workspace, "documents", "GET", URL, params={"action": "documents", "limit": 500})
            if r is not None:
                self.check_count(workspace, r.json())
        elif kind < 0.6:
            ids = sorted(worker.docs.get(workspace, {}))
            if ids:
                self.send(workspace, "document", "GET", URL, expect=(200, 404),
                          params={"action": "document", "id": random.choice(ids)})
        elif kind < 0.85:
            self.send(workspace, "entities", "GET", URL, params={"action": "entities", "limit": 500})
        else:
            r = self.send(workspace, "workspace info", "GET", f"{WORKSPACES_PATH}/{workspace}")
            if r is not None and r.json()["documents"] > self.ceiling(workspace):
                self.problem(f"{workspace} counts {r.json()['documents']} documents, more than it ever held")

    def ceiling(self, workspace: str) -> int:
        """The most documents ``workspace`` can hold: every id a worker may write there."""
        return WORKERS * IDS_PER_WORKER

    def check_count(self, workspace: str, page: dict[str, Any]) -> None:
        # (the total and the page are two reads: a concurrent write may land between them, so only the bound)
        if max(page["total"], len(page["documents"])) > self.ceiling(workspace):
            self.problem(f"{workspace} lists {page['total']} documents ({len(page['documents'])} shown), more "
                         "than it can hold")


IDS_PER_WORKER = 6


def doc_ids(worker: Worker) -> list[str]:
    """The worker's ids, the same in every workspace: plain, in folders (as uploads name them), with spaces."""
    n = worker.number
    return [f"doc-{n}-{i}" for i in range(IDS_PER_WORKER - 2)] + [f"a/report-{n}.md", f"b/report-{n}.md"]


def work(run: Run, worker: Worker, deadline: float) -> None:
    rng = random.Random(worker.number)
    ids = doc_ids(worker)
    plain, files = ids[:-2], ids[-2:]
    while time.monotonic() < deadline:
        workspace = rng.choice(NAMES)
        roll = rng.random()
        # writes are the slow operations (an add embeds, indexes and tags; an entity change retags): a fifth
        if roll < 0.20:
            run.query(workspace, worker, stream=rng.random() < 0.25)
        elif roll < 0.25:
            run.chat(workspace, worker)
        elif roll < 0.30:
            run.mcp(workspace, worker)
        elif roll < 0.37:
            run.add(workspace, worker, rng.sample(plain, rng.randint(1, 2)))
        elif roll < 0.41:
            run.upload(workspace, worker, files)
        elif roll < 0.49:
            run.delete(workspace, worker, rng.choice(ids))
        elif roll < 0.56:
            run.entity_change(workspace, worker)
        else:
            run.listing(workspace, worker)
        worker.operations += 1


def metric_totals(client: TestClient, name: str) -> dict[str, float]:
    text = client.get("/metrics").text
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name:
                out[s.labels.get("workspace", "")] = out.get(s.labels.get("workspace", ""), 0) + s.value
    return out


def final_checks(run: Run, workers: list[Worker]) -> None:
    """Every acknowledged write present, every acknowledged delete absent; counts and metrics per workspace."""
    client = run.client
    for workspace in NAMES:
        expected: dict[str, str] = {}
        for w in workers:
            expected.update(w.docs.get(workspace, {}))
        r = run.send(workspace, "final documents", "GET", URL, params={"action": "documents", "limit": 500})
        listed = {d["id"] for d in r.json()["documents"]} if r is not None else set()
        if listed != set(expected):
            run.problem(f"{workspace} holds {sorted(listed ^ set(expected))} it should not, or lacks them")
        for doc_id, text in expected.items():
            got = run.send(workspace, "final document", "GET", URL, params={"action": "document", "id": doc_id})
            if got is not None:
                stored = " ".join(c["text"] for c in got.json()["chunks"])
                fact = re.search(r"公司成立于\d+年，营收\d+亿元", text)
                if run.tokens[workspace] not in stored or fact is None or fact.group(0) not in stored:
                    run.problem(f"{workspace}/{doc_id} is not the text last written there: {stored[:200]}")
        info = run.send(workspace, "final info", "GET", f"{WORKSPACES_PATH}/{workspace}")
        if info is not None and info.json()["documents"] != len(expected):
            run.problem(f"{workspace} counts {info.json()['documents']} documents, holds {len(expected)}")
        entities = run.send(workspace, "final entities", "GET", URL, params={"action": "entities", "limit": 500})
        names = {e["standardName"]: e for e in entities.json()["entities"]} if entities is not None else {}
        for w in workers:
            aliases = w.aliases.get(workspace, set())
            have = set(names.get(w.entity, {}).get("aliases", []))
            if aliases and not aliases <= have:
                run.problem(f"{workspace}: {w.entity} lacks acknowledged aliases {sorted(aliases - have)}")
    queries = metric_totals(client, "aer_queries_total")
    written = metric_totals(client, "aer_ingested_documents_total")
    for workspace in NAMES:
        asked = sum(w.queries[workspace] for w in workers)
        if queries.get(workspace, 0) != asked:
            run.problem(f"metrics count {queries.get(workspace, 0)} queries in {workspace}, {asked} were answered")
        wrote = sum(w.written[workspace] for w in workers)
        if written.get(workspace, 0) != wrote:
            run.problem(f"metrics count {written.get(workspace, 0)} documents written in {workspace}, {wrote} were")


def mixed_run(client: TestClient, budget_s: float) -> tuple[Run, list[Worker]]:
    run = Run(client)
    for name in NAMES:
        if name != "default":
            assert client.post(WORKSPACES_PATH, json={"name": name}).status_code == 201
    workers = [Worker(n) for n in range(WORKERS)]
    deadline = time.monotonic() + budget_s
    with ThreadPoolExecutor(WORKERS) as pool:
        for f in [pool.submit(work, run, w, deadline) for w in workers]:
            f.result()
    final_checks(run, workers)
    return run, workers


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running_app(tmp_path) as c:
        yield c


@pytest.mark.slow
def test_no_workspace_ever_sees_anothers_data_under_concurrent_mixed_load(client: TestClient) -> None:
    started = time.monotonic()
    run, workers = mixed_run(client, BUDGET_S)
    operations = sum(w.operations for w in workers)
    assert not run.problems, "\n".join(run.problems)
    assert operations >= MIN_OPERATIONS, operations
    for workspace in NAMES:  # the load did reach every workspace with every kind of write
        assert sum(w.written[workspace] for w in workers) > 0 and sum(w.queries[workspace] for w in workers) > 0
        assert run.jobs[workspace]
    print(f"\n{operations} operations in {time.monotonic() - started:.1f} s, no leak")


def ignore_the_requested_workspace(client: TestClient) -> None:
    """The registry answers every name with the default workspace (a header read and then ignored)."""
    registry = client.app.state.workspaces  # type: ignore[attr-defined]
    original = registry.get
    registry.get = lambda name=None: original(None)


def share_one_entity_store(client: TestClient) -> None:
    """Every workspace's entity dictionary is the default's (one store where each needs its own)."""
    registry = client.app.state.workspaces  # type: ignore[attr-defined]
    original = registry.get
    shared = original(None).context.entities

    def get(name: str | None = None) -> Any:
        resources = original(name)
        if resources.context.entities is not shared:
            resources.context = dataclasses.replace(resources.context, entities=shared)
        return resources

    registry.get = get


@pytest.mark.parametrize("break_isolation", [ignore_the_requested_workspace, share_one_entity_store],
                         ids=["ignored-workspace", "shared-entity-store"])
def test_the_leak_test_catches_broken_isolation(client: TestClient,
                                                break_isolation: Callable[[TestClient], None]) -> None:
    for name in NAMES:
        if name != "default":
            assert client.post(WORKSPACES_PATH, json={"name": name}).status_code == 201
    break_isolation(client)
    run = Run(client)
    workers = [Worker(n) for n in range(2)]
    for workspace in NAMES:
        for w in workers:
            run.add(workspace, w, doc_ids(w)[:2])
            run.entity_change(workspace, w)
            run.listing(workspace, w)
            run.query(workspace, w, stream=False)
        run.send(workspace, "entities", "GET", URL, params={"action": "entities", "limit": 500})
    final_checks(run, workers)
    assert run.problems, "the broken isolation went unnoticed"
    assert any("shows" in p for p in run.problems), run.problems


def test_tokens_are_distinct_and_never_one_inside_another(client: TestClient) -> None:
    tokens = list(Run(client).tokens.values())
    assert len(set(tokens)) == len(tokens)
    assert not any(a != b and a in b for a in tokens for b in tokens)
    assert json.dumps(tokens)  # plain ASCII, safe in any JSON body
