"""The page uploads a whole folder: each document's id is its path in the folder (two report.md in two
subfolders are two documents), and a file that writes over an indexed one shows as replaced."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from app.schemas import API_PATH
from tests.support.browser import Watched, watch
from tests.support.servers import ServerProcess

IDS = ["north/report.md", "south/report.md"]


def delete_quietly(server: ServerProcess, *ids: str) -> None:
    for doc_id in ids:
        r = httpx.post(server.base_url + API_PATH, json={"action": "delete-document", "id": doc_id}, timeout=120)
        assert r.status_code in (200, 404), r.text


def test_a_folder_upload_keeps_paths_as_ids_and_shows_what_it_replaced(
        page: Watched, server: ServerProcess, tmp_path: Path) -> None:
    folder = tmp_path / "depots"
    for name, text in (("north", "The north depot stores 40 pallets."), ("south", "The south depot stores 75 crates.")):
        (folder / name).mkdir(parents=True)
        (folder / name / "report.md").write_text(f"# Report\n\n{text}\n", encoding="utf-8")
    (folder / "north" / "photo.bin").write_bytes(b"\x00\x01")  # not a type the service reads: left out
    p = page.goto("/#documents")
    try:
        p.set_input_files("#upload-folder", str(folder))
        expect(p.locator("#upload-preview li b")).to_have_text(IDS)
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
            p.click("#upload-submit")
        assert uploaded.value.status == 202
        body = uploaded.value.json()
        assert [f["documents"] for f in body["files"]] == [[i] for i in IDS] and body["replaced"] == []
        panel = p.locator(f'.job[data-job="{body["jobId"]}"]')
        expect(panel.locator(".job-head .status-badge")).to_have_text(re.compile("^(done|failed)$"), timeout=120_000)
        listed = httpx.get(server.base_url + API_PATH, params={"action": "documents", "root": "depots"}, timeout=60)
        assert sorted(d["id"] for d in listed.json()["documents"]) == IDS

        (folder / "north" / "report.md").write_text("# Report\n\nThe north depot stores 44 pallets.\n", encoding="utf-8")
        p.set_input_files("#upload-folder", str(folder))
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as again:
            p.click("#upload-submit")
        body = again.value.json()
        assert body["replaced"] == ["north/report.md"]
        result = p.locator("#upload-result")
        expect(result.locator("li", has_text="north/report.md").locator(".replaced")).to_have_text(
            "replaces the indexed version")
        panel = p.locator(f'.job[data-job="{body["jobId"]}"]')
        expect(panel.locator(".job-head .status-badge")).to_have_text("done", timeout=120_000)
        expect(panel).to_contain_text("1 replaced an earlier version")
        expect(panel.locator("tr", has_text="north/report.md")).to_contain_text("replaced")
        expect(panel.locator("tr", has_text="south/report.md")).to_contain_text("skipped")

        # the south report renamed on the user's disk and chosen on its own: it renames the indexed one
        renamed = tmp_path / "south-depot.md"
        renamed.write_bytes((folder / "south" / "report.md").read_bytes())
        p.set_input_files("#upload-files", str(renamed))
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as third:
            p.click("#upload-submit")
        assert third.value.json()["renamed"] == [{"from": "south/report.md", "to": "south/south-depot.md"}]
        expect(result.locator("li", has_text="south-depot.md").locator(".renamed")).to_have_text(
            "renames south/report.md")
    finally:
        delete_quietly(server, *IDS, "south/south-depot.md")


def test_files_the_service_does_not_read_are_named_as_left_out_and_the_rest_go_in(
        page: Watched, server: ServerProcess, tmp_path: Path) -> None:
    """A new user's folder held a spreadsheet: the page left it out without a word (a folder), or sent it and the
    whole upload was refused with 415 (the files picker with "All files"). Now both name it and upload the rest."""
    folder = tmp_path / "estate"
    folder.mkdir()
    (folder / "notes.md").write_text("# Estate\n\nThe estate's gardens lie at 1,150 metres.\n", encoding="utf-8")
    (folder / "prices.xlsx").write_bytes(b"PK\x03\x04not really a workbook")
    (folder / ".DS_Store").write_bytes(b"\x00")  # hidden: left out without a word
    (folder / "sub").mkdir()
    (folder / "sub" / "photo.png").write_bytes(b"\x89PNG")
    p = page.goto("/#documents")
    try:
        for chooser, files, named in (("#upload-folder", str(folder), "prices.xlsx"),
                                      ("#upload-files", [str(folder / "notes.md"), str(folder / "prices.xlsx")],
                                       "prices.xlsx")):
            p.set_input_files(chooser, files)
            expect(p.locator("#upload-preview li b")).to_have_text(["notes.md"])
            note = p.locator("#upload-preview .left-out")
            expect(note).to_contain_text(named)
            expect(note).not_to_contain_text("DS_Store")
            with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
                p.click("#upload-submit")
            assert uploaded.value.status == 202, uploaded.value.text()
            assert [f["name"] for f in uploaded.value.json()["files"]] == ["notes.md"]
            expect(p.locator("#upload-result .left-out")).to_contain_text(named)
        p.set_input_files("#upload-folder", str(folder / "sub"))  # a folder with nothing the service reads
        p.click("#upload-submit")
        expect(p.locator("#upload-result")).to_contain_text("Left out, not a type the service reads")
        expect(p.locator("#upload-result")).to_contain_text("photo.png")
    finally:
        delete_quietly(server, "notes.md")


def test_a_file_chosen_twice_under_two_names_is_uploaded_once_and_the_page_says_which(
        page: Watched, server: ServerProcess, tmp_path: Path) -> None:
    """The same bytes as ``shifts.csv`` and ``shifts (1).csv`` (a browser's download twice): the page says the copy
    was left out and names the file kept; one document goes in."""
    text = "date,nurse\n2026-05-02,Imke Soler\n2026-05-09,Radu Ferreira\n"
    for name in ("shifts (1).csv", "shifts.csv"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    p = page.goto("/#documents")
    try:
        p.set_input_files("#upload-files", [str(tmp_path / "shifts (1).csv"), str(tmp_path / "shifts.csv")])
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
            p.click("#upload-submit")
        body = uploaded.value.json()
        assert body["duplicates"] == [{"name": "shifts (1).csv", "keptAs": "shifts.csv"}] and body["documents"] == 1
        result = p.locator("#upload-result")
        expect(result).to_contain_text("1 duplicate file(s) left out")
        expect(result.locator("li", has_text="shifts (1).csv").locator(".duplicate")).to_have_text(
            "same file as shifts.csv: left out")
        panel = p.locator(f'.job[data-job="{body["jobId"]}"]')
        expect(panel.locator(".job-head .status-badge")).to_have_text("done", timeout=120_000)
    finally:
        delete_quietly(server, "shifts.csv")


def test_more_files_than_one_upload_takes_go_in_parts(browser: Browser, tmp_path: Path) -> None:
    """A folder of more files than AER_UPLOAD_MAX_FILES was refused whole (too_many_files) and the user had to split
    it by hand; the page now sends it in parts of the server's limit, each a job, and says so."""
    folder = tmp_path / "ledgers"
    folder.mkdir()
    names = [f"ledger-{i}.md" for i in range(7)]
    for i, name in enumerate(names):
        (folder / name).write_text(f"# Ledger {i}\n\nThe Wexford ledger {i} lists {100 + i} barrels.\n", encoding="utf-8")
    server = ServerProcess(tmp_path, {"AER_DATA_DIR": str(tmp_path / "data"), "AER_UPLOAD_MAX_FILES": "3"}).start()
    watched = watch(browser, server.base_url)
    watched.expect_status(422)  # the first, whole upload's too_many_files
    try:
        p = watched.goto("/#documents")
        p.set_input_files("#upload-folder", str(folder))
        p.locator("#upload-form summary", has_text="More options").click()
        p.fill("#upload-metadata", json.dumps({"ledger-5.md": {"title": "Fifth ledger"}}))
        p.click("#upload-submit")
        result = p.locator("#upload-result")
        expect(result).to_contain_text("In 3 uploads of at most 3 file(s): 7 file(s) read", timeout=120_000)
        expect(p.locator(".job .job-head .status-badge")).to_have_count(3)
        for badge in p.locator(".job .job-head .status-badge").all():
            expect(badge).to_have_text("done", timeout=120_000)
        listed = httpx.get(server.base_url + API_PATH, params={"action": "documents", "root": "ledgers"}, timeout=60)
        documents = {d["id"]: d["title"] for d in listed.json()["documents"]}
        assert sorted(documents) == names and documents["ledger-5.md"] == "Fifth ledger"
        watched.check()
    finally:
        watched.page.context.close()
        server.stop()
