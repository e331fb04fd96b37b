"""A who-question may be answered by whatever the sentence writes in the place of its 谁, framed by the question's
own verb (graphs/text/spans.framed): an animal, a robot, a ship or a codename the sentence makes the one sent or
the doer, which no tagger reads as a person. A sentence that writes a pronoun there, or does not write the frame,
holds no answer. Invented sentences; the English side is covered by capitalised names."""

from __future__ import annotations

import pytest

from graphs.text.spans import framed
from tests.support.answers import verdict_of
from tests.support.fakes import hit


@pytest.mark.parametrize(("question", "text", "filler"), [
    ("老船长临终前派谁去灯塔报信？", "老船长临终前派遣信鸽灰羽去灯塔报信，灰羽因此留在了灯塔。", "信鸽灰羽"),
    ("谁把求救信号带回了营地？", "机器狗阿福把求救信号带回了营地。", "机器狗阿福"),
])
def test_the_frame_names_the_filler(question: str, text: str, filler: str) -> None:
    assert [s.text for s in framed(text, question)] == [filler]


@pytest.mark.parametrize(("question", "text"), [
    ("老船长临终前派谁去灯塔报信？", "老船长临终前派遣他去灯塔报信。"),
    ("老船长临终前派谁去灯塔报信？", "老船长临终前一直想去灯塔看看。"),
    ("灯塔的看守人是谁？", "灯塔的看守人是一只名叫灰羽的信鸽。"),
])
def test_no_filler_without_the_frame(question: str, text: str) -> None:
    assert framed(text, question) == []


async def test_a_named_non_person_sent_answers_the_who_question() -> None:
    q = "老船长临终前派谁去灯塔报信？"
    decision, reason = await verdict_of(q, [hit("a#0", "老船长临终前派遣信鸽灰羽去灯塔报信，灰羽因此留在了灯塔。", title="灯塔")])
    assert decision == "answerable", reason
    decision, reason = await verdict_of(q, [hit("b#0", "老船长临终前派遣他去灯塔报信。", title="灯塔")])
    assert decision == "not_found", reason


async def test_english_named_actor_answers() -> None:
    decision, reason = await verdict_of("Who did the wizard send to warn the king?",
                                        [hit("c#0", "Before dying, the wizard sent the raven Moonwing to warn the king.",
                                             title="The wizard")])
    assert decision == "answerable", reason
