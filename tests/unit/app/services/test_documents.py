"""``check_upload``: every check of an upload's files, before any is read, in one place (the route only maps its
``UploadError`` to the HTTP error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.errors import http_status
from app.services.documents import UploadError, check_upload
from app.settings import Settings
from tests.support.apps import settings_for


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return settings_for(tmp_path, upload_max_files=3, upload_max_file_bytes=2048)


def refused(settings: Settings, files: list[tuple[str | None, int | None]]) -> UploadError:
    with pytest.raises(UploadError) as caught:
        check_upload(settings, files)
    return caught.value


def test_names_are_safe_relative_paths(settings: Settings) -> None:
    assert check_upload(settings, [("../../etc/notes.md", 10), ("C:\\docs\\a.txt", None)]) == [
        "etc/notes.md", "docs/a.txt"]
    error = refused(settings, [(None, 5)])  # named "file-1": no suffix
    assert (error.code, error.details["file"]) == ("unsupported_file_type", "file-1")


@pytest.mark.parametrize(("files", "status", "code"), [
    ([("a.md", 1), ("b.md", 1), ("c.md", 1), ("d.md", 1)], 422, "too_many_files"),
    ([("gpj.\u202eexe-trav8.md", 1)], 422, "invalid_file_name"),
    ([("report\u200b.md", 1)], 422, "invalid_file_name"),
    ([("photo.jpg", 1)], 415, "unsupported_file_type"),
    ([("Makefile", 1)], 415, "unsupported_file_type"),
    ([("big.pdf", 4096)], 413, "file_too_large"),
    ([("dir/a.md", 1), ("dir\\a.md", 1)], 422, "duplicate_file_names"),
])
def test_each_refusal_has_its_status_and_code(settings: Settings, files: list[tuple[str | None, int | None]],
                                             status: int, code: str) -> None:
    error = refused(settings, files)
    assert (http_status(error), error.code) == (status, code)  # the kind, as the API maps it


def test_the_suffix_check_ignores_case_and_a_size_unknown_is_not_refused(settings: Settings) -> None:
    assert check_upload(settings, [("NOTES.MD", None), ("data.JSONL", 2048)]) == ["NOTES.MD", "data.JSONL"]


def test_duplicate_files_keeps_the_shortest_name_of_the_same_bytes_and_leaves_empty_files_alone() -> None:
    from app.services.documents import duplicate_files

    a, b = b"shift,vet\n1,Ana\n", b"other"
    assert duplicate_files([("x/a.csv", a), ("b.txt", b), ("y/a copy.csv", a), ("z.csv", a), ("e1.md", b""),
                            ("e2.md", b"")]) == {"x/a.csv": "z.csv", "y/a copy.csv": "z.csv"}
    assert duplicate_files([("a", a), ("b", b)]) == {}
    # the copy's grown name is left out, whichever the browser or the folder listed first
    assert duplicate_files([("rota (1).csv", a), ("rota.csv", a), ("rota - Copy.csv", a)]) == {
        "rota (1).csv": "rota.csv", "rota - Copy.csv": "rota.csv"}


def test_a_folder_leaves_out_a_repeated_file_and_says_which_was_kept(tmp_path: Path) -> None:
    from app.services.documents import folder_specs

    (tmp_path / "minutes").mkdir()
    (tmp_path / "minutes" / "march.md").write_text("# March\n\nThe board met.\n", encoding="utf-8")
    (tmp_path / "minutes" / "march (1).md").write_text("# March\n\nThe board met.\n", encoding="utf-8")
    (tmp_path / "other.md").write_text("# Other\n\nSomething else.\n", encoding="utf-8")
    duplicates: dict[str, str] = {}
    specs = folder_specs(tmp_path, [], [], "", None, duplicates)
    assert sorted(s.name for s in specs) == ["minutes/march.md", "other.md"]
    assert duplicates == {"minutes/march (1).md": "minutes/march.md"}
