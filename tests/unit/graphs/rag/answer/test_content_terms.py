"""What a passage must speak of is the question's content words: a light verb with its complement (达到, 做到)
and the asker's own circumstances ("I'm 41", 我今年41岁) are not required of the answering passage; the absent
twin, whose content word no passage states, is still "not found". Invented passages, Chinese and English."""

from __future__ import annotations

import pytest

from tests.support.answers import verdict_of
from tests.support.fakes import hit

OVEN = hit("o#0", "鹤川 TK-9 电烤炉\n主要参数：最高温度450℃，控湿精度±3%，内腔容积38升。", title="鹤川 TK-9 电烤炉说明书")
WALK = hit("w#0", "Fernley Moor guided walks 2026. An adult ticket costs £12 and a family ticket £30. Walks last about "
                  "three hours and leave from the visitor centre car park.", title="Fernley Moor guided walks")


@pytest.mark.parametrize("text", ["鹤川TK-9电烤炉的控湿精度能达到多少？", "鹤川TK-9电烤炉的控湿精度可以做到多少？"])
async def test_a_light_verb_is_not_required(text: str) -> None:
    decision, reason = await verdict_of(text, [OVEN])
    assert decision == "answerable", reason


async def test_the_askers_age_is_no_year_nor_a_number_to_state() -> None:
    # 今年 of the asker's age is no year the passage must be of; "41" no number it must write
    decision, reason = await verdict_of("我今年41岁，Fernley Moor guided walk 的成人票多少钱？", [WALK])
    assert decision == "answerable", reason
    decision, reason = await verdict_of("I'm 41 - what does an adult Fernley Moor guided walk ticket cost me?", [WALK])
    assert decision == "answerable" and "41" not in reason, reason


async def test_the_absent_twin_is_still_not_found() -> None:
    decision, reason = await verdict_of("鹤川TK-9电烤炉一小时能耗多少度电？", [OVEN])
    assert decision == "not_found", reason
