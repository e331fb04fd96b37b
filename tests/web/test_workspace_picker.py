"""The workspace picker on a real `aer serve`: the page lists the workspaces, every call it makes (upload, job
polls, the streamed query, the inventory) carries the chosen one as X-Workspace, a workspace can be created from
the page, the choice survives a reload; a document uploaded into one workspace is not found from another."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, Request, expect

from app.schemas import API_PATH
from tests.support.browser import PHONE, Watched, ask, watch
from tests.support.servers import ServerProcess

FACT = "The Kestrel depot stores 512 crates of copper wire."
QUESTION = "How many crates does the Kestrel depot store?"


@pytest.fixture(scope="module")
def ws_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """An open server with no documents and one workspace besides the default: alpha."""
    workdir = tmp_path_factory.mktemp("web-workspaces")
    process = ServerProcess(workdir).start()
    try:
        r = httpx.post(process.base_url + "/api/workspaces", json={"name": "alpha"}, timeout=60)
        assert r.status_code == 201, r.text
        yield process
    finally:
        process.stop()


@pytest.fixture
def page(browser: Browser, ws_server: ServerProcess) -> Iterator[Watched]:
    watched = watch(browser, ws_server.base_url)
    try:
        yield watched
        watched.check()
    finally:
        watched.page.context.close()


def choose(p: Page, name: str) -> None:
    """Pick a workspace: the page reloads in it."""
    with p.expect_navigation():
        p.select_option("#workspace-picker", name)
    p.wait_for_selector("#opt-mode option", state="attached")
    expect(p.locator("#workspace-picker")).to_have_value(name)


def test_upload_into_one_workspace_ask_in_another_finds_nothing(page: Watched, ws_server: ServerProcess,
                                                                tmp_path: Path) -> None:
    sent: list[tuple[str, str | None]] = []

    def record(request: Request) -> None:
        if "/api/" in request.url:
            sent.append((request.url, request.headers.get("x-workspace")))

    p = page.goto("/#documents")
    p.on("request", record)
    picker = p.locator("#workspace-picker")
    expect(picker.locator("option")).to_have_count(2)
    assert picker.locator("option").evaluate_all("os => os.map(o => o.value)") == ["default", "alpha"]
    expect(picker).to_have_value("default")

    choose(p, "alpha")
    assert p.evaluate("localStorage.getItem('aer.workspace')") == "alpha"
    note = tmp_path / "notes.md"
    note.write_text(f"# Kestrel depot\n\n{FACT}\n", encoding="utf-8")
    p.set_input_files("#upload-files", str(note))
    with p.expect_response(lambda r: r.url.endswith(f"{API_PATH}/upload")) as uploaded:
        p.click("#upload-submit")
    assert uploaded.value.status == 202
    assert uploaded.value.request.headers.get("x-workspace") == "alpha"
    job = p.locator(f'.job[data-job="{uploaded.value.json()["jobId"]}"]')
    expect(job.locator(".job-head .status-badge")).to_have_text(re.compile("^(done|failed)$"), timeout=120_000)
    expect(job.locator(".job-head .status-badge")).to_have_text("done")

    p.click("#tab-ask")
    assert ask(p, QUESTION) == "answered"
    expect(p.locator("#ask-output")).to_contain_text("512")

    # a workspace made from the page: the page switches to it
    p.click("#workspace-new")
    p.fill("#workspace-name", "Bad Name")
    p.click("#workspace-create")
    expect(p.locator("#workspace-error")).to_contain_text("lowercase")
    expect(p.locator("#workspace-error")).to_contain_text("Did you mean “bad-name”?")  # as the server's suggestion
    p.fill("#workspace-name", "beta")
    with p.expect_navigation():
        p.click("#workspace-create")
    p.wait_for_selector("#opt-mode option", state="attached")
    expect(picker).to_have_value("beta")
    assert ask(p, QUESTION) != "answered"
    # the fact's words, not its digits alone: the run id on the page is hex ("…a512395" once failed this check)
    expect(p.locator("#ask-output")).not_to_contain_text("512 crates")
    expect(p.locator("#ask-output")).not_to_contain_text("Kestrel depot stores")
    p.click("#tab-documents")
    expect(p.locator("#inventory")).not_to_contain_text("notes.md")

    p.reload()
    p.wait_for_selector("#opt-mode option", state="attached")
    expect(picker).to_have_value("beta")  # remembered in this browser

    in_workspace = [(url, ws) for url, ws in sent if "/api/workspaces" not in url]
    assert in_workspace and all(ws in ("alpha", "beta") for _, ws in in_workspace), in_workspace
    assert any(ws == "alpha" and "action=job" in url for url, ws in in_workspace)  # the job polls too
    base = ws_server.base_url + API_PATH
    listed = {name: [d["id"] for d in httpx.get(base, params={"action": "documents"}, headers={
        "X-Workspace": name}, timeout=60).json()["documents"]] for name in ("default", "alpha", "beta")}
    assert listed == {"default": [], "alpha": ["notes.md"], "beta": []}


def test_a_remembered_workspace_that_is_gone_falls_back_with_a_notice(page: Watched, ws_server: ServerProcess) -> None:
    p = page.page
    p.goto(ws_server.base_url + "/")
    # the first load has read and settled its workspace before the remembered one is planted (else that load
    # finds "gone", forgets it and shows the notice, and the second load has nothing to report)
    p.wait_for_selector("#opt-mode option", state="attached")
    p.evaluate("localStorage.setItem('aer.workspace', 'gone')")
    page.goto("/")
    expect(p.locator("#workspace-picker")).to_have_value("default")
    expect(p.locator("#banner")).to_contain_text("gone")
    assert p.evaluate("localStorage.getItem('aer.workspace')") is None


def test_a_link_naming_a_workspace_opens_the_page_in_it_once(page: Watched, ws_server: ServerProcess) -> None:
    sent: list[str | None] = []
    p = page.page
    p.on("request", lambda r: sent.append(r.headers.get("x-workspace")) if "/api/adaptive-entity-rag" in r.url
         else None)
    page.goto("/?workspace=alpha#documents")
    expect(p.locator("#workspace-picker")).to_have_value("alpha")
    expect(p.locator("#tab-documents")).to_have_attribute("aria-selected", "true")
    assert p.evaluate("location.search") == "" and p.evaluate("location.hash") == "#documents"
    assert sent and set(sent) == {"alpha"}, sent
    choose(p, "default")  # the link is taken once: the picker's choice is not overruled on the reload
    assert p.evaluate("localStorage.getItem('aer.workspace')") == "default"
    page.goto("/?workspace=nowhere")
    expect(p.locator("#workspace-picker")).to_have_value("default")
    expect(p.locator("#banner")).to_contain_text("The link names the workspace “nowhere”")


def test_the_examples_in_the_placeholders_come_from_the_workspaces_own_entities(page: Watched,
                                                                                ws_server: ServerProcess) -> None:
    # own entities in a workspace of its own: its page's examples name them; the empty default workspace shows
    # neutral texts, and no workspace shows the demo's names
    base = ws_server.base_url + API_PATH
    for name, etype in (("Crumbhaven Bakery", "ORGANIZATION"), ("酥皮坊", "ORGANIZATION")):
        r = httpx.post(base, json={"action": "add-entity", "standardName": name, "type": etype},
                       headers={"X-Workspace": "gamma"}, timeout=60)
        if r.status_code == 404:  # the workspace first
            assert httpx.post(ws_server.base_url + "/api/workspaces", json={"name": "gamma"},
                              timeout=60).status_code == 201
            r = httpx.post(base, json={"action": "add-entity", "standardName": name, "type": etype},
                           headers={"X-Workspace": "gamma"}, timeout=60)
        assert r.status_code == 200, r.text
    p = page.page
    p.goto(ws_server.base_url + "/")
    p.wait_for_selector("#opt-mode option", state="attached")
    choose(p, "gamma")
    expect(p.locator("#question")).to_have_attribute("placeholder", re.compile("Crumbhaven Bakery|酥皮坊"))
    expect(p.locator("#entity-q")).to_have_attribute("placeholder", re.compile("Crumbhaven Bakery|酥皮坊"))
    choose(p, "default")
    p.wait_for_timeout(500)  # the examples' requests have answered (an empty workspace: nothing to show)
    shown = p.evaluate("[...document.querySelectorAll('[placeholder]')].map((e) => e.placeholder).join(' | ')")
    assert "Crumbhaven" not in shown and "酥皮坊" not in shown
    for demo_name in ("马斯克", "Jensen Huang", "黄仁勋", "雷军", "苹果", "su7"):
        assert demo_name not in shown, (demo_name, shown)
    # two documents of one title give one example, not the same one twice
    twice = p.evaluate("""async () => (await import('/static/js/examples.js'))
        .examples([], ['Closing up', 'Closing up', '排班表'])['#question']""")
    assert twice == "e.g. What does “Closing up” say?  ·  《排班表》讲了什么？", twice
    # an entity named by a common noun is asked about, not defined ("What is fire extinguisher?")
    asked = p.evaluate("""async () => { const m = await import('/static/js/examples.js');
        return ['fire extinguisher', 'Crumbhaven Bakery', '灭火器'].map(m.questionAbout); }""")
    assert asked == ["What do the documents say about fire extinguisher?", "What is Crumbhaven Bakery?", "灭火器是什么？"]
    # a person is asked who they are, in the name's language ("周建国是什么？" asked what a person is)
    people = p.evaluate("""async () => (await import('/static/js/examples.js')).examples(
        [{name: '周建国', type: 'PERSON'}, {name: 'Mara Quist', type: 'PERSON'}], [], 2)['#question']""")
    assert people == "e.g. 周建国是谁？  ·  Who is Mara Quist?", people


def _label_fits(p: Page) -> tuple[float, float]:
    """The width the picker's chosen label needs (its text in the select's font, plus padding and the arrow) and
    the width the select has."""
    return p.evaluate("""() => {
        const s = document.querySelector('#workspace-picker');
        const css = getComputedStyle(s);
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = `${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
        const text = s.options[s.selectedIndex].textContent;
        const need = ctx.measureText(text).width + parseFloat(css.paddingLeft) + parseFloat(css.paddingRight) + 20;
        return [need, s.clientWidth];
    }""")


def test_on_a_phone_the_pickers_label_is_whole_and_its_count_follows_an_upload(
        browser: Browser, ws_server: ServerProcess, tmp_path: Path) -> None:
    """At 390 px a 9rem cap cut "page6 (9 docs)" to "page6 (9 docs"; after an upload the label still said
    "(0 docs)" until the page was reloaded."""
    assert httpx.post(ws_server.base_url + "/api/workspaces", json={"name": "library-rules"},
                      timeout=60).status_code == 201
    watched = watch(browser, ws_server.base_url, PHONE)
    try:
        p = watched.goto("/#documents")
        choose(p, "library-rules")
        picker = p.locator("#workspace-picker")
        expect(picker.locator("option:checked")).to_have_text("library-rules (0 docs)")
        need, has = _label_fits(p)
        assert need <= has, f"the label needs {need:.0f} px, the picker has {has:.0f} px"
        assert p.evaluate("document.documentElement.scrollWidth") <= 390
        note = tmp_path / "loans.md"
        note.write_text("# Loans\n\nA reader may borrow 10 books at a time.\n", encoding="utf-8")
        p.set_input_files("#upload-files", str(note))
        p.click("#upload-submit")
        badge = p.locator(".job .job-head .status-badge").first
        expect(badge).to_have_text(re.compile("^(done|failed)$"), timeout=120_000)
        expect(picker.locator("option:checked")).to_have_text("library-rules (1 doc)")
        need, has = _label_fits(p)
        assert need <= has, f"the label needs {need:.0f} px, the picker has {has:.0f} px"
        watched.check()
    finally:
        watched.page.context.close()


def test_the_workspace_in_use_is_deleted_from_the_page_with_its_name_typed(page: Watched,
                                                                           ws_server: ServerProcess) -> None:
    """A new user who made a workspace on the page could not delete it there (only `aer workspaces delete` or the
    API could): Delete… beside the picker deletes the one in use once its name is typed, then opens the default."""
    base = ws_server.base_url + API_PATH
    assert httpx.post(ws_server.base_url + "/api/workspaces", json={"name": "scratch"}, timeout=60).status_code == 201
    assert httpx.post(base, json={"action": "add-documents", "documents": [{"id": "n.md", "text": FACT}]},
                      headers={"X-Workspace": "scratch"}, timeout=120).status_code == 200
    p = page.goto("/")
    expect(p.locator("#workspace-delete")).to_be_disabled()  # default: protected
    choose(p, "scratch")
    p.evaluate("localStorage.setItem('aer.conversation.scratch', '[]')")
    p.click("#workspace-delete")
    expect(p.locator("#workspace-delete-title")).to_have_text("Delete workspace “scratch”")
    # the copy to make first is named with this workspace, ready to paste (it read "NAME FILE")
    expect(p.locator("#workspace-delete-export")).to_have_text("aer workspaces export scratch scratch.aerws")
    expect(p.locator("#workspace-delete-export-api")).to_have_text("GET /api/workspaces/scratch/export")
    confirm = p.locator("#workspace-delete-confirm")
    p.fill("#workspace-delete-name", "scratc")
    expect(confirm).to_be_disabled()
    p.press("#workspace-delete-name", "Enter")  # Enter before the name is typed out deletes nothing
    assert "scratch" in [w["name"] for w in httpx.get(ws_server.base_url + "/api/workspaces", timeout=60).json()[
        "workspaces"]]
    p.fill("#workspace-delete-name", "scratch")
    expect(confirm).to_be_enabled()
    with p.expect_navigation():
        confirm.click()
    p.wait_for_selector("#opt-mode option", state="attached")
    expect(p.locator("#workspace-picker")).to_have_value("default")
    expect(p.locator("#workspace-picker option[value='scratch']")).to_have_count(0)
    expect(p.locator("#banner")).to_contain_text("Deleted the workspace “scratch” with its 1 document(s)")
    assert p.evaluate("localStorage.getItem('aer.conversation.scratch')") is None
    names = [w["name"] for w in httpx.get(ws_server.base_url + "/api/workspaces", timeout=60).json()["workspaces"]]
    assert "scratch" not in names


def test_a_question_in_an_empty_workspace_says_so_and_names_those_with_documents(page: Watched,
                                                                                 ws_server: ServerProcess) -> None:
    """A new user uploaded into one workspace and asked in another: the page said only "No relevant information
    was found"."""
    base = ws_server.base_url + API_PATH
    r = httpx.post(ws_server.base_url + "/api/workspaces", json={"name": "filled"}, timeout=60)
    assert r.status_code in (201, 409), r.text
    assert httpx.post(base, json={"action": "add-documents", "documents": [{"id": "depot.md", "text": FACT}]},
                      headers={"X-Workspace": "filled"}, timeout=120).status_code == 200
    p = page.goto("/")
    choose(p, "default")
    assert ask(p, QUESTION) == "no_results"
    note = p.locator("#ask-output .empty-workspace")
    expect(note).to_contain_text("The workspace “default” has no documents yet")
    expect(note).to_contain_text("filled (1)")
    choose(p, "filled")
    assert ask(p, QUESTION) == "answered"
    expect(p.locator("#ask-output .empty-workspace")).to_have_count(0)
