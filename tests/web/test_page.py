"""The web page in a real browser (headless Chromium) against real servers: ask and see the route and the
citations, the not-found state; upload real files (one unreadable), follow the job, list, filter and open the
documents, ask about a file and see its page or section cited, delete; add a document (a long one as a job) and
find it; add an alias and see the next question use it, an alias conflict and a look-alike name explained; the
evaluation report, a server that needs an API key, keyboard use, phone width, and Swagger's "Try it out"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, Route, expect

from app.cli import SEED_QUESTIONS
from app.cli.query import plain_reason as plain_reason_of_cli
from app.schemas import API_PATH
from tests.support.browser import API_KEY, LLM_MODEL, PHONE, SYNC_MAX_CHARS, Watched, ask, watch
from tests.support.documents import DOCX_BLOCKS, MARKDOWN, TEXT, docx_bytes, pdf_bytes
from tests.support.servers import ServerProcess

COMPARISON = "特斯拉和SpaceX谁先成立？"
UNANSWERABLE = "火星上的第一座城市叫什么名字？"  # nothing in the demo corpus is about a city on Mars


def plain_reason(reason: str) -> str:
    """An answerability reason as the page shows it: without the score it ends with (shown apart, in words), and
    an answer's doubt without its "answered although" (the badge says "supported, with a doubt")."""
    return plain_reason_of_cli(reason).removeprefix("answered although ")


def api(server: ServerProcess, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"X-API-Key": key} if key else {}
    r = httpx.post(server.base_url + API_PATH, json=body, headers=headers, timeout=120)
    assert r.status_code == 200, r.text
    return dict(r.json())


def visited(page: Page) -> list[str]:
    return page.eval_on_selector_all(".route-svg .node.visited", "els => els.map(e => e.dataset.node)")


def shot(page: Page, folder: Path, name: str, target: Locator | None = None) -> None:
    """A screenshot of what the window shows (or of one element) for the README."""
    if target is not None:
        page.evaluate("document.querySelector('.top').style.position = 'static'")  # no sticky header over it
        target.screenshot(path=str(folder / name))
        page.evaluate("document.querySelector('.top').style.position = ''")
    else:
        page.screenshot(path=str(folder / name))


# -- Ask ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("question", SEED_QUESTIONS)
def test_each_seed_question_shows_the_route_and_openable_citations(
    page: Watched, server: ServerProcess, screenshots: Path, question: str
) -> None:
    expected = api(server, {"action": "query", "question": question})
    p = page.goto()
    with p.expect_response(lambda r: r.url.endswith(API_PATH) and r.request.method == "POST") as posted:
        status = ask(p, question)
    # The page streamed it: the request asked for events, and the answer came as server-sent events.
    assert json.loads(posted.value.request.post_data or "{}")["stream"] is True
    assert posted.value.headers["content-type"].startswith("text/event-stream")
    assert status == expected["status"]

    # The route: every node that ran is drawn visited, numbered in order; the steps list has one row per step.
    steps = [s["node"] for s in expected["workflow"]["steps"]]
    assert set(visited(p)) == {*steps, "__start__", "__end__"}
    assert p.locator("ol.steps li").count() == len(steps)
    assert p.locator("ol.steps li .step-node").all_inner_texts() == steps
    badge = p.locator('.route-svg .node[data-node="parse_query"] .badge text')
    assert badge.text_content() == "1"
    first_route = expected["routingDecision"]["action"]
    search_node = {"structured_search": "search_structured", "semantic_search": "search_semantic",
                   "hybrid_search": "search_hybrid"}[first_route]
    assert search_node in visited(p)

    dialog = p.locator("#passage-dialog")
    if status == "answered":
        # The answer's citation markers are buttons; each opens its passage with the question's terms marked.
        citations = expected["citations"]
        buttons = p.locator(".answer-text .cite")
        assert buttons.count() == len(re.findall(r"\[\d+\]", expected["answer"])) >= 1
        buttons.first.click()
        expect(dialog).to_be_visible()
        assert citations[0]["docId"] in dialog.inner_text()
        assert dialog.locator("mark").count() >= 1
    else:
        # No 2024 launch in Beijing is indexed: the plain sentence, and the closest passages only as related.
        card = p.locator(".answer-card.not-found")
        assert expected["answer"] in card.inner_text() and p.locator(".answer-text").count() == 0
        assert card.locator(".related li").count() == len(expected["related"]) >= 1
        card.locator(".related li button").first.click()
        expect(dialog).to_be_visible()
    p.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # The parsed query, the entities with their normalization, the results with score components, the timings.
    assert expected["queryAnalysis"]["intent"] in p.locator(".side").inner_text()
    for entity in expected["entityValidation"]:
        row = p.locator(".side table.data tr", has_text=entity["text"]).first
        assert entity["match"] in row.inner_text()
        if entity["valid"]:
            assert entity["standardName"] in row.inner_text()
    results = p.locator("table.data", has=p.locator("caption", has_text="Top results"))
    assert results.locator("tbody tr").count() == len(expected["retrievalDetails"]["topResults"])
    assert p.locator("ol.timings li").count() == len(steps)
    if question == SEED_QUESTIONS[0]:
        p.evaluate("window.scrollTo(0, 0)")
        shot(p, screenshots, "ask.png")
    elif question == SEED_QUESTIONS[1]:
        shot(p, screenshots, "ask-route.png", p.locator(".route-card"))


