"""The request's workspace: header, query parameter, body (JSON or form), the /v1 model; conflicts refused; the
key's own workspace when none is named."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import pytest
from starlette.requests import Request

from app.api.workspace_scope import (
    effective_workspace,
    principal_of,
    remember_body_workspace,
    requested_workspace,
)
from app.errors import ServiceError
from app.services.keys import ANONYMOUS, Principal
from app.workspaces import check_workspace_name


async def request(path: str = "/api/adaptive-entity-rag", headers: dict[str, str] | None = None, query: str = "",
                  body: Any = None, form: list[tuple[str, str]] | None = None,
                  principal: Principal | None = None) -> Request:
    """A request whose body was parsed as FastAPI parses it before any dependency runs."""
    raw = b""
    headers = dict(headers or {})
    if body is not None:
        raw, headers["content-type"] = json.dumps(body).encode(), "application/json"
    elif form is not None:
        raw, headers["content-type"] = urlencode(form).encode(), "application/x-www-form-urlencoded"

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    scope = {"type": "http", "method": "POST", "path": path, "query_string": query.encode(),
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()], "state": {}}
    r = Request(scope, receive)
    if body is not None:
        await r.json()
    elif form is not None:
        await r.form()
    if principal is not None:
        r.state.principal = principal
    return r


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({}, None),
    ({"headers": {"X-Workspace": "alpha"}}, "alpha"),
    ({"query": "workspace=beta"}, "beta"),
    ({"body": {"action": "query", "workspace": "gamma"}}, "gamma"),
    ({"form": [("root", "r"), ("workspace", "delta")]}, "delta"),
    ({"headers": {"X-Workspace": "alpha"}, "query": "workspace=alpha", "body": {"workspace": "alpha"}}, "alpha"),
    ({"body": ["not", "an", "object"]}, None),
    ({"path": "/v1/chat/completions", "body": {"model": "aer:sales", "messages": []}}, "sales"),
    ({"path": "/v1/chat/completions", "body": {"model": "aer:sales:extractive"}}, "sales"),
    ({"path": "/v1/chat/completions", "body": {"model": "aer-extractive", "workspace": "x"}}, "x"),
    ({"path": "/v1/chat/completions", "body": {"model": "aer:x", "workspace": "x"}}, "x"),
    ({"body": {"model": "aer:x"}}, None),  # a model name means a workspace on /v1 only
    ({"path": "/v1/chat/completions", "headers": {"X-Workspace": "sales"}, "body": {"model": "aer-extractive"}},
     "sales"),
    ({"headers": {"X-Workspace": "  "}, "query": "workspace=alpha"}, "alpha"),  # blank names nothing
    ({"headers": {"X-Workspace": " alpha "}, "body": {"workspace": "alpha"}}, "alpha"),
])
async def test_requested_workspace(kwargs: dict[str, Any], expected: str | None) -> None:
    assert requested_workspace(await request(**kwargs)) == expected


@pytest.mark.parametrize("kwargs", [
    {"headers": {"X-Workspace": "alpha"}, "body": {"workspace": "beta"}},
    {"query": "workspace=alpha", "body": {"workspace": "beta"}},
    {"headers": {"X-Workspace": "alpha"}, "query": "workspace=beta"},
    {"query": "workspace=alpha&workspace=beta"},
    {"form": [("workspace", "alpha"), ("workspace", "beta")]},
    {"headers": {"X-Workspace": "alpha"}, "form": [("workspace", "beta")]},
    {"path": "/v1/chat/completions", "headers": {"X-Workspace": "alpha"}, "body": {"model": "aer:beta"}},
    {"path": "/v1/chat/completions", "body": {"model": "aer:beta", "workspace": "alpha"}},
])
async def test_two_workspaces_in_one_request_are_refused(kwargs: dict[str, Any]) -> None:
    # a route reading the body's workspace can never act on another one than the guard checked
    with pytest.raises(ServiceError) as refused:
        requested_workspace(await request(**kwargs))
    assert (refused.value.kind, refused.value.code) == ("invalid", "conflicting_workspace")
    assert refused.value.details == {"workspaces": ["alpha", "beta"]}


@pytest.mark.parametrize("value", [5, ["alpha"], {"name": "alpha"}, True])
async def test_a_body_workspace_that_is_no_string_is_refused(value: Any) -> None:
    with pytest.raises(ServiceError) as refused:
        requested_workspace(await request(body={"workspace": value}))
    assert (refused.value.kind, refused.value.code) == ("invalid", "invalid_workspace")


async def test_effective_workspace_is_the_named_one_else_the_keys_own_else_default() -> None:
    scoped = Principal("k1", "write", "alpha")
    assert effective_workspace(await request(principal=scoped)) == "alpha"
    assert effective_workspace(await request(headers={"X-Workspace": "beta"}, principal=scoped)) == "beta"
    assert effective_workspace(await request(principal=Principal("k2", "admin", None))) == "default"
    assert effective_workspace(await request()) == "default"
    assert principal_of(await request()) == ANONYMOUS  # no guard ran: fails closed
    for bad in ("../beta", "Beta", "a" * 33, "_x"):
        with pytest.raises(ServiceError) as refused:
            effective_workspace(await request(headers={"X-Workspace": bad}, principal=scoped))
        assert (refused.value.kind, refused.value.code) == ("invalid", "invalid_workspace")


async def test_a_bad_requested_name_is_refused_with_the_name_meant() -> None:
    """The header / query / body name gets the same message as creating a workspace: the rule and the name meant
    (a user who typed the workspace as it reads, ``NewUser8``, learns it is ``newuser8``)."""
    with pytest.raises(ServiceError) as refused:
        effective_workspace(await request(headers={"X-Workspace": "NewUser8"}))
    with pytest.raises(ServiceError) as created:
        check_workspace_name("NewUser8")
    assert refused.value.message == created.value.message and "did you mean 'newuser8'?" in refused.value.message
    assert refused.value.details["suggestion"] == "newuser8"


async def test_remember_body_workspace_parses_a_body_no_one_read_yet() -> None:
    for content_type, raw in (("application/json", b'{"workspace": "alpha"}'),
                              ("application/x-www-form-urlencoded", b"workspace=alpha")):
        async def receive(raw: bytes = raw) -> dict[str, Any]:
            return {"type": "http.request", "body": raw, "more_body": False}

        r = Request({"type": "http", "method": "POST", "path": "/api/x", "query_string": b"", "state": {},
                     "headers": [(b"content-type", content_type.encode())]}, receive)
        assert requested_workspace(r) is None  # nothing parsed yet
        await remember_body_workspace(r)
        assert requested_workspace(r) == "alpha"


async def test_remember_body_workspace_reads_the_media_type_not_the_boundary_and_never_fails_on_a_read_body() -> None:
    # a multipart boundary may hold any letters ("…jsOn…"): the media type decides how the body is read
    raw = (b'--xxjsonxx\r\nContent-Disposition: form-data; name="workspace"\r\n\r\nalpha\r\n--xxjsonxx--\r\n')

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    r = Request({"type": "http", "method": "POST", "path": "/api/x", "query_string": b"", "state": {},
                 "headers": [(b"content-type", b"multipart/form-data; boundary=xxjsonxx")]}, receive)
    await remember_body_workspace(r)
    assert requested_workspace(r) == "alpha"

    async def consumed() -> dict[str, Any]:
        raise RuntimeError("Stream consumed")

    read = Request({"type": "http", "method": "POST", "path": "/api/x", "query_string": b"", "state": {},
                    "headers": [(b"content-type", b"application/json")]}, consumed)
    await remember_body_workspace(read)  # the route's own parameters carry what the body held
    assert requested_workspace(read) is None
