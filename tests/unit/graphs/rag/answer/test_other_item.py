"""A document that enumerates items (a programme's film cards, a guide's sites, a timetable's day rows) states each
item's values under that item's own heading or row: a line under another card or row is that item's, and where the
asked item's own section states nothing asked, the documents do not say it (graphs/rag/answer/governance.py
``other_item``, the ``other_item`` veto). Invented documents, Chinese and English."""

from __future__ import annotations

import pytest

from graphs.rag.answer.governance import Item, document_items
from tests.support.answers import verdict_of
from tests.support.fakes import hit

PROGRAMME = "青松剧场·十月演出 > 剧目介绍"
TABLE = hit("p.html#1", "票价 — 《河边的钟声》: 80元\n时长 — 《河边的钟声》: 95分钟\n票价 — 《白鹭飞过》: 60元\n"
                        "时长 — 《白鹭飞过》: 120分钟", title="青松剧场十月演出", section="青松剧场·十月演出 > 演出一览")
BELLS = hit("p.html#2", "由青年编剧方知遥创作的喜剧，讲述一座钟楼修复前后的故事。", title="青松剧场十月演出",
            section=f"{PROGRAMME} > 《河边的钟声》")
EGRETS = hit("p.html#3", "由演员程亦舟、林岫主演，讲述一位护林员在湿地的一年。", title="青松剧场十月演出",
             section=f"{PROGRAMME} > 《白鹭飞过》")


async def test_a_cards_line_is_not_the_value_of_a_sibling_card() -> None:
    # 《白鹭飞过》's card names no writer: 方知遥 is the other play's
    decision, reason = await verdict_of("《白鹭飞过》的编剧是谁？", [BELLS, TABLE, EGRETS])
    assert decision == "not_found", reason
    assert "《河边的钟声》" in reason and "《白鹭飞过》" in reason, reason


async def test_a_cards_own_line_answers() -> None:
    decision, reason = await verdict_of("《河边的钟声》的编剧是谁？", [BELLS, TABLE, EGRETS])
    assert decision == "answerable", reason
    assert "written for" not in reason, reason


SITES = "Harwick allotment society guide > Our sites"
RIVERSIDE = hit("a.md#1", "The Riverside site has 40 plots; its site warden is Delia Fenwick.",
                title="Harwick allotment society guide", section=f"{SITES} > Riverside")
ORCHARD = hit("a.md#2", "The Orchard Lane site has 22 plots and a shared tool shed.",
              title="Harwick allotment society guide", section=f"{SITES} > Orchard Lane")


async def test_a_sites_line_is_not_the_value_of_another_site() -> None:
    decision, reason = await verdict_of("Who is the site warden at Orchard Lane?", [RIVERSIDE, ORCHARD])
    assert decision == "not_found", reason
    assert "Riverside" in reason, reason


async def test_a_line_that_names_the_asked_item_itself_is_its_evidence() -> None:
    both = hit("a.md#3", "The Riverside site shares its warden, Delia Fenwick, with Orchard Lane.",
               title="Harwick allotment society guide", section=f"{SITES} > Riverside")
    _, reason = await verdict_of("Who is the site warden at Orchard Lane?", [both, ORCHARD])
    assert "written for" not in reason, reason


async def test_the_heading_above_the_line_is_its_context_not_a_sibling() -> None:
    # the question names the guide's section the sites stand under, not another site
    _, reason = await verdict_of("Who is the site warden of Our sites in the Harwick guide?", [RIVERSIDE, ORCHARD])
    assert "written for" not in reason, reason


POOL = hit("pool.csv#0", "start — Sunday Main pool Family swim: 14:00\nend — Sunday Main pool Family swim: 16:00\n"
                         "start — Tuesday Main pool Water polo: 19:00", title="Lindell baths timetable")
POOL_ZH = hit("pool_zh.csv#0", "开始 — 周日 主池 亲子游: 14:00\n结束 — 周日 主池 亲子游: 16:00", title="林德尔泳池时间表")


@pytest.mark.parametrize(("text", "passage"), [
    ("林德尔泳池周六的亲子游几点开始？", POOL),
    ("What time does the family swim start on Saturday at the Lindell baths?", POOL_ZH),
    ("What time does the family swim start on Saturday at the Lindell baths?", POOL),
])
async def test_a_row_of_another_day_is_not_the_asked_days(text: str, passage) -> None:
    decision, reason = await verdict_of(text, [passage])
    assert decision == "not_found", reason