def test_a_relaxed_constraint_is_annotated_on_the_route_with_its_reason(page: Watched) -> None:
    p = page.goto()
    ask(p, SEED_QUESTIONS[1])  # 2024年苹果在北京发布的产品: no 2024 document, so DATE is dropped
    relax = p.locator('.route-svg .node[data-node="relax_constraints"]')
    assert "dropped DATE=2024" in (relax.text_content() or "")
    assert "hits 0 → " in (p.locator('.route-svg .node[data-node="search_structured"]').text_content() or "")
    assert "why: lowest priority (DATE)" in p.locator("ol.steps").inner_text()
    # Selecting a node on the picture highlights its steps (keyboard: focus it and press Enter).
    relax.focus()
    p.keyboard.press("Enter")
    assert p.locator("ol.steps li.selected .step-node").all_inner_texts() == ["relax_constraints"]
    # The route-only view keeps the visited nodes and drops the others.
    p.get_by_role("button", name="Show the route only").click()
    assert "search_semantic" not in p.eval_on_selector_all(".route-svg .node", "els => els.map(e => e.dataset.node)")
    assert "relax_constraints" in visited(p)


def test_a_planned_question_shows_its_sub_questions(page: Watched, screenshots: Path) -> None:
    p = page.goto()
    assert ask(p, COMPARISON) == "answered"
    assert {"plan_query", "execute_step", "monitor_sufficiency"} <= set(visited(p))
    plan = p.locator("section.card").filter(has=p.get_by_role("heading", name="Plan", exact=True))
    text = plan.inner_text()
    assert "q1" in text and "q2" in text and "特斯拉" in text and "SpaceX" in text
    assert "sub-question(s)" in (p.locator('.route-svg .node[data-node="plan_query"]').text_content() or "")
    shot(p, screenshots, "ask-planned.png", p.locator(".route-card"))


def test_a_question_the_corpus_cannot_answer_shows_the_sentence_and_the_related_passages_apart(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    expected = api(server, {"action": "query", "question": UNANSWERABLE})
    assert expected["status"] == "no_results" and expected["answerability"]["decision"] == "not_found"
    p = page.goto()
    assert ask(p, UNANSWERABLE) == "no_results"
    expect(p.locator(".run-status .status-badge")).to_have_text("not found")  # words, not the API's no_results
    expect(p.locator(".turn-a .status-badge").last).to_have_text("not found")
    card = p.locator(".answer-card.not-found")
    expect(card).to_be_visible()
    assert expected["answer"] in card.inner_text()
    expect(card.locator(".answerability .status-badge")).to_have_text("not in the documents")  # words, not not_found
    assert plain_reason(expected["answerability"]["reason"]) in card.inner_text()
    assert p.locator(".answer-text").count() == 0 and p.locator(".sources").count() == 0  # never shown as an answer
    related = card.locator(".related li")
    assert related.count() == len(expected["related"]) >= 1
    related.first.locator("button").click()
    expect(p.locator("#passage-dialog")).to_be_visible()
    p.keyboard.press("Escape")
    p.evaluate("window.scrollTo(0, 0)")
    shot(p, screenshots, "ask-not-found.png")


def test_an_answer_shows_its_short_span_and_the_checker_s_corrections(page: Watched, server: ServerProcess) -> None:
    """answerSpan and answerability as the server sends them; corrections (what the answer checker changed in an
    LLM answer; no writer here makes any) added to the real response in the schema's shape, a list of strings."""
    corrections = ["dropped a sentence whose year no cited passage states"]
    expected = api(server, {"action": "query", "question": SEED_QUESTIONS[0]})
    assert expected["answerSpan"] and expected["answerability"]["decision"] == "answerable"

    def checked(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        body["corrections"] = corrections
        route.fulfill(response=response, json=body)

    p = page.goto()
    p.click(".options summary")
    p.uncheck("#opt-stream")  # a plain JSON answer this time
    p.route("**" + API_PATH, checked)
    assert ask(p, SEED_QUESTIONS[0]) == "answered"
    card = p.locator(".answer-card")
    expect(card.locator(".answer-span strong")).to_have_text(expected["answerSpan"])
    expect(card.locator(".answerability")).to_contain_text(plain_reason(expected["answerability"]["reason"]))
    expect(card.locator(".corrections li")).to_have_text(corrections)


def test_a_message_that_asks_several_things_shows_each_part_with_its_result(page: Watched, server: ServerProcess
                                                                          ) -> None:
    """Each part of the response's ``parts`` in the answer card: its question, answered or not found, its answer
    with citation buttons numbered as the whole answer's (the parts added to a real response in the schema's
    shape)."""
    real = api(server, {"action": "query", "question": SEED_QUESTIONS[0]})
    parts = [{"subQuestion": "q1", "question": "First part?", "status": "answered", "answer": real["answer"],
              "answerSpan": real["answerSpan"], "answerability": real["answerability"], "citations": real["citations"]},
             {"subQuestion": "q2", "question": "Second part?", "status": "no_results",
              "answer": "The indexed documents do not contain an answer to this question.", "answerSpan": None,
              "answerability": {**real["answerability"], "decision": "not_found", "reason": "no passage states it"},
              "citations": []}]

    def with_parts(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "parts": parts})

    p = page.goto()
    p.click(".options summary")
    p.uncheck("#opt-stream")
    p.route("**" + API_PATH, with_parts)
    assert ask(p, SEED_QUESTIONS[0]) == "answered"
    items = p.locator(".answer-card .answer-parts > li")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator(".part-question")).to_contain_text("First part?")
    expect(items.nth(0).locator(".status-badge")).to_have_text("answered")
    expect(items.nth(0).locator("button.cite").first).to_have_text(f"[{real['citations'][0]['index']}]")
    expect(items.nth(1).locator(".status-badge")).to_have_text("not found")
    expect(items.nth(1)).to_contain_text("no passage states it")


