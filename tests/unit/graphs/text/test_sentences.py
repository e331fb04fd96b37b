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


def test_a_hard_wrapped_english_paragraph_is_read_as_its_sentences() -> None:
    text = ("The Brisley lock keepers' survey was carried out in May by nine volunteers, led by\n"
            "Dr. Hollis Fenn of the canal trust. Each of the fourteen locks was checked for leaks and\n"
            "the results went to the trust's engineer.\n"
            "## Findings\n"
            "Lock 6 leaks.\n"
            "Chair: Mara Lowe\n"
            "Secretary: Tobias Reed\n"
            "船闸管理处的年度检查于五月完成，共检查十四座\n"
            "船闸。")
    assert split_sentences(text) == [
        "The Brisley lock keepers' survey was carried out in May by nine volunteers, led by\nDr. Hollis Fenn of the "
        "canal trust.",
        "Each of the fourteen locks was checked for leaks and\nthe results went to the trust's engineer.",
        "## Findings", "Lock 6 leaks.", "Chair: Mara Lowe", "Secretary: Tobias Reed",
        "船闸管理处的年度检查于五月完成，共检查十四座", "船闸。"]  # Chinese lines keep their breaks (field blocks)


@pytest.mark.parametrize(("text", "sentences"), [
    ("会议于16:40结束。\n\n主持：程晓岚　　记录：屠一鸣　　审核：柯远", ["会议于16:40结束。", "主持：程晓岚", "记录：屠一鸣", "审核：柯远"]),
    ("主持：程晓岚 记录：屠一鸣", ["主持：程晓岚", "记录：屠一鸣"]),  # a stored chunk's spaces folded to one
    ("Chair: Nell Rowe    Minutes: Ivo Pike", ["Chair: Nell Rowe", "Minutes: Ivo Pike"]),
    ("Price: 20 yuan  (members free)", ["Price: 20 yuan  (members free)"]),  # one field and a remark: one line
    ("Ratio 3:1 and 2:1 in the mix.", ["Ratio 3:1 and 2:1 in the mix."]),
])
def test_a_line_of_several_labelled_fields_is_several_statements(text: str, sentences: list[str]) -> None:
    from graphs.text.sentences import passage_sentences

    assert passage_sentences(text) == sentences
