"""The service as a Model Context Protocol server (the official ``mcp`` SDK): eight tools with typed inputs and
outputs — ``query``, ``add_documents``, ``add_entity``, ``remove_alias``, ``delete_entity``, ``list_entities``,
``list_documents``, ``delete_document``, one per action of the API (``app.schemas.actions.MCP_TOOLS``; the
actions with none say why in ``NO_MCP_TOOL``) — over stdio (``aer mcp``) or streamable HTTP (``/mcp`` on the app, behind its API keys
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
``store_unavailable: ...``, ``document_not_found: ...``, ``entity_not_found: ...``, ``shared_entity: ...``,
``alias_conflict: ...``, ``server_unreachable: ...``.

Workspaces: every tool takes an optional ``workspace``; without it a call goes to the connection's workspace
(``/mcp``: its ``X-Workspace`` header or ``?workspace=``; an argument naming another is ``conflicting_workspace``),
else the server's default (``aer mcp --workspace W``), else the service's default workspace. A name that is not a workspace's (``invalid_workspace: ...``) or names none
(``workspace_not_found: ...``) is a tool error with that code, never a call on another workspace.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from starlette.types import Receive, Scope, Send

from app.client import RemoteClient, RemoteError
from app.errors import ServiceError, error_body, error_info, nearest
from app.observability.metrics import UNKNOWN_TOOL
from app.schemas import DocumentId, DocumentIn, EntityAlias, EntityName, QueryRequest, QueryResponse, Question
from app.schemas.chat import CitedPassage, cited_passages
from app.services.keys import Principal, Role, authorize, principal_in
from app.services.workspaces import open_workspace, unknown_workspace
from app.workspaces import DEFAULT_WORKSPACE, NAME_PATTERN
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
WORKSPACE_PATTERN = NAME_PATTERN.pattern
T = TypeVar("T")
log = logging.getLogger(__name__)
# The HTTP request of the tool call in progress (``/mcp``), None over stdio: its workspace header, its key.
current_request: ContextVar[Any] = ContextVar("aer_mcp_request", default=None)


class RelatedPassage(BaseModel):
    doc_id: str
    title: str
    text: str


class QueryResult(BaseModel):
    answer: str = Field(description="The answer; [n] refers to citations[n].")
    status: str = Field(description="answered, or no_results when nothing relevant was found.")
    short_answer: str | None = Field(default=None, description="The short answer (a name, date, number, verdict) "
                                                               "when one was found.")
    reason: str | None = Field(default=None, description="Why the passages do or do not answer (the answerability "
                                                         "decision's reason): what a not-found lacked.")
    related: list[RelatedPassage] = Field(default_factory=list, description=(
        "When not found: the closest passages (never the answer), to rephrase or ask about them."))
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


class AliasesRemoved(BaseModel):
    entity: EntityOut = Field(description="The entity as stored after the removal.")
    retagged: int | None = Field(description="Indexed chunks re-tagged (null: the index was unavailable; the next "
                                             "write or start re-tags them).")


class EntityDeleted(BaseModel):
    entity: EntityOut = Field(description="The entity as it was before the delete.")
    untagged: int = Field(description="Indexed chunks that lost its tag.")


Offset = Annotated[int, Field(ge=0, le=MAX_OFFSET, description="How many to skip.")]
Limit = Annotated[int, Field(ge=1, le=500, description="How many to return.")]
SearchMode = Literal["auto", "structured", "semantic", "hybrid", "graph"]
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WorkspaceArg = Annotated[str | None, Field(
    pattern=WORKSPACE_PATTERN, description="The workspace (knowledge base) to use; default: the connection's "
    "or the server's default workspace.")]


def connection_workspace() -> str | None:
    """The workspace the HTTP connection names (``X-Workspace`` header, else ``?workspace=``), if any."""
    request = current_request.get()
    if request is None:
        return None
    name = request.headers.get("x-workspace") or request.query_params.get("workspace")
    return str(name) if name else None




def tool_workspace(argument: str | None, default: str | None = None) -> str:
    """The workspace a tool call works in: its ``workspace`` argument, else the connection's (``/mcp``'s
    ``X-Workspace`` or ``?workspace=``), else the server's ``default`` (``aer mcp --workspace``), else
    ``default``. An argument naming another workspace than the connection is ``conflicting_workspace``, as on the
    REST API. (The workspace a key's rights are checked on.)"""
    connection = connection_workspace()
    if argument and connection and argument != connection:
        raise ServiceError("invalid", "conflicting_workspace", f"the call names workspace {argument!r} and its "
                           f"connection {connection!r}", {"workspaces": sorted({argument, connection})})
    return argument or connection or default or DEFAULT_WORKSPACE


class ToolBackend(Protocol):
    """Where the tools' work is done: this process's stores, or a running server. ``workspace``: the one the call
    names, or None for the backend's default."""

    async def query(self, question: str, top_k: int, search_mode: SearchMode,
                    workspace: str | None = None) -> QueryResult: ...
    async def add_documents(self, documents: list[DocumentIn], workspace: str | None = None) -> IngestResult: ...
    async def add_entity(self, entity: EntityMetadata, workspace: str | None = None) -> EntityOut: ...
    async def list_entities(self, type: EntityType | None, offset: int, limit: int,
                            workspace: str | None = None) -> EntityPage: ...
    async def list_documents(self, offset: int, limit: int, workspace: str | None = None) -> DocumentPage: ...
    async def delete_document(self, id: str, workspace: str | None = None) -> Deleted: ...
    async def remove_alias(self, standard_name: str, aliases: list[str],
                           workspace: str | None = None) -> AliasesRemoved: ...
    async def delete_entity(self, standard_name: str, workspace: str | None = None) -> EntityDeleted: ...
    def refused(self, tool: str) -> None:
        """Count a call refused before its work ran (bad arguments, an unknown tool, a key without the role)."""


def query_result(response: QueryResponse) -> QueryResult:
    """The query tool's result: an agent that got "not found" also gets why and the closest passages (it had the
    bare sentence only, and asked the same question again)."""
    return QueryResult(answer=response.answer, status=response.status, short_answer=response.answer_span,
                       reason=response.answerability.reason if response.answerability else None,
                       related=[RelatedPassage(doc_id=r.doc_id, title=r.title, text=r.text) for r in response.related],
                       answer_mode=response.answer_mode,
                       citations=cited_passages(response), route=[d.action for d in response.routing_decision.decisions],
                       degraded=response.degraded, run_id=response.run_id)


class LocalTools:
    """The tools on this process's resources: the service functions the REST routes call, counted and traced.

    ``source`` gives the process's workspaces (the registry: ``app.state.workspaces``, or what ``aer mcp``
    opened), or, for a process of one knowledge base, its ``Resources`` (then only the default workspace exists).
    ``default``: the workspace of a call that names none (``aer mcp --workspace``).
    """

    def __init__(self, source: Callable[[], Any], default: str | None = None) -> None:
        self.source = source
        self.default = default

    def resources(self, workspace: str | None = None) -> Resources:
        """The resources of ``workspace`` (None: the connection's, else this server's default)."""
        name = tool_workspace(workspace, self.default)
        source = self.source()
        if hasattr(source, "names") and hasattr(source, "get"):  # the registry
            # a mistyped name is told the one meant, as over HTTP, to a caller who sees every workspace
            return open_workspace(source, name, principal_in(current_request.get()))
        if name != DEFAULT_WORKSPACE:  # one knowledge base: only the default workspace exists
            raise unknown_workspace(name, [DEFAULT_WORKSPACE], principal_in(current_request.get()))
        resources = source
        return resources

    def refused(self, tool: str) -> None:
        """Count a call refused before its work ran as an error of ``tool``: a dashboard watching the tools'
        error rate sees a caller's mistakes too (they were returned before ``_call`` and counted nowhere)."""
        source = self.source()
        metrics = source.default.metrics if hasattr(source, "names") and hasattr(source, "get") else source.metrics
        metrics.mcp_tools.labels(tool, "error").inc()

    async def _call(self, tool: str, work: Callable[[Resources], Awaitable[T]], workspace: str | None = None) -> T:
        """Run one tool call, counted and traced; the service's errors become tool errors that start with their
        code."""
        try:
            res = self.resources(workspace)
        except ServiceError as exc:
            self.refused(tool)
            raise ToolError(f"{exc.code}: {exc.message}") from exc
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

    async def query(self, question: str, top_k: int, search_mode: SearchMode,
                    workspace: str | None = None) -> QueryResult:
        from app.services import query as service

        async def work(res: Resources) -> QueryResult:
            if not has_content(question):  # the content check of every question (QueryRequest's), by its code
                raise ServiceError("invalid", EMPTY_QUESTION, EMPTY_QUESTION_MESSAGE)
            request = QueryRequest(question=question, top_k=top_k, search_mode=search_mode)
            return query_result(await service.answer(res, request))

        return await self._call("query", work, workspace)

    async def add_documents(self, documents: list[DocumentIn], workspace: str | None = None) -> IngestResult:
        from app.services import documents as documents_service

        async def work(res: Resources) -> IngestResult:
            _, report = await documents_service.add_documents(
                res, [Document.model_validate(d.model_dump()) for d in documents], background=False, action="mcp")
            return IngestResult(documents=report["documents"], chunks=report["chunks"], ids=report["ids"])

        return await self._call("add_documents", work, workspace)

    async def add_entity(self, entity: EntityMetadata, workspace: str | None = None) -> EntityOut:
        from app.services import entities as service

        async def work(res: Resources) -> EntityOut:
            return EntityOut.of((await service.add_entity(res, entity)).entity)

        return await self._call("add_entity", work, workspace)

    async def list_entities(self, type: EntityType | None, offset: int, limit: int,
                            workspace: str | None = None) -> EntityPage:
        from app.services import entities as service

        async def work(res: Resources) -> EntityPage:
            total, items = await service.list_entities(res, type, offset, limit)
            return EntityPage(total=total, offset=offset, limit=limit, entities=[EntityOut.of(e) for e in items])

        return await self._call("list_entities", work, workspace)

    async def list_documents(self, offset: int, limit: int, workspace: str | None = None) -> DocumentPage:
        from app.services import documents as documents_service

        async def work(res: Resources) -> DocumentPage:
            page = await asyncio.to_thread(documents_service.list_documents, res, offset=offset, limit=limit)
            return DocumentPage(total=page["total"], offset=offset, limit=limit,
                                documents=[DocumentOut(id=d["id"], title=d["title"]) for d in page["documents"]])

        return await self._call("list_documents", work, workspace)

    async def delete_document(self, id: str, workspace: str | None = None) -> Deleted:
        from app.services import documents as service

        async def work(res: Resources) -> Deleted:
            removed = await service.delete_document(res, id)
            if not removed:
                raise await asyncio.to_thread(service.document_not_found, res, id)
            return Deleted(id=id, deleted_chunks=removed)

        return await self._call("delete_document", work, workspace)

    async def remove_alias(self, standard_name: str, aliases: list[str],
                           workspace: str | None = None) -> AliasesRemoved:
        from app.services import entities as service

        async def work(res: Resources) -> AliasesRemoved:
            saved = await service.remove_aliases(res, standard_name, aliases)
            if saved is None:
                raise ServiceError("not_found", "entity_not_found", f"no entity named {standard_name!r}")
            return AliasesRemoved(entity=EntityOut.of(saved.entity), retagged=saved.retagged)

        return await self._call("remove_alias", work, workspace)

    async def delete_entity(self, standard_name: str, workspace: str | None = None) -> EntityDeleted:
        from app.services import entities as service

        async def work(res: Resources) -> EntityDeleted:
            deleted = await service.delete_entity(res, standard_name)
            if deleted is None:
                raise ServiceError("not_found", "entity_not_found", f"no entity named {standard_name!r}")
            return EntityDeleted(entity=EntityOut.of(deleted[0]), untagged=deleted[1])

        return await self._call("delete_entity", work, workspace)


class RemoteTools:
    """The tools on a running server's HTTP API (``aer mcp --server URL``): its index, its errors' codes. A call's
    ``workspace`` goes to the server as ``X-Workspace`` (else the client's own, ``aer mcp --workspace``)."""

    def __init__(self, client: RemoteClient) -> None:
        self.client = client

    def _client(self, workspace: str | None) -> RemoteClient:
        """The client for one call: the same connection pool, the call's workspace."""
        if not workspace or workspace == self.client.workspace:
            return self.client
        other = copy.copy(self.client)
        other.workspace = workspace
        return other

    def refused(self, tool: str) -> None:
        """Nothing to count: this process has no metrics, and the server never saw the call."""

    async def _call(self, work: Callable[[RemoteClient], T], workspace: str | None) -> T:
        client = self._client(workspace)
        try:
            return await asyncio.to_thread(work, client)
        except RemoteError as exc:
            code = "server_unreachable" if exc.status == 0 else exc.code
            raise ToolError(f"{code}: {exc.message}") from exc

    async def query(self, question: str, top_k: int, search_mode: SearchMode,
                    workspace: str | None = None) -> QueryResult:
        body = await self._call(lambda c: c.query(question, top_k=top_k, search_mode=search_mode), workspace)
        return query_result(QueryResponse.model_validate(body))

    async def add_documents(self, documents: list[DocumentIn], workspace: str | None = None) -> IngestResult:
        docs = [d.model_dump(by_alias=True, mode="json") for d in documents]
        total = await self._call(lambda c: c.add_documents(docs), workspace)
        return IngestResult(documents=total["documents"], chunks=total["chunks"], ids=total["ids"])

    async def add_entity(self, entity: EntityMetadata, workspace: str | None = None) -> EntityOut:
        answer = await self._call(lambda c: c.add_entity(entity), workspace)
        return EntityOut.of(EntityMetadata.model_validate(answer["entity"], context=STORED))

    async def list_entities(self, type: EntityType | None, offset: int, limit: int,
                            workspace: str | None = None) -> EntityPage:
        page = await self._call(lambda c: c.list_entities(type, offset, limit), workspace)
        return EntityPage(total=page["total"], offset=offset, limit=limit,
                          entities=[EntityOut.of(EntityMetadata.model_validate(e, context=STORED))
                                    for e in page["entities"]])

    async def list_documents(self, offset: int, limit: int, workspace: str | None = None) -> DocumentPage:
        page = await self._call(lambda c: c.list_documents(offset, limit), workspace)
        return DocumentPage(total=page["total"], offset=offset, limit=limit,
                            documents=[DocumentOut(id=d["id"], title=d["title"]) for d in page["documents"]])

    async def delete_document(self, id: str, workspace: str | None = None) -> Deleted:
        answer = await self._call(lambda c: c.delete_document(id), workspace)
        return Deleted(id=id, deleted_chunks=answer["deletedChunks"])

    async def remove_alias(self, standard_name: str, aliases: list[str],
                           workspace: str | None = None) -> AliasesRemoved:
        answer = await self._call(lambda c: c.remove_aliases(standard_name, aliases), workspace)
        return AliasesRemoved(entity=EntityOut.of(EntityMetadata.model_validate(answer["entity"], context=STORED)),
                              retagged=answer.get("retagged"))

    async def delete_entity(self, standard_name: str, workspace: str | None = None) -> EntityDeleted:
        answer = await self._call(lambda c: c.delete_entity(standard_name), workspace)
        return EntityDeleted(entity=EntityOut.of(EntityMetadata.model_validate(answer["entity"], context=STORED)),
                             untagged=answer["untagged"])


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

    default_workspace: str | None = None
    """The workspace of a call that names none and comes on no connection naming one (``aer mcp --workspace``)."""
    tools: ToolBackend | None = None
    """The backend, told of each call refused here, before its work (it counts them)."""

    def _refuse(self, tool: str, text: str) -> CallToolResult:
        """A tool error for a call refused before its work ran, counted as the tool's error."""
        if self.tools is not None:
            self.tools.refused(tool)
        return tool_error(text)

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            names = [t.name for t in self._tool_manager.list_tools()]
            meant = nearest(name, names)
            return self._refuse(UNKNOWN_TOOL, f"unknown_tool: no tool {name!r}"
                                + (f" (did you mean {meant!r}?)" if meant else "") + f"; the tools are {', '.join(names)}")
        model = tool.fn_metadata.arg_model
        accepted = {f.alias or n for n, f in model.model_fields.items()} | set(model.model_fields)
        if unknown := sorted(set(arguments) - accepted):
            near = [f"{u!r} → {m!r}" for u in unknown if (m := nearest(u, list(model.model_fields)))]
            return self._refuse(name, f"unknown_argument: {name} takes {', '.join(model.model_fields)}; not "
                              f"{', '.join(unknown)}" + (f" (did you mean {', '.join(near)}?)" if near else ""))
        arguments = {k: structured(v) for k, v in arguments.items()}
        try:
            model.model_validate(arguments, strict=True)
        except ValidationError as exc:
            blank_question = any(e["loc"][:1] == ("question",) and e["type"] in ("blank", "string_too_short", EMPTY_QUESTION)
                                 for e in exc.errors())
            kinds = {e["type"] for e in exc.errors()}
            bad_workspace = any(e["loc"][:1] == ("workspace",) for e in exc.errors())
            code = ("empty_question" if blank_question else
                    "invalid_entity_name" if "invalid_entity_name" in kinds else
                    "invalid_workspace" if bad_workspace else "invalid_arguments")
            log.info("MCP tool %r refused arguments: %s", name, code)
            return self._refuse(name, f"{code}: {validation_text(exc)}")
        token = current_request.set(_http_request(context))
        role, documents = TOOL_NEEDS.get(name, ("write", False))
        principal = caller(context)
        try:
            # a key for one workspace works in it when the call and its connection name none
            workspace = tool_workspace(arguments.get("workspace"), principal.workspace or self.default_workspace)
            authorize(principal, workspace, role, documents=documents)
        except ServiceError as exc:  # the key's role on the call's workspace: 403/404 as on the REST API
            current_request.reset(token)
            log.info("MCP tool %r refused: %s", name, exc.code)
            return self._refuse(name, f"{exc.code}: {exc.message}")
        if principal.workspace is not None and "workspace" in accepted:
            arguments = {**arguments, "workspace": workspace}  # a scoped key: the workspace it was checked on
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ToolError):
                raise
            log.info("MCP tool %r failed: %s", name, str(exc.__cause__).partition(":")[0])
            return tool_error(str(exc.__cause__))
        finally:
            current_request.reset(token)


