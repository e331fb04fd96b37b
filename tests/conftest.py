"""Suite-wide defaults and hooks: tests that need a system program skip where it is missing (fail under CI);
the suite embeds with USE unless a test names another embedder."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

pytest_plugins = ["tests.support.system_deps"]


@pytest.fixture(scope="session", autouse=True)
def use_embedder_in_tests() -> Iterator[None]:
    """The suite embeds with USE unless a test names another embedder: the default (e5, ~10x slower on these
    CPUs) would slow every test that ingests through the real embedder; e5 has its own tests
    (tests/unit/graphs/test_embeddings.py). Subprocess servers inherit it too."""
    with pytest.MonkeyPatch.context() as patch:
        if "AER_EMBEDDING_PROVIDER" not in os.environ:
            patch.setenv("AER_EMBEDDING_PROVIDER", "use")
        yield
