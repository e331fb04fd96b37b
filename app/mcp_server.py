"""The service as a Model Context Protocol server (the official ``mcp`` SDK): six tools with typed inputs and
outputs — ``query``, ``add_documents``, ``add_entity``, ``list_entities``, ``list_documents``,
``delete_document`` — over stdio (``aer mcp``) or streamable HTTP (``/mcp`` on the app, behind its API keys
and rate limit).

Each tool calls the same service functions as the REST routes, so runs are counted and traced alike. A tool
that fails answers an MCP tool error (``isError``) whose text starts with the REST API's error code:
``store_unavailable: ...``, ``document_not_found: ...``, ``alias_conflict: ...``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Literal, TypeVar

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field
from starlette.types import Receive, Scope, Send

from app import documents as documents_service
from app import service
from app.api.errors import ApiError, error_body, service_error
from app.container import Resources
from app.openai_schemas import CitedPassage, cited_passages
from app.schemas import MAX_QUESTION_CHARS, DocumentId, DocumentIn, EntityAlias, EntityName, QueryRequest
from graphs.domain import Document, EntityMetadata, EntityType
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import AliasConflictError, StoreUnavailable
from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

INSTRUCTIONS = (
    "Answers questions over the indexed documents (Chinese and English) with numbered citations, and manages "
    "the documents and the entity dictionary (names, aliases, hierarchies) that steer retrieval. Ask with "
    "`query`; the answer's [n] markers refer to `citations`."
)
MAX_OFFSET = 1_000_000_000
T = TypeVar("T")
log = logging.getLogger(__name__)


class QueryResult(BaseModel):
    answer: str = Field(description="The answer; [n] refers to citations[n].")
    status: str = Field(description="answered, or no_results when nothing relevant was found.")
    answer_mode: str = Field(description="llm, extractive, direct or none.")
    citations: list[CitedPassage]
    route: list[str] = Field(description="The routing decisions in order.")
    degraded: list[str] = Field(description="Nodes whose LLM or reranker failed and fell back to rules.")
    run_id: str | None


class IngestResult(BaseModel):
    documents: int
    chunks: int
    ids: list[str]


class EntityOut(BaseModel):
    standard_name: str
    type: str
    aliases: list[str]
    hierarchy: list[str]
    related_entities: list[str]

    @classmethod
    def of(cls, entity: EntityMetadata) -> EntityOut:
        return cls(standard_name=entity.standard_name, type=entity.type, aliases=entity.aliases,
                   hierarchy=entity.hierarchy, related_entities=entity.related_entities)


class EntityPage(BaseModel):
    total: int
    offset: int
    limit: int
    entities: list[EntityOut]


class DocumentOut(BaseModel):
    id: str
    title: str


class DocumentPage(BaseModel):
    total: int
    offset: int
    limit: int
    documents: list[DocumentOut]


class Deleted(BaseModel):
    id: str
    deleted_chunks: int


Offset = Annotated[int, Field(ge=0, le=MAX_OFFSET, description="How many to skip.")]
Limit = Annotated[int, Field(ge=1, le=500, description="How many to return.")]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_mcp_server(resources: Callable[[], Resources]) -> MCPServer:
    """The MCP server; ``resources`` returns the process's resources when a tool runs."""
    server: MCPServer = MCPServer("adaptive-entity-rag", title="Adaptive Entity RAG", instructions=INSTRUCTIONS,
                                  version="0.1.0", log_level="WARNING")

    async def call(tool: str, work: Callable[[Resources], Awaitable[T]]) -> T:
        """Run one tool call, counted and traced; the service's errors become tool errors that start with their
        code."""
        res = resources()
        outcome = "error"
        try:
            with res.tracing.span(f"mcp.tool {tool}", {"aer.tool": tool}) as span:
                try:
                    result = await work(res)
                    outcome = "ok"
                    return result
                except (StoreUnavailable, EmbedderUnavailable) as exc:
                    error = service_error(exc)[1]["error"]  # plain words; the driver's text goes to the log
                    raise ToolError(f"{error['code']}: {error['message']}") from exc
                except AliasConflictError as exc:
                    raise ToolError(f"alias_conflict: {exc}") from exc
                except ApiError as exc:
                    raise ToolError(f"{exc.code}: {exc.message}") from exc
                except ToolError:
                    raise
                except Exception as exc:  # a bug: its text (paths, driver output) goes to the log, not the client
                    log.exception("MCP tool %s failed", tool)
                    raise ToolError("internal_error: internal server error") from exc
                finally:
                    span.set_attribute("aer.outcome", outcome)
        finally:
            res.metrics.mcp_tools.labels(tool, outcome).inc()

    @server.tool(annotations=READ_ONLY)
    async def query(
        question: Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                                       description="The question, in Chinese or English.")],
        top_k: Annotated[int, Field(ge=1, le=50, description="Passages to rank and cite from.")] = 5,
        search_mode: Annotated[Literal["auto", "structured", "semantic", "hybrid", "graph"],
                               Field(description="auto lets the router choose.")] = "auto",
    ) -> QueryResult:
        """Answer a question from the indexed documents, with numbered citations and the route it took."""

        async def work(res: Resources) -> QueryResult:
            if not has_content(question):  # the content check of every question (QueryRequest's), by its code
                raise ApiError(422, EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
            response = await service.answer(res, QueryRequest(question=question, top_k=top_k,
                                                              search_mode=search_mode))
            return QueryResult(answer=response.answer, status=response.status, answer_mode=response.answer_mode,
                               citations=cited_passages(response),
                               route=[d.action for d in response.routing_decision.decisions],
                               degraded=response.degraded, run_id=response.run_id)

        return await call("query", work)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def add_documents(
        documents: Annotated[list[DocumentIn], Field(min_length=1, max_length=500,
                                                     description="Documents to index; an existing id is replaced.")],
    ) -> IngestResult:
        """Index documents (id, title, text, optional metadata with a date and typed entities)."""

        async def work(res: Resources) -> IngestResult:
            ids = [d.id for d in documents]
            if len(set(ids)) != len(ids):
                raise ApiError(400, "duplicate_document_ids", "each document id may appear once per call")
            _, report = await documents_service.add_documents(
                res, [Document.model_validate(d.model_dump()) for d in documents], background=False, action="mcp")
            return IngestResult(documents=report["documents"], chunks=report["chunks"], ids=report["ids"])

        return await call("add_documents", work)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def add_entity(
        standard_name: EntityName,
        type: EntityType,
        aliases: Annotated[list[EntityAlias], Field(max_length=200)] = [],  # noqa: B006 - never mutated
        hierarchy: Annotated[list[EntityAlias], Field(max_length=20,
                                                      description="Ancestors, widest first: 中国, 北京.")] = [],  # noqa: B006
        related_entities: Annotated[list[EntityAlias], Field(max_length=200)] = [],  # noqa: B006
    ) -> EntityOut:
        """Add an entity or merge into it: its standard name, type, aliases and hierarchy steer retrieval."""

        async def work(res: Resources) -> EntityOut:
            entity = EntityMetadata(standard_name=standard_name, type=type, aliases=aliases, hierarchy=hierarchy,
                                    related_entities=related_entities)
            return EntityOut.of((await service.add_entity(res, entity)).entity)

        return await call("add_entity", work)

    @server.tool(annotations=READ_ONLY)
    async def list_entities(type: EntityType | None = None, offset: Offset = 0, limit: Limit = 100) -> EntityPage:
        """List the entity dictionary, optionally one type, a page at a time."""

        async def work(res: Resources) -> EntityPage:
            total, items = await service.list_entities(res, type, offset, limit)
            return EntityPage(total=total, offset=offset, limit=limit, entities=[EntityOut.of(e) for e in items])

        return await call("list_entities", work)

    @server.tool(annotations=READ_ONLY)
    async def list_documents(offset: Offset = 0, limit: Limit = 100) -> DocumentPage:
        """List the indexed documents (id and title), ordered by id, a page at a time."""

        async def work(res: Resources) -> DocumentPage:
            page = await asyncio.to_thread(documents_service.list_documents, res, offset=offset, limit=limit)
            return DocumentPage(total=page["total"], offset=offset, limit=limit,
                                documents=[DocumentOut(id=d["id"], title=d["title"]) for d in page["documents"]])

        return await call("list_documents", work)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def delete_document(id: DocumentId) -> Deleted:
        """Delete a document and all its chunks (a tool error `document_not_found` if there is none)."""

        async def work(res: Resources) -> Deleted:
            removed = await service.delete_document(res, id)
            if not removed:
                raise ApiError(404, "document_not_found", f"no document with id {id!r}")
            return Deleted(id=id, deleted_chunks=removed)

        return await call("delete_document", work)

    return server


def run_stdio(resources: Resources) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    import anyio

    anyio.run(build_mcp_server(lambda: resources).run_stdio_async)


class McpHttpEndpoint:
    """``/mcp``: forwards to the streamable-HTTP transport the app's lifespan runs (503 while it does not)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler = getattr(scope["app"].state, "mcp_http", None) if "app" in scope else None
        if handler is None:
            response = JSONResponse(error_body("mcp_unavailable", "the MCP transport is not running"),
                                    status_code=503)
            await response(scope, receive, send)
            return
        await handler(scope, receive, send)


@asynccontextmanager
async def mcp_http(app: FastAPI, host: str) -> AsyncIterator[None]:
    """Run the streamable-HTTP transport for the app's ``/mcp`` route while the app runs.

    Stateless, JSON responses: every POST is answered on its own, so each passes the API key and rate-limit
    checks by itself. Bound to 127.0.0.1 or localhost (``AER_HOST``), the SDK's DNS-rebinding protection
    accepts only those Host headers.
    """
    server = build_mcp_server(lambda: app.state.resources)
    server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    async with server.session_manager.run():
        app.state.mcp_http = StreamableHTTPASGIApp(server.session_manager)
        try:
            yield
        finally:
            app.state.mcp_http = None
