"""The CLI and ``aer mcp --server`` beside a running ``aer serve`` (real processes): commands that find the data
dir held use that server and say so; ``aer mcp --server URL`` serves its index over stdio; and the server's log
stays free of gRPC keepalive noise (GOAWAY too_many_pings) after requests and idle time."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from tests.support.servers import ServerProcess, aer_command, clean_env

pytestmark = pytest.mark.slow

IDLE_S = 40.0  # pymilvus pinged every 10 s; the Lite server sent GOAWAY after the third ping without a call
TEXT = "# 腾讯\n\n腾讯成立于1998年，总部位于深圳，创始人是马化腾。\n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path_factory.mktemp("cli-server")).start()
    try:
        yield running
    finally:
        running.kill()


def aer(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    """``aer ARGS`` on the server's own data dir, with AER_PORT pointing at it and no --server."""
    env = clean_env(AER_DATA_DIR=str(server.workdir / "data"), AER_PORT=str(server.port))
    return subprocess.run([*aer_command(), *args], capture_output=True, text=True, timeout=300, env=env,
                          cwd=server.workdir)


def test_commands_on_a_held_data_dir_go_through_the_running_server(server: ServerProcess, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "tencent.md").write_text(TEXT, encoding="utf-8")
    note = f"is in use by the server at {server.base_url}: using it (--server {server.base_url})"
    ingested = aer(server, "ingest", str(tmp_path / "docs"))
    assert ingested.returncode == 0, ingested.stderr
    assert note in ingested.stderr and f"ingested 1 document(s) as 1 chunk(s) from 1 file(s) on {server.base_url}" \
        in ingested.stdout
    listed = aer(server, "documents", "list")
    assert listed.returncode == 0 and "tencent.md" in listed.stdout and note in listed.stderr
    asked = aer(server, "query", "腾讯是哪一年成立的？")
    assert asked.returncode == 0 and "1998" in asked.stdout, asked.stderr
    assert "Traceback" not in ingested.stderr + listed.stderr + asked.stderr


def mcp_calls(server: ServerProcess, workdir: Path) -> dict[str, Any]:
    command, *args = aer_command()
    # its own (empty) data dir: whatever it finds comes from the server
    params = StdioServerParameters(command=command, args=[*args, "mcp", "--server", server.base_url],
                                   cwd=str(workdir), env=clean_env(AER_DATA_DIR=str(workdir / "own-data")))

    async def go() -> dict[str, Any]:
        out: dict[str, Any] = {}
        with anyio.fail_after(240):
            async with Client(params) as mcp:
                out["documents"] = await mcp.call_tool("list_documents", {})
                out["answer"] = await mcp.call_tool("query", {"question": "腾讯的创始人是谁？", "top_k": 3})
                out["blank"] = await mcp.call_tool("query", {"question": "  \t "})
                out["strict"] = await mcp.call_tool("query", {"question": "腾讯", "top_k": "5"})
                out["missing"] = await mcp.call_tool("delete_document", {"id": "nope"})
        return out

    return anyio.run(go)


def test_aer_mcp_server_serves_the_running_servers_index(server: ServerProcess, tmp_path: Path) -> None:
    calls = mcp_calls(server, tmp_path)
    assert [d["id"] for d in calls["documents"].structured_content["documents"]] == ["tencent.md"]
    answer = calls["answer"].structured_content
    assert "马化腾" in answer["answer"] and answer["citations"][0]["doc_id"] == "tencent.md"
    for name, code in (("blank", "empty_question"), ("strict", "invalid_arguments"), ("missing", "document_not_found")):
        assert calls[name].is_error and calls[name].content[0].text.startswith(f"{code}: "), calls[name]
    assert not (tmp_path / "own-data" / "milvus.db").exists()  # it never opened a data dir of its own


def test_the_server_log_has_no_grpc_keepalive_noise_after_idle_time(server: ServerProcess) -> None:
    assert aer(server, "documents", "list").returncode == 0
    time.sleep(IDLE_S)
    assert aer(server, "query", "腾讯总部在哪里？").returncode == 0
    log = server.log.read_text(errors="replace")
    assert "too_many_pings" not in log and "GOAWAY" not in log, log[-3000:]
