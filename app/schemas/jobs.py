"""The jobs resource: an ingest job's status on the wire."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.schemas.base import (
    Wire,
)
from graphs.ingest.jobs import JobView


class JobResponse(Wire):
    success: Literal[True] = True
    job: JobView


class JobListResponse(Wire):
    success: Literal[True] = True
    jobs: list[JobView] = Field(description="The workspace's newest ingest jobs, newest first, each with its "
                                            "progress and without its documents' outcomes (`?action=job&id=` "
                                            "pages those).")
