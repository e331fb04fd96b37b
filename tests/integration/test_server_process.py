"""The service as users run it: ``aer serve`` in its own process, spoken to over real HTTP.

One server per module (Milvus Lite file + SQLite in a temp data dir, no LLM), plus the docker-compose topology
without Docker: the api service's environment from docker-compose.yml, pointed at a real Redis and a Milvus
gRPC server (``milvus-lite server``) on loopback ports. Every wait is bounded and every process (and its
process group) is always reaped, also when a test fails.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
import pytest
import redis
import yaml
from pymilvus import MilvusClient

from app.cli import demo_dir
from app.client import RemoteClient, RemoteError, iter_sse
from app.schemas import QueryResponse
from tests.support.servers import (
    HTTP_TIMEOUT,
    URL,
    LiteServer,
    ServerProcess,
    aer_command,
    clean_env,
    free_port,
    group_alive,
    milvus_lite_server_command,
)

pytestmark = pytest.mark.slow

SEED_ENTITIES = ("Elon Musk", "Tesla", "SpaceX", "Apple", "北京", "上海", "中国", "机器学习")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("serve"))
    try:
        yield srv.start()
    finally:
        srv.kill()


@pytest.fixture(scope="module")
def http(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=HTTP_TIMEOUT) as c:
        yield c


@pytest.fixture(scope="module")
def loaded(http: httpx.Client, server: ServerProcess) -> dict[str, Any]:
    """Seed entities over raw HTTP and the demo corpus through RemoteClient (several batches)."""
    lines = (demo_dir() / "entities.jsonl").read_text(encoding="utf-8").splitlines()
    entities = [
        e for e in (json.loads(line) for line in lines if line.strip()) if e["standardName"] in SEED_ENTITIES
    ]
    for entity in entities:
        r = http.post(URL, json={"action": "add-entity", **entity})
        assert r.status_code == 200, r.text
        assert r.json()["entity"]["standardName"] == entity["standardName"]
    docs = [
        json.loads(line)
        for line in (demo_dir() / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    started = time.monotonic()
    with RemoteClient(server.base_url, batch_size=25) as remote:
        report = remote.add_documents(docs)
    return {"entities": entities, "docs": docs, "report": report, "ingest_s": time.monotonic() - started}


def sse(response: httpx.Response) -> list[tuple[str, Any]]:
    return [(name, json.loads(data)) for name, data in iter_sse(response.iter_lines())]


def test_health_and_readiness(http: httpx.Client) -> None:
    assert http.get("/healthz").json() == {"status": "ok"}
    ready = http.get("/readyz")
    assert ready.status_code == 200 and ready.json()["ready"] is True


def test_documents_were_ingested_in_batches(loaded: dict[str, Any]) -> None:
    report = loaded["report"]
    assert report["batches"] == 3 and report["documents"] == len(loaded["docs"])
    assert report["chunks"] >= report["documents"]
    assert sorted(report["ids"]) == sorted(d["id"] for d in loaded["docs"])


def test_list_entities(http: httpx.Client, loaded: dict[str, Any]) -> None:
    page = http.get(URL, params={"action": "entities", "type": "ORGANIZATION", "limit": 2}).json()
    assert page["success"] is True and len(page["entities"]) == 2
    assert page["total"] == sum(1 for e in loaded["entities"] if e["type"] == "ORGANIZATION")
    assert all(e["type"] == "ORGANIZATION" for e in page["entities"])
    everyone = http.get(URL, params={"action": "entities", "limit": 500}).json()
    names = {e["standardName"] for e in everyone["entities"]}
    assert set(SEED_ENTITIES) <= names
    # the others are names the ingest linked across scripts (推特 = Twitter): each with its Latin alias, none a
    # part of a longer name (飞飞 inside 李飞飞 for "Fei-Fei")
    linked = [e for e in everyone["entities"] if e["standardName"] not in SEED_ENTITIES]
    assert all(any(a.isascii() for a in e["aliases"]) for e in linked), linked
    assert not any(e["standardName"] in n and e["standardName"] != n for e in linked for n in names), linked


def test_query_json(http: httpx.Client, loaded: dict[str, Any]) -> None:
    r = http.post(URL, json={"action": "query", "question": "马斯克创办的公司有哪些？", "topK": 3})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert body["success"] is True and body["answer"]
    assert body["routingDecision"]["action"] == "structured_search"
    top = body["retrievalDetails"]["topResults"]
    assert 0 < len(top) <= 3 and all("Elon Musk" in t["entities"].get("PERSON", []) for t in top)
    response = QueryResponse.model_validate(body)  # what a CLI client prints from
    assert response.citations and response.workflow.steps[0].node == "parse_query"


def test_query_streaming_sends_steps_then_the_result(http: httpx.Client, loaded: dict[str, Any]) -> None:
    body = {"action": "query", "question": "什么是机器学习？"}
    with http.stream("POST", URL, json=body, headers={"accept": "text/event-stream"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = sse(r)
    names = [n for n, _ in events]
    assert names[-1] == "result" and "error" not in names
    steps = [d["node"] for n, d in events if n == "step"]
    assert steps[0] == "parse_query" and steps[-1] == "check_answer" and "search_semantic" in steps
    assert names.index("result") > max(i for i, n in enumerate(names) if n == "step")
    result = events[-1][1]
    assert result["success"] is True and result["routingDecision"]["action"] == "semantic_search"


def test_remote_client_stream_and_query_agree(server: ServerProcess, loaded: dict[str, Any]) -> None:
    with RemoteClient(server.base_url, timeout=120) as remote, httpx.Client(
            base_url=server.base_url, timeout=HTTP_TIMEOUT) as http, http.stream(
            "POST", URL, json={"action": "query", "question": "什么是机器学习？", "stream": True}) as r:
        events = sse(r)
        plain = remote.query("什么是机器学习？")
    assert events[-1][0] == "result"
    streamed = events[-1][1]
    assert streamed["answer"] == plain["answer"]
    assert [t["docId"] for t in streamed["retrievalDetails"]["topResults"]] == [
        t["docId"] for t in plain["retrievalDetails"]["topResults"]
    ]


def test_add_and_delete_a_document(http: httpx.Client, server: ServerProcess, loaded: dict[str, Any]) -> None:
    doc = {"id": "proc-tmp", "title": "量子计算", "text": "量子计算机使用量子比特进行计算。", "metadata": {}}
    r = http.post(URL, json={"action": "add-documents", "documents": [doc]})
    assert r.status_code == 200 and r.json()["ids"] == ["proc-tmp"]
    hits = http.post(URL, json={"action": "query", "question": "量子比特", "searchMode": "hybrid"}).json()
    assert "proc-tmp" in [t["docId"] for t in hits["retrievalDetails"]["topResults"]]
    with RemoteClient(server.base_url) as remote:
        deleted = remote.delete_document("proc-tmp")
        assert deleted == {"success": True, "id": "proc-tmp", "deletedChunks": 1}
        with pytest.raises(RemoteError) as info:
            remote.delete_document("proc-tmp")
    assert (info.value.status, info.value.code) == (404, "document_not_found")


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        ({"action": "delete-document", "id": "never-added"}, 404, "document_not_found"),
        ({"action": "query", "question": ""}, 422, "empty_question"),
        ({"action": "fly"}, 400, "unknown_action"),
        ({"action": "add-entity", "standardName": "X", "type": "ALIEN"}, 422, "invalid_entity_type"),
    ],
)
def test_client_errors_use_the_error_shape(
    http: httpx.Client, payload: dict[str, Any], status: int, code: str
) -> None:
    r = http.post(URL, json=payload)
    assert r.status_code == status, r.text
    body = r.json()
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"]


def test_invalid_json_over_the_wire(http: httpx.Client) -> None:
    r = http.post(
        URL, content=b'{"action": "query", "question": ', headers={"content-type": "application/json"}
    )
    assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_json")


def test_cli_talks_to_the_server(server: ServerProcess, loaded: dict[str, Any], tmp_path: Path) -> None:
    env = clean_env(NO_COLOR="1")
    run = [*aer_command()]
    q = subprocess.run([*run, "query", "马斯克创办的公司有哪些？", "--json", "--server", server.base_url],
                       capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)  # fmt: skip
    assert q.returncode == 0, q.stderr
    assert json.loads(q.stdout)["routingDecision"]["action"] == "structured_search"
    assert not (tmp_path / "data").exists(), "a --server command must not open local stores"
    listed = subprocess.run([*run, "entities", "list", "--type", "PERSON", "--server", server.base_url],
                            capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)  # fmt: skip
    assert listed.returncode == 0, listed.stderr
    people = httpx.get(server.base_url + URL, params={"action": "entities", "type": "PERSON", "limit": 500},
                       timeout=60).json()["entities"]  # the seeded one and those the ingest linked (雷军 = Lei Jun)
    printed = [json.loads(line)["standardName"] for line in listed.stdout.splitlines() if line.strip()]
    assert "Elon Musk" in printed and sorted(printed) == sorted(e["standardName"] for e in people)
    missing = subprocess.run([*run, "delete", "never-added", "--server", server.base_url],
                             capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)  # fmt: skip
    assert missing.returncode != 0 and "document_not_found" in missing.stderr + missing.stdout


def test_sigterm_shuts_down_cleanly(server: ServerProcess, loaded: dict[str, Any]) -> None:
    """Runs last in this module: stops the shared server."""
    assert server.proc is not None
    pgid = server.proc.pid
    started = time.monotonic()
    # uvicorn shuts down gracefully, then re-raises the captured SIGTERM (exit 143 in a container).
    assert server.stop() in (0, -signal.SIGTERM), server.tail()
    stop_s = time.monotonic() - started
    log = server.tail()
    assert "Application shutdown complete" in log and "Traceback" not in log, log
    deadline = time.monotonic() + 10
    while group_alive(pgid):
        assert time.monotonic() < deadline, "the server left child processes behind"
        time.sleep(0.1)
    with pytest.raises(httpx.TransportError):
        httpx.get(f"{server.base_url}/healthz", timeout=2.0)
    print(f"startup {server.startup_s:.1f} s, ingest {loaded['ingest_s']:.1f} s, shutdown {stop_s:.1f} s")


# -- the docker-compose topology, without Docker --------------------------------------------------------


class RedisServer:
    """``redis-server`` on a loopback port, no persistence."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + 30
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("redis-server did not start") from None
                time.sleep(0.1)
            finally:
                client.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)


