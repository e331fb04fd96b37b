"""One error shape for every failure: ``{success: false, error: {code, message, details}}``; the service's
transport-free errors (``app.errors``) mapped to HTTP statuses."""

from __future__ import annotations

import logging
import re
import types
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException
from starlette.routing import BaseRoute, Match

from app.errors import ErrorKind, Failure, ServiceError, error_body, error_info, nearest
from app.schemas import API_PATH, CODED_ERRORS
from app.schemas.actions import ACTIONS, ReadAction
from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import AliasConflictError, StoreUnavailable

log = logging.getLogger(__name__)


STATUS: dict[ErrorKind, int] = {"bad_request": 400, "unauthorized": 401, "forbidden": 403, "invalid": 422,
                                "not_found": 404, "conflict": 409, "too_large": 413, "unsupported": 415,
                                "unavailable": 503}
"""The HTTP status of each kind of service error."""
KIND = {status: kind for kind, status in STATUS.items()}


class ApiError(ServiceError):
    """A client-visible error raised by the HTTP layer itself, with its HTTP status."""

    def __init__(self, status: int, code: str, message: str, details: Any = None) -> None:
        super().__init__(KIND.get(status, "invalid"), code, message, details)
        self.status = status


def http_status(exc: Failure) -> int:
    """The HTTP status of a service error (an outage: 503)."""
    if isinstance(exc, ApiError):
        return exc.status
    if isinstance(exc, ServiceError):
        return STATUS[exc.kind]
    return 503


def service_error(exc: Failure) -> tuple[int, dict[str, Any]]:
    """Status and body of a service error: the JSON answer's, and a stream's ``error`` event's. An outage's
    detail goes to the server log, its plain ``outage_message`` to the client."""
    return http_status(exc), {"success": False, "error": error_info(exc)}


# Pydantic's prefixes on a validator's own sentence ("Value error, the last message must be ..."): words about
# its internals, not about the request; the chat endpoint once answered a client with them.
_VALIDATOR_PREFIX = re.compile(r"^Value error, ")


def _json_safe(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # An unsafe string's error is raised by its model: its ctx path runs the loc down to the string itself.
    return [{"loc": [*e.get("loc", ()), *(e.get("ctx") or {}).get("path", ())] if e.get("type") == "unsafe_string"
             else list(e.get("loc", ())), "msg": _message(e), "type": str(e.get("type", ""))}
            for e in errors]


def _message(error: dict[str, Any]) -> str:
    """Pydantic's words for one error; a string over its limit also says how long the one sent is (a pasted
    6,000-character question was told only the limit, not by how much it was over)."""
    msg = _VALIDATOR_PREFIX.sub("", str(error.get("msg", "")))
    sent = error.get("input")
    if error.get("type") == "string_too_long" and isinstance(sent, str):
        msg += f" (this one has {len(sent):,})"
    return msg


ACTION_TAGS = frozenset({"query", "add-entity", "add-documents", "delete-document", "remove-alias", "delete-entity"})
MESSAGE_ERRORS = 5


def field_path(loc: list[Any]) -> str:
    """``["body", "add-entity", "aliases", 0]`` → ``aliases[0]``; ``["query", "limit"]`` → ``limit``."""
    rest = list(loc)
    if rest and rest[0] == "body":
        rest = rest[1:]
        if rest and rest[0] in ACTION_TAGS:  # the discriminated union's branch, not a field
            rest = rest[1:]
    elif rest and rest[0] in ("query", "path", "header", "cookie"):
        rest = rest[1:]
    path = ""
    for part in rest:
        path += f"[{part}]" if isinstance(part, int) else f".{part}" if path else str(part)
    return path or "body"


def validation_message(errors: list[dict[str, Any]]) -> str:
    """One sentence naming each failing field (the first few), what is wrong with it and, where an error carries
    one, the name or value most likely meant."""
    parts = []
    for e in errors[:MESSAGE_ERRORS]:
        path = field_path(e["loc"])
        part = f"unknown field {path!r}" if e["type"] == "extra_forbidden" else f"{path}: {e['msg']}"
        if "suggestion" in e:
            part += (f" (sent as {e['sentAs']!r}?)" if "sentAs" in e else f" (did you mean {e['suggestion']!r}?)")
        parts.append(part)
    more = len(errors) - MESSAGE_ERRORS
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")


# -- "did you mean": a mistyped field name or value named with the one meant (the CLI's click does it for a
# command or an option; a request with "questoin", "topk", "action": "qurey" or "message" for "messages" was told
# only that something was wrong)

def _members(annotation: Any) -> list[Any]:
    """The types an annotation allows: Annotated and Optional unwrapped, a union's members each."""
    if get_origin(annotation) is Annotated:
        return _members(get_args(annotation)[0])
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for arg in get_args(annotation) for m in _members(arg) if arg is not type(None)]
    return [annotation]


