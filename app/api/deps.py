"""Request dependencies of the routes."""

from __future__ import annotations

from fastapi import Request

from app.container import Resources


def resources_of(request: Request) -> Resources:
    """The process resources built by the lifespan."""
    resources: Resources = request.app.state.resources
    return resources
