"""Dates of the document's own time and of the asked event (session 19): relative words read against the
documents' date, the asked event's date over the page's, deadlines, weekdays and relative days on the calendar.
Every sentence here is invented for these tests."""

from __future__ import annotations

import pytest

from graphs.rag.answer.question import document_date
from tests.support.answers import question, write
from tests.support.fakes import hit


def test_this_year_is_the_year_of_the_document_not_of_today() -> None:
    # a year-end summary dated 2023 (TODAY is in 2025): 今年 is 2023, and the reason says how it was read
    summary = hit("ql#1", "今年苗圃共接待参观者7340人次，比去年的6120人次多出一成多。", title="青篱苗圃年终总结",
                  date=20231226)
    decision, why, span, _ = write("青篱苗圃今年一共接待了多少人次参观者？", [summary])
    assert decision == "answerable" and span is not None and "7340" in span, why
    assert "'今年' is read as 2023, from the date of its document (2023-12-26)" in why
    # 去年 is the year before the document's, stated by its own word there: the clause that says it gives the value
    decision, why, span, _ = write("青篱苗圃去年接待了多少人次参观者？", [summary])
    assert decision == "answerable" and span is not None and "6120" in span, why


def test_last_year_in_english_against_a_dated_newsletter() -> None:
    letter = hit("kp#2", "Last year 412 walkers finished the Kestle Pike fell race; this year the field is capped at "
                         "500.", title="Kestle Pike Harriers newsletter", date=20240305)
    decision, why, span, _ = write("How many walkers finished the Kestle Pike fell race last year?", [letter])
    assert decision == "answerable" and span is not None and "412" in span, why
    assert "'last year' is read as 2023" in why


def test_an_undated_document_reads_this_year_from_today_and_says_so() -> None:
    undated = hit("mw#1", "The Millwater choir gave nine concerts in 2019.", title="Millwater choir")
    decision, why, _, _ = write("How many concerts did the Millwater choir give this year?", [undated])
    assert decision == "not_found" and "no passage that answers is of 2025" in why
    assert "from today's date: no retrieved document is dated" in why


def test_a_year_the_document_states_otherwise_still_refuses_the_relative_one() -> None:
    # dated 2024, the passage states only 2021's figure: 去年 (2023) is stated nowhere
    report = hit("hs#1", "2021年湖山渡口共运送旅客3.2万人次。", title="湖山渡口简报", date=20240610)
    decision, why, _, _ = write("湖山渡口去年运送了多少旅客？", [report])
    assert decision == "not_found" and "2023" in why


def test_the_document_date_prefers_a_day_or_a_month_over_a_mentioned_year() -> None:
    assert document_date([hit("a#1", "x", date=19210101), hit("a#2", "y", date=20250212)]) == 20250212
    assert document_date([hit("a#1", "x", date=19580101)]) == 19580101
    assert document_date([hit("a#1", "x")]) is None


def test_relative_words_are_not_years_the_question_names_until_read_against_the_passages() -> None:
    q = question("这家茶社明年的会员费是多少？", [hit("c#1", "明年会员费涨到每年300元。", date=20241120)])
    assert q.years == ("2025",) and "明年" in q.year_words["2025"]


def test_the_asked_events_date_over_the_date_that_dates_the_page() -> None:
    page = hit("ff#1", "发布日期：2024年11月30日\n\n今年的枫林灯会于10月26日在湖滨广场开幕，连办了三个晚上。",
               title="枫林社区年度简报", date=20241130)
    decision, why, span, _ = write("枫林社区今年的灯会是哪天开幕的？", [page])
    assert decision == "answerable" and span == "10月26日", why
    # the page's own date still answers a question about the page
    decision, why, span, _ = write("枫林社区年度简报的发布日期是哪天？", [page])
    assert span is not None and "2024年11月30日" in span, why


@pytest.mark.parametrize(("text", "passage", "expected"), [
    ("社区菜园的围栏最晚要在哪天前修好？",
     "理事会于2024年3月2日开会。会议要求社区菜园的围栏最迟须于2024年4月15日前修好。", "2024年4月15日"),
    ("By what date must the Harrow Lane allotment fence be mended?",
     "The committee met on 2 March 2024. The Harrow Lane allotment fence must be mended no later than 15 April 2024.",
     "15 April 2024"),
])
def test_a_deadline_is_the_date_the_sentence_sets_as_the_limit(text: str, passage: str, expected: str) -> None:
    decision, why, span, _ = write(text, [hit("d#1", passage, title="minutes")])
    assert decision == "answerable" and span is not None and expected in span, why


@pytest.mark.parametrize(("text", "passage", "written", "expected"), [
    ("When did the Dunmore pier crane collapse?",
     "The Dunmore pier crane collapsed on Saturday afternoon, blocking the berth.", 20240416, "13 April 2024"),
    ("石泉镇的老戏台是哪天倒塌的？", "昨天傍晚，石泉镇的老戏台在大雨中倒塌，所幸无人受伤。", 20240708, "2024年7月7日"),
])
def test_a_weekday_or_a_relative_day_is_shown_as_the_calendar_date_of_a_dated_passage(
        text: str, passage: str, written: int, expected: str) -> None:
    decision, why, span, _ = write(text, [hit("n#1", passage, title="local news", date=written)])
    assert decision == "answerable" and span is not None and span.startswith(expected), (why, span)


def test_a_weekday_stays_as_written_where_the_passage_is_dated_only_to_a_year() -> None:
    decision, why, span, _ = write("When did the Dunmore pier crane collapse?",
                                   [hit("n#1", "The Dunmore pier crane collapsed on Saturday afternoon.",
                                        title="local news", date=20240101)])
    assert decision == "answerable" and span is not None and "2024" not in span, (why, span)


def test_the_day_something_was_said_of_the_event_is_not_the_events_date() -> None:
    from graphs.text.dates import reported_on

    text = "The warehouse roof gave way overnight, the council's engineers said on Friday."
    at = text.index("on Friday")
    assert reported_on("When did the warehouse roof give way?", text, at, at + 9)
    assert not reported_on("When did the council's engineers say the roof gave way?", text, at, at + 9)
    zh = "区应急局周五表示，仓库屋顶已于前一天夜里坍塌。"
    assert reported_on("仓库屋顶是哪天坍塌的？", zh, zh.index("周五"), zh.index("周五") + 2)


def test_the_documents_date_is_read_from_the_passages_about_the_question_and_not_a_first_of_several_years() -> None:
    # a passage about another subject, dated to a day, does not date the question's 今年; nor does the first of
    # several years the subject's passage writes (its stored year is the first it states)
    other = hit("o#1", "The choir met to plan the season.", title="choir minutes", date=20230314)
    town = hit("t#1", "白杨镇1962年建镇，2003年扩镇，今年镇上的集市一共开了48次。", title="白杨镇概况", date=19620101)
    q = question("白杨镇今年的集市开了多少次？", [other, town])
    assert "from today's date" in q.year_reading[0]
    assert document_date([town]) is None
