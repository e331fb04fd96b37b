"""FastAPI application factory; the lifespan builds the RagContext once."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import lru_cache

from fastapi import Depends, FastAPI
from fastapi_offline import FastAPIOffline
from starlette.routing import Route

from app.api.error_schema import ERROR_RESPONSES
from app.api.errors import install_error_handlers
from app.api.limits import BodyReadDeadline, BodySizeLimit
from app.api.openai_errors import OpenAIErrorShape
from app.api.routes import (
    actions,
    documents,
    evaluations,
    graph,
    health,
    info,
    keys,
    metrics,
    openai_compat,
    workbench,
    workspaces,
)
from app.api.routes.web import install_page
from app.api.security import Guard, GuardedApp, access_summary, install_security
from app.api.telemetry import RequestTelemetry
from app.container import Resources, build_resources
from app.mcp_server import McpHttpEndpoint, mcp_http
from app.schemas import API_PATH
from app.settings import Settings
from app.workspaces import Workspaces


def create_app(
    settings: Settings | None = None,
    resources_factory: Callable[[Settings], Resources] = build_resources,
) -> FastAPI:
    """Build the app; settings are read from the environment only if none are given."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = guard.stored.store()
        logging.getLogger("uvicorn.error").info("access: %s", access_summary(
            settings, len(await asyncio.to_thread(store.list)) if store is not None else 0))
        # what the first start does meanwhile: it printed nothing for a minute on a busy machine after "Waiting
        # for application startup." and a new user took the process for stuck
        started = time.perf_counter()
        say = logging.getLogger("uvicorn.error").info
        say("startup: opening the stores of the default workspace (data dir %s) …", settings.data_dir)
        registry = Workspaces(settings, resources_factory, start=True)
        resources = await asyncio.to_thread(resources_factory, registry.settings)
        say("startup: loading the %s encoder, jieba's dictionaries and the answer rules (up to a minute on a busy "
            "machine) …", resources.embedding_name)
        await asyncio.to_thread(resources.warm_up)
        say("startup: ready in %.0f s: the page at http://%s:%d/ , the API docs at /docs", time.perf_counter() - started,
            settings.host if ":" not in settings.host else f"[{settings.host}]", settings.port)
        registry.adopt(resources)
        app.state.workspaces = registry
        app.state.resources = resources  # the default workspace's (code that knows no workspace keeps working)
        resources.start_jobs()
        try:
            async with mcp_http(app, settings.host):
                yield
        finally:
            await asyncio.to_thread(registry.close)
            guard.stored.close()

    # FastAPIOffline serves the Swagger/ReDoc assets from the package: /docs works with no network.
    app = FastAPIOffline(
        title="Adaptive Entity RAG",
        version="0.1.0",
        summary="Entity-aware routing RAG: parse, validate, route, relax, retrieve, rerank, write with citations.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes,
                       per_path={f"{API_PATH}/upload": settings.upload_max_bytes})
    app.add_middleware(BodyReadDeadline, timeout_s=settings.body_timeout_s)
    install_security(app, settings)  # after BodySizeLimit: CORS is the outermost layer, so a 413 carries its headers
    app.include_router(health.router)
    guard = Guard(settings)
    app.state.guard = guard  # its stored keys: /info says whether keys are configured
    app.include_router(actions.router, dependencies=[Depends(guard)], responses=ERROR_RESPONSES)
    app.include_router(documents.router, dependencies=[Depends(guard)], responses=ERROR_RESPONSES)
    app.include_router(keys.router, dependencies=[Depends(guard)], responses=ERROR_RESPONSES)  # admin of every workspace
    app.include_router(openai_compat.router, dependencies=[Depends(guard.of_kind("read"))], responses=ERROR_RESPONSES)
    app.include_router(metrics.router, responses=ERROR_RESPONSES, dependencies=(
        [Depends(guard.of_kind("admin", limited=False))] if settings.metrics_require_key else []))
    # the MCP transport is a plain ASGI app: the guard wraps it (every call needs a key once keys are set; each
    # tool then authorizes its own action on its workspace)
    app.router.routes.append(Route("/mcp", GuardedApp(McpHttpEndpoint(), guard.of_kind("key")),
                                   methods=["GET", "POST", "DELETE"], include_in_schema=False))
    for router in (info.router, graph.router, evaluations.router, workbench.router, workspaces.router):
        app.include_router(router, dependencies=[Depends(guard)], responses=ERROR_RESPONSES)
    app.include_router(workbench.read_router, dependencies=[Depends(guard.of_kind("read"))], responses=ERROR_RESPONSES)
    app.include_router(workbench.corpus_router, dependencies=[Depends(guard.of_kind("corpus"))],
                       responses=ERROR_RESPONSES)
    install_page(app)
    app.add_middleware(OpenAIErrorShape)  # /v1/* errors, whoever answered them, in OpenAI's shape
    app.add_middleware(RequestTelemetry)  # outermost: every answer, 413s and refused preflights included, is counted
    return app


@lru_cache(maxsize=1)
def _default_app() -> FastAPI:
    settings = Settings()
    if settings.run_via_langgraph:
        # Mounted into a LangGraph server: share the resources its graph factory uses (one Milvus client).
        from app.studio import shared_resources

        return create_app(settings, lambda _settings: shared_resources())
    return create_app(settings)


def __getattr__(name: str) -> FastAPI:
    """``app.main:app`` (uvicorn, ``langgraph.json``) builds the app on first access, not at import."""
    if name == "app":
        return _default_app()
    raise AttributeError(name)
