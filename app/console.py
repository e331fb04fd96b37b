"""The one way every command-line tool says how it ended (the ``aer`` commands and the offline tools they load:
eval, trial, local-llm): ``error: CODE: message`` on stderr, or under ``--json`` the API's error body, and the exit
codes (``EXIT_*``). Its own module so that the offline tools (``app.tools``) share it without importing the CLI."""

from __future__ import annotations

import json
from typing import Any

import typer

EXIT_PARTIAL = 1
"""The command ran, and its result reports work that failed (files that could not be read, residue found)."""
EXIT_REFUSED = 2
"""What was asked is wrong or names nothing: bad input, an unknown document/entity/job/key/workspace, a conflict,
a key the server refuses (a 4xx from a server). Usage errors (a missing argument, a bad option) are 2 as well."""
EXIT_UNAVAILABLE = 3
"""The service cannot do it now: the data dir is held by another process, a store or the embedder is
unavailable, the server is unreachable or answers 5xx."""


def json_output() -> bool:
    """Whether the running command (or a group above it) was asked for JSON (its ``--json`` option)."""
    try:  # typer 0.29 runs on its own copy of click, whose context stack is not click's
        from typer._click.globals import get_current_context
    except ImportError:  # a typer on the click package
        from click import get_current_context  # type: ignore[no-redef]

    ctx = get_current_context(silent=True)
    while ctx is not None:
        if ctx.params.get("as_json"):
            return True
        ctx = ctx.parent
    return False


def error(code: str, message: str, details: Any = None, *, hint: str | None = None) -> None:
    """Say one failure on stderr, in the one format every command uses: ``error: CODE: message`` in red (and the
    hint on its own line), or under ``--json`` the API's error body ``{"success": false, "error": {code, message,
    details}}`` on one line, for a script to read. The codes are the API's where the API has the failure."""
    from app.errors import error_body

    if json_output():
        body = error_body(code, message, details)
        if hint:
            body["error"]["hint"] = hint
        typer.echo(json.dumps(body, ensure_ascii=False), err=True)
        return
    typer.secho(f"error: {code}: {message}", fg="red", err=True)
    if hint:
        typer.secho(f"hint: {hint}", err=True)


def refused(code: str, message: str, details: Any = None, *, hint: str | None = None) -> typer.Exit:
    """Say a refused request (``error``) and return its exit (``EXIT_REFUSED``): ``raise refused(...)``."""
    error(code, message, details, hint=hint)
    return typer.Exit(EXIT_REFUSED)


def unavailable(code: str, message: str, details: Any = None, *, hint: str | None = None) -> typer.Exit:
    """Say that the service cannot do it now (``error``) and return its exit (``EXIT_UNAVAILABLE``)."""
    error(code, message, details, hint=hint)
    return typer.Exit(EXIT_UNAVAILABLE)
