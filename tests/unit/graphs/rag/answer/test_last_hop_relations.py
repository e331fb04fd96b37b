"""The last hop of a bridge answers from the bridge entity's own passage, bound to the asked relation (#24, session
19): a "when" asked of the described entity is the date its passage states with the relation asked ("set up",
设立), read outside the description, not another year of that passage; a stem states only its own inflections (a
foundry, a founder, a former mayor state no founding); a name written with a kind word of the other language
(Harrowgate 砖厂) starts the chain at the page titled with the name whose kind that word translates. Every sentence
is invented for these tests, each mechanism with a twin that must not answer."""

from __future__ import annotations

from graphs.rag.answer import chains
from graphs.text.relations import asked_relation, states
from tests.support.answers import chain_answer as ask
from tests.support.fakes import hit

VEREY = hit("verey#0", "Tomas Verey (born 1969) is a brewer. Since 2012 he has been head brewer at the Ashgill "
                       "Brewery, where he looks after the cask ales.", title="Tomas Verey")
ASHGILL = hit("ashgill#0", "The Ashgill Brewery is a brewery that makes cask ales. As of 2024 the brewery sells "
                           "forty beers to pubs in the dale. The brewery was set up in 1862 by the miller Joseph "
                           "Ashgill. Its new brewhouse opened in 1997.", title="Ashgill Brewery")
ASHGILL_UNDATED = hit("ashgill#0", "The Ashgill Brewery is a brewery that makes cask ales. As of 2024 the brewery "
                                   "sells forty beers to pubs in the dale.", title="Ashgill Brewery")
# the chunk retrieved writes the name nowhere: only its page's title does
HARROW = hit("harrow#0", "It is a brick works that presses bricks by hand. Its kilns stand at the edge of Wyle Bridge, beside the "
                         "canal.", title="Harrowgate Works - Dalewiki")
WYLE = hit("wyle#0", "Wyle Bridge is a market town on the River Sedge. At the 2021 census it had 5,210 residents. "
                     "The town's market charter dates from 1304.", title="Wyle Bridge - Dalewiki")
QIAO = hit("qiao#0", "汤溪酿酒坊始建于1921年。2018年，酒坊设立了一座小型博物馆，酒坊位于柳塘村。", title="汤溪酿酒坊")
FANG = hit("fang#0", "方慧敏是酿酒师，2015年起在汤溪酿酒坊担任总酿酒师。", title="方慧敏")


def test_a_stem_states_its_own_inflections_only() -> None:
    assert states("founded", "The mill was set up in 1790 by two brothers.")
    assert states("founded", "The foundation of the village in 1402 is recorded in a charter.")
    assert states("founded", "该协会设立于1988年。")
    assert states("built", "The chapel was completed in 1711.")
    assert not states("founded", "As of 2023 the foundry employs 41 people.")
    assert not states("founded", "She has been master founder there since 2011.")
    assert not states("founded", "The former harbourmaster retired in 1999.")
    assert not states("died", "He kept to a strict diet until 1988.")
    assert asked_relation("In what year was the dairy set up?") == "founded"


def test_a_date_asked_of_the_described_entity_is_the_one_its_relation_states() -> None:
    found = ask("In what year was the brewery where Tomas Verey is head brewer set up?", [VEREY, ASHGILL])
    assert found is not None and not isinstance(found, chains.Broken)
    assert found[0] == "1862"
    assert "set up in 1862" in found[1]
    opened = ask("When did the brewery where Tomas Verey is head brewer open its new brewhouse?", [VEREY, ASHGILL])
    assert opened is not None and not isinstance(opened, chains.Broken) and opened[0] == "1997"


def test_the_twin_without_the_relation_takes_no_other_year_of_the_passage() -> None:
    found = ask("In what year was the brewery where Tomas Verey is head brewer set up?", [VEREY, ASHGILL_UNDATED])
    assert found is None or isinstance(found, chains.Broken) or found[0] not in ("2024", "2012")


def test_a_chinese_relation_word_binds_the_date_in_the_reached_passage() -> None:
    found = ask("方慧敏担任总酿酒师的那家酒坊是哪一年始建的？", [FANG, QIAO])
    assert found is not None and not isinstance(found, chains.Broken)
    assert found[0] is not None and "1921" in found[0]


def test_a_name_with_a_kind_word_of_the_other_language_starts_the_chain() -> None:
    found = ask("Harrowgate 砖厂所在的那个小镇，2021年人口普查时有多少居民？", [WYLE, HARROW])
    assert found is not None and not isinstance(found, chains.Broken)
    assert found[0] is not None and "5,210" in found[0]


def test_the_twin_whose_kind_word_does_not_translate_reaches_nothing() -> None:
    # 大学 is no works: the page titled "Harrowgate …" is not the university the question names
    found = ask("Harrowgate 大学所在的那个小镇，2021年人口普查时有多少居民？", [WYLE, HARROW])
    assert found is None or isinstance(found, chains.Broken) or "5,210" not in (found[0] or "")


def test_a_year_the_question_sets_qualifies_the_last_hop_not_the_first() -> None:
    # the town's page states its 2021 census only: a 2011 figure is asked, and the first hop's year is no answer
    stated = ask("Harrowgate 砖厂所在的那个小镇，2021年人口普查时有多少居民？", [WYLE, HARROW])
    assert stated is not None and not isinstance(stated, chains.Broken) and "5,210" in (stated[0] or "")
    other = ask("Harrowgate 砖厂所在的那个小镇，2011年人口普查时有多少居民？", [WYLE, HARROW])
    assert other is None or isinstance(other, chains.Broken) or "5,210" not in (other[0] or "")


def test_a_bridge_whose_page_lacks_the_attribute_is_named_in_the_reason() -> None:
    found = ask("Who is the mayor of the town where the Harrowgate Works stands?", [HARROW, WYLE])
    assert isinstance(found, chains.Broken) and found.has_passage
    assert "wyle bridge" in found.reason.casefold() and "mayor" in found.reason


SEDGE = hit("sedge#0", "Wyle Bridge is a market town in the county of Sedgeshire, on the west bank of the River Sedge "
                       "about six miles above its mouth. At the 2021 census it had 5,210 residents.", title="Wyle Bridge")
KILNS = hit("kilns#0", "Harrowgate Works is a brickworks that presses bricks by hand. Its kilns stand at the edge "
                       "of Wyle Bridge, beside the canal.", title="Harrowgate Works")
TILES = hit("tiles#0", "鹤川砖瓦厂始建于1958年，厂区位于青禾镇。", title="鹤川砖瓦厂")
QINGHE = hit("qinghe#0", "青禾镇隶属于柳溪县，地处汀江北岸，全镇人口约2.6万。", title="青禾镇")


def test_the_noun_the_question_word_asks_binds_the_last_hops_span() -> None:
    river = ask("Which river runs through the town where the Harrowgate Works stands?", [KILNS, SEDGE])
    assert river is not None and not isinstance(river, chains.Broken) and river[0] == "River Sedge"
    county = ask("Which county is the town where the Harrowgate Works stands in?", [KILNS, SEDGE])
    assert county is not None and not isinstance(county, chains.Broken) and county[0] == "Sedgeshire"
    zh = ask("鹤川砖瓦厂所在的镇属于哪个县？", [TILES, QINGHE])
    assert zh is not None and not isinstance(zh, chains.Broken) and zh[0] == "柳溪县"
