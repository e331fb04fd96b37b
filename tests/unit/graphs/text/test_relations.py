"""The relation a comparison asks about, and the sentences that state it in either language."""

from __future__ import annotations

import pytest

from graphs.text.relations import asked_elsewhere, asked_relation, governing, states


@pytest.mark.parametrize(("question", "relation"), [
    ("特斯拉和SpaceX谁先成立？", "founded"),
    ("Which magazine was started first, Arthur's Magazine or First for Women?", "founded"),
    ("Who was born first, Kate Bush or Tori Amos?", "born"),
    ("哪部电影先上映？", "released"),
    ("Which is taller, the Eiffel Tower or the Shard?", None),
])
def test_the_relation_asked_about(question: str, relation: str | None) -> None:
    assert asked_relation(question) == relation


def test_a_sentence_states_the_relation_in_either_language_by_any_of_its_words() -> None:
    assert states("founded", "Tesla Motors was incorporated in California in July 2003.")
    assert states("founded", "马斯克于2002年创办太空探索技术公司。")
    assert states("founded", "The company was founded by two engineers.")
    assert not states("founded", "特斯拉于2019年11月21日发布电动皮卡Cybertruck。")
    assert states("released", "特斯拉于2019年11月21日发布电动皮卡Cybertruck。")


@pytest.mark.parametrize(("question", "relation"), [
    ("乐团现任指挥哪一年当选？", "elected"),
    ("When was the treasurer elected?", "elected"),
    ("周老师哪一年加入剧社？", "joined"),
    ("When did Priya join the studio?", "joined"),
    ("面包房哪一年搬到河西路？", "moved"),
    ("When did the cinema close?", "closed"),
])
def test_the_relations_a_when_question_asks_of_people_and_places(question: str, relation: str) -> None:
    assert asked_relation(question) == relation


def _at(question: str, sentence: str, value: str) -> bool | None:
    at = sentence.index(value)
    return asked_elsewhere(question, sentence, at, at + len(value))


@pytest.mark.parametrize(("question", "sentence", "value", "expected"), [
    # the clause's own verb dates the value: the founding year does not answer when someone was elected or joined
    ("乐团现任指挥哪一年当选？", "星河乐团创建于一九九九年，由三位教师发起。", "一九九九年", False),
    ("乐团现任指挥哪一年当选？", "现任指挥唐悦于二〇二一年五月当选，此前任首席。", "二〇二一年五月", True),
    ("When did Priya join the studio?", "The studio was founded in 2002 by two potters.", "2002", False),
    ("When did Priya join the studio?", "Priya joined the studio as a trainee on 4 June 2015.", "4 June 2015", True),
    # a date opening its sentence dates the next clause
    ("When did Priya join the studio?", "In 2015, Priya joined the studio.", "2015", True),
    # in one sentence, the verb nearest the value governs it
    ("When did Priya join the studio?", "Priya joined in 2015, the studio having been founded in 2002.", "2002", False),
    # built and founded date a thing's start alike (始建于 for 哪一年成立)
    ("这所小学哪一年成立？", "这所小学始建于1956年。", "1956年", True),
    # not known: a clause that states no relation, a question that asks none
    ("When did the pottery close?", "The kiln was rebuilt in 2011.", "2011", None),
    ("What happened in 2011?", "The studio was founded in 2011.", "2011", None),
])
def test_whether_a_date_belongs_to_the_asked_relation(question: str, sentence: str, value: str,
                                                      expected: bool | None) -> None:
    assert _at(question, sentence, value) is expected


def test_the_relations_governing_a_value_are_the_nearest_in_its_clause() -> None:
    sentence = "The mill was built in 1820 and opened to visitors in 1988."
    at = sentence.index("1988")
    assert governing(sentence, at, at + 4) == frozenset({"opened"})
    assert governing("周二晚上排练。", 0, 2) == frozenset()


def test_a_date_of_another_relation_is_no_candidate_where_the_asked_one_has_its_own() -> None:
    from graphs.text.spans import candidates, of_asked_kind

    sentence = "Founded in 1987, the choir welcomed Ana Ruiz, who joined in 2014 as its accompanist."
    question = "When did Ana Ruiz join the choir?"
    kept = of_asked_kind(question, "date", sentence, candidates(sentence, "date", question))
    assert [s.text for s in kept] == ["2014"]
    zh = "剧社成立于一九九五年，林岚于二〇一八年加入剧社。"
    kept = of_asked_kind("林岚哪一年加入剧社？", "date", zh, candidates(zh, "date", "林岚哪一年加入剧社？"))
    assert [s.text for s in kept] == ["二〇一八年"]


@pytest.mark.parametrize(("question", "sentence", "value"), [
    # a loose verb asks a relation the date's own verb may state in other words
    ("What year did Lena Park start working at Corvin Mills?", "Lena Park joined Corvin Mills in 2016.", "2016"),
    ("When was the quartet formed?", "The quartet first played together in 1999, when it signed to Larkin.", "1999"),
])
def test_a_question_asked_by_a_loose_word_judges_no_date_another_relations(question: str, sentence: str,
                                                                          value: str) -> None:
    assert _at(question, sentence, value) is None