COMPOSE_KEY = "k-compose-6d2f0b9e41"


def compose_api_env(data_dir: Path, milvus_port: int, redis_port: int) -> dict[str, str]:
    """The api service's environment from docker-compose.yml, its service hosts mapped to loopback ports."""
    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text("utf-8"))
    raw = compose["services"]["api"]["environment"]
    # Unset pass-through variables stay unset; ``${VAR:-default}`` takes its default, as with a clean shell;
    # the required key (``${AER_API_KEYS:?...}``) is the one a .env made by the README's command would hold.
    env = {k: re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(v)) for k, v in raw.items() if v is not None}
    env = {k: re.sub(r"\$\{AER_API_KEYS:\?[^}]*\}", COMPOSE_KEY, v) for k, v in env.items()}
    milvus, red = urlparse(env["MILVUS_URI"]), urlparse(env["REDIS_URL"])
    env["MILVUS_URI"] = milvus._replace(netloc=f"127.0.0.1:{milvus_port}").geturl()
    env["REDIS_URL"] = red._replace(netloc=f"127.0.0.1:{redis_port}").geturl()
    env["AER_DATA_DIR"] = str(data_dir)
    return env


@pytest.mark.needs_redis_server
def test_compose_topology_without_docker(tmp_path: Path) -> None:
    """The api as docker-compose runs it: Milvus over gRPC, entities in Redis, only the graph in the data dir."""
    lite = milvus_lite_server_command()
    assert shutil.which("redis-server"), "needs `redis-server` on PATH (.ci/run installs Debian's redis-server)"
    started: list[Any] = []
    try:
        red = RedisServer(tmp_path)
        started.append(red)
        milvus = LiteServer(lite, tmp_path / "milvus").start()
        started.append(milvus)
        data = tmp_path / "api-data"
        env = compose_api_env(data, milvus.port, red.port)
        assert env["MILVUS_URI"] == milvus.uri and env["REDIS_URL"] == red.url
        api = ServerProcess(tmp_path, env).start()
        started.append(api)

        assert env["AER_API_KEYS"] == COMPOSE_KEY and env["AER_REQUIRE_API_KEYS"] == "true"
        with httpx.Client(base_url=api.base_url, timeout=HTTP_TIMEOUT) as anonymous:
            assert anonymous.post(URL, json={"action": "add-entity", "standardName": "X",
                                             "type": "OTHER"}).status_code == 401  # writes need the key
        with httpx.Client(base_url=api.base_url, timeout=HTTP_TIMEOUT, headers={"X-API-Key": COMPOSE_KEY}) as http:
            ready = http.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json()["checks"]["milvus"]["ok"] and ready.json()["checks"]["entityStore"]["ok"]
            for entity in (
                {"standardName": "Elon Musk", "type": "PERSON", "aliases": ["马斯克", "Musk"]},
                {"standardName": "SpaceX", "type": "ORGANIZATION", "aliases": ["太空探索技术公司"]},
            ):
                assert http.post(URL, json={"action": "add-entity", **entity}).status_code == 200
            docs = [
                {"id": "spacex", "title": "SpaceX", "text": "2002年，马斯克创办了太空探索技术公司SpaceX。",
                 "metadata": {"person": ["Elon Musk"], "organization": ["SpaceX"]}},
                {"id": "ml", "title": "机器学习", "text": "机器学习是人工智能的一个分支。", "metadata": {}},
            ]  # fmt: skip
            assert http.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
            body = http.post(URL, json={"action": "query", "question": "马斯克创办了哪些公司？"}).json()
            assert body["entityValidation"][0]["standardName"] == "Elon Musk"  # resolved through Redis
            assert body["routingDecision"]["action"] == "structured_search"
            assert [t["docId"] for t in body["retrievalDetails"]["topResults"]] == ["spacex"]

        store = redis.Redis.from_url(red.url)
        try:
            assert store.dbsize() > 0, "the entities must be in Redis"
        finally:
            store.close()
        direct = MilvusClient(uri=milvus.uri)
        try:
            assert direct.has_collection(env.get("AER_COLLECTION", "aer_chunks"))
        finally:
            direct.close()
        assert api.stop() in (0, -signal.SIGTERM), api.tail()
        assert "Traceback" not in api.tail()
        # Chunks live in Milvus and entities in Redis; only the knowledge graph, the document inventory, the
        # ingest jobs and the answer layer's sentence vectors (SQLite files and their WALs) are kept on the api's
        # data volume.
        local = sorted(p.name for p in data.rglob("*")) if data.exists() else []
        assert {"graph.db", "documents.db", "jobs.db"} <= set(local), local
        assert [n for n in local if not n.startswith(("graph.db", "documents.db", "jobs.db", "sentences.db"))] == [], (
            f"unexpected local files: {local}")
    finally:
        for proc in reversed(started):
            proc.kill() if isinstance(proc, ServerProcess) else proc.stop()
