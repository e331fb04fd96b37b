"""The error shape (``app.api.errors.error_body``) as OpenAPI models, so the spec documents what 4xx/5xx bodies hold."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ErrorInfo(BaseModel):
    code: str = Field(description="Machine-readable: invalid_request, unauthorized, rate_limited, ...")
    message: str
    details: Any = Field(default=None, description="Structured context, e.g. the failing fields of a 422.")


class ErrorResponse(BaseModel):
    success: Literal[False] = False
    error: ErrorInfo


_STATUSES = {
    400: "Malformed request: invalid_json, invalid_multipart, unknown_action, duplicate_document_ids, unknown_llm_model, ...",
    401: "unauthorized: an API key is needed (X-API-Key or Authorization: Bearer) or the one sent is not valid",
    403: "forbidden: the key has rights on the workspace, but its role (read < write < admin) is too low for the "
         "action",
    404: "not_found, document_not_found, workspace_not_found (also for a workspace the key has no rights on)",
    408: "request_timeout: the body did not arrive within AER_BODY_TIMEOUT_S (the connection is closed)",
    409: "alias_conflict: an alias already belongs to another entity",
    413: "payload_too_large: the body is over AER_MAX_BODY_BYTES",
    422: "invalid_request (the message names each failing field; details: {loc, msg, type} of each: strict types, "
         "so true is no integer and \"yes\" no boolean; an unknown field is extra_forbidden; a mistyped field name "
         "or value also carries suggestion, the one most likely meant (and sentAs, the name a missing field was "
         "sent under), named in the message: did you mean 'topK'?; a blank question or "
         "alias is refused), invalid_entity_name (a control, bidirectional, invisible, private-use, noncharacter "
         "or unassigned code point, or no letter or digit), invalid_document_id and invalid_file_name (the same "
         "Unicode policy), empty_document (nothing visible in the text), invalid_metadata_date (not an ISO "
         "date), invalid_entity_type, invalid_metadata",
    429: "rate_limited: over AER_RATE_LIMIT_PER_MINUTE (see the Retry-After header)",
    503: "store_unavailable, embedder_unavailable, langgraph_unavailable (inside a LangGraph server), "
         "server_busy (over AER_MAX_CONNECTIONS)",
}
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description} for status, description in _STATUSES.items()
}
