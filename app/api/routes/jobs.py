"""The jobs resource: an ingest job's status, progress and its documents' outcomes (``GET
/api/adaptive-entity-rag?action=job&id=``, ``actions.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.api.errors import ApiError
from app.container import Resources
from app.services import documents


async def job(resources: Resources, job_id: str | None, offset: int, limit: int) -> dict[str, Any]:
    """``GET ?action=job&id=``: a job's status, progress and its documents' outcomes (paginated)."""
    if not job_id:
        raise ApiError(422, "invalid_request", "id is required", [{"loc": ["query", "id"], "msg": "Field required",
                                                                    "type": "missing"}])
    view = await asyncio.to_thread(documents.show_job, resources, job_id, offset, limit)
    if view is None:
        raise ApiError(404, "job_not_found", f"no job with id {job_id!r}")
    return documents.job_body(view)
