"""``POST /api/adaptive-entity-rag/upload``: limits (count, size, type) with 4xx codes, per-file errors while the
other files go on, per-file metadata, and the job, inventory and document reads."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.apps import URL, running_app
from tests.support.documents import DOCX_BLOCKS, MARKDOWN, PDF_PAGES, docx_bytes, pdf_bytes

UPLOAD = f"{URL}/upload"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir = tmp_path_factory.mktemp("uploads")
    with running_app(data_dir, upload_max_files=3, upload_max_file_bytes=50_000, upload_max_bytes=200_000) as c:
        yield c


def files(*items: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("files", (name, data, "application/octet-stream")) for name, data in items]


def wait_for(client: TestClient, job_id: str, timeout_s: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        job = client.get(URL, params={"action": "job", "id": job_id}).json()["job"]
        if job["status"] in ("done", "failed") or time.monotonic() > deadline:
            return job
        time.sleep(0.1)


def inventory_ids(client: TestClient) -> list[str]:
    return [d["id"] for d in client.get(URL, params={"action": "documents", "limit": 500}).json()["documents"]]


def test_good_files_go_on_while_unreadable_ones_fail_by_name(client: TestClient) -> None:
    r = client.post(UPLOAD, files=files(
        ("tea.md", MARKDOWN.encode()), ("report.pdf", pdf_bytes(PDF_PAGES, title="Orchid Report")),
        ("secret.pdf", pdf_bytes([["x"]], password="pw"))))
    assert r.status_code == 202, r.text
    body = r.json()
    assert [(f["name"], f["status"]) for f in body["files"]] == [
        ("tea.md", "accepted"), ("report.pdf", "accepted"), ("secret.pdf", "failed")]
    assert body["files"][2]["error"]["code"] == "encrypted_file" and "secret.pdf" in body["files"][2]["error"]["message"]
    job = wait_for(client, body["jobId"])
    assert job["status"] == "done" and job["kind"] == "upload"
    assert [(d["id"], d["status"]) for d in job["documents"]] == [
        ("tea.md", "done"), ("report.pdf", "done"), ("secret.pdf", "failed")]
    assert job["progress"]["chunks"] == 6 and job["progress"]["chunksPerS"] > 0
    assert {"tea.md", "report.pdf"} <= set(inventory_ids(client))

    shown = client.get(URL, params={"action": "document", "id": "report.pdf"}).json()
    assert shown["document"]["title"] == "Orchid Report" and shown["document"]["source"] == "report.pdf"
    assert [(c["chunkIndex"], c["page"], c["section"]) for c in shown["chunks"]] == [(0, 1, None), (1, 2, None),
                                                                                      (2, 3, None)]
    tea = client.get(URL, params={"action": "document", "id": "tea.md"}).json()
    assert [c["section"] for c in tea["chunks"]] == [None, "Green tea", "Black tea"]


def test_the_same_upload_again_skips_unchanged_files(client: TestClient) -> None:
    first = client.post(UPLOAD, files=files(("same.txt", b"Nothing changes here.")))
    assert wait_for(client, first.json()["jobId"])["documents"][0]["status"] == "done"
    again = client.post(UPLOAD, files=files(("same.txt", b"Nothing changes here.")))
    assert wait_for(client, again.json()["jobId"])["documents"][0]["status"] == "skipped"
    changed = client.post(UPLOAD, files=files(("same.txt", b"Now it has changed.")))
    assert wait_for(client, changed.json()["jobId"])["documents"][0]["status"] == "replaced"  # issue 27 item 7
    shown = client.get(URL, params={"action": "document", "id": "same.txt"}).json()
    assert [c["text"] for c in shown["chunks"]] == ["Now it has changed."]


def test_per_file_metadata_gives_the_id_title_and_metadata(client: TestClient) -> None:
    metadata = {"handbook.docx": {"id": "hr/handbook", "title": "HR Handbook", "metadata": {"date": "2025-01-01"}}}
    r = client.post(UPLOAD, files=files(("handbook.docx", docx_bytes(DOCX_BLOCKS))),
                    data={"metadata": json.dumps(metadata), "root": "hr-share"})
    assert r.status_code == 202 and r.json()["files"][0]["documents"] == ["hr/handbook"]
    assert wait_for(client, r.json()["jobId"])["status"] == "done"
    shown = client.get(URL, params={"action": "document", "id": "hr/handbook"}).json()
    assert shown["document"]["title"] == "HR Handbook" and shown["document"]["root"] == "hr-share"
    assert all(c["date"] == 20250101 for c in shown["chunks"]) and shown["chunks"][1]["section"] == "年假"
    listed = client.get(URL, params={"action": "documents", "root": "hr-share"}).json()
    assert [d["id"] for d in listed["documents"]] == ["hr/handbook"]


def test_only_unreadable_files_is_a_422_naming_each(client: TestClient) -> None:
    before = inventory_ids(client)
    r = client.post(UPLOAD, files=files(("broken.docx", docx_bytes(DOCX_BLOCKS)[:700]), ("empty.txt", b"   ")))
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "no_documents"
    assert error["message"].endswith("a document: broken.docx: not a readable DOCX (BadZipFile: File is not a zip "
                                     "file); empty.txt: no text found"), error["message"]  # curl shows only this
    assert [(f["name"], f["error"]["code"]) for f in error["details"]["files"]] == [
        ("broken.docx", "corrupt_file"), ("empty.txt", "empty_document")]
    assert inventory_ids(client) == before


@pytest.mark.parametrize(
    ("upload", "data", "status", "code"),
    [
        (files(*((f"f{i}.txt", b"x") for i in range(4))), {}, 422, "too_many_files"),
        (files(("big.txt", b"x" * 60_000)), {}, 413, "file_too_large"),
        (files(("a.txt", b"x" * 45_000), ("b.txt", b"x" * 45_000), ("c.txt", b"x" * 45_000))
         + files(("d.txt", b"x" * 45_000), ("e.txt", b"x" * 45_000)), {}, 413, "payload_too_large"),
        (files(("tool.exe", b"MZ")), {}, 415, "unsupported_file_type"),
        (files(("a.txt", b"x"), ("a.txt", b"y")), {}, 422, "duplicate_file_names"),
        (files(("a.txt", b"x")), {"metadata": "{not json"}, 422, "invalid_request"),
        (files(("a.txt", b"x")), {"metadata": json.dumps({"other.txt": {}})}, 422, "invalid_request"),
        (files(("a.txt", b"x")), {"metadata": json.dumps({"a.txt": {"colour": "red"}})}, 422, "invalid_request"),
    ],
)
def test_limits_and_bad_requests_are_4xx_and_nothing_is_written(
    client: TestClient, upload: Any, data: dict[str, str], status: int, code: str
) -> None:
    before = inventory_ids(client)
    r = client.post(UPLOAD, files=upload, data=data)
    assert r.status_code == status, r.text
    assert r.json()["success"] is False and r.json()["error"]["code"] == code
    assert inventory_ids(client) == before


def test_an_unstorable_string_in_file_metadata_names_its_path(client: TestClient) -> None:
    metadata = '{"a.txt": {"metadata": {"entities": {"PERSON": ["\\ud83d"]}}}}'
    r = client.post(UPLOAD, files=files(("a.txt", b"x")), data={"metadata": metadata})
    assert r.status_code == 422
    [detail] = r.json()["error"]["details"]
    assert detail["loc"] == ["body", "metadata", "a.txt", "metadata", "entities", "PERSON", 0]


def test_unknown_ids_are_404(client: TestClient) -> None:
    for action, code in (("document", "document_not_found"), ("job", "job_not_found")):
        r = client.get(URL, params={"action": action, "id": "nope"})
        assert (r.status_code, r.json()["error"]["code"]) == (404, code)
        assert client.get(URL, params={"action": action}).status_code == 422


def test_delete_removes_the_document_from_the_inventory(client: TestClient) -> None:
    r = client.post(UPLOAD, files=files(("gone.txt", b"soon gone")))
    wait_for(client, r.json()["jobId"])
    assert "gone.txt" in inventory_ids(client)
    assert client.post(URL, json={"action": "delete-document", "id": "gone.txt"}).json()["deletedChunks"] == 1
    assert "gone.txt" not in inventory_ids(client)


def test_uploads_need_a_key_when_keys_are_configured(tmp_path: Path) -> None:
    with running_app(tmp_path, api_keys="k1") as c:
        assert c.post(UPLOAD, files=files(("a.txt", b"x"))).status_code == 401
        assert c.post(UPLOAD, files=files(("a.txt", b"x")), headers={"x-api-key": "k1"}).status_code == 202


def test_an_id_with_a_control_character_is_a_422(client: TestClient) -> None:
    r = client.get(URL, params={"action": "document", "id": "a\x08b"})
    assert (r.status_code, r.json()["error"]["code"]) == (422, "invalid_request")


@pytest.mark.parametrize(("name", "size", "said"), [
    ("README", 10, "README: a file name without a suffix names no type (supported: .md"),
    ("plan.key", 10, "plan.key: .key is not a supported type (supported: .md"),
    ("scan.txt", 60_000, "scan.txt is 60.0 KB, over the 50.0 KB a file may have (AER_UPLOAD_MAX_FILE_BYTES)"),
])
def test_a_refused_file_is_told_why_in_plain_words(client: TestClient, name: str, size: int, said: str) -> None:
    r = client.post(UPLOAD, files=files((name, b"x" * size)))
    assert r.status_code in (413, 415) and said in r.json()["error"]["message"], r.text


def test_an_unsupported_file_beside_readable_ones_fails_alone(client: TestClient) -> None:
    r = client.post(UPLOAD, files=files(("ferry.md", b"# Ferry\n\nThe ferry leaves at 07:40.\n"),
                                        ("ferry.key", b"PK\x03\x04slides")))
    assert r.status_code == 202, r.text
    by_name = {f["name"]: f for f in r.json()["files"]}
    assert by_name["ferry.md"]["status"] == "accepted" and by_name["ferry.md"]["documents"] == ["ferry.md"]
    assert by_name["ferry.key"]["status"] == "failed"
    assert by_name["ferry.key"]["error"]["code"] == "unsupported_file_type"
    assert ".key is not a supported type (supported: .md" in by_name["ferry.key"]["error"]["message"]


def test_a_file_repeated_under_another_name_is_kept_once_and_said(client: TestClient) -> None:
    """The same bytes under two names in one upload (``rota.csv`` and ``rota (1).csv``): the first is ingested,
    the other is left out and told which file was kept, instead of a second document every search finds too. A
    repeat the user gave its own id in metadata stays apart."""
    rota = b"day,nurse\nMonday,Ilse Brandt\nTuesday,Oren Vasquez\n"
    r = client.post(UPLOAD, files=files(("rota.csv", rota), ("rota (1).csv", rota), ("notes.md", b"# Notes\n\nx y z\n")))
    assert r.status_code == 202, r.text
    body = r.json()
    by_name = {f["name"]: f for f in body["files"]}
    assert by_name["rota.csv"]["status"] == "accepted" and by_name["notes.md"]["status"] == "accepted"
    twin = by_name["rota (1).csv"]
    assert twin["status"] == "duplicate" and twin["duplicateOf"] == "rota.csv" and twin["documents"] == []
    assert "only rota.csv is ingested" in twin["message"]
    assert body["duplicates"] == [{"name": "rota (1).csv", "keptAs": "rota.csv"}] and body["documents"] == 2
    job = wait_for(client, body["jobId"])
    assert job["status"] == "done" and {d["id"] for d in job["documents"]} == {"rota.csv", "notes.md"}
    assert "rota (1).csv" not in inventory_ids(client)
    apart = client.post(UPLOAD, files=files(("a-rota.csv", rota), ("b-rota.csv", rota)),
                        data={"metadata": json.dumps({"b-rota.csv": {"id": "b-rota.csv"}})}).json()
    assert [f["status"] for f in apart["files"]] == ["accepted", "accepted"] and apart["duplicates"] == []
    wait_for(client, apart["jobId"])


def test_a_file_name_too_long_for_an_id_says_so_and_what_to_do(client: TestClient) -> None:
    long_name = "quarterly-report-" + "x" * 260 + ".txt"
    r = client.post(UPLOAD, files=files((long_name, b"The Ilford depot shipped 40 crates."),
                                        ("short.txt", b"The Ilford depot opened in 2001.")))
    assert r.status_code == 202, r.text
    failed = r.json()["files"][0]
    assert failed["status"] == "failed" and failed["error"]["code"] == "invalid_file_name"
    message = failed["error"]["message"]
    assert "281 characters" in message and "256" in message and "shorten" in message
    assert "String should have" not in message
    # with a shorter id given in the metadata, the same file goes in
    r = client.post(UPLOAD, files=files((long_name, b"The Ilford depot shipped 40 crates.")),
                    data={"metadata": json.dumps({long_name: {"id": "ilford-report.txt"}})})
    assert r.status_code == 202, r.text
    assert wait_for(client, r.json()["jobId"])["status"] == "done"
    assert "ilford-report.txt" in inventory_ids(client)


def test_an_unreadable_multipart_body_is_400_invalid_multipart_saying_why(client: TestClient) -> None:
    before = inventory_ids(client)
    # a file name over the multipart parser's 4 KB part-header limit
    r = client.post(UPLOAD, files=files(("n" * 5000 + ".txt", b"The Ilford depot shipped 40 crates.")))
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_multipart" and "4 KB" in error["message"] and "file name" in error["message"]
    # a body cut before its closing boundary
    cut = b'--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhello'
    r = client.post(UPLOAD, content=cut, headers={"content-type": "multipart/form-data; boundary=xyz"})
    assert r.status_code in (400, 422), r.text
    assert r.json()["error"]["code"] != "http_error"
    assert inventory_ids(client) == before
