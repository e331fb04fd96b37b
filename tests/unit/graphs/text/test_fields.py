"""Labelled fields (issue 24): a line that states a fact as ``label: value`` — a header block, an infobox, a spec
sheet, a table cell as ingest writes it — read as one, prose with a colon not; a label names what a question asks
by the lexicon, by the asked role (noun or verb), by the question's own words or by the kind it names. Sentences
invented here."""

from __future__ import annotations

import pytest

from graphs.text.fields import Field, addressed, field_of, label_asks, names_column


@pytest.mark.parametrize(("line", "expected"), [
    ("- 记录员：谭若溪", Field("记录员", "", "谭若溪", 6)),
    ("Chairperson: Margit Olsson", Field("Chairperson", "", "Margit Olsson", 13)),
    ("Top speed: 42 km/h", Field("Top speed", "", "42 km/h", 11)),
    ("剩余名额 — B班: 9人", Field("剩余名额", "B班", "9人", 11)),
    ("Opening hours — Saturday: 10:00 to 16:00", Field("Opening hours", "Saturday", "10:00 to 16:00", 26)),
    ("会议时间：上午8:45", Field("会议时间", "", "上午8:45", 5)),
])
def test_a_field_line_is_read_as_label_row_and_value(line: str, expected: Field) -> None:
    assert field_of(line) == expected


@pytest.mark.parametrize("line", [
    "采购部经理汇报：供应商交货延迟了两周，下月起改为每周对账。",  # what someone reported
    "She said: the boiler will be replaced in May.",
    "Note: the filter must be rinsed once a week.",
    "The ferry leaves at 6:15 every morning.",
    "At 6:15: the first ferry leaves the pier",  # a clock, not a label
    "目前该校男女生比例约为1：3（男：女）",  # a ratio
    "The home side won 2:1",
    "Result: the committee voted to close the branch. It will reopen next year.",
    "档案室的钥匙由值班员保管，借用须登记。",
])
def test_prose_with_a_colon_is_no_field(line: str) -> None:
    assert field_of(line) is None


@pytest.mark.parametrize(("line", "question", "attribute", "kind", "expected"), [
    ("记录员：谭若溪", "Who took the minutes at the library board meeting?", False, "person", True),
    ("Chairperson: Margit Olsson", "这次理事会是谁主持的？", False, "person", True),
    ("主持人：詹慕白", "这次会议由谁记录？", False, "person", False),  # another role
    ("Top speed: 42 km/h", "How fast can the Vela scooter go?", True, "number", True),  # the lexicon's words
    ("剩余名额 — B班: 9人", "B班还有几个剩余名额？", False, "number", True),  # the question's own words
    ("Venue: Old Corn Exchange", "Where is the spring fair held?", False, "place", True),  # the kind it names
    ("Weight: 3.1 kg", "Where is the Vela scooter made?", False, "place", None),
])
def test_a_label_names_what_is_asked(line: str, question: str, attribute: bool, kind: str,
                                     expected: bool | None) -> None:
    f = field_of(line)
    assert f is not None
    terms = ["剩余名额", "还有"] if "名额" in question else []
    assert label_asks(f, question, terms, attribute, kind) is expected


def test_a_cell_is_addressed_by_its_row_and_named_by_its_column() -> None:
    cell = field_of("夜班 — 三号仓: 6人")
    assert cell is not None
    assert addressed(cell, "三号仓的夜班排了几个人？") and names_column(cell, "三号仓的夜班排了几个人？")
    assert not addressed(cell, "五号仓的夜班排了几个人？")  # another row's cell
    line = field_of("Chairperson: Margit Olsson")
    assert line is not None and addressed(line, "Who chaired?") and not names_column(line, "Chairperson?")
