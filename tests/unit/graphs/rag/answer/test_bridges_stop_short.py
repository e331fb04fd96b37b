"""Bridges and comparisons that stopped one step short (#24 §3), on invented documents no dev set holds: a
three-page chain whose first page was retrieved in two chunks (its second chunk is the same person, not the town
described); of the reached page's sentences whose contexts cover the question alike, the one that writes the asked
words answers; a description's own verb picks which linked page of the kind is meant, across languages (an English
observatory for 天文台); a comparison side's sentence that opens with it is its own under a headline naming the
other side; a noun narrowed by a year still asks a number; X址在 states where a thing is."""

from __future__ import annotations

from graphs.rag.answer import chains
from graphs.rag.answer.attributes import lexicon, stated_at
from graphs.rag.answer.evidence import sentences_of
from graphs.rag.answer.verdicts import compare
from graphs.text.answer_types import expected_answer
from graphs.text.normalize import has_han
from tests.support.answers import chain_answer as ask
from tests.support.answers import question
from tests.support.fakes import hit

# -- a three-page chain: person → employer → the employer's town

TAMSIN_0 = hit("tamsin#0", "Tamsin Orrey (born 1981) is a boatbuilder from the Dunmere coast.\n\nEmployer: Keldwick "
                           "Boatyard\nKnown for: the Heron class dinghy", title="Tamsin Orrey")
TAMSIN_1 = hit("tamsin#1", "Orrey grew up in a small fishing village near the old town of Sallow Head, where her "
                           "uncle mended nets. She later taught at the boatbuilding college.", title="Tamsin Orrey")
KELDWICK = hit("keld#0", "Keldwick Boatyard is a builder of wooden sailing dinghies. Its head office and sheds stand "
                         "on Tanner Row in Brisford, beside the estuary.", title="Keldwick Boatyard")
BRISFORD = hit("bris#0", "Brisford is a market town on the Dunmere estuary. A fishing hamlet at the ford is recorded in "
                         "a tithe roll of 1204. The town was granted a borough charter to hold a Saturday market in "
                         "1311, and the market has been held ever since. The railway reached the town in 1871.",
               title="Brisford")


def test_another_chunk_of_the_first_page_is_the_same_person_not_the_town_described() -> None:
    asked = "In what year did the town where Tamsin Orrey's employer has its head office get its borough charter?"
    reached = chains.described(asked, [TAMSIN_0, TAMSIN_1, BRISFORD, KELDWICK])
    assert reached is not None and reached.passage.title == "brisford"
    assert [n for n, _ in reached.steps] == [0, 3]  # her page's employer line, the boatyard's head-office sentence


def test_of_two_sentences_covering_the_question_alike_the_one_that_writes_the_asked_words_answers() -> None:
    # the tithe-roll sentence's context (the next sentence) writes "charter" too: its own year is no answer
    out = ask("In what year did the town where Tamsin Orrey's employer has its head office get its borough charter?",
              [TAMSIN_0, TAMSIN_1, BRISFORD, KELDWICK])
    assert isinstance(out, tuple) and out[0] == "1311"
    assert "borough charter" in out[1] and "1204" not in out[1]


# -- the linked page the description's own verb names, across languages

SONG = hit("song#0", "宋知远，1958年出生，气象学家。1990年至1992年，他在英国的 Harwick Moor Observatory 做访问学者。"
                     "回国后他参与筹建白鹭天文台，2001年起担任该台台长。", title="宋知远")
BAILU = hit("bailu#0", "白鹭天文台坐落在青河镇以北的白鹭山上，1983年建成。天文台每年秋季向公众开放。", title="白鹭天文台")
HARWICK = hit("harwick#0", "The Harwick Moor Observatory is a research observatory on the moor above the village of "
                           "Ashby. It was founded in 1926 by the astronomer Edith Crane.", title="Harwick Moor Observatory")


def test_the_linking_sentence_that_writes_the_descriptions_verb_picks_the_page_across_languages() -> None:
    out = ask("宋知远做访问学者的那座天文台是哪一年建立的？", [SONG, BAILU, HARWICK])
    assert isinstance(out, tuple) and out[0] == "1926"
    # the observatory he ran is the one the other verb names
    out = ask("宋知远担任台长的那座天文台是哪一年建成的？", [SONG, BAILU, HARWICK])
    assert isinstance(out, tuple) and out[0] is not None and "1983" in out[0]


