"""A chain's bridge follows the entity of the kind the relation reaches (a person for a role, an organisation for
"the company that …", a place for "the town where …"), and a chain is refused only when every reading of it fails
(a second look: the next candidate of a hop). Made-up material, in other domains than tests/data/multihop_own*."""

from __future__ import annotations

from graphs.rag.answer import chains
from graphs.rag.relation_cues import ORGANIZATION, PERSON, PLACE, bridge_kind, entity_kind
from tests.support.answers import write
from tests.support.fakes import hit

# -- the kind of an entity and the kind a question asks of its bridge


def test_the_kind_of_a_passage_is_read_from_its_opening() -> None:
    assert entity_kind("Marrow Bay", "Marrow Bay is a fishing village on the east coast.") == PLACE
    assert entity_kind("Lisk", "Lisk is the capital and largest city of Ardenne.") == PLACE
    assert entity_kind("Orrin Housewares", "Orrin Housewares is a maker of small appliances.") == ORGANIZATION
    assert entity_kind("Tull Rovers", "Tull Rovers are an amateur rugby club based in Lisk.") == ORGANIZATION
    assert entity_kind("Pell", "Pell is a camera and lens maker from Lisk.") == ORGANIZATION
    assert entity_kind("Ada Korr", "Ada Korr (1911 – 1980) was a glassblower.") == PERSON
    assert entity_kind("Ada Korr", "Ada Korr is a glassblower and potter. She lives in Lisk.") == PERSON
    # the head noun, not a word before it: an album made in a studio is no organisation
    assert entity_kind("Tides", "Tides is the third studio album by the singer Ada Korr.") is None
    assert entity_kind("灰岩镇", "灰岩镇位于东岭省西部，以石雕闻名。") == PLACE
    assert entity_kind("长风航运", "长风航运是一家经营内河客运的公司。") == ORGANIZATION
    assert entity_kind("程远", "程远（1950年－）是一位雕塑家。") == PERSON
    assert entity_kind("白鹭号", "白鹭号是一艘内河客轮。") is None


def test_the_kind_a_question_describes_its_bridge_as() -> None:
    assert bridge_kind("When was the firm that insures the Tull Arena founded?") == ORGANIZATION
    assert bridge_kind("How many people live in the village where Ada Korr was born?") == PLACE
    assert bridge_kind("When was Ada Korr born?") is None  # no bridge described
    assert bridge_kind("When was the sculptor of the Lisk Fountain born?") == PERSON
    assert bridge_kind("When was the designer of the Lisk Fountain born?") == PERSON
    # the description nearest the named subject: the museum (the first hop), not its director
    assert bridge_kind("Where was the first director of the museum that owns Tides born?") == ORGANIZATION
    assert bridge_kind("经营白鹭号的公司是哪一年成立的？") == ORGANIZATION
    assert bridge_kind("程远出生的村子有多少人？") is None
    assert bridge_kind("程远出生的县建于哪一年？") == PLACE
    assert bridge_kind("首创灰岩石雕的匠人是谁？") == PERSON


# -- the evidence layer's bridge (two sentences of two passages)

FERRY = hit("ferry#0", "Longwater Shipping is a passenger company that serves the Marrow Bay route. It runs the river "
                       "boat Grey Heron. Its office is in Lisk.", title="Longwater Shipping")
BAY = hit("bay#0", "Marrow Bay is a fishing village on the east coast. It was founded in 1512 by herring traders.",
          title="Marrow Bay")


def test_the_bridge_is_not_an_entity_of_another_kind_than_the_question_describes() -> None:
    # the first hop's sentence names a village (founded 1512) beside the company the question asks of: the
    # company's founding is stated nowhere, so the village's year is no answer
    decision, _, span, answer = write("When was the company that runs the Grey Heron founded?", [FERRY, BAY])
    assert decision == "not_found" or span is None
    assert "1512" not in answer  # not as the short answer, nor as a sentence joined through the village


def test_a_bridge_of_the_kind_asked_is_still_followed() -> None:
    boat = hit("boat#0", "The Grey Heron is a river boat built in 1961. It is moored at Marrow Bay all winter.",
               title="Grey Heron")
    decision, _, span, _ = write("When was the village where the Grey Heron is moored founded?", [boat, BAY])
    assert decision == "answerable" and span == "1512"


def test_a_chinese_bridge_of_another_kind_is_not_followed() -> None:
    boat = hit("boat#0", "白鹭号是一艘内河客轮，停靠在灰岩镇码头，由长风航运经营。", title="白鹭号")
    town = hit("town#0", "灰岩镇位于东岭省西部。灰岩镇建于1398年，以石雕闻名。", title="灰岩镇")
    _, _, span, _ = write("经营白鹭号的公司是哪一年成立的？", [boat, town])
    assert span is None or "1398" not in span
    decision, _, span, _ = write("白鹭号停靠的镇建于哪一年？", [boat, town])
    assert decision == "answerable" and span is not None and "1398" in span


# -- the chain's hop: the candidate of the relation's kind


FOUNTAIN = hit("fountain#0", "The Lisk Fountain is a bronze fountain unveiled in 1902. It was designed by Orrin "
                             "Housewares, who cast it. Its designer was the sculptor Ada Korr.", title="Lisk Fountain")
# (the firm's passage says "born in" of itself: read as a person's birthplace it would answer "Dunmore")
ORRIN = hit("orrin#0", "Orrin Housewares is a maker of small appliances. The firm was born in Dunmore as a foundry.",
            title="Orrin Housewares")
