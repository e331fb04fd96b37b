"""Automatic entity tags carry a confidence; those below the threshold are neither entity fields nor filters."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.embeddings import DeterministicFakeEmbedding

from graphs.domain import Document, QueryEntity
from graphs.ingest.pipeline import Ingestor
from graphs.ingest.tags import TAG_MIN_CONFIDENCE, tag_confidence, transliterated
from graphs.rag.context import GazetteerCache
from tests.support.fakes import TODAY, ScriptedIndex, entity_store


def pos(text: str, etype: str, dictionary: bool) -> QueryEntity:
    return QueryEntity(text=text, type=etype, source="pos", confidence=0.6 if dictionary else 0.4)  # type: ignore[arg-type]


@pytest.mark.parametrize(("entity", "mentions", "kept"), [
    (pos("北京", "LOCATION", True), 1, True),            # the dictionary's place name
    (pos("清华大学", "ORGANIZATION", True), 1, True),
    (pos("李白", "PERSON", True), 1, True),              # a surname
    (pos("马斯克", "PERSON", True), 1, True),            # transliterated
    (pos("约翰", "PERSON", True), 1, True),
    (pos("小河", "PERSON", True), 3, False),             # a common noun the dictionary calls a name
    (pos("宫殿", "PERSON", True), 1, False),
    (pos("朱立伦", "PERSON", False), 1, True),           # surname + two-character given name
    (pos("王向", "PERSON", False), 1, False),            # a two-character guess named once
    (pos("马云", "PERSON", False), 2, True),             # ... named again in the document
    (pos("该镇", "LOCATION", False), 4, False),          # one character and a place suffix: a fragment
    (pos("周家村", "LOCATION", False), 1, False),
    (pos("周家村", "LOCATION", False), 2, True),
])
def test_confidence_of_automatic_tags(entity: QueryEntity, mentions: int, kept: bool) -> None:
    assert (tag_confidence(entity, mentions) >= TAG_MIN_CONFIDENCE) is kept


def test_known_entities_keep_their_confidence() -> None:
    assert tag_confidence(QueryEntity(text="小溪", type="PERSON", source="gazetteer", confidence=1.0)) == 1.0


def test_transliterations() -> None:
    assert transliterated("莎士比亚") and transliterated("梅森") and not transliterated("宫殿")


def test_fragments_of_the_segmenter_are_not_chunk_tags(tmp_path: Any) -> None:
    store = entity_store(tmp_path)
    ingestor = Ingestor(DeterministicFakeEmbedding(size=8), ScriptedIndex(), store, GazetteerCache(store),
                        today=lambda: TODAY)
    doc = Document(id="town", text="该镇因镇上有一条小溪而得名，清朝建镇，是江南名镇。马云在杭州创办公司，马云后来退休。")
    fields, _, extracted = ingestor.document_fields(doc)
    tagged = {name for names in fields.values() for name in names}
    assert extracted
    assert not tagged & {"因镇", "建镇", "名镇", "小溪"}
    assert {"江南", "杭州", "马云"} <= tagged
