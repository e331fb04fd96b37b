"""The question's words as the other language writes them, for choosing a filling upload's chunks to embed."""

from __future__ import annotations

from graphs.domain.entities import EntityMetadata
from graphs.rag.retrieval_crossing import crossing, crossing_terms, other_language_terms
from graphs.text.gazetteer import Gazetteer

LANXI = EntityMetadata(standard_name="兰溪村", type="LOCATION", aliases=["Lanxi Village"])
HARBOUR = EntityMetadata(standard_name="Kestrel Harbour", type="LOCATION", aliases=["红隼港"])


def gazetteer() -> Gazetteer:
    return Gazetteer([(name, e) for e in (LANXI, HARBOUR) for name in (e.standard_name, *e.aliases)])


def test_an_attribute_the_question_names_brings_its_words_in_both_languages() -> None:
    english = crossing_terms("How many people live there?").split()
    assert {"人口", "居民"} <= set(english)
    assert {"启用", "开放"} <= set(crossing_terms("哪一年启用的？").split()) and "opened" in crossing_terms("哪一年启用的？")


def test_a_name_brings_every_name_of_its_entity_also_spelled_in_pinyin() -> None:
    g = gazetteer()
    assert "红隼港" in crossing_terms("When did Kestrel Harbour freeze?", g)
    assert "Kestrel Harbour" in crossing_terms("红隼港哪一年结冰？", g)
    assert "兰溪村" in crossing_terms("Where is Lanxicun?", g)  # pinyin of the Chinese name


def test_question_words_alone_bring_nothing() -> None:
    assert crossing_terms("When was it?") == "" and crossing_terms("是谁？") == ""
    assert crossing(gazetteer)("Who lives in Lanxi Village?").split()[:1] == ["兰溪村"]


def test_the_searches_read_only_the_words_in_the_other_language() -> None:
    """BM25 over the question's own words is left as it was: only what the other language writes is added."""
    g = gazetteer()
    english = other_language_terms("What did the ferry to Kestrel Harbour cost?", g).split()
    assert {"红隼港", "价格"} <= set(english) and not any(w.isascii() for w in english)
    chinese = other_language_terms("兰溪村的渡口票价是多少？", g).split()
    assert {"Lanxi", "Village", "price"} <= set(chinese) and all(w.isascii() for w in chinese)
    assert other_language_terms("When was it?") == ""

