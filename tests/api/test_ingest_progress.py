"""``aer ingest PATH`` (``ingest_folder``): the progress moves with the first document, then in batches of
about a second of work, and every document is counted once."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.services.documents import ingest_folder
from app.settings import Settings
from graphs.ingest.progress import Progress
from tests.support.apps import fast_resources


class Recorder(Progress):
    def __init__(self, total: int) -> None:
        super().__init__(total, tty=False)
        self.steps: list[int] = []

    def update(self, documents: int, chunks: int = 0) -> None:
        self.steps.append(documents)
        super().update(documents, chunks)


def test_a_folder_ingest_reports_the_first_document_alone(tmp_path: Path) -> None:
    folder = tmp_path / "kb"
    folder.mkdir()
    for i in range(9):
        (folder / f"note-{i}.md").write_text(f"# Note {i}\n\nThe tea of region {i} is picked in spring.\n",
                                             encoding="utf-8")
    bars: list[Recorder] = []

    def progress(total: int) -> Recorder:
        bars.append(Recorder(total))
        return bars[-1]

    resources = fast_resources(Settings(data_dir=tmp_path / "data", _env_file=None))  # type: ignore[call-arg]
    try:
        result = ingest_folder(resources, folder, progress=progress)
    finally:
        resources.close()
    assert result.report.documents == 9 and not result.failed
    (bar,) = bars
    assert bar.total == 9 and sum(bar.steps) == 9 and bar.done == 9
    assert bar.steps[0] == 1  # the rate and the ETA are known after the first document
    assert all(b <= 2 * a for a, b in zip(bar.steps, bar.steps[1:], strict=False))  # batches grow at most twofold


def test_the_demos_ingest_moves_per_document_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """`aer demo` (and `aer ingest` of a corpus in-process): the first step is one document, every one counted."""
    from app.cli import demo_dir, ingest_documents, read_documents
    from graphs.ingest import progress as progress_module

    bars: list[Recorder] = []

    def progress(total: int) -> Recorder:
        bars.append(Recorder(total))
        return bars[-1]

    monkeypatch.setattr(progress_module, "Progress", progress)  # the CLI imports it when it runs
    docs = read_documents(demo_dir() / "corpus.jsonl")
    resources = fast_resources(Settings(data_dir=tmp_path / "data", _env_file=None))  # type: ignore[call-arg]
    try:
        ingest_documents(resources, docs)
        assert resources.context.index.document_ids() == {d.id for d in docs}
    finally:
        resources.close()
    (bar,) = bars
    assert bar.steps[0] == 1 and sum(bar.steps) == len(docs)
    assert f"ingested {len(docs)} document(s)" in capsys.readouterr().out
