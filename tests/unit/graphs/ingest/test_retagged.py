"""Re-tagging one chunk after an entity changed: which tags it gains, keeps or loses, and whether it carries the
entity afterwards (the documents' mention edges follow that)."""

from __future__ import annotations

import pytest

from graphs.domain import Chunk, EntityMetadata
from graphs.ingest.pipeline import retagged
from graphs.kg.mentions import name_key

PDD = EntityMetadata(standard_name="拼多多", type="ORGANIZATION", aliases=["Pinduoduo", "PDD"])
BEIJING = EntityMetadata(standard_name="北京", type="LOCATION", hierarchy=["中国", "北京"])


def chunk(text: str, **entities: list[str]) -> Chunk:
    return Chunk(id="d#0", doc_id="d", chunk_index=0, title="", text=text, entities=entities)  # type: ignore[arg-type]


def keys(*names: str) -> list[str]:
    return [k for n in names if (k := name_key(n)) is not None]


@pytest.mark.parametrize(("before", "entity", "removed", "after", "carries"), [
    # named by an alias at word boundaries: tagged with the standard name
    (chunk("PDD Holdings runs Pinduoduo."), PDD, (), {"ORGANIZATION": ["拼多多"]}, True),
    (chunk("拼多多是一家电商平台。", PERSON=["黄峥"]), PDD, (), {"PERSON": ["黄峥"], "ORGANIZATION": ["拼多多"]}, True),
    # "PDDX" is another word: not named
    (chunk("PDDX is a chemical."), PDD, (), None, False),
    # a metadata value written under an alias becomes the standard name, even in another type's field
    (chunk("Temu is a marketplace.", OTHER=["PDD"]), PDD, (), {"ORGANIZATION": ["拼多多"]}, True),
    # a hierarchy tags the ancestors too
    (chunk("京东总部位于北京。"), BEIJING, (), {"LOCATION": ["中国", "北京"]}, True),
    # already in step: nothing to write
    (chunk("拼多多创立于2015年。", ORGANIZATION=["拼多多"]), PDD, (), None, True),
    # named only by a removed alias: the tag goes (ancestors of other entities stay)
    (chunk("Shop on PDD today.", ORGANIZATION=["拼多多"]), PDD.model_copy(update={"aliases": ["Pinduoduo"]}),
     ("PDD",), {}, False),
    # tagged but not named by the removed alias (metadata said so): left as it was
    (chunk("An online marketplace.", ORGANIZATION=["拼多多"]), PDD.model_copy(update={"aliases": []}),
     ("PDD",), None, True),
])
def test_a_chunk_is_brought_in_step_with_an_entity(before: Chunk, entity: EntityMetadata, removed: tuple[str, ...],
                                                    after: dict[str, list[str]] | None, carries: bool) -> None:
    new, tagged = retagged(before, entity, keys(entity.standard_name, *entity.aliases), keys(*removed))
    assert (new.entities if new is not None else None) == after and tagged is carries


BANK = EntityMetadata(standard_name="青水银行", type="ORGANIZATION", aliases=["Qingshui Bank"])


@pytest.mark.parametrize(("source", "doc_id", "carries"), [
    ("青水银行_贷款通知书.docx", "青水银行_贷款通知书.docx", True),  # the file is named for the bank
    ("letters/青水银行-存款证明.pdf", "letters/青水银行-存款证明.pdf", True),
    ("清水银行_贷款通知书.docx", "清水银行_贷款通知书.docx", False),  # another bank's file
    ("青水银行.jsonl", "line-7", False),  # a line of a corpus file: the file names no line
])
def test_a_file_named_for_an_entity_tags_every_passage_of_it(source: str, doc_id: str, carries: bool) -> None:
    rate = Chunk(id=f"{doc_id}#2", doc_id=doc_id, chunk_index=2, title="贷款通知书", text="贷款年利率为3.45%。",
                 source=source)
    new, tagged = retagged(rate, BANK, keys("青水银行", "Qingshui Bank"), [])
    assert tagged is carries
    assert (new is not None and new.entities == {"ORGANIZATION": ["青水银行"]}) is carries


WORKS = EntityMetadata(standard_name="Harbourlight Works", type="ORGANIZATION", aliases=["Harbourlight"])
TOWN = EntityMetadata(standard_name="青川镇", type="LOCATION")
OUYANG = EntityMetadata(standard_name="欧阳明华", type="PERSON")


@pytest.mark.parametrize(("before", "entity", "after"), [
    # the tagger's piece of a Chinese name gives way to the whole name
    (chunk("欧阳明华出生于青川镇。", PERSON=["欧阳明"], LOCATION=["青川"]), OUYANG,
     {"PERSON": ["欧阳明华"], "LOCATION": ["青川"]}),
    (chunk("欧阳明华出生于青川镇。", PERSON=["欧阳明"], LOCATION=["青川"]), TOWN,
     {"PERSON": ["欧阳明"], "LOCATION": ["青川镇"]}),
    # written on its own elsewhere in the passage: the piece is a name of its own there, and stays
    (chunk("青川镇在青川县北部。", LOCATION=["青川"]), TOWN, {"LOCATION": ["青川", "青川镇"]}),
    # a tag inside a longer word of the name ("Harbour" in "Harbourlight"), and one of another type
    (chunk("Harbourlight Works makes lenses in Leeds.", LOCATION=["Harbour", "Leeds"]), WORKS,
     {"LOCATION": ["Leeds"], "ORGANIZATION": ["Harbourlight Works"]}),
    (chunk("Harbourlight Works moved to Harbour Street.", LOCATION=["Harbour"]), WORKS,
     {"LOCATION": ["Harbour"], "ORGANIZATION": ["Harbourlight Works"]}),
    # the tagger typed the whole name wrongly: re-typed
    (chunk("Harbourlight Works makes lenses.", LOCATION=["Harbourlight Works"]), WORKS,
     {"ORGANIZATION": ["Harbourlight Works"]}),
    # a value the text does not write (metadata of the document) is not covered by anything: it stays
    (chunk("欧阳明华发言。", LOCATION=["青川"]), OUYANG, {"LOCATION": ["青川"], "PERSON": ["欧阳明华"]}),
])
def test_a_hand_added_name_replaces_the_automatic_tags_it_covers(before: Chunk, entity: EntityMetadata,
                                                                 after: dict[str, list[str]]) -> None:
    new, tagged = retagged(before, entity, keys(entity.standard_name, *entity.aliases), [])
    assert new is not None and new.entities == after and tagged
