"""``aer documents``: the document inventory (list, show, delete)."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from app.cli.base import ApiKeyOption, ServerOption, WorkspaceOption, opened, refused, remote, route
from app.cli.ingest import delete

documents_cli = typer.Typer(no_args_is_help=True, help="The document inventory: list, show, delete.")


HEADER = "id\ttitle\tfile\tchunks\tbytes\tingested (UTC)"
"""The inventory's header line (`aer documents list` printed rows no one could name; ``--json`` for scripts)."""


def record_line(d: dict[str, Any]) -> str:
    """One inventory row for a person."""
    when = (d.get("ingestedAt") or "")[:19].replace("T", " ")
    return (f"{d['id']}\t{d.get('title') or ''}\t{d.get('source') or '-'}\t{d['chunks']} chunk(s)\t"
            f"{d['bytes']} B\t{when or '-'}")


@documents_cli.command("list")
def documents_list(
    source: Annotated[str | None, typer.Option(help="Only documents whose file path contains this.")] = None,
    title: Annotated[str | None, typer.Option(help="Only documents whose title contains this.")] = None,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many documents (by id).")] = 0,
    limit: Annotated[int, typer.Option(min=1, max=500, help="List at most this many (1-500).")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print the page as JSON.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """List ingested documents: id, title, file, chunks, bytes, when."""
    from app.services.documents import list_documents

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            page = client.list_documents(offset, limit, source=source, title=title)
    else:
        with opened(workspace=workspace) as resources:
            page = list_documents(resources, offset=offset, limit=limit, source=source, title=title)
    if as_json:
        typer.echo(json.dumps(page, ensure_ascii=False, indent=2))
        return
    if page["documents"]:
        typer.echo(HEADER)
    for d in page["documents"]:
        typer.echo(record_line(d))
    shown = len(page["documents"])
    typer.echo(f"{page['offset'] + 1 if shown else 0}-{page['offset'] + shown} of {page['total']} document(s)")


@documents_cli.command("show")
def documents_show(
    doc_id: str,
    as_json: Annotated[bool, typer.Option("--json", help="Print the document and its chunks as JSON.")] = False,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Show a document and its chunks, with each chunk's section or page and entity tags."""
    from app.client import RemoteError
    from app.services.documents import document_not_found, show_document

    body: dict[str, Any] | None
    if server := route(server):
        with remote(server, workspace, api_key) as client:
            try:
                body = client.document(doc_id)
            except RemoteError as exc:
                if exc.code != "document_not_found":
                    raise
                raise refused(exc.code, exc.message, exc.details) from exc
    else:
        with opened(workspace=workspace) as resources:
            body = show_document(resources, doc_id)
            if body is None:
                missing = document_not_found(resources, doc_id)
                raise refused(missing.code, missing.message, missing.details)
    if as_json:
        typer.echo(json.dumps(body, ensure_ascii=False, indent=2))
        return
    typer.echo(record_line(body["document"]))
    for c in body["chunks"]:
        where = "; ".join(x for x in (f"p. {c['page']}" if c.get("page") else "",
                                      f"§ {c['section']}" if c.get("section") else "") if x)
        tags = "; ".join(f"{t}: {', '.join(v)}" for t, v in c["entities"].items() if v)
        typer.echo(f"  #{c['chunkIndex']} {c['id']}" + (f" ({where})" if where else "") + (f" [{tags}]" if tags else ""))
        text = " ".join(c["text"].split())
        typer.echo(f"     {text[:160]}{'…' if len(text) > 160 else ''}")


@documents_cli.command("delete")
def documents_delete(doc_id: str, server: ServerOption = None, api_key: ApiKeyOption = None,
                     workspace: WorkspaceOption = None) -> None:
    """Delete a document and all its chunks (as ``aer delete``)."""
    delete(doc_id, server, api_key, workspace)
