"""The asked role's span (issue 24): of the names in the answering sentence, the one the asked role governs —
the minutes' 记录人 and not the 主持人 written in the same line, the seconder and not the proposer — through the
name governors the answer check reads (``governors.name_role`` / ``role_matches``), not the name nearest all the
question's words. Sentences invented here."""

from __future__ import annotations

import pytest

from graphs.rag.answer.evidence import governed_by_asked_role
from graphs.text.spans import candidates
from tests.support.answers import write
from tests.support.fakes import hit


@pytest.mark.parametrize(("question", "sentence", "expected"), [
    ("预算会议的记录人是谁？", "主持人：詹慕白；记录人：柯晓岚；出席：各科室负责人。", "柯晓岚"),
    ("预算会议是谁主持的？", "主持人：詹慕白；记录人：柯晓岚；出席：各科室负责人。", "詹慕白"),
    ("Who seconded the motion to extend the hours?",
     "The motion to extend the hours was proposed by Irene Calder and seconded by Owen Pryce.", "Owen Pryce"),
    ("Who proposed the motion to extend the hours?",
     "The motion to extend the hours was proposed by Irene Calder and seconded by Owen Pryce.", "Irene Calder"),
    ("谁附议了延长开放时间的动议？", "范家豪提议延长开放时间，邵敏附议。", "邵敏"),
])
def test_the_name_the_asked_role_governs(question: str, sentence: str, expected: str) -> None:
    spans = candidates(sentence, "person", question)
    assert len(spans) >= 2
    assert [s.text for s in governed_by_asked_role(question, sentence, spans)] == [expected]


def test_names_no_role_tells_apart_are_all_kept() -> None:
    sentence = "詹慕白和柯晓岚出席了会议。"
    spans = candidates(sentence, "person", "谁出席了会议？")
    assert governed_by_asked_role("谁出席了会议？", sentence, spans) == spans


MINUTES = hit("minutes#0", "主持人：詹慕白；记录人：柯晓岚；出席：各科室负责人共12人。\n\n会议审议了2026年度预算草案。",
              title="预算会议纪要")
MOTION = hit("motion#0", "At the March meeting the motion to extend the library's hours was proposed by Irene Calder "
                         "and seconded by Owen Pryce. It passed by nine votes to two.", title="Library board minutes")


@pytest.mark.parametrize(("question", "hits", "expected", "other"), [
    ("预算会议的记录人是谁？", [MINUTES], "柯晓岚", "詹慕白"),
    ("Who seconded the motion to extend the library's hours?", [MOTION], "Owen Pryce", "Irene Calder"),
])
def test_the_short_answer_is_the_asked_roles_name(question: str, hits: list, expected: str, other: str) -> None:
    """Before, the short answer was the name nearest the question's other words (the chair's, the proposer's)."""
    decision, _, span, _ = write(question, hits)
    assert decision == "answerable"
    assert span is not None and expected in span and other not in span


def test_a_minutes_label_without_person_word_states_the_minute_taker() -> None:
    """"记录：X" (the label without 人) is the minute-taker's line, as 记录人：X is; "会议记录：" is no role."""
    from graphs.rag.answer.attributes import asked_attribute, stated_at

    asked = asked_attribute("理事会会议的记录人是谁？", "person", ())
    assert asked is not None and asked.attribute.name == "secretary"
    assert stated_at(asked.attribute, "主持人：詹慕白。记录：柯晓岚。")
    assert not stated_at(asked.attribute, "会议记录：第四次理事会")
    sentence = "主持人：詹慕白（理事长）。记录：柯晓岚。"
    spans = candidates(sentence, "person", "理事会会议的记录人是谁？")
    assert [s.text for s in governed_by_asked_role("理事会会议的记录人是谁？", sentence, spans)] == ["柯晓岚"]