def _http_request(context: Context[Any, Any] | None) -> Any:
    """The HTTP request a tool call came in (``/mcp``); None over stdio or in memory."""
    try:
        return context.request_context.request if context is not None else None
    except ValueError:  # no request context
        return None


TOOL_NEEDS: dict[str, tuple[Role, bool]] = {
    "query": ("read", False), "list_entities": ("read", False), "list_documents": ("read", True),
    "add_documents": ("write", False), "add_entity": ("write", False), "delete_document": ("write", False),
    "remove_alias": ("write", False), "delete_entity": ("write", False),
}
"""Each tool's role and whether it returns documents' text or inventory (``app.services.keys.authorize``); a tool
not listed needs a write key."""


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


def build_mcp_server(backend: ToolBackend | Callable[[], Any], default_workspace: str | None = None) -> MCPServer:
    """The MCP server, its tools done by ``backend`` (a function returning the process's workspaces or resources:
    by ``LocalTools`` on them, ``default_workspace`` for calls that name none)."""
    if callable(backend):
        backend = LocalTools(backend, default_workspace)
    tools: ToolBackend = backend
    server = StrictMCPServer("adaptive-entity-rag", title="Adaptive Entity RAG", instructions=INSTRUCTIONS,
                             version="0.1.0", log_level="WARNING")
    server.default_workspace = default_workspace
    server.tools = tools

    @server.tool(annotations=READ_ONLY)
    async def query(
        question: Annotated[Question, Field(description="The question, in Chinese or English.")],
        top_k: Annotated[int, Field(ge=1, le=50, description="Passages to rank and cite from.")] = 5,
        search_mode: Annotated[SearchMode, Field(description="auto lets the router choose.")] = "auto",
        workspace: WorkspaceArg = None,
    ) -> QueryResult:
        """Answer a question from the indexed documents, with numbered citations and the route it took."""
        return await tools.query(question, top_k, search_mode, workspace)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def add_documents(
        documents: Annotated[list[DocumentIn], Field(min_length=1, max_length=500,
                                                     description="Documents to index; an existing id is replaced.")],
        workspace: WorkspaceArg = None,
    ) -> IngestResult:
        """Index documents (id, title, text, optional metadata with a date and typed entities)."""
        ids = [d.id for d in documents]
        if len(set(ids)) != len(ids):
            tools.refused("add_documents")
            raise ToolError("duplicate_document_ids: each document id may appear once per call")
        return await tools.add_documents(documents, workspace)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def add_entity(
        standard_name: EntityName,
        type: EntityType,
        aliases: Annotated[list[EntityAlias], Field(max_length=200)] = [],  # noqa: B006 - never mutated
        hierarchy: Annotated[list[EntityAlias], Field(max_length=20,
                                                      description="Ancestors, widest first: 中国, 北京.")] = [],  # noqa: B006
        related_entities: Annotated[list[EntityAlias], Field(max_length=200)] = [],  # noqa: B006
        workspace: WorkspaceArg = None,
    ) -> EntityOut:
        """Add an entity or merge into it: its standard name, type, aliases and hierarchy steer retrieval."""
        try:
            entity = EntityMetadata(standard_name=standard_name, type=type, aliases=aliases, hierarchy=hierarchy,
                                    related_entities=related_entities)
        except ValidationError as exc:
            tools.refused("add_entity")
            raise ToolError(f"invalid_entity_name: {validation_text(exc)}") from exc
        return await tools.add_entity(entity, workspace)

    @server.tool(annotations=READ_ONLY)
    async def list_entities(type: EntityType | None = None, offset: Offset = 0, limit: Limit = 100,
                            workspace: WorkspaceArg = None) -> EntityPage:
        """List the entity dictionary (the shared one with the workspace's own over it), optionally one type, a
        page at a time."""
        return await tools.list_entities(type, offset, limit, workspace)

    @server.tool(annotations=READ_ONLY)
    async def list_documents(offset: Offset = 0, limit: Limit = 100, workspace: WorkspaceArg = None) -> DocumentPage:
        """List the indexed documents (id and title), ordered by id, a page at a time."""
        return await tools.list_documents(offset, limit, workspace)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def delete_document(id: DocumentId, workspace: WorkspaceArg = None) -> Deleted:
        """Delete a document and all its chunks (a tool error `document_not_found` if there is none)."""
        return await tools.delete_document(id, workspace)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def remove_alias(
        standard_name: EntityName,
        aliases: Annotated[list[EntityAlias], Field(min_length=1, max_length=200)],
        workspace: WorkspaceArg = None,
    ) -> AliasesRemoved:
        """Remove aliases from an entity of the workspace's dictionary; chunks that named it only by them lose its
        tag (a tool error `entity_not_found` if there is no such entity)."""
        return await tools.remove_alias(standard_name, aliases, workspace)

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def delete_entity(standard_name: EntityName, workspace: WorkspaceArg = None) -> EntityDeleted:
        """Delete an entity of the workspace's dictionary and its aliases: the chunks lose its tag, the documents
        stay (`entity_not_found` if there is none; `shared_entity` if it is the shared dictionary's)."""
        return await tools.delete_entity(standard_name, workspace)

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
        if scope.get("method") == "GET":
            # The transport is stateless: nothing is ever sent on a GET's server-to-client stream, so the SDK's
            # would stay open (and silent) until the client gave up. The MCP spec's answer for a server without
            # that stream is 405.
            from fastapi.responses import JSONResponse

            response = JSONResponse(error_body(
                "method_not_allowed", "GET /mcp is not allowed: this MCP endpoint is stateless and opens no event "
                "stream; POST each JSON-RPC message (content-type: application/json, accept: application/json, "
                "text/event-stream)"), status_code=405, headers={"Allow": "POST"})
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

    server = build_mcp_server(LocalTools(lambda: getattr(app.state, "workspaces", None) or app.state.resources))
    server.streamable_http_app(stateless_http=True, json_response=True, host=host)
    async with server.session_manager.run():
        app.state.mcp_http = StreamableHTTPASGIApp(server.session_manager)
        try:
            yield
        finally:
            app.state.mcp_http = None
