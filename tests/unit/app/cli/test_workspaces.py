"""``aer workspaces list|create|delete``, ``--workspace`` (and AER_WORKSPACE) on the commands that read or write
a knowledge base, and ``aer demo`` loading the ``demo`` workspace while ``default`` stays empty."""

from __future__ import annotations

import json
import re
from pathlib import Path
from unittest import mock

from langchain_core.embeddings import DeterministicFakeEmbedding
from typer.testing import CliRunner, Result

from app import container
from app.cli import cli


def aer(data_dir: Path, *args: str, **env: str) -> Result:
    fake = DeterministicFakeEmbedding(size=32)  # the USE model would cost seconds per command
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir), **env},
                                  catch_exceptions=False)


def listed(data_dir: Path) -> dict[str, dict[str, object]]:
    result = aer(data_dir, "workspaces", "list", "--json")
    assert result.exit_code == 0, result.output
    return {w["name"]: w for w in json.loads(result.stdout)}


def doc_ids(data_dir: Path, *args: str, **env: str) -> set[str]:
    result = aer(data_dir, "documents", "list", "--json", *args, **env)
    assert result.exit_code == 0, result.output
    return {d["id"] for d in json.loads(result.stdout)["documents"]}


def test_create_load_ask_and_delete_a_workspace(tmp_path: Path) -> None:
    data, files = tmp_path / "data", tmp_path / "files"
    files.mkdir()
    (files / "plant.md").write_text("# Plant\n\nKestrel Works assembles gearboxes in Tampere.\n", encoding="utf-8")
    assert list(listed(data)) == ["default"]
    created = aer(data, "workspaces", "create", "factory")
    assert created.exit_code == 0 and "created workspace factory" in created.stdout
    assert aer(data, "workspaces", "create", "factory").exit_code == 2
    ingested = aer(data, "ingest", str(files), "--workspace", "factory")
    assert ingested.exit_code == 0, ingested.output
    assert doc_ids(data, "--workspace", "factory") == {"plant.md"}
    assert doc_ids(data) == set()  # default: untouched
    assert doc_ids(data, AER_WORKSPACE="factory") == {"plant.md"}  # the environment names it too
    table = aer(data, "documents", "list", "--workspace", "factory").stdout.splitlines()
    assert table[0] == "id\ttitle\tfile\tchunks\tbytes\tingested (UTC)"  # the columns are named
    assert table[1].startswith("plant.md\tPlant\tplant.md\t1 chunk(s)\t") and table[2] == "1-1 of 1 document(s)"
    assert aer(data, "documents", "list").stdout.splitlines() == ["0-0 of 0 document(s)"]  # no header over nothing
    info = listed(data)["factory"]
    assert (info["documents"], info["chunks"]) == (1, 1)
    answer = aer(data, "query", "Where does Kestrel Works assemble gearboxes?", "--workspace", "factory", "--json")
    assert answer.exit_code == 0, answer.output
    body = json.loads(answer.stdout)
    assert body["workspace"] == "factory" and "Tampere" in body["answer"]
    elsewhere = json.loads(aer(data, "query", "Where does Kestrel Works assemble gearboxes?", "--json").stdout)
    assert elsewhere["workspace"] == "default" and "Tampere" not in json.dumps(elsewhere)
    deleted = aer(data, "workspaces", "delete", "factory", "--yes")
    assert deleted.exit_code == 0 and "1 document(s)" in deleted.stdout
    assert list(listed(data)) == ["default"] and not (data / "workspaces" / "factory").exists()


def test_an_unknown_or_bad_workspace_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = aer(tmp_path, "documents", "list", "--workspace", "nowhere")
    assert missing.exit_code == 2 and "no workspace 'nowhere'" in missing.stderr
    assert "aer workspaces create nowhere" in missing.stderr
    bad = aer(tmp_path, "entities", "list", "--workspace", "Not OK")
    assert bad.exit_code == 2 and "is not a workspace name" in bad.stderr
    protected = aer(tmp_path, "workspaces", "delete", "default", "--yes")
    assert protected.exit_code == 2 and "cannot be deleted" in protected.stderr


