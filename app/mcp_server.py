"""The service as a Model Context Protocol server (the official ``mcp`` SDK): six tools with typed inputs and
outputs — ``query``, ``add_documents``, ``add_entity``, ``list_entities``, ``list_documents``,
``delete_document`` — over stdio (``aer mcp``) or streamable HTTP (``/mcp`` on the app, behind its API keys
and rate limit).

Where the tools' work is done is a backend: ``LocalTools`` calls the same service functions as the REST routes
on this process's stores (``aer mcp``, ``/mcp``), so runs are counted and traced alike; ``RemoteTools`` calls a
running server's HTTP API (``aer mcp --server URL``), so a client reaches the index that server holds (a Milvus
Lite file belongs to one process).

Arguments are checked strictly, before the tool runs: ``top_k: true`` or ``"5"`` is no integer, an argument the
tool does not take is refused by name (never ignored), a blank question is ``empty_question``. A JSON array or
object sent as a string (as some clients send lists) is still read. A tool that fails answers an MCP tool error
(``isError``) whose text starts with the error code — the REST API's where it has one — and never carries a
traceback: ``invalid_arguments: ...``, ``unknown_argument: ...``, ``empty_question: ...``,
``store_unavailable: ...``, ``document_not_found: ...``, ``alias_conflict: ...``, ``server_unreachable: ...``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from starlette.types import Receive, Scope, Send

from app.client import RemoteClient, RemoteError
from app.errors import ServiceError, error_body, error_info
from app.schemas import DocumentId, DocumentIn, EntityAlias, EntityName, QueryRequest, QueryResponse, Question
from app.schemas.chat import CitedPassage, cited_passages
from app.services.keys import Principal, Role, authorize, principal_in
from graphs.domain import STORED, Document, EntityMetadata, EntityType
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import AliasConflictError, StoreUnavailable
from graphs.text.content import EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE, has_content

if TYPE_CHECKING:
    from fastapi import FastAPI

    from app.container import Resources

INSTRUCTIONS = (
    "Answers questions over the indexed documents (Chinese and English) with numbered citations, and manages "
    "the documents and the entity dictionary (names, aliases, hierarchies) that steer retrieval. Ask with "
    "`query`; the answer's [n] markers refer to `citations`."
)
MAX_OFFSET = 1_000_000_000
MESSAGE_ERRORS = 5
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
SearchMode = Literal["auto", "structured", "semantic", "hybrid", "graph"]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


class ToolBackend(Protocol):
    """Where the tools' work is done: this process's stores, or a running server."""

    async def query(self, question: str, top_k: int, search_mode: SearchMode) -> QueryResult: ...
    async def add_documents(self, documents: list[DocumentIn]) -> IngestResult: ...
    async def add_entity(self, entity: EntityMetadata) -> EntityOut: ...
    async def list_entities(self, type: EntityType | None, offset: int, limit: int) -> EntityPage: ...
    async def list_documents(self, offset: int, limit: int) -> DocumentPage: ...
    async def delete_document(self, id: str) -> Deleted: ...


def query_result(response: QueryResponse) -> QueryResult:
    return QueryResult(answer=response.answer, status=response.status, answer_mode=response.answer_mode,
                       citations=cited_passages(response), route=[d.action for d in response.routing_decision.decisions],
                       degraded=response.degraded, run_id=response.run_id)


class LocalTools:
    """The tools on this process's resources: the service functions the REST routes call, counted and traced."""

    def __init__(self, resources: Callable[[], Resources]) -> None:
        self.resources = resources

    async def _call(self, tool: str, work: Callable[[Resources], Awaitable[T]]) -> T:
        """Run one tool call, counted and traced; the service's errors become tool errors that start with their
        code."""
        res = self.resources()
        outcome = "error"
        try:
            with res.tracing.span(f"mcp.tool {tool}", {"aer.tool": tool}) as span:
                try:
                    result = await work(res)
                    outcome = "ok"
                    return result
                except (StoreUnavailable, EmbedderUnavailable) as exc:
                    error = error_info(exc)  # plain words; the driver's text goes to the log
                    raise ToolError(f"{error['code']}: {error['message']}") from exc
                except AliasConflictError as exc:
                    raise ToolError(f"alias_conflict: {exc}") from exc
                except ServiceError as exc:
                    raise ToolError(f"{exc.code}: {exc.message}") from exc
                except ValidationError as exc:  # a value the service's own models refuse: the caller's mistake
                    raise ToolError(f"invalid_arguments: {validation_text(exc)}") from exc
                except ToolError:
                    raise
                except Exception as exc:  # a bug: its text (paths, driver output) goes to the log, not the client
                    log.exception("MCP tool %s failed", tool)
                    raise ToolError("internal_error: internal server error") from exc
                finally:
                    span.set_attribute("aer.outcome", outcome)
        finally:
            res.metrics.mcp_tools.labels(tool, outcome).inc()

    async def query(self, question: str, top_k: int, search_mode: SearchMode) -> QueryResult:
        from app.services import query as service

        async def work(res: Resources) -> QueryResult:
            if not has_content(question):  # the content check of every question (QueryRequest's), by its code
                raise ServiceError("invalid", EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
            request = QueryRequest(question=question, top_k=top_k, search_mode=search_mode)
            return query_result(await service.answer(res, request))

        return await self._call("query", work)

    async def add_documents(self, documents: list[DocumentIn]) -> IngestResult:
        from app.services import documents as documents_service

        async def work(res: Resources) -> IngestResult:
            _, report = await documents_service.add_documents(
                res, [Document.model_validate(d.model_dump()) for d in documents], background=False, action="mcp")
            return IngestResult(documents=report["documents"], chunks=report["chunks"], ids=report["ids"])

        return await self._call("add_documents", work)

    async def add_entity(self, entity: EntityMetadata) -> EntityOut:
        from app.services import entities as service

        async def work(res: Resources) -> EntityOut:
            return EntityOut.of((await service.add_entity(res, entity)).entity)

        return await self._call("add_entity", work)

    async def list_entities(self, type: EntityType | None, offset: int, limit: int) -> EntityPage:
        from app.services import entities as service

        async def work(res: Resources) -> EntityPage:
            total, items = await service.list_entities(res, type, offset, limit)
            return EntityPage(total=total, offset=offset, limit=limit, entities=[EntityOut.of(e) for e in items])

        return await self._call("list_entities", work)

    async def list_documents(self, offset: int, limit: int) -> DocumentPage:
        from app.services import documents as documents_service

        async def work(res: Resources) -> DocumentPage:
            page = await asyncio.to_thread(documents_service.list_documents, res, offset=offset, limit=limit)
            return DocumentPage(total=page["total"], offset=offset, limit=limit,
                                documents=[DocumentOut(id=d["id"], title=d["title"]) for d in page["documents"]])

        return await self._call("list_documents", work)

    async def delete_document(self, id: str) -> Deleted:
        from app.services import documents as service

        async def work(res: Resources) -> Deleted:
            removed = await service.delete_document(res, id)
            if not removed:
                raise ServiceError("not_found", "document_not_found", f"no document with id {id!r}")
            return Deleted(id=id, deleted_chunks=removed)

        return await self._call("delete_document", work)


class RemoteTools:
    """The tools on a running server's HTTP API (``aer mcp --server URL``): its index, its errors' codes."""

    def __init__(self, client: RemoteClient) -> None:
        self.client = client

    async def _call(self, work: Callable[[], T]) -> T:
        try:
            return await asyncio.to_thread(work)
        except RemoteError as exc:
            code = "server_unreachable" if exc.status == 0 else exc.code
            raise ToolError(f"{code}: {exc.message}") from exc

    async def query(self, question: str, top_k: int, search_mode: SearchMode) -> QueryResult:
        body = await self._call(lambda: self.client.query(question, top_k=top_k, search_mode=search_mode))
        return query_result(QueryResponse.model_validate(body))

    async def add_documents(self, documents: list[DocumentIn]) -> IngestResult:
        docs = [d.model_dump(by_alias=True, mode="json") for d in documents]
        total = await self._call(lambda: self.client.add_documents(docs))
        return IngestResult(documents=total["documents"], chunks=total["chunks"], ids=total["ids"])

    async def add_entity(self, entity: EntityMetadata) -> EntityOut:
        answer = await self._call(lambda: self.client.add_entity(entity))
        return EntityOut.of(EntityMetadata.model_validate(answer["entity"], context=STORED))

    async def list_entities(self, type: EntityType | None, offset: int, limit: int) -> EntityPage:
        page = await self._call(lambda: self.client.list_entities(type, offset, limit))
        return EntityPage(total=page["total"], offset=offset, limit=limit,
                          entities=[EntityOut.of(EntityMetadata.model_validate(e, context=STORED))
                                    for e in page["entities"]])

    async def list_documents(self, offset: int, limit: int) -> DocumentPage:
        page = await self._call(lambda: self.client.list_documents(offset, limit))
        return DocumentPage(total=page["total"], offset=offset, limit=limit,
                            documents=[DocumentOut(id=d["id"], title=d["title"]) for d in page["documents"]])

    async def delete_document(self, id: str) -> Deleted:
        answer = await self._call(lambda: self.client.delete_document(id))
        return Deleted(id=id, deleted_chunks=answer["deletedChunks"])


def validation_text(exc: ValidationError) -> str:
    """``top_k: Input should be a valid integer; ...`` (the first few errors, no input values)."""
    errors = exc.errors()
    parts = [f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in errors[:MESSAGE_ERRORS]]
    more = len(errors) - MESSAGE_ERRORS
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


def tool_error(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


class StrictMCPServer(MCPServer):
    """The SDK's server with strict arguments and tool errors whose text starts with the error code.

    The SDK validates arguments in lax mode (``"5"`` and ``true`` become 5 and 1, its JSON pre-parse turns the
    string ``"5"`` into 5) and ignores unknown ones; and it prefixes every tool error with ``Error executing tool
    <name>:``. Here the arguments are checked first, strictly, against the same model the SDK built from the
    tool's signature, and a deliberate tool error is answered with its own text.
    """

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return tool_error(f"unknown_tool: no tool {name!r}; the tools are "
                              f"{', '.join(t.name for t in self._tool_manager.list_tools())}")
        model = tool.fn_metadata.arg_model
        accepted = {f.alias or n for n, f in model.model_fields.items()} | set(model.model_fields)
        if unknown := sorted(set(arguments) - accepted):
            return tool_error(f"unknown_argument: {name} takes {', '.join(model.model_fields)}; not "
                              f"{', '.join(unknown)}")
        arguments = {k: structured(v) for k, v in arguments.items()}
        try:
            model.model_validate(arguments, strict=True)
        except ValidationError as exc:
            blank_question = any(e["loc"][:1] == ("question",) and e["type"] in ("blank", "string_too_short", EMPTY_QUESTION)
                                 for e in exc.errors())
            kinds = {e["type"] for e in exc.errors()}
            code = ("empty_question" if blank_question else
                    "invalid_entity_name" if "invalid_entity_name" in kinds else "invalid_arguments")
            log.info("MCP tool %r refused arguments: %s", name, code)
            return tool_error(f"{code}: {validation_text(exc)}")
        role, documents = TOOL_NEEDS.get(name, ("write", False))
        try:
            authorize(caller(context), TOOLS_WORKSPACE, role, documents=documents)
        except ServiceError as exc:  # the key's role on the tools' workspace: 403/404 as on the REST API
            log.info("MCP tool %r refused: %s", name, exc.code)
            return tool_error(f"{exc.code}: {exc.message}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ToolError):
                raise
            log.info("MCP tool %r failed: %s", name, str(exc.__cause__).partition(":")[0])
            return tool_error(str(exc.__cause__))


TOOL_NEEDS: dict[str, tuple[Role, bool]] = {
    "query": ("read", False), "list_entities": ("read", False), "list_documents": ("read", True),
    "add_documents": ("write", False), "add_entity": ("write", False), "delete_document": ("write", False),
}
"""Each tool's role and whether it returns documents' text or inventory (``app.services.keys.authorize``); a tool
not listed needs a write key."""
TOOLS_WORKSPACE = "default"
"""The workspace the tools act on (the process's resources)."""


def caller(context: Context[Any, Any] | None) -> Principal:
    """Who calls a tool: over HTTP the principal the guard left on the request; over stdio (no request) the
    local user (``OPEN``)."""
    try:
        request = context.request_context.request if context is not None else None
    except ValueError:  # no request context: called in process
        request = None
    return principal_in(request)


def structured(value: Any) -> Any:
    """A JSON array or object sent as a string (some clients send lists so) as what it holds; anything else as
    it is (a string ``"5"`` stays a string, and is no integer)."""
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "{"):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def build_mcp_server(backend: ToolBackend | Callable[[], Resources]) -> MCPServer:
    """The MCP server, its tools done by ``backend`` (a function returning the process's resources: by
    ``LocalTools`` on them)."""
    if callable(backend):
        backend = LocalTools(backend)
    tools: ToolBackend = backend
    server: MCPServer = StrictMCPServer("adaptive-entity-rag", title="Adaptive Entity RAG",
                                        instructions=INSTRUCTIONS, version="0.1.0", log_level="WARNING")

    @server.tool(annotations=READ_ONLY)
    async def query(
        question: Annotated[Question, Field(description="The question, in Chinese or English.")],
        top_k: Annotated[int, Field(ge=1, le=50, description="Passages to rank and cite from.")] = 5,
        search_mode: Annotated[SearchMode, Field(description="auto lets the router choose.")] = "auto",
    ) -> QueryResult:
        """Answer a question from the indexed documents, with numbered citations and the route it took."""
        return await tools.query(question, top_k, search_mode)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def add_documents(
        documents: Annotated[list[DocumentIn], Field(min_length=1, max_length=500,
                                                     description="Documents to index; an existing id is replaced.")],
    ) -> IngestResult:
        """Index documents (id, title, text, optional metadata with a date and typed entities)."""
        ids = [d.id for d in documents]
        if len(set(ids)) != len(ids):
            raise ToolError("duplicate_document_ids: each document id may appear once per call")
        return await tools.add_documents(documents)

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
        try:
            entity = EntityMetadata(standard_name=standard_name, type=type, aliases=aliases, hierarchy=hierarchy,
                                    related_entities=related_entities)
        except ValidationError as exc:
            raise ToolError(f"invalid_entity_name: {validation_text(exc)}") from exc
        return await tools.add_entity(entity)

    @server.tool(annotations=READ_ONLY)
    async def list_entities(type: EntityType | None = None, offset: Offset = 0, limit: Limit = 100) -> EntityPage:
        """List the entity dictionary, optionally one type, a page at a time."""
        return await tools.list_entities(type, offset, limit)

    @server.tool(annotations=READ_ONLY)
    async def list_documents(offset: Offset = 0, limit: Limit = 100) -> DocumentPage:
        """List the indexed documents (id and title), ordered by id, a page at a time."""
        return await tools.list_documents(offset, limit)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def delete_document(id: DocumentId) -> Deleted:
        """Delete a document and all its chunks (a tool error `document_not_found` if there is none)."""
        return await tools.delete_document(id)

    return server


def run_stdio(backend: ToolBackend) -> None:
    """Serve the tools over stdin/stdout until the client closes them."""
    import anyio

    anyio.run(build_mcp_server(backend).run_stdio_async)


class McpHttpEndpoint:
    """``/mcp``: forwards to the streamable-HTTP transport the app's lifespan runs (503 while it does not)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        handler = getattr(scope["app"].state, "mcp_http", None) if "app" in scope else None
        if handler is None:
            from fastapi.responses import JSONResponse

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
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp

    server = build_mcp_server(LocalTools(lambda: app.state.resources))
    server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    async with server.session_manager.run():
        app.state.mcp_http = StreamableHTTPASGIApp(server.session_manager)
        try:
            yield
        finally:
            app.state.mcp_http = None
