"""Recurring times as when-answers: a schedule's day and hours, in Chinese and English."""

from __future__ import annotations

import pytest

from graphs.text.dates import asks_recurring_when, recurring_times
from graphs.text.spans import candidates


@pytest.mark.parametrize(("text", "expected"), [
    ("每月第二个周日上午举行义诊。", ["每月第二个周日"]),
    ("每周一、周三晚上6点至8点在礼堂训练。", ["每周一、周三晚上6点至8点"]),
    ("工作日上午8点开门。", ["工作日上午8点"]),
    ("The market runs every Saturday from 7:00 to 13:00.", ["every Saturday from 7:00 to 13:00"]),
    ("Book club meets on the first Thursday of each month at 7 pm.", ["on the first Thursday of each month at 7 pm"]),
    ("Lessons are on Mondays and Fridays 17:30–19:00.", ["Mondays and Fridays 17:30–19:00"]),
    ("Glass is collected every other Wednesday.", ["every other Wednesday"]),
    ("The bridge was opened on 3 May 1999.", []),
])
def test_recurring_times_with_their_hours(text: str, expected: list[str]) -> None:
    assert [t for _, _, t in recurring_times(text)] == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("兴趣班什么时候上课？", True),
    ("When is the farmers' market held?", True),
    ("What days is glass collected?", True),
    ("义诊是哪一年开始的？", False),  # a year
    ("On what date did the bridge open?", False),  # a day of the calendar
    ("集市几点开门？", False),  # a clock time as such
    ("When did the bakery open its second shop?", False),  # one event, in the past
    ("集市是什么时候搬到河边的？", False),
])
def test_which_when_questions_a_recurring_time_answers(question: str, expected: bool) -> None:
    assert asks_recurring_when(question) is expected


def test_a_schedule_sentence_offers_its_recurring_time_as_a_date_candidate() -> None:
    found = [s.text for s in candidates("The library is open every weekday from 9:00 to 18:00.", "date",
                                        "When is the library open?")]
    assert "every weekday from 9:00 to 18:00" in found
    found = [s.text for s in candidates("合唱队每周四晚上7点排练。", "date", "合唱队什么时候排练？")]
    assert "每周四晚上7点" in found


def test_a_sentence_that_dates_an_event_is_answered_by_its_date_not_a_weekday() -> None:
    found = [s.text for s in candidates("The hall burned down on 4 March 2019, a Monday.", "date",
                                        "When did the hall burn down?")]
    assert "4 March 2019" in found


@pytest.mark.parametrize("question", ["这份简报是哪个月的？", "这份季报是哪个季度的？", "Which quarter does the newsletter cover?"])
def test_a_month_or_a_quarter_asked_is_a_date(question: str) -> None:
    from graphs.text.answer_types import expected_answer

    assert expected_answer(question) == "date"
