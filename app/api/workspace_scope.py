"""The workspace a request acts on, and who sends it.

``requested_workspace``: the ``X-Workspace`` header, else the ``workspace`` query parameter, else the body's
``workspace`` field (a JSON body's or a multipart form's); on ``/v1`` also the model name ``aer:<workspace>``.
Two of them naming different workspaces are refused (422 ``conflicting_workspace``): the guard checks the key
against the same workspace the route acts on, whichever of them the route reads.

``effective_workspace``: the requested one, else the key's own workspace (a key for one workspace needs no
header), else ``default``.

The body is read from the request's cache: FastAPI parses a JSON body or a form before any dependency runs, and
the guard awaits ``request.json()`` itself; a plain ASGI app (MCP) sees the header and the query parameter only.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from app.errors import ServiceError
from app.services.keys import Principal, principal_in
from app.workspaces import check_workspace_name

DEFAULT_WORKSPACE = "default"
HEADER = "X-Workspace"
FIELD = "workspace"
MODEL_PREFIX = "aer:"
"""``/v1``: the model ``aer:<workspace>`` asks that workspace (the plain model names ask the default one)."""


def _body_values(request: Request) -> list[Any]:
    """The body's ``workspace`` from the request's parsed-body cache (Starlette's ``_json`` / ``_form``), and on
    ``/v1`` the workspace of an ``aer:<workspace>`` model."""
    body = getattr(request, "_json", None)
    if isinstance(body, dict):
        values = [body[FIELD]] if FIELD in body and body[FIELD] is not None else []
        model = body.get("model")
        if request.url.path.startswith("/v1/") and isinstance(model, str) and model.startswith(MODEL_PREFIX):
            values.append(model[len(MODEL_PREFIX):].split(":", 1)[0])
        return values
    form = getattr(request, "_form", None)
    return list(form.getlist(FIELD)) if form is not None else []


def _conflict(names: list[str]) -> ServiceError:
    return ServiceError("invalid", "conflicting_workspace",
                        f"the request names more than one workspace ({', '.join(map(repr, sorted(set(names))))}): "
                        f"name it once ({HEADER} header, ?{FIELD}= or the body's {FIELD!r})",
                        {"workspaces": sorted(set(names))})


def requested_workspace(request: Request) -> str | None:
    """The workspace the request names (header, query parameter, body), or None; 422 ``conflicting_workspace``
    when they disagree, ``invalid_workspace`` for a body value that is no string."""
    body = _body_values(request)
    if any(not isinstance(value, str) for value in body):
        raise ServiceError("invalid", "invalid_workspace", f"{FIELD!r} is a workspace's name (a string)",
                           [{"loc": ["body", FIELD], "msg": "Input should be a valid string", "type": "string_type"}])
    # blank values name nothing (a client's empty setting), surrounding spaces are no part of a name
    named = [v.strip() for v in (*request.headers.getlist(HEADER), *request.query_params.getlist(FIELD), *body)
             if v.strip()]
    if len(set(named)) > 1:
        raise _conflict(named)
    return named[0] if named else None


def principal_of(request: Request) -> Principal:
    """Who sends the request, as the guard identified it (``ANONYMOUS`` on a route no guard saw)."""
    return principal_in(request)


def effective_workspace(request: Request) -> str:
    """The workspace the request acts on: the requested one (a valid name, else 422 ``invalid_workspace``), else
    the key's own, else ``default``."""
    requested = requested_workspace(request)
    if requested is not None:
        return check_workspace_name(requested)
    return principal_of(request).workspace or DEFAULT_WORKSPACE


async def remember_body_workspace(request: Request) -> None:
    """Parse the body (JSON or form) into the request's cache, where ``requested_workspace`` reads it: for a
    caller that may run before FastAPI parsed it (FastAPI parses a route's declared body before any dependency)."""
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()  # not the boundary's text
    try:
        if media in ("multipart/form-data", "application/x-www-form-urlencoded"):
            await request.form()  # cached after the first read
        elif (media == "application/json" or media.endswith("+json")) and not hasattr(request, "_json"):
            await request.json()
    except (ValueError, UnicodeDecodeError, RecursionError):
        return
    except RuntimeError:
        return  # the body was already read as a stream elsewhere: the route's own parameters carry it
