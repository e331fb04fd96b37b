"""Names written across scripts in the mention test: a user's file named for what it is about names every passage
of it (``question.file_words``), in either script ("Qingshui Bank" read in 青水银行 of a letter's file name); a
phrase of common words the lexicon knows word by word is mentioned by those words in the other language
(``attributes.written_across``: 学生会员 by "students" and "members"). Near misses stay unmentioned: another bank
of one shared syllable, a person's name, a word the text does not write."""

from __future__ import annotations

import pytest

from graphs.rag.answer.answerability import assess
from graphs.rag.answer.attributes import written_across
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.question import file_words, passage_words, unmentioned
from tests.support.answers import question
from tests.support.fakes import hit

RATE = hit("青水银行_贷款通知书.docx#2", "贷款利率：按年利率3.45%执行，按月等额本息还款。", title="贷款通知书",
           source="青水银行_贷款通知书.docx", section="二、利率与还款")
LINE = hit("corpus-17#0", "The loan rate is 3.45% a year.", title="Loan terms", source="corpus.jsonl")
FEES = hit("club_rules.md#1", "Adults pay 200 yuan a year; students pay 90 yuan. Members may bring one guest.",
           title="Fees", source="club_rules.md")


def test_a_files_name_is_read_with_its_passages() -> None:
    assert file_words(RATE) == "青水银行 贷款通知书"
    assert "青水银行" in passage_words(RATE)
    assert file_words(LINE) == ""  # a line of a corpus file: the file is no passage's subject


@pytest.mark.parametrize("text", ["What annual interest rate does Qingshui Bank charge on the loan?",
                                  "青水银行的贷款年利率是多少？"])
def test_a_name_only_the_file_name_writes_is_mentioned(text: str) -> None:
    q = question(text, [RATE])
    verdict = assess(q, [RATE], find_evidence(q, [RATE]))
    assert "no retrieved passage mentions" not in verdict.reason, verdict.reason


@pytest.mark.parametrize(("text", "name"), [("What annual interest rate does Qinghe Bank charge on the loan?",
                                              "qinghe bank"), ("清河银行的贷款年利率是多少？", "清河银行")])
def test_another_bank_than_the_files_is_still_unmentioned(text: str, name: str) -> None:
    """Qinghe shares its first syllable with 青水 (qingshui): the file's name does not spell it."""
    lost = unmentioned(question(text, [RATE]), [RATE])
    assert len(lost) == 1 and lost[0] in name, lost
    assert unmentioned(question(text.replace("Qinghe", "Qingshui").replace("清河", "青水"), [RATE]), [RATE]) == []


def test_a_phrase_of_common_words_is_written_word_by_word_in_the_other_language() -> None:
    folded = "adults pay 200 yuan a year; students pay 90 yuan. members may bring one guest."
    assert written_across("学生会员", folded) == "students members"
    assert written_across("student members", "学生会员每年90元") == "学生 会员"
    # a word the text does not write, a person's name, a single word: not by parts
    assert written_across("学生会员", "adults pay 200 yuan a year") is None
    assert written_across("student members", "成人每年200元") is None
    assert written_across("李明华", "li ming members students") is None


def test_a_chinese_question_over_an_english_price_list_mentions_its_phrase() -> None:
    q = question("学生会员的年费是多少？", [FEES])
    verdict = assess(q, [FEES], find_evidence(q, [FEES]))
    assert "no retrieved passage mentions" not in verdict.reason, verdict.reason
