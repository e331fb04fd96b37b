"""A title's holder is a person: a unit's name offered for it (教务处 for 教务处处长是谁, "Office of Student Life" for
its director) states no holder (graphs/rag/answer/governance.py ``office_for_holder``). Invented names."""

from __future__ import annotations

import pytest

from graphs.rag.answer.governance import office_for_holder
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import question


@pytest.mark.parametrize(("text", "line", "value"), [
    ("青岚学院学生处处长是谁？", "青岚学院学生处（Office of Student Affairs）", "Office of Student Affairs"),
    ("青岚学院学生处处长是谁？", "青岚学院学生处（Office of Student Affairs）", "青岚学院学生处"),
    ("Who is the director of Fenbrook council's planning office?", "Fenbrook Planning Department, Town Hall",
     "Fenbrook Planning Department"),
])
def test_a_units_name_is_no_holder_of_its_title(text: str, line: str, value: str) -> None:
    at = line.index(value)
    q = question(text, [hit("u#0", line, title="unit")])
    assert office_for_holder(q, line, at, at + len(value)) is not None


@pytest.mark.parametrize(("text", "line", "value"), [
    ("青岚学院学生处处长是谁？", "学生处处长：韩立科", "韩立科"),
    ("Who is the director of Fenbrook council's planning office?", "The planning office is led by Mara Quist.",
     "Mara Quist"),
    # a who-question that asks no title may be answered by a company or a body
    ("谁主办了青岚读书节？", "青岚读书节由青岚区文化局主办。", "青岚区文化局"),
])
def test_a_person_or_an_untitled_doer_is_not_refused(text: str, line: str, value: str) -> None:
    at = line.index(value)
    q = question(text, [hit("u#0", line, title="unit")])
    assert office_for_holder(q, line, at, at + len(value)) is None
