"""A question's name read in a passage of the other language by the fitted cross-language name score
(``graphs.text.name_match``), and the reason saying how it was read (invented names)."""

from __future__ import annotations

from graphs.rag.answer.answerability import spelled_as
from tests.support.answers import question
from tests.support.fakes import hit


def test_a_transliterated_name_is_read_in_an_english_passage_with_its_score() -> None:
    q = question("哈维尔粮仓是哪一年建的？", [hit("p#0", "The Harwell Granary was built in 1931 and is kept by the "
                                              "village co-op.", title="Village notes")])
    assert q.misspelled == {"哈维尔": "harwell"}
    assert "read '哈维尔' as harwell (score 0." in spelled_as(q)


def test_a_romanised_name_is_read_by_its_pinyin() -> None:
    q = question("When did the Dongping Ferry open?", [hit("p#0", "东平渡于1958年开通，渡船每日往返八次。", title="东平渡")])
    assert "read 'dongping ferry' as 东平 (by its pinyin or an alias)" in spelled_as(q)


def test_a_name_is_not_read_in_a_passage_of_its_own_language() -> None:
    # a Latin word inside Chinese prose is no translation of a Chinese name of the question
    q = question("哈维尔粮仓是哪一年建的？", [hit("p#0", "粮仓建于1931年，英文名牌上写着 Harwell。", title="村志")])
    assert "哈维尔" not in q.misspelled


def test_a_term_counts_in_the_other_language_by_the_word_table() -> None:
    q = question("How old is the copper kettle?", [hit("p#0", "客栈的铜水壶已有八十年历史。", title="客栈")])
    assert q.coverage("客栈的铜水壶已有八十年历史。") > q.coverage("客栈的木桌已有八十年历史。")