def test_an_unknown_workspace_near_an_existing_one_names_it(tmp_path: Path) -> None:
    assert aer(tmp_path, "workspaces", "create", "harbour-ops").exit_code == 0
    for command in (("documents", "list"), ("entities", "list")):
        near = aer(tmp_path, *command, "--workspace", "harbor-ops")
        assert near.exit_code == 2, near.output
        assert "(did you mean 'harbour-ops'? or create it: aer workspaces create harbor-ops)" in near.stderr
    far = aer(tmp_path, "documents", "list", "--workspace", "kitchen")
    assert far.exit_code == 2 and "did you mean" not in far.stderr


def test_entities_written_in_a_workspace_stay_there(tmp_path: Path) -> None:
    assert aer(tmp_path, "workspaces", "create", "lab").exit_code == 0
    added = aer(tmp_path, "entities", "add", "Kestrel Works", "-t", "ORGANIZATION", "--workspace", "lab")
    assert added.exit_code == 0, added.output
    assert "Kestrel Works" in aer(tmp_path, "entities", "list", "--workspace", "lab").stdout
    assert "Kestrel Works" not in aer(tmp_path, "entities", "list").stdout


def test_the_demo_loads_its_own_workspace_and_reset_reloads_it(tmp_path: Path) -> None:
    loaded = aer(tmp_path, "demo")
    assert loaded.exit_code == 0, loaded.output
    # said before the slow part (stores, entity dictionary, encoder), not after a silent minute
    assert loaded.stdout.splitlines()[0].startswith("workspace demo: loading the bundled demo")
    workspaces = listed(tmp_path)
    assert list(workspaces) == ["default", "demo"]
    assert workspaces["default"]["documents"] == 0 and workspaces["demo"]["documents"] == 59
    assert doc_ids(tmp_path) == set()
    # something of the user's in the demo workspace goes with --reset
    extra = tmp_path / "extra.md"
    extra.write_text("# Extra\n\nA note that is not part of the demo.\n", encoding="utf-8")
    assert aer(tmp_path, "ingest", str(extra), "--workspace", "demo").exit_code == 0
    assert listed(tmp_path)["demo"]["documents"] == 60
    reset = aer(tmp_path, "demo", "--reset")
    assert reset.exit_code == 0 and "emptied" in reset.stdout
    assert listed(tmp_path)["demo"]["documents"] == 59


def test_shared_entities_from_the_command_line(tmp_path: Path) -> None:
    assert aer(tmp_path, "workspaces", "create", "lab").exit_code == 0
    added = aer(tmp_path, "entities", "add", "Hanseatic League", "-t", "ORGANIZATION", "--shared")
    assert added.exit_code == 0, added.output
    for args in ((), ("--workspace", "lab")):
        assert "Hanseatic League" in aer(tmp_path, "entities", "list", *args).stdout
    refused = aer(tmp_path, "entities", "delete", "Hanseatic League", "--workspace", "lab")
    assert refused.exit_code == 2 and "error: shared_entity: " in refused.stderr and "Traceback" not in refused.output
    removed = aer(tmp_path, "entities", "delete", "Hanseatic League", "--shared")
    assert removed.exit_code == 0, removed.output
    for args in ((), ("--workspace", "lab")):
        assert "Hanseatic League" not in aer(tmp_path, "entities", "list", *args).stdout


