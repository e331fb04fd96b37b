"""Content words: what a passage that answers must speak of (invented sentences, not the dev sets')."""

from __future__ import annotations

import pytest

from graphs.text.terms import asker_terms, content_terms, verb_content


@pytest.mark.parametrize(("term", "content"), [
    ("达到", None),      # a light verb with its result complement: says nothing of the act
    ("拿到", None),
    ("找到", None),
    ("走", None),        # a light verb alone
    ("塌下来", "塌下来"),  # a content verb with its complement, one word of the dictionary: kept whole
    ("修好", "修好"),
    ("烧到", None),      # a verb and complement jieba glued (no dictionary word): one character left, no term
    ("塌掉", None),
    ("控温", "控温"),    # a verb of two characters, no complement: unchanged
    ("获得", "获得"),
    ("灯笼", "灯笼"),    # nouns unchanged
    ("精度", "精度"),
    ("cost", "cost"),    # Latin words unchanged here (light English verbs are ``content_terms``')
])
def test_a_chinese_verb_is_its_content(term: str, content: str | None) -> None:
    assert verb_content(term) == content


@pytest.mark.parametrize(("question", "own"), [
    ("I'm 41 - how long is the guided walk?", {"41", "i'm"}),
    ("My son is 7, can he join the pottery class?", {"7"}),
    ("We are 3 adults, what does the cabin cost a night?", {"3"}),
    ("我今年35岁，报名陶艺课要交多少钱？", {"35岁", "今年", "我"}),
    ("我家老人80岁，坐渡船能打折吗？", {"80岁", "我家", "我"}),
])
def test_the_askers_own_circumstances(question: str, own: set[str]) -> None:
    assert own <= asker_terms(question)


@pytest.mark.parametrize("question", [
    "How many visitors did the museum get in 2023?",
    "What did the club spend in my 2024 report?",  # a year that names the subject's report, not the asker
    "2023年博物馆接待了多少游客？",
    "我们镇2021年修了几座桥？",  # no comma: no clause of the asker's own, the year is the question's
])
def test_a_question_without_the_askers_circumstances_keeps_its_numbers(question: str) -> None:
    assert not {t for t in asker_terms(question) if any(ch.isdigit() for ch in t)}


def test_content_terms_drop_light_verbs_and_the_askers_age() -> None:
    assert content_terms("I'm 41 - how much has the guided walk managed to raise?",
                         ["i'm", "41", "guided", "walk", "managed", "raise"]) == ["guided", "walk", "raise"]
    assert content_terms("我今年35岁，那台烤箱最高能达到多少度？", ["今年", "35岁", "烤箱", "最高", "达到"]) \
        == ["烤箱", "最高"]
    assert content_terms("码头是哪年塌掉的？", ["码头", "塌掉"]) == ["码头"]


def test_an_aspect_verb_is_light_only_where_it_governs_another() -> None:
    assert content_terms("Why does the boiler keep tripping?", ["boiler", "keep", "tripping"]) == ["boiler", "tripping"]
    assert content_terms("How many goats does the Ashby farm keep?", ["goats", "ashby", "farm", "keep"]) \
        == ["goats", "ashby", "farm", "keep"]
