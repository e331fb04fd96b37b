"""FastAPI application factory; the lifespan builds the RagContext once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api.routes import health, rag
from app.container import build_resources
from app.errors import install_error_handlers
from app.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app; settings are read from the environment only if none are given."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        resources = await asyncio.to_thread(build_resources, settings or Settings())
        await asyncio.to_thread(resources.warm_up)
        app.state.resources = resources
        try:
            yield
        finally:
            resources.close()

    app = FastAPI(
        title="Adaptive Entity RAG",
        version="0.1.0",
        summary="Entity-aware routing RAG: parse, validate, route, relax, retrieve, rerank, write with citations.",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(rag.router)
    return app
