"""Questions in the other language than the documents, session 22 (issue 24 §1): the question's language is that of
its own words (a Chinese name in an English question leaves it English), a measure word is no attribute of a
when / who / where question, a year line heads the lines under it and the asked year's lines come first, a count
written against Chinese characters is read, a line of several labelled fields is several statements. Examples of
our own (a bell foundry's museum, a river ferry's log, a bakery co-op): none from a test set or an issue."""

from __future__ import annotations

import pytest

from graphs.rag.answer.answerability import _COUNT
from graphs.rag.answer.attributes import asked_attribute
from graphs.rag.answer.evidence import find_evidence, in_other_language
from graphs.text.answer_types import expected_answer
from tests.support.answers import question
from tests.support.fakes import hit

TIMELINE = hit("museum#0", "钟鸣博物馆 年度记录\n2021年\n全年接待观众8,200人次，举办讲座12场。\n夏季延长开放至晚上九点。\n"
                           "2022年\n全年接待观众9,900人次，举办讲座15场。\n新增一间铸造工艺展厅。\n2023年\n"
                           "馆内闭馆维修三个月。", title="钟鸣博物馆 年度记录", dense_score=0.4)
LOG = hit("ferry#0", "The Wren Ferry log, 2022: 4,100 crossings. The Wren Ferry log, 2023: 4,650 crossings and a new "
                     "landing stage at Ashcombe.", title="Wren Ferry log", dense_score=0.4)


@pytest.mark.parametrize(("text", "chinese"), [
    ("How many visitors did the 钟鸣 museum receive in 2022?", False),  # a Chinese name inside English words
    ("What time does the 鹤川 ferry leave Ashcombe?", False),
    ("Wren Ferry 在2023年一共渡了多少趟？", True),  # a Latin name inside Chinese words
    ("Larkfield Bakery Co-op 的社长是谁？", True),
    ("钟鸣博物馆2022年接待了多少观众？", True),
    ("How many crossings did the Wren Ferry make in 2023?", False),
])
def test_the_question_language_is_that_of_its_own_words(text: str, chinese: bool) -> None:
    assert question(text, [TIMELINE, LOG]).chinese is chinese


def test_a_chinese_sentence_is_in_the_other_language_of_an_english_question_that_writes_a_chinese_name() -> None:
    q = question("How many visitors did the 钟鸣 museum receive in 2022?", [TIMELINE])
    assert in_other_language(q, "全年接待观众9,900人次，举办讲座15场。")
    q = question("钟鸣博物馆2022年接待了多少观众？", [TIMELINE])
    assert not in_other_language(q, "全年接待观众9,900人次，举办讲座15场。")


@pytest.mark.parametrize("text", [
    "When did the first passengers board the Wren Ferry?",
    "At what time did the passengers reach Ashcombe?",
    "Which passenger found the lost bell?",
])
def test_a_measure_word_is_no_attribute_of_a_when_who_or_where_question(text: str) -> None:
    asked = asked_attribute(text, expected_answer(text))
    assert asked is None or asked.attribute.kind != "number", asked


def test_a_measure_is_still_asked_by_a_question_of_its_kind() -> None:
    asked = asked_attribute("What is the seating capacity of the Wren Ferry?", "number")
    assert asked is not None and asked.attribute.name == "capacity"


@pytest.mark.parametrize("text", ["K7 控制器报 E4 是什么故障？", "烤箱显示F2是什么问题？", "What fault is E4 on the K7 oven?"])
def test_asking_what_fault_a_code_is_asks_its_meaning(text: str) -> None:
    asked = asked_attribute(text, expected_answer(text))
    assert asked is not None and asked.attribute.name == "meaning"


def test_what_time_asks_a_time_not_a_count() -> None:
    asked = asked_attribute("What time did the Wren Ferry's last crossing land?", "date")
    assert asked is not None and asked.attribute.kind == "date"


@pytest.mark.parametrize("text", ["How many visitors did the 钟鸣 museum receive in 2022?", "钟鸣博物馆2022年接待了多少观众？"])
def test_the_lines_under_the_asked_year_line_lead_the_evidence(text: str) -> None:
    """In a timeline the year stands alone on its line; the lines under it state that year's facts without
    writing it: the 2022 count leads, not the 2021 one, in either language of the question."""
    q = question(text, [TIMELINE])
    found = find_evidence(q, [TIMELINE])
    assert found and "9,900" in found[0].sentences[0].text, [e.sentences[0].text for e in found[:3]]
    assert found[0].sentences[0].under == "2022年"


def test_the_asked_year_stated_in_the_sentence_itself_leads_too() -> None:
    q = question("How many crossings did the Wren Ferry make in 2023?", [LOG])
    found = find_evidence(q, [LOG])
    assert found and "4,650" in found[0].sentences[0].text


@pytest.mark.parametrize(("text", "count"), [("全年接待观众9,900人次", "9,900"), ("共渡河4650趟", "4650"),
                                             ("carried 4,650 riders", "4,650")])
def test_a_count_written_against_chinese_characters_is_a_count(text: str, count: str) -> None:
    assert [m[0] for m in _COUNT.finditer(text)][:1] == [count]


def test_a_code_inside_a_latin_word_is_no_count() -> None:
    assert [m[0] for m in _COUNT.finditer("model K7 oven")] == []


def test_a_year_that_describes_the_way_to_the_subject_leads_nothing() -> None:
    """"the ferry that was repainted in 2023": the year of a relative clause names the subject, it does not ask that
    year's figure; the evidence keeps its order (a plain question of 2023 puts the 2023 line first)."""
    from graphs.rag.answer.evidence import year_scoped

    plain = question("How many crossings did the Wren Ferry make in 2023?", [LOG])
    found = find_evidence(plain, [LOG])
    by_2022 = next(e for e in found if "4,100" in e.sentences[0].text)
    by_2023 = next(e for e in found if "4,650" in e.sentences[0].text)
    assert year_scoped(plain, [by_2022, by_2023])[0] is by_2023
    nested = question("How many crossings a year did the ferry that was repainted in 2023 make before?", [LOG])
    assert nested.nested
    assert year_scoped(nested, [by_2022, by_2023])[0] is by_2022
