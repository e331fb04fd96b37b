"""Ingest edges an outside probe broke: symbolic links out of the root, zip bombs, tables as pipe-joined text."""

from __future__ import annotations

import io
import os
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from graphs.ingest.formats import ArchiveBudget, FileParseError, check_archive, parse_file, table_sentences
from graphs.ingest.loaders import SkippedPath, discover, read_regular


def zip_bomb(inflated: int = 64 * 1024 * 1024) -> bytes:
    """A small DOCX-shaped ZIP whose document part inflates to ``inflated`` bytes of one repeated letter."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        with z.open("word/document.xml", "w", force_zip64=True) as part:
            piece = b"a" * (1024 * 1024)
            for _ in range(inflated // len(piece)):
                part.write(piece)
    return buffer.getvalue()


# ---------------------------------------------------------------------------- symbolic links


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_links_to_files_and_folders_are_skipped_with_a_reason(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("root:x:0:0 the secret")
    (outside / "more.md").write_text("# more secrets")
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "real.md").write_text("# Real")
    (root / "passwd.txt").symlink_to(outside / "secret.txt")
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "inner.md").symlink_to(root / "docs" / "real.md")
    skipped: list[SkippedPath] = []
    found = discover(root, skipped=skipped)
    assert [f.relative for f in found] == ["docs/real.md"]
    reasons = {s.relative: s.reason for s in skipped}
    assert set(reasons) == {"passwd.txt", "linked", "inner.md"}
    assert "outside the root" in reasons["passwd.txt"] and "folder outside" in reasons["linked"]
    assert "inside the root" in reasons["inner.md"]


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="needs O_NOFOLLOW")
def test_a_file_swapped_for_a_link_after_the_walk_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    link = tmp_path / "a.txt"
    link.symlink_to(secret)
    with pytest.raises(OSError):
        read_regular(link)
    assert read_regular(secret) == b"secret"


# ---------------------------------------------------------------------------- archives


def test_a_zip_bomb_is_refused_before_it_is_inflated() -> None:
    bomb = zip_bomb()
    assert len(bomb) < 200_000
    tracemalloc.start()
    try:
        with pytest.raises(FileParseError) as refused:
            parse_file(bomb, "bomb.docx", ".docx")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert refused.value.code == "archive_too_large"
    assert peak < 8 * 1024 * 1024  # the 64 MiB part was never held


def test_the_total_an_archive_inflates_to_is_capped_by_the_budget() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:  # stored: ratio 1, only the total counts
        for i in range(3):
            z.writestr(f"part{i}.xml", os.urandom(400_000))
    with pytest.raises(FileParseError) as refused:
        check_archive(buffer.getvalue(), "big.docx", ArchiveBudget(max_bytes=1_000_000))
    assert refused.value.code == "archive_too_large"
    check_archive(buffer.getvalue(), "big.docx", ArchiveBudget(max_bytes=2_000_000))  # within budget: no error


def test_a_part_that_inflates_past_what_it_declares_is_stopped_while_reading() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("word/document.xml", b"<w>" + b"x" * 500_000 + b"</w>")
    data = bytearray(buffer.getvalue())
    # shrink the declared size in the central directory (and the local header): the data says more
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (1000).to_bytes(4, "little")
    data[22:26] = (1000).to_bytes(4, "little")
    with pytest.raises(FileParseError) as refused:
        check_archive(bytes(data), "liar.docx", ArchiveBudget(max_ratio=1e9))
    assert refused.value.code in ("archive_too_large", "corrupt_file")


def test_a_normal_docx_passes_the_budget() -> None:
    from tests.support.documents import DOCX_BLOCKS, docx_bytes

    parsed = parse_file(docx_bytes(DOCX_BLOCKS), "handbook.docx", ".docx")
    assert parsed.title == "员工手册"


# ---------------------------------------------------------------------------- tables


def test_table_rows_become_sentences_with_their_headers() -> None:
    rows = [["City tier", "Hotel limit per night", "Meals"], ["first-tier city", "600 yuan", "100 yuan"],
            ["other cities", "400 yuan", ""]]
    assert table_sentences(rows, header=True) == [
        "Hotel limit per night — first-tier city: 600 yuan", "Meals — first-tier city: 100 yuan",
        "Hotel limit per night — other cities: 400 yuan",
    ]
    assert table_sentences(rows, header=False)[0] == "City tier | Hotel limit per night | Meals"
    assert table_sentences([["only"], ["one column"]], header=True) == ["only", "one column"]


def test_a_headerless_two_column_row_is_a_label_and_its_value() -> None:
    # a form or an infobox laid out as a table: "Born | Tarrow" is the field "Born: Tarrow" (graphs.text.fields)
    rows = [["Born", "Tarrow, on the Elne"], ["值班电话：", "0571-8800 1234"], ["The hall opens at nine.", "yes"]]
    assert table_sentences(rows, header=False) == [
        "Born: Tarrow, on the Elne", "值班电话: 0571-8800 1234", "The hall opens at nine. | yes"]


def test_an_html_infobox_of_label_cells_reads_as_fields() -> None:
    page = (b"<html><body><h1>Wenna Marsh</h1><table><tr><th>Born</th><td>Tarrow</td></tr>"
            b"<tr><th>Occupation</th><td>Glass engraver</td></tr></table><p>Wenna Marsh engraves glass.</p></body></html>")
    text = "\n".join(s.text for s in parse_file(page, "wenna_marsh.html", ".html").sections)
    assert "Born: Tarrow" in text and "Occupation: Glass engraver" in text


@pytest.mark.parametrize("kind", ["md", "html", "docx"])
def test_tables_of_every_format_reach_the_text_as_sentences(kind: str) -> None:
    heads, row = ["城市等级", "每晚住宿标准"], ["一线城市", "600元"]
    if kind == "md":
        data = f"# 差旅\n\n| {heads[0]} | {heads[1]} |\n|---|---|\n| {row[0]} | {row[1]} |\n".encode()
    elif kind == "html":
        data = (f"<h1>差旅</h1><table><thead><tr><td>{heads[0]}</td><td>{heads[1]}</td></tr></thead>"
                f"<tr><td>{row[0]}</td><td>{row[1]}</td></tr></table>").encode()
    else:
        import docx

        document = docx.Document()
        document.add_heading("差旅", 1)
        table = document.add_table(rows=2, cols=2)
        for i, cells in enumerate((heads, row)):
            for j, text in enumerate(cells):
                table.cell(i, j).text = text
        buffer = io.BytesIO()
        document.save(buffer)
        data = buffer.getvalue()
    text = "\n".join(s.text for s in parse_file(data, f"t.{kind}", f".{kind}").sections)
    assert "每晚住宿标准 — 一线城市: 600元" in text
    assert "|" not in text


# ---------------------------------------------------------------------------- file names


@pytest.mark.parametrize("name", ["gpj.\u202eexe-trav8.md", "a\u200bb.md", "notes/\u3164.md", "x\ue000.txt"])
def test_a_file_whose_name_hides_characters_fails_alone(name: str) -> None:
    from graphs.ingest.loaders import FileSpec, load_files

    loads = load_files([FileSpec(name=name, data=b"# Title\nvisible text", doc_id=name),
                        FileSpec(name="fine.md", data=b"# Fine\ntext", doc_id="fine.md")])
    assert loads[0].error is not None and loads[0].error.code == "invalid_file_name"
    assert "\\u" in loads[0].error.message  # the hidden character is shown escaped, not rendered
    assert [d.id for d in loads[1].documents] == ["fine.md"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_root_the_user_names_through_a_link_is_read(tmp_path: Path) -> None:
    from app.services.documents import folder_specs

    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.md").write_text("# A\ntext")
    (tmp_path / "folder-link").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "file-link.md").symlink_to(tmp_path / "real" / "a.md")
    assert [s.name for s in folder_specs(tmp_path / "folder-link", (), (), "")] == ["a.md"]
    assert [(s.name, s.data) for s in folder_specs(tmp_path / "file-link.md", (), (), "")] == [
        ("file-link.md", b"# A\ntext")]
