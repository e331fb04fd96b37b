"""``aer entities``: add, remove-alias, delete, list, import."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from app.cli.base import (
    ApiKeyOption,
    EntityType,
    ServerOption,
    WorkspaceOption,
    opened,
    opened_workspaces,
    refused,
    remote,
    route,
    unavailable,
    unknown_workspace,
    workspace_name,
)

if TYPE_CHECKING:
    from app.container import Resources

entities_cli = typer.Typer(no_args_is_help=True, help="Manage the entity store.")


def import_entities(resources: Resources, path: Path) -> int:
    """Upsert every entity of a JSONL/JSON file (as add-entity does: look-alike warnings, chunks re-tagged)."""
    import asyncio

    from app.services.entities import add_entity
    from graphs.ingest.loaders import load_entities_jsonl

    items = load_entities_jsonl(path)
    retagged = 0
    for item in items:
        write = asyncio.run(add_entity(resources, item))
        print_warnings(w.message for w in write.warnings)
        retagged += write.retagged or 0
    if retagged:
        typer.echo(f"re-tagged {retagged} indexed chunk(s) that name these entities", err=True)
    return len(items)


def print_warnings(messages: Iterable[str]) -> None:
    for message in messages:
        typer.secho(f"warning: {message}", fg="yellow", err=True)


def print_retagged(n: int | None) -> None:
    if n is None:
        typer.secho("warning: the index is unavailable: the chunks that name it are re-tagged by the next write",
                    fg="yellow", err=True)
    elif n:
        typer.echo(f"re-tagged {n} indexed chunk(s)", err=True)


SharedOption = Annotated[bool, typer.Option(
    "--shared", help="Write the shared dictionary every workspace sees, not the workspace's own.")]


@contextmanager
def entity_scope(workspace: str | None, shared: bool) -> Iterator[tuple[Resources, dict[str, Any]]]:
    """The workspace's resources and the scope arguments of an entity write (``--shared``: the shared dictionary,
    through the data dir's workspaces); a refusal (``shared_entity``) is one line and exit 1."""
    from app.errors import ServiceError

    name = workspace_name(workspace)
    with opened_workspaces() as workspaces:
        try:
            resources = workspaces.get(name)
        except ServiceError as exc:
            raise unknown_workspace(name, workspaces.names()) from exc
        try:
            yield resources, {"scope": "shared" if shared else "workspace", "workspaces": workspaces}
        except ServiceError as exc:
            raise refused(exc.code, exc.message, exc.details) from exc


