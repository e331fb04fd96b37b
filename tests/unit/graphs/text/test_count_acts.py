"""A count of the asked noun said of another act than the question's counts another set (#24 §4): "how many
passengers were stranded" is not answered by "4 passengers were treated for cold", nor 多少名乘客被困 by
共有5名乘客受了轻伤; a count its clause ends with, or whose act the question writes, still answers. And Chinese terms
with a glued particle (车厢里, 困了) are found in the noun or verb a passage writes (车厢内, 被困)."""

from __future__ import annotations

import re

import pytest

from graphs.text.terms import found, glued_stem
from graphs.text.units import other_act


def _at(sentence: str, value: str) -> tuple[int, int]:
    m = re.search(re.escape(value), sentence)
    assert m is not None
    return m.start(), m.end()


@pytest.mark.parametrize(("question", "sentence", "value", "other"), [
    ("渡轮搁浅时，船舱里一共困了多少名乘客？", "当晚共有5名乘客受了轻伤，被送往镇卫生院。", "5名", True),
    ("渡轮搁浅时，船舱里一共困了多少名乘客？", "搁浅时，船舱内共有143名乘客，其中儿童11名。", "143名", False),
    ("渡轮搁浅时，船舱里一共困了多少名乘客？", "据统计，共有143名乘客被困船舱。", "143名", False),
    ("渡轮搁浅时，船舱里一共困了多少名乘客？", "其中2人被直升机送往市医院。", "2人", True),
    ("这次活动一共有多少名志愿者？", "活动当天共有60名志愿者参与服务。", "60名", False),  # the question names no act
    ("How many passengers were stranded on the ferry?", "Four passengers were treated for cold at the quay.",
     "Four", True),
    ("How many passengers were stranded on the ferry?", "In all 143 passengers were stranded overnight.", "143", False),
    ("How many passengers were stranded on the ferry?", "There were 143 passengers on board.", "143", False),
    ("How many passengers were on the ferry?", "Four passengers were treated for cold.", "Four", False),
])
def test_a_count_said_of_another_act_counts_another_set(question: str, sentence: str, value: str,
                                                          other: bool) -> None:
    start, end = _at(sentence, value)
    assert (other_act(question, sentence, start, end) is not None) is other


def test_the_predicate_is_given_for_the_lexicon_to_judge() -> None:
    sentence = "矿难中共有12名矿工死亡。"
    start, end = _at(sentence, "12名")
    assert other_act("这次矿难有多少名矿工遇难？", sentence, start, end) == "死亡"


@pytest.mark.parametrize(("term", "stem"), [("车厢里", "车厢"), ("房间里", "房间"), ("困了", "困"), ("修过", "修"),
                                           ("心里", None), ("国内", None), ("为了", None), ("车厢", None)])
def test_a_glued_particle_is_left_out(term: str, stem: str | None) -> None:
    assert glued_stem(term) == stem


def test_a_term_with_a_glued_particle_is_found_in_the_passages_own_frame() -> None:
    assert found("车厢里", "车厢内共有143名乘客") == 1.0
    assert found("困了", "143名乘客被困船舱") == 1.0
    assert found("心里", "心脏里") == 0.5  # a dictionary word keeps its localizer: only its characters


@pytest.mark.parametrize(("name", "words"), [
    ("安全检查", ("安全", "检查")),  # one dictionary word jieba tags as a person's name (nr)
    ("消防演练", ("消防", "演练")),
    ("北京大学", None), ("东方明珠", None),
])
def test_a_phrase_of_common_words_tagged_as_a_name_is_split(name: str, words: tuple[str, ...] | None) -> None:
    from graphs.rag.answer.question import common_words

    assert common_words(name) == words
