"""Suite-wide defaults and hooks: tests that need a system program skip where it is missing (fail under CI);
the suite embeds with USE unless a test names another embedder; the developer's own AER_* settings never
reach a test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

pytest_plugins = ["tests.support.system_deps"]


# What a shell may set for the suite itself; every other AER_* variable (a data dir, a vector cache, keys, a
# Milvus or Redis URL) is the developer's service configuration and would make tests read or write it.
SUITE_VARIABLES = frozenset({"AER_EMBEDDING_PROVIDER", "AER_REQUIRE_SYSTEM_DEPS", "AER_EVAL_TEST_CACHE"})


@pytest.fixture(scope="session", autouse=True)
def use_embedder_in_tests() -> Iterator[None]:
    """The suite embeds with USE unless a test names another embedder: the default (e5, ~10x slower on these
    CPUs) would slow every test that ingests through the real embedder; e5 has its own tests
    (tests/unit/graphs/test_embeddings.py). Subprocess servers inherit it too."""
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith("AER_") and n not in SUITE_VARIABLES]:
            patch.delenv(name)
        if "AER_EMBEDDING_PROVIDER" not in os.environ:
            patch.setenv("AER_EMBEDDING_PROVIDER", "use")
        yield
