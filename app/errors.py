"""The service's errors, free of any transport.

A ``ServiceError`` says what went wrong for the caller — a machine-readable ``code`` (``document_not_found``), a
plain ``message``, ``details`` — and what kind of failure it is (``not_found``, ``invalid``, ``unavailable``...).
Each transport maps the kind: the API to an HTTP status (``app.api.errors``), the MCP server to a tool error that
starts with the code. The outages of what the service depends on (``StoreUnavailable``, ``EmbedderUnavailable``)
are reported the same way, in plain words: the driver's text goes to the server log, never to the caller.

Services, the MCP server and the LangGraph runs raise these; none of them imports the HTTP layer (an
import-linter contract in pyproject.toml).
"""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Iterable
from typing import Any, Literal

from graphs.embeddings import EmbedderUnavailable
from graphs.stores.base import StoreUnavailable

log = logging.getLogger(__name__)

ErrorKind = Literal["bad_request", "unauthorized", "forbidden", "invalid", "not_found", "conflict", "too_large",
                    "unsupported", "unavailable"]
"""What sort of failure: a malformed or unknown choice (``bad_request``), no API key where one is needed
(``unauthorized``), a key whose role is too low for the action (``forbidden``), a value that breaks a rule
(``invalid``), something that does not exist, a clash with what exists, too much, a type the service does not
read, a dependency that is down."""


class ServiceError(Exception):
    """A failure the caller is told about: its kind, a machine-readable code, a plain message and details."""

    def __init__(self, kind: ErrorKind, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code
        self.message = message
        self.details = details


Failure = ServiceError | StoreUnavailable | EmbedderUnavailable
"""What the service reports itself: its own errors and the outages of what it depends on."""


def outage_message(exc: StoreUnavailable | EmbedderUnavailable) -> str:
    """What failed, in plain words, for a client: never the driver's text (a gRPC status, a file path, an
    address), which ``error_info`` logs instead.

    A store outage is named by its store ("milvus", "redis", "knowledge graph"); an embedder's message is the
    plain sentence ``graphs.embeddings.upstream_failure`` makes ("the embedder X returned HTTP 503").
    """
    if isinstance(exc, StoreUnavailable):
        return f"the {exc.store} store is unavailable; retry later (the cause is in the server log)"
    return str(exc)


def error_info(exc: Failure) -> dict[str, Any]:
    """``{code, message, details}`` of a failure, as every transport reports it; an outage's detail goes to the
    server log, its plain ``outage_message`` to the caller."""
    if isinstance(exc, ServiceError):
        return {"code": exc.code, "message": exc.message, "details": exc.details}
    log.error("%s: %s", type(exc).__name__, exc)
    if isinstance(exc, StoreUnavailable):
        return {"code": "store_unavailable", "message": outage_message(exc), "details": {"store": exc.store}}
    return {"code": "embedder_unavailable", "message": outage_message(exc),
            "details": {"documents": exc.documents} if exc.documents else None}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The JSON body of an error: ``{success: false, error: {code, message, details}}``."""
    return {"success": False, "error": {"code": code, "message": message, "details": details}}


# "did you mean": the API's validation errors (a field, an action, a choice) and the CLI's unknown workspace
def _fold(word: str) -> str:
    return re.sub(r"[-_\s]", "", word).lower()


def _words(name: str) -> tuple[str, ...]:
    """A field name's words: ``searchMode``, ``search_mode``, ``search-mode`` → (search, mode)."""
    return tuple(w.lower() for w in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", name))


def nearest(word: object, choices: Iterable[str]) -> str | None:
    """The choice a mistyped ``word`` most likely meant: the one equal to it but for case, ``_`` and ``-``
    (``topk``, ``top-k`` → ``topK``), else the closest spelling (difflib ratio ≥ 0.75 on the folded forms), else
    the one choice whose words hold all of the word's or are all held by them, ending alike (``mode`` →
    ``searchMode``, ``docId`` or ``documentId`` → ``id``); None when no choice is that near or ``word`` is one of
    them."""
    if not isinstance(word, str) or not word:
        return None
    folded: dict[str, str] = {}
    for choice in choices:
        if choice == word:
            return None
        folded.setdefault(_fold(choice), choice)
    if _fold(word) in folded:
        return folded[_fold(word)]
    close = difflib.get_close_matches(_fold(word), list(folded), n=1, cutoff=0.75)
    if close:
        return folded[close[0]]
    mine = _words(word)
    held = [c for c in folded.values() if mine and (theirs := _words(c)) and theirs[-1] == mine[-1]
            and (set(mine) <= set(theirs) or set(theirs) <= set(mine))]
    return held[0] if len(held) == 1 else None
