"""A phrase of common words the parse joined into a name is the question's wording, not a name to spell as one run."""
from __future__ import annotations

import pytest

from graphs.rag.answer.question import common_words
from tests.support.answers import question, write
from tests.support.fakes import hit


@pytest.mark.parametrize(("phrase", "words"), [
    ("果园竞标", ("果园", "竞标")),
    ("仓库盘点", ("仓库", "盘点")),
    ("青溪图书馆", None),   # 青溪 is a place: a name
    ("蕨坪村", None),       # 村 alone is one character
    ("Harbour Club", None),
])
def test_common_words_are_dictionary_words_of_two_characters_none_a_proper_name(
        phrase: str, words: tuple[str, ...] | None) -> None:
    assert common_words(phrase) == words


def test_one_passage_writing_each_word_apart_answers_what_is_asked_of_the_phrase() -> None:
    passage = hit("minutes.txt#1", "镇上决定对旧仓库进行全面盘点，盘点工作由后勤组负责，预计花费3200元。",
                  title="纪要")
    q = question("仓库盘点的预计花费是多少？", [passage])
    assert "仓库盘点" not in [forms[0] for forms in q.anchors]
    decision, _, span, _ = write("仓库盘点的预计花费是多少？", [passage])
    assert decision == "answerable" and span is not None and "3200" in span


def test_words_written_in_different_passages_do_not_mention_the_phrase() -> None:
    hits = [hit("a.txt#1", "旧仓库位于镇东，面积约400平方米。", title="a"),
            hit("b.txt#1", "年底的盘点工作由后勤组负责。", title="b")]
    assert ("仓库盘点",) in question("仓库盘点的预计花费是多少？", hits).anchors
    assert write("仓库盘点的预计花费是多少？", hits)[0] == "not_found"