def test_an_english_observatory_is_of_the_kind_tianwentai() -> None:
    p = chains.passages_of([HARWICK])[0]
    assert "天文台" in chains.kind_nouns(p, HARWICK.title)


# -- a comparison side under a headline that names the other side

NEWS = hit("news#0", "柳溪镇安澜桥修缮完工 老石桥重新通行\n\n本报讯 安澜桥全长38米，始建于清嘉庆五年，也就是1800年。"
                     "在安澜桥上游约400米处，还有一座单孔石桥——广福桥。广福桥建于民国十二年（1923年），规模比安澜桥小。",
           title="柳溪镇安澜桥修缮完工")
NEWS_EN = hit("news#0", "Millbrook's Ashford Bridge reopens after repairs\n\nAshford Bridge was built in 1791 and "
                        "carries the old mill road. Half a mile upstream stands a second stone bridge, Kettle Bridge. "
                        "Kettle Bridge was built in 1864 and is smaller than Ashford Bridge.",
              title="Ashford Bridge reopens")


def test_a_sentence_that_opens_with_a_side_is_its_own_under_a_headline_naming_the_other() -> None:
    for text, hits, older, newer in (("安澜桥和广福桥，哪座桥历史更久？", [NEWS], "安澜桥", "1923"),
                                     ("Which is older, Ashford Bridge or Kettle Bridge?", [NEWS_EN], "Ashford Bridge",
                                      "1864")):
        q = question(text, hits)
        verdict = compare(q, sentences_of(q, hits), has_han(text))
        assert verdict is not None and verdict.span == older
        assert newer in verdict.text


def test_a_sentence_naming_the_other_side_first_stays_the_headlines() -> None:
    # "Ashford Bridge … than Kettle Bridge" opens with the headline's side: it gives Kettle Bridge no value
    hits = [hit("news#0", "Millbrook's Ashford Bridge reopens after repairs\n\nAshford Bridge was built in 1791 and is "
                          "older than Kettle Bridge.", title="Ashford Bridge reopens")]
    q = question("Which is older, Ashford Bridge or Kettle Bridge?", hits)
    verdict = compare(q, sentences_of(q, hits), False)
    assert verdict is None or verdict.span != "Kettle Bridge"


# -- the asked kind and attribute


def test_a_number_noun_narrowed_by_a_year_or_a_word_still_asks_a_number() -> None:
    assert expected_answer("What was the 2021 census population of the town where the Keldwick Boatyard stands?") \
        == "number"
    assert expected_answer("What is the total floor area of the museum that Tamsin Orrey founded?") == "number"
    assert expected_answer("What is the name of the town where Tamsin Orrey was born?") == "place"


def test_a_site_written_with_zhi_states_where_a_thing_is() -> None:
    located = next(a for a in lexicon() if a.name == "located")
    assert stated_at(located, "社址在青河镇东街，靠近码头。")
    assert stated_at(located, "校址位于白鹭山下。")
    assert not stated_at(located, "遗址公园每年秋季开放。")


# -- the leader of the company reached, asked in Chinese of an English page

ADA = hit("ada#0", "Ada Finch (born 1984) is a glass engineer from Tenby Ferris.\n\nEmployer: Corlan Glassworks\n"
                   "Known for: the Corlan flask", title="Ada Finch")
CORLAN = hit("corlan#0", "Corlan Glassworks is a maker of laboratory glass. Its head office and furnaces stand on Quay "
                         "Road in Tenby Ferris. The managing director since 2018 has been Owen Rudd, formerly its head "
                         "of sales.", title="Corlan Glassworks")


def test_a_phrase_cue_ending_in_a_preposition_ends_there() -> None:
    leader = next(a for a in lexicon() if a.name == "leader")
    assert not stated_at(leader, "Its head office stands on Quay Road.")
    assert stated_at(leader, "She is head of the glass section.")
    assert stated_at(leader, "The managing director since 2018 has been Owen Rudd.")


def test_the_reached_pages_sentence_stating_the_asked_role_answers_across_languages() -> None:
    out = ask("Ada Finch 所在的公司现在的总经理是谁？", [ADA, CORLAN])
    assert isinstance(out, tuple) and out[0] == "Owen Rudd"
    assert "Quay Road" not in out[1]