# -- Documents -------------------------------------------------------------------------------------------------

UPLOAD_ROOT = "web-test-uploads"
ORCHID_PAGES = [
    ["Annual report of the Orchid Company.", "The company was founded in 1998 in Rotterdam."],
    ["Results", "In 2024 the Orchid Company opened a research lab in Shanghai."],
    ["Outlook", "The company plans a second factory in Porto in 2026."],
]


def upload_fixtures(folder: Path) -> list[Path]:
    """Small real files of each kind the server reads (a PDF of three pages, Markdown and DOCX with headings, text),
    and an encrypted PDF it cannot read."""
    contents = {
        "orchid-report.pdf": pdf_bytes(ORCHID_PAGES, title="Orchid Company Annual Report"),
        "tea.md": MARKDOWN.encode(),
        "office.txt": TEXT.encode(),
        "handbook.docx": docx_bytes(DOCX_BLOCKS),
        "secret.pdf": pdf_bytes([["top secret numbers"]], password="hunter2"),
    }
    for name, data in contents.items():
        (folder / name).write_bytes(data)
    return [folder / name for name in contents]


def get(server: ServerProcess, **params: Any) -> httpx.Response:
    return httpx.get(server.base_url + API_PATH, params=params, timeout=120)


def delete_quietly(server: ServerProcess, *ids: str) -> None:
    """Leave the shared server as the test found it (a document the test deleted already answers 404)."""
    for doc_id in ids:
        r = httpx.post(server.base_url + API_PATH, json={"action": "delete-document", "id": doc_id}, timeout=120)
        assert r.status_code in (200, 404), r.text


def facts(dialog: Locator) -> dict[str, str]:
    """A dialog's definition list as {term: description}."""
    return dict(dialog.locator("dl.facts").first.evaluate(
        "dl => [...dl.querySelectorAll('dt')].map(dt => [dt.textContent, dt.nextElementSibling.textContent])"))


def filter_inventory(p: Page, title: str = "", source: str = "", root: str = "") -> None:
    p.fill("#inv-title", title)
    p.fill("#inv-source", source)
    p.fill("#inv-root", root)
    p.press("#inv-root", "Enter")


def follow(p: Page, job_id: str) -> Locator:
    """The job's panel, once the page shows it finished."""
    panel = p.locator(f'.job[data-job="{job_id}"]')
    expect(panel.locator(".job-head .status-badge")).to_have_text(re.compile("^(done|failed)$"))
    return panel


