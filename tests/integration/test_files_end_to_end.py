"""A folder of real files, as a new user loads it: ``aer ingest FOLDER``, then questions whose citations name
the file and its page or section; re-ingest of a changed file, skip of unchanged ones, ``--prune`` of a removed
one, and ``aer documents``. The real stack: USE embedder, Milvus Lite, SQLite stores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from app.cli import cli
from app.cli.documents import HEADER
from app.main import create_app
from tests.support.apps import URL, settings_for
from tests.support.documents import write_broken, write_folder

pytestmark = pytest.mark.slow

QUESTIONS = [
    ("How long should green tea be brewed?", "guides/tea.md", None, "Green tea"),
    ("When was the Orchid Company founded?", "report.pdf", 1, None),
    ("What does the Orchid Company plan for 2026?", "report.pdf", 3, None),
    ("What pressure should road tyres have?", "bike.html", None, "Tyres"),
    ("病假需要什么证明？", "handbook.docx", None, "病假"),
    ("故宫建于什么时候？", "beijing.pdf", 2, None),
]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("kb")
    write_folder(root)
    write_broken(root / "broken")
    return root


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("data")


def aer(data_dir: Path, *args: str) -> Any:
    """Run ``aer ARGS`` in-process on this data dir."""
    return CliRunner().invoke(cli, list(args), env={"AER_DATA_DIR": str(data_dir)}, catch_exceptions=False)


@pytest.fixture(scope="module")
def first_ingest(folder: Path, data_dir: Path) -> Any:
    return aer(data_dir, "ingest", str(folder))


@pytest.fixture(scope="module")
def answers(first_ingest: Any, data_dir: Path) -> dict[str, dict[str, Any]]:
    """Every question asked once over HTTP (the app closes after: one process per Milvus Lite file)."""
    with TestClient(create_app(settings_for(data_dir))) as client:
        return {q: client.post(URL, json={"action": "query", "question": q, "topK": 3}).json() for q, *_ in QUESTIONS}


def test_a_folder_is_ingested_and_unreadable_files_are_named(first_ingest: Any) -> None:
    out = first_ingest.output
    assert first_ingest.exit_code == 1, out  # two files could not be read: the exit code says so
    assert "ingested 6 document(s)" in out and "from 8 file(s)" in out and "failed 2" in out
    assert "failed: broken/secret.pdf: encrypted_file" in out
    assert "failed: broken/broken.docx: corrupt_file" in out
    assert "chunks/s; the embedder alone" in out and "outside the embedder" in out


@pytest.mark.parametrize(("question", "source", "page", "section"), QUESTIONS)
def test_answers_cite_the_file_and_its_page_or_section(answers: dict[str, dict[str, Any]], question: str,
                                                       source: str, page: int | None, section: str | None) -> None:
    body = answers[question]
    first = body["citations"][0]
    assert (first["source"], first["page"], first["section"]) == (source, page, section), body["citations"]
    top = body["retrievalDetails"]["topResults"][0]
    assert (top["source"], top["page"], top["section"]) == (source, page, section)


def test_the_cli_prints_where_a_citation_is(answers: dict[str, Any], data_dir: Path) -> None:
    result = aer(data_dir, "query", "When was the Orchid Company founded?")
    assert result.exit_code == 0, result.output
    assert "[1] Orchid Company Annual Report (report.pdf, p. 1)" in result.output
    listed = aer(data_dir, "documents", "list", "--source", "guides")
    assert listed.output.startswith(HEADER + "\nguides/tea.md\tTea Handbook\tguides/tea.md\t3 chunk(s)")
    shown = aer(data_dir, "documents", "show", "handbook.docx")
    assert "#2 handbook.docx#2 (§ 病假)" in shown.output and "病假超过三天需要提供医院证明。" in shown.output


def test_reingest_skips_unchanged_files_replaces_changed_ones_and_prunes_removed_ones(
    folder: Path, data_dir: Path, first_ingest: Any
) -> None:
    (folder / "guides" / "tea.md").write_text("# Tea Handbook\n\n## Oolong\n\nOolong is partly oxidized.\n",
                                              encoding="utf-8")
    (folder / "office.txt").unlink()
    result = aer(data_dir, "ingest", str(folder), "--exclude", "broken/*", "--prune")
    assert result.exit_code == 0, result.output
    assert "ingested 1 document(s) as 1 chunk(s) from 5 file(s); skipped 4 unchanged; removed 1; failed 0" in result.output
    shown = aer(data_dir, "documents", "show", "guides/tea.md", "--json")
    assert '"section": "Oolong"' in shown.output and "Green tea" not in shown.output
    gone = aer(data_dir, "documents", "show", "office.txt")
    assert gone.exit_code == 2 and "document_not_found" in gone.output
    assert aer(data_dir, "documents", "delete", "bike.html").exit_code == 0
    listed = aer(data_dir, "documents", "list")
    assert "4 of 4 document(s)" in listed.output and "bike.html" not in listed.output
    forced = aer(data_dir, "ingest", str(folder / "report.pdf"), "--force")
    assert "ingested 1 document(s) as 3 chunk(s) from 1 file(s); skipped 0 unchanged" in forced.output
