"""``--api-key`` (and AER_API_KEY) on every command that talks to a server: sent as the key, preferred to
AER_API_KEYS, never printed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from app.cli import cli
from app.cli.base import LAZY_COMMANDS, load_command
from app.services.keys import KeyStore, keys_file
from tests.support.apps import cli_through, running_app

SERVER = ["--server", "http://aer.test"]


def commands(group: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for name, command in group.commands.items():
        if name in LAZY_COMMANDS:
            command = load_command(name)
        if hasattr(command, "commands"):  # a group
            yield from commands(command, (*prefix, name))
        else:
            yield (*prefix, name), command


def test_every_command_with_server_takes_api_key() -> None:
    root = typer.main.get_command(cli)
    with_server = {path: {o for p in c.params for o in p.opts} for path, c in commands(root)
                   if any("--server" in p.opts for p in c.params)}
    assert len(with_server) >= 15  # documents, entities, ingest, delete, jobs, query, workspaces...
    missing = sorted(" ".join(path) for path, opts in with_server.items() if "--api-key" not in opts)
    assert not missing, f"commands with --server but no --api-key: {missing}"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    root = tmp_path_factory.mktemp("cli-key")
    store = KeyStore(keys_file(root))
    keys = {"admin": store.create("admin", None, "admin")[0], "read": store.create("read", "default", "reader")[0]}
    store.close()
    with running_app(root) as app_client, cli_through(app_client):
        yield keys


def aer(tmp_path: Path, *args: str, **env: str) -> Any:
    return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(tmp_path), "AER_API_KEY": "",
                                                   "AER_API_KEYS": "", **env})


def test_the_key_goes_to_the_server_and_is_never_printed(served: dict[str, str], tmp_path: Path) -> None:
    admin, read = served["admin"], served["read"]
    refused = aer(tmp_path, "workspaces", "create", "keyed", *SERVER)
    assert refused.exit_code == 2 and "unauthorized" in refused.stderr
    assert "hint: give the server's key with --api-key KEY" in refused.stderr
    created = aer(tmp_path, "workspaces", "create", "keyed", *SERVER, "--api-key", admin)
    assert created.exit_code == 0, created.output
    added = aer(tmp_path, "entities", "add", "Keyed Co", "-t", "ORGANIZATION", "--workspace", "keyed",
                *SERVER, "--api-key", admin)
    assert added.exit_code == 0, added.output
    listed = aer(tmp_path, "entities", "list", "--workspace", "keyed", *SERVER, "--api-key", admin)
    assert listed.exit_code == 0 and "Keyed Co" in listed.stdout
    documents = aer(tmp_path, "documents", "list", "--json", *SERVER, "--api-key", read)
    assert documents.exit_code == 0 and "documents" in json.loads(documents.stdout)
    # a read key cannot write: 403, said in one line without the key
    write = aer(tmp_path, "entities", "add", "Other Co", "-t", "ORGANIZATION", *SERVER, "--api-key", read)
    assert write.exit_code == 2 and "forbidden" in write.stderr
    wrong = aer(tmp_path, "documents", "list", *SERVER, "--api-key", "not-a-valid-key-4242")
    assert wrong.exit_code == 2 and "unauthorized" in wrong.stderr and "is not one this server knows" in wrong.stderr
    for result in (refused, created, added, listed, documents, write, wrong):
        assert admin not in result.output and read not in result.output
        assert "not-a-valid-key-4242" not in result.output


def test_aer_api_key_from_the_environment_and_the_option_wins(served: dict[str, str], tmp_path: Path) -> None:
    admin, read = served["admin"], served["read"]
    by_env = aer(tmp_path, "workspaces", "create", "by-env", *SERVER, AER_API_KEY=admin)
    assert by_env.exit_code == 0, by_env.output
    # AER_API_KEY before the first of AER_API_KEYS (a server's own list, which may hold no key of this server)
    both = aer(tmp_path, "workspaces", "create", "by-env-2", *SERVER, AER_API_KEY=admin, AER_API_KEYS="stale-key")
    assert both.exit_code == 0, both.output
    # --api-key before AER_API_KEY: a read key cannot create a workspace
    option = aer(tmp_path, "workspaces", "create", "by-option", *SERVER, "--api-key", read, AER_API_KEY=admin)
    assert option.exit_code == 2 and "forbidden" in option.stderr
    assert admin not in by_env.output + both.output + option.output
