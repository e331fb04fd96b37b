"""``aer ingest FOLDER --server`` uploads the folder in groups, one job each, and waits for each: large files go
last, so one no longer holds every file of a later group back; the others keep their order."""

from __future__ import annotations

from dataclasses import dataclass

from app.cli.ingest import upload_groups
from app.services.documents import LARGE_DOCUMENT_CHARS, large_last


@dataclass
class Spec:
    name: str
    data: bytes


def test_large_files_are_uploaded_last_and_the_groups_keep_their_limits() -> None:
    big, bigger = b"x" * LARGE_DOCUMENT_CHARS, b"x" * (2 * LARGE_DOCUMENT_CHARS)
    specs = [Spec("archive-2025.txt", bigger), Spec("archive-2024.txt", big),
             *(Spec(f"note{i:02d}.txt", b"y" * (50 - i)) for i in range(5))]
    groups = [[s.name for s in g] for g in upload_groups(specs, max_files=3, max_bytes=10 * LARGE_DOCUMENT_CHARS)]
    assert groups == [["note00.txt", "note01.txt", "note02.txt"], ["note03.txt", "note04.txt", "archive-2024.txt"],
                      ["archive-2025.txt"]]
    by_size = [[s.name for s in g] for g in upload_groups(specs, max_files=20, max_bytes=LARGE_DOCUMENT_CHARS + 500)]
    assert by_size == [[f"note{i:02d}.txt" for i in range(5)] + ["archive-2024.txt"], ["archive-2025.txt"]]


def test_only_large_items_move_and_they_go_smallest_first() -> None:
    sizes = [5, LARGE_DOCUMENT_CHARS * 3, 7, LARGE_DOCUMENT_CHARS, 2, LARGE_DOCUMENT_CHARS - 1]
    assert large_last(sizes, lambda n: n) == [5, 7, 2, LARGE_DOCUMENT_CHARS - 1, LARGE_DOCUMENT_CHARS,
                                              LARGE_DOCUMENT_CHARS * 3]
