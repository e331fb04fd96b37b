"""``aer keys``: API keys scoped to workspaces (create, list, revoke) in ``<data_dir>/keys.db``.

The commands open the keys file only (never the index), so they work while ``aer serve`` runs on the same data
dir: the server reads the file on every request, a new key works and a revoked one is refused at once.
"""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from app.cli.base import refused

if TYPE_CHECKING:
    from app.services.keys import KeyStore

keys_cli = typer.Typer(no_args_is_help=True, help="API keys scoped to workspaces, with roles (read, write, admin).")

RoleOption = Literal["read", "write", "admin"]

FIRST_KEY_NOTE = ("note: this is the first key: from now on every request to a server on this data dir needs a key "
                  "(the page, `aer` commands beside `aer serve`, chat and MCP clients included; `aer keys revoke` "
                  "of the last one opens it again), sent as --api-key KEY or AER_API_KEY=KEY")
"""Said once, by ``aer keys create``, when its key closes a service that was open: the user's own commands
stopped working after they gave a colleague a read key, with a hint about a server key they never had."""


def _store() -> KeyStore:
    from app.services.keys import KeyStore, keys_file
    from app.settings import Settings

    return KeyStore(keys_file(Settings().data_dir))


def _when(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch)) if epoch else "-"


@keys_cli.command("create")
def keys_create(
    role: Annotated[RoleOption, typer.Option("--role", help="read (query, list), write (+ documents, entities, "
                                             "uploads), admin (+ workspaces, shared entities, keys).")],
    workspace: Annotated[str | None, typer.Option(
        "--workspace", "-w", help="The key's workspace. Omitted: every workspace (admin keys only).")] = None,
    label: Annotated[str, typer.Option("--label", help="A note on whose key it is (listed, never secret).")] = "",
    as_json: Annotated[bool, typer.Option("--json", help="Print the key and its record as JSON.")] = False,
) -> None:
    """Create a key and print it once (stdout): only its SHA-256 digest is stored, it cannot be shown again."""
    from app.errors import ServiceError
    from app.settings import Settings

    store = _store()
    try:
        first = not store.active() and not Settings().api_keys
        key, record = store.create(role, workspace, label)
    except ServiceError as exc:
        raise refused(exc.code, exc.message, exc.details) from exc
    finally:
        store.close()
    if workspace is not None and workspace != "default" \
            and not (Settings().data_dir / "workspaces" / workspace).is_dir():
        typer.secho(f"note: workspace {workspace!r} does not exist yet; the key works once it is created "
                    f"(aer workspaces create {workspace})", fg="yellow", err=True)
    if first:
        typer.secho(FIRST_KEY_NOTE + ("" if record.role == "admin" and record.workspace is None else
                                      "; keep one for yourself: aer keys create --role admin --label me"),
                    fg="yellow", err=True)
    if as_json:
        typer.echo(json.dumps({"key": key, **record.as_dict()}, ensure_ascii=False))
        return
    scope = f"workspace {record.workspace!r}" if record.workspace else "every workspace"
    typer.secho(f"created key {record.id}: {record.role} on {scope}" + (f" ({record.label})" if record.label else "")
                + ". It is shown this once; send it as X-API-Key or Authorization: Bearer.", err=True)
    typer.echo(key)
    sys.stdout.flush()


@keys_cli.command("list")
def keys_list(
    revoked: Annotated[bool, typer.Option("--revoked", help="Also list revoked keys.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the records as JSON.")] = False,
) -> None:
    """List the keys: id, role, workspace, label, when created and last used (never the key)."""
    store = _store()
    try:
        records = store.list(revoked=revoked)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps([r.as_dict() for r in records], ensure_ascii=False, indent=2))
        return
    if not records:
        typer.echo("no keys (aer keys create --workspace W --role read|write|admin)")
        return
    typer.echo(f"{'id':<12}  {'role':<5}  {'workspace':<12}  {'created':<16}  {'last used':<16}  label")
    for r in records:
        status = f"  [revoked {_when(r.revoked_at)}]" if r.revoked_at else ""
        typer.echo(f"{r.id:<12}  {r.role:<5}  {r.workspace or '*':<12}  {_when(r.created_at):<16}  "
                   f"{_when(r.last_used):<16}  {r.label}{status}")


@keys_cli.command("revoke")
def keys_revoke(key_id: Annotated[str, typer.Argument(help="The key's id (aer keys list).")]) -> None:
    """Revoke a key: refused (401) from the next request on, by every process on this data dir."""
    from app.errors import ServiceError

    store = _store()
    try:
        record = store.revoke(key_id)
    except ServiceError as exc:
        raise refused(exc.code, exc.message, exc.details) from exc
    finally:
        store.close()
    typer.echo(f"revoked key {record.id} ({record.role} on {record.workspace or 'every workspace'})")
