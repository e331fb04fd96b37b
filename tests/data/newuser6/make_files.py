"""Writes the sixth new-user trial's files (tests/data/newuser6/files/) the way a user's own tools would: PDFs with
reportlab (one English, one Chinese with a CID font), a DOCX with python-docx, CSV, Markdown, HTML and plain text,
zh and en. Two invented domains no other set uses: a district library's rules (柏溪区图书馆 / Baixi District
Library) and a small robotics startup's product notes (潮鹪机器人 / Tidewren Robotics) with the town its workshop is
in (Marlow Cross). PDF and DOCX are written ``stable``: the same bytes on every run.

Run from the repository root: ``.venv/bin/python tests/data/newuser6/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("library", "robotics"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a district library's rules
    pdf(OUT / "library" / "柏溪区图书馆借阅规则.pdf", "柏溪区图书馆借阅规则", [
        "柏溪区图书馆于1987年建成开放，2019年迁入滨河路66号新馆。",
        "持普通读者证的读者每次最多可借图书10册，借期30天，可续借一次，续借期为15天。",
        "持少儿读者证的读者每次最多可借图书5册。",
        "逾期归还的图书，每册每天收取滞纳金0.2元。",
        "遗失图书须按原价的两倍赔偿。",
    ], cjk=True, stable=True)
    (OUT / "library" / "opening_hours.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>Baixi District Library: opening hours</title></head><body>"
        "<h1>Opening hours</h1>"
        "<p>The Baixi District Library is open from Tuesday to Sunday, 9:00 to 20:00. It is closed on Mondays.</p>"
        "<p>The children's reading room closes at 17:30.</p>"
        "<p>The rooftop study terrace is open from April to October.</p>"
        "</body></html>", encoding="utf-8")
    docx(OUT / "library" / "2025年读者委员会会议纪要.docx", "柏溪区图书馆读者委员会2025年第一次会议纪要", [
        ("p", "时间：2025年4月9日　地点：新馆三楼报告厅"),
        ("p", "主持人：宋雅琴（副馆长）"),
        ("p", "出席：读者代表17人。"),
        ("h", "会议决定"),
        ("p", "一、自2025年5月1日起，自助还书机24小时开放。"),
        ("p", "二、古籍阅览室每周三、周六开放，读者须提前一天预约。"),
        ("p", "三、下一次会议定于2025年10月15日召开。"),
    ], stable=True)
    (OUT / "library" / "room_booking.md").write_text(
        "# Booking a group study room\n\n"
        "The library has four group study rooms, G1 to G4. Rooms G1, G2 and G3 seat 6 people each; room G4 seats "
        "12.\n\n"
        "A room can be booked up to 7 days ahead, for at most 3 hours a day. A booking that is not claimed within "
        "15 minutes of its start is released.\n\n"
        "Each library card may hold at most two bookings a week.\n", encoding="utf-8")

    # --- domain 2: a small robotics startup
    pdf(OUT / "robotics" / "tidewren_product_notes.pdf", "Tidewren Robotics — product notes", [
        "Tidewren Robotics (潮鹪机器人) was founded in 2021 by Ines Farrow and Tao Jun.",
        "The Tidewren P2 is a pool-cleaning robot. It weighs 4.2 kg and its battery lasts 150 minutes. The P2 is "
        "assembled in Marlow Cross, in the company's own workshop.",
        "The Tidewren G5 is a gutter-cleaning robot. It weighs 2.8 kg and its battery lasts 90 minutes. The G5 is "
        "made by a contract manufacturer in Suzhou.",
        "Both robots are charged on the CB-1 charging dock.",
    ], cjk=True, stable=True)  # a CID font: the bracketed Chinese name must survive in the PDF
    csv_file(OUT / "robotics" / "价格表.csv", [
        ["型号", "零售价", "保修期", "颜色"],
        ["Tidewren P2", "3980元", "2年", "灰色"],
        ["Tidewren G5", "2650元", "1年", "白色"],
        ["充电底座 CB-1", "399元", "1年", "黑色"],
    ])
    (OUT / "robotics" / "error_codes.txt").write_text(
        "Tidewren robots: error codes\n\n"
        "E1  Battery temperature too high. Let the robot cool down for 30 minutes.\n"
        "E2  Brush motor blocked. Remove hair or leaves from the brush.\n"
        "E3  Water sensor dry: the robot has left the water. Put it back in the pool.\n"
        "E4  Wi-Fi pairing failed. Hold the power button for 5 seconds and pair again.\n"
        "E5  Firmware update interrupted. Keep the robot on the dock and restart the update.\n",
        encoding="utf-8")
    (OUT / "robotics" / "2025年第二季度董事会纪要.md").write_text(
        "# 潮鹪机器人2025年第二季度董事会纪要\n\n"
        "会议时间：2025年7月3日。主持人：Ines Farrow（首席执行官）。记录：陶骏。\n\n"
        "## 决议\n\n"
        "1. G5的零售价由2890元下调至2650元。\n"
        "2. 批准在马洛克罗斯工坊新增一条装配线，预算48万元。\n"
        "3. 第三季度招聘3名嵌入式工程师。\n", encoding="utf-8")
    (OUT / "robotics" / "marlow_cross.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>Marlow Cross</title></head><body>"
        "<h1>Marlow Cross</h1>"
        "<p>Marlow Cross is a market town on the River Lenn. It was founded in 1642 around a wool market.</p>"
        "<p>About 18,000 people live in the town. Its Thursday market is the oldest in the county.</p>"
        "</body></html>", encoding="utf-8")


if __name__ == "__main__":
    main()
