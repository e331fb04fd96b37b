"""Writes the files of ``tests/data/roles_own`` (invented material: minutes in Chinese and English, two companies'
officers, a kitchen's shift handbook, a climbing club's notice; run from the repository root:
``.venv/bin/python tests/data/roles_own/make_files.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import docx, markdown_page

FILES = Path(__file__).resolve().parent / "files"

MINUTES_ZH = [
    ("p", "时间：2026年3月14日上午9点"),
    ("p", "地点：青松社区活动中心二楼"),
    ("p", "出席：会员14人，街道代表1人。"),
    ("p", "本次会议由协会会长罗雅琴主持，宋嘉禾负责会议记录。"),
    ("p", "会议听取了苗圃改造方案，决定由冯启明负责联系供苗单位，预算控制在6000元以内。"),
    ("p", "雨水收集桶的采购由后勤组负责，四月底前完成。"),
    ("p", "下次会议定于2026年4月11日召开。"),
]

MINUTES_EN = """Committee meeting, 9 February 2026. Eleven members were present.

Helen Ashdown chaired the meeting and Rafael Ortiz took the minutes.

The committee agreed to replace two sculling boats. The spending of 14,000 pounds was signed off by the treasurer,
Gwen Pike.

Refunds for the cancelled training camp will be handled by the membership secretary.

Dermot Quayle agreed to organise the spring regatta on 18 April.

The next committee meeting is on 9 March 2026."""

LEADERSHIP_EN = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Ferrowind Turbines: leadership</title></head>
<body>
<h1>Ferrowind Turbines: leadership</h1>
<p>Ferrowind Turbines is a maker of offshore wind turbines based in Aberdeen, with 1,400 employees.</p>
<p>Anja Lindqvist has been chief executive officer of Ferrowind since 2021.</p>
<p>Chief financial officer Tomasz Wren said order intake rose 12 per cent in 2025.</p>
<p>Priya Nair, chief technology officer of Ferrowind, leads the blade research team in Esbjerg.</p>
<p>The board of Ferrowind Turbines is chaired by Malcolm Hebden.</p>
</body></html>
"""

TEAM_ZH = """云帆物流成立于2012年，总部位于宁波，在全国设有32个仓库。

董事长兼首席执行官陆振华负责公司整体战略。

首席运营官唐婉清主管各地仓库的日常运营。

财务总监邹凯表示，公司2025年营收同比增长9%。

公司的技术团队由副总裁韩冰带领。"""

HANDBOOK_EN = """Harbour Kitchen shift handbook

At the start of every shift the duty supervisor checks the walk-in fridge temperatures and signs the log.

The kitchen porter empties the grease trap every Friday night.

Till drawers are counted by the shift lead at closing, with a second member of staff as witness.

Allergen questions from guests are answered by the head chef.

New starters are trained by Lena Brooks, the front-of-house manager, during their first week.
"""

NOTICE_ZH = """白鹭登山俱乐部五月活动通知

本月活动定于5月17日攀登大青尖，全程约14公里，累计爬升900米。

本次活动由资深领队高鹏带队，队医由志愿者林素梅担任。

报名和费用收取由俱乐部秘书处负责，报名截止日期为5月10日。

出发前的安全培训由山地救援队教官讲授。
"""


def main() -> None:
    FILES.mkdir(parents=True, exist_ok=True)
    docx(FILES / "青松社区花园协会三月会议纪要.docx", "青松社区花园协会三月会议纪要", MINUTES_ZH, stable=True)
    markdown_page(FILES / "thornbury_rowing_club_minutes.md", "Thornbury Rowing Club: committee minutes", MINUTES_EN)
    (FILES / "ferrowind_leadership.html").write_text(LEADERSHIP_EN, encoding="utf-8")
    markdown_page(FILES / "云帆物流管理团队.md", "云帆物流管理团队", TEAM_ZH)
    (FILES / "harbour_kitchen_handbook.txt").write_text(HANDBOOK_EN, encoding="utf-8")
    (FILES / "白鹭登山俱乐部五月活动通知.txt").write_text(NOTICE_ZH, encoding="utf-8")


if __name__ == "__main__":
    main()
