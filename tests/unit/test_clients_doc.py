"""docs/clients.md: each client configuration is valid JSON in the client's documented shape (Claude Desktop:
command/args/env; Cursor: url/headers) and names real ``aer`` options and endpoints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from app.cli import cli

DOC = Path(__file__).resolve().parents[2] / "docs" / "clients.md"


def json_blocks() -> list[dict[str, Any]]:
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)]


def servers() -> list[dict[str, Any]]:
    found = []
    for block in json_blocks():
        if "mcpServers" in block:
            assert set(block) == {"mcpServers"}
            found += list(block["mcpServers"].values())
    return found


def test_stdio_configurations_start_real_aer_commands() -> None:
    stdio = [s for s in servers() if "command" in s]
    assert len(stdio) == 2
    for server in stdio:
        assert set(server) <= {"command", "args", "env"} and server["command"].endswith("/.venv/bin/aer")
        assert server["args"][0] == "mcp"
        assert set(server["env"]) <= {"AER_DATA_DIR", "AER_API_KEYS"}
        result = CliRunner().invoke(cli, [*server["args"], "--help"])
        assert result.exit_code == 0, result.output  # every option the config passes exists
    assert ["mcp", "--server", "http://127.0.0.1:8000"] in [s["args"] for s in stdio]


def test_the_http_configuration_is_a_url_to_mcp_with_a_bearer_key() -> None:
    [http] = [s for s in servers() if "url" in s]
    assert set(http) == {"url", "headers"} and http["url"] == "http://127.0.0.1:8000/mcp"
    assert http["headers"]["Authorization"].startswith("Bearer ")


def test_the_open_webui_connection_points_at_v1() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "-e OPENAI_API_BASE_URL=http://127.0.0.1:8000/v1" in text and "-e OPENAI_API_KEY=" in text


def test_the_error_example_is_in_openai_shape() -> None:
    [example] = [b for b in json_blocks() if "error" in b]
    assert set(example["error"]) == {"message", "type", "param", "code"}
