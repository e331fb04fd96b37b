"""Elliptical questions: the new subject a follow-up names alone, the words that lean on the question before, and
the question before asked of the new subject."""

from __future__ import annotations

import pytest

from graphs.text.ellipsis import elliptical_subject, is_elliptical, restated, same_kind


@pytest.mark.parametrize(("question", "subject"), [
    ("陶艺课呢？", "陶艺课"),
    ("那周末班呢?", "周末班"),
    ("还有B区货架呢？", "B区货架"),
    ("What about the night ferry?", "the night ferry"),
    ("how about Harwick Pier", "Harwick Pier"),
    ("And for the junior members?", "the junior members"),
    ("And the Corvid X9?", "the Corvid X9"),
    # asking something of its own: no subject alone
    ("陶艺课几点开始？", None),
    ("Who teaches the pottery class?", None),
    ("And in 2023?", None),
    ("呢？", None),
])
def test_the_subject_a_follow_up_names_alone(question: str, subject: str | None) -> None:
    assert elliptical_subject(question) == subject


@pytest.mark.parametrize(("question", "leans"), [
    ("陶艺课呢？", True), ("那周六开门吗？", True), ("另外，押金怎么退？", True), ("还有别的规定吗", True),
    ("Also, is parking free?", True), ("And in 2023?", True), ("What of the older boats?", True),
    ("陶艺课几点开始？", False), ("Who teaches the pottery class?", False), ("Andrew runs it, right?", False),
])
def test_a_question_that_leans_on_the_one_before(question: str, leans: bool) -> None:
    assert is_elliptical(question) is leans


@pytest.mark.parametrize(("previous", "subject", "topic", "question"), [
    ("陶艺课每次多少钱？", "木工课", "陶艺课", "木工课每次多少钱？"),
    ("Who presents the Morning Tide Show?", "the Evening Drift", "Morning Tide Show", "Who presents the Evening Drift?"),
    ("How late is the night ferry on Sundays?", "the day ferry", "the night ferry", "How late is the day ferry on Sundays?"),
    ("Where is Harwick Pier?", "the old pier", "Harwick Pier", "Where is the old pier?"),
    ("陶艺课每次多少钱？", "木工课", "", None),  # no topic
    ("陶艺课每次多少钱？", "木工课", "书法班", None),  # a topic not written in it
    ("哪一年开班的？", "木工课", "？", None),  # no words
    ("When was he born?", "the new warden", "he born", None),  # a topic that points back itself
    ("它在城南开了几家店？", "北城", "它在城南", None),
])
def test_the_question_before_asked_of_the_new_subject(previous: str, subject: str, topic: str,
                                                       question: str | None) -> None:
    assert restated(previous, subject, topic) == question


@pytest.mark.parametrize(("previous", "subject", "kin"), [
    ("周六的陶艺课几点开始？", "木工课", "陶艺课"),
    ("成人票多少钱一张？", "儿童票", "成人票"),
    ("三号冷库的温度设在几度？", "五号冷库", "三号冷库"),
    ("陶艺课几点开始？", "周末班", None),  # no word of the earlier question ends as 周末班 does
    ("How much is an adult ticket?", "儿童票", None),
])
def test_the_thing_of_the_same_kind_the_new_subject_stands_in_for(previous: str, subject: str, kin: str | None) -> None:
    assert same_kind(previous, subject) == kin
