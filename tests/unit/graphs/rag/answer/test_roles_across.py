"""A question's term found where a passage writes it another way (session 24): a compound of an organisation word and
a member category split into its words when the whole is not written, never a proper name; the head of a unit asked
in English found in a Chinese title the lexicon lacks (by how such titles are made), never a functional title."""
from __future__ import annotations

import pytest

from graphs.rag.answer.question import common_words, written_apart
from graphs.text.governors import head_across
from tests.support.answers import question, verdict_of, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("phrase", "words"), [
    ("读书会学生会员", ("读书会", "学生", "会员")),  # an organisation word and a member category
    ("会员年费", ("会员", "年费")),                # single characters that make a dictionary word together
    ("体重20公斤", ("体重",)),                     # a measure the phrase qualifies itself with is a value
    ("4岁儿童", ("儿童",)),
    ("3号会议室", None),                           # an identifier's number is part of the name
    ("第2期学员", None),
    ("枫林村", None),                              # a village's name
    ("鹿鸣书院", None),                            # 鹿鸣 tagged a person's name
])
def test_a_compound_of_common_words_splits_a_name_does_not(phrase: str, words: tuple[str, ...] | None) -> None:
    assert common_words(phrase) == words


RULES = hit("rules.txt#1", "第三条 年费为每人150元，学生社员80元，退休社员免收年费。第四条 现任社长为钟予安，副社长为黎晚。",
            title="骑行社章程")


def test_an_organisation_word_and_a_member_category_written_apart_are_mentioned() -> None:
    q = question("骑行社学生社员的年费是多少？", [RULES])
    assert "骑行社学生社员" not in [forms[0] for forms in q.anchors]
    decision, _, _, text = write("骑行社学生社员的年费是多少？", [RULES])
    assert decision == "answerable" and "80元" in text


def test_a_member_category_no_passage_writes_is_still_missing() -> None:
    decision, reason, _, _ = write("骑行社少年社员的年费是多少？", [RULES])
    assert decision == "not_found" and "少年" in reason


@pytest.mark.parametrize(("asked", "text", "title"), [
    ("captain", "现任团长为邵一帆，副团长为廖青。", "团长"),
    ("club president", "本社社长为钟予安。", "社长"),
    ("captain", "副团长为廖青。", None),               # a deputy's title is not the head's
    ("treasurer", "现任团长为邵一帆。", None),          # a functional title is never a head's
    ("head coach", "现任团长为邵一帆。", None),
    ("captain", "队长为王五。", None),                  # a title the lexicon lists is compared by its group
    ("captain", "the captain is Ann Lee.", None),       # not across languages
])
def test_the_head_of_a_unit_across_languages(asked: str, text: str, title: str | None) -> None:
    assert head_across(asked, text) == title


CLUB = hit("club.txt#1", "白鹭湾跑团章程。第四条 团长由全体会员选举产生，任期两年。现任团长为邵一帆，副团长为廖青。",
           title="白鹭湾跑团章程")


async def test_a_head_asked_in_english_is_stated_by_a_chinese_title_the_lexicon_lacks() -> None:
    decision, reason = await verdict_of("Who is the captain of the Bailu Bay running club?", [CLUB])
    assert decision == "answerable" and "name no" not in reason


async def test_a_functional_title_is_not_stated_by_the_head_s() -> None:
    decision, _ = await verdict_of("Who is the treasurer of the Bailu Bay running club?", [CLUB])
    assert decision == "not_found"


@pytest.mark.parametrize(("phrase", "text", "pieces"), [
    ("骑行社学生社员", "本骑行社……学生社员80元", ("骑行社", "学生社员")),   # the word split cuts 骑 | 行社
    ("骑行社少年社员", "本骑行社……学生社员80元", None),                    # 少年 is written nowhere
    ("骑行社学生社员", "骑行社学生社员80元", None),                          # written whole: nothing to split
    ("白鹭湾跑团", "白鹭……湾……跑团", None),                                # a place's name
    ("枫林村", "枫林……村", None),                                          # pieces of two characters or more
])
def test_pieces_written_apart(phrase: str, text: str, pieces: tuple[str, ...] | None) -> None:
    assert written_apart(phrase, text) == pieces


def test_the_item_of_a_list_is_told_by_the_compound_s_category_not_the_asked_fee() -> None:
    # every clause writes a word of the question (年费 the first): the category (学生社员) tells the item
    decision, _, span, _ = write("骑行社学生社员的年费是多少？", [RULES])
    assert decision == "answerable" and span is not None and "80" in span


def test_a_phrase_ending_with_an_organisation_s_kind_is_a_name_never_split() -> None:
    assert written_apart("鸮岭户外公司", "鸮岭……户外用品……公司") is None
