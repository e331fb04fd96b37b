"""Everyday rough edges of the page, on an empty server: an API error's details read as "name: value" lines, not
a block of raw JSON (an upload of a type the service does not read names the supported types in one line; a
refused question names the field); the tabs stay on one row at common desktop widths."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Route, expect

from app.schemas import API_PATH
from tests.support.browser import API_KEY, DESKTOP, PHONE, Watched, ask, watch
from tests.support.servers import ServerProcess


@pytest.fixture(scope="module")
def empty_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("web-errors")).start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("web-keyed"), {"AER_API_KEYS": API_KEY}).start()
    try:
        yield process
    finally:
        process.stop()


SHOWN_THOUGH_HIDDEN = """() => [...document.querySelectorAll('[hidden]')]
  .filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.id || e.className)"""


@pytest.fixture
def page(browser: Browser, empty_server: ServerProcess) -> Iterator[Watched]:
    watched = watch(browser, empty_server.base_url)
    try:
        yield watched
    finally:
        watched.page.context.close()


def test_an_unsupported_upload_lists_the_supported_types_in_a_line(page: Watched, tmp_path: Path) -> None:
    tool = tmp_path / "tool.exe"
    tool.write_bytes(b"MZ\x90\x00binary")
    p = page.goto("/#documents")
    p.set_input_files("#upload-files", str(tool))
    with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
        p.click("#upload-submit")
    assert uploaded.value.status == 415
    box = p.locator("#upload-result")
    expect(box).to_contain_text("unsupported_file_type")
    expect(box.locator("dt", has_text="supported")).to_have_count(1)
    expect(box.locator("dd", has_text=".md, .markdown, .txt")).to_have_count(1)
    assert box.locator("pre").count() == 0 and "[" not in box.inner_text()


def test_an_empty_file_is_marked_before_it_is_sent(page: Watched, tmp_path: Path) -> None:
    blank, notes = tmp_path / "minutes-draft.txt", tmp_path / "minutes.md"
    blank.write_bytes(b"")
    notes.write_text("# Minutes\n\nThe choir meets on Thursdays.\n", encoding="utf-8")
    p = page.goto("/#documents")
    p.set_input_files("#upload-files", [str(blank), str(notes)])
    items = p.locator("#upload-preview li")
    expect(items.filter(has_text="minutes-draft.txt").locator(".empty-file")).to_contain_text("empty")
    expect(items.filter(has_text="minutes.md").locator(".empty-file")).to_have_count(0)


def test_a_file_sent_again_unchanged_is_not_said_to_be_queued(page: Watched, tmp_path: Path) -> None:
    """Sending a file again with the same content queues nothing (the job skips it): the result said "1 file(s)
    read: 1 document(s) queued." and, beside a file that failed, "the others are queued"."""
    rota, blank = tmp_path / "kiln-rota.md", tmp_path / "kiln-draft.txt"
    rota.write_text("# Kiln rota\n\nMarit fires the kiln on Fridays.\n", encoding="utf-8")
    blank.write_bytes(b"")
    p = page.goto("/#documents")
    result = p.locator("#upload-result")
    for files, said in (([rota], "1 file(s) read: 1 document(s) queued."),
                        ([rota], "1 file(s) read: 1 indexed already, unchanged (skipped)."),
                        ([rota, blank], "1 of 2 file(s) could not be read; 1 indexed already, unchanged (skipped).")):
        p.set_input_files("#upload-files", [str(f) for f in files])
        with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
            p.click("#upload-submit")
        expect(result.locator("strong").first).to_have_text(said)
        job = uploaded.value.json()["jobId"]
        for _ in range(120):  # the next upload sees this one's content once its job is done
            if p.request.get(f"{page.origin}{API_PATH}?action=job&id={job}").json()["job"]["status"] == "done":
                break
            p.wait_for_timeout(500)


def test_a_refused_question_names_the_field_not_json(page: Watched) -> None:
    p = page.goto("/#ask")
    p.fill("#question", "？？？")
    p.press("#question", "Enter")
    box = p.locator("#ask-error")
    expect(box).to_contain_text("empty_question")
    expect(box.locator("li")).to_contain_text("question: the question has no letter or digit")
    assert box.locator("pre").count() == 0 and '"loc"' not in box.inner_text()