def test_upload_files_follow_the_job_open_a_document_ask_and_delete(
    page: Watched, server: ServerProcess, screenshots: Path, tmp_path: Path
) -> None:
    files = upload_fixtures(tmp_path)
    read = ["orchid-report.pdf", "tea.md", "office.txt", "handbook.docx"]
    p = page.goto("/#documents")
    p.on("dialog", lambda d: d.accept())  # the delete confirmation
    try:
        p.set_input_files("#upload-files", [str(f) for f in files])
        expect(p.locator("#upload-preview li")).to_have_count(5)
        p.click("#upload-form summary")
        p.fill("#upload-root", UPLOAD_ROOT)
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
            p.click("#upload-submit")
        assert uploaded.value.status == 202
        job_id = uploaded.value.json()["jobId"]

        # Each file's outcome at once: the encrypted PDF is named with its reason, the others go on.
        result = p.locator("#upload-result")
        expect(result).to_contain_text("1 of 5 file(s) could not be read; 4 document(s) queued.")
        expect(result.locator("li", has_text="secret.pdf")).to_have_text(
            "secret.pdf: encrypted_file: the PDF is encrypted and needs a password")
        for name in read:
            expect(result.locator("li", has_text=name)).to_have_text(f"{name}: 1 document(s)")

        # The job is followed to its end: status, progress and each document's outcome, as the API has them.
        panel = follow(p, job_id)
        job = get(server, action="job", id=job_id).json()["job"]
        progress = job["progress"]
        assert job["status"] == "done" and (progress["done"], progress["failed"], progress["total"]) == (4, 1, 5)
        expect(panel.locator(".job-head .status-badge")).to_have_text("done")
        expect(panel).to_contain_text(f"5 of 5 document(s) · 1 failed · {progress['chunks']} chunk(s)")
        assert panel.locator("progress").evaluate("bar => [bar.value, bar.max]") == [5, 5]
        rows = panel.locator("tbody tr")
        expect(rows).to_have_count(5)
        for outcome in job["documents"]:
            row = rows.filter(has=p.get_by_text(outcome["id"], exact=True))
            expect(row.locator(".status-badge")).to_have_text(outcome["status"])
            expect(row.locator("td").nth(2)).to_have_text(str(outcome["chunks"]))
        expect(rows.filter(has_text="secret.pdf").locator(".outcome-error")).to_have_text(
            "encrypted_file: the PDF is encrypted and needs a password")
        assert p.evaluate("sessionStorage.getItem('aer.jobs')") == "[]"  # nothing left to follow after a reload

        # The inventory, paginated: the demo corpus and the new documents, as many as the API counts.
        total = get(server, action="documents", limit=1).json()["total"]
        assert total > 40
        expect(p.locator("#inv-page")).to_have_text(f"1–20 of {total}")
        p.click("#inv-next")
        expect(p.locator("#inv-page")).to_have_text(f"21–40 of {total}")
        expect(p.locator("#inv-prev")).to_be_enabled()
        p.click("#inv-prev")
        expect(p.locator("#inv-page")).to_have_text(f"1–20 of {total}")
        # Filtered by file, by title, by folder.
        inventory = p.locator("#inventory tbody tr")
        filter_inventory(p, source=".pdf")
        expect(inventory).to_have_count(1)
        expect(inventory).to_contain_text("Orchid Company Annual Report")
        expect(inventory.locator("td").nth(3)).to_have_text("3")  # one chunk per page
        # a size never breaks between its number and unit: "582 B" wrapped to "582" over "B" in a narrow column
        assert p.evaluate("import('./static/js/documents.js').then((m) => [582, 3200, 5e6].map(m.bytesText))") == [
            "582\u00a0B", "3.1\u00a0KB", "4.8\u00a0MB"]
        expect(inventory.locator("td").nth(4)).to_contain_text("\u00a0")
        filter_inventory(p, title="tea handbook")
        expect(p.locator("#inv-page")).to_have_text("1–1 of 1")
        expect(inventory).to_contain_text("tea.md")
        filter_inventory(p, root=UPLOAD_ROOT)
        expect(p.locator("#inv-page")).to_have_text("1–4 of 4")
        assert sorted(inventory.locator("td:first-child").all_inner_texts()) == sorted(read)
        p.locator("#inv-root").blur()
        p.evaluate("window.scrollTo(0, 0)")
        p.screenshot(path=str(screenshots / "documents.png"), full_page=True)

        # A document opens with its chunks: page or section, entity tags, text.
        p.locator("#inventory").get_by_role("button", name="Open orchid-report.pdf").click()
        dialog = p.locator("#document-dialog")
        expect(dialog).to_be_visible()
        shown = get(server, action="document", id="orchid-report.pdf").json()
        assert facts(dialog)["Folder"] == UPLOAD_ROOT and facts(dialog)["File"] == "orchid-report.pdf"
        chunks = dialog.locator("ol.chunks > li")
        expect(chunks).to_have_count(3)
        for item, chunk in zip(chunks.all(), shown["chunks"], strict=True):
            expect(item.locator(".where")).to_contain_text(f"p. {chunk['page']}")
            expect(item.locator(".chunk-text")).to_have_text(chunk["text"])
            for kind, names in chunk["entities"].items():
                expect(item.locator(".tag", has_text=kind)).to_have_text(f"{kind} {', '.join(names)}")
        assert "上海" in shown["chunks"][1]["entities"]["LOCATION"]  # "Shanghai" tagged by its alias
        shot(p, screenshots, "document.png")
        p.keyboard.press("Escape")
        p.locator("#inventory").get_by_role("button", name="Open handbook.docx").click()
        expect(dialog.locator("ol.chunks > li", has_text="病假超过三天").locator(".where")).to_have_text("§ 病假")
        p.keyboard.press("Escape")

        # A question about a file: its citation shows the file and the page (or the section).
        p.click("#tab-ask")
        question = "When was the Orchid Company founded?"
        expected = api(server, {"action": "query", "question": question})
        first = expected["citations"][0]
        assert (first["source"], first["page"], first["section"]) == ("orchid-report.pdf", 1, None)
        assert ask(p, question) == "answered"
        source = p.locator(".sources li").first
        expect(source.locator(".where")).to_have_text("orchid-report.pdf, p. 1")
        shot(p, screenshots, "ask-file-citation.png", p.locator(".answer-card"))
        source.locator(".cite").click()
        passage = p.locator("#passage-dialog")
        expect(passage).to_be_visible()
        where = facts(passage)
        assert (where["File"], where["Page"]) == ("orchid-report.pdf", "1") and "Section" not in where
        expect(passage.locator(".passage-text")).to_contain_text("founded in 1998")
        passage.get_by_role("button", name="orchid-report.pdf").click()  # the whole document from a passage
        expect(passage).to_be_hidden()
        expect(dialog.locator("#document-title")).to_have_text("Orchid Company Annual Report")
        p.keyboard.press("Escape")
        assert ask(p, "病假需要什么证明？") == "answered"
        expect(p.locator(".sources li").first.locator(".where")).to_have_text("handbook.docx § 病假")

        # Delete: from the list, and from an open document; both are gone from the inventory and the index.
        p.click("#tab-documents")
        p.locator("#inventory").get_by_role("button", name="Delete orchid-report.pdf").click()
        expect(p.locator("#inventory-result")).to_have_text("Deleted orchid-report.pdf (3 chunk(s)).")
        expect(p.locator("#inv-page")).to_have_text("1–3 of 3")
        p.locator("#inventory").get_by_role("button", name="Open tea.md").click()
        dialog.get_by_role("button", name="Delete this document").click()
        expect(dialog).to_be_hidden()
        expect(p.locator("#inventory-result")).to_have_text("Deleted tea.md (3 chunk(s)).")
        expect(p.locator("#inv-page")).to_have_text("1–2 of 2")
        for doc_id in ("orchid-report.pdf", "tea.md"):
            assert get(server, action="document", id=doc_id).status_code == 404
    finally:
        delete_quietly(server, *read)


