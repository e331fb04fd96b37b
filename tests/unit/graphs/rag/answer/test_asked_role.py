"""A who-question whose role noun the role lexicon lacks (记录人, 监制, curator, quartermaster) is answered only by
a name that noun governs: a name another role governs (主持人, director) is no evidence, whatever the score; the
twin passage that gives the asked role its holder answers. Invented passages (graphs/text/governors.asked_role)."""

from __future__ import annotations

import pytest

from graphs.text.governors import asked_role, role_matches
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("text", "other", "twin"), [
    ("青禾镇防汛例会的记录人是谁？",
     "青禾镇防汛例会于周三召开，主持人：张敏，会议讨论了堤坝加固预算。",
     "青禾镇防汛例会于周三召开，主持人：张敏，记录人：李可，会议讨论了堤坝加固预算。"),
    ("纪录片《远山的回声》的监制是谁？",
     "纪录片《远山的回声》导演陈立文在首映礼上介绍了拍摄经过。",
     "纪录片《远山的回声》监制陈立文在首映礼上介绍了拍摄经过。"),
])
async def test_a_name_of_another_role_does_not_answer_an_unlisted_role(text: str, other: str, twin: str) -> None:
    decision, reason = await verdict_of(text, [hit("a#0", other, title="a")])
    assert decision == "not_found", reason
    decision, reason = await verdict_of(text, [hit("a#0", twin, title="a")])
    assert decision == "answerable", reason


@pytest.mark.parametrize(("text", "noun"), [
    ("二号展厅的讲解员是谁？", "讲解员"),
    ("会议的记录人是谁？", None),  # a role of minutes the lexicon lists (merged with the minutes roles)
    ("谁是青禾镇的镇长？", "镇长"),
    ("Who is the quartermaster of the Harlow Rangers?", "quartermaster"),
    ("Who is Linwood Museum's curator?", "curator"),
    ("《长河》的编剧是谁？", None),  # the lexicon's role: compared by the lexicon
    ("Who wrote the song?", None),
    ("Who was the first person to climb it?", None),
])
def test_asked_role(text: str, noun: str | None) -> None:
    assert asked_role(text) == noun


def test_a_role_phrase_against_an_unlisted_role() -> None:
    assert role_matches("Linwood Museum director", "Who is the curator of the Linwood Museum?") is False
    assert role_matches("museum curator", "Who is the curator of the Linwood Museum?") is True
    assert role_matches("记录人", "会议的记录人是谁？") is True
    assert role_matches("主持人", "会议的记录人是谁？") is False
    assert role_matches("资深", "会议的记录人是谁？") is None
