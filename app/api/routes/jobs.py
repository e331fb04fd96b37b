"""The jobs resource: an ingest job's status, progress and its documents' outcomes (``GET
/api/adaptive-entity-rag?action=job&id=``), the workspace's newest jobs (``?action=jobs``; ``actions.py``), and
cancelling one (``POST {"action": "cancel-job"}``)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.api.errors import ApiError
from app.container import Resources
from app.services import documents

MAX_JOBS = 50
"""The most jobs one listing shows (each is a few reads of the job store)."""


async def job(resources: Resources, job_id: str | None, offset: int, limit: int) -> dict[str, Any]:
    """``GET ?action=job&id=``: a job's status, progress and its documents' outcomes (paginated)."""
    if not job_id:
        raise ApiError(422, "invalid_request", "id is required", [{"loc": ["query", "id"], "msg": "Field required",
                                                                    "type": "missing"}])
    view = await asyncio.to_thread(documents.show_job, resources, job_id, offset, limit)
    if view is None:
        raise ApiError(404, "job_not_found", f"no job with id {job_id!r}")
    return documents.job_body(view)


async def cancel_job(resources: Resources, job_id: str) -> dict[str, Any]:
    """``POST {"action": "cancel-job", "id": …}``: stop a queued or running job before its next document; the
    job as it stands (404 ``job_not_found``; 409 ``job_finished`` when it had already finished)."""
    status = await asyncio.to_thread(documents.cancel_job, resources, job_id)
    if status is None:
        raise ApiError(404, "job_not_found", f"no job with id {job_id!r}")
    if status != "cancelled":
        raise ApiError(409, "job_finished", f"job {job_id!r} has already finished ({status}); nothing to cancel")
    view = await asyncio.to_thread(documents.show_job, resources, job_id, 0, 100)
    assert view is not None
    return documents.job_body(view)


async def jobs(resources: Resources, limit: int, unfinished: bool) -> dict[str, Any]:
    """``GET ?action=jobs``: the workspace's newest jobs with their progress (``unfinished``: queued and running
    only), newest first."""
    views = await asyncio.to_thread(documents.list_jobs, resources, min(limit, MAX_JOBS), unfinished=unfinished)
    return {"success": True, "jobs": [view.model_dump(by_alias=True, mode="json") for view in views]}
