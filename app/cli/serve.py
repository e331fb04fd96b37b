"""``aer serve`` (the HTTP API), ``aer mcp`` (the MCP tools over stdio) and ``aer graph`` (the workflow as
Mermaid)."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Annotated

import typer

from app.cli.base import (
    ApiKeyOption,
    cli,
    data_dir_holder,
    forget_served_url,
    local_url,
    opened_workspaces,
    record_served_url,
    refused,
    remote,
    route,
    unavailable,
    unknown_workspace,
    workspace_name,
)


@cli.command()
def graph(png: Annotated[Path | None, typer.Option(help="Write a PNG (needs network for mermaid.ink).")] = None) -> None:
    """Print the graph as Mermaid."""
    from graphs.rag.graph import workflow as compiled

    typer.echo(compiled.get_graph().draw_mermaid())
    if png:
        png.write_bytes(compiled.get_graph().draw_mermaid_png())


@cli.command()
def serve(
    host: Annotated[str | None, typer.Option(
        help="Address to listen on; default: AER_HOST, else 127.0.0.1 (this machine only).")] = None,
    port: Annotated[int | None, typer.Option(
        min=1, max=65535, help="Port to listen on; default: AER_PORT, else 8000.")] = None,
) -> None:
    """Run the HTTP API (one worker: a Milvus Lite file belongs to one process)."""
    import uvicorn

    from app.api.serving import uvicorn_options
    from app.main import create_app
    from app.services.keys import StoredKeys
    from app.settings import Settings

    settings = Settings()
    stored = StoredKeys(settings.data_dir)
    keyed = bool(settings.api_keys) or stored.active()
    stored.close()
    if settings.require_api_keys and not keyed:
        raise refused("no_api_keys", "AER_REQUIRE_API_KEYS is set but AER_API_KEYS is empty and `aer keys create` "
                      "made no key: refusing to start an open write API (set AER_API_KEYS=<key>, e.g. from "
                      ".env.example)")
    if data_dir_holder(settings):  # a second `aer serve` on one data dir: one line, not a page of tracebacks
        raise unavailable("data_dir_in_use", f"{settings.milvus_target()} is in use by another process (a running "
                          "`aer serve`?): stop it first, or serve another data dir (AER_DATA_DIR)")
    bind = host or settings.host
    if not keyed and bind not in ("127.0.0.1", "localhost", "::1"):
        typer.secho(f"warning: no AER_API_KEYS: anyone who can reach {bind} can write", fg="yellow", err=True)
    # the app reads where it listens (the MCP endpoint's Host check follows it): --host/--port are settings too
    settings = settings.model_copy(update={"host": bind, "port": settings.port if port is None else port})
    record = record_served_url(settings.data_dir, local_url(settings.host, settings.port))  # for the CLI beside it
    # uvicorn shuts down on SIGTERM, then raises the signal again under the handler it found: the default one
    # ended the process before the record was removed. This one unwinds (the record removed), then the process
    # ends by the signal as before (a supervisor sees "terminated by SIGTERM").
    previous = signal.signal(signal.SIGTERM, _unwind_on_sigterm)
    terminated = False
    try:
        uvicorn.run(create_app(settings), host=settings.host, port=settings.port, **uvicorn_options(settings))
    except _Terminated:
        terminated = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        forget_served_url(record)
    if terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


class _Terminated(BaseException):
    """SIGTERM arrived after uvicorn's shutdown: unwind to remove the served-at record, then end by the signal."""


def _unwind_on_sigterm(_signum: int, _frame: object) -> None:
    raise _Terminated


@cli.command("mcp")
def mcp_command(
    server: Annotated[str | None, typer.Option(
        "--server", help="Serve a running server's index (http://host:8000) instead of opening the local stores: "
                         "the tools call its HTTP API (with --api-key, else AER_API_KEY, else the first of "
                         "AER_API_KEYS).")] = None,
    api_key: ApiKeyOption = None,
    workspace: Annotated[str | None, typer.Option(
        "--workspace", help="The workspace of a tool call that names none (default: AER_WORKSPACE, else "
                            "'default'; with --server and neither: the server's choice); every tool still takes "
                            "a workspace argument.")] = None,
) -> None:
    """Serve the MCP tools (query, add_documents, add_entity, remove_alias, delete_entity, list_entities,
    list_documents, delete_document) over stdin/stdout, for an MCP client that starts this command."""
    from app.settings import Settings

    settings = Settings()
    named = workspace is not None or "workspace" in settings.model_fields_set
    default = workspace_name(workspace, settings)  # a name that cannot be one: exit 2
    if server := route(server):
        with remote(server, default if named else None, api_key) as client:
            client.health()  # unreachable: a clear error now, not one per tool call
            if named:
                client.workspace = default
                client.list_entities(limit=1)  # a workspace the server does not have: a clear error now
            from app.mcp_server import RemoteTools, run_stdio

            run_stdio(RemoteTools(client))
        return
    from app.mcp_server import LocalTools, run_stdio

    with opened_workspaces(settings) as registry:
        if not registry.exists(default):
            raise unknown_workspace(default, registry.names())
        registry.default.warm_up()
        run_stdio(LocalTools(lambda: registry, default))
