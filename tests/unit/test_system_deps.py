"""The README's test command on a fresh machine: tests that need `redis-server` or `chromium` skip with the
reason printed where the program is missing, and fail instead under CI (AER_REQUIRE_SYSTEM_DEPS=1, .ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.system_deps import BROWSER_TESTS, PROGRAMS, REQUIRE_ENV

ROOT = Path(__file__).resolve().parents[2]

SAMPLE = '''
import pytest

@pytest.mark.needs_redis_server
def test_uses_redis():
    pass

@pytest.mark.needs_chromium
def test_uses_chromium():
    pass

def test_needs_nothing():
    pass
'''


def run_sample(tmp_path: Path, path_dirs: list[Path], **env: str) -> subprocess.CompletedProcess[str]:
    """pytest over SAMPLE with the plugin, PATH reduced to path_dirs (the interpreter is called by its path)."""
    (tmp_path / "test_sample.py").write_text(SAMPLE, encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if k != REQUIRE_ENV and not k.startswith("PYTEST_")}
    clean.update(PATH=os.pathsep.join(str(d) for d in path_dirs), PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfEs", "-p", "no:cacheprovider", "-p", "tests.support.system_deps",
         "test_sample.py"],
        cwd=tmp_path, env=clean, capture_output=True, text=True, timeout=120, check=False)


def fake_programs(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        program = folder / name
        program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        program.chmod(0o755)
    return folder


def test_missing_programs_skip_with_the_reason_printed(tmp_path: Path) -> None:
    empty = fake_programs(tmp_path / "bin")
    done = run_sample(tmp_path, [empty])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 2 skipped" in done.stdout, done.stdout
    assert "SKIPPED" in done.stdout and "needs `redis-server` on PATH" in done.stdout, done.stdout
    assert "needs `chromium` on PATH" in done.stdout and "apt-get install chromium" in done.stdout, done.stdout


@pytest.mark.parametrize("value", ["1", "true"])
def test_ci_makes_a_missing_program_a_failure(tmp_path: Path, value: str) -> None:
    empty = fake_programs(tmp_path / "bin")
    done = run_sample(tmp_path, [empty], **{REQUIRE_ENV: value})
    assert done.returncode != 0, done.stdout
    assert "1 passed, 2 errors" in done.stdout, done.stdout
    assert "skipped" not in done.stdout
    assert f"{REQUIRE_ENV}=1 makes its absence a failure" in done.stdout, done.stdout


def test_present_programs_run_the_tests(tmp_path: Path) -> None:
    # one folder holds redis-server, another chromium-browser (the other name a distribution may use)
    on_path = [fake_programs(tmp_path / "a", "redis-server"), fake_programs(tmp_path / "b", "chromium-browser")]
    done = run_sample(tmp_path, on_path, **{REQUIRE_ENV: "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 passed" in done.stdout and "skipped" not in done.stdout, done.stdout


def test_only_the_marked_program_counts(tmp_path: Path) -> None:
    done = run_sample(tmp_path, [fake_programs(tmp_path / "bin", "redis-server")])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed, 1 skipped" in done.stdout and "needs `chromium`" in done.stdout, done.stdout


def collected(*args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=180, check=False)
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_the_suites_tests_carry_the_markers() -> None:
    """Every browser test needs Chromium and the compose-topology test needs redis-server."""
    web = collected(str(BROWSER_TESTS))
    assert web and collected("-m", "needs_chromium", str(BROWSER_TESTS)) == web
    redis_tests = collected("-m", "needs_redis_server", str(ROOT / "tests/integration/test_server_process.py"))
    assert any("test_compose_topology_without_docker" in t for t in redis_tests), redis_tests
    assert set(PROGRAMS) == {"needs_redis_server", "needs_chromium"}


def test_the_real_tests_skip_before_their_fixtures_start(tmp_path: Path) -> None:
    """The compose-topology test and a browser test, with neither program on PATH: skipped with the reason,
    before any fixture starts a server or a browser (a fresh machine's README test command)."""
    empty = fake_programs(tmp_path / "bin")
    clean = {k: v for k, v in os.environ.items() if k != REQUIRE_ENV and not k.startswith("PYTEST_")}
    clean.update(PATH=str(empty), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/integration/test_server_process.py::test_compose_topology_without_docker",
         "tests/web/test_job_progress.py"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    tail = done.stdout.strip().splitlines()[-1]  # every test skipped (the browser file's count may grow)
    assert "skipped" in tail and "passed" not in tail and "failed" not in tail, done.stdout
    assert "needs `redis-server`" in done.stdout, done.stdout
    assert "needs `chromium`" in done.stdout and "error" not in done.stdout.lower(), done.stdout


def test_ci_entry_point_requires_the_programs() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {REQUIRE_ENV}=1" in script
    assert script.index(f"export {REQUIRE_ENV}=1") < script.index("pytest")
    for _, package in PROGRAMS.values():
        assert package in script
