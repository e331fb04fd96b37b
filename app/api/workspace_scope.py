"""The workspace a request addresses: its ``X-Workspace`` header, else its ``workspace`` query parameter, else its
JSON body's ``workspace`` field; then the principal's own workspace (a key scoped to one); else ``default``.

This module is the minimal form of the request scope (no principal is set yet: a scoped key's workspace joins it
with the keys' guard).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from app.workspaces import DEFAULT_WORKSPACE, check_workspace_name

HEADER = "X-Workspace"
FIELD = "workspace"
BODY_STATE = "workspace_body"
"""Where ``read_body_workspace`` leaves the JSON body's ``workspace`` field on ``request.state``."""


def body_workspace(body: bytes) -> str | None:
    """The ``workspace`` field of a JSON object body (None: absent, null, or not a JSON object)."""
    if not body:
        return None
    try:
        data: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    value = data.get(FIELD) if isinstance(data, dict) else None
    return value if isinstance(value, str) else None if value is None else str(value)


def requested_workspace(request: Request) -> str | None:
    """The workspace the request names (header, then query parameter, then JSON body field); None when it names
    none. A name is checked (422 ``invalid_workspace``) where it is used."""
    header = request.headers.get(HEADER)
    if header is not None and header.strip():
        return header.strip()
    query = request.query_params.get(FIELD)
    if query is not None and query.strip():
        return query.strip()
    found: str | None = getattr(request.state, BODY_STATE, None)
    return found


def effective_workspace(request: Request) -> str:
    """The workspace the request works in: the requested one, else the principal's own, else ``default``."""
    requested = requested_workspace(request)
    if requested is not None:
        return check_workspace_name(requested)
    principal = getattr(request.state, "principal", None)
    own = getattr(principal, "workspace", None)
    return own if isinstance(own, str) else DEFAULT_WORKSPACE