def test_a_question_too_long_is_kept_whole_and_told_by_how_much(page: Watched) -> None:
    """The box had maxlength="2000": a pasted question was cut at 2,000 characters without a word and the cut
    one asked. Now the whole text stays, the hint counts it, and nothing is sent."""
    question = "Which of the kiln logs mentions the cracked lid of the teapot? " * 40  # 2,520 characters
    p = page.goto("/#ask")
    asked: list[str] = []
    p.on("request", lambda r: asked.append(r.url) if r.method == "POST" else None)
    p.fill("#question", question)
    expect(p.locator("#question-hint")).to_contain_text("2,519 characters: a question takes at most 2,000; "
                                                        "shorten it by 519.")
    p.press("#question", "Enter")
    expect(p.locator("#ask-error")).to_contain_text("question_too_long")
    expect(p.locator("#ask-error")).to_contain_text("Nothing was asked")
    assert p.input_value("#question") == question and not asked
    p.fill("#question", "Who repaired the kiln?")
    expect(p.locator("#question-hint")).to_have_text("Enter asks, Shift+Enter starts a new line.")


@pytest.mark.parametrize("width", [1280, 1366, DESKTOP["width"], 1920])
def test_the_tabs_stay_on_one_row_beside_the_workspace_picker(browser: Browser, empty_server: ServerProcess,
                                                               width: int) -> None:
    watched = watch(browser, empty_server.base_url, {"width": width, "height": 900})
    try:
        p = watched.goto("/#ask")
        expect(p.locator("#workspace-box")).to_be_visible()
        tops = p.locator(".tabs [role=tab]").evaluate_all("ts => ts.map(t => Math.round(t.getBoundingClientRect().top))")
        assert len(tops) == 5 and len(set(tops)) == 1, f"tabs wrapped at {width} px: {tops}"
        assert p.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    finally:
        watched.page.context.close()


def test_on_a_phone_every_tab_stays_in_sight(browser: Browser, empty_server: ServerProcess) -> None:
    watched = watch(browser, empty_server.base_url, PHONE)
    try:
        p = watched.goto("/#ask")
        expect(p.locator("#workspace-box")).to_be_visible()
        for tab in p.locator(".tabs [role=tab]").all():
            box = tab.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], tab.inner_text()
        assert p.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    finally:
        watched.page.context.close()


def test_nothing_hidden_shows_and_the_picker_waits_for_a_key(browser: Browser, keyed_server: ServerProcess,
                                                            empty_server: ServerProcess) -> None:
    for server in (keyed_server, empty_server):
        watched = watch(browser, server.base_url)
        try:
            if server is keyed_server:
                p = watched.page
                p.goto(server.base_url + "/#ask")  # listing the workspaces needs a key: no empty picker meanwhile
                expect(p.locator("#key-dialog")).to_be_visible()
                expect(p.locator("#workspace-box")).to_be_hidden()
            else:
                p = watched.goto("/#ask")
                expect(p.locator("#workspace-box")).to_be_visible()
            assert p.evaluate(SHOWN_THOUGH_HIDDEN) == []
        finally:
            watched.page.context.close()


# -- an answer read by someone who never saw the score: the decision in words, the reason without the score it
# ends with, each source's supporting words under it, a stored date at the granularity the API says ------------

ROTA = ("day — Monday: Ansel Brook\nvolunteer — Tuesday: Wren Okafor\ntask — Tuesday: feeding the goats\n"
        "volunteer — Thursday: Pim de Vries")


def answered_as(body: dict[str, Any]) -> dict[str, Any]:
    """The empty server's real response to a question, made an answer citing one rota passage dated 2024."""
    hit = {**body["related"][0]} if body.get("related") else {}
    hit.update({"id": "rota.csv#0", "docId": "rota.csv", "title": "rota", "source": "rota.csv", "page": None,
                "section": None, "text": ROTA, "score": 0.7, "channel": "hybrid", "entities": {},
                "date": 20240101, "dateGranularity": "year"})
    details = {**(body.get("retrievalDetails") or {}), "topResults": [hit]}
    return {**body, "status": "answered", "answer": "Wren Okafor. volunteer — Tuesday: Wren Okafor[1]",
            "answerSpan": "Wren Okafor", "related": [], "retrievalDetails": details,
            "citations": [{"index": 1, "id": "rota.csv#0", "docId": "rota.csv", "title": "rota",
                           "source": "rota.csv", "page": None, "section": None}],
            "answerability": {"decision": "answerable", "score": 0.61, "threshold": 0.33, "decidedBy": "score",
                              "reason": "the best evidence states who of Tuesday (answerability 0.61 ≥ 0.33)",
                              "attribute": None, "features": {}}}


