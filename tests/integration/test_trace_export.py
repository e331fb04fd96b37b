"""Traces leaving a real ``aer serve`` process for a local capture server:

- OpenTelemetry (``AER_TRACING=true``), its OTLP/HTTP exporter configured only by the standard ``OTEL_*``
  variables: the request's span, the run's and one per graph node arrive, decoded with OTLP's own protobuf types;
- LangSmith, which needs no code of ours: LangChain's own ``LANGSMITH_*`` variables send every node as a run.
"""

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

    def bodies(self, path: str) -> list[bytes]:
        return [body for method, p, body in self.requests if method == "POST" and p == path]

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


def ask(server: ServerProcess) -> dict[str, Any]:
    """Add a document and ask about it; the query's response."""
    with httpx.Client(base_url=server.base_url, timeout=HTTP_TIMEOUT) as http:
        docs = [{"id": "ml", "title": "机器学习", "text": "机器学习是人工智能的一个分支。"}]
        assert http.post(URL, json={"action": "add-documents", "documents": docs}).status_code == 200
        r = http.post(URL, json={"action": "query", "question": "什么是机器学习？"})
        assert r.status_code == 200
        body: dict[str, Any] = r.json()
        return body


def exported_spans(capture: Capture) -> list[tuple[str, dict[str, Any], Any]]:
    """(service name, resource attributes, span) of every span the OTLP exporter sent."""
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    from opentelemetry.proto.common.v1.common_pb2 import AnyValue

    def plain(value: AnyValue) -> Any:
        return getattr(value, value.WhichOneof("value") or "string_value")

    out = []
    for body in capture.bodies("/v1/traces"):
        request = ExportTraceServiceRequest.FromString(body)
        for resource_spans in request.resource_spans:
            resource = {a.key: plain(a.value) for a in resource_spans.resource.attributes}
            for scope in resource_spans.scope_spans:
                out += [(resource.get("service.name"), resource, span) for span in scope.spans]
    return out


def test_otlp_export_is_configured_by_the_otel_variables(tmp_path: Path, capture: Capture) -> None:
    server = ServerProcess(tmp_path, env={
        "AER_DATA_DIR": str(tmp_path / "data"), "AER_TRACING": "true",
        "OTEL_EXPORTER_OTLP_ENDPOINT": capture.url, "OTEL_SERVICE_NAME": "rag-under-test",
        "OTEL_BSP_SCHEDULE_DELAY": "200",
    })
    try:
        server.start()
        body = ask(server)
        deadline = time.monotonic() + WAIT_S
        while not any(s.name == "write_answer" for _, _, s in exported_spans(capture)) and time.monotonic() < deadline:
            time.sleep(0.5)
    finally:
        server.kill()
    spans = exported_spans(capture)
    assert spans, f"nothing reached {capture.url}/v1/traces: {[(m, p) for m, p, _ in capture.requests]}"
    assert {service for service, _, _ in spans} == {"rag-under-test"}
    # Two requests (add-documents, then the query) each leave a "POST" span, exported in either order:
    # the run's parent must be one of them, in the same trace.
    (run,) = [s for _, _, s in spans if s.name == "rag.query"]
    requests = [s for _, _, s in spans if s.name == f"POST {URL}"]
    assert len(requests) == 2
    assert [(r.span_id, r.trace_id) for r in requests].count((run.parent_span_id, run.trace_id)) == 1
    nodes = [s for _, _, s in spans if s.parent_span_id == run.span_id]
    assert [s.name for s in sorted(nodes, key=lambda s: s.start_time_unix_nano)] == [
        s["node"] for s in body["workflow"]["steps"]]


def test_langsmith_variables_send_every_graph_node_as_a_run(tmp_path: Path, capture: Capture) -> None:
    server = ServerProcess(tmp_path, env={
        "AER_DATA_DIR": str(tmp_path / "data"), "LANGSMITH_TRACING": "true", "LANGSMITH_ENDPOINT": capture.url,
        "LANGSMITH_API_KEY": "lsv2-test-key", "LANGSMITH_PROJECT": "aer-test",
    })
    try:
        server.start()
        body = ask(server)
        deadline = time.monotonic() + WAIT_S
        while b"write_answer" not in capture.uploads() and time.monotonic() < deadline:
            time.sleep(0.5)
    finally:
        server.kill()
    uploads = capture.uploads()
    steps = [s["node"] for s in body["workflow"]["steps"]]
    assert uploads, f"no run reached the LangSmith endpoint: {[(m, p) for m, p, _ in capture.requests]}"
    for node in set(steps):
        assert node.encode() in uploads, node
    assert "什么是机器学习".encode() in uploads  # the run's input
