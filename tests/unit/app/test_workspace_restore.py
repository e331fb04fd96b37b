"""``Workspaces.restore`` without the registry's lock held for the import: other workspaces open and serve while a
slow import runs, the imported workspace stays invisible (new: 404, unlisted; replaced: 409 ``workspace_busy``)
until it is swapped in, and a second import, a create or a delete of the same name is refused meanwhile."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import container
from app.errors import ServiceError
from app.services import workspace_archive
from app.services.workspace_archive import STAGING_PREFIX, export_workspace, finish_restores
from app.workspaces import CREATED_MARKER, UnknownWorkspace, Workspaces
from tests.support.archive import Fake, fill_workspace, settings

WAIT_S = 60


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Workspaces]:
    fake = Fake(size=32)
    monkeypatch.setattr(container, "build_embedder", lambda _settings: (fake, fake.size, fake.name))
    workspaces = Workspaces(settings(tmp_path / "data"))
    yield workspaces
    workspaces.close()


@pytest.fixture
def archive(registry: Workspaces, tmp_path: Path) -> Path:
    registry.create("src")
    fill_workspace(registry.get("src"), docs=3)
    path = tmp_path / "src.aerws"
    export_workspace(registry.get("src"), path)
    return path


@pytest.fixture
def slow_import(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The archive's rows are written only once ``release`` is set; ``started`` says the import is under way."""
    started, release = threading.Event(), threading.Event()
    original = workspace_archive.import_workspace

    def held_import(*args: Any, **kwargs: Any) -> dict[str, Any]:
        started.set()
        assert release.wait(WAIT_S), "the test never released the import"
        return original(*args, **kwargs)

    monkeypatch.setattr(workspace_archive, "import_workspace", held_import)
    return started, release


def closed_workspace(registry: Workspaces, name: str) -> None:
    """A workspace an earlier process made: it exists, and this process has not opened it."""
    folder = registry.folder(name)
    folder.mkdir(parents=True)
    (folder / CREATED_MARKER).write_text("0\n", encoding="utf-8")


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(work())
        except BaseException as exc:  # handed to the test
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def within(seconds: float, work: Callable[[], Any]) -> Any:
    """``work()``'s result, failing if it does not return in ``seconds`` (it waited on the registry's lock)."""
    thread, out = in_thread(work)
    thread.join(seconds)
    assert not thread.is_alive(), "blocked while another workspace was being imported"
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


def test_other_workspaces_open_while_a_new_one_is_imported(registry: Workspaces, archive: Path,
                                                           slow_import: tuple[threading.Event, threading.Event]) -> None:
    started, release = slow_import
    closed_workspace(registry, "other")
    chunks = registry.get("src").index.count()
    restoring, result = in_thread(lambda: registry.restore("team", archive))
    try:
        assert started.wait(WAIT_S)
        other = within(10, lambda: registry.get("other"))  # opened now, during the import
        assert other.index.count() == 0 and "other" in registry.opened()
        assert within(10, lambda: registry.info("src")).chunks == chunks
        assert "team" not in within(10, registry.names)
        with pytest.raises(UnknownWorkspace):
            within(10, lambda: registry.get("team"))
        for refused in (lambda: registry.create("team"), lambda: registry.restore("team", archive)):
            with pytest.raises(ServiceError) as err:
                within(10, refused)
            assert err.value.code == "workspace_busy"
        with pytest.raises(UnknownWorkspace):
            within(10, lambda: registry.delete("team"))
    finally:
        release.set()
        restoring.join(WAIT_S)
    assert not isinstance(result[0], BaseException), result
    assert result[0]["created"] is True
    assert "team" in registry.names() and registry.get("team").index.count() == chunks


def test_a_replaced_workspace_is_busy_until_swapped_in(registry: Workspaces, archive: Path,
                                                       slow_import: tuple[threading.Event, threading.Event]) -> None:
    started, release = slow_import
    registry.create("target")
    chunks = registry.get("src").index.count()
    fill_workspace(registry.get("target"), docs=1)
    restoring, result = in_thread(lambda: registry.restore("target", archive, replace=True))
    try:
        assert started.wait(WAIT_S)
        with pytest.raises(ServiceError) as err:
            within(10, lambda: registry.get("target"))
        assert err.value.code == "workspace_busy"
        with pytest.raises(ServiceError) as err:
            within(10, lambda: registry.delete("target"))
        assert err.value.code == "workspace_busy"
        assert "target" not in within(10, registry.names)
        assert within(10, lambda: registry.get("src")).index.count() == chunks
    finally:
        release.set()
        restoring.join(WAIT_S)
    assert not isinstance(result[0], BaseException), result
    assert result[0]["created"] is False
    assert "target" in registry.names() and registry.get("target").index.count() == chunks


def test_a_failed_import_of_a_new_workspace_leaves_nothing(registry: Workspaces, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, archive: Path) -> None:
    def broken(*_: Any, **__: Any) -> dict[str, Any]:
        raise OSError("disk full")

    monkeypatch.setattr(workspace_archive, "import_workspace", broken)
    with pytest.raises(OSError):
        registry.restore("team", archive)
    assert "team" not in registry.names() and not registry.folder("team").exists()
    assert not list(registry.settings.workspaces_dir().glob(f"{STAGING_PREFIX}*"))
    registry.create("team")  # the name is free again


def test_opening_a_workspace_leaves_another_ones_staging_alone(tmp_path: Path) -> None:
    """``foo``'s leftover restores are ``.import-foo-<token>``; ``.import-foo-bar-<token>`` is ``foo-bar``'s."""
    root = tmp_path / "workspaces"
    theirs = root / f"{STAGING_PREFIX}foo-bar-0123456789ab"
    mine = root / f"{STAGING_PREFIX}foo-ba9876543210"
    for staging in (theirs, mine):
        staging.mkdir(parents=True)
    done = finish_restores(settings(root / "foo"))
    assert theirs.is_dir(), "another workspace's import in progress was discarded"
    assert not mine.exists() and len(done) == 1