def test_an_answer_reads_in_words_with_its_supporting_sentence_and_a_year_only_date(page: Watched) -> None:
    p = page.goto("/#ask")
    p.click(".options summary")
    p.uncheck("#opt-stream")  # a plain JSON answer

    def answered(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, json=answered_as(response.json()))

    p.route("**" + API_PATH, answered)
    assert ask(p, "Who looks after the goats on Tuesdays?") == "answered"
    card = p.locator(".answer-card")
    line = card.locator(".answerability")
    expect(line.locator(".status-badge")).to_have_text("supported")
    expect(line.locator(".reason")).to_have_text(" — the best evidence states who of Tuesday")
    expect(line.locator(".how")).to_have_text(" (confidence 0.61, answers from 0.33)")
    assert "answerability 0.61" not in line.inner_text()
    # the source's line of the passage that holds the short answer, not the passage's opening
    expect(card.locator(".sources .source-quote")).to_have_text("volunteer — Tuesday: Wren Okafor")
    # the short answer stands above the answer: its lead ("Wren Okafor. ") is not read twice
    expect(card.locator(".answer-text")).to_have_text("volunteer — Tuesday: Wren Okafor[1]")
    expect(card.locator(".sources .source-quote mark").first).to_be_visible()
    card.locator(".sources .cite").click()
    dialog = p.locator("#passage-dialog")
    expect(dialog.locator("dt", has_text="Date").locator("xpath=following-sibling::dd[1]")).to_have_text("2024")


def test_a_refusal_reads_in_words(page: Watched) -> None:
    p = page.goto("/#ask")
    assert ask(p, "Which ferry leaves the harbour first on Sundays?") == "no_results"  # an empty workspace
    badge = p.locator(".answer-card .answerability .status-badge")
    expect(badge).to_have_text("not in the documents")
    assert badge.get_attribute("data-decision") == "not_found"


BAKERY = "品名 — 可颂: 黄油\n单价 — 可颂: 12元\n口味 — 蛋挞: 原味\n单价 — 蛋挞: 8元"
HOURS = "Loaves — Monday: rye\nThe bakery opens at 7:00 and closes when the bread is gone. Rye is baked on Mondays."


def passage(hit_id: str, text: str, body: dict[str, Any]) -> dict[str, Any]:
    hit = {**body["related"][0]} if body.get("related") else {}
    hit.update({"id": hit_id, "docId": hit_id.split("#")[0], "title": hit_id.split("#")[0], "source": hit_id.split("#")[0],
                "page": None, "section": None, "text": text, "score": 0.6, "channel": "hybrid", "entities": {},
                "date": None, "dateGranularity": None})
    return hit


def compared_as(body: dict[str, Any]) -> dict[str, Any]:
    """The empty server's real response, made a comparison citing two lines of one price table, then a sentence
    of another passage that holds no short answer."""
    hits = [passage("价目.csv#0", BAKERY, body), passage("hours.md#0", HOURS, body)]
    details = {**(body.get("retrievalDetails") or {}), "topResults": hits}
    return {**body, "status": "answered", "related": [], "retrievalDetails": details, "answerSpan": "可颂",
            "answer": "可颂（12元）比蛋挞（8元）更贵。单价 — 可颂: 12元[1]单价 — 蛋挞: 8元[1] "
                      "The bakery opens at 7:00 and closes when the bread is gone.[2]",
            "citations": [{"index": i + 1, "id": h["id"], "docId": h["docId"], "title": h["title"], "source": h["source"],
                           "page": None, "section": None} for i, h in enumerate(hits)],
            "answerability": {"decision": "answerable", "score": None, "threshold": 0.33, "decidedBy": "rule",
                              "reason": "retrieved passages mention both 可颂 and 蛋挞", "attribute": None, "features": {}}}


