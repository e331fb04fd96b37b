"""Bridges whose described entity is a slot the first hop fills (#24, session 18): the description's head noun
(那家糖厂, 所在的小镇, "the company X works for") is a kind, never a name the passages must write; a named thing
with no page of its own (a product, a model) starts the chain at the passage that writes it; a linked page whose
kind is of the description's type (a village for 小镇, a creamery for "the firm") or says no known kind (an
apiary, a foundry) fills the slot; a birth or death asked of the entity reached is read from its lifespan. Every
sentence is invented for these tests, each mechanism with a twin that must not answer."""

from __future__ import annotations

from graphs.rag.answer import chains
from graphs.rag.answer.question import unmentioned
from tests.support.answers import chain_answer as ask
from tests.support.answers import question
from tests.support.fakes import hit

ROSA = hit("rosa#0", "Rosa Pellham (born 1984) is a cheesemaker. Since 2016 she has worked at Dunmere Creamery, "
                     "where she runs the ageing cellars.", title="Rosa Pellham")
CREAMERY = hit("creamery#0", "Dunmere Creamery is a dairy business that makes hard cheeses. It was set up in 1911 "
                             "by a group of farmers. Its cheese rooms are in Ostley, next to the railway.",
               title="Dunmere Creamery")
OSTLEY = hit("ostley#0", "Ostley is a village in the Brent valley. It had 2,315 residents in 2021. The village "
                         "lies on the River Loam.", title="Ostley")
KETTLE = hit("kettle#0", "The Harrier 3 kettle is made by Fenwold Metalworks. Each Harrier 3 is pressed and "
                         "polished at the works in Cadby.", title="Fenwold Metalworks")
CADBY = hit("cadby#0", "Cadby is a town on the Ledd estuary. The town was founded in 1688 by salt traders. It "
                       "has a population of 12,040.", title="Cadby")
SUGAR = hit("sugar#0", "溧川糖厂始建于1952年，厂区位于梅岗镇东郊，主要产品是 Snowcap 牌白砂糖。", title="溧川糖厂")
MEIGANG = hit("meigang#0", "梅岗镇位于溧川中游，1961年设镇，全镇常住人口约3.4万。", title="梅岗镇")
KEEPER = hit("keeper#0", "The Thorrow Apiary was founded in 1908 by the beekeeper Ada Lusk. It keeps 300 hives "
                         "on the moor.", title="Thorrow Apiary")
LUSK = hit("lusk#0", "Ada Lusk (2 May 1871 – 19 January 1950) was an English beekeeper and writer. In 1908 she "
                     "founded an apiary on Thorrow Moor.", title="Ada Lusk")


def test_the_head_of_a_chinese_description_is_a_slot_not_a_name() -> None:
    assert chains.described_slots("生产雪峰白糖的那家糖厂所在的小镇有多少人口？") >= {"小镇"}
    assert "糖厂" in chains.described_slots("生产雪峰白糖的那家糖厂所在的小镇有多少人口？")
    assert "研究所" in chains.described_slots("林素云工作的那座研究所是哪一年成立的？")
    # a name after 的 stays a name; a role is no slot
    assert chains.described_slots("中国的长江有多长？") == set()
    assert chains.described_slots("溧川糖厂的厂长是谁？") == set()
    assert chains.described_slots("When was the town founded?") == set()


def test_a_slot_word_is_never_required_of_the_passages() -> None:
    q = question("生产 Snowcap 白糖的那家糖厂所在的小镇有多少常住人口？", [SUGAR, MEIGANG])
    assert unmentioned(q, [SUGAR, MEIGANG]) == []


def test_a_relative_clause_without_its_pronoun_is_a_description() -> None:
    assert chains.wanted("In what year was the dairy Rosa Pellham works at set up?")
    assert chains.wanted("Which river runs through the village Rosa Pellham commutes to?")
    assert not chains.wanted("When was the album Quiet Harbour released?")


def test_the_company_a_person_works_at_is_the_linked_page_of_an_organisations_type() -> None:
    out = ask("In what year was the company Rosa Pellham works at set up?", [ROSA, CREAMERY, OSTLEY])
    assert isinstance(out, tuple)
    span, text = out
    assert span == "1911" and "Dunmere Creamery" in text and "[1]" in text and "[2]" in text


def test_a_product_without_a_page_starts_at_the_page_that_writes_it() -> None:
    out = ask("When was the town where the Harrier 3 kettles are polished founded?", [KETTLE, CADBY, OSTLEY])
    assert isinstance(out, tuple) and out[0] == "1688" and "polished at the works in Cadby" in out[1]


def test_a_product_chain_in_chinese_through_two_slots() -> None:
    out = ask("生产 Snowcap 白糖的那家糖厂所在的镇有多少常住人口？", [SUGAR, MEIGANG])
    assert isinstance(out, tuple) and out[0] is not None and "3.4万" in out[0]


def test_the_slot_filled_by_a_town_whose_page_lacks_the_attribute_is_not_answered() -> None:
    out = ask("Who is the mayor of the town where the Harrier 3 kettles are polished?", [KETTLE, CADBY])
    assert out is None or isinstance(out, chains.Broken)


def test_a_death_asked_of_the_person_a_description_reaches_is_read_from_the_lifespan() -> None:
    out = ask("In what year did the beekeeper who founded the Thorrow Apiary die?", [KEEPER, LUSK])
    assert isinstance(out, tuple) and out[0] is not None and "1950" in out[0]


def test_a_question_word_is_no_verb_of_the_description() -> None:
    # "When was the town where X … founded?": founded is asked of the town, not part of its description
    out = ask("When was the town where the Harrier 3 kettles are pressed founded?", [KETTLE, CADBY])
    assert isinstance(out, tuple) and out[0] == "1688"
