"""Bridges followed through linked pages and comparisons read where each side is named, on own invented documents
(#24, session 16): a chain of described entities chooses, of two pages of the asked kind its page links to, the
one whose linking sentence says what the description says (担任首席财务官 → the airline, not the mill she once
worked at); a page's kind may be said by the sentence that links it ("the cider press, a small factory in …");
each step looks up the next page from the entity reached (three pages deep); a role the question gives a name
("the head brewer of X") links to the page its sentence names beside the role; the asked attribute stated in the
lexicon's words answers in the question's own language too. A comparison's sides are the things offered, without
the verb and measure word they are offered with (拍一张X光, "getting a filling"), valued in their own table row
(the row whose item cell is the side, the column the question names)."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.ingest.formats.tables import parse_csv
from graphs.rag.answer import chains
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.verdicts import bare_side, sides_of, without_value
from tests.support.answers import chain_answer as ask
from tests.support.answers import question, write
from tests.support.fakes import hit

PERSON = hit("cao#0", "曹映雪，1976年生于绥川。她早年在一家面粉厂做过会计，后来转入航空业，2019年起担任支线航空公司 "
                      "Fenmoor Air 的首席财务官。", title="曹映雪")
MILL = hit("mill#0", "汀北面粉厂是一家老牌粮食加工企业，位于宣桥镇，始建于1957年。", title="汀北面粉厂")
XUANQIAO = hit("xuanqiao#0", "宣桥镇是一个以粮食加工为主的小镇，全镇常住人口约2.1万。", title="宣桥镇")
AIRLINE = hit("fenmoor#0", "Fenmoor Air flies turboprops between the northern isles. Its head office is at "
                           "Callowmere, a small port town on the east coast.", title="Fenmoor Air")
CALLOWMERE = hit("callowmere#0", "Callowmere is a port town on the east coast. About 14,600 people live there. "
                                 "It was granted a borough charter in 1203.", title="Callowmere")


def test_of_two_linked_pages_of_the_kind_the_one_whose_linking_sentence_says_the_description() -> None:
    # both the mill (企业) and the airline are companies her page names; 担任首席财务官 says which one is meant,
    # and the airline's page then links to its town by "a small port town" beside the name
    out = ask("曹映雪担任首席财务官的那家公司，总部所在的小镇有多少人口？", [PERSON, MILL, XUANQIAO, AIRLINE, CALLOWMERE])
    assert isinstance(out, tuple)
    span, text = out
    assert span is not None and "14,600" in span
    assert "首席财务官" in text and "Callowmere" in text and "2.1万" not in text


def test_the_next_page_is_looked_up_from_the_entity_reached() -> None:
    # only the person's page is retrieved: the airline is looked up from her page, the town from the airline's
    pages = {"Fenmoor Air": AIRLINE, "Callowmere": CALLOWMERE}

    def lookup(name: str) -> list[Hit]:
        return [h for title, h in pages.items() if title.casefold() in name.casefold()]

    out = ask("曹映雪担任首席财务官的那家公司，总部所在的小镇有多少人口？", [PERSON], lookup)
    assert isinstance(out, tuple) and out[0] is not None and "14,600" in out[0]


def test_a_retrieved_page_of_the_kind_not_linked_to_the_named_entity_is_not_the_one_described() -> None:
    # 宣桥镇 is a town and is retrieved, but the airline's page does not name it: Callowmere is looked up
    def lookup(name: str) -> list[Hit]:
        return [CALLOWMERE] if "callowmere" in name.casefold() else []

    out = ask("Fenmoor Air 总部所在的那个港口小镇有多少居民？", [AIRLINE, XUANQIAO], lookup)
    assert isinstance(out, tuple) and out[0] is not None and "14,600" in out[0]


BREWERY = hit("brewery#0", "Oldcastle Brewing makes cask ales in a former tannery. Its head brewer since 2017 has "
                           "been Maren Tolley, who trained in Bavaria.", title="Oldcastle Brewing")
BREWER = hit("tolley#0", "Maren Tolley (born 1981) is a brewer. She was born in Hexley and studied chemistry "
                         "before turning to brewing.", title="Maren Tolley")


def test_a_role_the_question_gives_a_name_links_to_the_page_its_sentence_names_beside_the_role() -> None:
    out = ask("In which year was the head brewer of Oldcastle Brewing born?", [BREWERY, BREWER])
    assert isinstance(out, tuple) and out[0] == "1981"
    assert "head brewer" in out[1]


def test_a_role_link_whose_page_does_not_state_what_is_asked_answers_nothing() -> None:
    # Maren Tolley's page says nothing of her salary: the role link knows nothing then (None: the evidence-based
    # writer and the answerability decide), never the brewery's or her birth year as the answer
    assert ask("How much does the head brewer of Oldcastle Brewing earn per year?", [BREWERY, BREWER]) is None
    # a relation of the lexicon the page does not state: the relation chain says where it broke
    broken = ask("Who is the spouse of the head brewer of Oldcastle Brewing?", [BREWERY, BREWER])
    assert isinstance(broken, chains.Broken) and broken.entity == "Maren Tolley"


def test_the_asked_attribute_in_the_lexicons_words_answers_in_the_questions_own_language() -> None:
    # "how many people live" is stated as "residents": no word of the question's but the attribute's
    mill = hit("press#0", "The Yarrow cider press is a small factory in Brindle that presses apples from the local "
                          "orchards.", title="Yarrow cider press")
    brindle = hit("brindle#0", "Brindle is a village on the River Lune. It had 1,240 residents at the last count.",
                  title="Brindle")
    out = ask("How many people live in the village where the Yarrow cider press stands?", [mill, brindle])
    assert isinstance(out, tuple) and out[0] is not None and "1,240" in out[0]


@pytest.mark.parametrize(("offered", "bare"), [
    ("验个血常规", "血常规"), ("拍一张X光", "X光"), ("打一针狂犬疫苗", "狂犬疫苗"), ("坐一趟夜游船", "夜游船"),
    ("一份渔排午餐", "渔排午餐"), ("做个B超", "B超"),
    ("getting a filling", "filling"), ("a cup of oolong", "oolong"), ("booking two nights of camping", "camping"),
    ("an X-ray", "X-ray"),
])
def test_a_side_is_offered_without_its_verb_numeral_and_measure_word(offered: str, bare: str) -> None:
    assert bare_side(offered) == bare


@pytest.mark.parametrize("name", ["老张家面馆", "三个火枪手", "个人所得税", "A Beautiful Mind", "the Old Mill Bridge",
                                  "Marrow Fell", "青峰A型"])
def test_a_side_that_is_a_name_stays_whole(name: str) -> None:
    assert bare_side(name) == name


def _table(rows: str, title: str) -> Hit:
    parsed = parse_csv(rows.encode("utf-8"), f"{title}.csv")
    return hit(f"{title}#0", parsed.sections[0].text, title=title)


CLINIC = _table("编号,项目,价格,单位\nK01,洁牙,260元,次\nK02,补牙,180元,颗\nK03,拔智齿,450元,颗\nK04,全景片,120元,张\n",
                "齿科收费表")
FARES = _table("Route,Adult,Bicycle\nPort Ennis – Gull Rock,£7.20,£2.00\nPort Ennis – Saltmarsh,£5.40,\n",
               "Ferry fares")


def test_a_chinese_side_offered_with_a_verb_and_measure_word_is_valued_in_its_own_table_row() -> None:
    q = question("收费表上，拍一张全景片和做一次洁牙，哪个便宜些？", [CLINIC])
    assert sides_of(q) == ["全景片", "洁牙"]
    decision, _, span, text = write("收费表上，拍一张全景片和做一次洁牙，哪个便宜些？", [CLINIC])
    assert decision == "answerable" and span == "全景片" and "120元" in text and "260元" in text
    decision, _, span, text = write("收费表里，做个洁牙和拔一颗智齿，哪个更贵？", [CLINIC])
    assert decision == "answerable" and span == "智齿" and "450元" in text and "260元" in text


def test_a_price_cell_states_a_price_and_the_column_the_question_names_is_the_one_read() -> None:
    decision, _, span, text = write("Which is cheaper for an adult, the Gull Rock route or the Saltmarsh route?",
                                    [FARES])
    assert decision == "answerable" and span is not None and "Saltmarsh" in span
    assert "5.40" in text and "7.20" in text
    # the Saltmarsh row has no bicycle fare: its adult fare is not read instead
    q = question("Which is cheaper to take a bicycle on, the Gull Rock route or the Saltmarsh route?", [FARES])
    assert without_value(q, find_evidence(q, [FARES])) == ["Saltmarsh"]


def test_the_entity_a_role_reaches_is_not_its_own_answer() -> None:
    anthem = hit("anthem#0", '"Harbour Lights" is an anthem written by Ilse Varga in 1951. It is sung at the '
                             "opening of the sailing season.", title="Harbour Lights (anthem)")
    varga = hit("varga#0", "Ilse Varga (born 1920) is a Hungarian composer and singer. She is known as the first wife "
                           "of the painter Tamas Orban.", title="Ilse Varga")
    out = ask('The writer of the anthem "Harbour Lights" was the first wife of which painter?', [anthem, varga])
    assert out is None or (isinstance(out, tuple) and out[0] != "Ilse Varga")


def test_the_asked_relation_stated_in_the_other_language_answers_a_role_link() -> None:
    # "born" is asked by no specific attribute of the lexicon ("in which town": where); the relation's Chinese
    # words (生于) state it on the person's Chinese page, and the place beside them is the answer
    press = hit("press#0", "Tidewater Press prints small-run poetry books. Its chief editor since 2012 has been "
                           "Gao Wenqing (高文清).", title="Tidewater Press")
    editor = hit("gao#0", "高文清（Gao Wenqing），1975年生于岭西市，诗人、编辑。2012年起任 Tidewater Press 的主编。",
                 title="高文清")
    out = ask("In which city was the chief editor of Tidewater Press born?", [press, editor])
    assert isinstance(out, tuple) and out[0] is not None and "岭西" in out[0]
