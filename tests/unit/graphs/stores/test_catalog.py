"""The document inventory in SQLite: records, filters, paging, restore and the one-time listing of old documents."""

from __future__ import annotations

from pathlib import Path

from graphs.domain import DocumentRecord
from graphs.stores.catalog import SQLiteDocumentCatalog


def record(doc_id: str, **kw: object) -> DocumentRecord:
    return DocumentRecord.model_validate({"id": doc_id, "title": doc_id.upper(), "chunks": 1, "bytes": 10, **kw})


def test_put_get_list_filter_and_page(tmp_path: Path) -> None:
    catalog = SQLiteDocumentCatalog(tmp_path / "documents.db")
    catalog.put([record("guides/tea.md", source="guides/tea.md", root="/kb", title="Tea Handbook"),
                 record("report.pdf", source="report.pdf", root="/kb", title="Annual Report"),
                 record("api-doc", title="API notes")])
    total, page = catalog.list(limit=2)
    assert total == 3 and [r.id for r in page] == ["api-doc", "guides/tea.md"]
    assert [r.id for r in catalog.list(offset=2)[1]] == ["report.pdf"]
    assert [r.id for r in catalog.list(source="GUIDES/")[1]] == ["guides/tea.md"]
    assert [r.id for r in catalog.list(title="report")[1]] == ["report.pdf"]
    assert catalog.list(title="100%")[0] == 0  # a filter is a plain substring, no wildcard
    assert [r.id for r in catalog.list(root="/kb")[1]] == ["guides/tea.md", "report.pdf"]
    assert [r.id for r in catalog.under("/kb")] == ["guides/tea.md", "report.pdf"]
    assert catalog.get("api-doc") == record("api-doc", title="API notes")
    assert catalog.delete("api-doc") and not catalog.delete("api-doc") and catalog.get("api-doc") is None


def test_restore_puts_back_the_rows_of_before_a_write(tmp_path: Path) -> None:
    catalog = SQLiteDocumentCatalog(tmp_path / "documents.db")
    catalog.put([record("a", content_hash="v1")])
    before = catalog.get_many(["a", "new"])
    catalog.put([record("a", content_hash="v2"), record("new", content_hash="v2")])
    catalog.restore(["a", "new"], before)
    assert catalog.get_many(["a", "new"]) == [record("a", content_hash="v1")]


def test_backfill_adds_what_is_missing_once_and_keeps_what_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "documents.db"
    catalog = SQLiteDocumentCatalog(path)
    catalog.put([record("a", content_hash="h")])
    assert not catalog.backfilled()
    catalog.mark_backfilled([record("a"), record("old")])
    assert catalog.get("a") == record("a", content_hash="h") and catalog.get("old") == record("old")
    catalog.close()
    assert SQLiteDocumentCatalog(path).backfilled()


def test_of_size_lists_the_documents_of_one_text_length(tmp_path: Path) -> None:
    catalog = SQLiteDocumentCatalog(tmp_path / "documents.db")
    catalog.put([record("logs/a.txt", bytes=463), record("b.md", bytes=463), record("c.md", bytes=464)])
    assert [r.id for r in catalog.of_size(463)] == ["b.md", "logs/a.txt"]
    assert catalog.of_size(0) == []
