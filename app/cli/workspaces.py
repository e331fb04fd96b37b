"""``aer workspaces``: list, create and delete the knowledge bases of a data dir (or of a running server)."""

from __future__ import annotations

import json
import time
from typing import Annotated, Any

import typer

from app.cli.base import ServerOption, opened_workspaces, remote, route, workspace_name

workspaces_cli = typer.Typer(no_args_is_help=True, help="Workspaces (separate knowledge bases): list, create, delete.")
PATH = "/api/workspaces"


def info_line(w: dict[str, Any]) -> str:
    """One workspace as a line: name, documents, chunks, size, last write."""
    last = w.get("lastWrite")
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last)) if last else "-"
    return (f"{w['name']}\t{w['documents']} document(s)\t{w['chunks']} chunk(s)\t"
            f"{w['sizeBytes'] / 1e6:.1f} MB\tlast write {when}")


@workspaces_cli.command("list")
def workspaces_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print the API's JSON.")] = False,
    server: ServerOption = None,
) -> None:
    """Every workspace with its documents, chunks, size on disk and last write (``default`` first)."""
    if server := route(server):
        with remote(server) as client:
            listed = client._json("GET", PATH)["workspaces"]
    else:
        from app.services.workspaces import list_infos

        with opened_workspaces() as workspaces:
            listed = [i.as_dict() for i in list_infos(workspaces)]
    if as_json:
        typer.echo(json.dumps(listed, ensure_ascii=False, indent=2))
        return
    for w in listed:
        typer.echo(info_line(w))


@workspaces_cli.command("create")
def workspaces_create(name: str, server: ServerOption = None) -> None:
    """Create an empty workspace (1-32 lower-case letters, digits, ``_`` and ``-``)."""
    from app.errors import ServiceError

    name = workspace_name(name)
    if server := route(server):
        with remote(server) as client:
            client._json("POST", PATH, json={"name": name})
    else:
        with opened_workspaces() as workspaces:
            try:
                workspaces.create(name)
            except ServiceError as exc:
                typer.secho(f"error: {exc.message}", fg="red", err=True)
                raise typer.Exit(2) from exc
    typer.echo(f"created workspace {name}: load documents with `aer ingest PATH --workspace {name}`")


@workspaces_cli.command("delete")
def workspaces_delete(
    name: str,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    server: ServerOption = None,
) -> None:
    """Delete a workspace and everything it holds: documents, chunks, vectors, graph, jobs, entities, files."""
    from app.errors import ServiceError

    name = workspace_name(name)
    if not yes:
        typer.confirm(f"delete workspace {name} and every document in it?", abort=True)
    if server := route(server):
        with remote(server) as client:
            result = client._json("DELETE", f"{PATH}/{name}")
    else:
        with opened_workspaces() as workspaces:
            try:
                result = workspaces.delete(name)
            except ServiceError as exc:
                typer.secho(f"error: {exc.message}", fg="red", err=True)
                raise typer.Exit(2) from exc
    deleted = result["deleted"]
    typer.echo(f"deleted workspace {name} ({deleted['documents']} document(s), {deleted['chunks']} chunk(s))")
