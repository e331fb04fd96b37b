"""The workspace registry and the settings of a workspace: names, create, list, info, delete, isolation by
construction (each workspace its own stores; the models shared)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import ServiceError
from app.workspaces import (
    DEFAULT_WORKSPACE,
    UnknownWorkspace,
    Workspaces,
    check_workspace_name,
    suggested_name,
)
from graphs.domain import Document
from tests.support.apps import fast_resources, settings_for


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Workspaces]:
    workspaces = Workspaces(settings_for(tmp_path), fast_resources)
    yield workspaces
    workspaces.close()


@pytest.mark.parametrize("name", ["default", "a", "team-1", "q3_report", "0abc", "x" * 32])
def test_valid_names(name: str) -> None:
    assert check_workspace_name(name) == name


@pytest.mark.parametrize("name", ["", "A", "Team", "-a", "_a", "a b", "a/b", "..", "a.b", "x" * 33, "é", "a\n"])
def test_invalid_names_are_invalid_workspace(name: str) -> None:
    with pytest.raises(ServiceError) as info:
        check_workspace_name(name)
    assert (info.value.kind, info.value.code) == ("invalid", "invalid_workspace")


@pytest.mark.parametrize(("name", "meant"), [
    ("Sales", "sales"), ("Pool_Two", "pool_two"), ("Sales Team", "sales-team"), ("q3.report", "q3-report"),
    ("-lab-", "lab"), ("  Lab  ", "lab"), ("x" * 40, "x" * 32),
    ("..", None), ("é", None), ("", None), ("___", None),
])
def test_a_refused_name_names_the_name_meant(name: str, meant: str | None) -> None:
    assert suggested_name(name) == meant
    with pytest.raises(ServiceError) as info:
        check_workspace_name(name)
    assert info.value.details["workspace"] == name and info.value.details.get("suggestion") == meant
    assert (f"(did you mean {meant!r}?)" in info.value.message) is (meant is not None)


def test_settings_for_a_workspace(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, trajectory_log=tmp_path / "runs.jsonl")
    default = settings.for_workspace("default")
    assert default.data_dir == tmp_path and default.collection == settings.collection
    assert default.milvus_target() == settings.milvus_target() and default.sqlite_path() == settings.sqlite_path()
    assert default.trajectory_log == tmp_path / "runs.jsonl" and default.entity_prefix() == "aer:"
    a = settings.for_workspace("a")
    assert a.data_dir == tmp_path / "workspaces" / "a" and a.workspace == "a"
    assert a.collection == f"{settings.collection}_ws_a"
    for path in (Path(a.milvus_target()), a.sqlite_path(), a.kg_file(), a.catalog_file(), a.jobs_file(),
                 a.trajectory_log):
        assert path is not None and path.is_relative_to(tmp_path / "workspaces" / "a")
    assert a.shared_entities_file() == default.shared_entities_file() == tmp_path / "shared" / "entities.db"
    assert a.entity_prefix() == "aer:ws:a:"
    # a collection name holds letters, digits and "_": a name with "-" or "_" is spelled in hex, so that no
    # workspace's collection (nor its reindex target, "<collection>__<embedder>") starts with another's
    names = {n: settings.for_workspace(n).collection for n in ("ab", "a-b", "a_b", "a__b", "a")}
    assert len(set(names.values())) == 5 and all(c.replace("_", "").isalnum() for c in names.values())
    assert not any(x != y and names[y].startswith(names[x] + "__") for x in names for y in names)
    # a workspace's settings give the same workspace's again, and another's from the same root
    assert a.for_workspace("a") == a and a.for_workspace("b").data_dir == tmp_path / "workspaces" / "b"
    assert a.for_workspace("default").data_dir == tmp_path
    # an explicit graph file is the default workspace's; another workspace keeps its graph in its folder
    explicit = settings_for(tmp_path, graph_path=tmp_path / "g.db")
    assert explicit.for_workspace("default").kg_file() == tmp_path / "g.db"
    assert explicit.for_workspace("a").kg_file() == tmp_path / "workspaces" / "a" / "graph.db"


def test_default_always_exists_and_others_are_created(registry: Workspaces, tmp_path: Path) -> None:
    assert registry.names() == [DEFAULT_WORKSPACE] and registry.exists("default")
    with pytest.raises(UnknownWorkspace) as info:
        registry.get("sales")
    assert (info.value.code, info.value.kind) == ("workspace_not_found", "not_found")
    created = registry.create("sales")
    assert (created.name, created.documents, created.chunks) == ("sales", 0, 0) and created.created_at
    registry.create("hr")
    assert registry.names() == ["default", "hr", "sales"]
    with pytest.raises(ServiceError) as conflict:
        registry.create("hr")
    assert conflict.value.code == "workspace_exists"
    with pytest.raises(ServiceError) as bad:
        registry.create("HR")
    assert bad.value.code == "invalid_workspace"
    assert (tmp_path / "workspaces" / "sales").is_dir()
    # a stray folder without the workspace marker is no workspace
    (tmp_path / "workspaces" / "stray").mkdir()
    assert "stray" not in registry.names() and not registry.exists("stray")


def test_each_workspace_has_its_own_stores_and_shares_the_models(registry: Workspaces) -> None:
    registry.create("team-a_1")
    default, a = registry.get(), registry.get("team-a_1")
    assert registry.get("team-a_1") is a and registry.get(None) is default
    for own in ("index", "entities", "kg"):
        assert getattr(a.context, own) is not getattr(default.context, own)
    assert a.catalog is not default.catalog and a.jobs is not default.jobs
    assert a.context.embedder is default.context.embedder and a.context.reranker is default.context.reranker
    assert a.context.prompts is default.context.prompts
    # one registry and one tracer; each workspace's view labels its counts and spans with its name
    assert a.metrics.registry is default.metrics.registry and a.tracing.tracer is default.tracing.tracer
    assert (a.metrics.workspace, default.metrics.workspace) == ("team-a_1", "default")
    assert (a.tracing.workspace, default.tracing.workspace) == ("team-a_1", "default")
    assert a.workspace == "team-a_1" and default.workspace == "default"
    a.ingestor.ingest([Document(id="same", title="A's", text="Alpha Corp sells turbines in Oslo.")])
    default.ingestor.ingest([Document(id="same", title="default's", text="Beta Ltd bakes bread in Rome.")])
    assert a.index.count() == 1 and default.index.count() == 1
    assert [c.text for c in a.index.document_chunks("same")] == ["Alpha Corp sells turbines in Oslo."]
    info = registry.info("team-a_1")
    assert (info.documents, info.chunks) == (1, 1) and info.size_bytes > 0 and info.last_write is not None
    # the default workspace's size is its own files: not the other workspaces', the shared dictionary's or the
    # evaluations' indexes kept in the same data dir
    before = registry.info("default").size_bytes
    for folder in ("eval", "shared"):
        (registry.settings.data_dir / folder).mkdir(exist_ok=True)
        (registry.settings.data_dir / folder / "big.bin").write_bytes(b"x" * 5_000_000)
    a.ingestor.ingest([Document(id="more", title="t", text="Delta Works paints bridges in Split.")])
    assert registry.info("default").size_bytes < before + 1_000_000


def test_delete_closes_and_removes_everything_and_default_is_protected(registry: Workspaces, tmp_path: Path) -> None:
    registry.create("gone")
    gone = registry.get("gone")
    gone.ingestor.ingest([Document(id="d", title="t", text="Gamma Inc builds ships in Genoa.")])
    result = registry.delete("gone")
    assert result == {"success": True, "workspace": "gone", "deleted": {"documents": 1, "chunks": 1}}
    assert not (tmp_path / "workspaces" / "gone").exists() and registry.names() == ["default"]
    with pytest.raises(UnknownWorkspace):
        registry.get("gone")
    with pytest.raises(UnknownWorkspace):
        registry.delete("gone")
    with pytest.raises(ServiceError) as protected:
        registry.delete("default")
    assert protected.value.code == "workspace_protected"
    # a request that still held the deleted workspace's stores gets an outage, and recreates nothing
    from graphs.stores.base import StoreUnavailable

    with pytest.raises(StoreUnavailable):
        gone.index.count()
    assert not (tmp_path / "workspaces" / "gone").exists()
    # the name can be used again: the new workspace starts empty
    registry.create("gone")
    assert registry.info("gone").documents == 0 and registry.get("gone").index.count() == 0


def test_concurrent_first_uses_open_a_workspace_once(registry: Workspaces) -> None:
    from concurrent.futures import ThreadPoolExecutor

    registry.create("busy")
    with ThreadPoolExecutor(8) as pool:
        opened = list(pool.map(lambda _: registry.get("busy"), range(16)))
    assert all(r is opened[0] for r in opened) and list(registry.opened()).count("busy") == 1


def test_opening_a_workspace_is_not_a_write(tmp_path: Path) -> None:
    first = Workspaces(settings_for(tmp_path), fast_resources)
    first.create("quiet")
    first.get("quiet").ingestor.ingest([Document(id="d", title="D", text="Gamma Oy makes skis in Lahti.")])
    first.close()

    def last_write() -> float | None:
        registry = Workspaces(settings_for(tmp_path), fast_resources)
        try:
            return registry.info("quiet").last_write  # listing opens the workspace, then closes it
        finally:
            registry.close()

    written = last_write()
    time.sleep(1.1)  # file times have a resolution of a second on some file systems
    assert written is not None and last_write() == written  # SQLite's -wal/-shm and the graph's checkpoint
    again = Workspaces(settings_for(tmp_path), fast_resources)
    try:
        again.get("quiet").ingestor.ingest([Document(id="e", title="E", text="Delta AB makes boats in Umea.")])
        assert (again.info("quiet").last_write or 0) > written
    finally:
        again.close()


def test_listing_counts_a_closed_workspace_without_opening_it(tmp_path: Path) -> None:
    first = Workspaces(settings_for(tmp_path), fast_resources)
    try:
        first.create("sales")
        first.get("sales").ingestor.ingest([
            Document(id="a", title="A", text="Alpha Corp sells turbines in Oslo."),
            Document(id="b", title="B", text="Beta Ltd bakes bread in Rome. " * 200)])  # several chunks
        opened = first.info("sales")
        first.create("fresh")
    finally:
        first.close()
    later = Workspaces(settings_for(tmp_path), fast_resources)  # a new process: nothing of it open yet
    try:
        counted = later.info("sales")
        assert (counted.documents, counted.chunks) == (opened.documents, opened.chunks) == (2, opened.chunks)
        assert opened.chunks > 2 and counted.size_bytes > 0 and counted.last_write is not None
        assert "sales" not in later.opened()
        with pytest.raises(UnknownWorkspace):
            later.info("nowhere")
        # an inventory that has not listed what was indexed before it existed cannot be trusted: opened instead
        catalog = later.settings.for_workspace("fresh").catalog_file()
        with sqlite3.connect(catalog) as conn:
            conn.execute("DELETE FROM catalog_meta")
        conn.close()
        assert later.info("fresh").documents == 0 and "fresh" in later.opened()
    finally:
        later.close()


def test_a_closed_workspace_is_listed_under_a_relative_data_dir(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the default data dir is relative (data/ under the folder aer runs from): after `aer demo`, `aer serve`
    # listed the closed demo workspace with a 500 (a relative path is no file URI) and the page had no picker
    monkeypatch.chdir(tmp_path)
    first = Workspaces(settings_for(Path("data")), fast_resources)
    try:
        first.create("demo")
        first.get("demo").ingestor.ingest([Document(id="a", title="A", text="Alpha Corp sells turbines in Oslo.")])
    finally:
        first.close()
    later = Workspaces(settings_for(Path("data")), fast_resources)
    try:
        assert [(i.name, i.documents) for i in map(later.info, later.names())] == [("default", 0), ("demo", 1)]
        assert "demo" not in later.opened()
    finally:
        later.close()


def test_deleting_a_workspace_under_a_slow_batch_cancels_its_job_and_waits_seconds_not_a_minute(
        registry: Workspaces, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import threading

    import graphs.ingest.jobs as jobs_module

    entered, release = threading.Event(), threading.Event()
    real = jobs_module.ingest_each

    def slow(*args: object, **kwargs: object) -> object:
        entered.set()
        release.wait(30)  # a batch far longer than the delete's wait
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs_module, "ingest_each", slow)
    registry.create("busy")
    resources = registry.get("busy")
    assert resources.jobs is not None
    resources.jobs.start()  # this registry starts no workers of its own
    worker = resources.jobs._thread
    job_id = resources.jobs.submit("upload", [Document(id=f"d{i}", title="t", text=f"Doc {i} in Turin.") for i in range(3)])
    assert entered.wait(10)
    started = time.monotonic()
    with caplog.at_level("WARNING"):
        result = registry.delete("busy")
    assert time.monotonic() - started < 10  # the batch's full wait was 60 s
    assert result["workspace"] == "busy" and not (tmp_path / "workspaces" / "busy").exists()
    assert f"deleting workspace busy: ingest job(s) {job_id} cancelled" in caplog.text
    assert "resumes at the next start" not in caplog.text.split("deleting workspace")[0]
    release.set()  # the batch goes on over closed stores: it stops on their outage and recreates nothing
    assert worker is not None
    worker.join(30)
    assert not worker.is_alive() and not (tmp_path / "workspaces" / "busy").exists()
    assert "busy" not in registry.names()
