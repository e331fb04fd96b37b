"""A question may call a person by a title and the surname ("Dr Penhale", 赵医生) where the passages name them in
full ("Dr Morwenna Penhallow", 赵启明医生): the passages mention that person, under the surname they write (a
near spelling of it for a Latin one), and the reason says how the name was taken. A title with a surname no passage
writes, or a Chinese title that fits two people, mentions no one. Examples invented here."""

from __future__ import annotations

from graphs.rag.answer.question import addressed
from tests.support.answers import question, write
from tests.support.fakes import hit

REPORT = hit("survey#0", "Field survey of the Tarrow salt marsh, led by Dr Morwenna Penhallow. The survey counted "
                         "212 redshank nests in May 2025.", title="Tarrow marsh survey")
CLINIC = hit("clinic#0", "康宁诊所每周二下午由赵启明医生坐诊，挂号费为15元。", title="康宁诊所门诊安排")


def test_a_person_called_by_title_and_surname_is_the_passages_full_name() -> None:
    assert addressed("dr penhallow", "led by dr morwenna penhallow.") == "penhallow"
    assert addressed("dr penhalow", "led by dr morwenna penhallow.") == "penhallow"  # one letter off
    assert addressed("赵医生", "由赵启明医生坐诊") == "赵启明"
    assert addressed("赵医生", "坐诊医生赵启明") == "赵启明"


def test_a_title_with_no_such_person_mentions_no_one() -> None:
    assert addressed("dr penhallow", "led by professor ada quint.") is None
    assert addressed("赵医生", "由钱多多医生坐诊") is None
    assert addressed("赵医生", "赵启明医生和赵小满医生轮流坐诊") is None  # two of them: which one is not said
    assert addressed("tarrow marsh", "tarrow salt marsh") is None  # no title: not a person's short form


def test_the_question_is_about_the_person_the_passage_names_in_full() -> None:
    q = question("How many nests did Dr Penhalow's survey count?", [REPORT])
    assert q.misspelled.get("dr penhalow") == "penhallow"
    decision, reason, span, _ = write("How many redshank nests did Dr Penhalow's survey count?", [REPORT])
    assert decision == "answerable" and span == "212"
    decision, reason, span, _ = write("赵医生的挂号费是多少？", [CLINIC])
    assert decision == "answerable" and span == "15元" and "'赵医生' is taken as '赵启明'" in reason
