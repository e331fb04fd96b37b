"""Answers from labelled fields and table cells (issue 24): a field line or a table cell is the statement
"<label> of <subject> is <value>" — the subject a field block's title, a cell's row — so a question that asks the
attribute the label names takes the value as its short answer when the value is of the asked kind; a field of
the asked attribute whose value is of another kind is no evidence, and another row's cell is not the asked one.
Files and sentences invented here."""

from __future__ import annotations

import pytest

from graphs.domain import Hit
from graphs.rag.answer.evidence import field_blocks, find_evidence
from graphs.rag.answer.extractive import extractive
from graphs.text.normalize import normalize
from tests.support.answers import question
from tests.support.fakes import hit

MINUTES = hit("minutes#0", "- 会议时间：2026年5月6日（星期三）下午3:00\n- 会议地点：滨湖园区一号楼会议室\n"
                           "- 主持人：温若川（厂长）\n- 参会人员：各车间主任\n\n"
                           "车间主任汇报了五月的设备检修安排，新的空压机将于月底到货并完成安装调试。",
              title="滨湖食品厂 2026年5月生产例会纪要")
SIGN_OFF = hit("minutes#1", "下次例会时间另行通知。\n\n记录：柯望舒\n审核：温若川", title="滨湖食品厂 2026年5月生产例会纪要")
PROFILE = hit("wenna#0", "Born: Tarrow\nOccupation: Glass engraver\nEmployer: Elne Crystal Works\n\n"
                         "Wenna Marsh engraves commemorative glass and teaches at the Elne school of crafts.",
              title="Wenna Marsh")
STOCK = hit("stock#0", "品名 — QX-201: 折叠露营椅\n库存 — QX-201: 38把\n单价 — QX-201: 129元\n"
                       "品名 — QX-305: 铝合金营地桌\n库存 — QX-305: 12张\n单价 — QX-305: 349元", title="营地用品库存表")
RATES = hit("rates#0", "Room rates per night for the 2026 season.\nStandard room — Weekday: 95 GBP\n"
                       "Standard room — Weekend: 120 GBP\nFamily room — Weekday: 140 GBP\nFamily room — Weekend: 175 GBP",
            title="Gull Point Inn — rates")


def best(text: str, hits: list[Hit]) -> tuple[str | None, str]:
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    written = extractive(q, hits, evidence, any("\u4e00" <= ch <= "\u9fff" for ch in text))
    return written.span, evidence[0].sentences[evidence[0].span_in].text


@pytest.mark.parametrize(("text", "hits", "span", "line"), [
    # a role of the header block or the sign-off, by noun or verb, the meeting named by the title's words
    ("滨湖食品厂5月那次生产例会是谁主持的？", [MINUTES, SIGN_OFF], "温若川", "- 主持人：温若川（厂长）"),
    ("滨湖食品厂5月生产例会的会议记录是谁做的？", [MINUTES, SIGN_OFF], "柯望舒", "记录：柯望舒"),
    # a place under a label that names the kind: the value as written when no tagger knows the name
    ("滨湖食品厂5月生产例会在哪里开的？", [MINUTES, SIGN_OFF], "滨湖园区一号楼会议室",
     "- 会议地点：滨湖园区一号楼会议室"),
    # a table cell by its row label and its column (the label is the question's word)
    ("QX-305 的库存还有多少？", [STOCK], "12", "库存 — QX-305: 12张"),
    # a cell the question addresses by its row and its column header
    ("How much is a family room at a weekend at Gull Point Inn?", [RATES], "175 GBP",
     "Family room — Weekend: 175 GBP"),
])
def test_the_field_the_question_asks_gives_the_answer(text: str, hits: list[Hit], span: str, line: str) -> None:
    assert best(text, hits) == (span, line)


def test_a_field_of_the_asked_attribute_with_a_value_of_another_kind_is_no_evidence() -> None:
    # "Born: Tarrow" states where, not when: for the year it offers no value and does not lead as if it stated it
    q = question("In which year was Wenna Marsh born?", [PROFILE])
    evidence = find_evidence(q, [PROFILE])
    born = next(e for e in evidence if e.sentences[0].text == "Born: Tarrow")
    assert (born.span, born.focus, born.own, born.field) == (None, 0.0, 0.0, False)
    assert best("Where was Wenna Marsh born?", [PROFILE]) == ("Tarrow", "Born: Tarrow")


def test_another_rows_cell_is_not_the_asked_one() -> None:
    q = question("QX-410 的库存还有多少？", [STOCK])
    assert not any(e.field for e in find_evidence(q, [STOCK]))


def test_a_field_block_is_the_context_of_each_of_its_lines() -> None:
    raw = ["会议时间：5月6日", "主持人：温若川", "参会人员：各车间主任", "车间主任汇报了检修安排。"]
    blocks = field_blocks(raw, [normalize(r) for r in raw])
    assert "5月6日" in blocks[2] and 3 not in blocks
    cells = ["库存 — QX-201: 38把", "品名 — QX-305: 铝合金营地桌", "库存 — QX-305: 12张"]
    assert field_blocks(cells, [normalize(c) for c in cells])[2] == normalize("铝合金营地桌")


FORM = hit("form#0", "Booking for the Elne rowing shed\n\nMember: Tamsin Orr\nBoat: Heron II\nDate: 3 August 2026\n"
                     "Time: 07:15\nRoom: none", title="")
SHELF = hit("shelf#0", "书名 — KB-207: 潮汐图书馆\n作者 — KB-207: 骆青禾\n书名 — KB-311: 白塔来信\n作者 — KB-311: 苏岸",
            title="书架清单")


@pytest.mark.parametrize(("text", "hits", "span", "line"), [
    # a clock under a label of the asked kind answers "what time" (no date in it, but a time)
    ("What time is Tamsin Orr's booking at the Elne rowing shed?", [FORM], "07:15", "Time: 07:15"),
    # a row named by another of its cells (the book's title), not by its label (the code)
    ("《白塔来信》的作者是谁？", [SHELF], "苏岸", "作者 — KB-311: 苏岸"),
])
def test_a_field_read_through_its_block(text: str, hits: list[Hit], span: str, line: str) -> None:
    assert best(text, hits) == (span, line)


def test_the_line_above_a_header_block_names_its_subject() -> None:
    raw = ["Booking for the Elne rowing shed", "Member: Tamsin Orr", "Time: 07:15"]
    assert normalize("Booking for the Elne rowing shed") in field_blocks(raw, [normalize(r) for r in raw])[2]
