"""The web page in a real browser (headless Chromium): ask and see the route and the citations, the not-found state,
add a document and find it, add an alias and see the next question use it, an alias conflict explained, the
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
from app.schemas import API_PATH
from tests.support.servers import ServerProcess
from tests.web.conftest import API_KEY, LLM_MODEL, PHONE, Watched, watch

COMPARISON = "特斯拉和SpaceX谁先成立？"
UNANSWERABLE = "火星上的第一座城市叫什么名字？"  # nothing in the demo corpus is about a city on Mars


def api(server: ServerProcess, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"X-API-Key": key} if key else {}
    r = httpx.post(server.base_url + API_PATH, json=body, headers=headers, timeout=120)
    assert r.status_code == 200, r.text
    return dict(r.json())


def ask(page: Page, question: str) -> str:
    """Ask through the form (Enter in the question box) and wait for the result; the status shown."""
    page.fill("#question", question)
    page.press("#question", "Enter")
    badge = page.locator(".run-status .status-badge")
    badge.wait_for()
    return badge.inner_text()


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
    card = p.locator(".answer-card.not-found")
    expect(card).to_be_visible()
    assert expected["answer"] in card.inner_text() and "not_found" in card.inner_text()
    assert expected["answerability"]["reason"] in card.inner_text()
    assert p.locator(".answer-text").count() == 0 and p.locator(".sources").count() == 0  # never shown as an answer
    related = card.locator(".related li")
    assert related.count() == len(expected["related"]) >= 1
    related.first.locator("button").click()
    expect(p.locator("#passage-dialog")).to_be_visible()
    p.keyboard.press("Escape")
    p.evaluate("window.scrollTo(0, 0)")
    shot(p, screenshots, "ask-not-found.png")


def test_an_answer_with_a_short_span_and_corrections_shows_both(page: Watched) -> None:
    """answerSpan and corrections (what the answer checker changed) are rendered when the API sends them."""

    def checked(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        body.update(answerSpan="SpaceX", corrections=["dropped a sentence whose year no cited passage states",
                                                      {"sentence": "Tesla was founded in 2001.", "reason": "unsupported date"}],
                    answerability={"decision": "answerable", "score": 0.91, "reason": "terms and a company name together"})
        route.fulfill(response=response, json=body)

    p = page.goto()
    p.click(".options summary")
    p.uncheck("#opt-stream")  # a plain JSON answer this time
    p.route("**" + API_PATH, checked)
    assert ask(p, SEED_QUESTIONS[0]) == "answered"
    card = p.locator(".answer-card")
    assert "SpaceX" in card.locator(".answer-span").inner_text()
    assert "unsupported date" in card.locator(".corrections").inner_text()
    assert "answerable" in card.locator(".answerability").inner_text()


# -- Documents -------------------------------------------------------------------------------------------------


def test_add_a_document_find_it_and_delete_it(page: Watched, server: ServerProcess, screenshots: Path) -> None:
    p = page.goto("/#documents")
    p.on("dialog", lambda d: d.accept())  # the delete confirmation
    p.fill("#doc-id", "zenobia-capital")
    p.fill("#doc-title", "泽诺比亚星球的首都")
    p.fill("#doc-text", "泽诺比亚星球的首都是阿斯特拉港，那里的居民以蓝色晶体建造房屋。")
    p.fill("#doc-metadata", '{"date": "2031-05-01"}')
    p.click("#doc-form button[type=submit]")
    expect(p.locator("#doc-result")).to_contain_text("Added 1 document(s)")
    expect(p.locator("#added-list")).to_contain_text("zenobia-capital")

    p.fill("#find-text", "泽诺比亚星球 阿斯特拉港")
    p.press("#find-text", "Enter")
    found = p.locator("#find-results table")
    expect(found).to_contain_text("zenobia-capital")
    assert found.locator("tbody tr").first.locator("code").inner_text() == "zenobia-capital"
    assert found.locator("mark").count() >= 1
    p.locator("#doc-result").scroll_into_view_if_needed()
    p.evaluate("window.scrollBy(0, document.querySelector('#doc-result').getBoundingClientRect().top - 80)")
    shot(p, screenshots, "documents.png")

    # The answer to a question about it cites it.
    answer = api(server, {"action": "query", "question": "泽诺比亚星球的首都是哪里？"})
    assert "zenobia-capital" in [c["docId"] for c in answer["citations"]]

    found.locator("tbody tr").first.get_by_role("button", name="Delete zenobia-capital").click()
    expect(p.locator("#doc-result")).to_contain_text("Deleted zenobia-capital (1 chunk(s))")
    expect(p.locator("#added-list")).not_to_contain_text("zenobia-capital")
    r = httpx.post(server.base_url + API_PATH, json={"action": "delete-document", "id": "zenobia-capital"})
    assert r.status_code == 404


def test_add_documents_from_files_read_in_the_browser(page: Watched, tmp_path: Path) -> None:
    p = page.goto("/#documents")
    notes = tmp_path / "orbital-notes.md"
    notes.write_text("# 轨道电梯笔记\n\n轨道电梯的缆绳由碳纳米管编织而成，长度超过三万六千公里。\n", encoding="utf-8")
    records = tmp_path / "two.jsonl"
    records.write_text(
        json.dumps({"id": "file-doc-a", "title": "A", "text": "量子猫咖啡馆开在月球背面。"}, ensure_ascii=False) + "\n"
        + json.dumps({"id": "file-doc-b", "title": "B", "text": "月球背面的咖啡馆只在地球满月时营业。"}, ensure_ascii=False) + "\n",
        encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\nnot json\n', encoding="utf-8")

    p.set_input_files("#doc-files", [str(bad)])
    expect(p.locator("#file-preview")).to_contain_text('bad.jsonl:1: no "text"')
    expect(p.locator("#file-preview")).to_contain_text("bad.jsonl:2:")
    assert p.is_disabled("#file-submit")

    p.set_input_files("#doc-files", [str(notes), str(records)])
    expect(p.locator("#file-preview")).to_contain_text("3 document(s) ready")
    p.click("#file-submit")
    expect(p.locator("#doc-result")).to_contain_text("Added 3 document(s)")
    for doc_id in ("orbital-notes.md", "file-doc-a", "file-doc-b"):
        expect(p.locator("#added-list")).to_contain_text(doc_id)
    p.fill("#find-text", "轨道电梯 碳纳米管")
    p.click("#find-form button")
    expect(p.locator("#find-results table tbody tr").first).to_contain_text("orbital-notes.md")
    expect(p.locator("#find-results table tbody tr").first).to_contain_text("轨道电梯笔记")  # title from the heading
    p.on("dialog", lambda d: d.accept())
    for doc_id in ("orbital-notes.md", "file-doc-a", "file-doc-b"):
        p.locator("#added-list").get_by_role("button", name=f"Delete {doc_id}").click()
        expect(p.locator("#doc-result")).to_contain_text(f"Deleted {doc_id}")


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
        assert p.evaluate("localStorage.length") == 0 and API_KEY not in p.context.cookies().__repr__()
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


def test_the_upload_job_and_inventory_views_switch_on_with_the_server_features(page: Watched) -> None:
    """When the server has the documents issue's endpoints (upload, jobs, the inventory: info.features), the page
    uses them. This server does not have them yet: info and those answers are given in the shape that issue
    specifies, to keep the views working until they land."""
    p = page.page
    job_polls: list[str] = []

    def info(route: Route) -> None:
        response = route.fetch()
        body = response.json()
        body["features"] = {"upload": True, "jobs": True, "documents": True}
        route.fulfill(response=response, json=body)

    def listing(route: Route) -> None:
        url = route.request.url
        if "action=documents" in url:
            route.fulfill(json={"success": True, "total": 1, "offset": 0, "limit": 50, "documents": [
                {"id": "notes/a.md", "title": "A", "source": "notes/a.md", "chunks": 2, "bytes": 120,
                 "contentHash": "abc", "ingestedAt": "2026-01-01T00:00:00Z"}]})
        elif "action=document&" in url:
            route.fulfill(json={"success": True, "document": {"id": "notes/a.md", "title": "A"}, "chunks": [
                {"id": "notes/a.md#0", "text": "第一段", "entities": {"PERSON": ["Elon Musk"]}},
                {"id": "notes/a.md#1", "text": "第二段", "entities": {}}]})
        elif "action=job" in url:
            job_polls.append(url)
            done = len(job_polls) > 1
            route.fulfill(json={"success": True, "job": {
                "status": "done" if done else "running", "progress": {"done": 1 if done else 0, "total": 1},
                "documents": [{"id": "upload.md", "status": "ok"}] if done else []}})
        else:
            route.continue_()

    p.route("**/api/adaptive-entity-rag/info", info)
    p.route("**/api/adaptive-entity-rag?*", listing)
    p.route("**/api/adaptive-entity-rag/upload", lambda r: r.fulfill(status=202, json={"success": True, "jobId": "j1"}))
    page.goto("/#documents")
    expect(p.locator("#upload-section")).to_be_visible()
    expect(p.locator("#find-heading")).to_have_text("Documents")
    expect(p.locator("#find-results")).to_contain_text("notes/a.md")
    p.locator("#find-results").get_by_role("button", name="notes/a.md", exact=True).click()
    expect(p.locator("#passage-dialog")).to_contain_text("Elon Musk")
    p.keyboard.press("Escape")
    p.set_input_files("#upload-files", files=[{"name": "upload.md", "mimeType": "text/markdown", "buffer": b"# Up\n"}])
    p.click("#upload-form button[type=submit]")
    expect(p.locator("#jobs")).to_contain_text("job j1: done 1 of 1")
    expect(p.locator("#jobs")).to_contain_text("upload.md")

    # A large add-documents request answered with a job (202) is followed as a job too.
    def queued(route: Route) -> None:
        if json.loads(route.request.post_data or "{}").get("action") == "add-documents":
            route.fulfill(status=202, json={"success": True, "jobId": "j2"})
        else:
            route.continue_()

    p.route("**/api/adaptive-entity-rag", queued)
    p.fill("#doc-id", "queued-doc")
    p.fill("#doc-text", "排队的文档。")
    p.click("#doc-form button[type=submit]")
    expect(p.locator("#doc-result")).to_contain_text("Queued 1 document(s) as job j2")
    expect(p.locator("#jobs")).to_contain_text("job j2: done")
