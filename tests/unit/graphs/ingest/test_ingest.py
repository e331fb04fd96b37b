"""Ingest: metadata parsing, normalization through the entity store, extraction for bare documents."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from langchain_core.embeddings import DeterministicFakeEmbedding

from app.cli import read_documents
from graphs.domain import Chunk, Document, DocumentSection
from graphs.ingest.pipeline import (
    Ingestor,
    content_hash,
    embedding_text,
    make_splitter,
    metadata_date,
    metadata_entities,
)
from graphs.rag.context import GazetteerCache
from graphs.stores.catalog import SQLiteDocumentCatalog
from tests.support.fakes import TODAY, ScriptedIndex, entity_store


class RecordingIndex(ScriptedIndex):
    def __init__(self) -> None:
        super().__init__()
        self.written: dict[str, list[Chunk]] = {}

    def replace_document(self, doc_id: str, chunks: Any, vectors: Any) -> int:
        assert len(chunks) == len(vectors)
        self.written[doc_id] = list(chunks)
        return len(chunks)


def ingestor(tmp_path: Any) -> tuple[Ingestor, RecordingIndex]:
    store = entity_store(tmp_path)
    index = RecordingIndex()
    return Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY), index


def test_metadata_shapes() -> None:
    assert metadata_entities({"entities": {"PERSON": ["A"], "location": "B"}}) == {"PERSON": ["A"], "LOCATION": ["B"]}
    assert metadata_entities({"person": "A", "orgs": ["X", "Y"], "date": "2024"}) == {"PERSON": ["A"], "ORGANIZATION": ["X", "Y"]}
    assert metadata_entities({"entities": [{"text": "A", "type": "person"}]}) == {"PERSON": ["A"]}
    assert metadata_date({"date": "2023-06-05"}, TODAY) == 20230605
    assert metadata_date({"date": 20240101}, TODAY) == 20240101
    assert metadata_date({}, TODAY) is None


def test_metadata_values_are_normalized_with_ancestors(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    doc = Document(id="d1", title="t", text="苹果在三里屯开店。",
                   metadata={"date": "2008-07-19", "entities": {"ORGANIZATION": ["苹果"], "LOCATION": ["朝阳区"]}})
    report = ing.ingest([doc])
    [chunk] = index.written["d1"]
    assert chunk.entities == {"ORGANIZATION": ["Apple"], "LOCATION": ["中国", "北京", "朝阳"]}
    assert chunk.date == 20080719 and report.extracted == 0


def test_bare_documents_get_entities_and_date_extracted(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    report = ing.ingest([Document(id="d2", title="特斯拉", text="2019年1月，老马在魔都为特斯拉工厂奠基。", metadata={})])
    [chunk] = index.written["d2"]
    assert chunk.entities["PERSON"] == ["Elon Musk"]
    assert "Tesla" in chunk.entities["ORGANIZATION"] and chunk.entities["LOCATION"] == ["中国", "上海"]
    assert chunk.date == 20190101 and report.extracted == 1


def test_long_documents_are_chunked_with_stable_ids(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    text = "。".join(f"第{i}句话讲的是一件很长的事情" for i in range(200)) + "。"
    ing.ingest([Document(id="long", text=text)])
    chunks = index.written["long"]
    assert len(chunks) > 1 and [c.id for c in chunks] == [f"long#{i}" for i in range(len(chunks))]
    assert all(len(c.text) <= make_splitter()._chunk_size for c in chunks)


def test_cli_corpus_reader_refuses_ids_the_store_cannot_hold_and_names_the_line(tmp_path: Any) -> None:
    corpus = tmp_path / "corpus.jsonl"
    good = {"id": "d1", "title": "t", "text": "x"}
    corpus.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "d\u00012"}) + "\n", encoding="utf-8")
    with pytest.raises(typer.BadParameter, match=r"corpus\.jsonl:2: String should match pattern"):
        read_documents(corpus)
    corpus.write_text(json.dumps(good) + "\n" + json.dumps({**good, "id": "文档 2"}) + "\n", encoding="utf-8")
    assert [d.id for d in read_documents(corpus)] == ["d1", "文档 2"]


def test_sections_are_chunk_boundaries_with_their_location(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    parts = [DocumentSection(text="第一页讲苹果公司。", page=1), DocumentSection(text="第二页讲马斯克。", page=2),
             DocumentSection(text="Setup text.", section="Guide > Setup")]
    doc = Document(id="f.pdf", title="F", text="\n\n".join(p.text for p in parts), source="docs/f.pdf", sections=parts)
    ing.ingest([doc])
    chunks = index.written["f.pdf"]
    assert [(c.text, c.page, c.section, c.source) for c in chunks] == [
        ("第一页讲苹果公司。", 1, None, "docs/f.pdf"), ("第二页讲马斯克。", 2, None, "docs/f.pdf"),
        ("Setup text.", None, "Guide > Setup", "docs/f.pdf")]
    # a file without entity metadata: each chunk is tagged with what its own text names
    assert chunks[0].entities == {"ORGANIZATION": ["Apple"]} and chunks[1].entities == {"PERSON": ["Elon Musk"]}
    assert embedding_text(chunks[2]) == "F — Guide > Setup\nSetup text."


def test_a_long_section_is_split_at_sentences_and_never_crosses_into_the_next(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    long = "".join(f"第{i}句话讲的是一件很长的事情。" for i in range(120))
    parts = [DocumentSection(text=long, section="A"), DocumentSection(text="Short.", section="B")]
    ing.ingest([Document(id="d", text=long + "\n\nShort.", sections=parts)])
    chunks = index.written["d"]
    assert [c.section for c in chunks][-1] == "B" and chunks[-1].text == "Short."
    assert all(c.text.endswith("。") for c in chunks if c.section == "A")  # no mid-sentence cut


def test_unchanged_documents_are_skipped_and_changed_ones_written(tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    index = RecordingIndex()
    catalog = SQLiteDocumentCatalog(tmp_path / "documents.db")
    ing = Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY,
                   catalog=catalog)
    docs = [Document(id="a", text="one"), Document(id="b", text="two")]
    first = ing.ingest(docs, skip_unchanged=True, root="/r")
    assert (first.documents, first.skipped) == (2, [])
    index.written.clear()
    second = ing.ingest([docs[0], docs[1].model_copy(update={"text": "two, edited"})], skip_unchanged=True,
                        root="/r")
    assert (second.doc_ids, second.skipped, list(index.written)) == (["b"], ["a"], ["b"])
    record = catalog.get("b")
    assert record is not None and record.content_hash == content_hash(docs[1].model_copy(update={"text": "two, edited"}))
    assert (record.root, record.chunks, record.bytes) == ("/r", 1, len(b"two, edited"))
    assert ing.ingest(docs[:1], skip_unchanged=False).doc_ids == ["a"]  # without skipping: written again
    moved = ing.ingest(docs[:1], skip_unchanged=True, root="/elsewhere")
    assert moved.skipped == ["a"] and catalog.get("a").root == "/elsewhere"  # type: ignore[union-attr]
    assert second.seconds > 0 and second.embed_seconds > 0 and second.outside_embedder is not None


def test_a_chunk_carries_the_date_it_states_not_its_files_first_date(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    ing.splitter = make_splitter(chunk_size=60, overlap=0)
    text = ("The 2019 harvest festival drew a modest crowd to the orchard on the hill. \n\n"
            "In 2022 the orchard planted four new rows of pear trees along the river. \n\n"
            "The cider press is kept in the barn behind the farmhouse near the road.")
    ing.ingest([Document(id="orchard", title="Orchard notes", text=text)])
    dates = [c.date for c in index.written["orchard"]]
    assert dates[0] == 20190101 and 20220101 in dates
    assert dates[-1] is None  # states no date: not the file's first one
    sections = [DocumentSection(text="会上讨论了新仓库的选址问题，大家各抒己见。", section="2023年3月例会"),
                DocumentSection(text="2024年5月，新仓库在城东落成并投入使用。", section="进展")]
    ing.ingest([Document(id="minutes", title="仓库项目纪要", text="\n".join(s.text for s in sections), sections=sections)])
    assert [c.date for c in index.written["minutes"]] == [20230301, 20240501]
    ing.ingest([Document(id="dated", title="t", text="In 2022 the orchard grew.", metadata={"date": "2021-05-01"})])
    assert [c.date for c in index.written["dated"]] == [20210501]  # explicit metadata wins



def test_a_chunk_that_states_no_date_is_of_its_documents_header_date(tmp_path: Any) -> None:
    ing, index = ingestor(tmp_path)
    ing.splitter = make_splitter(chunk_size=80, overlap=0)
    text = ("# 2024年度第二次会员大会纪要\n\n- 开会日期：2024年11月2日\n- 地点：村委会二楼\n\n"
            "会员们讨论了水渠清淤的分工与费用分摊。\n\n"
            "2023年水渠曾因暴雨冲毁一段，当年即修复，费用由全体会员分摊，每户出资三百元，账目已公开。\n\n"
            "会议于下午五点结束，到会会员一致通过以上各项决议。本次会议记录人：邵青禾")
    ing.ingest([Document(id="m", title="2024年度第二次会员大会纪要", text=text)])
    dates = [c.date for c in index.written["m"]]
    # the header's day (within the year the title states), a year the chunk states itself, the header's day again
    assert dates[0] == 20241102 and 20230101 in dates and dates[-1] == 20241102
    prose = "Ilse Marrow (born 4 June 1977) is a cellist.\n\nShe teaches in Ghent and plays in a quartet."
    ing.ingest([Document(id="bio", title="Ilse Marrow", text=prose)])
    assert index.written["bio"][-1].date is None  # a date in the opening's prose does not date the page


def test_a_table_row_or_a_file_names_bare_year_dates_no_chunk(tmp_path: Any) -> None:
    """A table's cell lines are values of their rows: a hut's opening year or a 建成年份 in a CSV is not the date of
    the chunk listing the table. A title that is only the file's name dates nothing by a bare year in it (no
    1 January made of ``rota_2027``); a day it names, a date line or a title the file writes itself still do."""
    ing, index = ingestor(tmp_path)
    sheet = "opened — Kestrel Hut: 2011\nbeds — Kestrel Hut: 12\nopened — Stone Bothy: 1998"
    ing.ingest([Document(id="huts.csv", title="huts", text=sheet, source="huts.csv")])
    zh = "建成年份 — 听雨阁: 2016\n座位数 — 听雨阁: 12张"
    ing.ingest([Document(id="亭台.csv", title="亭台", text=zh, source="亭台.csv")])
    assert [c.date for c in index.written["huts.csv"]] == [None] and [c.date for c in index.written["亭台.csv"]] == [None]
    plain = "Each crew member cleans the boats after the outing."
    ing.ingest([Document(id="rota_2027.txt", title="rota 2027", text=plain, source="rota_2027.txt")])
    ing.ingest([Document(id="值班表2027.txt", title="值班表2027", text="每位队员训练后清洗船只。", source="值班表2027.txt")])
    assert index.written["rota_2027.txt"][0].date is None and index.written["值班表2027.txt"][0].date is None
    ing.ingest([Document(id="rota_2027-03-14.txt", title="rota 2027-03-14", text=plain, source="rota_2027-03-14.txt")])
    assert index.written["rota_2027-03-14.txt"][0].date == 20270314  # a day the file's name states
    ing.ingest([Document(id="plan.md", title="2027 rowing plan", text=plain, source="plan.md")])
    assert index.written["plan.md"][0].date == 20270101  # a title the file writes itself
    dated = "Date: 14 March 2027\n\nopened — Kestrel Hut: 2011"
    ing.ingest([Document(id="log.md", title="Hut log", text=dated, source="log.md")])
    assert index.written["log.md"][0].date == 20270314


def test_an_unchanged_document_is_read_again_when_the_ingest_pipeline_changed(tmp_path: Any) -> None:
    from unittest import mock

    from graphs.ingest import fingerprint
    from graphs.ingest.jobs import ingest_each

    store = entity_store(tmp_path)
    index = RecordingIndex()
    catalog = SQLiteDocumentCatalog(tmp_path / "documents.db")

    def make(splitter: Any = None) -> Ingestor:
        return Ingestor(DeterministicFakeEmbedding(size=8), index, store, GazetteerCache(store), today=lambda: TODAY,
                        catalog=catalog, **({"splitter": splitter} if splitter else {}))

    docs = [Document(id="a", text="one"), Document(id="b", text="two")]
    make().ingest(docs, skip_unchanged=True)
    index.written.clear()
    same = make().ingest(docs, skip_unchanged=True)  # unchanged content, unchanged pipeline: nothing is read
    assert (same.skipped, same.reread, list(index.written)) == (["a", "b"], [], [])
    # a parser or chunker fix (its code's fingerprint) re-reads the unchanged files, and says why
    with mock.patch.object(fingerprint, "code_fingerprint", lambda: "a parser fix"):
        outcomes, fixed = ingest_each(make(), docs, skip_unchanged=True)
        assert (fixed.skipped, fixed.reread, sorted(index.written)) == ([], ["a", "b"], ["a", "b"])
        assert [o.status for o in outcomes] == ["reread", "reread"]
        index.written.clear()
        again = make().ingest(docs, skip_unchanged=True)  # once re-read under the fix: skipped again
        assert (again.skipped, again.reread, list(index.written)) == (["a", "b"], [], [])
    # other splitter settings are another pipeline too; changed content is a plain replace, not a re-read
    edited = [docs[0], docs[1].model_copy(update={"text": "two, edited"})]
    other = make(make_splitter(chunk_size=400, overlap=50)).ingest(edited, skip_unchanged=True)
    assert (other.reread, sorted(other.replaced)) == (["a"], ["a", "b"])