def test_an_upload_nothing_can_be_read_from_names_each_file_and_an_unchanged_file_is_skipped(
    page: Watched, server: ServerProcess, tmp_path: Path
) -> None:
    page.expect_status(422)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\nnot json\n', encoding="utf-8")
    broken = tmp_path / "broken.docx"
    broken.write_bytes(docx_bytes(DOCX_BLOCKS)[:700])
    records = tmp_path / "cafe.jsonl"
    records.write_text(
        json.dumps({"id": "file-doc-a", "title": "A", "text": "量子猫咖啡馆开在月球背面。"}, ensure_ascii=False) + "\n"
        + json.dumps({"id": "file-doc-b", "title": "B", "text": "月球背面的咖啡馆只在地球满月时营业。"}, ensure_ascii=False) + "\n",
        encoding="utf-8")
    p = page.goto("/#documents")
    try:
        p.set_input_files("#upload-files", [str(bad), str(broken)])
        p.click("#upload-submit")
        result = p.locator("#upload-result")
        expect(result).to_contain_text("no_documents: none of the uploaded files could be read")
        expect(result.locator("li", has_text="bad.jsonl")).to_contain_text("invalid_jsonl: bad.jsonl:1:")
        assert result.inner_text().count("not a readable DOCX") == 1  # the list names it; the message does not again
        expect(result.locator("li", has_text="broken.docx")).to_contain_text("corrupt_file:")
        assert p.locator("#jobs .job").count() == 0  # nothing was queued

        # A JSONL file gives its records' documents, with their own ids.
        for outcome in ("done", "skipped"):  # the same file again: unchanged, so skipped
            with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
                p.set_input_files("#upload-files", [str(records)])
                p.click("#upload-submit")
            said = ("cafe.jsonl: 2 document(s)" if outcome == "done"
                    else "cafe.jsonl: 2 document(s)indexed already, unchanged: file-doc-a, file-doc-b")
            expect(result.locator("li")).to_have_text(said)  # a second upload says it changed nothing
            panel = follow(p, uploaded.value.json()["jobId"])
            expect(panel.locator("tbody .status-badge")).to_have_text([outcome, outcome])
            assert panel.locator("tbody tr td:first-child").all_inner_texts() == ["file-doc-a", "file-doc-b"]
        expect(panel).to_contain_text("2 of 2 document(s) · 2 unchanged, skipped")
        # The jobs a tab follows are kept for the tab's session: after a reload the page follows them again.
        job_id = uploaded.value.json()["jobId"]
        p.evaluate("id => sessionStorage.setItem('aer.jobs', JSON.stringify([{id, label: 'Upload of cafe.jsonl'}]))", job_id)
        p.reload()
        panel = follow(p, job_id)
        expect(panel.locator(".job-head")).to_contain_text("Upload of cafe.jsonl")
        expect(panel.locator("tbody .status-badge")).to_have_text(["skipped", "skipped"])
    finally:
        delete_quietly(server, "file-doc-a", "file-doc-b")


