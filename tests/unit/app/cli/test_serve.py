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
