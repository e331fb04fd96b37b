"""Writes the seventh new-user trial's files (tests/data/newuser7/files/) the way a user's own tools would: PDFs with
reportlab (one Chinese with a CID font, one English), a DOCX with python-docx, CSV (one English, one Chinese),
Markdown in both languages, HTML and plain text, zh and en. Two invented domains no other set uses: a university
polymer lab's safety rules (启明大学高分子实验室 / Qiming University Polymer Lab) with the company that makes its
fume hoods (Calder Labworks), and a tea estate (雾岭茶园 / Mistridge Tea Estate) with the village its leaves are
rolled in (Hollin Ford). PDF and DOCX are written ``stable``: the same bytes on every run.

Run from the repository root: ``.venv/bin/python tests/data/newuser7/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("lab", "tea"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    # --- domain 1: a university polymer lab
    pdf(OUT / "lab" / "高分子实验室安全守则.pdf", "启明大学高分子实验室安全守则", [
        "本守则于2024年9月修订，适用于在启明大学高分子实验室工作的全体师生。",
        "实验室位于致远楼三楼305室。致远楼于2008年建成，是化学学院的主楼。",
        "实验室每天8:00开放，22:00关门。22:00以后留在实验室做实验须两人同行，并在值班室登记。",
        "进入实验室必须佩戴护目镜和实验服，不得穿拖鞋。",
        "新进人员须在入学后两周内完成安全培训并参加安全考试，考试90分及以上为合格。",
        "废液桶装到容量的80%时必须更换，不得继续倒入废液。",
    ], cjk=True, stable=True)
    csv_file(OUT / "lab" / "instrument_booking.csv", [
        ["Instrument", "Room", "Longest booking (hours)", "Fee per hour (yuan)"],
        ["GPC (gel permeation chromatograph)", "305", "4", "60"],
        ["DSC (differential scanning calorimeter)", "307", "6", "45"],
        ["Rotational rheometer", "309", "3", "80"],
        ["FTIR spectrometer", "305", "2", "30"],
    ])
    docx(OUT / "lab" / "2025年秋季实验室例会纪要.docx", "高分子实验室2025年秋季例会纪要", [
        ("p", "时间：2025年9月18日　地点：致远楼310会议室"),
        ("p", "主持人：沈知远（实验室主任）"),
        ("p", "记录：贺晴"),
        ("h", "会议决定"),
        ("p", "一、液氮申领改为每周二、周四下午。"),
        ("p", "二、305室的两台旧通风橱年底前更换，新通风橱由Calder Labworks供货。"),
        ("p", "三、下学期安全检查定于2026年3月10日。"),
    ], stable=True)
    (OUT / "lab" / "waste_codes.md").write_text(
        "# Chemical waste codes\n\n"
        "Every waste container in the polymer lab carries one code.\n\n"
        "- W1: non-halogenated organic solvents (acetone, ethanol, hexane).\n"
        "- W2: halogenated solvents such as dichloromethane and chloroform.\n"
        "- W3: acids and bases, neutralised before collection.\n"
        "- W4: heavy-metal solutions, kept in the locked cabinet.\n"
        "- W5: contaminated solids: gloves, filter paper and used silica gel.\n\n"
        "Containers are collected by the university's waste service every Friday morning.\n", encoding="utf-8")
    (OUT / "lab" / "calder_labworks.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>About Calder Labworks</title></head><body>"
        "<h1>About Calder Labworks</h1>"
        "<p>Calder Labworks makes fume hoods and safety cabinets for teaching and research laboratories. "
        "The company was founded in 1978 by Moira Calder and is based in Ashby Vale.</p>"
        "<p>Its fume hoods are tested to EN 14175. The company employs about 240 people.</p>"
        "</body></html>", encoding="utf-8")

    # --- domain 2: a tea estate
    pdf(OUT / "tea" / "mistridge_estate_notes.pdf", "Mistridge Tea Estate — estate notes", [
        "Mistridge Tea Estate (雾岭茶园) was founded in 1931 by Edmund Hale on the slopes above the Tay valley.",
        "The estate's gardens lie at 1,150 metres. The spring first flush is picked from late March to mid-April.",
        "The leaves are withered and rolled at the estate's factory in Hollin Ford, then dried over charcoal.",
        "Mistridge Spring Bud is the estate's green tea; Mistridge Black is its black tea.",
    ], cjk=True, stable=True)
    (OUT / "tea" / "hollin_ford.txt").write_text(
        "Hollin Ford\n\n"
        "Hollin Ford is a village on the River Tay, below the Mistridge hills. It grew up around a stone bridge "
        "built in 1784.\n\n"
        "About 2,300 people live there. The village hall hosts a tea fair every May.\n", encoding="utf-8")
    csv_file(OUT / "tea" / "雾岭茶园价目表.csv", [
        ["品名", "规格", "零售价（元）"],
        ["雾岭春芽（绿茶）", "100克", "168"],
        ["雾岭红茶", "100克", "98"],
        ["高山乌龙", "250克", "260"],
    ])
    (OUT / "tea" / "2025年采购会议纪要.md").write_text(
        "# 雾岭茶园2025年采购会议纪要\n\n"
        "会议时间：2025年2月20日。主持人：Edmund Hale III（园主）。记录：林晓雯。\n\n"
        "## 决定\n\n"
        "1. 包装纸盒改由温州的恒丰印务供货，每只单价1.8元。\n"
        "2. 木炭采购量增加到每年12吨。\n"
        "3. 雾岭红茶的零售价由88元上调至98元（100克）。\n", encoding="utf-8")
    (OUT / "tea" / "tasting_room.html").write_text(
        "<html><head><meta charset=\"utf-8\"><title>The Mistridge tasting room</title></head><body>"
        "<h1>The tasting room</h1>"
        "<p>The estate opened its tasting room in 2016, next to the factory in Hollin Ford.</p>"
        "<p>It is open from Wednesday to Sunday. On weekdays it opens at 10:00; on Saturdays and Sundays at 9:30. "
        "It closes at 17:00.</p>"
        "<p>A guided tasting of five teas costs 45 yuan per person.</p>"
        "</body></html>", encoding="utf-8")


if __name__ == "__main__":
    main()