def test_add_a_document_find_it_and_delete_it(page: Watched, server: ServerProcess) -> None:
    p = page.goto("/#documents")
    p.on("dialog", lambda d: d.accept())  # the delete confirmation
    p.fill("#doc-id", "zenobia-capital")
    p.fill("#doc-title", "泽诺比亚星球的首都")
    p.fill("#doc-text", "泽诺比亚星球的首都是阿斯特拉港，那里的居民以蓝色晶体建造房屋。")
    p.fill("#doc-metadata", '{"date": "2031-05-01"}')
    p.click("#doc-form button[type=submit]")
    expect(p.locator("#doc-result")).to_contain_text("Added zenobia-capital as 1 chunk(s).")
    filter_inventory(p, title="泽诺比亚")
    expect(p.locator("#inventory tbody tr")).to_have_count(1)
    expect(p.locator("#inventory tbody tr")).to_contain_text("zenobia-capital")
    p.locator("#doc-result").get_by_role("button", name="Open zenobia-capital").click()
    expect(p.locator("#document-dialog .where")).to_have_text("date 2031-05-01")
    p.keyboard.press("Escape")

    p.fill("#find-text", "泽诺比亚星球 阿斯特拉港")
    p.press("#find-text", "Enter")
    found = p.locator("#find-results table")
    expect(found).to_contain_text("zenobia-capital")
    assert found.locator("tbody tr").first.locator("td").first.get_by_role("button").inner_text() == "zenobia-capital"
    assert found.locator("mark").count() >= 1

    # The answer to a question about it cites it.
    answer = api(server, {"action": "query", "question": "泽诺比亚星球的首都是哪里？"})
    assert "zenobia-capital" in [c["docId"] for c in answer["citations"]]

    found.locator("tbody tr").first.get_by_role("button", name="Delete zenobia-capital").click()
    expect(p.locator("#inventory-result")).to_contain_text("Deleted zenobia-capital (1 chunk(s))")
    expect(p.locator("#inventory")).to_contain_text("No document matches.")
    expect(found).not_to_contain_text("zenobia-capital")
    r = httpx.post(server.base_url + API_PATH, json={"action": "delete-document", "id": "zenobia-capital"})
    assert r.status_code == 404


def test_a_long_document_is_added_as_an_ingest_job_and_followed(page: Watched, server: ServerProcess) -> None:
    text = "".join(f"第{i}号观测站在北极圈记录到一次持续{i % 50 + 3}分钟的绿色极光。" for i in range(200))
    assert len(text) > SYNC_MAX_CHARS
    p = page.goto("/#documents")
    try:
        p.fill("#doc-id", "aurora-log")
        p.fill("#doc-title", "极光观测记录")
        p.fill("#doc-text", text)
        with p.expect_response(lambda r: r.url.endswith(API_PATH) and r.request.method == "POST") as posted:
            p.click("#doc-form button[type=submit]")
        assert posted.value.status == 202
        expect(p.locator("#doc-result")).to_contain_text("aurora-log is long: it was queued as an ingest job")
        panel = follow(p, posted.value.json()["jobId"])
        expect(panel.locator(".job-head")).to_contain_text("Document aurora-log")
        expect(panel.locator(".job-head .status-badge")).to_have_text("done")
        chunks = get(server, action="document", id="aurora-log").json()["document"]["chunks"]
        assert chunks > 1
        expect(panel.locator("tbody tr td")).to_have_text(["aurora-log", "done", str(chunks)])
        filter_inventory(p, title="极光观测")
        expect(p.locator("#inventory tbody tr")).to_have_count(1)
        expect(p.locator("#inventory tbody tr")).to_contain_text("aurora-log")
    finally:
        delete_quietly(server, "aurora-log")


# -- Entities --------------------------------------------------------------------------------------------------


def test_add_an_alias_and_the_next_question_uses_it(page: Watched, screenshots: Path) -> None:
    p = page.goto("/#entities")
    p.select_option("#entity-type", "PERSON")
    expect(p.locator("#entity-table")).to_contain_text("Elon Musk")
    p.fill("#entity-q", "马斯克")
    p.press("#entity-q", "Enter")
    rows = p.locator("#entity-table tbody tr")
    expect(rows.first).to_contain_text("Elon Musk")
    rows.first.get_by_role("button", name="Add an alias to Elon Musk").click()
    assert p.input_value("#ent-name") == "Elon Musk" and p.input_value("#ent-type") == "PERSON"
    assert p.evaluate("document.activeElement.id") == "ent-aliases"
    p.keyboard.type("火星狂人")
    p.press("#ent-aliases", "Enter")
    expect(p.locator("#entity-result")).to_contain_text("Saved Elon Musk (PERSON)")
    expect(p.locator("#entity-result")).to_contain_text("火星狂人")

    p.click("#tab-ask")
    ask(p, "火星狂人创办的公司有哪些？")
    row = p.locator(".side table.data tr", has_text="火星狂人")
    expect(row).to_contain_text("Elon Musk")
    expect(row).to_contain_text("alias")
    assert "search_structured" in visited(p)


def test_an_alias_conflict_names_the_owner(page: Watched, screenshots: Path) -> None:
    page.expect_status(409)
    p = page.goto("/#entities")
    p.fill("#ent-name", "Apple Records")
    p.select_option("#ent-type", "ORGANIZATION")
    p.fill("#ent-aliases", "苹果唱片, 苹果")
    p.click("#entity-form button[type=submit]")
    box = p.locator("#entity-result")
    expect(box).to_contain_text("The alias “苹果” already belongs to “Apple”")
    expect(box).to_contain_text("nothing changed")
    shot(p, screenshots, "entities.png")
    box.get_by_role("button", name="Show Apple").click()
    expect(p.locator("#entity-table tbody tr").first).to_contain_text("Apple")
    assert p.input_value("#entity-q") == "Apple"
    p.fill("#entity-q", "Apple Records")
    p.press("#entity-q", "Enter")
    expect(p.locator("#entity-table")).not_to_contain_text("Apple Records")  # the conflicting entity was not saved


