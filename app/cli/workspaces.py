"""``aer workspaces``: list, create, delete, export and import the knowledge bases of a data dir (or of a running
server)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from app.cli.base import (
    EXIT_PARTIAL,
    EXIT_REFUSED,
    ApiKeyOption,
    ServerOption,
    opened_workspaces,
    refused,
    remote,
    route,
    service_errors,
    workspace_name,
)

workspaces_cli = typer.Typer(no_args_is_help=True, help="Workspaces (separate knowledge bases): list, create, delete, export, import.")
PATH = "/api/workspaces"


IMPORTED = {"documents": "catalog.documents", "chunks": "chunks", "entities": "entities", "graph nodes": "graph.nodes",
            "graph edges": "graph.edges", "jobs": "jobs.jobs"}
"""What an import's summary names, and the count of the archive's each is (the stores' tables stay out of it)."""


def info_line(w: dict[str, Any]) -> str:
    """One workspace as a line: name, documents, chunks, size, last write."""
    from app.services.documents import size_text

    last = w.get("lastWrite")
    when = datetime.fromisoformat(last).astimezone().strftime("%Y-%m-%d %H:%M") if last else "-"
    return (f"{w['name']}\t{w['documents']} document(s)\t{w['chunks']} chunk(s)\t"
            f"{size_text(w['sizeBytes'])}\tlast write {when}")


@workspaces_cli.command("list")
def workspaces_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print the API's JSON.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Every workspace with its documents, chunks, size on disk and last write (``default`` first)."""
    if server := route(server):
        with remote(server, api_key=api_key) as client:
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
def workspaces_create(name: str, server: ServerOption = None, api_key: ApiKeyOption = None) -> None:
    """Create an empty workspace (1-32 lower-case letters, digits, ``_`` and ``-``)."""
    name = workspace_name(name)
    if server := route(server):
        with remote(server, api_key=api_key) as client:
            client._json("POST", PATH, json={"name": name})
    else:
        with opened_workspaces() as workspaces, service_errors():
            workspaces.create(name)
    typer.echo(f"created workspace {name}: load documents with `aer ingest PATH --workspace {name}`")


def confirm_delete(name: str) -> None:
    """Ask before deleting; a "no" and a question no one can answer (stdin closed: a script, a pipe, CI) end with
    what happened and what to do, not click's bare "Aborted!"."""
    try:
        sure = typer.confirm(f"delete workspace {name} and every document in it?", default=False)
    except typer.Abort:  # end of input (or Ctrl-C) at the question
        typer.echo("", err=True)
        raise refused("unconfirmed", f"nothing deleted: no answer to the question (no terminal?); add --yes to "
                      f"delete workspace {name} without asking") from None
    if not sure:
        typer.echo(f"nothing deleted: workspace {name} kept", err=True)
        raise typer.Exit(1)


@workspaces_cli.command("delete")
def workspaces_delete(
    name: str,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    verify: Annotated[bool, typer.Option("--verify", help="Then scan Milvus, SQLite, Redis and the data dir for "
                                         "anything left of it (exit 1 if so).")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Delete a workspace and everything it holds: documents, chunks, vectors, graph, jobs, entities, files."""
    name = workspace_name(name)
    if not yes:
        confirm_delete(name)
    given = server  # --server names a machine that may be another; else the server holds this data dir
    if server := route(server):
        with remote(server, api_key=api_key) as client:
            result = client._json("DELETE", f"{PATH}/{name}")
    else:
        with opened_workspaces() as workspaces, service_errors():
            result = workspaces.delete(name)
    deleted = result["deleted"]
    typer.echo(f"deleted workspace {name} ({deleted['documents']} document(s), {deleted['chunks']} chunk(s))")
    if verify:
        if given:  # the server found through this data dir (``aer serve`` beside) deleted it here: scan it
            typer.secho("--verify scans this machine's data dir and Milvus: run it where the server runs",
                        fg="yellow", err=True)
            raise typer.Exit(EXIT_REFUSED)
        from app.services.workspace_archive import residue
        from app.settings import Settings

        left = residue(Settings().for_workspace(name))
        for line in left:
            typer.secho(f"left: {line}", fg="red", err=True)
        if left:
            raise typer.Exit(EXIT_PARTIAL)
        typer.echo("verified: nothing of it is left in Milvus, SQLite, Redis or the data dir")


@workspaces_cli.command("export")
def workspaces_export(
    name: str,
    file: Annotated[Path, typer.Argument(help="The archive to write (e.g. team.aerws).")],
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Write a workspace to one archive file: chunks with their vectors, inventory, graph, own entities, jobs."""
    name = workspace_name(name)
    if server := route(server):
        with remote(server, api_key=api_key) as client, client._http.stream("GET", f"{PATH}/{name}/export") as response:
            if response.is_error:
                response.read()
                client._json("GET", f"{PATH}/{name}/export")  # raises the server's error, made readable
            partial = file.with_name(file.name + ".part")
            with partial.open("wb") as out:
                for block in response.iter_bytes():
                    out.write(block)
            partial.replace(file)
    else:
        with opened_workspaces() as workspaces, service_errors():
            workspaces.export(name, file)
    from app.services.documents import size_text

    typer.echo(f"exported workspace {name} to {file} ({size_text(file.stat().st_size)})")


@workspaces_cli.command("import")
def workspaces_import(
    file: Annotated[Path, typer.Argument(help="An archive written by `aer workspaces export`.")],
    name: str,
    replace: Annotated[bool, typer.Option("--replace", help="Replace what the workspace holds.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
) -> None:
    """Restore an archive into a workspace (created when absent) without re-embedding; here, or into a service
    on a Milvus server (``--server``, or MILVUS_URI)."""
    name = workspace_name(name)
    if not file.is_file():
        raise refused("file_not_found", f"no file {file}")
    if server := route(server):
        with remote(server, api_key=api_key) as client, file.open("rb") as archive:
            result = client._json("POST", f"{PATH}/import", files={"file": (file.name, archive)},
                                  data={"name": name, "replace": str(replace).lower()})
    else:
        with opened_workspaces() as workspaces, service_errors():
            result = workspaces.restore(name, file, replace=replace)
    counts = result.get("imported") or {}
    summary = ", ".join(f"{counts[key]} {label}" for label, key in IMPORTED.items()
                        if isinstance(counts, dict) and isinstance(counts.get(key), int))
    typer.echo(f"imported {file} into workspace {name}{' (created)' if result.get('created') else ''}"
               f"{': ' + summary if summary else ''}")