def test_each_source_quotes_the_sentences_the_answer_cites_with_its_number(page: Watched) -> None:
    """A source's quote was the passage's first line holding the short answer ("品名 — 可颂: 黄油" for a price
    comparison) or, where none did, the passage's opening: not the sentence the answer cites with its number."""
    p = page.goto("/#ask")
    p.click(".options summary")
    p.uncheck("#opt-stream")

    def answered(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, json=compared_as(response.json()))

    p.route("**" + API_PATH, answered)
    assert ask(p, "可颂和蛋挞哪个贵？") == "answered"
    quotes = p.locator(".answer-card .sources .source-quote")
    expect(quotes.nth(0)).to_have_text("单价 — 可颂: 12元 … 单价 — 蛋挞: 8元")
    expect(quotes.nth(1)).to_have_text("The bakery opens at 7:00 and closes when the bread is gone.")
    # a short answer that is no sentence of its own (可颂 in 可颂（12元）比…) leaves the answer whole
    expect(p.locator(".answer-card .answer-text")).to_contain_text("可颂（12元）比蛋挞（8元）更贵。")
    # the conversation's turn reads as text: no "[1]" where nothing can be clicked
    turn = p.locator("#conversation-turns .turn-a").last
    expect(turn).to_contain_text("单价 — 可颂: 12元 单价 — 蛋挞: 8元 The bakery opens")
    assert "[1]" not in turn.inner_text() and "[2]" not in turn.inner_text()


def test_a_refusal_quotes_each_related_passage_near_the_question_words(page: Watched) -> None:
    """The related passages of a "not found" were titles and scores only: a reader opened each to see what it says."""
    p = page.goto("/#ask")
    p.click(".options summary")
    p.uncheck("#opt-stream")

    def refused(route: Route) -> None:
        body = route.fetch().json()
        related = [passage("hours.md#0", HOURS, body), passage("价目.csv#0", BAKERY, body),
                   passage("简介.md#0", "面包房简介\n面包房位于河边，早上七点开门。", body),
                   passage("sunday.md#0", "The shop sells rye. The bakery closes at noon on Sundays.", body)]
        keywords = {**(body.get("queryAnalysis") or {}), "keywords": ["bakery", "closes", "面包房"]}
        route.fulfill(json={**body, "related": related, "queryAnalysis": keywords})

    p.route("**" + API_PATH, refused)
    assert ask(p, "When does the bakery close on holidays?") == "no_results"
    quotes = p.locator(".not-found .related .source-quote")
    expect(quotes.nth(0)).to_have_text("The bakery opens at 7:00 and closes when the bread is gone.")
    expect(quotes.nth(0).locator("mark").first).to_have_text("bakery")
    expect(quotes.nth(1)).to_have_text("品名 — 可颂: 黄油")  # no word of the question: its opening line
    expect(quotes.nth(2)).to_have_text("面包房位于河边，早上七点开门。")  # not the heading that names as many
    # the sentence alone: neither the one before it on its line nor the one after it (they ran into the quote)
    expect(quotes.nth(3)).to_have_text("The bakery closes at noon on Sundays.")


IN_SIGHT = """() => {
  const status = document.querySelector('.run-status').getBoundingClientRect();
  const answer = document.querySelector('.answer-card').getBoundingClientRect();
  const x = status.left + 4, y = status.top + status.height / 2;
  const seen = document.elementFromPoint(x, y);  // the status itself, not the header over it
  return seen !== null && document.querySelector('.run-status').contains(seen)
    && window.innerHeight - answer.top >= 200;
}"""


