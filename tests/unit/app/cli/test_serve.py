"""`aer serve --host/--port`: the app is built with the address it listens on (the MCP endpoint's Host check
follows the settings' host)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import app.main
from app.cli import cli
from app.settings import Settings
from app.tools.bench.harness import free_port


def test_serve_builds_the_app_with_the_host_and_port_it_binds(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Settings] = []
    ran: dict[str, Any] = {}
    monkeypatch.setattr(app.main, "create_app", lambda settings: built.append(settings) or "app")
    monkeypatch.setattr("uvicorn.run", lambda application, **kw: ran.update(kw, app=application))
    monkeypatch.setenv("AER_API_KEYS", "k")
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert (built[0].host, built[0].port) == ("0.0.0.0", 8123)
    assert (ran["host"], ran["port"], ran["app"]) == ("0.0.0.0", 8123, "app")


def test_mcp_workspace_sets_the_servers_default_and_must_exist(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Any) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    import app.mcp_server

    served: list[Any] = []
    monkeypatch.setattr(app.mcp_server, "run_stdio", served.append)
    fake = DeterministicFakeEmbedding(size=32)
    monkeypatch.setattr("app.container.build_embedder", lambda _settings: (fake, 32, "fake-embedder"))
    monkeypatch.setattr("app.container.Resources.warm_up", lambda self: None)
    env = {"AER_DATA_DIR": str(tmp_path / "data")}
    bad = CliRunner().invoke(cli, ["mcp", "--workspace", "Not A Name"], env=env)
    assert bad.exit_code == 2 and "not a workspace name" in bad.output
    missing = CliRunner().invoke(cli, ["mcp", "--workspace", "team-a"], env=env)
    assert missing.exit_code == 2 and "workspace_not_found" in missing.output and not served
    (tmp_path / "data" / "workspaces" / "team-a").mkdir(parents=True)
    (tmp_path / "data" / "workspaces" / "team-a" / ".workspace").write_text("0\n")
    ok = CliRunner().invoke(cli, ["mcp", "--workspace", "team-a"], env=env)
    assert ok.exit_code == 0, ok.output
    assert served[0].default == "team-a"
    from_env = CliRunner().invoke(cli, ["mcp"], env={**env, "AER_WORKSPACE": "team-a"})
    assert from_env.exit_code == 0 and served[1].default == "team-a"


def test_serve_records_where_it_answers_in_the_data_dir_while_it_runs(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Any) -> None:
    record = tmp_path / "data" / "served-at.json"
    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(app.main, "create_app", lambda settings: "app")
    monkeypatch.setattr("uvicorn.run", lambda application, **kw: seen.append(json.loads(record.read_text())))
    result = CliRunner().invoke(cli, ["serve", "--port", "8755"], env={"AER_DATA_DIR": str(tmp_path / "data")})
    assert result.exit_code == 0, result.output
    assert seen == [{"url": "http://127.0.0.1:8755", "pid": os.getpid()}]
    assert not record.exists()  # gone when the server stops


class _Health(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b'{"status": "ok"}'
        self.send_response(200 if self.path == "/healthz" else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def test_a_command_beside_a_server_on_another_port_finds_it_by_the_record(tmp_path: Any) -> None:
    """`aer serve --port 8755`, then `aer workspaces create x` beside it: the CLI looked only at AER_PORT (8000)
    and said "add --server" although the server holding the data dir was running."""
    from app.cli.base import local_server, record_served_url

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        settings = Settings(data_dir=tmp_path, port=free_port())  # nothing answers on the configured port
        assert local_server(settings) is None
        record_served_url(tmp_path, url)
        assert local_server(settings) == url
        record_served_url(tmp_path, f"http://127.0.0.1:{free_port()}")  # a stale record: nothing answers there
        assert local_server(settings) is None
        # a record left by a killed server whose port another server answers on now: its pid is gone
        dead = subprocess.Popen([sys.executable, "-c", "pass"])
        dead.wait(timeout=60)
        (tmp_path / "served-at.json").write_text(json.dumps({"url": url, "pid": dead.pid}), encoding="utf-8")
        assert local_server(settings) is None
    finally:
        server.shutdown()
        server.server_close()


def test_serve_stopped_by_sigterm_removes_its_record(tmp_path: Any) -> None:
    """uvicorn raises SIGTERM again after its shutdown; under the default handler the process ended before the
    record was removed, and the next command could follow it to whatever answers on that port later."""
    data = tmp_path / "data"
    env = {**os.environ, "AER_DATA_DIR": str(data), "AER_API_KEYS": "k", "PYTHONPATH": str(Path.cwd())}
    script = ("import signal, os, uvicorn, app.main\n"
              "app.main.create_app = lambda settings: 'app'\n"
              "uvicorn.run = lambda *a, **k: os.kill(os.getpid(), signal.SIGTERM)\n"
              "from app.cli import cli\n"
              "cli(['serve', '--port', '8755'])\n")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGTERM, done.stderr  # ended by the signal, as without the record
    assert data.is_dir() and not (data / "served-at.json").exists()