def _tagged(model: type[BaseModel], tag: object) -> bool:
    """Whether a member of a discriminated union is the one of ``tag`` (a Literal field holding it)."""
    return any(get_origin(f.annotation) is Literal and tag in get_args(f.annotation) for f in model.model_fields.values())


def fields_at(annotation: Any, loc: Iterable[Any]) -> list[str] | None:
    """The wire names (aliases first) of the model ``loc`` leads to from ``annotation``, walking fields, list
    items and a discriminated union's branch (its tag in the loc); None where the walk finds no model."""
    current = [m for m in _members(annotation)]
    for part in loc:
        models = [m for m in current if isinstance(m, type) and issubclass(m, BaseModel)]
        if isinstance(part, int):
            current = [a for m in current if get_origin(m) in (list, tuple) for a in _members(get_args(m)[0])]
            continue
        if len(models) > 1 and (branch := [m for m in models if _tagged(m, part)]):
            current = branch
            continue
        found = [f for m in models for name, f in m.model_fields.items() if part in (name, f.alias)]
        if not found:
            return None
        current = _members(found[0].annotation)
    models = [m for m in current if isinstance(m, type) and issubclass(m, BaseModel)]
    if len(models) != 1:
        return None
    return [f.alias or name for name, f in models[0].model_fields.items()]


def _sent(body: object, loc: list[Any]) -> object:
    """What the request sent at ``loc`` (below ``body``); None where it has nothing there."""
    for part in loc:
        if isinstance(body, Mapping) and part in body:
            body = body[part]
            continue
        if isinstance(body, list) and isinstance(part, int) and 0 <= part < len(body):
            body = body[part]
            continue
        if not (isinstance(body, Mapping) and part in body.values()):  # a union's branch (its tag), not a key
            return None
    return body


def with_suggestions(errors: list[dict[str, Any]], body: object, annotation: Any) -> list[dict[str, Any]]:
    """``errors`` with ``suggestion`` where a mistyped name or value has a near one: an unknown field (the
    model's own fields at that place), a missing field sent under a near name the model does not know
    (``message`` for ``messages``: ``sentAs``), a value outside a Literal's or a union tag's choices."""
    out = []
    for e in errors:
        e = dict(e)
        loc, ctx = list(e.get("loc", ())), e.get("ctx") or {}
        where = loc[1:] if loc[:1] == ["body"] else None
        guess: str | None = None
        if e["type"] == "extra_forbidden" and where is not None and annotation is not None:
            known = fields_at(annotation, where[:-1]) or []
            guess = nearest(where[-1], known) or _paired(errors, body, annotation, where[:-1])[0]
        elif e["type"] == "missing" and where is not None and annotation is not None:
            sent = _sent(body, where[:-1])
            fields = set(fields_at(annotation, where[:-1]) or [])
            refused = {tuple(x.get("loc", ())) for x in errors if x["type"] == "extra_forbidden"}
            if isinstance(sent, Mapping) and fields:
                for key in sent:  # a key refused as unknown is told its near name there, once
                    if (isinstance(key, str) and key not in fields and ("body", *where[:-1], key) not in refused
                            and nearest(key, [str(where[-1])])):
                        guess = str(where[-1])
                        e["sentAs"] = key
                        break
                else:
                    missing, key = _paired(errors, body, annotation, where[:-1])
                    if missing and key is not None and ("body", *where[:-1], key) not in refused:
                        guess, e["sentAs"] = missing, key
        elif e["type"] == "literal_error" and isinstance(ctx.get("expected"), str):
            guess = nearest(e.get("input"), re.findall(r"'([^']*)'", ctx["expected"]))
        elif e["type"] == "union_tag_invalid":
            guess = nearest(ctx.get("tag"), ACTIONS if ctx.get("discriminator") == "'action'" else
                            re.findall(r"'([^']*)'", str(ctx.get("expected_tags", ""))))
        if guess:
            e["suggestion"] = guess
        out.append(e)
    return out


