"""``aer entities delete NAME``: the CLI twin of the API's ``delete-entity`` action, on the local data dir and
through ``--server``; an unknown name is one line naming ``entity_not_found`` (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

from langchain_core.embeddings import DeterministicFakeEmbedding
from typer.testing import CliRunner, Result

from app import container
from app.cli import cli
from tests.support.apps import cli_through, running_app


def aer(data_dir: Path, *args: str) -> Result:
    fake = DeterministicFakeEmbedding(size=32)  # the USE model would cost seconds per command
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir)}, catch_exceptions=False)


def test_delete_an_entity_from_the_local_data_dir(tmp_path: Path) -> None:
    added = aer(tmp_path, "entities", "add", "Orchid Company", "-t", "ORGANIZATION", "-a", "兰花公司")
    assert added.exit_code == 0, added.output
    deleted = aer(tmp_path, "entities", "delete", "Orchid Company")
    assert deleted.exit_code == 0, deleted.output
    assert json.loads(deleted.stdout.splitlines()[-1])["standardName"] == "Orchid Company"
    assert aer(tmp_path, "entities", "list").stdout.strip() == ""
    missing = aer(tmp_path, "entities", "delete", "Orchid Company")
    assert missing.exit_code == 2
    assert "error: entity_not_found: no entity named 'Orchid Company'" in missing.stderr


def test_delete_an_entity_through_a_server(tmp_path: Path) -> None:
    with running_app(tmp_path) as app_client, cli_through(app_client):
        runner = CliRunner()
        env = {"AER_DATA_DIR": str(tmp_path / "unused")}
        added = runner.invoke(cli, ["entities", "add", "Remote Co", "-t", "ORGANIZATION", "--server",
                                    "http://aer.test"], env=env, catch_exceptions=False)
        assert added.exit_code == 0, added.output
        deleted = runner.invoke(cli, ["entities", "delete", "Remote Co", "--server", "http://aer.test"],
                                env=env, catch_exceptions=False)
        assert deleted.exit_code == 0, deleted.output
        assert json.loads(deleted.stdout.splitlines()[-1])["standardName"] == "Remote Co"
        missing = runner.invoke(cli, ["entities", "delete", "Remote Co", "--server", "http://aer.test"],
                                env=env)
        assert missing.exit_code != 0
        assert "entity_not_found" in missing.stderr