def test_on_a_phone_the_answer_is_brought_into_sight(browser: Browser, empty_server: ServerProcess) -> None:
    """Under earlier turns a phone showed the new answer below the fold: nothing on screen changed but the button.
    And the question box's example is one question: a second one was cut mid-word in its two lines."""
    space = "bakery-phone"
    assert httpx.post(f"{empty_server.base_url}/api/workspaces", json={"name": space}).status_code in (200, 201)
    docs = [{"id": "hours.md", "title": "Bakery opening hours", "text": HOURS, "metadata": {}},
            {"id": "价目.csv", "title": "面包房价目表", "text": BAKERY, "metadata": {}}]
    added = httpx.post(f"{empty_server.base_url}{API_PATH}", headers={"X-Workspace": space}, timeout=300,
                       json={"action": "add-documents", "documents": docs})
    assert added.status_code == 200, added.text
    watched = watch(browser, empty_server.base_url, PHONE)
    try:
        p = watched.goto(f"/?workspace={space}#ask")
        expect(p.locator("#question")).to_have_attribute("placeholder", re.compile("^e\\.g\\. "))
        assert "  ·  " not in (p.locator("#question").get_attribute("placeholder") or "")
        turns = [{"question": f"第{n}个问题：面包房几点开门？", "answer": "早上七点。The bakery opens at 7:00.[1]",
                  "status": "answered"} for n in range(1, 5)]
        p.evaluate("(turns) => localStorage.setItem('aer.conversation.' + localStorage.getItem('aer.workspace'), "
                   "JSON.stringify(turns))", turns)
        p.reload()
        p.wait_for_selector("#opt-mode option", state="attached")
        expect(p.locator("#conversation-turns .turn")).to_have_count(4)
        # the header scrolls away on a phone: it stood 236 px tall over whatever was scrolled to
        assert p.locator("header.top").evaluate("el => getComputedStyle(el).position") == "static"
        ask(p, "Does the bakery sell rye on Mondays?")
        assert p.evaluate(IN_SIGHT) is True
        # a first question: its turn, shown above once answered, pushed the answer down out of sight
        p.click("#new-conversation")
        p.evaluate("window.scrollTo(0, 0)")
        ask(p, "面包房星期一卖什么面包？")
        expect(p.locator("#conversation-turns .turn")).to_have_count(1)
        assert p.evaluate(IN_SIGHT) is True
    finally:
        watched.page.context.close()
    # on a desktop the header stays (sticky): a run scrolled into sight lands under it, not behind it
    watched = watch(browser, empty_server.base_url, {"width": 1280, "height": 700})
    try:
        p = watched.goto(f"/?workspace={space}#ask")
        p.evaluate("(turns) => localStorage.setItem('aer.conversation.' + localStorage.getItem('aer.workspace'), "
                   "JSON.stringify(turns))", turns)
        p.reload()
        p.wait_for_selector("#opt-mode option", state="attached")
        ask(p, "Which bread is baked on Mondays?")
        assert p.locator("header.top").evaluate("el => getComputedStyle(el).position") == "sticky"
        assert p.evaluate(IN_SIGHT) is True
    finally:
        watched.page.context.close()


def test_an_answer_the_score_let_through_with_a_doubt_says_so_in_words(page: Watched) -> None:
    """The answer layer's "answered although the best evidence does not state …" stood under a green "supported"
    badge: both at once, in the code's words."""
    p = page.goto("/#ask")
    p.click(".options summary")
    p.uncheck("#opt-stream")

    def doubted(route: Route) -> None:
        response = route.fetch()
        body = compared_as(response.json())
        body.update(answer="早上七点。The bakery opens at 7:00 and closes when the bread is gone.[2]", answerSpan="早上七点")
        body["answerability"] = {"decision": "answerable", "score": 0.58, "threshold": 0.33, "decidedBy": "score",
                                 "reason": "answered although the best evidence does not state 几点 (answerability "
                                           "0.58 ≥ 0.33)", "attribute": None, "features": {}}
        route.fulfill(response=response, json=body)

    p.route("**" + API_PATH, doubted)
    assert ask(p, "面包房几点开门？") == "answered"
    line = p.locator(".answer-card .answerability")
    expect(line.locator(".status-badge")).to_have_text("supported, with a doubt")
    assert line.locator(".status-badge").get_attribute("data-decision") == "answerable"
    assert "warn" in (line.locator(".status-badge").get_attribute("class") or "")
    expect(line.locator(".reason")).to_have_text(" — the best evidence does not state 几点: check the cited source")
    assert "answered although" not in line.inner_text()
    expect(p.locator(".answer-card .answer-span strong")).to_have_text("早上七点")
    expect(p.locator(".answer-card .answer-text")).to_have_text("The bakery opens at 7:00 and closes when the bread is gone.[2]")
