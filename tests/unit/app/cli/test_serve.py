"""`aer serve --host/--port`: the app is built with the address it listens on (the MCP endpoint's Host check
follows the settings' host)."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

import app.main
from app.cli import cli
from app.settings import Settings


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
