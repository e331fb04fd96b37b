"""Request dependencies of the routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.container import Resources


def resources_of(request: Request) -> Resources:
    """The process resources built by the lifespan."""
    resources: Resources = request.app.state.resources
    return resources


ResourcesDep = Annotated[Resources, Depends(resources_of)]
"""A route's parameter for the process resources (``resources: ResourcesDep``)."""
