"""The browser tests' shared pieces: Chromium's flags, the viewports, the keyed server's settings, and a page
watched for console errors, uncaught exceptions and requests that leave the server."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.sync_api import Browser, ConsoleMessage, Page, Request

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-dev-shm-usage"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 90_000  # two shared cores: a first query loads jieba and the encoder's graph
API_KEY = "page-test-key"
SYNC_MAX_CHARS = 4000  # the open server queues an add-documents with more text as an ingest job (202 jobId)
LLM_MODEL = "stub-writer"


@dataclass
class Watched:
    """A page and what it did: console errors, uncaught exceptions and every URL it requested."""

    page: Page
    origin: str
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    expected_statuses: set[int] = field(default_factory=set)

    def expect_status(self, status: int) -> None:
        """An error answer this test provokes (Chromium logs every 4xx as a console error)."""
        self.expected_statuses.add(status)

    def goto(self, path: str = "/") -> Page:
        self.page.goto(self.origin + path)
        self.page.wait_for_selector("#opt-mode option", state="attached")  # the server's info arrived
        return self.page

    def check(self) -> None:
        assert not self.errors, self.errors
        outside = [url for url in self.requests if not url.startswith((self.origin, "data:", "blob:"))]
        assert not outside, f"the page requested something outside the server: {outside}"


def watch(browser: Browser, origin: str, viewport: dict[str, int] = DESKTOP) -> Watched:
    context = browser.new_context(viewport=viewport, locale="en-US")  # type: ignore[arg-type]
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    watched = Watched(page, origin)

    def console(message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        status = re.search(r"responded with a status of (\d{3})", message.text)
        if not (status and int(status.group(1)) in watched.expected_statuses):
            watched.errors.append(message.text)

    def request(req: Request) -> None:
        watched.requests.append(req.url)

    page.on("console", console)
    page.on("pageerror", lambda exc: watched.errors.append(f"uncaught: {exc}"))
    page.on("request", request)
    return watched


def ask(page: Page, question: str) -> str:
    """Ask through the form (Enter in the question box) and wait for the result; the response's status (the
    badge shows it in words: "not found" for ``no_results``)."""
    page.fill("#question", question)
    page.press("#question", "Enter")
    badge = page.locator(".run-status .status-badge")
    badge.wait_for()
    return badge.get_attribute("data-status") or badge.inner_text()
