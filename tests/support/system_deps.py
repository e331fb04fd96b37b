"""System programs some tests drive: `redis-server` (the compose-topology test) and Debian's `chromium` (the
web page's browser tests). Where one is missing those tests skip with the reason printed, so the README's test
command passes on a fresh machine; with AER_REQUIRE_SYSTEM_DEPS=1 (`.ci/run` sets it) a missing program is a
failure instead, so CI can never pass by skipping them.

A pytest plugin: tests/conftest.py loads it; a test asks for a program with a marker
(``@pytest.mark.needs_redis_server``, ``@pytest.mark.needs_chromium``); every test under tests/web needs Chromium."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REQUIRE_ENV = "AER_REQUIRE_SYSTEM_DEPS"
BROWSER_TESTS = Path(__file__).resolve().parents[1] / "web"


# marker -> (programs, any one of which will do; the Debian package that provides it)
PROGRAMS: dict[str, tuple[tuple[str, ...], str]] = {
    "needs_redis_server": (("redis-server",), "redis-server"),
    "needs_chromium": (("chromium", "chromium-browser"), "chromium"),
}


def required() -> bool:
    """Whether a missing system program fails the run (CI) rather than skipping its tests."""
    return os.environ.get(REQUIRE_ENV, "").strip().lower() in {"1", "true", "yes", "on"}


def find_program(marker: str) -> str | None:
    """The path of the program a marker needs, or None where none of its names is on PATH."""
    programs, _ = PROGRAMS[marker]
    return next((path for name in programs if (path := shutil.which(name))), None)


def missing_reason(marker: str) -> str:
    programs, package = PROGRAMS[marker]
    return (f"needs `{programs[0]}` on PATH: install the system package `{package}` "
            f"(e.g. `sudo apt-get install {package}`; .ci/run does)")


def pytest_configure(config: pytest.Config) -> None:
    for marker, (programs, package) in PROGRAMS.items():
        config.addinivalue_line("markers", f"{marker}: needs `{programs[0]}` (system package `{package}`); "
                                           f"skipped where missing unless {REQUIRE_ENV}=1")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(item.path).resolve().is_relative_to(BROWSER_TESTS):
            item.add_marker(pytest.mark.needs_chromium)


@pytest.hookimpl(tryfirst=True)  # before any fixture starts a server or a browser
def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker in PROGRAMS:
        if item.get_closest_marker(marker) is None or find_program(marker):
            continue
        if required():
            pytest.fail(f"{missing_reason(marker)}; {REQUIRE_ENV}=1 makes its absence a failure", pytrace=False)
        pytest.skip(missing_reason(marker))
