"""``aer ingest`` beside a running server (it uploads through the server): folders stay in the ids, and a file
written over an indexed one is printed as replaced, as the local ingest does."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.servers import ServerProcess, aer_command, clean_env

pytestmark = pytest.mark.slow


def test_ingest_through_a_server_keeps_folders_and_prints_what_it_replaced(tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    server = ServerProcess(tmp_path / "srv").start()
    try:
        docs = tmp_path / "docs"
        for name, text in (("north", "The north depot stores 40 pallets."), ("south", "The south depot stores 75 crates.")):
            (docs / name).mkdir(parents=True)
            (docs / name / "report.md").write_text(f"# Report\n\n{text}\n", encoding="utf-8")

        def aer(*args: str) -> subprocess.CompletedProcess[str]:
            env = clean_env(AER_DATA_DIR=str(tmp_path / "own-data"))
            return subprocess.run([*aer_command(), *args, "--server", server.base_url], capture_output=True,
                                  text=True, timeout=300, env=env, cwd=tmp_path)

        first = aer("ingest", str(docs))
        assert first.returncode == 0, first.stderr
        assert f"ingested 2 document(s) as 2 chunk(s) from 2 file(s) on {server.base_url}" in first.stdout
        assert "replaced" not in first.stdout + first.stderr
        (docs / "north" / "report.md").write_text("# Report\n\nThe north depot stores 44 pallets.\n", encoding="utf-8")
        again = aer("ingest", str(docs))
        assert again.returncode == 0, again.stderr
        assert "skipped 1 unchanged" in again.stdout and again.stdout.rstrip().endswith("; replaced 1")
        assert "replaced: north/report.md" in again.stderr
    finally:
        server.kill()
