"""One exit-code convention for every ``aer`` command (``app.cli.base.EXIT_*``): 2 when what was asked is wrong or
names nothing (an unknown document, entity, job, key or workspace; bad input), with one ``error:`` line on stderr
and no traceback. The test walks the command tree, so a new command that takes an argument must be listed here
with a call that names nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer
from langchain_core.embeddings import DeterministicFakeEmbedding
from typer.testing import CliRunner, Result

from app import container
from app.cli import cli
from app.cli.base import EXIT_REFUSED, LAZY_COMMANDS

# command -> arguments that name nothing or are wrong; "{tmp}" is a fresh empty folder
REFUSED: dict[str, list[str]] = {
    "ingest": ["{tmp}/empty"],
    "delete": ["missing-doc"],
    "query": ["   "],
    "entities add": ["\u200b", "-t", "ORGANIZATION"],
    "entities remove-alias": ["Missing Entity", "some alias"],
    "entities delete": ["Missing Entity"],
    "entities import": ["{tmp}/no-such.jsonl"],
    "documents show": ["missing-doc"],
    "documents delete": ["missing-doc"],
    "jobs show": ["missing-job"],
    "jobs cancel": ["missing-job"],
    "workspaces create": ["Bad Name!"],
    "workspaces delete": ["no-such-workspace", "--yes"],
    "workspaces export": ["no-such-workspace", "{tmp}/out.tar.gz"],
    "workspaces import": ["{tmp}/no-such.tar.gz", "restored"],
    "keys revoke": ["no-such-key"],
}
# commands without an argument, on a workspace that does not exist
UNKNOWN_WORKSPACE = ["entities list", "documents list"]


def leaf_commands() -> dict[str, Any]:
    """Every command of ``aer`` (the lazy offline tools' ones only where they are CLI twins of the API)."""
    from typer._click.core import Context

    found: dict[str, Any] = {}

    def walk(command: Any, path: list[str]) -> None:
        if not hasattr(command, "list_commands"):
            found[" ".join(path)] = command
            return
        ctx = Context(command)
        for name in command.list_commands(ctx):
            if not path and name in LAZY_COMMANDS and name != "keys":
                continue  # offline tools (eval, bench, ...): their own conventions, their own tests
            walk(command.resolve_command(ctx, [name])[1] if not path else command.get_command(ctx, name),
                 [*path, name])

    walk(typer.main.get_group(cli), [])
    return found


def aer(data_dir: Path, *args: str) -> Result:
    fake = DeterministicFakeEmbedding(size=32)  # the USE model would cost seconds per command
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir)})


def test_every_command_that_takes_an_argument_is_walked() -> None:
    with_arguments = {name for name, command in leaf_commands().items()
                      if any(type(p).__name__.endswith("Argument") and p.required for p in command.params)}
    assert with_arguments == set(REFUSED)


@pytest.mark.parametrize("command", [*REFUSED, *UNKNOWN_WORKSPACE])
def test_a_refused_request_exits_2_with_one_error_line(tmp_path: Path, command: str) -> None:
    (tmp_path / "empty").mkdir()
    args = [a.replace("{tmp}", str(tmp_path)) for a in REFUSED.get(command, ["--workspace", "no-such-workspace"])]
    result = aer(tmp_path / "data", *command.split(), *args)
    assert result.exit_code == EXIT_REFUSED, (command, result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    # one format: `error: CODE: message` (CODE the API's where the API has the failure), or click's usage error
    assert any(ERROR_LINE.match(line) or line.startswith(("Error", "Usage"))
               for line in result.stderr.splitlines()), result.stderr
    assert not [line for line in result.stderr.splitlines() if line.startswith("error") and not ERROR_LINE.match(line)]


ERROR_LINE = re.compile(r"^error: [a-z][a-z_]+: \S")
# commands with --json, refused: the error is the API's body on one line of stderr
AS_JSON = {"documents show": (["missing-doc"], "document_not_found"), "jobs show": (["missing-job"], "job_not_found"),
           "documents list": (["--workspace", "no-such-workspace"], "workspace_not_found"),
           "query": (["   "], "empty_question")}


@pytest.mark.parametrize("command", AS_JSON)
def test_under_json_a_refusal_is_the_apis_error_body(tmp_path: Path, command: str) -> None:
    args, code = AS_JSON[command]
    result = aer(tmp_path / "data", *command.split(), *args, "--json")
    assert result.exit_code == EXIT_REFUSED, (command, result.output, result.exception)
    [line] = [line for line in result.stderr.splitlines() if line.strip()]
    body = json.loads(line)
    assert body["success"] is False and body["error"]["code"] == code and body["error"]["message"], body
    assert result.stdout == ""
