"""Ingest: metadata parsing, normalization through the entity store, extraction for bare documents."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from langchain_core.embeddings import DeterministicFakeEmbedding

from app.cli import read_documents
from graphs.domain import Chunk, Document
from graphs.ingest.pipeline import Ingestor, make_splitter, metadata_date, metadata_entities
from graphs.rag.context import GazetteerCache
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
