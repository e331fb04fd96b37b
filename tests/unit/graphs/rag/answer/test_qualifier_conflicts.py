"""The asked fact stated only for another instance of the event (issue 24, negative rejection): the answering
sentence of another month's storm, another round, another group or stage of the same row is no evidence, whatever
the score; its twin that states the asked instance answers. Invented news passages, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "other", "twin", "stated"), [
    # another month's storm: the toll of the June one for the September one
    ("梧州9月台风造成多少人受伤？",
     hit("a#0", "6月12日，台风过境梧州，造成14人受伤。", title="梧州台风"),
     hit("b#0", "9月3日，台风过境梧州，造成21人受伤。", title="梧州台风"), "6月"),
    # another round of the same open
    ("Who won round two of the Selby Rapid Open?",
     hit("c#0", "In round three of the Selby Rapid Open, Mara Quist beat the top seed.", title="Selby Rapid Open"),
     hit("d#0", "In round two of the Selby Rapid Open, Mara Quist beat the top seed.", title="Selby Rapid Open"),
     "round 3"),
    # another stage of the race: the half marathon's winner for the full one's
    ("沙洲马拉松全程女子冠军是谁？",
     hit("e#0", "沙洲马拉松半程女子冠军由刘洋获得。", title="沙洲马拉松"),
     hit("f#0", "沙洲马拉松全程女子冠军由刘洋获得。", title="沙洲马拉松"), "半程"),
    # another group's count
    ("How many women's crews entered the Tamsey Regatta?",
     hit("g#0", "The Tamsey Regatta drew 31 men's crews from nine clubs.", title="Tamsey Regatta"),
     hit("h#0", "The Tamsey Regatta drew 31 women's crews from nine clubs.", title="Tamsey Regatta"), "men's"),
])
async def test_the_fact_of_another_instance_is_no_evidence(text: str, other: Hit, twin: Hit, stated: str) -> None:
    decision, reason = await verdict_of(text, [other])
    assert decision == "not_found", reason
    assert stated in reason
    decision, reason = await verdict_of(text, [twin])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "asked"), [
    ("How much damage did the storm at Kelso cause?", None),  # an amount of damage: no price, no cause
    ("How much snow fell on Carrick Fell in January?", None),
    ("How much does the Vantor K2 kettle cost?", "price"),
    ("How much prize money does the Kelso regatta offer?", "price"),  # money by its noun
    ("How much is a day ticket to Kelso Gardens?", "price"),
    ("How much did the Vantor K2 sell for?", "price"),
    ("What caused the storm damage at Kelso?", "cause"),
])
def test_how_much_with_a_noun_asks_that_nouns_amount_not_a_price(text: str, asked: str | None) -> None:
    from graphs.rag.answer.attributes import asked_attribute

    found = asked_attribute(text, "number" if text.startswith("How much") else "other")
    assert (found.attribute.name if found is not None and not found.attribute.generic else None) == asked


async def test_a_fact_of_another_year_is_no_evidence_though_its_passage_names_the_asked_year() -> None:
    """The sentence states the fact for another year than the question's; the asked year only in a later sentence
    of its passage (which states nothing of the fact)."""
    text = "How many visitors did the 2021 Tollin Kite Festival draw?"
    other = hit("k#0", "The 2019 Tollin Kite Festival drew 80,000 visitors. The 2021 festival moved to the dunes.",
                title="Tollin Kite Festival")
    decision, reason = await verdict_of(text, [other])
    assert decision == "not_found" and "2019" in reason, reason
    twin = hit("l#0", "The 2021 Tollin Kite Festival drew 80,000 visitors. The 2019 festival moved to the dunes.",
               title="Tollin Kite Festival")
    decision, reason = await verdict_of(text, [twin])
    assert decision == "answerable", reason


async def test_a_nickname_in_quotes_is_no_name_for_a_who_question() -> None:
    nickname = hit("m#0", "《北岸来信》里，观众最爱看“老三样”斗嘴的戏份，这正是导演的用心之处。", title="北岸来信")
    decision, reason = await verdict_of("《北岸来信》的导演是谁？", [nickname])
    assert decision == "not_found", reason


async def test_a_price_said_of_another_latin_named_product_is_no_evidence() -> None:
    """In a Chinese sentence a product written in Latin letters before the attribute is the value's subject: the
    price of the phone that a case fits is not the case's."""
    other = hit("n#0", "Arlo保护壳适配新款Vexa Note 5。新款Vexa Note 5售价3299元。", title="Arlo保护壳")
    decision, reason = await verdict_of("Arlo保护壳的售价是多少？", [other])
    assert decision == "not_found" and "vexa note 5" in reason, reason
    twin = hit("o#0", "Arlo保护壳适配新款Vexa Note 5。Arlo保护壳售价129元。", title="Arlo保护壳")
    decision, reason = await verdict_of("Arlo保护壳的售价是多少？", [twin])
    assert decision == "answerable", reason