def remote_entity_write(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    """An entity action with ``scope: shared`` on a running server."""
    from app.schemas import API_PATH

    answer: dict[str, Any] = client._json("POST", API_PATH, json={**body, "scope": "shared"})
    return answer


@entities_cli.command("add")
def entities_add(
    standard_name: str,
    type: Annotated[EntityType, typer.Option("--type", "-t", help="The entity's type.")],
    alias: Annotated[list[str] | None, typer.Option(
        "--alias", "-a", help="Another name it goes by (repeatable: -a 马斯克 -a 老马).")] = None,
    hierarchy: Annotated[str | None, typer.Option(help="Path from the root, e.g. '中国>北京>朝阳'")] = None,
    related: Annotated[list[str] | None, typer.Option(
        "--related", "-r", help="An entity it belongs with (repeatable).")] = None,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
    shared: SharedOption = False,
) -> None:
    """Add an entity or merge aliases into an existing one (in the workspace's own dictionary, or with
    ``--shared`` in the one every workspace sees)."""
    from pydantic import ValidationError

    from graphs.domain import STORED, EntityMetadata
    from graphs.stores.base import AliasConflictError, StoreError

    try:
        entity = EntityMetadata(
            standard_name=standard_name, type=type, aliases=alias or [],
            hierarchy=[h.strip() for h in hierarchy.split(">")] if hierarchy else [], related_entities=related or [],
        )
    except ValidationError as exc:
        raise refused("invalid_entity_name", name_errors(exc)) from exc
    if server := route(server):
        with remote(server, workspace, api_key) as client:
            answer = (remote_entity_write(client, {"action": "add-entity", **entity.model_dump(by_alias=True)})
                      if shared else client.add_entity(entity))
        print_warnings(w["message"] for w in answer.get("warnings", []))
        print_retagged(answer.get("retagged", 0))
        typer.echo(EntityMetadata.model_validate(answer["entity"], context=STORED).model_dump_json(by_alias=True))
        return
    import asyncio

    from app.services.entities import add_entity

    with entity_scope(workspace, shared) as (resources, scope):
        try:
            write = asyncio.run(add_entity(resources, entity, **scope))
        except AliasConflictError as exc:  # an alias another entity owns: the API's 409 alias_conflict
            raise refused("alias_conflict", str(exc)) from exc
        except StoreError as exc:
            raise unavailable("store_unavailable", str(exc)) from exc
    print_warnings(w.message for w in write.warnings)
    print_retagged(write.retagged)
    typer.echo(write.entity.model_dump_json(by_alias=True))


@entities_cli.command("remove-alias")
def entities_remove_alias(
    standard_name: str,
    aliases: Annotated[list[str], typer.Argument(help="The aliases to remove.")],
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
    shared: SharedOption = False,
) -> None:
    """Remove aliases from an entity; the chunks that named it only by them lose its tag."""
    from graphs.domain import STORED, EntityMetadata

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            answer = (remote_entity_write(client, {"action": "remove-alias", "standardName": standard_name,
                                                   "aliases": aliases})
                      if shared else client.remove_aliases(standard_name, aliases))
        print_retagged(answer.get("retagged", 0))
        typer.echo(EntityMetadata.model_validate(answer["entity"], context=STORED).model_dump_json(by_alias=True))
        return
    import asyncio

    from app.services.entities import remove_aliases

    with entity_scope(workspace, shared) as (resources, scope):
        write = asyncio.run(remove_aliases(resources, standard_name, aliases, **scope))
    if write is None:
        raise refused("entity_not_found", f"no entity named {standard_name!r}")
    print_retagged(write.retagged)
    typer.echo(write.entity.model_dump_json(by_alias=True))


@entities_cli.command("delete")
def entities_delete(standard_name: str, server: ServerOption = None, api_key: ApiKeyOption = None,
                    workspace: WorkspaceOption = None, shared: SharedOption = False) -> None:
    """Delete an entity: the chunks tagged with it lose the tag, the knowledge graph its edges."""
    from graphs.domain import STORED, EntityMetadata

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            answer = (remote_entity_write(client, {"action": "delete-entity", "standardName": standard_name})
                      if shared else client.delete_entity(standard_name))
        untagged = answer.get("untagged", 0)
        entity = EntityMetadata.model_validate(answer["entity"], context=STORED)
    else:
        import asyncio

        from app.services.entities import delete_entity

        with entity_scope(workspace, shared) as (resources, scope):
            deleted = asyncio.run(delete_entity(resources, standard_name, **scope))
        if deleted is None:
            raise refused("entity_not_found", f"no entity named {standard_name!r}")
        entity, untagged = deleted
    if untagged:
        typer.echo(f"untagged {untagged} indexed chunk(s)", err=True)
    typer.echo(entity.model_dump_json(by_alias=True))


def name_errors(exc: Any) -> str:
    """``aliases[0]: '' has no visible character; ...`` for the CLI."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())


@entities_cli.command("list")
def entities_list(
    type: Annotated[EntityType | None, typer.Option("--type", "-t", help="Only entities of this type.")] = None,
    offset: Annotated[int, typer.Option(min=0, help="Skip this many entities.")] = 0,
    limit: Annotated[int, typer.Option(min=1, max=500, help="List at most this many (1-500).")] = 100,
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """List entities (JSON lines)."""
    from graphs.domain import EntityMetadata

    if server := route(server):
        with remote(server, workspace, api_key) as client:
            page = client.list_entities(type, offset, limit)
        for item in page["entities"]:
            typer.echo(EntityMetadata.model_validate(item).model_dump_json(by_alias=True))
        return
    with opened(workspace=workspace) as resources:
        for e in resources.context.entities.list(type=type, offset=offset, limit=limit):
            typer.echo(e.model_dump_json(by_alias=True))


@entities_cli.command("import")
def entities_import(
    path: Annotated[Path, typer.Argument(exists=True, dir_okay=False)],
    server: ServerOption = None,
    api_key: ApiKeyOption = None,
    workspace: WorkspaceOption = None,
) -> None:
    """Import entities from a JSONL (or JSON array) file."""
    from graphs.ingest.loaders import load_entities_jsonl

    try:
        items = load_entities_jsonl(path)  # every record is checked before anything is written
    except ValueError as exc:
        raise refused("invalid_entities_file", str(exc)) from exc
    if server := route(server):
        with remote(server, workspace, api_key) as client:
            for item in items:
                answer = client.add_entity(item)
                print_warnings(w["message"] for w in answer.get("warnings", []))
                print_retagged(answer.get("retagged", 0))
        typer.echo(f"imported {len(items)} entities into {server}")
        return
    with opened(workspace=workspace) as resources:
        n = import_entities(resources, path)
    typer.echo(f"imported {n} entities")
