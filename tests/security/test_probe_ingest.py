"""A repeatable, bounded probe of the ingest edges an outside probe broke (issue 25 items 1, 5, 6, 8, 11).

In-process and loopback only: one app on real stores (Milvus Lite, SQLite) in a temp dir. Each category is
a handful of hostile inputs of one kind, and each test fails if any of them gets through.
"""

from __future__ import annotations

import io
import json
import os
import threading
import time
import tracemalloc
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.documents import folder_specs, ingest_folder
from tests.support.apps import URL, running_app

UPLOAD = f"{URL}/upload"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with running_app(tmp_path_factory.mktemp("probe-ingest"), upload_max_file_bytes=2_000_000,
                     ingest_sync_max_chars=1_000_000) as c:
        yield c


def files(*items: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, data, "application/octet-stream")) for name, data in items]


def add_documents(client: TestClient, *docs: dict[str, Any]) -> Any:
    return client.post(URL, json={"action": "add-documents", "documents": list(docs), "background": False})


def every_text(client: TestClient) -> str:
    resources = client.app.state.resources  # type: ignore[attr-defined]
    return "\n".join(c.text for doc_id in resources.context.index.document_ids()
                     for c in resources.context.index.document_chunks(doc_id))


# ---------------------------------------------------------------------------- 1. symbolic links


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_links_out_of_an_ingested_folder_are_not_followed(client: TestClient, tmp_path: Path) -> None:
    secret_dir = tmp_path / "elsewhere"
    secret_dir.mkdir()
    (secret_dir / "secret.txt").write_text("PROBE-SECRET-7731 the password is swordfish")
    (secret_dir / "notes.md").write_text("# Notes\nPROBE-SECRET-7732 in a linked folder")
    root = tmp_path / "untrusted"
    root.mkdir()
    (root / "readme.md").write_text("# Readme\nAn ordinary file about tea.")
    (root / "passwd.txt").symlink_to(secret_dir / "secret.txt")
    (root / "linked").symlink_to(secret_dir, target_is_directory=True)
    (root / "dangling.md").symlink_to(tmp_path / "missing.md")
    report = ingest_folder(client.app.state.resources, root)  # type: ignore[attr-defined]
    assert [f.name for f in report.files] == ["readme.md"]
    assert {s.relative for s in report.skipped} == {"passwd.txt", "linked", "dangling.md"}
    assert all("not followed" in s.reason for s in report.skipped)
    assert "PROBE-SECRET" not in every_text(client)
    assert [s.name for s in folder_specs(root, (), (), "")] == ["readme.md"]  # the --server path too


# ---------------------------------------------------------------------------- 5. archives


def docx_bomb(inflated: int = 256 * 1024 * 1024) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        with z.open("word/document.xml", "w", force_zip64=True) as part:
            piece = b"<w:t>" + b"A" * (1024 * 1024) + b"</w:t>"
            for _ in range(inflated // len(piece)):
                part.write(piece)
    return buffer.getvalue()


def test_a_docx_zip_bomb_is_refused_without_inflating_it(client: TestClient) -> None:
    bomb = docx_bomb()
    assert len(bomb) < 1_000_000  # ~1000:1
    tracemalloc.start()
    try:
        r = client.post(UPLOAD, files=files(("bomb.docx", bomb)))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.status_code == 422, r.text
    [result] = r.json()["error"]["details"]["files"]
    assert result["error"]["code"] == "archive_too_large"
    assert peak < 64 * 1024 * 1024, f"{peak / 2**20:.0f} MiB allocated for a refused upload"


# ---------------------------------------------------------------------------- 6. one version while replacing


def test_a_document_being_replaced_is_read_as_one_version(client: TestClient) -> None:
    def version(tag: str) -> dict[str, Any]:
        paragraphs = [f"Version {tag} paragraph {i}: " + f"{tag} words " * 60 for i in range(5)]
        return {"id": "probe-swap", "title": "Swap", "text": "\n\n".join(paragraphs)}

    assert add_documents(client, version("A")).status_code == 200
    stop = threading.Event()
    errors: list[str] = []

    def rewrite() -> None:
        n = 0
        while not stop.is_set() and n < 60:
            r = add_documents(client, version("B" if n % 2 == 0 else "A"))
            if r.status_code != 200:
                errors.append(r.text)
            n += 1

    writer = threading.Thread(target=rewrite)
    writer.start()
    mixed, reads = [], 0
    deadline = time.monotonic() + 20
    try:
        while writer.is_alive() and time.monotonic() < deadline:
            body = client.get(URL, params={"action": "document", "id": "probe-swap"}).json()
            reads += 1
            tags = {c["text"].split()[1] for c in body["chunks"]}
            if len(tags) != 1 or len(body["chunks"]) != body["document"]["chunks"]:
                mixed.append((sorted(tags), len(body["chunks"]), body["document"]["chunks"]))
    finally:
        stop.set()
        writer.join()
    assert not errors
    assert reads >= 10
    assert mixed == [], f"{len(mixed)} of {reads} reads saw a mix: {mixed[:3]}"


# ---------------------------------------------------------------------------- 8. Unicode policy

HIDDEN = ["\u3164", "\u115f", "\u034f", "\ue000", "\ufdd0", "\uffff", "\u0378", "\u200b", "\u202e", "\u2066",
          "\ufeff", "\U000e0001"]


@pytest.mark.parametrize("ch", HIDDEN, ids=[f"U+{ord(c):04X}" for c in HIDDEN])
def test_names_and_ids_with_hidden_code_points_are_refused(client: TestClient, ch: str) -> None:
    r = client.post(URL, json={"action": "add-entity", "standardName": f"Probe{ch}Corp", "type": "ORGANIZATION"})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_entity_name")
    r = client.post(URL, json={"action": "add-entity", "standardName": "ProbeCorp", "type": "ORGANIZATION",
                               "aliases": [f"Probe{ch}"]})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_entity_name")
    r = add_documents(client, {"id": f"doc{ch}1", "text": "A visible text."})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_document_id")
    r = client.post(UPLOAD, files=files((f"note{ch}.md", b"# Note\nvisible")))
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_file_name")


def test_a_right_to_left_override_file_name_is_refused(client: TestClient) -> None:
    r = client.post(UPLOAD, files=files(("gpj.\u202eexe-trav8.md", b"# Trojan\nlooks like a picture")))
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_file_name")
    r = client.post(UPLOAD, files=files(("ok.md", b"# Fine\ntext")),
                    data={"metadata": json.dumps({"ok.md": {"id": "a\u200bb"}})})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_document_id")


@pytest.mark.parametrize("text", ["   \n\t ", "\u200b\u200b\u200b", "\ufeff", "\u3000\u200d\ufeff\n"])
def test_documents_with_nothing_visible_are_refused(client: TestClient, text: str) -> None:
    r = add_documents(client, {"id": "probe-empty", "text": text})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "empty_document")
    r = client.post(UPLOAD, files=files(("blank.txt", ("\ufeff" + text).encode())))
    assert r.status_code == 422
    [result] = r.json()["error"]["details"]["files"]
    assert result["error"]["code"] == "empty_document"


