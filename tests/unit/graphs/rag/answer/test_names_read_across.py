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


INVENTORY = "客栈器物清单 樟木衣柜：2个，单价1800元。铜水壶：4把，每把260元。青瓷茶杯：30只。"
NOTES = "The Kelby Chapel organ was built in 1902 and has 900 pipes. A harp was lent to the chapel in 1988."


def test_a_thing_no_passage_of_the_other_language_writes_is_absent() -> None:
    from graphs.rag.answer.answerability import absent_across
    hs = [hit("p#0", INVENTORY, title="清单")]
    assert absent_across(question("How much is the piano?", hs), hs) == ["piano"]  # 钢琴 nowhere
    assert absent_across(question("How much is the kettle?", hs), hs) == []  # 壶
    # a compound the table reads only word by word is never judged: "sheet music" is 乐谱, not 床单 and 音乐
    assert absent_across(question("How much is the glass kettle?", hs), hs) == []
    hs = [hit("p#0", NOTES, title="Kelby Chapel")]
    assert absent_across(question("凯尔比教堂的钢琴是哪一年借来的？", hs), hs) == ["钢琴"]  # no piano
    assert absent_across(question("凯尔比教堂的管风琴是哪一年建的？", hs), hs) == []


def test_a_thing_is_not_judged_absent_by_passages_of_its_own_language_or_by_one_character() -> None:
    from graphs.rag.answer.answerability import absent_across
    hs = [hit("p#0", "The inn keeps four copper kettles.", title="Inn")]
    assert absent_across(question("How much is the glass kettle?", hs), hs) == []  # same language: the score's
    hs = [hit("p#0", INVENTORY, title="清单")]
    assert absent_across(question("How many rooms does the guest house have?", hs), hs) == []  # house: 房, 屋


def test_a_verb_form_is_no_thing_judged_absent() -> None:
    from graphs.rag.answer.answerability import absent_across
    hs = [hit("p#0", "永安桥建于1902年，由商人周德厚出资修建。", title="桥志")]
    assert absent_across(question("Who paid for building the Yong'an Bridge?", hs), hs) == []
