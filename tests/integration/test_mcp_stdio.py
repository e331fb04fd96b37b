"""``aer mcp`` as an MCP client runs it: the SDK's stdio client starts the real command and calls every tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from graphs.domain import ENTITY_TYPES
from tests.support.servers import aer_command, clean_env

pytestmark = pytest.mark.slow

TOOLS = ["query", "add_documents", "add_entity", "remove_alias", "delete_entity", "list_entities", "list_documents",
         "delete_document"]
DOCS = [
    {"id": "su7", "title": "小米SU7发布", "text": "2024年3月28日，雷军在北京发布了小米首款电动汽车SU7。",
     "metadata": {"date": "2024-03-28"}},
    {"id": "ml", "title": "什么是机器学习", "text": "机器学习是人工智能的一个分支，让计算机从数据中学习规律。"},
]


async def session(workdir: Path) -> dict[str, Any]:
    command, *args = aer_command()
    params = StdioServerParameters(command=command, args=[*args, "mcp"], cwd=str(workdir),
                                   env=clean_env(AER_DATA_DIR=str(workdir / "data")))
    out: dict[str, Any] = {}
    with anyio.fail_after(300):
        async with Client(params) as mcp:
            out["tools"] = {t.name: t for t in (await mcp.list_tools()).tools}
            out["entity"] = await mcp.call_tool("add_entity", {"standard_name": "雷军", "type": "PERSON",
                                                               "aliases": ["Lei Jun"]})
            out["conflict"] = await mcp.call_tool("add_entity", {"standard_name": "Someone", "type": "PERSON",
                                                                 "aliases": ["雷军"]})
            out["bad_type"] = await mcp.call_tool("add_entity", {"standard_name": "X", "type": "ALIEN"})
            out["ingest"] = await mcp.call_tool("add_documents", {"documents": DOCS})
            out["duplicate"] = await mcp.call_tool("add_documents", {"documents": [DOCS[0], DOCS[0]]})
            out["answer"] = await mcp.call_tool("query", {"question": "Lei Jun在北京发布了什么？", "top_k": 3})
            out["bad_query"] = await mcp.call_tool("query", {"question": "q", "top_k": 0})
            out["entities"] = await mcp.call_tool("list_entities", {"type": "PERSON"})
            out["documents"] = await mcp.call_tool("list_documents", {})
            out["deleted"] = await mcp.call_tool("delete_document", {"id": "su7"})
            out["missing"] = await mcp.call_tool("delete_document", {"id": "su7"})
            out["after"] = await mcp.call_tool("list_documents", {"offset": 0, "limit": 10})
    return out


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return anyio.run(session, tmp_path_factory.mktemp("mcp-stdio"))


def test_the_tools_have_typed_input_schemas(calls: dict[str, Any]) -> None:
    tools = calls["tools"]
    assert sorted(tools) == sorted(TOOLS)
    query = tools["query"].input_schema
    assert query["required"] == ["question"]
    assert query["properties"]["question"]["maxLength"] == 2000
    assert (query["properties"]["top_k"]["minimum"], query["properties"]["top_k"]["maximum"]) == (1, 50)
    assert set(query["properties"]["search_mode"]["enum"]) == {"auto", "structured", "semantic", "hybrid", "graph"}
    assert tools["add_entity"].input_schema["properties"]["type"]["enum"] == list(ENTITY_TYPES)
    doc = json.dumps(tools["add_documents"].input_schema)
    assert '"maxItems": 500' in doc and '"text"' in doc
    assert tools["delete_document"].input_schema["properties"]["id"]["maxLength"] == 256
    assert tools["query"].output_schema is not None and "citations" in tools["query"].output_schema["properties"]
    assert tools["query"].annotations.read_only_hint is True
    assert tools["delete_document"].annotations.destructive_hint is True


def test_writes_and_reads_go_through(calls: dict[str, Any]) -> None:
    assert calls["entity"].structured_content["standard_name"] == "雷军"
    assert calls["ingest"].structured_content == {"documents": 2, "chunks": 2, "ids": ["su7", "ml"]}
    page = calls["entities"].structured_content
    assert page["total"] == 1 and page["entities"][0]["aliases"] == ["Lei Jun"]
    assert calls["documents"].structured_content["documents"] == [{"id": "ml", "title": "什么是机器学习"},
                                                                   {"id": "su7", "title": "小米SU7发布"}]
    assert calls["deleted"].structured_content == {"id": "su7", "deleted_chunks": 1}
    assert calls["after"].structured_content["documents"] == [{"id": "ml", "title": "什么是机器学习"}]


def test_query_answers_with_citations_and_its_route(calls: dict[str, Any]) -> None:
    answer = calls["answer"]
    assert not answer.is_error
    result = answer.structured_content
    assert result["status"] == "answered" and "SU7" in result["answer"] and "[1]" in result["answer"]
    assert result["citations"][0]["doc_id"] == "su7" and result["route"][0] == "structured_search"
    assert json.loads(answer.content[0].text) == result  # the same result as text for clients without structure


@pytest.mark.parametrize(("call", "fragment"), [
    ("conflict", "alias_conflict: alias '雷军' already belongs to '雷军'"),
    ("bad_type", "type"),
    ("duplicate", "duplicate_document_ids"),
    ("bad_query", "top_k"),
    ("missing", "document_not_found: no document with id 'su7'"),
])
def test_failures_are_tool_errors_naming_the_code(calls: dict[str, Any], call: str, fragment: str) -> None:
    result = calls[call]
    assert result.is_error and fragment in result.content[0].text
