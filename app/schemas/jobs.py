"""The jobs resource: an ingest job's status on the wire."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
    WorkspaceRequest,
)
from graphs.domain import NO_CONTROL_CHARS
from graphs.ingest.jobs import JobView


class CancelJobRequest(WorkspaceRequest):
    """Cancel a queued or running ingest job: it stops before the next document it would chunk or write (a batch
    whose write has begun is written); the documents it wrote stay
    in the index, its pending ones are not ingested (the 200 body is the job as it stands: ``cancelled``, with
    ``progress.pending`` documents not ingested). 404 ``job_not_found``; 409 ``job_finished`` for a job already
    done or failed (a cancelled one answers 200 again)."""

    action: Literal["cancel-job"]
    id: str = Field(min_length=1, max_length=256, pattern=NO_CONTROL_CHARS, description="The job's id.")


class JobResponse(Wire):
    success: Literal[True] = True
    job: JobView


class JobListResponse(Wire):
    success: Literal[True] = True
    jobs: list[JobView] = Field(description="The workspace's newest ingest jobs, newest first, each with its "
                                            "progress and without its documents' outcomes (`?action=job&id=` "
                                            "pages those).")
