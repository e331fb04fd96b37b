"""The edges of a real ``aer serve`` process: trusted proxies and the rate limit, the access log, slow clients,
the connection cap and refusing to start open.

One server, with a small rate limit, 2 s header and body deadlines and a small connection cap, so every wait
here is a few seconds. Clients take distinct loopback source addresses (127.0.0.x) so each test has its own
rate-limit bucket; 127.0.0.2 plays a trusted reverse proxy (``AER_FORWARDED_ALLOW_IPS=127.0.0.2``).
"""

from __future__ import annotations

import select
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.servers import URL, ServerProcess, aer_command, clean_env

pytestmark = pytest.mark.slow

KEY = "k-hardened-4b1e9d0c72"
LIMIT = 3
DEADLINE_S = 2.0
MAX_CONNECTIONS = 20
PROXY = "127.0.0.2"
QUERY = {"action": "query", "question": "什么是机器学习？"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir = tmp_path_factory.mktemp("hardened")
    srv = ServerProcess(workdir, env={
        "AER_DATA_DIR": str(workdir / "data"),
        "AER_API_KEYS": KEY,
        "AER_REQUIRE_KEY_FOR_QUERIES": "false",  # the rate limit of clients without a key is what is tested
        "AER_RATE_LIMIT_PER_MINUTE": str(LIMIT),
        "AER_FORWARDED_ALLOW_IPS": PROXY,
        "AER_HEADER_TIMEOUT_S": str(DEADLINE_S),
        "AER_BODY_TIMEOUT_S": str(DEADLINE_S),
        "AER_MAX_CONNECTIONS": str(MAX_CONNECTIONS),
    })
    try:
        yield srv.start()
    finally:
        srv.kill()


def client_from(server: ServerProcess, source: str) -> httpx.Client:
    """An HTTP client whose connections come from ``source`` (a loopback address)."""
    return httpx.Client(base_url=server.base_url, timeout=60.0,
                        transport=httpx.HTTPTransport(local_address=source))


def statuses(client: httpx.Client, n: int, headers: list[dict[str, str]]) -> list[int]:
    return [client.post(URL, json=QUERY, headers=headers[i % len(headers)]).status_code for i in range(n)]


# -- 1. X-Forwarded-For and the rate limit ------------------------------------------------------------


def test_forwarded_for_from_an_untrusted_client_cannot_escape_the_rate_limit(server: ServerProcess) -> None:
    # From 127.0.0.1, which uvicorn's defaults trusted: key guesses and then plain requests, each with a new
    # X-Forwarded-For, all count against the one real address.
    with client_from(server, "127.0.0.1") as c:
        guesses = [{"X-API-Key": f"guess-{n}", "X-Forwarded-For": f"10.9.0.{n}"} for n in range(1, 11)]
        got = statuses(c, 10, guesses)
        assert got[:LIMIT] == [401] * LIMIT and set(got[LIMIT:]) == {429}, got
        rotating = [{"X-Forwarded-For": f"10.9.1.{n}"} for n in range(1, 41)]
        assert set(statuses(c, 40, rotating)) == {429}


def test_a_trusted_proxy_gives_each_forwarded_client_its_own_bucket(server: ServerProcess) -> None:
    with client_from(server, PROXY) as proxy:
        first = [{"X-Forwarded-For": "10.9.2.1"}]
        assert statuses(proxy, LIMIT + 1, first) == [200] * LIMIT + [429]
        # Another client behind the same proxy is not limited by the first one's requests.
        assert statuses(proxy, 1, [{"X-Forwarded-For": "10.9.2.2"}]) == [200]
        # A client-supplied header in front of the proxy's own entry does not help: the proxy's entry counts.
        assert statuses(proxy, 1, [{"X-Forwarded-For": "1.2.3.4, 10.9.2.1"}]) == [429]


def test_a_valid_key_is_its_own_bucket(server: ServerProcess) -> None:
    with client_from(server, "127.0.0.5") as c:
        assert statuses(c, LIMIT + 1, [{}]) == [200] * LIMIT + [429]
        assert statuses(c, 1, [{"X-API-Key": KEY}]) == [200]


# -- 2. the access log --------------------------------------------------------------------------------


def test_the_access_log_redacts_keys_in_the_query_string(server: ServerProcess) -> None:
    secret, token = "qs-secret-81f2c3", "qs-token-55d0a1"
    with client_from(server, "127.0.0.6") as c:
        r = c.post(f"{URL}?api_key={secret}&access_token={token}&lang=zh", json={"action": "add-entity"})
    assert r.status_code == 401
    deadline = time.monotonic() + 10
    while "lang=zh" not in server.tail() and time.monotonic() < deadline:
        time.sleep(0.1)
    log = server.log.read_text(errors="replace")
    line = next(line for line in log.splitlines() if "lang=zh" in line)
    assert "api_key=***" in line and "access_token=***" in line and "401" in line
    assert secret not in log and token not in log


# -- 5. slow clients and the connection cap ---------------------------------------------------------------


def read_until_closed(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and when it closed (s from now)."""
    started = time.monotonic()
    sock.settimeout(limit_s)
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        pytest.fail(f"the server kept a half-sent request open for {limit_s} s")
    return data, time.monotonic() - started


def half_sent(port: int, payload: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(payload)
    return sock


HALF_REQUESTS = {
    "nothing": b"",
    "half a request line": b"POST /api/adaptive-",
    "headers without their end": b"GET /healthz HTTP/1.1\r\nHost: x\r\n",
    "ten bytes of 100000": (b"POST " + URL.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                            b"Content-Length: 100000\r\n\r\n{\"action\":"),
    "an unread body": b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n0123456789",
}


def test_half_sent_requests_are_answered_408_and_closed(server: ServerProcess) -> None:
    socks = {name: [half_sent(server.port, payload) for _ in range(3)] for name, payload in HALF_REQUESTS.items()}
    try:
        for name, group in socks.items():
            for sock in group:
                data, waited = read_until_closed(sock, 20)
                assert waited < 20, name
                if name == "an unread body":
                    assert data.startswith(b"HTTP/1.1 200"), data[:80]  # answered, then closed by the backstop
                else:
                    assert data.startswith(b"HTTP/1.1 408"), (name, data[:200])
                    assert b'"code": "request_timeout"' in data.replace(b'":"', b'": "'), data
    finally:
        for group in socks.values():
            for sock in group:
                sock.close()
    assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200


def test_a_trickled_body_is_cut_at_the_deadline(server: ServerProcess) -> None:
    sock = half_sent(server.port, HALF_REQUESTS["ten bytes of 100000"])
    started = time.monotonic()
    data, closed = b"", False
    try:
        while not closed and time.monotonic() - started < DEADLINE_S + 10:
            readable, _, _ = select.select([sock], [], [], 0.5)
            try:
                if not readable:
                    sock.sendall(b" ")  # a byte every half second: never idle, never done
                    continue
                chunk = sock.recv(4096)
            except OSError:  # the server closed first and our byte drew a reset: closed all the same
                closed = True
                break
            data += chunk
            closed = not chunk
    finally:
        sock.close()
    assert closed, "a trickled body kept its connection open"
    assert time.monotonic() - started < DEADLINE_S + 10
    assert not data or data.startswith(b"HTTP/1.1 408"), data[:200]


def test_connections_beyond_the_cap_get_503_until_the_busy_ones_are_closed(server: ServerProcess) -> None:
    # bodies still being sent are requests in flight: nothing can be freed, a newcomer is refused
    busy = [half_sent(server.port, HALF_REQUESTS["ten bytes of 100000"]) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)
        with client_from(server, "127.0.0.9") as other:
            r = other.get("/healthz")
        assert r.status_code == 503 and r.json()["error"]["code"] == "server_busy", r.text
        for sock in busy:
            read_until_closed(sock, 20)  # the body backstop frees them
    finally:
        for sock in busy:
            sock.close()
    assert httpx.get(f"{server.base_url}/healthz", timeout=10).status_code == 200


def test_idle_connections_give_way_to_a_new_one_when_the_server_is_full(server: ServerProcess) -> None:
    idle = [half_sent(server.port, b"") for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.3)
        with client_from(server, "127.0.0.9") as other:
            assert other.get("/healthz").status_code == 200  # an idle socket of the heaviest client was closed
    finally:
        for sock in idle:
            sock.close()


# -- 7. refusing to start an open API where keys are required --------------------------------------------


def test_serve_refuses_to_start_without_keys_when_they_are_required(tmp_path: Path) -> None:
    env = clean_env(AER_REQUIRE_API_KEYS="true", AER_DATA_DIR=str(tmp_path))
    out = subprocess.run([*aer_command(), "serve", "--port", "1"], capture_output=True, text=True, timeout=120,
                         env=env, cwd=str(tmp_path), stdin=subprocess.DEVNULL)
    assert out.returncode == 2, out.stderr
    assert "AER_API_KEYS" in out.stderr
