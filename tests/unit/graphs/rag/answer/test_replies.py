"""The service's own fixed sentences (a "not found", the notes that an upload is still being written or indexed)
come in the question's language where the service has the words: Chinese, Japanese, else English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.replies import no_results_answer, still_filling, still_ingesting
from graphs.text.normalize import has_han

KANA = set("のはをがにでとすかまりいうえおしてなれるたっ")


@pytest.mark.parametrize("question", ["倉庫の温度は何度に保たれていますか？", "シフト表はどこにありますか"])
def test_a_japanese_question_is_told_in_japanese_not_chinese(question: str) -> None:
    for retrieved in (False, True):
        text = no_results_answer(question, retrieved=retrieved)
        assert KANA & set(text), text
    assert KANA & set(still_filling(question, 3)) and "3" in still_filling(question, 3)
    assert KANA & set(still_ingesting(question, 2)) and "2" in still_ingesting(question, 2)


def test_chinese_english_and_other_languages_keep_their_sentences() -> None:
    zh = no_results_answer("仓库温度保持在多少度？", retrieved=True)
    assert has_han(zh) and not KANA & set(zh)
    assert no_results_answer("How warm is the store room kept?") == \
        "No relevant information was found in the indexed documents."
    # Korean: the fixed sentences are not written in it, so English (never Chinese for a hanja-free question)
    assert no_results_answer("창고 온도는 몇 도입니까?", retrieved=True) == \
        "The indexed documents do not contain an answer to this question."
    assert still_ingesting("창고 온도는?", 1).startswith("(1 document of an upload is")
