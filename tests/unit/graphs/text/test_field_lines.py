"""A sign-off line of several labelled fields ("主持：X　　记录：Y　　审核：Z") is read one field at a time (#24 §4):
each label gives its own value its role ("who took the minutes" → the 记录 field), where one line let the first
label govern every name. A line with one field, prose with a colon, and a table row stay whole."""

from __future__ import annotations

import pytest

from graphs.text.sentences import fields_apart, passage_sentences, split_sentences


@pytest.mark.parametrize(("line", "fields"), [
    ("主持：庞秋禾　　记录：严立夏　　审核：祁望", ["主持：庞秋禾", "记录：严立夏", "审核：祁望"]),
    ("主持：庞秋禾 记录：严立夏", ["主持：庞秋禾", "记录：严立夏"]),  # whitespace folded to one space by a chunk
    ("Chair: Ann Tolley    Minutes: Rhys Vane", ["Chair: Ann Tolley", "Minutes: Rhys Vane"]),
    ("Chair: Ann Tolley | Minutes: Rhys Vane", ["Chair: Ann Tolley", "Minutes: Rhys Vane"]),
])
def test_a_line_of_fields_is_read_field_by_field(line: str, fields: list[str]) -> None:
    assert split_sentences(line) == fields


@pytest.mark.parametrize("line", [
    "主持人：祁望（总经理）", "Chair: Ann Tolley", "销售部汇报：自4月1日起执行新价格", "| 型号 | 价格 |",
    "Note: the filter is  washable.", "时间：2026年3月2日（星期一）9:30—11:00",
])
def test_other_lines_stay_whole(line: str) -> None:
    assert split_sentences(line) == [line]


@pytest.mark.parametrize(("line", "fields"), [
    # values a name pattern alone would not take (a clock time, a room code): every piece a labelled field
    ("开始：9:30　　结束：11:00", ["开始：9:30", "结束：11:00"]),
    ("时间：14:00 地点：B203", ["时间：14:00", "地点：B203"]),  # a stored chunk's spaces folded to one
    ("Start: 9:30    End: 11:00", ["Start: 9:30", "End: 11:00"]),
    ("Drafted by: Lena Moss    Checked by: Omar Reyes", ["Drafted by: Lena Moss", "Checked by: Omar Reyes"]),
])
def test_one_splitter_for_every_reader(line: str, fields: list[str]) -> None:
    """One splitter (``fields_apart``) serves ``split_sentences`` and ``passage_sentences`` alike: the answer's
    check, the citations and the chains read a sign-off line field by field as the evidence does."""
    assert fields_apart(line) == fields
    assert split_sentences(line) == fields
    assert passage_sentences(line) == fields
