"""Writes the eleventh new-user trial's files (tests/data/newuser11/files/): the everyday papers of one invented
small organisation, a community bicycle-repair workshop (青巷单车工坊 / Greenlane Bike Kitchen) — a Chinese DOCX
membership policy, an English HTML tool-lending policy, an English Markdown closing-up how-to and a Chinese
Markdown donated-bike intake guide, an English spare-parts price CSV and a Chinese volunteer-roster CSV, an
English plain-text repair log and a Chinese PDF of the members' spring meeting minutes. No other set uses this
domain. The DOCX and the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser11/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("policy", "howto", "tables", "logs"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    docx(OUT / "policy" / "青巷单车工坊会员制度.docx", "青巷单车工坊会员制度", [
        ("p", "本制度经2025年4月会员大会通过，自2025年5月1日起施行。"),
        ("h", "一、会费"),
        ("p", "普通会员年费为120元，学生会员年费为60元。会费在每年1月缴纳，可在工坊前台用现金或扫码支付。"),
        ("h", "二、工位使用"),
        ("p", "会员每周可免费使用维修工位三次，每次不超过两小时。非会员使用工位每小时收费15元。"),
        ("h", "三、会员资格的暂停"),
        ("p", "借出工具逾期超过两周未归还的会员，暂停会员资格一个月。"),
        ("p", "本制度由工坊协调人骆青禾负责解释。"),
    ], stable=True)
    (OUT / "policy" / "tool_lending.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Greenlane Bike Kitchen — Tool lending "
        "policy</title></head><body><h1>Tool lending policy</h1>"
        "<p>Members of Greenlane Bike Kitchen may borrow hand tools to take home. The policy was last revised in "
        "August 2025.</p>"
        "<h2>What can be borrowed</h2>"
        "<p>Truing stands, chain whips and the bottom-bracket tool set may be borrowed for up to seven days. The "
        "wheel-building jig and the frame alignment gauge never leave the workshop.</p>"
        "<h2>Deposit</h2>"
        "<p>Each loan needs a refundable deposit of 30 euros, paid to the volunteer on duty and returned when the "
        "tool comes back clean and complete.</p>"
        "<h2>Lost tools</h2>"
        "<p>A member who loses a borrowed tool pays its replacement price from the parts list. Disputes are "
        "settled by the tool steward, Wendell Achterberg.</p>"
        "</body></html>\n", encoding="utf-8")

    (OUT / "howto" / "closing_up.md").write_text(
        "# Closing up the workshop after an evening session\n\n"
        "The last volunteer on duty closes the workshop; evening sessions end at 21:30.\n\n"
        "## Steps\n\n"
        "1. Sweep the floor under the stands and empty the swarf tray into the metal bin.\n"
        "2. Hang every tool back on its outline on the pegboard; a missing tool goes into the loss book.\n"
        "3. Switch off the compressor at the red isolator beside the back door.\n"
        "4. Set the alarm with the code on the laminated card in the office, then pull the shutter down.\n\n"
        "## If something is wrong\n\n"
        "Text the duty coordinator, Priya Venkataraman, before you leave; do not leave a note on the door.\n",
        encoding="utf-8")
    (OUT / "howto" / "捐赠单车接收指南.md").write_text(
        "# 捐赠单车接收指南\n\n"
        "工坊每周六上午接收居民捐赠的旧单车，由接收组组长钟晚晴负责登记。\n\n"
        "## 接收标准\n\n"
        "1. 车架无裂纹、前叉未变形的单车才予接收。\n"
        "2. 儿童车只接收轮径16寸及以上的。\n"
        "3. 电动自行车和带锂电池的车辆一律不接收。\n\n"
        "## 登记与去向\n\n"
        "每辆车登记后贴上编号标签，修好后以50元至200元的价格转售给社区居民，所得款项全部用于购买配件。\n",
        encoding="utf-8")

    csv_file(OUT / "tables" / "parts_prices.csv", [
        ["part", "brand", "price_eur", "in_stock"],
        ["Inner tube 700x28", "Schwalbe", "6.50", "40"],
        ["Brake pads (pair)", "Clarks", "4.20", "25"],
        ["Chain 8-speed", "KMC", "13.90", "12"],
        ["Bottom bracket, square taper", "Shimano", "21.00", "5"],
        ["Bar tape", "Velox", "9.80", "8"],
    ])
    csv_file(OUT / "tables" / "志愿者排班表.csv", [
        ["星期", "时段", "值班志愿者", "负责内容"],
        ["星期二", "19:00-21:30", "覃若愚", "刹车与变速调校"],
        ["星期四", "19:00-21:30", "费佳音", "轮组与辐条"],
        ["星期六", "09:00-12:00", "钟晚晴", "捐赠单车接收"],
        ["星期六", "14:00-17:00", "覃若愚", "新手维修课"],
    ])

    (OUT / "logs" / "repair_log.txt").write_text(
        "Greenlane Bike Kitchen - workshop repair log, winter 2025/26\n\n"
        "2025-11-08  Cargo bike from the food bank: rebuilt rear hub, new cones. Done by Fei Jiayin.\n"
        "2025-12-03  Compressor tripped the breaker twice; electrician replaced the pressure switch for "
        "85 euros.\n"
        "2026-01-17  Donated tandem (tag 0412) stripped for parts; frame cracked at the seat tube.\n"
        "2026-02-06  Truing stand #2 came back from a loan with a bent caliper arm; member paid the deposit "
        "over to the repair.\n", encoding="utf-8")

    pdf(OUT / "logs" / "2026年春季会员大会纪要.pdf", "青巷单车工坊2026年春季会员大会纪要", [
        "时间：2026年3月14日上午十点。地点：工坊二楼活动室。",
        "主持人：骆青禾（协调人）。记录人：费佳音。到会会员：37人。",
        "一、会议通报，2025年工坊共修复单车412辆，转售捐赠单车96辆。",
        "二、会议决定，从2026年5月起每月最后一个星期日举办一次女性骑行者维修课，由覃若愚负责。",
        "三、会议同意，用区政府的社区微更新补助款12,000元更换工坊的空气压缩机。",
        "四、下一次会员大会定于2026年9月召开。",
    ], cjk=True, stable=True)


if __name__ == "__main__":
    main()
