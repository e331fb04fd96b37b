"""Run queries as LangGraph server runs, so LangGraph Studio shows every run of the endpoint.

Used when the FastAPI app is mounted into ``langgraph dev`` / LangGraph Server through ``langgraph.json``'s
``http.app`` (``AER_RUN_VIA_LANGGRAPH=true``); the in-process SDK client talks to that same server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from pydantic import TypeAdapter

from graphs.domain import WorkflowStep
from graphs.rag.state import OutputState

GRAPH_ID = "adaptive_entity_rag"
_OUTPUT = TypeAdapter(OutputState)


def to_output(values: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the typed output state from the JSON values a LangGraph server returns."""
    return dict(_OUTPUT.validate_python(values))


def _client() -> Any:
    from langgraph_sdk import get_client

    return get_client()


async def run(graph_input: Mapping[str, Any], client: Any = None) -> dict[str, Any]:
    """One query as a run on a new thread; returns the typed output state."""
    client = client or _client()
    thread = await client.threads.create(metadata={"source": "adaptive-entity-rag-api"})
    values = await client.runs.wait(thread["thread_id"], GRAPH_ID, input=graph_input, raise_error=True)
    return to_output(values)


async def stream(graph_input: Mapping[str, Any], client: Any = None) -> AsyncIterator[tuple[str, Any]]:
    """Yield ``("step", WorkflowStep)``, ``("token", text)`` and finally ``("values", output state)``."""
    client = client or _client()
    thread = await client.threads.create(metadata={"source": "adaptive-entity-rag-api"})
    final: dict[str, Any] = {}
    parts = client.runs.stream(
        thread["thread_id"], GRAPH_ID, input=graph_input, stream_mode=["updates", "messages-tuple", "values"]
    )
    async for part in parts:
        if part.event == "updates":
            for update in (part.data or {}).values():
                for step in (update or {}).get("steps", []):
                    yield "step", WorkflowStep.model_validate(step)
        elif part.event == "messages":
            chunk, meta = part.data
            if meta.get("langgraph_node") == "write_answer" and chunk.get("content"):
                yield "token", chunk["content"]
        elif part.event == "values":
            final = part.data
        elif part.event == "error":
            raise RuntimeError(f"LangGraph run failed: {part.data}")
    yield "values", to_output(final)
