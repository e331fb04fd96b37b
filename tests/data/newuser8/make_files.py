"""Writes the eighth new-user trial's files (tests/data/newuser8/files/) the way a user's own tools would: PDFs with
reportlab (one Chinese with a CID font, one English carrying a Chinese name), a DOCX with python-docx, CSV (one
English, one Chinese), Markdown in both languages, HTML and plain text, zh and en. Two invented domains no other set
uses: a city swimming pool (澄湖游泳馆 / Chenghu Aquatic Centre) with the company that supplies its rescue gear
(Brightwater Safety), and a violin-making workshop (枫林提琴工坊 / Fenwick & Rowe Violin Workshop) with the mill
its instruments are varnished in (Saltby Mill). PDF and DOCX are written ``stable``: the same bytes on every run.

Run from the repository root: ``.venv/bin/python tests/data/newuser8/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("pool", "violin"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a city swimming pool
    pdf(OUT / "pool" / "澄湖游泳馆入场须知.pdf", "澄湖游泳馆入场须知", [
        "本须知于2025年5月修订，适用于所有进入澄湖游泳馆的游客。",
        "游泳馆位于澄湖公园东门，于2011年建成，主池长50米。",
        "游泳馆每天6:30开放，21:30闭馆。周一上午9:00至12:00为清洁时间，暂停开放。",
        "进入深水区须持有深水证。申请深水证须连续游完200米，并踩水30秒。",
        "池水温度保持在26至28摄氏度之间。",
        "身高1.2米以下的儿童须由成年人陪同入水。",
    ], cjk=True, stable=True)
    csv_file(OUT / "pool" / "lane_sessions.csv", [
        ["Session", "Days", "Time", "Price per visit (yuan)"],
        ["Early lanes", "Monday to Friday", "6:30-8:30", "25"],
        ["Family swim", "Saturday and Sunday", "14:00-17:00", "40"],
        ["Masters squad", "Tuesday and Thursday", "19:00-21:00", "55"],
        ["Aqua fitness", "Wednesday", "10:00-11:00", "35"],
    ])
    docx(OUT / "pool" / "2025年救生安全例会纪要.docx", "澄湖游泳馆2025年救生安全例会纪要", [
        ("p", "时间：2025年6月12日　地点：游泳馆二楼会议室"),
        ("p", "主持人：韩立军（馆长）"),
        ("p", "记录：苏青"),
        ("h", "会议决定"),
        ("p", "一、暑期每班增加两名救生员。"),
        ("p", "二、旧救生板和救生杆年内全部更换，新器材由Brightwater Safety供货。"),
        ("p", "三、全体救生员的心肺复苏复训定于2025年7月3日。"),
    ], stable=True)
    (OUT / "pool" / "flag_signals.md").write_text(
        "# Poolside flag signals\n\n"
        "The lifeguard on the high chair raises one flag to tell swimmers what to do.\n\n"
        "- F1 (green): normal swimming in all lanes.\n"
        "- F2 (yellow): the deep end is closed for diving practice.\n"
        "- F3 (red): leave the water at once.\n"
        "- F4 (blue): lane ropes are being moved; keep to the shallow end.\n\n"
        "Flags are checked by the duty manager at the start of every shift.\n", encoding="utf-8")
    (OUT / "pool" / "brightwater_safety.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>About Brightwater Safety</title></head><body>"
        "<h1>About Brightwater Safety</h1>"
        "<p>Brightwater Safety makes rescue boards, reaching poles and spinal boards for public pools. "
        "The company was founded in 1994 by Leonard Pryce and is based in Kestrel Bay.</p>"
        "<p>Its rescue boards float with a load of 150 kg. The company employs about 85 people.</p>"
        "</body></html>", encoding="utf-8")

    # --- domain 2: a violin-making workshop
    pdf(OUT / "violin" / "fenwick_rowe_workshop.pdf", "Fenwick & Rowe Violin Workshop (枫林提琴工坊)", [
        "The Fenwick & Rowe Violin Workshop (枫林提琴工坊) was founded in 1987 by Clara Fenwick in Dunmere.",
        "Each violin takes about 220 hours of bench work. The tops are carved from spruce seasoned for ten years.",
        "Finished instruments are varnished and dried in the loft of Saltby Mill, where the light is even.",
        "The workshop's student model is the Dunmere; its concert model is the Fenwick Gold.",
    ], cjk=True, stable=True)
    (OUT / "violin" / "saltby_mill.txt").write_text(
        "Saltby Mill\n\n"
        "Saltby Mill is a former flour mill on the River Wenn, at the edge of Dunmere. It was built in 1862 "
        "and stopped grinding flour in 1954.\n\n"
        "Today it holds artists' studios. Its loft is rented by a violin workshop.\n", encoding="utf-8")
    csv_file(OUT / "violin" / "枫林提琴价目表.csv", [
        ["品名", "规格", "价格（元）"],
        ["Dunmere学生琴", "4/4", "6800"],
        ["Fenwick Gold演奏琴", "4/4", "42000"],
        ["琴弓换毛", "小提琴弓", "380"],
    ])
    (OUT / "violin" / "2025年木料采购会议纪要.md").write_text(
        "# 枫林提琴工坊2025年木料采购会议纪要\n\n"
        "会议时间：2025年3月6日。主持人：Clara Fenwick（创始人）。记录：周雨桐。\n\n"
        "## 决定\n\n"
        "1. 云杉面板改由意大利的Val di Fiemme木材行供货，每块单价420元。\n"
        "2. 枫木背板年采购量增加到60块。\n"
        "3. Dunmere学生琴的售价由6200元上调至6800元。\n", encoding="utf-8")
    (OUT / "violin" / "repair_desk.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>The repair desk</title></head><body>"
        "<h1>The repair desk</h1>"
        "<p>The workshop opened its repair desk in 2019, on the ground floor of the Dunmere shop.</p>"
        "<p>It is open from Tuesday to Saturday. On weekdays it opens at 9:00; on Saturdays at 10:30. "
        "It closes at 18:00.</p>"
        "<p>A setup check of a violin, bridge and soundpost included, costs 150 yuan.</p>"
        "</body></html>", encoding="utf-8")


if __name__ == "__main__":
    main()