KORR = hit("korr#0", "Ada Korr (1871 – 1950) was a sculptor. She was born in Marrow Bay.", title="Ada Korr")


def test_a_hop_to_a_person_skips_a_candidate_whose_passage_is_about_an_organisation() -> None:
    found = chains.follow("Where was the designer of the Lisk Fountain born?", [FOUNTAIN, ORRIN, KORR])
    assert isinstance(found, chains.Followed) and found.answer == "Marrow Bay"
    assert [n for n, _ in found.steps] == [0, 2]


def test_new_roles_of_clubs_buildings_and_kitchens_are_chain_relations() -> None:
    club = hit("club#0", "Tull Rovers are an amateur rugby club based in Lisk. Its manager is Bram Oster.",
               title="Tull Rovers")
    oster = hit("oster#0", "Bram Oster (born 2 May 1969) is a rugby coach. He was born in Dunmore.", title="Bram Oster")
    found = chains.follow("Where was the manager of Tull Rovers born?", [club, oster])
    assert isinstance(found, chains.Followed) and found.answer == "Dunmore"
    # the manager's passage states no death: the chain is broken, not answered with his birth
    died = chains.follow("When did the manager of Tull Rovers die?", [club, oster])
    assert isinstance(died, chains.Broken) and died.entity == "bram oster"
    kitchen = [hit("inn#0", "The Salt Lantern is an inn in Lisk. Its head chef is Noor Vale.", title="The Salt Lantern"),
               hit("vale#0", "Noor Vale (born 1984) is a cook. She was born in Marrow Bay.", title="Noor Vale")]
    chef = chains.follow("Where was the head chef of The Salt Lantern born?", kitchen)
    assert isinstance(chef, chains.Followed) and chef.answer == "Marrow Bay"
    zh = [hit("hall#0", "东岭剧院是一座剧场，2004年落成，由建筑师程远设计。", title="东岭剧院"),
          hit("cheng#0", "程远（1950年－）是一位建筑师。他出生于灰岩镇。", title="程远")]
    where = chains.follow("东岭剧院的设计者出生在哪里？", zh)
    assert isinstance(where, chains.Followed) and where.answer == "灰岩镇"


# -- a second look before refusing


def test_a_broken_first_reading_gives_way_to_the_next_candidate_of_the_hop() -> None:
    # the first spouse named has a passage that says nothing of a birth; the second spouse's passage does
    ilse = hit("ilse#0", "Ilse Brandvik (1902 – 1961) was a weaver. She married firstly Per Holm and secondly the "
                         "printer Aksel Moen.", title="Ilse Brandvik")
    holm = hit("holm#0", "Per Holm (1899 – 1940) was a sailor. He drowned off Lisk in 1940.", title="Per Holm")
    moen = hit("moen#0", "Aksel Moen (1897 – 1970) was a printer. He was born in Dunmore.", title="Aksel Moen")
    found = chains.follow("Where was the husband of Ilse Brandvik born?", [ilse, holm, moen])
    assert isinstance(found, chains.Followed) and found.answer == "Dunmore"
    assert [n for n, _ in found.steps] == [0, 2]
    # every reading fails: refused, naming the first reading's entity
    moen_silent = hit("moen#0", "Aksel Moen (1897 – 1970) was a printer in Lisk.", title="Aksel Moen")
    broken = chains.follow("Where was the husband of Ilse Brandvik born?", [ilse, holm, moen_silent])
    assert isinstance(broken, chains.Broken) and broken.entity == "per holm"


def test_the_second_look_does_not_read_past_the_first_reading_that_holds() -> None:
    # the first reading answers: the other candidate is not looked at (its passage is never asked for)
    ilse = hit("ilse#0", "Ilse Brandvik (1902 – 1961) was a weaver. She married firstly Per Holm and secondly the "
                         "printer Aksel Moen.", title="Ilse Brandvik")
    holm = hit("holm#0", "Per Holm (1899 – 1940) was a sailor. He was born in Lisk.", title="Per Holm")
    asked: list[str] = []

    def lookup(name: str) -> list:
        asked.append(name)
        return []

    found = chains.follow("Where was the husband of Ilse Brandvik born?", [ilse, holm], lookup=lookup)
    assert isinstance(found, chains.Followed) and found.answer == "Lisk"
    assert not any("moen" in a.casefold() for a in asked)


def test_a_later_chunk_of_a_document_says_nothing_of_its_kind() -> None:
    # a chunk from the middle of a town's article: the bracketed years are no lifespan of the town
    assert entity_kind("Marrow Bay", "In the 1850s (from 1851 to 1859) the harbour was rebuilt twice.") is None
    assert entity_kind("灰岩镇", "1950年（一说1951年）镇上建了第一所学校。") == PLACE  # the title's own ending


def test_the_planner_asks_a_chinese_first_hop_by_the_kind_of_entity_it_describes() -> None:
    from graphs.rag.planning import chinese_first_hop

    assert chinese_first_hop("承建东岭剧院的公司是哪一年成立的？") == "承建东岭剧院的公司是哪家？"
    assert chinese_first_hop("首创灰岩石雕的匠人是哪一年出生的？") == "首创灰岩石雕的匠人是谁？"
    assert chinese_first_hop("东岭剧院所在的镇建于哪一年？") == "东岭剧院所在的镇是哪里？"  # as before
