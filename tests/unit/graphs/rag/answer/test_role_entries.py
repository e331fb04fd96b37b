"""A who-question about one work, over a programme or award list whose entries each give a role and a name for
their own work (歌曲《X》 演唱：Y; an award list's "最佳女主角：Y《X》"): a name of another entry's work is no evidence,
and an award's name (青云文学奖) is no person, so it cannot be taken for the asked role's holder. The twin list
with the asked work's entry answers. Invented passages (graphs/text/governors.name_role, governance.states_role)."""

from __future__ import annotations

import pytest

from graphs.text.governors import name_role
from tests.support.answers import verdict_of
from tests.support.fakes import hit

PROGRAMME = ("江城中秋晚会节目单 [晚会]歌曲《山月》 演唱：林岚 何书 [晚会]歌曲《晚风》 演唱：周渡 古筝：陶然 "
             "[晚会]歌曲《归舟》 演唱：沈意 评弹演唱：孟川 [晚会]舞蹈《远帆》 领舞：程一")
AWARDS = "第9届青屿电视节颁奖名单 最佳女主角：苏晴《长河》 最佳男配角：韩越《远山》 最佳编剧：宋澜《远山》"
NOVEL = "《长河》是第三部青云文学奖获奖作品改编剧，播出后口碑很好。"


@pytest.mark.parametrize(("text", "passages", "twin"), [
    ("江城中秋晚会歌曲《远帆》是谁唱的？", [PROGRAMME], [PROGRAMME + " [晚会]歌曲《远帆》 演唱：许青"]),
    ("《长河》的编剧是谁？", [AWARDS, NOVEL], [AWARDS + " 最佳编剧：罗言《长河》", NOVEL]),
])
async def test_another_entrys_name_is_no_evidence(text: str, passages: list[str], twin: list[str]) -> None:
    hits = [hit(f"p{i}#0", p, title="名单") for i, p in enumerate(passages)]
    decision, reason = await verdict_of(text, hits)
    assert decision == "not_found", reason
    hits = [hit(f"p{i}#0", p, title="名单") for i, p in enumerate(twin)]
    decision, reason = await verdict_of(text, hits)
    assert decision == "answerable", reason


@pytest.mark.parametrize(("sentence", "name", "work"), [
    ("歌曲《山月》 演唱：林岚 何书", "林岚", "山月"),
    ("歌曲《归舟》 演唱：沈意 评弹演唱：孟川", "孟川", "归舟"),
    ("曾执导过《远山》的导演郑禾出席首映", "郑禾", None),  # prose: a film he made, not the work of the role
    ("最佳女主角：苏晴《长河》", "苏晴", "长河"),
    ("影片上映后，导演郑禾表示满意", "郑禾", None),
])
def test_the_work_of_a_role(sentence: str, name: str, work: str | None) -> None:
    at = sentence.find(name)
    assert name_role(sentence, at, at + len(name)).work == work
