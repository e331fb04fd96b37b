"""The jobs resource: an ingest job's status on the wire."""

from __future__ import annotations

from typing import Literal

from app.schemas.base import (
    Wire,
)
from graphs.ingest.jobs import JobView


class JobResponse(Wire):
    success: Literal[True] = True
    job: JobView