def _paired(errors: list[dict[str, Any]], body: object, annotation: Any, place: list[Any]
            ) -> tuple[str | None, str | None]:
    """The one field missing at ``place`` and the one unknown key sent there, when there is exactly one of each:
    the key was meant as the field whatever its spelling (``query`` or ``text`` for ``question``, ``prompt`` for
    ``messages``); ``(None, None)`` otherwise (two unknown keys, or two missing fields, are no pair)."""
    missing = [x["loc"][-1] for x in errors if x["type"] == "missing" and list(x.get("loc", ()))[1:-1] == place
               and list(x.get("loc", ()))[:1] == ["body"]]
    sent = _sent(body, place)
    if not isinstance(sent, Mapping) and place and isinstance(body, Mapping) and place[0] in body.values():
        sent = _sent(body, place[1:])  # the union's tag named like a key sent ("action": "query" beside "query")
    fields = set(fields_at(annotation, place) or [])
    unknown = [k for k in sent if isinstance(k, str) and k not in fields] if isinstance(sent, Mapping) else []
    if len(missing) != 1 or len(unknown) != 1 or not fields:
        return None, None
    return str(missing[0]), unknown[0]


def body_annotation(request: Request) -> Any:
    """The type of the request body the route of ``request`` reads (None: no body, or not an API route)."""
    route = request.scope.get("route")
    field = route.body_field if isinstance(route, APIRoute) else None
    return field.field_info.annotation if field is not None else None


def unparsable_body(exc: BaseException | None) -> str | None:
    """Why FastAPI could not parse a JSON body (it answers any such failure with one generic 400)."""
    if isinstance(exc, UnicodeDecodeError):
        return "the request body is not valid UTF-8 JSON"
    if isinstance(exc, RecursionError):
        return "the request body nests too deeply to parse"
    if isinstance(exc, ValueError):
        return f"the request body is not valid JSON: {exc}"[:300]
    return None


def whole_body_message(errors: list[dict[str, Any]], body: object, content_type: str, path: str = "") -> str | None:
    """What is wrong with a body that is not a JSON object at all, in a user's words: pydantic's "body: Field
    required" for an empty body, and "body: Input should be a valid dictionary ..." for curl's ``-d`` without a
    JSON content type or a JSON list, named neither cause (the fresh-eyes trial sent both). ``path``: the
    request's, for an example body (the action endpoint's). None for any other error."""
    if isinstance(body, dict) or not any(list(e.get("loc", ())) == ["body"] and e.get("type") in _NO_OBJECT
                                         for e in errors):
        return None  # an object: a field's error, or the model's own check (the chat's "last message ...")
    example = ', e.g. {"action": "query", "question": "…"}' if path == API_PATH else ""
    if body is None or body == b"" or body == "":
        return f"the request body is empty: send a JSON object with content-type: application/json{example}"
    media = content_type.split(";")[0].strip().lower()
    if media and media != "application/json" and not media.endswith("+json"):
        return (f"the request body was sent as {media}, not JSON: send it with content-type: application/json "
                f"(curl: -H 'content-type: application/json')")
    kind = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false"}.get(
        type(body), "null")
    return f"the request body must be a JSON object, not {kind}{example}"


_NO_OBJECT = frozenset({"missing", "model_attributes_type", "dict_type", "model_type"})


def read_action_error(errors: list[dict[str, Any]], request: Request) -> tuple[str, str] | None:
    """The code and message for a ``GET`` of the action endpoint whose ``?action=`` is missing or not a read:
    pydantic's "action: Input should be 'entities', 'documents', ..." named neither that a question is POSTed
    (a new user tried ``GET ?action=query&question=…``) nor the code a POST's unknown action gets. None for any
    other error."""
    if request.method != "GET" or request.url.path.rstrip("/") != API_PATH:
        return None
    wrong = next((e for e in errors if list(e.get("loc", ())) == ["query", "action"]), None)
    if wrong is None:
        return None
    reads = ", ".join(get_args(ReadAction))
    post = (f"questions and changes are sent with POST and a JSON body: curl {API_PATH} -H 'content-type: "
            "application/json' -d '{\"action\": \"%s\", …}'")
    given = wrong.get("input")
    if wrong["type"] == "missing" or not isinstance(given, str):
        return "invalid_request", f"GET {API_PATH} needs ?action=: one of {reads}; " + post % "query"
    if given in ACTIONS:
        return "unknown_action", (f"{given!r} is not read with GET: " + post % given
                                  + f"; GET ?action= reads {reads}")
    meant = nearest(given, [*get_args(ReadAction), *ACTIONS])
    return "unknown_action", (f"unknown action {given!r}: GET ?action= reads {reads}; the POST actions are "
                              f"{', '.join(ACTIONS)}" + (f" (did you mean {meant!r}?)" if meant else ""))


