"""The workspace a request addresses: its ``X-Workspace`` header, else its ``workspace`` query parameter, else its
JSON body's (or form's) ``workspace`` field; then the principal's own workspace (a key scoped to one); else
``default``. Two sources that name different workspaces are refused (422 ``conflicting_workspace``), so a route
can never act on another workspace than the one the request was checked for.

This is the minimal form of the request scope: the keys' Guard sets ``request.state.principal``; without it the
principal is absent (no workspace of its own).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from app.errors import ServiceError
from app.workspaces import DEFAULT_WORKSPACE, check_workspace_name

HEADER = "X-Workspace"
FIELD = "workspace"
BODY_STATE = "workspace_body"
"""Where ``remember_body_workspace`` leaves the body's ``workspace`` field on ``request.state``."""


def _named(value: Any) -> str | None:
    """A body's ``workspace`` value: None when absent or null; a non-string is no workspace name (422)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ServiceError("invalid", "invalid_workspace", "workspace must be a string naming a workspace",
                           {"workspace": value if isinstance(value, int | float | bool) else None})
    return value


def body_workspace(body: bytes) -> str | None:
    """The ``workspace`` field of a JSON object body (None: absent, null, or not a JSON object)."""
    if not body:
        return None
    try:
        data: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    return _named(data.get(FIELD)) if isinstance(data, dict) else None


async def remember_body_workspace(request: Request) -> None:
    """Read the body's ``workspace`` (JSON field or form field) once, from the request's cache, onto
    ``request.state`` for ``requested_workspace``."""
    if hasattr(request.state, BODY_STATE):
        return
    content_type = request.headers.get("content-type", "")
    found: str | None = None
    if "json" in content_type:
        found = body_workspace(await request.body())  # FastAPI has read it already: cached
    elif content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        value = (await request.form()).get(FIELD)  # cached too
        found = value if isinstance(value, str) and value.strip() else None
    setattr(request.state, BODY_STATE, found)


def requested_workspace(request: Request) -> str | None:
    """The workspace the request names (header, then query parameter, then body field); None when it names none.
    Two of them naming different workspaces: 422 ``conflicting_workspace``. A name is checked (422
    ``invalid_workspace``) by ``effective_workspace``."""
    named = [v.strip() for v in (request.headers.get(HEADER), request.query_params.get(FIELD),
                                 getattr(request.state, BODY_STATE, None)) if v is not None and v.strip()]
    if len(set(named)) > 1:
        raise ServiceError("invalid", "conflicting_workspace",
                           f"the request names more than one workspace: {', '.join(sorted(set(named)))}",
                           {"workspaces": sorted(set(named))})
    return named[0] if named else None


def principal_of(request: Request) -> Any:
    """The request's principal (set by the keys' Guard), or None when no Guard set one."""
    return getattr(request.state, "principal", None)


def effective_workspace(request: Request) -> str:
    """The workspace the request works in: the requested one, else the principal's own, else ``default``."""
    requested = requested_workspace(request)
    if requested is not None:
        return check_workspace_name(requested)
    own = getattr(principal_of(request), "workspace", None)
    return own if isinstance(own, str) else DEFAULT_WORKSPACE
