"""A workspace to one file and back (``app/services/workspace_archive.py``): export, import into a fresh data dir
with the same answers and nothing embedded again, the refusals (another embedder, a non-empty target, a corrupt or
foreign file), a killed restore that leaves nothing, and removal that leaves nothing (``residue``). Real Milvus Lite
files and SQLite stores; a small deterministic embedder with a fingerprint stands in for the model."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import container
from app.container import Resources, build_resources
from app.services.workspace_archive import (
    ArchiveError,
    contents,
    export_workspace,
    finish_restores,
    held,
    import_workspace,
    purge_workspace,
    read_manifest,
    residue,
    restore_workspace,
)
from graphs.domain import Document
from tests.support.archive import Fake, fill_workspace, settings, top_passages


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Fake:
    fake = Fake(size=32)
    monkeypatch.setattr(container, "build_embedder", lambda settings: (fake, fake.size, fake.name))
    return fake


@pytest.fixture
def source(model: Fake, tmp_path: Path) -> Iterator[Resources]:
    res = build_resources(settings(tmp_path / "source"))
    try:
        fill_workspace(res)
        yield res
    finally:
        res.close()


def test_export_then_import_answers_the_same_without_embedding(source: Resources, model: Fake,
                                                                  tmp_path: Path) -> None:
    archive = tmp_path / "ws.aerws"
    before = top_passages(source)
    held = contents(source)
    manifest = export_workspace(source, archive)
    assert manifest["counts"]["chunks"] == held["chunks"] > 0
    assert manifest["embedder"]["name"] == "fake-archive" and manifest["dimension"] == 32
    assert not list(tmp_path.glob(".*part")), "the export is renamed into place"

    embedded = model.calls
    target = build_resources(settings(tmp_path / "target"))
    try:
        written = import_workspace(archive, target)
        assert model.calls == embedded, "an import never embeds a passage"
        assert written["chunks"] == held["chunks"]
        assert contents(target) == held  # every row of every store, the job history and the entities
        assert top_passages(target) == before
        assert target.catalog is not None and source.catalog is not None
        assert target.catalog.list(limit=100) == source.catalog.list(limit=100)
        assert target.context.entities.lookup("老马") == source.context.entities.lookup("老马")
        for doc in sorted(source.index.document_ids())[:3]:
            assert target.index.chunk_vectors(doc) == source.index.chunk_vectors(doc)
    finally:
        target.close()


def test_an_import_survives_a_new_process(source: Resources, tmp_path: Path) -> None:
    """The search mirror and the Lite file agree after an import: a reopened workspace answers the same."""
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    before = top_passages(source)
    target = build_resources(settings(tmp_path / "target"))
    import_workspace(archive, target)
    target.close()
    reopened = build_resources(settings(tmp_path / "target"))
    try:
        assert top_passages(reopened) == before
    finally:
        reopened.close()


def test_import_refuses_another_embedder_naming_both(source: Resources, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    other = Fake(size=48, name="other-model")
    monkeypatch.setattr(container, "build_embedder", lambda s: (other, other.size, other.name))
    target = build_resources(settings(tmp_path / "target"))
    try:
        with pytest.raises(ArchiveError) as err:
            import_workspace(archive, target)
        assert err.value.code == "embedder_mismatch"
        assert "fake-archive" in err.value.message and "other-model" in err.value.message
        assert held(target) == {}
    finally:
        target.close()


def test_import_refuses_a_non_empty_workspace_unless_replacing(source: Resources, tmp_path: Path) -> None:
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    target = build_resources(settings(tmp_path / "target"))
    try:
        target.ingestor.ingest([Document(id="mine.md", title="Mine", text="A note of my own about ducks.")])
        with pytest.raises(ArchiveError) as err:
            import_workspace(archive, target)
        assert err.value.code == "workspace_not_empty"
        assert target.index.document_ids() == {"mine.md"}, "a refused import changes nothing"
        import_workspace(archive, target, replace=True)
        assert "mine.md" not in target.index.document_ids()
        assert contents(target) == contents(source)
    finally:
        target.close()


def corrupt(archive: Path, dest: Path, member: str) -> Path:
    """A copy of the archive whose ``member`` has one byte changed."""
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(dest, "w") as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == member:
                data = data[:-2] + bytes([data[-2] ^ 1]) + data[-1:]
            out.writestr(info, data)
    return dest


def test_a_corrupt_or_foreign_file_is_refused_with_a_code(source: Resources, tmp_path: Path) -> None:
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    damaged = corrupt(archive, tmp_path / "damaged.aerws", "chunks/000000.jsonl")
    foreign = tmp_path / "foreign.zip"
    with zipfile.ZipFile(foreign, "w") as zf:
        zf.writestr("manifest.json", json.dumps({"format": "something-else", "version": 1}))
    not_zip = tmp_path / "notes.aerws"
    not_zip.write_text("hello")
    truncated = tmp_path / "truncated.aerws"
    truncated.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    newer = tmp_path / "newer.aerws"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(newer, "w") as out:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "manifest.json":
                data = json.dumps({**json.loads(data), "version": 99}).encode()
            out.writestr(info, data)
    cases = {damaged: "archive_invalid", foreign: "archive_invalid", not_zip: "archive_invalid",
             truncated: "archive_invalid", newer: "archive_version"}
    target = build_resources(settings(tmp_path / "target"))
    try:
        for path, code in cases.items():
            with pytest.raises(ArchiveError) as err:
                import_workspace(path, target)
            assert err.value.code == code, path.name
            assert held(target) == {}, f"{path.name}: nothing written"
    finally:
        target.close()
    with pytest.raises(ArchiveError) as missing:
        read_manifest(tmp_path / "absent.aerws")
    assert missing.value.code == "archive_not_found"


def test_restore_into_a_workspace_just_created(source: Resources, tmp_path: Path) -> None:
    """A workspace created (its stores opened once, empty) takes an archive without --replace."""
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    ws = settings(tmp_path / "root" / "workspaces" / "fresh")
    build_resources(ws).close()
    assert residue(ws), "its empty store files exist"
    restore_workspace(archive, ws)
    res = build_resources(ws)
    try:
        assert res.index.count() == source.index.count()
    finally:
        res.close()


def test_restore_into_a_new_workspace_dir(source: Resources, tmp_path: Path) -> None:
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive)
    before = top_passages(source)
    ws = settings(tmp_path / "root" / "workspaces" / "team")
    restore_workspace(archive, ws)
    assert not list((tmp_path / "root" / "workspaces").glob(".import-*"))
    res = build_resources(ws)
    try:
        assert top_passages(res) == before
    finally:
        res.close()
    with pytest.raises(ArchiveError) as err:
        restore_workspace(archive, ws)
    assert err.value.code == "workspace_not_empty"
    restore_workspace(archive, ws, replace=True)  # replacing keeps root entries of other workspaces
    res = build_resources(ws)
    try:
        assert top_passages(res) == before
    finally:
        res.close()


def _restore_and_hang(archive: str, data_dir: str, ready: Any) -> None:
    """In a child process: restore, but stop for good once half the chunks are written (to be killed)."""
    from app.services import workspace_archive
    from graphs.stores.milvus import bulk

    fake = Fake(size=32)
    container.build_embedder = lambda s: (fake, fake.size, fake.name)  # type: ignore[assignment]
    original = bulk.import_rows
    calls = {"n": 0}

    def slow(index: Any, rows: Any) -> int:
        calls["n"] += 1
        if calls["n"] == 2:
            ready.set()
            time.sleep(600)
        return original(index, rows)

    workspace_archive.import_rows = slow  # type: ignore[assignment]
    workspace_archive.restore_workspace(archive, settings(Path(data_dir)))


def test_a_killed_restore_leaves_no_partial_workspace(source: Resources, tmp_path: Path) -> None:
    archive = tmp_path / "ws.aerws"
    export_workspace(source, archive, jobs=False, batch=8)
    # two chunk members at least: rows are written a member at a time
    with zipfile.ZipFile(archive) as zf:
        if len([n for n in zf.namelist() if n.startswith("chunks/")]) < 2:
            pytest.fail("the archive has one chunk member; fill the workspace with more documents")
    ws = settings(tmp_path / "root" / "workspaces" / "team")
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Event()
    child = ctx.Process(target=_restore_and_hang, args=(str(archive), str(ws.data_dir), ready))
    child.start()
    try:
        assert ready.wait(120), "the restore did not reach its second batch"
        os.kill(child.pid, signal.SIGKILL)  # type: ignore[arg-type]
    finally:
        child.join(30)
    assert not ws.data_dir.exists(), "the workspace does not exist until the import is whole"
    assert residue(ws), "the staged restore is still there, and residue reports it"
    assert finish_restores(ws) and residue(ws) == []
    restore_workspace(archive, ws)
    res = build_resources(ws)
    try:
        assert res.index.count() == source.index.count()
    finally:
        res.close()


def test_export_refuses_while_a_job_is_queued(source: Resources, tmp_path: Path) -> None:
    assert source.jobs is not None
    source.jobs.store.create("ingest", [Document(id="later.md", text="Queued for later.")])
    with pytest.raises(ArchiveError) as err:
        export_workspace(source, tmp_path / "ws.aerws")
    assert err.value.code == "workspace_busy"
    assert not (tmp_path / "ws.aerws").exists()


def test_purge_leaves_no_residue(model: Fake, tmp_path: Path) -> None:
    root = tmp_path / "root"
    default = settings(root, trajectory_log=root / "default-runs.jsonl")
    ws = default.for_workspace("team").model_copy(update={"trajectory_log": root / "workspaces" / "team" / "runs.jsonl"})
    keep = build_resources(default)
    keep.close()
    res = build_resources(ws)
    try:
        fill_workspace(res, docs=6)
        assert top_passages(res)  # trajectories written too
    finally:
        res.close()
    left = residue(ws)
    assert any("milvus.db" in line for line in left) and any("graph.db" in line and "rows" in line for line in left)
    assert any("jobs.db" in line for line in left) and any("runs.jsonl" in line for line in left)
    purge_workspace(ws)
    assert residue(ws) == []
    assert not ws.data_dir.exists()
    assert (root / "milvus.db").exists(), "another workspace's files stay"
    (root / "keys.db").write_text("")
    purge_workspace(default)  # the default workspace is emptied: the root's shared entries stay
    assert residue(default) == [] and (root / "keys.db").exists()
