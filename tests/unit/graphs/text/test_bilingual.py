"""The general Chinese–English dictionary (CC-CEDICT): a question's word as the other language writes it."""

from __future__ import annotations

import pytest

from graphs.text.bilingual import chinese_of, english_of, parts_of, translations


def test_a_chinese_word_is_read_by_its_senses() -> None:
    assert "car park" in english_of("停车场") and "parking lot" in translations("停车场")
    assert translations("报") == ()  # one character: too many senses to stand for a word
    assert english_of("松河市") == ()  # a name the dictionary does not know


@pytest.mark.parametrize(("word", "chinese"), [
    ("refunds", "退款"),  # a plural: the singular's words
    ("cleaned", "打扫"),  # a past tense
    ("signup", "报名"),  # a phrasal verb written as one word ("sign up")
    ("sign up", "报名"),
])
def test_an_english_word_is_read_by_the_headwords_whose_sense_it_is(word: str, chinese: str) -> None:
    assert chinese in chinese_of(word)


def test_function_words_and_chinese_have_no_chinese_words() -> None:
    assert chinese_of("the") == () and chinese_of("停车") == () and chinese_of("") == ()


def test_a_word_of_many_senses_brings_a_few_common_ones() -> None:
    found = chinese_of("time")
    assert 0 < len(found) <= 8 and "时间" in found


def test_a_compound_is_read_by_its_words_and_abbreviated_morphemes() -> None:
    """中译法 (Chinese → French): 中 stands for 中文, 法 for 法语; a word the dictionary knows whole has no parts."""
    parts = parts_of("中译法")
    assert len(parts) == 3 and "chinese language" in parts[0] and "french" in parts[2]
    assert parts_of("停车场") == []  # known whole
    assert parts_of("松河") == []  # a name: 松 and 河 abbreviate no language
