"""Writes the third new-user trial's files (tests/data/newuser3/files/) the way a user's own tools would: PDFs
with reportlab (one English, one Chinese with a CID font), DOCX with python-docx, CSV, Markdown, HTML and plain
text. Two invented domains no other set uses: a coastal ferry company (东岚航运 / Donglan Shipping) with the two
islands it sails to, and a veterinary clinic (明爪宠物医院 / Brightpaw Veterinary Clinic). Names are written in
each file's own script only (Qingyu Island in English, 青屿岛 in Chinese), the way a bilingual user's files are.

Run from the repository root: ``.venv/bin/python tests/data/newuser3/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("ferry", "islands", "clinic"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a ferry company and the islands it serves
    pdf(OUT / "ferry" / "donglan_fleet_guide.pdf", "Donglan Shipping fleet guide", [
        "Donglan Shipping runs passenger ferries from Baisha Port to two islands off the coast.",
        "The Haiyan is a conventional ferry built in 2012 at a shipyard in Ningbo. She carries up to 480 "
        "passengers and 60 cars, and sails between Baisha Port and Qingyu Island in about 95 minutes. "
        "Her master is Captain Wei Dongsheng.",
        "The Lanjing is a catamaran built in 2020. She carries 260 passengers, has a top speed of 32 knots, "
        "and serves the route from Baisha Port to Shimen Island, a crossing of 40 minutes.",
        "Each passenger may bring up to 20 kg of luggage free of charge. Small pets in closed carriers are "
        "allowed on the Haiyan only.",
    ])
    csv_file(OUT / "ferry" / "票价表.csv", [
        ["航线", "船舶", "成人票价", "儿童票价", "每日班次"],
        ["白沙港—青屿岛", "海燕号", "68元", "34元", "6班"],
        ["白沙港—石门岛", "蓝鲸号", "45元", "23元", "10班"],
    ])
    docx(OUT / "ferry" / "2025年第三季度安全例会纪要.docx", "东岚航运2025年第三季度安全例会纪要", [
        ("p", "时间：2025年7月8日　地点：白沙港客运站三楼会议室"),
        ("p", "主持人：陈海峰（安全总监）"),
        ("p", "出席：各船船长及值班主管共18人。"),
        ("h", "会议决定"),
        ("p", "一、自2025年8月1日起，蓝鲸号在风力达到7级及以上时停航。"),
        ("p", "二、海燕号将于2025年11月进坞大修，为期三周，期间由租用的远帆号替代运营。"),
        ("p", "三、下一次安全例会定于2025年10月14日召开。"),
    ])
    (OUT / "ferry" / "winter_timetable_notice.txt").write_text(
        "Winter timetable notice\n\n"
        "From 1 December 2024 to 28 February 2025 the Haiyan sails four times a day in each direction instead "
        "of six. The Lanjing does not sail on Tuesdays during this period, when she is serviced. Tickets bought "
        "for cancelled sailings are refunded in full at the Baisha Port ticket office.\n",
        encoding="utf-8")
    (OUT / "islands" / "qingyu_island.html").write_text(
        "<html><head><title>Qingyu Island — visitor notes</title></head><body>"
        "<h1>Qingyu Island — visitor notes</h1>"
        "<p>Qingyu Island has about 3,200 residents, most of them in the main village, Nanwan. The island is "
        "known for its seaweed farms.</p>"
        "<p>The Qingyu Lighthouse on the northern cape was built in 1903 and still works. The highest point is "
        "Wangyue Hill, 212 metres above the sea.</p>"
        "<p>Bicycles can be hired at the pier from April to October.</p>"
        "</body></html>", encoding="utf-8")
    (OUT / "islands" / "石门岛简介.txt").write_text(
        "石门岛简介\n\n"
        "石门岛位于白沙港东南约12海里，常住人口约860人，以海钓和礁石景观闻名。"
        "岛东端的石门灯塔建于1936年。岛上的石门小学创办于1958年，现有学生41名。"
        "岛上没有机动车道路，游客可步行或租用电动三轮车游览。\n",
        encoding="utf-8")

    # --- domain 2: a veterinary clinic
    docx(OUT / "clinic" / "brightpaw_client_handbook.docx", "Brightpaw Veterinary Clinic — client handbook", [
        ("p", "Brightpaw Veterinary Clinic was founded in 2011 by Dr. Tomas Reyes. The head veterinarian today "
              "is Dr. Helen Marsh, to whom requests for medical records should be sent."),
        ("p", "The clinic is open Monday to Saturday from 8:30 to 19:00 and is closed on Sundays and public "
              "holidays."),
        ("p", "Appointments can be booked up to 14 days ahead. An appointment cancelled less than 24 hours "
              "before it starts costs a fee of 50 yuan."),
        ("p", "Dogs must be kept on a lead in the waiting room, and cats must stay in their carriers."),
    ])
    pdf(OUT / "clinic" / "明爪宠物医院2025年收费标准.pdf", "明爪宠物医院2025年收费标准", [
        "犬猫基础体检每次120元，狂犬疫苗每针80元。",
        "猫绝育手术650元；犬绝育手术按体重收费，900元至1500元。",
        "洁牙每次900元，术前须禁食12小时。住院每天200元。",
        "本收费标准自2025年3月1日起执行。",
    ], cjk=True)
    (OUT / "clinic" / "滨湖分院开业.md").write_text(
        "# 明爪宠物医院滨湖分院开业\n\n"
        "2024年9月，明爪宠物医院在滨湖区湖滨路开设第二家分院。分院院长为苏婉清，"
        "现有兽医6名、护理人员9名。\n\n"
        "分院设有独立的猫科诊室，并提供24小时急诊服务。\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
