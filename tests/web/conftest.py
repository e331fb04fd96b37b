"""Browser tests: headless Chromium (Debian's `chromium` package, never a downloaded browser) driven by Playwright,
against real `aer serve` processes over the demo corpus. `--screenshots DIR` keeps the pages' screenshots there
(the README's come from `pytest tests/web --screenshots docs/screenshots`); by default they go to a temp dir."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from app.cli import SEED_QUESTIONS, demo_dir
from tests.support.browser import API_KEY, CHROMIUM_ARGS, LLM_MODEL, PHONE, SYNC_MAX_CHARS, Watched, watch
from tests.support.openai_stub import OpenAIStub
from tests.support.servers import ServerProcess, aer_command, clean_env

# Gold documents of the demo corpus for the seed questions: a tiny eval set, so the Evaluation tab has a report.
EVAL_QUESTIONS = [
    {"id": "q1", "question": SEED_QUESTIONS[0], "answers": ["SpaceX"], "gold_ids": ["musk-ventures-zh"], "type": "factual"},
    {"id": "q2", "question": SEED_QUESTIONS[2], "answers": ["人工智能的一个分支"], "gold_ids": ["concept-ml-zh"],
     "type": "conceptual"},
    {"id": "q3", "question": "特斯拉和SpaceX谁先成立？", "answers": ["Tesla"],
     "gold_ids": ["tesla-cofounder-en", "spacex-founding-zh"], "type": "comparison"},
]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--screenshots", default=None, help="Folder for the pages' screenshots (default: a temp dir).")


@pytest.fixture(scope="session")
def screenshots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    chosen = request.config.getoption("--screenshots", default=None)
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def run_aer(workdir: Path, env: dict[str, str], *args: str, timeout: float = 600) -> str:
    """Run an `aer` command in workdir with only these settings; its output (it must succeed)."""
    done = subprocess.run([*aer_command(), *args], cwd=workdir, env=clean_env(**env), capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, f"aer {' '.join(args)} failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def demo_server(workdir: Path, **env: str) -> ServerProcess:
    """`aer serve` over the demo corpus and entity list, loaded with the CLI first (one process per data dir)."""
    settings = {"AER_DATA_DIR": str(workdir / "data"), **env}
    run_aer(workdir, settings, "entities", "import", str(demo_dir() / "entities.jsonl"))
    run_aer(workdir, settings, "ingest", str(demo_dir() / "corpus.jsonl"))
    return ServerProcess(workdir, settings).start()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The open server: the demo corpus, an `aer eval` report of a tiny eval set in its results folder, and
    add-documents over SYNC_MAX_CHARS characters run as ingest jobs."""
    workdir = tmp_path_factory.mktemp("web")
    dataset = workdir / "demo-seeds"
    dataset.mkdir()
    shutil.copy(demo_dir() / "corpus.jsonl", dataset / "corpus.jsonl")
    (dataset / "questions.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in EVAL_QUESTIONS), encoding="utf-8")
    results = workdir / "eval-results"
    env = {"AER_DATA_DIR": str(workdir / "data"), "AER_EVAL_RESULTS_DIR": str(results)}
    run_aer(workdir, env, "eval", str(dataset), "--mode", "bm25,hybrid,full")
    assert (results / "eval-demo-seeds.json").is_file()
    process = demo_server(workdir, AER_EVAL_RESULTS_DIR=str(results), AER_INGEST_SYNC_MAX_CHARS=str(SYNC_MAX_CHARS))
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="session")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that needs an API key for everything, reads included, and writes its answers with an LLM (a
    scripted OpenAI-compatible server that streams its answer, so the page gets token events)."""
    with OpenAIStub() as llm:
        process = demo_server(tmp_path_factory.mktemp("web-keyed"), AER_API_KEYS=API_KEY,
                              AER_REQUIRE_KEY_FOR_QUERIES="true", AER_LLM_BASE_URL=llm.url, AER_LLM_MODEL=LLM_MODEL,
                              AER_LLM_API_KEY="stub-key")
        try:
            yield process
        finally:
            process.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    assert executable, "no chromium on PATH: install Debian's `chromium` package (.ci/run does)"
    browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def page(browser: Browser, server: ServerProcess) -> Iterator[Watched]:
    watched = watch(browser, server.base_url)
    try:
        yield watched
        watched.check()
    finally:
        watched.page.context.close()


@pytest.fixture
def phone(browser: Browser, server: ServerProcess) -> Iterator[Watched]:
    watched = watch(browser, server.base_url, PHONE)
    try:
        yield watched
        watched.check()
    finally:
        watched.page.context.close()
