"""A time of day asked (几点, "what time") and written (凌晨2时50分, "7.52 am"), and the counted noun of a count asked
without a measure word or written as a word ("one batch"). Sentences invented here (i24-values15)."""

from __future__ import annotations

import pytest

from graphs.text.answer_types import expected_answer
from graphs.text.dates import asks_time_of_day, clock_time, clock_times
from graphs.text.spans import candidates, of_asked_kind
from graphs.text.units import asking_words, counted_asked, counted_noun, fits, question_noun


@pytest.mark.parametrize(("question", "asks"), [
    ("磨坊那台水车每天几点开始转？", True),
    ("码头上的渡轮几点钟靠岸的？", True),
    ("What time did the bakery oven catch fire?", True),
    ("At what time does the swimming pool close on Fridays?", True),
    ("会上一共提了几点建议？", False),            # points of a list, not the clock
    ("What time zone is the observatory in?", False),
    ("渡轮是哪一天靠岸的？", False),
])
def test_a_time_of_day_is_asked_by_its_question_words(question: str, asks: bool) -> None:
    assert asks_time_of_day(question) is asks
    if asks:
        assert expected_answer(question) == "date"  # a time of day is a date's finest part, never "other"


@pytest.mark.parametrize(("text", "times"), [
    ("据护林员说，泥石流冲下来是在凌晨1时35分，天还没亮。", ["凌晨1时35分"]),
    ("渡轮清晨6:40离港，下午三点半返回。", ["6:40", "下午三点半"]),
    ("The pump failed at 4.05 pm and was restarted by 11 pm.", ["4.05 pm", "11 pm"]),
    ("遇风力达到8级及以上时停航。", []),             # a wind force is no time
    ("The hall seats 240 people.", []),
])
def test_clock_times_are_read_in_both_languages(text: str, times: list[str]) -> None:
    assert [t for _, _, t in clock_times(text)] == times
    assert all(clock_time(t) for t in times)


def test_a_time_of_day_question_takes_only_clock_times_from_a_sentence() -> None:
    question = "那座老磨坊是几点起的火？"
    sentence = "2025年3月4日凌晨2时15分，老磨坊西侧仓库起火，3时整消防车赶到。"
    spans = of_asked_kind(question, "date", sentence, candidates(sentence, "date", question))
    assert [s.text for s in spans] == ["凌晨2时15分", "3时整"]  # never the day alone


@pytest.mark.parametrize(("question", "noun"), [
    ("那次洪水一共疏散了多少居民？", "居民"),       # no measure word: the noun right after 多少
    ("爬上钟楼一共要走多少级台阶？", "台阶"),       # 级 counts steps
    ("这个项目一共要花多少时间？", None),           # a measure, not a noun counted
    ("这次维修一共花了多少经费？", None),
])
def test_the_counted_noun_of_a_count_asked(question: str, noun: str | None) -> None:
    assert counted_asked(question) == noun


def test_a_number_word_counts_the_noun_after_it() -> None:
    question = "How many bottles of the cider were returned?"
    text = "The brewery is withdrawing one pallet of its pear cider after 1,900 bottles were returned."
    at = text.find("one")
    assert counted_noun(text, at, at + 3) == "pallet"
    assert question_noun(question) == "bottles"
    assert not fits(question, text, at, at + 3)  # one pallet is no count of bottles


def test_a_percentage_asked_in_words_leaves_no_required_word() -> None:
    assert "百分之" in asking_words("图书馆的借阅量比去年增长了百分之多少？")