def test_through_a_server_the_workspace_goes_as_x_workspace(tmp_path: Path) -> None:
    from tests.support.apps import cli_through, running_app

    with running_app(tmp_path / "served") as app_client:
        server = ["--server", "http://aer.test"]
        env = {"AER_DATA_DIR": str(tmp_path / "unused")}
        with cli_through(app_client):
            runner = CliRunner()
            created = runner.invoke(cli, ["workspaces", "create", "remote", *server], env=env, catch_exceptions=False)
            assert created.exit_code == 0, created.output
            added = runner.invoke(cli, ["entities", "add", "Remote Co", "-t", "ORGANIZATION", "--workspace", "remote",
                                        *server], env=env, catch_exceptions=False)
            assert added.exit_code == 0, added.output
            there = runner.invoke(cli, ["entities", "list", *server], env={**env, "AER_WORKSPACE": "remote"},
                                  catch_exceptions=False)
            default = runner.invoke(cli, ["entities", "list", *server], env=env, catch_exceptions=False)
            assert "Remote Co" in there.stdout and "Remote Co" not in default.stdout
            missing = runner.invoke(cli, ["documents", "list", "--workspace", "nowhere", *server], env=env)
            assert missing.exit_code == 2 and "workspace_not_found" in missing.stderr
            # one code, said once (the server's status and code were repeated inside the message)
            assert missing.stderr.startswith("error: workspace_not_found: no workspace 'nowhere'"), missing.stderr
            assert "(create it: aer workspaces create nowhere --server http://aer.test)" in missing.stderr
            near = runner.invoke(cli, ["documents", "list", "--workspace", "remotes", *server], env=env)
            assert near.exit_code == 2 and "(did you mean 'remote'? or create it:" in near.stderr, near.output
            assert near.stderr.count("did you mean") == 1  # the server names it too: said once
            listed = runner.invoke(cli, ["workspaces", "list", "--json", *server], env=env, catch_exceptions=False)
            assert [w["name"] for w in json.loads(listed.stdout)] == ["default", "remote"]


def test_a_key_for_one_workspace_naming_another_is_told_its_own_not_to_create_one(tmp_path: Path) -> None:
    """A read key for ``garden`` asking ``default`` was told "no workspace 'default' (create it: aer workspaces create
    default --server …)": ``default`` always exists, and the key may create nothing. The server now says which
    workspace the key is for (alike for every other name, existing or not), and the CLI's hint follows it."""
    from app.services.keys import KeyStore, keys_file
    from tests.support.apps import cli_through, running_app

    store = KeyStore(keys_file(tmp_path / "served"))
    key, _ = store.create("read", "garden", "colleague")
    store.close()
    with running_app(tmp_path / "served") as app_client, cli_through(app_client):
        env = {"AER_DATA_DIR": str(tmp_path / "unused")}
        for asked in ("default", "gardne"):
            refused = CliRunner().invoke(cli, ["documents", "list", "--workspace", asked, "--server", "http://aer.test",
                                               "--api-key", key], env=env)
            assert refused.exit_code == 2, refused.output
            assert refused.stderr.splitlines() == [
                f"error: workspace_not_found: no workspace {asked!r} for this key: it is for workspace 'garden' only "
                "(name 'garden', or no workspace at all)",
                "hint: --workspace garden (or leave it out: the key's own workspace)"], refused.stderr


def test_export_and_import_say_sizes_and_counts_in_plain_words(tmp_path: Path) -> None:
    data, files = tmp_path / "data", tmp_path / "files"
    files.mkdir()
    (files / "plant.md").write_text("# Plant\n\nKestrel Works assembles gearboxes in Tampere.\n", encoding="utf-8")
    assert aer(data, "workspaces", "create", "factory").exit_code == 0
    assert aer(data, "ingest", str(files), "--workspace", "factory").exit_code == 0
    archive = tmp_path / "factory.aerws"
    exported = aer(data, "workspaces", "export", "factory", str(archive))
    assert exported.exit_code == 0, exported.output
    assert re.search(r"\(\d+(\.\d)? (B|KB)\)$", exported.stdout.strip()), exported.stdout  # not "(0.0 MB)"
    imported = aer(data, "workspaces", "import", str(archive), "copy")
    assert imported.exit_code == 0, imported.output
    assert "1 documents, 1 chunks" in imported.stdout and "graph nodes" in imported.stdout
    assert "catalog." not in imported.stdout and "jobs.job_documents" not in imported.stdout
    assert re.search(r"\t\d+(\.\d)? (B|KB|MB)\t", aer(data, "workspaces", "list").stdout)


def test_a_store_that_fails_inside_a_command_is_one_line_and_exit_3(tmp_path: Path) -> None:
    """`aer workspaces list` while an `aer serve` was starting on the data dir: the server took the Milvus Lite
    file after the CLI's check, the command's first count failed, and two pages of traceback came out."""
    from app.workspaces import Workspaces
    from graphs.stores.base import StoreUnavailable

    def taken(self: Workspaces, name: str) -> object:
        raise StoreUnavailable("milvus", "count failed: Open local milvus failed")

    with mock.patch.object(Workspaces, "info", taken):
        result = aer(tmp_path / "data", "workspaces", "list")
    assert result.exit_code == 3
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and lines[0].startswith("error: store_unavailable: milvus unavailable: count failed"), result.output
    assert "--server" in lines[1] and "Traceback" not in result.output


