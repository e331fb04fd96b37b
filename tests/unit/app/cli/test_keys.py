"""``aer keys``: create prints the key once (alone on stdout), list never shows it, revoke refuses it at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from app.cli import cli
from app.services.keys import KeyStore, keys_file


def aer(data_dir: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir)}, catch_exceptions=False)


def test_create_list_revoke(tmp_path: Path) -> None:
    created = aer(tmp_path, "keys", "create", "--workspace", "alpha", "--role", "write", "--label", "ci bot")
    assert created.exit_code == 0, created.output
    key = created.stdout.strip()
    assert key.startswith("aer_") and "\n" not in key  # stdout is the key alone: KEY=$(aer keys create ...)
    assert "write on workspace 'alpha' (ci bot)" in created.stderr and "shown this once" in created.stderr
    key_id = key[4:16]
    listed = aer(tmp_path, "keys", "list")
    assert listed.exit_code == 0 and key not in listed.output and key[17:] not in listed.output
    row = next(line for line in listed.stdout.splitlines() if line.startswith(key_id))
    assert row.split()[:3] == [key_id, "write", "alpha"] and row.endswith("ci bot")
    everywhere = aer(tmp_path, "keys", "create", "--role", "admin", "--json")
    record = json.loads(everywhere.stdout)
    assert record["workspace"] is None and record["role"] == "admin" and record["key"].startswith("aer_")
    assert "*" in next(line for line in aer(tmp_path, "keys", "list").stdout.splitlines()
                       if line.startswith(record["id"]))
    store = KeyStore(keys_file(tmp_path))
    try:
        assert store.identify(key) is not None
        revoked = aer(tmp_path, "keys", "revoke", key_id)
        assert revoked.exit_code == 0 and f"revoked key {key_id}" in revoked.stdout
        assert store.identify(key) is None
    finally:
        store.close()
    assert key_id not in aer(tmp_path, "keys", "list").stdout
    assert "[revoked" in next(line for line in aer(tmp_path, "keys", "list", "--revoked").stdout.splitlines()
                              if line.startswith(key_id))
    assert [r["id"] for r in json.loads(aer(tmp_path, "keys", "list", "--json").stdout)] == [record["id"]]


def test_refusals_are_one_line_and_a_nonzero_exit(tmp_path: Path) -> None:
    no_scope = aer(tmp_path, "keys", "create", "--role", "read")
    assert no_scope.exit_code == 2 and "workspace_required" in no_scope.stderr and no_scope.stdout == ""
    bad_name = aer(tmp_path, "keys", "create", "--role", "read", "--workspace", "../etc")
    assert bad_name.exit_code == 2 and "invalid_workspace" in bad_name.stderr
    bad_role = aer(tmp_path, "keys", "create", "--role", "owner", "--workspace", "alpha")
    assert bad_role.exit_code == 2
    unknown = aer(tmp_path, "keys", "revoke", "000000000000")
    assert unknown.exit_code == 2 and "key_not_found" in unknown.stderr
    assert "no keys" in aer(tmp_path, "keys", "list").stdout


def test_serve_counts_the_keys_of_keys_db_as_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import app.main

    monkeypatch.setattr(app.main, "create_app", lambda settings: "app")
    monkeypatch.setattr("uvicorn.run", lambda application, **kw: None)
    env = {"AER_DATA_DIR": str(tmp_path), "AER_REQUIRE_API_KEYS": "true"}
    refused = CliRunner().invoke(cli, ["serve", "--port", "8123"], env=env)
    assert refused.exit_code == 2 and "refusing to start" in refused.stderr
    open_bind = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"], env={"AER_DATA_DIR": str(tmp_path)})
    assert open_bind.exit_code == 0 and "anyone who can reach" in open_bind.stderr
    key = aer(tmp_path, "keys", "create", "--role", "admin")
    assert key.exit_code == 0
    started = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0"], env=env)
    assert started.exit_code == 0, started.output
    assert "anyone who can reach" not in started.stderr


def test_the_first_key_says_it_closes_the_service_and_a_refused_command_says_where_a_key_comes_from(
        tmp_path: Path) -> None:
    from app.cli.base import no_key_hint
    from app.settings import Settings

    def settings() -> Settings:
        return Settings(_env_file=None, data_dir=tmp_path)  # type: ignore[call-arg]

    assert "--api-key" in no_key_hint(settings()) and "keys create" not in no_key_hint(settings())
    first = aer(tmp_path, "keys", "create", "--workspace", "alpha", "--role", "read", "--label", "volunteers")
    assert first.exit_code == 0 and first.stdout.strip().startswith("aer_")
    assert "first key" in first.stderr and "aer keys create --role admin" in first.stderr
    second = aer(tmp_path, "keys", "create", "--workspace", "alpha", "--role", "write")
    assert second.exit_code == 0 and "first key" not in second.stderr
    assert "aer keys create --role admin" in no_key_hint(settings())
    assert "keys create" not in no_key_hint(Settings(_env_file=None, data_dir=tmp_path,  # type: ignore[call-arg]
                                                      api_keys="k-configured-1234567890"))
    aer(tmp_path, "keys", "revoke", first.stdout.strip()[4:16])
    aer(tmp_path, "keys", "revoke", second.stdout.strip()[4:16])
    own = aer(tmp_path, "keys", "create", "--role", "admin")  # the first again, and the user's own: no advice
    assert "first key" in own.stderr and "keep one for yourself" not in own.stderr
