"""A sign-off line of several labelled fields ("主持：X　　记录：Y　　审核：Z") is read one field at a time (#24 §4):
each label gives its own value its role ("who took the minutes" → the 记录 field), where one line let the first
label govern every name. A line with one field, prose with a colon, and a table row stay whole."""

from __future__ import annotations

import pytest

from graphs.text.sentences import split_sentences


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
