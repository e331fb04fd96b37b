"""Run queries as LangGraph server runs, so LangGraph Studio shows every run of the endpoint.

Used when the FastAPI app is mounted into ``langgraph dev`` / LangGraph Server through ``langgraph.json``'s
``http.app`` (``AER_RUN_VIA_LANGGRAPH=true``); the in-process SDK client talks to that same server.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
from pydantic import TypeAdapter

from app.errors import ServiceError
from graphs.domain import WorkflowStep
from graphs.embeddings import EmbedderUnavailable
from graphs.rag.state import OutputState
from graphs.stores.base import StoreUnavailable

GRAPH_ID = "adaptive_entity_rag"
_OUTPUT = TypeAdapter(OutputState)


def to_output(values: dict[str, Any]) -> dict[str, Any]:
    """Rebuild the typed output state from the JSON values a LangGraph server returns."""
    return dict(_OUTPUT.validate_python(values))


def run_error(error: Any) -> Exception:
    """The service's own exception for a failed server run (``{"error": type name, "message": ...}``), so the API
    answers as it does in process: a store or embedder outage is a 503, anything else a 500.

    The server hides the message of exception types it does not know (StoreUnavailable's among them); the
    type name is enough to answer 503, and the message says where to look.
    """
    error = error if isinstance(error, Mapping) else {"error": "", "message": str(error)}
    name, message = str(error.get("error") or ""), str(error.get("message") or "")
    if name == "StoreUnavailable":
        store, found, reason = message.partition(" unavailable: ")
        if found and store:
            return StoreUnavailable(store, reason)
        return StoreUnavailable("store", f"the run on the LangGraph server failed ({message}); see the server log")
    if name == "EmbedderUnavailable":
        return EmbedderUnavailable(message)
    return RuntimeError(f"LangGraph run failed: {name}: {message}")


def _unreachable(exc: httpx.TransportError) -> ServiceError:
    return ServiceError("unavailable", "langgraph_unavailable", f"the LangGraph server did not answer: {type(exc).__name__}")


def _client() -> Any:
    from langgraph_sdk import get_client

    return get_client()


async def run(workflow_input: Mapping[str, Any], client: Any = None) -> dict[str, Any]:
    """One query as a run on a new thread; returns the typed output state."""
    client = client or _client()
    try:
        thread = await client.threads.create(metadata={"source": "adaptive-entity-rag-api"})
        values = await client.runs.wait(thread["thread_id"], GRAPH_ID, input=workflow_input, raise_error=False)
    except httpx.TransportError as exc:
        raise _unreachable(exc) from exc
    if isinstance(values, dict) and "__error__" in values:
        raise run_error(values["__error__"])
    return to_output(values)


async def stream(workflow_input: Mapping[str, Any], client: Any = None) -> AsyncIterator[tuple[str, Any]]:
    """Yield ``("step", WorkflowStep)``, ``("token", text)`` and finally ``("values", output state)``."""
    client = client or _client()
    final: dict[str, Any] = {}
    try:
        thread = await client.threads.create(metadata={"source": "adaptive-entity-rag-api"})
        parts = client.runs.stream(
            thread["thread_id"], GRAPH_ID, input=workflow_input, stream_mode=["updates", "messages-tuple", "values"]
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
                raise run_error(part.data)
    except httpx.TransportError as exc:
        raise _unreachable(exc) from exc
    yield "values", to_output(final)
