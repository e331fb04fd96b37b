"""Writes the fifth new-user trial's files (tests/data/newuser5/files/) the way a user's own tools would: a PDF
with reportlab (English; one Chinese with a CID font), a DOCX with python-docx, CSV, Markdown, HTML and plain text.
Two invented domains no other set uses: a bakery chain (麦穗坊 / Wheatear Bakery) and a hiking club (青岚徒步社 /
Bluehaze Hiking Club). All content is invented.

Run from the repository root: ``.venv/bin/python tests/data/newuser5/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("bakery", "club"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a bakery chain
    pdf(OUT / "bakery" / "wheatear_shops.pdf", "Wheatear Bakery shops guide", [
        "Wheatear Bakery runs three shops in the city of Lindford.",
        "The Millgate shop opened in 2012 and is the oldest. It has a stone oven and seats 24 guests.",
        "The Harbour shop opened in 2018. It is open from 6:30 to 20:00 every day and sells only bread and coffee.",
        "The Station shop opened in 2021 and closed in 2024 because the station was rebuilt.",
        "Every shop bakes its sourdough with the same starter, which the founder brought from Vienna in 2009.",
    ])
    csv_file(OUT / "bakery" / "价目表.csv", [
        ["品名", "价格", "重量", "保质期"],
        ["酸面包", "28元", "600克", "3天"],
        ["黑麦面包", "32元", "700克", "5天"],
        ["可颂", "12元", "70克", "1天"],
    ])
    (OUT / "bakery" / "麦穗坊简介.md").write_text(
        "# 麦穗坊简介\n\n"
        "麦穗坊（英文名 Wheatear Bakery）由面包师林晓禾于2012年创办，总部位于林德福德市磨坊门街。\n\n"
        "## 员工\n\n截至2025年底，麦穗坊共有员工37人，其中面包师12人。\n\n"
        "## 原料\n\n所有面粉均来自北岭农场，每周送货两次。\n",
        encoding="utf-8")
    pdf(OUT / "bakery" / "2025年食品安全检查报告.pdf", "麦穗坊2025年食品安全检查报告", [
        "检查日期：2025年6月17日，检查员：郑秋月。",
        "港口店的冷藏柜温度为3摄氏度，符合要求。",
        "磨坊门店的面粉仓库湿度偏高，要求在30天内加装除湿机。",
        "检查结论：合格。",
    ], cjk=True)

    # --- domain 2: a hiking club
    docx(OUT / "club" / "bluehaze_handbook.docx", "Bluehaze Hiking Club member handbook", [
        ("p", "The Bluehaze Hiking Club was founded in 1996 and has 148 members."),
        ("h", "Membership"),
        ("p", "The annual membership fee is 40 euros; students pay 20 euros."),
        ("h", "Walks"),
        ("p", "Sunday walks leave from the Lindford town hall at 8:00. The walk leader is Ruth Calder."),
        ("p", "Dogs are allowed on walks if they are kept on a lead."),
    ])
    (OUT / "club" / "autumn_trip_2025.html").write_text(
        "<html><head><title>Autumn trip 2025: Grey Fell</title></head><body>"
        "<h1>Autumn trip 2025: Grey Fell</h1>"
        "<p>The club's autumn trip on 11 October 2025 climbs Grey Fell (1,024 m) from the village of Ashby.</p>"
        "<p>The coach leaves the town hall at 6:45. The trip costs 35 euros, lunch included.</p>"
        "</body></html>", encoding="utf-8")
    (OUT / "club" / "青岚徒步社2024年会纪要.txt").write_text(
        "青岚徒步社2024年年会纪要\n\n"
        "时间：2024年12月8日。地点：林德福德市政厅二楼。\n\n"
        "一、社长周远山报告：全年组织徒步活动46次，参加人次共1320。\n"
        "二、年会决定：2025年起会费由35欧元调整为40欧元。\n"
        "三、因灰岭山路塌方，原定2024年11月的灰岭远足取消。\n",
        encoding="utf-8")


if __name__ == "__main__":
    main()
