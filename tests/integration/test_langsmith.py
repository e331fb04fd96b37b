"""LangSmith tracing needs no code of ours: LangChain's own ``LANGSMITH_*`` variables turn it on. ``aer serve`` runs
with them pointed at a local capture server standing in for LangSmith, and the graph's runs arrive there."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.servers import HTTP_TIMEOUT, URL, ServerProcess

pytestmark = pytest.mark.slow
WAIT_S = 60.0


class Capture:
    """Answers every request with ``{}`` and keeps (method, path, body)."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, bytes]] = []
        capture = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _record(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                capture.requests.append((self.command, self.path, self.rfile.read(length) if length else b""))
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            do_GET = do_POST = do_PATCH = _record

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def uploads(self) -> bytes:
        return b"".join(body for method, path, body in self.requests if method == "POST" and "/runs" in path)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def capture() -> Iterator[Capture]:
    c = Capture()
    yield c
    c.close()


def test_langsmith_variables_send_every_graph_node_as_a_run(tmp_path: Path, capture: Capture) -> None:
    server = ServerProcess(tmp_path, env={
        "AER_DATA_DIR": str(tmp_path / "data"), "LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": capture.url,
        "LANGSMITH_API_KEY": "lsv2-test-key", "LANGSMITH_PROJECT": "aer-test",
    })
    try:
        server.start()
        with httpx.Client(base_url=server.base_url, timeout=HTTP_TIMEOUT) as http:
            docs = [{"id": "ml", "title": "机器学习", "text": "机器学习是人工智能的一个分支。"}]
            assert http.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
            r = http.post(URL, json={"action": "query", "question": "什么是机器学习？"})
            assert r.status_code == 200
        deadline = time.monotonic() + WAIT_S
        while b"write_answer" not in capture.uploads() and time.monotonic() < deadline:
            time.sleep(0.5)
    finally:
        server.kill()
    uploads = capture.uploads()
    steps = [s["node"] for s in r.json()["workflow"]["steps"]]
    assert uploads, f"no run reached the LangSmith endpoint: {[(m, p) for m, p, _ in capture.requests]}"
    for node in set(steps):
        assert node.encode() in uploads, node
    assert "什么是机器学习".encode() in uploads  # the run's input