@pytest.mark.parametrize(("text", "passage"), [
    ("林德尔泳池周日的亲子游几点开始？", POOL),
    ("What time does the family swim start on Sunday at the Lindell baths?", POOL_ZH),
    ("What time does the family swim start at the Lindell baths?", POOL),
])
async def test_a_row_of_the_asked_day_or_of_any_day_answers(text: str, passage) -> None:
    _, reason = await verdict_of(text, [passage])
    assert "written for" not in reason, reason


def test_a_documents_items_are_its_headings_by_parent_and_its_row_keys() -> None:
    items = document_items([BELLS, TABLE, EGRETS, RIVERSIDE], "p.html")
    assert Item("《河边的钟声》", PROGRAMME) in items and Item("《白鹭飞过》", PROGRAMME) in items
    assert any(i.key == "《白鹭飞过》" and i.group != PROGRAMME for i in items)  # its table row too
    assert not any(i.key == "Riverside" for i in items)  # another document's


APIARIES = hit("s.txt#0", "云岭养蜂社 蜂场说明\n\n南坡站：位于南坡果园内，共有蜂箱12个，站长是韦明。每周二上午巡箱。\n"
                          "北岸站：位于北岸苗圃旁，共有蜂箱9个，站长是童欣。这里主要采集槐花蜜。\n"
                          "北岸站的蜂群在去年冬天损失了2群。", title="云岭养蜂社 蜂场说明")


def _reading(text: str, passage, said: str) -> tuple[str, str] | None:
    from graphs.rag.answer.evidence import sentences_of
    from graphs.rag.answer.governance import other_item
    from tests.support.answers import question

    q = question(text, [passage])
    line = next(s for s in sentences_of(q, [passage]) if said in s.text)
    return other_item(q, line, [passage])


@pytest.mark.parametrize(("text", "said"), [
    ("南坡站主要采集什么蜜？", "这里主要采集槐花蜜"),  # the line 北岸站：… states 北岸站's
    ("南坡站的蜂群去年冬天损失了几群？", "北岸站的蜂群"),  # the sentence names 北岸站, not 南坡站
])
def test_a_line_of_another_labelled_site_is_not_the_asked_sites(text: str, said: str) -> None:
    assert _reading(text, APIARIES, said) == ("北岸站", "南坡站")


@pytest.mark.parametrize(("text", "said"), [
    ("北岸站主要采集什么蜜？", "这里主要采集槐花蜜"),
    ("北岸站的站长是谁？", "北岸站：位于"),
    ("南坡站的站长是谁？", "南坡站：位于"),
    ("云岭养蜂社的蜂群去年冬天损失了几群？", "北岸站的蜂群"),  # no site asked: the line answers for the society
])
def test_the_asked_sites_own_line_answers(text: str, said: str) -> None:
    assert _reading(text, APIARIES, said) is None


def test_parallel_labels_are_items_a_field_blocks_labels_are_not() -> None:
    from graphs.rag.answer.governance import label_items

    found = label_items("West Hall: seats 40.\nEast Hall: seats 90.\nVenue: Corn Exchange\nContact: Ivo Marsh")
    assert {i.key for i in found.values()} == {"West Hall", "East Hall"}
    assert not label_items("地点：镇文化中心二楼。\n时间：每周三下午。\n电话：8021")


POLICY = "Fernlea lodge booking policy"
CANCEL = hit("f.md#1", "Cancel more than 7 days ahead for a full refund of the deposit; 3 to 7 days ahead, half of it "
                       "is returned.", title=POLICY, section=f"{POLICY} > Cancellations")
PETS = hit("f.md#2", "Small dogs are welcome for a cleaning fee of £15 a night.", title=POLICY, section=f"{POLICY} > Pets")
CANCEL_ZH = hit("z.md#1", "入住前7天以上取消，全额退还定金；入住前3至7天取消，退还一半定金。", title="松溪客栈预订政策",
                section="松溪客栈预订政策 > 取消")
PETS_ZH = hit("z.md#2", "允许携带小型犬入住，每晚加收50元清洁费。", title="松溪客栈预订政策", section="松溪客栈预订政策 > 宠物")


@pytest.mark.parametrize(("text", "hits"), [
    ("入住前5天取消能退多少定金？", [CANCEL_ZH, PETS_ZH]),
    ("How much of the deposit comes back if I cancel 5 days ahead at Fernlea lodge?", [CANCEL, PETS]),
])
async def test_evidence_holding_the_asked_sections_own_prose_is_not_refused(text: str, hits) -> None:
    # the value read may be the pets section's, but the cancellations section's own line beside it is evidence
    _, reason = await verdict_of(text, hits)
    assert "written for" not in reason, reason
