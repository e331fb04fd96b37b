"""A meeting's header block (会议时间、会议地点、主持人、记录人 on one line or several): a who-question takes the
role's field, never the date field whose label merely starts with the question's word 会议; a question about the
next meeting is not dated by the minutes' own 时间 field."""

from __future__ import annotations

from tests.support.answers import write
from tests.support.fakes import hit

HEADER = hit("minutes.docx#0", "会议时间：2025年4月9日 上午10点  会议地点：杭州分部5楼会议室  主持人：石雨桐（运营总监）；记录人：吴立言",
             title="渠道合作会议纪要")
SPLIT = hit("minutes.md#0", "会议时间：2025年6月2日下午。主持人：甘露。参会单位：市场部、物流部。", title="仓储协调会议纪要")
NEXT = [hit("ops.docx#0", "时间：2025年7月8日 地点：码头调度楼二楼  主持人：潘志远（调度主任）", title="第三季度调度例会纪要"),
        hit("ops.docx#1", "一、八月起夜班增加一名调度员。二、下一次调度例会定于2025年10月21日召开。", title="第三季度调度例会纪要")]


def test_who_chaired_takes_the_chair_field_not_the_date_field() -> None:
    decision, reason, span, _ = write("渠道合作会议是谁主持的？", [HEADER])
    assert decision == "answerable", reason
    assert span is not None and "石雨桐" in span


def test_a_role_the_header_lacks_is_not_answered_with_the_date() -> None:
    decision, _, span, _ = write("仓储协调会议的记录人是谁？", [SPLIT])
    assert decision == "not_found" or (span is not None and "2025" not in span)


def test_the_next_meeting_is_dated_by_the_sentence_that_plans_it() -> None:
    decision, reason, span, _ = write("下一次调度例会定在什么时候？", NEXT)
    assert decision == "answerable", reason
    assert span is not None and "10月21日" in span


def test_a_headline_field_of_another_year_does_not_answer_for_the_asked_year() -> None:
    pages = [hit("fire2022#0", "Harlow mill fire: 40 workers sent home\n\nFire broke out at the Harlow paper mill on 9 May 2022.",
                 title="harlow mill fire 2022"),
             hit("fire2025#0", "Harlow mill burns again\n\nFire broke out at the Harlow paper mill on 2 June 2025. The owners "
                               "put the damage at £2.1 million.", title="harlow mill fire 2025")]
    decision, reason, span, _ = write("How much damage did the 2025 Harlow mill fire cause?", pages)
    assert decision == "answerable", reason
    assert span is not None and "2.1" in span
