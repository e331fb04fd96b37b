"""Fixtures for tests against the real local LLM (mark them `@pytest.mark.llm`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.tools.local_llm import LocalLLMServer, default_model_path, verify_model, xllamacpp_version

LOCAL_LLM_MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
LLM_TEST_TIMEOUT_S = 1800
"""A test against the local LLM makes up to four calls of 5-300 s each on two shared CPU cores (a graph run: the
parser, the expansion judge, the evidence selector, the writer): the suite's 300 s would cut it off mid-call."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("llm") is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(LLM_TEST_TIMEOUT_S))


@pytest.fixture(scope="session")
def local_llm_server() -> Iterator[LocalLLMServer]:
    """Start the local LLM once per session; skip when xllamacpp or the model is absent."""
    if xllamacpp_version() is None:
        pytest.skip("xllamacpp is not installed: pip install '.[local-llm]'")
    model = default_model_path(LOCAL_LLM_MODELS_DIR)
    if not model.is_file():
        pytest.skip(f"local LLM model not found at {model}: run `aer local-llm install`")
    if not verify_model(model):
        pytest.skip(f"{model} has the wrong sha256: delete it and run `aer local-llm install`")
    with LocalLLMServer(model, n_ctx=4096, n_threads=2) as server:
        yield server


@pytest.fixture(scope="session")
def local_llm_url(local_llm_server: LocalLLMServer) -> str:
    """OpenAI-compatible base URL of the local LLM, ``http://127.0.0.1:PORT/v1``."""
    return local_llm_server.base_url


@pytest.fixture(scope="session")
def local_llm_model(local_llm_server: LocalLLMServer) -> str:
    """Model name to send to the local LLM."""
    return local_llm_server.model_name