def test_a_look_alike_name_is_saved_with_a_warning_naming_the_other_entity(page: Watched, screenshots: Path) -> None:
    p = page.goto("/#entities")
    look_alike = "\u0422\u0435sla"  # "Теsla": a Cyrillic Т and е
    p.fill("#ent-name", look_alike)
    p.select_option("#ent-type", "ORGANIZATION")
    with p.expect_response(lambda r: r.url.endswith(API_PATH) and r.request.method == "POST") as saved:
        p.click("#entity-form button[type=submit]")
    body = saved.value.json()
    assert [(w["value"], w["looksLike"], w["owner"]) for w in body["warnings"]] == [(look_alike, "Tesla", "Tesla")]
    box = p.locator("#entity-result")
    expect(box).to_contain_text(f"Saved {look_alike} (ORGANIZATION).")
    warning = box.locator(".look-alikes li")
    expect(warning).to_have_text(f"“{look_alike}” looks like “Tesla” of Tesla but is spelled with other characters "
                                 "(Т U+0422, е U+0435).")
    # The number of chunks re-tagged with the entity is shown when the server says it.
    if "retagged" in body:
        expect(box).to_contain_text(f"{body['retagged']} chunk(s) re-tagged.")
    else:
        expect(box).not_to_contain_text("re-tagged")
    shot(p, screenshots, "entities-look-alike.png", p.locator("#panel-entities .card").first)
    warning.get_by_role("button", name="Tesla").click()
    expect(p.locator("#entity-table tbody tr").first).to_contain_text("Tesla")


# -- Evaluation ------------------------------------------------------------------------------------------------


def test_the_evaluation_tab_shows_the_latest_report_and_its_chart(page: Watched, screenshots: Path) -> None:
    p = page.goto("/#evaluation")
    card = p.locator(".eval-card")
    expect(card.locator(".card-head h2")).to_have_text("demo-seeds")
    table = card.locator(".markdown table").first
    expect(table).to_contain_text("R@5")
    for mode in ("bm25", "hybrid", "full"):
        expect(table).to_contain_text(mode)
    image = card.locator(".chart img")
    expect(image).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalWidth") > 100
    shot(p, screenshots, "evaluation.png")


# -- API keys --------------------------------------------------------------------------------------------------