def test_a_question_in_an_empty_workspace_says_so_and_names_the_workspaces_with_documents(tmp_path: Path) -> None:
    """A new user uploaded into one workspace, then ran the README's `aer query "…"` (the default workspace) and
    read only "No relevant information was found"."""
    from app.cli.query import empty_workspace_hint

    data, files = tmp_path / "data", tmp_path / "files"
    files.mkdir()
    (files / "plant.md").write_text("# Plant\n\nKestrel Works assembles gearboxes in Tampere.\n", encoding="utf-8")
    assert aer(data, "workspaces", "create", "sales").exit_code == 0
    assert aer(data, "ingest", str(files), "--workspace", "sales").exit_code == 0
    empty = aer(data, "query", "Where does Kestrel Works assemble gearboxes?")
    assert empty.exit_code == 0
    assert ("hint: workspace 'default' holds no documents yet: load some with `aer ingest PATH --workspace default`;"
            " the workspaces with documents: sales (1): add --workspace NAME") in empty.stderr
    found = aer(data, "query", "Where does Kestrel Works assemble gearboxes?", "--workspace", "sales")
    assert found.exit_code == 0 and "hint:" not in found.stderr
    assert empty_workspace_hint("sales", [{"name": "default", "documents": 0}, {"name": "sales", "documents": 3}]) \
        is None
    assert empty_workspace_hint("default", [{"name": "default", "documents": 0}]) == (
        "hint: workspace 'default' holds no documents yet: load some with `aer ingest PATH --workspace default`")


def test_delete_without_yes_says_what_happened_when_no_one_answers_or_says_no(tmp_path: Path) -> None:
    """Run from a script (stdin closed) it printed click's bare "Aborted!" (exit 1); a "no" too."""
    assert aer(tmp_path, "workspaces", "create", "scratch").exit_code == 0
    fake = DeterministicFakeEmbedding(size=32)
    with mock.patch.object(container, "build_embedder", lambda _settings: (fake, 32, "fake-embedder")):
        unanswered = CliRunner().invoke(cli, ["workspaces", "delete", "scratch"], input="",
                                        env={"AER_DATA_DIR": str(tmp_path)})
        declined = CliRunner().invoke(cli, ["workspaces", "delete", "scratch"], input="n\n",
                                      env={"AER_DATA_DIR": str(tmp_path)})
    assert unanswered.exit_code == 2 and "Aborted" not in unanswered.output
    assert "nothing deleted" in unanswered.stderr and "add --yes to delete workspace scratch" in unanswered.stderr
    assert declined.exit_code == 1 and "nothing deleted: workspace scratch kept" in declined.stderr
    assert "scratch" in listed(tmp_path)


def test_delete_with_verify_beside_a_running_server_scans_the_data_dir_it_shares(tmp_path: Path) -> None:
    """``aer serve`` holds the data dir, so the delete goes through it; the residue scan then runs here (it opens
    no store): the README's ``aer workspaces delete sales-copy --yes --verify`` used to refuse beside a server.
    With ``--server`` (perhaps another machine) it still refuses to scan."""
    from app.cli import workspaces as workspaces_cli
    from tests.support.apps import cli_through, running_app

    data = tmp_path / "served"
    with running_app(data) as app_client:
        env = {"AER_DATA_DIR": str(data)}
        beside = mock.patch.object(workspaces_cli, "route", lambda server: server or "http://aer.test")
        with cli_through(app_client), beside:
            runner = CliRunner()
            for name in ("old-copy", "far-copy"):
                assert runner.invoke(cli, ["workspaces", "create", name], env=env).exit_code == 0
            local = runner.invoke(cli, ["workspaces", "delete", "old-copy", "--yes", "--verify"], env=env)
            assert local.exit_code == 0, local.output
            assert "verified: nothing of it is left" in local.stdout
            far = runner.invoke(cli, ["workspaces", "delete", "far-copy", "--yes", "--verify", "--server",
                                      "http://aer.test"], env=env)
            assert far.exit_code == 2 and "run it where the server runs" in far.stderr
