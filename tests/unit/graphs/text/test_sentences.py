"""Sentences of Chinese and English passages."""

from __future__ import annotations

import pytest

from graphs.text.sentences import split_sentences


@pytest.mark.parametrize(("text", "sentences"), [
    ("华为成立于1987年。总部在深圳！", ["华为成立于1987年。", "总部在深圳！"]),
    ("Dr. Li joined in 1990. He left in 2001.", ["Dr. Li joined in 1990.", "He left in 2001."]),
    # a mark inside a title or a quotation belongs to it
    ("《卡拉OK.LIVE！‧台北‧我》是张雨生的第六张国语专辑。专辑于1995年发行。",
     ["《卡拉OK.LIVE！‧台北‧我》是张雨生的第六张国语专辑。", "专辑于1995年发行。"]),
    ("他说「快走！别回头」然后离开了。", ["他说「快走！别回头」然后离开了。"]),
    # an unclosed mark far back does not swallow the rest of the passage
    ("《" + "很长的一段没有闭合的文字" * 5 + "。第二句。", ["《" + "很长的一段没有闭合的文字" * 5 + "。", "第二句。"]),
])
def test_sentences(text: str, sentences: list[str]) -> None:
    assert split_sentences(text) == sentences
