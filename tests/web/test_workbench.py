"""The page as a workbench, in a real browser (headless Chromium) against the real demo server: a conversation
whose follow-up is asked as the chat endpoint resolves it and kept across reloads; an alias removed and an entity
deleted from the Entities tab; an entity's knowledge-graph neighbourhood with the passages behind an edge, opened in
their document; an evaluation run from an uploaded questions file, followed to its report (and a bad file refused);
a document opened from a citation showing its text with the cited passage marked; all of it at phone width too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from app.cli import SEED_QUESTIONS
from app.schemas import API_PATH
from tests.support.browser import PHONE, Watched, ask
from tests.support.servers import ServerProcess

FIRST, FOLLOW_UP = SEED_QUESTIONS[0], "他是哪一年出生的？"  # 马斯克创办的公司有哪些？ then a follow-up about him


def api(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    r = httpx.post(server.base_url + API_PATH, json=body, timeout=120)
    assert r.status_code == 200, r.text
    return dict(r.json())


def get(server: ServerProcess, path: str = "", **params: Any) -> dict[str, Any]:
    r = httpx.get(server.base_url + API_PATH + path, params=params, timeout=120)
    assert r.status_code == 200, r.text
    return dict(r.json())


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"])


# -- Ask: a conversation -----------------------------------------------------------------------------------------


def test_a_follow_up_is_asked_as_the_chat_endpoint_resolves_it_and_the_conversation_is_kept(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    p = page.goto()
    expect(p.locator("#conversation")).to_be_hidden()  # no earlier turn yet
    assert ask(p, FIRST) == "answered"
    expect(p.locator(".resolved")).to_have_count(0)  # a first question is asked as written
    turns = p.locator("#conversation-turns > li")
    expect(turns).to_have_count(1)
    with p.expect_response(lambda r: r.url.endswith("/conversation/resolve")) as resolved:
        ask(p, FOLLOW_UP)
    sent = json.loads(resolved.value.request.post_data or "{}")["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[0]["content"] == FIRST and sent[-1]["content"] == FOLLOW_UP
    # The same question /v1/chat/completions forms for the same conversation.
    chat = httpx.post(server.base_url + "/v1/chat/completions", timeout=120, json={
        "model": "aer-extractive", "messages": sent}).json()
    standalone = chat["aer"]["follow_up"]["question"]
    assert standalone != FOLLOW_UP and "马斯克" in standalone
    expect(p.locator(".resolved-question")).to_have_text(standalone)
    expect(p.locator(".resolved")).to_contain_text("Elon Musk")  # the carried entity
    expected = api(server, {"action": "query", "question": standalone})
    expect(p.locator(".run-status .status-badge")).to_have_attribute("data-status", expected["status"])
    expect(turns).to_have_count(2)
    expect(turns.nth(1)).to_contain_text(f"asked as “{standalone}”")
    shot = screenshots / "conversation.png"
    p.screenshot(path=str(shot), full_page=False)

    # Kept in the browser: a reload shows the conversation; a new conversation forgets it.
    p.reload()
    p.wait_for_selector("#opt-mode option", state="attached")
    expect(p.locator("#conversation-turns > li")).to_have_count(2)
    p.click("#new-conversation")
    expect(p.locator("#conversation")).to_be_hidden()
    assert p.evaluate("localStorage.getItem('aer.conversation')") is None
    with p.expect_response(lambda r: r.url.endswith(API_PATH) and r.request.method == "POST") as posted:
        ask(p, FOLLOW_UP)  # no earlier turn: asked as written, the server is not asked to resolve it
    assert json.loads(posted.value.request.post_data or "{}")["question"] == FOLLOW_UP
    # a follow-up that names only a new subject is the question before asked of it (the page says so)
    p.click("#new-conversation")
    ask(p, FIRST)
    ask(p, "马云呢？")
    expect(p.locator(".resolved-question")).to_have_text("马云创办的公司有哪些？")
    expect(p.locator(".resolved")).to_contain_text("asked of the new subject")


# -- Entities: remove an alias, delete an entity -----------------------------------------------------------------


def test_remove_an_alias_and_delete_an_entity_from_the_entities_tab(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    api(server, {"action": "add-entity", "standardName": "Falcon 1", "type": "PRODUCT", "aliases": ["猎鹰1号", "F1火箭"]})
    tagged = [c for c in get(server, action="document", id="spacex-founding-zh")["chunks"]
              if "Falcon 1" in c["entities"].get("PRODUCT", [])]
    assert tagged  # the document names it by an alias: re-tagged when the entity was added
    p = page.goto("/#entities")
    p.fill("#entity-q", "Falcon 1")
    p.press("#entity-q", "Enter")
    row = p.locator("#entity-table tbody tr", has_text="Falcon 1")
    expect(row).to_contain_text("F1火箭")
    row.get_by_role("button", name="Remove alias F1火箭 from Falcon 1").click()
    expect(p.locator("#entity-result")).to_contain_text("Removed the alias “F1火箭” from Falcon 1")
    expect(row).not_to_contain_text("F1火箭")
    assert get(server, action="entities", q="Falcon 1")["entities"][0]["aliases"] == ["猎鹰1号"]

    row.get_by_role("button", name="Delete Falcon 1").click()
    box = p.locator("#entity-result")
    expect(box).to_contain_text("Delete the entity “Falcon 1” (PRODUCT)?")
    shot_path = screenshots / "entity-delete.png"
    box.screenshot(path=str(shot_path))
    box.get_by_role("button", name="Cancel").click()  # nothing happens
    expect(box).to_be_hidden()
    assert get(server, action="entities", q="Falcon 1")["total"] >= 1
    row.get_by_role("button", name="Delete Falcon 1").click()
    box.get_by_role("button", name="Delete Falcon 1").click()
    expect(box).to_contain_text(f"Deleted Falcon 1. {len(tagged)} chunk(s) untagged.")
    expect(p.locator("#entity-table")).not_to_contain_text("Falcon 1")
    assert "Falcon 1" not in [e["standardName"] for e in get(server, action="entities", q="Falcon 1")["entities"]]
    chunks = get(server, action="document", id="spacex-founding-zh")["chunks"]
    assert all("Falcon 1" not in c["entities"].get("PRODUCT", []) for c in chunks)


# -- the knowledge graph -----------------------------------------------------------------------------------------


def test_an_entity_s_neighbourhood_shows_the_passages_behind_an_edge_and_opens_them(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    expected = get(server, "/kg/neighbourhood", entity="Elon Musk", limit=30)
    p = page.goto("/#entities")
    p.fill("#entity-q", "马斯克")
    p.press("#entity-q", "Enter")
    p.locator("#entity-table tbody tr", has_text="Elon Musk").first.get_by_role(
        "button", name="Show Elon Musk in the knowledge graph").click()
    expect(p.locator("#panel-kg")).to_be_visible()
    assert p.input_value("#kg-entity") == "Elon Musk"
    svg = p.locator("#kg-view svg.kg-svg")
    expect(svg).to_be_visible()
    expect(svg.locator("g.kg-node")).to_have_count(len(expected["nodes"]))
    expect(svg.locator("g.kg-node.center")).to_contain_text("Elon Musk")
    # a document that mentions him: the edge, the passage naming him, opened in its document
    doc = next(n for n in expected["nodes"] if n["docId"] == "spacex-founding-zh")
    edge = next(e for e in expected["edges"] if doc["id"] in (e["source"], e["target"]))
    svg.locator(f'g.kg-node[data-node="{doc["id"]}"]').click()
    details = p.locator("#kg-details")
    expect(details).to_contain_text(doc["name"])
    expect(details).to_contain_text("mentions")
    passage = edge["passages"][0]
    expect(details.locator(".kg-passage .passage-text").first).to_have_text(passage["text"])
    expect(details.locator(".kg-passage mark").first).to_be_visible()  # the names are marked
    p.screenshot(path=str(screenshots / "knowledge-graph.png"))
    details.get_by_role("button", name="Open spacex-founding-zh at this passage").click()
    dialog = p.locator("#document-dialog")
    expect(dialog).to_be_visible()
    mark = dialog.locator("mark#cited-passage")
    expect(mark).to_be_visible()
    assert mark.get_attribute("data-chunk") == passage["chunkId"]
    p.keyboard.press("Escape")

    # another node becomes the center; an unknown entity is a clear message
    details.get_by_role("button", name="Show its neighbourhood").click()
    expect(svg.locator("g.kg-node.center")).to_contain_text(doc["name"][:6])
    page.expect_status(404)
    p.fill("#kg-entity", "没有这个实体")
    p.press("#kg-entity", "Enter")
    expect(p.locator("#kg-result")).to_contain_text("entity_not_found")


# -- an evaluation run from the page -----------------------------------------------------------------------------

QUESTIONS = [
    {"id": "q1", "question": SEED_QUESTIONS[2], "answers": ["人工智能的一个分支"], "gold_ids": ["concept-ml-zh"],
     "type": "conceptual"},
    {"id": "q2", "question": "SpaceX是哪一年创办的？", "answers": ["2002"], "gold_ids": ["spacex-founding-zh"],
     "type": "factual"},
]


def test_run_an_evaluation_from_the_page_follow_it_and_read_the_report(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    results = Path(server.env["AER_EVAL_RESULTS_DIR"])
    try:
        run_an_evaluation(page, screenshots)
    finally:  # the shared server's Evaluation tab shows its `aer eval` report alone again
        for path in results.glob("eval-page-my-questions*"):
            path.unlink()


def run_an_evaluation(page: Watched, screenshots: Path) -> None:
    page.expect_status(422)
    p = page.goto("/#evaluation")
    # a file that is not a questions file: refused with the line and the reason, nothing runs
    p.set_input_files("#eval-file", files=[{"name": "notes.jsonl", "mimeType": "application/jsonl",
                                            "buffer": b'{"id": "q1", "question": "x", "gold_ids": ["a"]}\nhello\n'}])
    p.click("#eval-submit")
    expect(p.locator("#eval-job")).to_contain_text("invalid_questions_file")
    expect(p.locator("#eval-job")).to_contain_text("line 2")

    content = "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in QUESTIONS).encode()
    p.set_input_files("#eval-file", files=[{"name": "my questions.jsonl", "mimeType": "application/jsonl",
                                            "buffer": content}])
    p.check("#eval-form input[value=bm25]")
    p.click("#eval-submit")
    job = p.locator("#eval-job")
    expect(job).to_contain_text("page-my-questions")
    expect(job).to_contain_text("done", timeout=240_000)
    expect(job).to_contain_text("4 of 4 question runs")
    card = p.locator('.eval-card[data-dataset="page-my-questions"]')
    expect(card).to_be_visible()
    expect(card.locator(".markdown table").first).to_contain_text("bm25")
    expect(card.locator(".markdown table").first).to_contain_text("full")
    expect(card.locator("figure.chart img")).to_be_visible()
    assert p.locator(".eval-card").first.get_attribute("data-dataset") == "page-my-questions"  # newest first
    p.screenshot(path=str(screenshots / "evaluation-run.png"))


# -- a document opened from a citation ---------------------------------------------------------------------------


def test_a_document_opened_from_a_citation_shows_its_text_with_the_cited_passage_marked(
    page: Watched, server: ServerProcess, screenshots: Path
) -> None:
    expected = api(server, {"action": "query", "question": SEED_QUESTIONS[0]})
    first = expected["citations"][0]
    p = page.goto()
    ask(p, SEED_QUESTIONS[0])
    p.locator(".answer-text .cite").first.click()
    passage = p.locator("#passage-dialog")
    expect(passage).to_be_visible()
    passage.get_by_role("button", name=first["docId"]).click()
    dialog = p.locator("#document-dialog")
    expect(dialog).to_be_visible()
    mark = dialog.locator("mark#cited-passage")
    expect(mark).to_be_visible()
    assert mark.get_attribute("data-chunk") == first["id"]
    chunks = get(server, action="document", id=first["docId"])["chunks"]
    cited = next(c for c in chunks if c["id"] == first["id"])
    assert cited["text"].endswith(mark.inner_text().strip()[-20:])
    # the whole text is there, the chunks one click away, the cited one marked there too
    text = dialog.locator(".doc-text").inner_text()
    assert all(c["text"][-15:] in text for c in chunks)
    dialog.get_by_role("button", name=f"Chunks ({len(chunks)})").click()
    expect(dialog.locator("ol.chunks > li.cited")).to_have_count(1)
    expect(dialog.locator("ol.chunks > li.cited .chunk-text")).to_have_text(cited["text"])
    dialog.get_by_role("button", name="Text").click()
    dialog.screenshot(path=str(screenshots / "document-cited.png"))


# -- phone width -------------------------------------------------------------------------------------------------


def test_the_workbench_fits_a_phone(phone: Watched, screenshots: Path) -> None:
    p = phone.goto("/#kg")
    p.fill("#kg-entity", "Apple")
    p.press("#kg-entity", "Enter")
    expect(p.locator("#kg-view svg.kg-svg")).to_be_visible()
    p.locator("#kg-view table tbody tr").first.get_by_role("button").click()
    expect(p.locator("#kg-details h3")).to_be_visible()
    assert fits(p)
    p.locator("#kg-view .kg-legend").scroll_into_view_if_needed()
    p.evaluate("document.querySelector('.top').style.position = 'static'")  # no sticky header over it
    p.evaluate("window.scrollTo(0, document.querySelector('#kg-view').getBoundingClientRect().top + window.scrollY - 8)")
    p.screenshot(path=str(screenshots / "knowledge-graph-phone.png"))
    p.evaluate("document.querySelector('.top').style.position = ''")
    p.click("#tab-evaluation")
    expect(p.locator("#eval-form")).to_be_visible()
    assert fits(p)
    p.click("#tab-ask")
    ask(p, FIRST)
    ask(p, FOLLOW_UP)
    expect(p.locator(".resolved")).to_be_visible()
    expect(p.locator("#conversation-turns > li")).to_have_count(2)
    assert fits(p)
    p.screenshot(path=str(screenshots / "conversation-phone.png"))
    p.click("#tab-entities")
    expect(p.locator("#entity-table tbody tr").first).to_be_visible()
    assert fits(p)