# ---------------------------------------------------------------------------- 11. strict metadata


@pytest.mark.parametrize("value", [True, -1, {"a": 1}, "9999-99-99", "0000-01-01", "2023-02-29", 1.5, "soon"])
def test_a_date_that_is_no_real_iso_date_is_refused(client: TestClient, value: Any) -> None:
    r = add_documents(client, {"id": "probe-date", "text": "Dated.", "metadata": {"date": value}})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_metadata_date")
    r = client.post(UPLOAD, files=files(("dated.md", b"# Dated\ntext")),
                    data={"metadata": json.dumps({"dated.md": {"metadata": {"date": value}}})})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_metadata_date")


def test_an_unknown_entity_type_in_metadata_is_refused(client: TestClient) -> None:
    r = add_documents(client, {"id": "probe-type", "text": "Typed.", "metadata": {"entities": {"WEAPON": ["x"]}}})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_entity_type")
    r = client.post(URL, json={"action": "add-entity", "standardName": "Probe", "type": "WEAPON"})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_entity_type")


@pytest.mark.parametrize("value", ["yes", "no", "on", "2", "TRUE "])
def test_skip_unchanged_must_be_a_real_boolean(client: TestClient, value: str) -> None:
    r = client.post(UPLOAD, files=files(("flag.md", b"# Flag\ntext")), data={"skipUnchanged": value})
    assert r.status_code == 422, r.text


@pytest.mark.parametrize("value", ["true", "false", "1", "0"])
def test_skip_unchanged_takes_true_false_one_zero(client: TestClient, value: str) -> None:
    r = client.post(UPLOAD, files=files(("flag.md", b"# Flag\ntext")), data={"skipUnchanged": value})
    assert r.status_code == 202, r.text


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_aer_ingest_names_each_link_it_skips(tmp_path: Path) -> None:
    from unittest import mock

    from langchain_core.embeddings import DeterministicFakeEmbedding
    from typer.testing import CliRunner

    from app import container
    from app.cli import cli

    (tmp_path / "secret.txt").write_text("PROBE-SECRET-9911")
    root = tmp_path / "folder"
    root.mkdir()
    (root / "ok.md").write_text("# Ok\nA plain note.")
    (root / "passwd.txt").symlink_to(tmp_path / "secret.txt")
    fake = (DeterministicFakeEmbedding(size=32), 32, "fake-embedder")
    with mock.patch.object(container, "build_embedder", lambda _settings: fake):
        result = CliRunner().invoke(cli, ["ingest", str(root)], env={"AER_DATA_DIR": str(tmp_path / "data")},
                                    catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "skipped: passwd.txt: a symbolic link to a file outside the root" in result.output
    assert "ingested 1 document(s)" in result.output