def routing_message(request: Request, exc: StarletteHTTPException) -> str:
    """An HTTP error's message; the router's bare "Not Found" / "Method Not Allowed" (no such endpoint, or not
    with this method) say which request missed and where the endpoints are listed, not only the status' name."""
    where = f"{request.method} {request.url.path}"
    if exc.status_code == 404 and exc.detail == "Not Found":
        return (f"no endpoint {where}: the endpoints are listed at /docs (OpenAPI: /openapi.json); documents, jobs "
                f"and entities are read with GET {API_PATH}?action=documents|document|job|entities")
    if exc.status_code == 405 and exc.detail == "Method Not Allowed":
        allowed = allowed_methods(request)
        return f"{where} is not allowed" + (f": this endpoint takes {', '.join(allowed)}" if allowed else "")
    return str(exc.detail)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes on the request's path. The router's 405 names only the first route that
    matched the path (``POST`` on the action endpoint, whose ``GET ?action=`` is another route)."""
    routes = [r for r in request.app.router.routes if isinstance(r, BaseRoute)]
    # asked of each route by method (routes included with dependencies are wrappers without ``methods``)
    return [method for method in _METHODS
            if any(r.matches({**request.scope, "method": method})[0] is Match.FULL for r in routes)]


_METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")


def install_error_handlers(app: FastAPI) -> None:
    """Map every exception to the error shape and the right status."""

    async def api_error(_: Request, exc: Exception) -> JSONResponse:
        # a service's own error, a store or the embedder down (the three it is registered for): ``service_error``
        # gives each its status and body
        status, body = service_error(cast(Failure, exc))
        return JSONResponse(body, status_code=status)

    for kind in (ServiceError, StoreUnavailable, EmbedderUnavailable):
        app.add_exception_handler(kind, api_error)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        raw = with_suggestions(list(exc.errors()), exc.body, body_annotation(request))
        errors = [{**safe, **{k: e[k] for k in ("suggestion", "sentAs") if k in e}}
                  for safe, e in zip(_json_safe(raw), raw, strict=True)]
        kinds = {e["type"] for e in errors}
        if "json_invalid" in kinds:
            bad = next(e for e in exc.errors() if e["type"] == "json_invalid")
            reason = str(bad.get("ctx", {}).get("error", ""))
            # where it broke: the decoder's character position (a bare "Expecting ',' delimiter" left a user to
            # hunt through the body; the position was only in the details' loc, which /v1 showed as param "[32]")
            at = next((f" at character {p}" for p in bad.get("loc", ())[1:] if isinstance(p, int)), "")
            return JSONResponse(error_body("invalid_json", f"the request body is not valid JSON{at}: {reason}".rstrip(": "),
                                           errors), status_code=400)
        if kinds & {"union_tag_invalid", "union_tag_not_found"}:
            meant = next((e["suggestion"] for e in errors if "suggestion" in e), None)
            return JSONResponse(error_body("unknown_action", f"action must be one of: {', '.join(ACTIONS)}"
                                           + (f" (did you mean {meant!r}?)" if meant else ""), errors),
                                status_code=400)
        if (read := read_action_error(raw, request)) is not None:
            status = 400 if read[0] == "unknown_action" else 422
            return JSONResponse(error_body(read[0], read[1], errors), status_code=status)
        code = next((c for c in CODED_ERRORS if c in kinds), "invalid_request")
        message = (whole_body_message(errors, exc.body, request.headers.get("content-type", ""), request.url.path)
                   or validation_message(errors))
        return JSONResponse(error_body(code, message, errors), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and (reason := unparsable_body(exc.__cause__)) is not None:
            return JSONResponse(error_body("invalid_json", reason), status_code=400)
        if exc.status_code == 400 and isinstance(exc.__context__, MultiPartException):
            # Starlette says only "Invalid multipart data." for any part it cannot read, a file name over its
            # 4 KB part-header limit included (outside probe): name the body and what it may hold
            return JSONResponse(error_body("invalid_multipart", f"the multipart/form-data body could not be read "
                                           f"({exc.detail.rstrip('.')}): each part's headers, its file name "
                                           "included, must stay under 4 KB and the body must end with its closing "
                                           "boundary; curl: -F files=@PATH"), status_code=400)
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405 and (allowed := allowed_methods(request)):
            headers["Allow"] = ", ".join(allowed)  # RFC 9110: every method the path takes
        return JSONResponse(error_body(code, routing_message(request, exc)), status_code=exc.status_code,
                            headers=headers)

    @app.exception_handler(AliasConflictError)
    async def conflict(_: Request, exc: AliasConflictError) -> JSONResponse:
        return JSONResponse(error_body("alias_conflict", str(exc), {"alias": exc.alias, "owner": exc.owner}),
                            status_code=409)

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return JSONResponse(error_body("internal_error", "internal server error"), status_code=500)

