"""The MCP tools through the SDK's in-memory client: strict arguments, unknown arguments refused by name, a
blank question a coded tool error, every error text starting with its code; the same tools over a running
server's HTTP API (``RemoteTools``, what ``aer mcp --server`` serves)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client

from app.client import RemoteClient
from app.mcp_server import LocalTools, RemoteTools, build_mcp_server
from tests.support.apps import URL, running_app

DOCS = [{"id": "tx", "title": "腾讯", "text": "腾讯成立于1998年，总部位于深圳，创始人是马化腾。"}]


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("mcp-tools")) as c:
        assert c.post(URL, json={"action": "add-documents", "documents": DOCS}).status_code == 200
        yield c


def local(app_client: TestClient) -> Any:
    return build_mcp_server(LocalTools(lambda: app_client.app.state.resources))  # type: ignore[attr-defined]


def calls(server: Any, *requests: tuple[str, dict[str, Any]]) -> list[Any]:
    async def go() -> list[Any]:
        async with Client(server) as mcp:
            return [await mcp.call_tool(name, args) for name, args in requests]

    return anyio.run(go)


def error_text(result: Any) -> str:
    assert result.is_error, result
    text: str = result.content[0].text
    return text


@pytest.mark.parametrize(("args", "code", "fragment"), [
    ({"question": "腾讯", "top_k": True}, "invalid_arguments", "top_k"),
    ({"question": "腾讯", "top_k": "5"}, "invalid_arguments", "top_k"),
    ({"question": "腾讯", "top_k": 5.0}, "invalid_arguments", "top_k"),
    ({"question": 5}, "invalid_arguments", "question"),
    ({"question": "腾讯", "topk": 3}, "unknown_argument", "not topk"),
    ({"question": "腾讯", "search_mode": "fuzzy"}, "invalid_arguments", "search_mode"),
    ({"question": "   "}, "empty_question", "question"),
    ({"question": "\u3000\n\t"}, "empty_question", "question"),
    ({"question": ""}, "empty_question", "question"),
    ({}, "invalid_arguments", "question"),
], ids=["bool", "string-number", "float", "number-question", "unknown", "bad-mode", "spaces", "ideographic-space",
        "empty", "missing"])
def test_query_arguments_are_strict(app_client: TestClient, args: dict[str, Any], code: str,
                                    fragment: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        [result] = calls(local(app_client), ("query", args))
    text = error_text(result)
    assert text.startswith(f"{code}: ") and fragment in text
    assert "Traceback" not in caplog.text and "Error executing tool" not in text


def test_other_tools_are_strict_too_and_errors_start_with_the_code(app_client: TestClient) -> None:
    results = calls(local(app_client),
                    ("list_documents", {"limit": "5"}),
                    ("list_documents", {"offset": True}),
                    ("list_entities", {"type": "PERSON", "page": 2}),
                    ("delete_document", {"id": "nope"}),
                    ("add_documents", {"documents": [DOCS[0], DOCS[0]]}),
                    ("add_entity", {"standard_name": "腾讯", "type": "ALIEN"}),
                    ("add_entity", {"standard_name": "\u200b\u200b", "type": "ORGANIZATION"}),
                    ("no_such_tool", {}))
    codes = [error_text(r).partition(":")[0] for r in results]
    assert codes == ["invalid_arguments", "invalid_arguments", "unknown_argument", "document_not_found",
                     "duplicate_document_ids", "invalid_arguments", "invalid_entity_name", "unknown_tool"]
    assert "no document with id 'nope'" in error_text(results[3])


def test_well_typed_calls_still_work_and_lists_sent_as_json_text_are_read(app_client: TestClient) -> None:
    answer, page, added = calls(local(app_client),
                                ("query", {"question": "腾讯是哪一年成立的？", "top_k": 3}),
                                ("list_documents", {"offset": 0, "limit": 10}),
                                ("add_documents", {"documents": '[{"id": "sz", "title": "深圳", "text": "深圳在广东。"}]'}))
    assert not answer.is_error and "1998" in answer.structured_content["answer"]
    assert page.structured_content["documents"] == [{"id": "tx", "title": "腾讯"}]
    assert added.structured_content == {"documents": 1, "chunks": 1, "ids": ["sz"]}


def test_remote_tools_serve_a_servers_index_and_keep_its_codes(app_client: TestClient) -> None:
    # the app's own in-process transport stands in for the network (the real process: tests/integration)
    client = RemoteClient("http://testserver")
    client._http = app_client  # type: ignore[assignment]
    server = build_mcp_server(RemoteTools(client))
    answer, missing, docs = calls(server, ("query", {"question": "腾讯的创始人是谁？"}),
                                  ("delete_document", {"id": "nope"}), ("list_documents", {}))
    assert not answer.is_error and "马化腾" in answer.structured_content["answer"]
    assert answer.structured_content["citations"][0]["doc_id"] == "tx"
    assert error_text(missing).startswith("document_not_found: ")
    assert {"id": "tx", "title": "腾讯"} in docs.structured_content["documents"]


def test_an_unreachable_server_is_a_coded_tool_error(tmp_path: Path) -> None:
    server = build_mcp_server(RemoteTools(RemoteClient("http://127.0.0.1:9", timeout=2)))
    [result] = calls(server, ("list_documents", {}))
    assert error_text(result).startswith("server_unreachable: cannot reach http://127.0.0.1:9")


def test_every_tool_takes_an_optional_workspace_and_an_unknown_one_is_a_coded_error(app_client: TestClient) -> None:
    server = local(app_client)
    results = calls(server,
                    ("list_documents", {"workspace": "default"}),
                    ("list_documents", {"workspace": "nope"}),
                    ("query", {"question": "腾讯是哪一年成立的？", "workspace": "nope"}),
                    ("delete_document", {"id": "tx", "workspace": "nope"}),
                    ("list_documents", {"workspace": "Bad Name!"}),
                    ("list_entities", {"workspace": 5}))
    held = results[0].structured_content["documents"]
    assert {"id": "tx", "title": "腾讯"} in held
    codes = [error_text(r).partition(":")[0] for r in results[1:]]
    assert codes == ["workspace_not_found", "workspace_not_found", "workspace_not_found", "invalid_workspace",
                     "invalid_workspace"]
    assert "'nope'" in error_text(results[1]) and "did you mean" not in error_text(results[1])
    [near] = calls(server, ("list_documents", {"workspace": "defualt"}))
    assert error_text(near) == "workspace_not_found: no workspace 'defualt' (did you mean 'default'?)"
    # the failed delete on another workspace touched nothing here
    [page] = calls(server, ("list_documents", {}))
    assert page.structured_content["documents"] == held

    async def schemas() -> dict[str, Any]:
        async with Client(server) as mcp:
            return {t.name: t.input_schema for t in (await mcp.list_tools()).tools}

    for name, schema in anyio.run(schemas).items():
        assert "workspace" in schema["properties"] and "workspace" not in schema.get("required", []), name


def test_a_servers_default_workspace_applies_to_calls_that_name_none(app_client: TestClient) -> None:
    resources = app_client.app.state.resources  # type: ignore[attr-defined]
    [missing] = calls(build_mcp_server(lambda: resources, default_workspace="team-x"), ("list_documents", {}))
    assert error_text(missing).startswith("workspace_not_found: ") and "'team-x'" in error_text(missing)
    [named] = calls(build_mcp_server(lambda: resources, default_workspace="team-x"),
                    ("list_documents", {"workspace": "default"}))
    assert not named.is_error


def test_remote_tools_send_the_calls_workspace_as_a_header(app_client: TestClient) -> None:
    import httpx

    seen: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("x-workspace"))
        if request.headers.get("x-workspace") == "nope":
            return httpx.Response(404, json={"success": False, "error": {
                "code": "workspace_not_found", "message": "no workspace 'nope'", "details": {"workspace": "nope"}}})
        return httpx.Response(200, json={"total": 0, "offset": 0, "limit": 100, "documents": []})

    client = RemoteClient("http://aer.test", transport=httpx.MockTransport(handler), workspace="team-a")
    server = build_mcp_server(RemoteTools(client))
    ok, other, missing = calls(server, ("list_documents", {}), ("list_documents", {"workspace": "team-b"}),
                               ("list_documents", {"workspace": "nope"}))
    assert not ok.is_error and not other.is_error
    assert error_text(missing).startswith("workspace_not_found: no workspace 'nope'")
    assert seen == ["team-a", "team-b", "nope"]
    assert client.workspace == "team-a"  # a call's workspace never changes the server's default


def test_every_action_of_the_api_has_its_tool_or_a_stated_reason(app_client: TestClient) -> None:
    from app.mcp_server import TOOL_NEEDS
    from app.schemas.actions import ACTIONS, MCP_TOOLS, NO_MCP_TOOL, READ_ACTIONS

    for action in (*ACTIONS, *READ_ACTIONS):
        assert (action in MCP_TOOLS) != (action in NO_MCP_TOOL), action
        assert NO_MCP_TOOL.get(action, "reason").strip(), action

    async def names() -> set[str]:
        async with Client(local(app_client)) as mcp:
            return {t.name for t in (await mcp.list_tools()).tools}

    assert anyio.run(names) == set(MCP_TOOLS.values()) == set(TOOL_NEEDS)


def test_aliases_are_removed_and_entities_deleted_over_mcp_locally_and_remotely(app_client: TestClient) -> None:
    client = RemoteClient("http://testserver")
    client._http = app_client  # type: ignore[assignment]
    for server, name in ((local(app_client), "焙坊甲"), (build_mcp_server(RemoteTools(client)), "焙坊乙")):
        added, removed, gone, again, missing_alias, listed = calls(
            server,
            ("add_entity", {"standard_name": name, "type": "ORGANIZATION", "aliases": [f"{name}店", f"{name}铺"]}),
            ("remove_alias", {"standard_name": name, "aliases": [f"{name}店"]}),
            ("delete_entity", {"standard_name": name}),
            ("delete_entity", {"standard_name": name}),
            ("remove_alias", {"standard_name": name, "aliases": ["x"]}),
            ("list_entities", {"type": "ORGANIZATION", "limit": 500}))
        assert not added.is_error and not removed.is_error, (added, removed)
        assert removed.structured_content["entity"]["aliases"] == [f"{name}铺"]
        assert gone.structured_content["entity"]["standard_name"] == name
        assert error_text(again).startswith("entity_not_found: ")
        assert error_text(missing_alias).startswith("entity_not_found: ")
        assert name not in {e["standard_name"] for e in listed.structured_content["entities"]}
    [blank] = calls(local(app_client), ("remove_alias", {"standard_name": "腾讯", "aliases": []}))
    assert error_text(blank).startswith("invalid_arguments: ")


def test_a_mistyped_tool_argument_or_document_id_is_told_the_one_meant(app_client: TestClient) -> None:
    added, tool, argument, document = calls(
        local(app_client),
        ("add_documents", {"documents": [{"id": "notes/harbour.md", "title": "Harbour", "text": "渡口有三条船。"}]}),
        ("delete_documnet", {"id": "x"}), ("query", {"questoin": "渡口有几条船？"}),
        ("delete_document", {"id": "harbour.md"}))
    assert not added.is_error
    assert error_text(tool).startswith("unknown_tool: no tool 'delete_documnet' (did you mean 'delete_document'?)")
    assert "(did you mean 'questoin' → 'question'?)" in error_text(argument)
    assert error_text(document) == "document_not_found: no document with id 'harbour.md' (did you mean 'notes/harbour.md'?)"


def test_a_not_found_answer_says_why_and_names_the_closest_passages(app_client: TestClient) -> None:
    """An MCP agent told only "not found" asks again blindly: the result carries the decision's reason, the short
    answer when there is one, and the related passages (locally and through a server alike)."""
    client = RemoteClient("http://testserver")
    client._http = app_client  # type: ignore[assignment]
    for server in (local(app_client), build_mcp_server(RemoteTools(client))):
        found, absent = calls(server, ("query", {"question": "腾讯是哪一年成立的？"}),
                              ("query", {"question": "腾讯的股票代码是什么？"}))
        assert found.structured_content["short_answer"] and "1998" in found.structured_content["short_answer"]
        assert found.structured_content["reason"] and found.structured_content["related"] == []
        body = absent.structured_content
        assert body["status"] == "no_results" and body["reason"], body
        tencent = [r for r in body["related"] if r["doc_id"] == "tx"]  # other tests add documents of their own
        assert tencent and "马化腾" in tencent[0]["text"], body["related"]


def test_calls_refused_before_their_work_are_counted_as_errors(app_client: TestClient) -> None:
    """A caller's mistake refused by the server itself (bad or unknown arguments, a blank question, an unknown
    workspace, a tool that does not exist, duplicate ids) is an ``error`` of its tool in ``/metrics``: a
    dashboard watching the tools' error rate sees them; a good call is still ``ok``."""
    counter = app_client.app.state.resources.metrics.mcp_tools  # type: ignore[attr-defined]

    def count(tool: str, outcome: str) -> float:
        value: float = counter.labels(tool, outcome)._value.get()
        return value

    before = {t: count(t, "error") for t in ("query", "add_documents", "list_documents", "unknown")}
    ok_before = count("query", "ok")
    results = calls(local(app_client), ("query", {"question": "  "}), ("query", {"question": "x", "topk": 2}),
                    ("query", {"question": "x", "top_k": "2"}), ("list_documents", {"workspace": "nowhere"}),
                    ("add_documents", {"documents": [DOCS[0], DOCS[0]]}), ("qeury", {"question": "x"}),
                    ("query", {"question": "腾讯的总部在哪里？"}))
    assert [r.is_error for r in results] == [True] * 6 + [False]
    after = {t: count(t, "error") for t in before}
    assert {t: after[t] - before[t] for t in before} == {"query": 3, "add_documents": 1, "list_documents": 1,
                                                         "unknown": 1}
    assert count("query", "ok") == ok_before + 1
    assert count("qeury", "error") == 0  # a caller's invented name never becomes a label