def test_a_server_that_needs_a_key_asks_for_one_and_keeps_it_for_the_tab(
    browser: Browser, keyed_server: ServerProcess, screenshots: Path
) -> None:
    watched = watch(browser, keyed_server.base_url)
    watched.expect_status(401)
    p = watched.page
    try:
        p.goto(keyed_server.base_url + "/")
        dialog = p.locator("#key-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("needs an API key")
        shot(p, screenshots, "api-key.png")
        p.fill("#api-key", "wrong-key")
        p.press("#api-key", "Enter")
        expect(dialog).to_contain_text("not valid")  # asked again, with the server's reason
        p.fill("#api-key", API_KEY)
        p.click("#key-save")
        expect(dialog).to_be_hidden()
        expect(p.locator("#key-button")).to_have_text("API key ✓")
        # This server's LLM streams its answer: the page shows it being written, then the checked result.
        p.evaluate("""() => {
            window.seenHeadings = [];
            new MutationObserver(() => document.querySelectorAll('.answer-area h2')
                .forEach(h => window.seenHeadings.push(h.textContent)))
                .observe(document.querySelector('#ask-output'), {childList: true, subtree: true});
        }""")
        assert ask(p, SEED_QUESTIONS[2]) == "answered"
        assert "Answer (being written)" in p.evaluate("window.seenHeadings")
        expect(p.locator(".answer-card h2")).to_have_text("Answer")
        expect(p.locator(".side")).to_contain_text(f"LLM {LLM_MODEL}")
        expect(p.locator(".run-status")).to_contain_text(f"LLM {LLM_MODEL} used")
        assert p.evaluate("sessionStorage.getItem('aer.apiKey')") == API_KEY
        # the key is in no lasting storage (localStorage holds only the conversation)
        stored = p.evaluate("JSON.stringify(Object.entries(localStorage))")
        assert API_KEY not in stored and API_KEY not in p.context.cookies().__repr__()
        # writes use it too
        p.click("#tab-entities")
        p.fill("#ent-name", "Keyed Entity")
        p.fill("#ent-aliases", "钥匙实体")
        p.click("#entity-form button[type=submit]")
        expect(p.locator("#entity-result")).to_contain_text("Saved Keyed Entity")
        # Forget it: the next read asks again.
        p.click("#key-button")
        p.click("#key-forget")
        p.wait_for_function("sessionStorage.getItem('aer.apiKey') === null")
        expect(p.locator("#key-button")).to_have_text("API key")
        watched.check()
    finally:
        p.context.close()
    # Another tab (a new session) does not have it.
    other = watch(browser, keyed_server.base_url)
    try:
        other.page.goto(keyed_server.base_url + "/")
        expect(other.page.locator("#key-dialog")).to_be_visible()
        other.page.keyboard.press("Escape")
        expect(other.page.locator("#banner")).to_contain_text("unauthorized")
    finally:
        other.page.context.close()


# -- keyboard, phone width, Swagger -------------------------------------------------------------------------------


def test_the_tabs_and_the_question_work_from_the_keyboard(page: Watched) -> None:
    p = page.goto()
    p.focus("#tab-ask")
    p.keyboard.press("ArrowRight")
    expect(p.locator("#panel-documents")).to_be_visible()
    assert p.evaluate("document.activeElement.id") == "tab-documents"
    p.keyboard.press("End")
    expect(p.locator("#panel-evaluation")).to_be_visible()
    p.keyboard.press("Home")
    expect(p.locator("#panel-ask")).to_be_visible()
    assert p.url.endswith("#ask")
    # every form control has a label
    unlabelled = p.evaluate("""() => [...document.querySelectorAll('input, select, textarea')]
        .filter(el => el.type !== 'hidden' && !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
        .map(el => el.id || el.name)""")
    assert unlabelled == []
    p.keyboard.press("Tab")  # from the tab list into the page
    p.focus("#question")
    p.keyboard.type(SEED_QUESTIONS[2])
    p.keyboard.press("Enter")
    expect(p.locator(".run-status .status-badge")).to_have_text("answered")
    p.locator(".answer-text .cite").first.focus()
    p.keyboard.press("Enter")
    expect(p.locator("#passage-dialog")).to_be_visible()


def test_every_tab_fits_a_phone(phone: Watched, screenshots: Path) -> None:
    p = phone.goto()
    ask(p, SEED_QUESTIONS[1])
    # the route picture shows the route only on a phone
    expect(p.get_by_role("button", name="Show the whole graph")).to_be_visible()
    assert "search_semantic" not in p.eval_on_selector_all(".route-svg .node", "els => els.map(e => e.dataset.node)")
    shot(p, screenshots, "ask-phone.png")
    for tab in ("ask", "documents", "entities", "evaluation"):
        p.click(f"#tab-{tab}")
        p.wait_for_timeout(300)
        overflow = p.evaluate("document.documentElement.scrollWidth")
        assert overflow <= PHONE["width"], (tab, overflow)
    # A document opened from the list fits too (the dialog wraps its facts and chunks).
    p.click("#tab-documents")
    p.locator("#inventory tbody tr").first.locator("td").first.get_by_role("button").click()
    dialog = p.locator("#document-dialog")
    expect(dialog.locator("ol.chunks > li")).not_to_have_count(0)
    box = dialog.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and dialog.evaluate("d => d.scrollWidth <= d.clientWidth")
    shot(p, screenshots, "document-phone.png")


def test_every_tab_button_is_in_sight_on_a_phone(phone: Watched) -> None:
    # the tab row wraps on a phone: no tab (Knowledge graph, Evaluation) is cut or hidden past the right edge
    p = phone.goto()
    for tab in p.locator('.tabs [role="tab"]').all():
        box = tab.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], tab.inner_text()


def test_swagger_try_it_out_with_the_prefilled_example_succeeds(page: Watched, screenshots: Path) -> None:
    p = page.page
    p.goto(page.origin + "/docs")
    operation = p.locator(".opblock-post").first
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    body = json.loads(operation.locator("textarea.body-param__text").input_value())
    assert body["action"] == "query" and "llmModel" not in body
    operation.get_by_role("button", name="Execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status").first
    expect(status).to_have_text("200")
    operation.locator(".responses-wrapper").first.scroll_into_view_if_needed()
    p.evaluate("window.scrollBy(0, document.querySelector('.live-responses-table').getBoundingClientRect().top - 420)")
    shot(p, screenshots, "swagger-try-it-out.png")


def test_the_results_table_scrolls_on_a_phone_instead_of_squeezing_its_rows(phone: Watched) -> None:
    """Eleven columns squeezed into 390 px: each result row was 200-270 px tall, the "Why" column one word a line.
    The table now keeps its width and scrolls sideways in its own region; the page itself does not overflow."""
    p = phone.goto()
    ask(p, SEED_QUESTIONS[1])
    region = p.locator('.table-scroll[aria-label="Top results and their score components"]')
    expect(region.locator("tbody tr")).not_to_have_count(0)
    tallest = "t => Math.max(...[...t.querySelectorAll('tbody tr')].map((r) => r.getBoundingClientRect().height))"
    table = region.locator("table")
    kept = table.evaluate(tallest)
    assert region.evaluate("r => r.scrollWidth > r.clientWidth")  # it scrolls, inside its region
    assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    squeezed = table.evaluate(f"t => {{ t.classList.remove('wide'); return ({tallest})(t); }}")  # as it was
    assert kept < 125 and squeezed > 1.6 * kept, (kept, squeezed)
