"""A document's id is its path under the upload or ingest root, folders kept: ``a/report.md`` and
``b/report.md`` are two documents. Writing over an indexed id is never silent: the upload's answer, the job,
add-documents and ``aer ingest`` say ``replaced``; an unchanged file is skipped, not replaced."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from tests.support.apps import URL, running_app

UPLOAD = f"{URL}/upload"
NORTH = "# Report\n\nThe north depot stores 40 pallets of tiles.\n"
SOUTH = "# Report\n\nThe south depot stores 75 crates of glass.\n"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("paths")) as c:
        yield c


def upload(client: TestClient, *items: tuple[str, str], root: str | None = "depots",
           metadata: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    form = {k: v for k, v in (("root", root), ("metadata", metadata)) if v is not None}
    r = client.post(UPLOAD, files=[("files", (n, t.encode(), "text/markdown")) for n, t in items], data=form)
    assert r.status_code == 202, r.text
    body = r.json()
    deadline = time.monotonic() + 60
    while True:
        job = client.get(URL, params={"action": "job", "id": body["jobId"]}).json()["job"]
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body, job
        time.sleep(0.1)


def ids(client: TestClient) -> set[str]:
    return {d["id"] for d in client.get(URL, params={"action": "documents", "limit": 500}).json()["documents"]}


def test_same_file_name_in_two_folders_is_two_documents_and_a_changed_one_is_reported_replaced(
        client: TestClient) -> None:
    body, job = upload(client, ("north/report.md", NORTH), ("south/report.md", SOUTH))
    assert [f["documents"] for f in body["files"]] == [["north/report.md"], ["south/report.md"]]
    assert body["replaced"] == [] and all(f["replaced"] == [] for f in body["files"])
    assert [(d["id"], d["status"]) for d in job["documents"]] == [("north/report.md", "done"), ("south/report.md", "done")]
    assert {"north/report.md", "south/report.md"} <= ids(client)
    north = client.get(URL, params={"action": "document", "id": "north/report.md"}).json()
    assert "40 pallets" in north["chunks"][0]["text"]  # the south file did not overwrite it

    body, job = upload(client, ("north/report.md", NORTH.replace("40", "44")), ("south/report.md", SOUTH))
    assert body["replaced"] == ["north/report.md"]
    assert [(f["name"], f["replaced"]) for f in body["files"]] == [("north/report.md", ["north/report.md"]),
                                                                  ("south/report.md", [])]
    assert [(d["id"], d["status"]) for d in job["documents"]] == [("north/report.md", "replaced"),
                                                                   ("south/report.md", "skipped")]
    assert job["progress"]["replaced"] == 1 and job["progress"]["done"] == 1 and job["progress"]["skipped"] == 1


def test_a_file_at_the_root_keeps_its_plain_name(client: TestClient) -> None:
    body, job = upload(client, ("summary.md", NORTH), root="other")
    assert body["files"][0]["documents"] == ["summary.md"] and job["documents"][0]["id"] == "summary.md"


def test_add_documents_names_what_it_replaced(client: TestClient) -> None:
    doc = {"id": "notes/plan.md", "title": "Plan", "text": "Phase one starts in March."}
    first = client.post(URL, json={"action": "add-documents", "documents": [doc]}).json()
    assert first["ids"] == ["notes/plan.md"] and first["replaced"] == []
    again = client.post(URL, json={"action": "add-documents", "documents": [{**doc, "text": "Phase one starts in May."}]})
    assert again.json()["replaced"] == ["notes/plan.md"]


def test_aer_ingest_keeps_folders_in_ids_and_prints_what_it_replaced(tmp_path: Path) -> None:
    root, data = tmp_path / "kb", tmp_path / "data"
    for folder, text in (("north", NORTH), ("south", SOUTH)):
        (root / folder).mkdir(parents=True)
        (root / folder / "report.md").write_text(text, encoding="utf-8")

    def aer(*args: str) -> Any:
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data)}, catch_exceptions=False)

    first = aer("ingest", str(root))
    assert first.exit_code == 0, first.output
    assert "ingested 2 document(s)" in first.output and "replaced" not in first.output
    listed = aer("documents", "list")
    assert "north/report.md" in listed.output and "south/report.md" in listed.output
    (root / "south" / "report.md").write_text(SOUTH.replace("75", "80"), encoding="utf-8")
    again = aer("ingest", str(root))
    assert again.exit_code == 0, again.output
    assert "ingested 1 document(s)" in again.output and "skipped 1 unchanged" in again.output
    assert "; replaced 1" in again.output and "replaced: south/report.md" in again.output


def test_a_file_name_given_for_a_path_id_is_told_the_path(client: TestClient) -> None:
    """A folder's documents are named by their paths; asked by the bare file name (or a near spelling), the 404
    names the id meant: over HTTP (delete and read) and MCP the same way, nothing deleted."""
    upload(client, ("kitchen/rota.md", "# Rota\n\nMarta Lindqvist cooks on Tuesdays.\n"),
           ("garden/tools.md", "# Tools\n\nThe shed holds two wheelbarrows.\n"), root="house")
    for r in (client.post(URL, json={"action": "delete-document", "id": "rota.md"}),
              client.post(URL, json={"action": "delete-document", "id": "rota"}),
              client.get(URL, params={"action": "document", "id": "kitchen/rotta.md"})):
        assert r.status_code == 404, r.text
        error = r.json()["error"]
        assert error["code"] == "document_not_found" and error["details"]["suggestion"] == "kitchen/rota.md"
        assert "(did you mean 'kitchen/rota.md'?)" in error["message"]
    far = client.post(URL, json={"action": "delete-document", "id": "invoice.pdf"}).json()["error"]
    assert "did you mean" not in far["message"] and "suggestion" not in far["details"]
    assert "kitchen/rota.md" in ids(client)


def test_aer_delete_and_show_name_the_path_meant(tmp_path: Path) -> None:
    root, data = tmp_path / "kb", tmp_path / "data"
    (root / "garden").mkdir(parents=True)
    (root / "garden" / "tools.md").write_text("# Tools\n\nThe shed holds two wheelbarrows.\n", encoding="utf-8")

    def aer(*args: str) -> Any:
        return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data)})

    assert aer("ingest", str(root)).exit_code == 0
    for command in (("delete", "tools.md"), ("documents", "show", "tools.md"), ("documents", "delete", "tools.md")):
        r = aer(*command)
        assert r.exit_code == 2 and "(did you mean 'garden/tools.md'?)" in r.stderr, r.output
    assert aer("documents", "show", "garden/tools.md").exit_code == 0


def test_the_same_file_again_is_said_to_be_indexed_already_not_accepted_as_new(client: TestClient) -> None:
    text = "# Keys\n\nThe spare key hangs behind the boiler.\n"
    first, _ = upload(client, ("keys.md", text), root="flat")
    assert first["files"][0]["unchanged"] == [] and first["unchanged"] == []
    again, job = upload(client, ("keys.md", text), root="flat")
    assert again["files"][0]["unchanged"] == ["keys.md"] and again["unchanged"] == ["keys.md"]
    assert again["replaced"] == [] and job["progress"]["skipped"] == 1
    changed, _ = upload(client, ("keys.md", text.replace("boiler", "clock")), root="flat")
    assert changed["unchanged"] == [] and changed["replaced"] == ["keys.md"]
    r = client.post(UPLOAD, files=[("files", ("keys.md", text.encode(), "text/markdown"))],
                    data={"root": "flat", "skipUnchanged": "false"})
    assert r.json()["unchanged"] == [] and r.json()["replaced"] == ["keys.md"]


def test_a_loose_file_a_folder_ingest_indexed_under_its_path_is_a_new_version_of_it(client: TestClient) -> None:
    """A folder ingested, then one of its files uploaded on its own (no folder named): the user means that
    document, not a second copy under the bare name — unchanged when the same, replaced when edited, and the
    answer names the path (``sameAs``); its own id in metadata keeps it apart; a name two folders hold is not
    guessed."""
    fees = "# Fees\n\nThe annual membership fee is 35 pounds.\n"
    upload(client, ("ledger/fees.md", fees), ("east/minutes.md", NORTH), ("west/minutes.md", SOUTH), root="club")
    same, _ = upload(client, ("fees.md", fees), root=None)
    assert same["unchanged"] == ["ledger/fees.md"] and same["files"][0]["documents"] == ["ledger/fees.md"]
    assert same["files"][0]["sameAs"]["id"] == "ledger/fees.md" and "new version" in same["files"][0]["sameAs"]["message"]
    edited, job = upload(client, ("fees.md", fees.replace("35", "40")), root=None)
    assert edited["replaced"] == ["ledger/fees.md"] and job["status"] == "done"
    assert "fees.md" not in ids(client)
    shown = client.get(URL, params={"action": "document", "id": "ledger/fees.md"}).json()
    assert "40 pounds" in shown["chunks"][0]["text"]
    apart, _ = upload(client, ("fees.md", fees), root=None, metadata='{"fees.md": {"id": "fees.md"}}')
    assert apart["files"][0]["documents"] == ["fees.md"] and "sameAs" not in apart["files"][0]
    both, _ = upload(client, ("minutes.md", NORTH), root=None)
    assert both["files"][0]["documents"] == ["minutes.md"] and "sameAs" not in both["files"][0]
    kept, _ = upload(client, ("fees.md", fees), root="club")  # a folder's file keeps its path
    assert kept["files"][0]["documents"] == ["fees.md"] and "sameAs" not in kept["files"][0]
    assert {"ledger/fees.md", "fees.md", "minutes.md", "east/minutes.md", "west/minutes.md"} <= ids(client)


def test_a_renamed_file_takes_its_document_s_place_instead_of_making_a_second_copy(client: TestClient) -> None:
    """The same bytes uploaded under a new name (a user renamed the file): the indexed document becomes the new
    name in its folder, and the old id is gone once the new one is written — never two copies that every search
    finds twice, never a moment without the content. Renamed and edited is a new document; the new name with an
    id of its own in metadata keeps both; a title taken from the file name follows the new name."""
    rules = "# Bench rules\n\nThe soldering bench is switched off at the wall after each session.\n"
    upload(client, ("tools/bench.md", rules), root="garage")
    body, job = upload(client, ("workbench-rules.md", rules), root=None)
    moved = body["files"][0]
    assert moved["documents"] == ["tools/workbench-rules.md"] and body["renamed"] == [
        {"from": "tools/bench.md", "to": "tools/workbench-rules.md"}]
    assert moved["renamed"]["from"] == "tools/bench.md" and "removed once" in moved["renamed"]["message"]
    assert job["status"] == "done" and body["replaced"] == [] and body["unchanged"] == []
    now = ids(client)
    assert "tools/workbench-rules.md" in now and "tools/bench.md" not in now and "workbench-rules.md" not in now
    shown = client.get(URL, params={"action": "document", "id": "tools/workbench-rules.md"}).json()
    assert "soldering bench" in shown["chunks"][0]["text"] and shown["document"]["source"] == "tools/workbench-rules.md"

    log = "2026-03-02 the drill press belt was replaced.\n"
    upload(client, ("press_log.txt", log), root=None)
    renamed, _ = upload(client, ("drill_press_log.txt", log), root=None)
    assert renamed["renamed"] == [{"from": "press_log.txt", "to": "drill_press_log.txt"}], renamed
    titled = client.get(URL, params={"action": "document", "id": "drill_press_log.txt"}).json()["document"]
    assert titled["title"] == "drill press log"

    edited, _ = upload(client, ("bench-v2.md", rules.replace("each session", "each evening")), root=None)
    assert edited["renamed"] == [] and "renamed" not in edited["files"][0]
    both, _ = upload(client, ("bench-copy.md", rules), root=None, metadata='{"bench-copy.md": {"id": "bench-copy.md"}}')
    assert both["renamed"] == [] and {"bench-copy.md", "tools/workbench-rules.md"} <= ids(client)
