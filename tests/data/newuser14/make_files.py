"""Writes the fourteenth new-user trial's files (tests/data/newuser14/files/): the everyday papers of one invented
community allotment garden (青禾里社区菜园 / Greenfield Lane Allotments), saved the way a user's own tools save them,
odd encodings included — an English HTML page of plot rules, a Chinese DOCX of tool-lending rules whose deposits
are a Word table, an English DOCX of the autumn show whose classes are a Word table, an English plot-rent CSV
with a byte-order mark (Excel's "CSV UTF-8"), a Chinese fertiliser-purchase CSV in GBK (Excel's CSV on a Chinese
Windows), a Chinese watering note in GBK plain text (Notepad's ANSI on a Chinese Windows), an English Markdown
how-to (saving tomato seeds) and a Chinese PDF of the annual members' meeting's minutes. No other set uses this
domain. The DOCX and the PDF are written ``stable`` (the same bytes on every run).

Run from the repository root: ``.venv/bin/python tests/data/newuser14/make_files.py`` (idempotent)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository root: tests.support
from tests.support.own_material import csv_file, docx, pdf  # after the path

OUT = Path(__file__).parent / "files"


def main() -> None:
    for sub in ("rules", "tables", "notes", "howto", "minutes"):
        (OUT / sub).mkdir(parents=True, exist_ok=True)

    (OUT / "rules" / "plot_rules.html").write_text(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Greenfield Lane Allotments: plot rules"
        "</title></head><body><h1>Plot rules</h1>"
        "<p>These rules apply to every tenant of Greenfield Lane Allotments and were agreed by the committee in "
        "January 2026. Questions about them go to the site secretary, Marguerite Okafor.</p>"
        "<h2>Water</h2>"
        "<p>Hoses may only be used between 6 am and 9 am, so that the mains pressure holds for the houses on "
        "Greenfield Lane. At other times please fill watering cans from the troughs.</p>"
        "<h2>Fires and waste</h2>"
        "<p>Bonfires are not allowed on the site at any time. Woody prunings go in the chipping bay by the "
        "north gate; everything else goes on your own compost heap.</p>"
        "<h2>Keeping a plot</h2>"
        "<p>A plot left uncultivated for three months receives a warning letter; a second letter ends the "
        "tenancy. The committee walks the site to inspect every plot in the first week of July.</p>"
        "</body></html>\n", encoding="utf-8")
    docx(OUT / "rules" / "工具借用规定.docx", "青禾里社区菜园工具借用规定", [
        ("p", "本规定自2026年4月1日起施行，由菜园管理员贺春生负责解释。"),
        ("h", "一、借用手续"),
        ("p", "工具棚钥匙由管理员贺春生保管，借用时须在登记本上写明姓名、地块号和归还日期。"),
        ("h", "二、押金与借期"),
        ("t", [["工具", "押金（元）", "最长借期", "备注"],
               ["电动割草机", "200", "7天", "须自备延长线"],
               ["手推车", "50", "3天", ""],
               ["高枝剪", "80", "5天", "不得借给未成年人"],
               ["旋耕机", "500", "2天", "须先参加操作培训"]]),
        ("p", "逾期不还的，每逾期一天从押金中扣除10元。"),
    ], stable=True)
    docx(OUT / "rules" / "autumn_show.docx", "Greenfield Lane Autumn Produce Show 2026", [
        ("p", "The show is held in the allotment hall on Saturday 19 September 2026. Entries must be staged "
              "by 10:30 am; judging starts at 11 am and the hall reopens to visitors at 2 pm."),
        ("h", "Classes"),
        ("t", [["Class", "What to enter", "Judge", "Prize"],
               ["1", "Heaviest marrow", "Dr Felicity Brandt", "£25"],
               ["2", "Five matching runner beans", "Owen Castellano", "£10"],
               ["3", "Best jar of chutney", "Rukhsana Bello", "£15"],
               ["4", "Longest carrot", "Owen Castellano", "£10"]]),
        ("p", "Each tenant may enter up to three classes. Entry is free."),
    ], stable=True)

    csv_file(OUT / "tables" / "plot_rents.csv", [
        ["plot", "size_m2", "tenant", "annual_rent_gbp", "tenant since"],
        ["A1", "250", "Priya Raman", "86.00", "2019"],
        ["A2", "125", "Tom Whitlock", "48.00", "2023"],
        ["B1", "250", "Agnieszka Nowak", "86.00", "2021"],
        ["B2", "60", "Desmond Achterberg", "27.50", "2025"],
    ], encoding="utf-8-sig")
    csv_file(OUT / "tables" / "2026年肥料采购.csv", [
        ["日期", "品名", "数量", "金额（元）", "经手人"],
        ["2026-03-06", "发酵鸡粪", "40袋", "1260", "贺春生"],
        ["2026-03-21", "草木灰", "15袋", "225", "林晓雯"],
        ["2026-04-18", "骨粉", "10袋", "390", "贺春生"],
        ["2026-05-09", "有机液肥", "12桶", "576", "杜嘉铭"],
    ], encoding="gbk")

    (OUT / "notes" / "浇水轮值说明.txt").write_bytes(
        ("青禾里社区菜园浇水轮值说明\r\n\r\n"
         "公共花坛和育苗棚由志愿者轮流浇水。五月至九月，每周三傍晚由二号区的志愿者负责，每周六早上由三号区负责。\r\n"
         "雨水桶的水优先用于育苗棚，桶里的水不够时再接自来水。\r\n"
         "连续三天最高气温超过三十五度时，育苗棚改为每天浇两次，由杜嘉铭安排人手。\r\n").encode("gbk"))

    (OUT / "howto" / "saving_tomato_seeds.md").write_text(
        "# Saving your own tomato seeds\n\n"
        "Pick one or two of the best fruits from a healthy plant of an open-pollinated variety; seeds from F1 "
        "hybrids will not grow true.\n\n"
        "## Steps\n\n"
        "1. Squeeze the seeds and their jelly into a jar with a little water.\n"
        "2. Leave the jar on a warm windowsill for three days to ferment, stirring once a day. A white mould "
        "on top is normal.\n"
        "3. Pour off the mould and the floating seeds, rinse the good seeds in a sieve, and dry them on a "
        "plate for a week.\n\n"
        "Stored in a paper envelope somewhere cool and dry, the seeds keep for about four years. Bring spares "
        "to the seed swap run by Agnieszka Nowak every February.\n", encoding="utf-8")

    pdf(OUT / "minutes" / "2026年度会员大会纪要.pdf", "青禾里社区菜园2026年度会员大会纪要", [
        "时间：2026年3月14日上午九点。出席会员：37人。",
        "主持人：贺春生（管理员）。记录：林晓雯。",
        "一、大会通过，会员年费从每年60元调整为75元，自2026年7月起执行。",
        "二、大会同意，拨款4,800元在北门旁新建一个公共堆肥区，由杜嘉铭负责施工。",
        "三、大会决定，秋季农产品展由社区活动中心协办。",
        "四、下一次会员大会定于2027年3月召开。",
    ], cjk=True, stable=True)


if __name__ == "__main__":
    main()
